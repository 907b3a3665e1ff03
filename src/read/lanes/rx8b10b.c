/* rx8b10b.c: one direction of a 2.5/5 GT/s link (rx8b10b.h): each lane
 * through lane_os8b10b.c, the scrambling decided, the training state
 * followed, the stream symbols handed to frame8b10b.c in lane order.
 *
 * Lanes are taken as aligned, as a transmitter sends them (every lane
 * carries its ordered sets in the same symbol times): lanes with skew on
 * the receive side show as framing errors, there is no de-skew.
 *
 * Scrambling: scramble8b10b.h (forced, or from the idle and the CRCs).
 *
 * Training (capture-format.md section 4): TS1/TS2 on any lane start
 * training (LANE_RETRAIN first when a data stream ran before); the first
 * symbol time with stream symbols after them is the start of the data
 * stream (LANE_TRAINED, at lane 0).
 */
#include "read/lanes/rx8b10b.h"

#include <stdlib.h>
#include <string.h>

#include "read/lanes/code8b10b.h"
#include "read/lanes/frame8b10b.h"
#include "read/lanes/lane_os8b10b.h"
#include "read/lanes/scramble8b10b.h"

struct rx8b10b {
	lane_packet_fn packet;
	lane_symbol_fn symbol;
	void *ctx;
	unsigned lanes;
	struct scramble_detect det;
	bool training; /* TS1/TS2 seen, data stream not yet begun */
	bool polling; /* ... one of them with the Link number PAD */
	bool running; /* a data stream has run */
	/* lanes whose descrambler may be out of step: a COM (which resets
	 * the LFSR) came on them alone, not on every lane at once as ordered
	 * sets are sent (phy-digest 3.3); cleared by a COM on every lane */
	uint32_t lfsr_suspect;
	lane_packet_fn user_packet; /* cfg->packet, behind packet_out() */
	struct lane_rx lane[LANE_MAX];
	struct lane_out out[LANE_MAX];
	struct frame8b10b frame;
};

/* Every packet the framing finds goes out here: one completed while a
 * lane's descrambler may be out of step is damaged (its bytes may be
 * descrambled with the wrong keys), whatever its CRC says. */
static void packet_out(void *ctx, const struct lane_packet *pkt)
{
	struct rx8b10b *rx = ctx;
	if (rx->lfsr_suspect && !pkt->phy_error &&
	    (pkt->kind == LANE_DLLP || pkt->kind == LANE_TLP)) {
		struct lane_packet p = *pkt;
		p.phy_error = true;
		p.reason = "a COM not on every lane: the descramblers may be out of step";
		rx->user_packet(rx->ctx, &p);
		return;
	}
	rx->user_packet(rx->ctx, pkt);
}

struct rx8b10b *rx8b10b_new(const struct rx8b10b_config *cfg)
{
	switch (cfg->lanes) {
	case 1:
	case 2:
	case 4:
	case 8:
	case 12:
	case 16:
	case 32:
		break;
	default:
		return NULL;
	}
	if (!cfg->packet ||
	    (cfg->scrambling != LANE_SCRAMBLE_AUTO && cfg->scrambling != LANE_SCRAMBLE_YES &&
	     cfg->scrambling != LANE_SCRAMBLE_NO))
		return NULL;
	struct rx8b10b *rx = calloc(1, sizeof *rx);
	if (!rx)
		return NULL;
	rx->packet = cfg->packet;
	rx->symbol = cfg->symbol;
	rx->ctx = cfg->ctx;
	rx->lanes = cfg->lanes;
	scramble_detect_init(&rx->det, cfg->scrambling);
	for (unsigned i = 0; i < LANE_MAX; i++)
		lane_rx_init(&rx->lane[i]);
	rx->user_packet = cfg->packet;
	frame8b10b_init(&rx->frame, cfg->lanes, &rx->det, packet_out, rx);
	return rx;
}

static void link_fact(struct rx8b10b *rx, enum lane_packet_kind kind, const struct lane_pos *pos,
                      unsigned lane)
{
	struct lane_packet p = { .kind = kind, .pos = *pos, .lane = lane };
	rx->packet(rx->ctx, &p);
}

static void observe(struct rx8b10b *rx, unsigned lane, const struct lane_pos *pos,
                    const struct lane_out *o, bool descramble)
{
	unsigned flags = 0;
	uint8_t d = o->raw;
	switch (o->kind) {
	case LANE_OUT_NONE:
		flags = LANE_SYM_NONE;
		break;
	case LANE_OUT_OS:
		flags = LANE_SYM_OS;
		break;
	case LANE_OUT_DATA:
		if (descramble)
			d ^= o->key;
		break;
	default:
		break;
	}
	if (o->k)
		flags |= LANE_SYM_K;
	if (o->err)
		flags |= LANE_SYM_ERROR;
	if (o->err == CODE8B10B_DISPARITY)
		flags |= LANE_SYM_DISPARITY;
	rx->symbol(rx->ctx, lane, pos, o->raw, d, flags);
}

void rx8b10b_step(struct rx8b10b *rx, const struct lane_pos *pos, const struct lane_sym *syms)
{
	unsigned n = rx->lanes, ts_lane = LANE_MAX;
	bool pad_link = false;
	uint32_t ts = 0, com = 0, idle = 0; /* lane masks: TS begun, COM, idle data */
	uint32_t stream = 0, good = 0, os = 0, os_err = 0; /* lane masks */
	for (unsigned i = 0; i < n; i++) {
		struct lane_out *o = &rx->out[i];
		if (!lane_rx_fast(&rx->lane[i], &syms[i], o))
			lane_rx_step(&rx->lane[i], &syms[i], o);
		if (o->kind >= LANE_OUT_DATA) {
			stream |= 1u << i;
			if (!o->err)
				good |= 1u << i;
			/* logical idle: 00h, scrambled or not (phy-digest 3.1) */
			if (o->kind == LANE_OUT_DATA && !o->err &&
			    (o->raw == 0 || o->raw == o->key))
				idle |= 1u << i;
		} else if (o->kind == LANE_OUT_OS) {
			os |= 1u << i;
			if (o->err)
				os_err |= 1u << i;
			if (o->event & LANE_EV_TS)
				ts |= 1u << i;
			if (o->k && o->raw == K_COM)
				com |= 1u << i;
			if ((o->event & LANE_EV_TS) && ts_lane == LANE_MAX)
				ts_lane = i;
			if (o->event & LANE_EV_TS_PAD_LINK)
				pad_link = true;
		}
	}
	if (rx->symbol) {
		bool descramble = scramble_on(&rx->det);
		for (unsigned i = 0; i < n; i++)
			observe(rx, i, pos, &rx->out[i], descramble);
	}
	/* reports in the order of their first symbols: a packet an ordered set
	 * or a gap cuts off began before anything of this symbol time */
	if (stream == 0) {
		unsigned lane = 0;
		while (lane < n && !(os >> lane & 1u))
			lane++;
		frame8b10b_break(&rx->frame, pos, lane < n ? lane : 0, os != 0);
	}
	for (unsigned i = 0; os_err; i++, os_err >>= 1) {
		const struct lane_out *o = &rx->out[i];
		if (os_err & 1u)
			frame8b10b_os_error(&rx->frame, pos, i, o->raw, o->k, o->err, o->code,
			                    o->input);
	}
	/* an ordered set goes on every lane at once (phy-digest 3.3): a COM
	 * on some lanes only (a bit error can make one) reset their
	 * descramblers alone, and a TS begun on some lanes only is no
	 * training */
	if (com) {
		if (com == (stream | os))
			rx->lfsr_suspect = 0;
		else
			rx->lfsr_suspect |= com;
	}
	if (ts_lane != LANE_MAX && ts != (stream | os))
		ts_lane = LANE_MAX;
	if (ts_lane != LANE_MAX) {
		if (rx->running && !rx->training)
			link_fact(rx, LANE_RETRAIN, pos, ts_lane);
		if (!rx->training)
			rx->polling = false;
		rx->training = true;
		rx->polling |= pad_link;
		frame8b10b_retrain(&rx->frame);
	}
	if (stream == 0)
		return;
	/* the data stream begins with logical idle on every lane (after TS2,
	 * Configuration.Idle and Recovery.Idle send idle data): a damaged or
	 * partly seen ordered set is not yet the data stream */
	if (rx->training && os == 0 && good == stream && idle == stream) {
		struct lane_packet p = { .kind = LANE_TRAINED,
			                 .pos = *pos,
			                 .polling = rx->polling };
		rx->packet(rx->ctx, &p);
		rx->training = false;
	}
	rx->running = true;
	frame8b10b_begin(&rx->frame, stream, good);
	for (unsigned i = 0; i < n; i++) {
		const struct lane_out *o = &rx->out[i];
		if (o->kind == LANE_OUT_DATA && !o->err)
			frame8b10b_data(&rx->frame, pos, i, o->raw, o->key);
		else if (o->kind < LANE_OUT_DATA)
			frame8b10b_gap(&rx->frame, pos, i, o->kind == LANE_OUT_OS);
		else
			frame8b10b_symbol(&rx->frame, pos, i, o->raw, o->key, o->k, o->err, o->code,
			                  o->input);
	}
}

void rx8b10b_finish(struct rx8b10b *rx)
{
	frame8b10b_finish(&rx->frame);
}

bool rx8b10b_open(const struct rx8b10b *rx, struct lane_pos *since)
{
	return frame8b10b_open(&rx->frame, since);
}

enum lane_scrambling rx8b10b_scrambling(const struct rx8b10b *rx)
{
	return rx->det.mode;
}

size_t rx8b10b_state_size(const struct rx8b10b *rx)
{
	(void)rx;
	return sizeof(struct rx8b10b);
}

void rx8b10b_state_save(const struct rx8b10b *rx, void *copy)
{
	memcpy(copy, rx, sizeof(*rx));
}

/* Byte for byte: padding that differs only makes a repeat not skipped. */
bool rx8b10b_state_same(const struct rx8b10b *rx, const void *copy)
{
	return memcmp(copy, rx, sizeof(*rx)) == 0;
}

void rx8b10b_free(struct rx8b10b *rx)
{
	free(rx);
}
