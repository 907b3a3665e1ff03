/* frame8b10b.h: the packet stream of an 8b/10b link, de-striped, parsed
 * into packets (phy-digest.md sections 3.1, 3.2, 3.4; Base 6.2 section
 * 4.2.1.2).  rx8b10b.c feeds it the stream symbols of one symbol time in
 * lane order (symbol n of the stream is on lane n mod N), descrambled,
 * and tells it about the lanes that carried none.
 *
 * The symbols come as received with the key of the scrambler each D symbol
 * took; the packet is descrambled when it is complete, as the scrambling
 * (scramble8b10b.h, fed the logical idle and the packets here) says.
 *
 * STP ... END is a TLP (the bytes between: sequence field, TLP, LCRC),
 * STP ... EDB a nullified one, SDP + 6 bytes + END a DLLP; logical idle
 * (D symbols between packets) and PAD after an END/EDB are skipped.
 *
 * Errors (digest 3.4): inside a packet (a code or disparity error, a
 * foreign K symbol, a TLP of fewer than 18 symbols, a DLLP of other than
 * 6 bytes, no END before the next STP/SDP or an ordered set, a lane
 * without a symbol, the largest TLP record exceeded) the packet comes out
 * with phy_error and the first problem as reason, the bytes as received;
 * outside one (END/EDB with no packet open, a K symbol where a packet start
 * or idle is expected, STP/SDP in a lane other than 0 or 4k or the second
 * of a kind in one symbol time, an error in idle or in an ordered set, a
 * lane dropping out) a LANE_FRAMING report.  A lane reported once stays
 * quiet until it carries a good symbol again, so one bad burst is one
 * report.  After a framing error at a packet start, the symbols up to the
 * next END/EDB, STP/SDP or ordered set belong to that report and are
 * skipped.
 *
 * Lanes are taken as aligned (as the transmitter sends them): lanes with
 * skew on the receive side show as framing errors; there is no de-skew.
 * Lanes without any symbol in the data stream are left out of the
 * de-striping, so a link that trained narrower than its mapping (x4 on 8
 * mapped lanes, the others in electrical idle) reads as that width.
 */
#ifndef DLLPCHECK_FRAME8B10B_H
#define DLLPCHECK_FRAME8B10B_H

#include <stdbool.h>
#include <stdint.h>

#include "core/record.h"
#include "read/lanes/lane_packet.h"
#include "read/lanes/scramble8b10b.h"

enum frame_state { FRAME_IDLE, FRAME_TLP, FRAME_DLLP, FRAME_SKIP };

struct frame8b10b {
	unsigned lanes;
	lane_packet_fn packet;
	void *ctx;
	struct scramble_detect *det;
	uint8_t state; /* enum frame_state */
	bool stp_seen, sdp_seen; /* in this symbol time */
	bool pad_ok; /* an END/EDB came in this symbol time: PAD may follow */
	bool after_idle; /* the previous stream symbol was logical idle */
	bool phy_error;
	uint32_t quiet; /* lanes with a framing error reported and no good symbol since */
	uint32_t gone; /* lanes reported as missing, not back yet */
	uint32_t active; /* lanes that carried the stream since it (re)started */
	struct lane_pos start_pos;
	unsigned start_lane;
	size_t len;
	char reason[160];
	uint8_t buf[TLP_MAX_RECORD_LEN]; /* as received */
	uint8_t keys[TLP_MAX_RECORD_LEN]; /* the key of each (0 for K symbols) */
};

void frame8b10b_init(struct frame8b10b *f, unsigned lanes, struct scramble_detect *det,
                     lane_packet_fn packet, void *ctx);
/* A new symbol time begins (the one-STP/one-SDP and PAD rules): stream
 * are the lanes with a stream symbol in it, good those without an error
 * (they end a lane's dropout and its quiet time; frame8b10b_symbol() does
 * the same for one symbol). */
static inline void frame8b10b_begin(struct frame8b10b *f, uint32_t stream, uint32_t good)
{
	f->stp_seen = f->sdp_seen = f->pad_ok = false;
	f->gone &= ~stream;
	f->active |= stream;
	f->quiet &= ~good;
}
/* One stream symbol: the byte as received, the key it took (0 for a K
 * symbol), K flag, code8b10b error; code is the input value (for the
 * message of a code error), input its form. */
void frame8b10b_symbol(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane, uint8_t raw,
                       uint8_t key, bool k, unsigned err, unsigned code, unsigned input);
/* The common case, inline (the per-symbol path): an error-free D symbol,
 * the same as frame8b10b_symbol() with k false and no error. */
static inline void frame8b10b_data(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane,
                                   uint8_t raw, uint8_t key)
{
	(void)lane; /* its dropout and quiet time ended in frame8b10b_begin() */
	if ((f->state == FRAME_TLP || f->state == FRAME_DLLP) && f->len < sizeof f->buf) {
		f->after_idle = false;
		f->keys[f->len] = key;
		f->buf[f->len++] = raw;
	} else if (f->state == FRAME_IDLE) {
		f->after_idle = true;
		if (f->det->mode == LANE_SCRAMBLE_AUTO)
			scramble_idle_vote(f->det, raw, key);
	} else {
		frame8b10b_symbol(f, pos, lane, raw, key, false, 0, 0, 0);
	}
}
/* Training began again: the lanes of the next data stream are the ones
 * that carry it (a link may train narrower than the lanes mapped). */
static inline void frame8b10b_retrain(struct frame8b10b *f)
{
	f->active = 0;
}

/* A lane without a stream symbol while others have one: os says it was in
 * an ordered set (skew), else it had no symbol at all.  A lane with no
 * symbol that has not carried the stream since it (re)started is no lane
 * of the link (it trained narrower than mapped): nothing to say. */
void frame8b10b_gap(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane, bool os);
/* No lane has a stream symbol: an ordered set (os) or nothing on any lane;
 * a packet still open has lost its END. */
void frame8b10b_break(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane, bool os);
/* A code or disparity error on a symbol of an ordered set. */
void frame8b10b_os_error(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane,
                         uint8_t byte, bool k, unsigned err, unsigned code, unsigned input);
/* The input ended. */
void frame8b10b_finish(struct frame8b10b *f);
/* A packet is open (since its first symbol at *since). */
bool frame8b10b_open(const struct frame8b10b *f, struct lane_pos *since);

#endif
