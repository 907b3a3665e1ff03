/* warp_frame.h: the Warp Pipe frames of one direction's TCP byte stream
 * (warp_pipe.h draws them): in step, the frame at the head of the stream
 * is taken whole once its bytes are there, whatever its CRC says (the
 * checks report a bad one, as for any capture); out of step (after a gap,
 * a damaged frame, a capture that starts mid-connection) every offset is
 * tried in turn, and the stream is back in step at the first one where a
 * frame verifiably starts: a TLP whose LCRC checks (or is the inverted one
 * of a nullified TLP) [Base 3.6.2.1, 3.6.3.1], or a DLLP of a defined type
 * whose CRC-16 checks and that either ends where its segment's bytes end
 * (warp-pipe sends one frame a send()) or is followed by a frame that
 * verifies too: 16 bits of CRC alone are matched by TLP payload bytes at
 * one offset in 65536 (and by a crafted payload always).  Nothing is
 * taken at a guess.
 *
 * Damaged (out of step from here): a protocol byte other than 2 or 3, a
 * TLP whose first header DW has a reserved Fmt (101b-111b) or that has
 * more than TLP_MAX_PREFIX_DW prefixes, so that its length is unknown.
 *
 * The bytes come in chunks, each with the capture position of its first
 * byte (tcp_stream.h); a record's position is that of its frame's first
 * byte.  The window holds twice the largest frame, and at most
 * WARP_FRAME_MARKS chunk starts: a chunk starting inside a frame whose
 * length is known (in step) needs none, so in step only the bytes of one
 * frame header can use them; out of step a frame candidate spread over
 * more chunks than that cannot be verified and is passed over.
 */
#ifndef DLLPCHECK_WARP_FRAME_H
#define DLLPCHECK_WARP_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/net/tcp_stream.h"
#include "read/net/warp_pipe.h"

#define WARP_FRAME_WINDOW (2u * WARP_PIPE_FRAME_MAX)
#define WARP_FRAME_MARKS 256u

/* From stream offset off on, the bytes are those of the capture from pos
 * on (one segment's), up to the next mark. */
struct warp_mark {
	uint64_t off;
	struct tcp_pos pos;
	bool seg_start; /* off is a chunk's (a segment's) first byte */
};

enum warp_frame_result {
	WARP_FRAME_MORE, /* needs more bytes (or a break) */
	WARP_FRAME_RECORD, /* out holds a frame */
	WARP_FRAME_CUT, /* out: a frame cut by a break: have of need bytes */
	WARP_FRAME_SKIPPED, /* out: skipped bytes from pos; resumed: a frame
	                     * verifiably starts after them, at resume */
};

struct warp_frame_out {
	uint8_t kind; /* REC_DLLP, REC_TLP; 0: unknown (a cut frame) */
	const uint8_t *bytes; /* the frame less its protocol byte */
	uint32_t len;
	struct tcp_pos pos; /* of the frame's (the skipped region's) first byte */
	uint64_t off; /* its stream offset */
	uint64_t have, need; /* CUT: bytes there; bytes the frame has (0: unknown) */
	uint64_t skipped; /* SKIPPED */
	bool resumed;
	struct tcp_pos resume;
	const char *why; /* SKIPPED: why out of step; CUT: the break */
	const char *until; /* SKIPPED, not resumed: the break they ran to */
};

struct warp_frame {
	bool sync; /* in step */
	bool have_len; /* in step: the head frame's length is known */
	uint32_t frame_len;
	uint32_t no_ecrc_len; /* a TD=1 TLP's length without its ECRC DW (0: TD=0) */
	bool blocked; /* a chunk could not be taken: no mark left */
	bool tail_seg_end; /* the window ends where the last chunk (segment) does */
	bool broken; /* a break waits to be worked (break_why) */
	const char *break_why, *why; /* why: out of step since */
	char why_buf[80]; /* why, when it is a damaged frame's */
	/* out of step: the region skipped so far */
	uint64_t skip_bytes;
	struct tcp_pos skip_pos;
	uint64_t skip_off;
	uint64_t decoded, skipped;
	size_t head, tail;
	uint64_t win_off; /* stream offset of win[0] */
	unsigned mark_first, nmarks;
	struct warp_mark marks[WARP_FRAME_MARKS];
	uint8_t win[WARP_FRAME_WINDOW];
};

/* In step (a stream from its SYN) or out of step since why. */
void warp_frame_init(struct warp_frame *f, bool sync, const char *why);
/* Out of step from here (before any byte came: a mid-connection start). */
void warp_frame_lose_step(struct warp_frame *f, const char *why);

/* Takes bytes of the chunk data[0..len) at stream offset off (the bytes
 * before it all given), pos the capture position of data[0]; returns how
 * many it took (fewer when the window or the marks are full: call
 * warp_frame_step() and give the rest again). */
size_t warp_frame_feed(struct warp_frame *f, const uint8_t *data, size_t len, uint64_t off,
                       const struct tcp_pos *pos);

/* The stream breaks here (a gap, its end): what the window holds is cut
 * or skipped (given by warp_frame_step()), and the stream goes on out of
 * step. */
void warp_frame_break(struct warp_frame *f, const char *why);

/* The next frame or report from the bytes taken; out->bytes are valid
 * until the next call. */
enum warp_frame_result warp_frame_step(struct warp_frame *f, struct warp_frame_out *out);

#endif
