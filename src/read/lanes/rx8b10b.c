/* rx8b10b.c: one direction of a 2.5/5 GT/s link (rx8b10b.h): each lane
 * through lane_os8b10b.c, the scrambling decided, the training state
 * followed, the stream symbols handed to frame8b10b.c in lane order.
 *
 * Lanes are taken as aligned, as a transmitter sends them (every lane
 * carries its ordered sets in the same symbol times): lanes with skew on
 * the receive side show as framing errors, there is no de-skew.
 *
 * Scrambling (auto): logical idle is 00h data scrambled (digest 2), so an
 * idle D symbol that arrives as 00h while its key is not 00h says
 * "unscrambled", one that arrives as its key says "scrambled".  Eight
 * agreeing idle symbols in a row settle it for the rest of the capture;
 * until then the stream is descrambled (PIPE data is scrambled: digest 5).
 *
 * Training (capture-format.md section 4): TS1/TS2 on any lane start
 * training (LANE_RETRAIN first when a data stream ran before); the first
 * symbol time with stream symbols after them is the start of the data
 * stream (LANE_TRAINED, at lane 0).
 */
#include "read/lanes/rx8b10b.h"

#include <stdlib.h>

#include "read/lanes/code8b10b.h"
#include "read/lanes/frame8b10b.h"
#include "read/lanes/lane_os8b10b.h"

#define SCRAMBLE_VOTES 8u

struct rx8b10b {
	lane_packet_fn packet;
	lane_symbol_fn symbol;
	void *ctx;
	unsigned lanes;
	enum lane_scrambling scrambling; /* forced or decided; AUTO while undecided */
	bool forced;
	unsigned votes; /* agreeing idle symbols in a row */
	enum lane_scrambling vote; /* what they say */
	bool training; /* TS1/TS2 seen, data stream not yet begun */
	bool running; /* a data stream has run */
	struct lane_rx lane[LANE_MAX];
	struct lane_out out[LANE_MAX];
	struct frame8b10b frame;
};

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
	if (!cfg->packet)
		return NULL;
	struct rx8b10b *rx = calloc(1, sizeof *rx);
	if (!rx)
		return NULL;
	rx->packet = cfg->packet;
	rx->symbol = cfg->symbol;
	rx->ctx = cfg->ctx;
	rx->lanes = cfg->lanes;
	rx->scrambling = cfg->scrambling;
	rx->forced = cfg->scrambling != LANE_SCRAMBLE_AUTO;
	for (unsigned i = 0; i < LANE_MAX; i++)
		lane_rx_init(&rx->lane[i]);
	frame8b10b_init(&rx->frame, cfg->lanes, cfg->packet, cfg->ctx);
	return rx;
}

static void link_fact(struct rx8b10b *rx, enum lane_packet_kind kind, const struct lane_pos *pos,
                      unsigned lane)
{
	struct lane_packet p = { .kind = kind, .pos = *pos, .lane = lane };
	rx->packet(rx->ctx, &p);
}

/* One idle D symbol's say on the scrambling (see the file comment). */
static void vote(struct rx8b10b *rx, const struct lane_out *o)
{
	enum lane_scrambling v;
	if (o->key == 0)
		return; /* says nothing */
	if (o->raw == 0)
		v = LANE_SCRAMBLE_NO;
	else if (o->raw == o->key)
		v = LANE_SCRAMBLE_YES;
	else {
		rx->votes = 0;
		return;
	}
	if (v != rx->vote) {
		rx->vote = v;
		rx->votes = 0;
	}
	if (++rx->votes >= SCRAMBLE_VOTES)
		rx->scrambling = v;
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
	unsigned n = rx->lanes, stream = 0, os = 0, ts_lane = LANE_MAX;
	bool descramble = rx->scrambling != LANE_SCRAMBLE_NO;
	for (unsigned i = 0; i < n; i++) {
		struct lane_out *o = &rx->out[i];
		lane_rx_step(&rx->lane[i], &syms[i], o);
		if (o->kind >= LANE_OUT_DATA)
			stream++;
		else if (o->kind == LANE_OUT_OS) {
			os++;
			if ((o->event & LANE_EV_TS) && ts_lane == LANE_MAX)
				ts_lane = i;
		}
		if (rx->symbol)
			observe(rx, i, pos, o, descramble);
	}
	if (ts_lane != LANE_MAX) {
		if (rx->running && !rx->training)
			link_fact(rx, LANE_RETRAIN, pos, ts_lane);
		rx->training = true;
	}
	if (os) {
		for (unsigned i = 0; i < n; i++) {
			const struct lane_out *o = &rx->out[i];
			if (o->kind == LANE_OUT_OS && o->err)
				frame8b10b_os_error(&rx->frame, pos, i, o->raw, o->k, o->err,
				                    o->code, o->input);
		}
	}
	if (stream == 0) {
		unsigned lane = 0;
		while (lane < n && rx->out[lane].kind != LANE_OUT_OS)
			lane++;
		frame8b10b_break(&rx->frame, pos, lane < n ? lane : 0, os != 0);
		return;
	}
	if (rx->training) {
		link_fact(rx, LANE_TRAINED, pos, 0);
		rx->training = false;
	}
	rx->running = true;
	frame8b10b_begin(&rx->frame);
	for (unsigned i = 0; i < n; i++) {
		const struct lane_out *o = &rx->out[i];
		if (o->kind < LANE_OUT_DATA) {
			frame8b10b_gap(&rx->frame, pos, i, o->kind == LANE_OUT_OS);
			continue;
		}
		uint8_t byte = o->raw;
		if (o->kind == LANE_OUT_DATA) {
			if (!rx->forced && rx->scrambling == LANE_SCRAMBLE_AUTO && !o->err &&
			    rx->frame.state == FRAME_IDLE)
				vote(rx, o);
			if (rx->scrambling != LANE_SCRAMBLE_NO)
				byte ^= o->key;
		}
		frame8b10b_symbol(&rx->frame, pos, i, byte, o->k, o->err, o->code, o->input);
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
	return rx->scrambling;
}

void rx8b10b_free(struct rx8b10b *rx)
{
	free(rx);
}
