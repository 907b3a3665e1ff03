/* rx128b.c: one direction at 8 GT/s and above (rx128b.h): the lanes'
 * blocks (block128b.c) put together into block sets, the block-level
 * rules of the data stream, training, and the token parser
 * (stream128b.c) fed with the de-striped Data Block bytes.
 *
 * The lanes are taken as aligned: every lane starts its blocks on the
 * same PIPE edge (the PHY deskews them; PIPE presents one TxStartBlock
 * per lane at the same PCLK).  A block set is complete at the edge where
 * a lane completes a block; a lane that has no complete block then (it
 * dropped out, its block was cut short, or it is not aligned) is a
 * framing error inside a data stream.  The ordered set of a set is the one
 * of its lowest complete lane (digest 4.6 rule 7 lets a receiver not
 * check that the others agree; their sync headers are checked).
 *
 * The data stream (digest 4.1, 4.5, 4.6):
 *   - starts at the first Data Block after SDS (LANE_TRAINED there when
 *     TS1/TS2 came before the SDS), or after an SKP OS that loaded the
 *     descrambler when no stream runs (a capture that begins in L0, or a
 *     resynchronisation after a framing error: the stream after an SKP OS
 *     begins with a token, as the EDS before it ended one);
 *   - goes on while Data Blocks come; EDS in the last DW of a block says
 *     an OS block follows: SKP (the stream resumes with the next block),
 *     EIOS or EIEOS (it ends); anything else is a framing error;
 *   - stops at a framing error: invalid sync header, an OS block without
 *     EDS, a Data Block after EDS, an OS block right after SDS, a lane
 *     without a block, every lane in electrical idle, and the token
 *     errors of stream128b.c.
 * TS1/TS2 after a data stream ran give LANE_RETRAIN (once per retrain).
 */
#include "read/lanes/rx128b.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/block128b.h"
#include "read/lanes/stream128b.h"

enum rx_state {
	RX_IDLE, /* no data stream; waiting for SDS or an SKP OS */
	RX_AFTER_SDS, /* the next block begins the data stream */
	RX_AFTER_SKP, /* the LFSR was loaded: a Data Block begins a stream */
	RX_STREAM, /* the data stream runs */
};

struct rx128b {
	struct rx128b_config cfg;
	enum rx_state st;
	bool ts_seen; /* TS1/TS2 since the last data stream began */
	bool stream_ran; /* a data stream ran since the last TS1/TS2 */
	uint64_t sym; /* symbol times of Data Blocks, for the IDL rule */
	/* Data Blocks seen while no data stream is in step (before the first
	 * SDS or SKP OS, or after a framing error stopped it): their packets
	 * cannot be found; said at the first of them (lost_span), never
	 * passed over in silence */
	bool unread_said;
	char reason[128];
	uint8_t row[BLOCK128B_SYMS * 32]; /* a Data Block's stream bytes */
	struct stream128b stream;
	struct block128b lane[];
};

static bool lanes_ok(unsigned n)
{
	return n == 1 || n == 2 || n == 4 || n == 8 || n == 12 || n == 16 || n == 32;
}

struct rx128b *rx128b_new(const struct rx128b_config *cfg)
{
	struct rx128b *rx;

	if (!cfg || !cfg->packet || !lanes_ok(cfg->lanes))
		return NULL;
	rx = calloc(1, sizeof(*rx) + cfg->lanes * sizeof(rx->lane[0]));
	if (!rx)
		return NULL;
	rx->cfg = *cfg;
	rx->st = RX_IDLE;
	stream128b_init(&rx->stream, cfg->lanes, cfg->packet, cfg->ctx);
	for (unsigned l = 0; l < cfg->lanes; l++)
		block128b_init(&rx->lane[l], l);
	return rx;
}

void rx128b_free(struct rx128b *rx)
{
	free(rx);
}

/* The object and its lanes, as rx128b_new() allocated them. */
size_t rx128b_state_size(const struct rx128b *rx)
{
	return sizeof(*rx) + rx->cfg.lanes * sizeof(rx->lane[0]);
}

void rx128b_state_save(const struct rx128b *rx, void *copy)
{
	memcpy(copy, rx, rx128b_state_size(rx));
}

/* Byte for byte: padding that differs only makes a repeat not skipped. */
bool rx128b_state_same(const struct rx128b *rx, const void *copy)
{
	return memcmp(copy, rx, rx128b_state_size(rx)) == 0;
}

static void emit_link(struct rx128b *rx, enum lane_packet_kind kind, unsigned lane,
                      const struct lane_pos *pos, const char *reason)
{
	struct lane_packet p = { .kind = kind, .pos = *pos, .lane = lane, .reason = reason };

	rx->cfg.packet(rx->cfg.ctx, &p);
}

/* A block-level framing error: inside a data stream it goes to the token
 * parser (a packet it cuts short keeps it); otherwise it is LANE_FRAMING. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void
block_error(struct rx128b *rx, unsigned lane, const struct lane_pos *pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rx->reason, sizeof(rx->reason), fmt, ap);
	va_end(ap);
	if (stream128b_running(&rx->stream)) {
		stream128b_error(&rx->stream, lane, pos, rx->reason);
	} else {
		char full[160];

		snprintf(full, sizeof(full), "lane %u: %s", lane, rx->reason);
		emit_link(rx, LANE_FRAMING, lane, pos, full);
	}
	rx->st = RX_IDLE;
}

static const char *os_name(enum os128b os)
{
	static const char *const names[] = {
		[OS128B_NONE] = "data block",
		[OS128B_TS1] = "TS1",
		[OS128B_TS2] = "TS2",
		[OS128B_SKP] = "SKP",
		[OS128B_SKP_CTL] = "Control SKP",
		[OS128B_EIOS] = "EIOS",
		[OS128B_EIEOS] = "EIEOS",
		[OS128B_SDS] = "SDS",
		[OS128B_FTS] = "FTS",
		[OS128B_UNKNOWN] = "unknown ordered set",
	};
	return names[os];
}

static void observe(struct rx128b *rx)
{
	if (!rx->cfg.symbol)
		return;
	for (unsigned s = 0; s < BLOCK128B_MAX_SYMS; s++) {
		for (unsigned l = 0; l < rx->cfg.lanes; l++) {
			const struct block128b *b = &rx->lane[l];
			unsigned flags = 0;

			if (!b->done || s >= b->n)
				continue;
			if (b->sync == SYNC128B_OS)
				flags |= LANE_SYM_OS;
			else if (b->sync != SYNC128B_DATA)
				flags |= LANE_SYM_ERROR;
			rx->cfg.symbol(rx->cfg.ctx, l, block128b_pos(b, s), b->raw[s], b->data[s],
			               flags);
		}
	}
}

/* The block-level checks of a set inside a data stream (digest 4.6 rule
 * 7): every lane has a block, with a valid sync header, of lane ref's
 * type.  False after reporting the first failure. */
static bool set_ok(struct rx128b *rx, unsigned ref)
{
	const struct block128b *r = &rx->lane[ref];

	for (unsigned l = 0; l < rx->cfg.lanes; l++) {
		const struct block128b *b = &rx->lane[l];

		if (!b->done) {
			block_error(rx, l, block128b_pos(r, 0),
			            "no block at the block boundary of lane %u (%s)", ref,
			            b->cut ? "a start flag cut its block short"
			                   : "dropped out, or not aligned");
			return false;
		}
		if (b->sync != SYNC128B_DATA && b->sync != SYNC128B_OS) {
			block_error(rx, l, block128b_pos(b, 0), "invalid sync header %u%ub",
			            b->sync >> 1 & 1u, b->sync & 1u);
			return false;
		}
		if (b->sync != r->sync) {
			block_error(
			        rx, l, block128b_pos(b, 0), "%s while lane %u has %s",
			        b->sync == SYNC128B_OS ? "ordered set block" : "data block", ref,
			        r->sync == SYNC128B_OS ? "an ordered set block" : "a data block");
			return false;
		}
	}
	return true;
}

/* The edge of stream byte idx of the current block (lane idx mod N). */
static const struct lane_pos *stream_pos(void *ctx, unsigned idx)
{
	const struct rx128b *rx = ctx;
	unsigned n = rx->cfg.lanes;

	return block128b_pos(&rx->lane[idx % n], idx / n);
}

/* The Data Block's bytes to the token parser, de-striped (digest 4.5):
 * stream byte s * N + l is symbol s of lane l. */
static void feed(struct rx128b *rx)
{
	unsigned n = rx->cfg.lanes;

	for (unsigned l = 0; l < n; l++) {
		const uint8_t *d = rx->lane[l].data;

		for (unsigned s = 0; s < BLOCK128B_SYMS; s++)
			rx->row[s * n + l] = d[s];
	}
	stream128b_block(&rx->stream, rx->row, rx->sym, stream_pos, rx);
	rx->sym += BLOCK128B_SYMS;
	if (!stream128b_running(&rx->stream))
		rx->st = RX_IDLE;
}

/* An OS block outside a data stream: training and resynchronisation. */
static void idle_os(struct rx128b *rx, unsigned ref)
{
	const struct block128b *r = &rx->lane[ref];

	if (rx->st == RX_AFTER_SDS) {
		block_error(rx, ref, block128b_pos(r, 0), "%s block right after SDS",
		            os_name(r->os));
	}
	switch (r->os) {
	case OS128B_TS1:
	case OS128B_TS2:
		if (rx->stream_ran) {
			emit_link(rx, LANE_RETRAIN, ref, block128b_pos(r, 0), NULL);
			rx->stream_ran = false;
		}
		rx->ts_seen = true;
		rx->st = RX_IDLE;
		break;
	case OS128B_SDS:
		rx->st = RX_AFTER_SDS;
		break;
	case OS128B_SKP:
		rx->st = RX_AFTER_SKP;
		break;
	default:
		rx->st = RX_IDLE;
		break;
	}
}

/* An OS block in a data stream. */
static void stream_os(struct rx128b *rx, unsigned ref)
{
	const struct block128b *r = &rx->lane[ref];

	if (!stream128b_after_eds(&rx->stream)) {
		block_error(rx, ref, block128b_pos(r, 0),
		            "%s block without EDS at the end of the data block before it",
		            os_name(r->os));
		idle_os(rx, ref);
		return;
	}
	switch (r->os) {
	case OS128B_SKP:
	case OS128B_SKP_CTL:
		stream128b_start(&rx->stream); /* it resumes with the next block */
		break;
	case OS128B_EIOS:
	case OS128B_EIEOS:
		stream128b_stop(&rx->stream);
		rx->st = RX_IDLE;
		break;
	default:
		block_error(rx, ref, block128b_pos(r, 0),
		            "%s block after EDS (only SKP, EIOS or EIEOS may follow)",
		            os_name(r->os));
		idle_os(rx, ref);
		break;
	}
}

static void block_set(struct rx128b *rx)
{
	unsigned ref = 0;
	const struct block128b *r;

	while (!rx->lane[ref].done)
		ref++;
	r = &rx->lane[ref];
	observe(rx);
	if (rx->st == RX_STREAM) {
		if (!set_ok(rx, ref)) {
			if (r->sync == SYNC128B_OS)
				idle_os(rx, ref);
		} else if (r->sync == SYNC128B_OS) {
			stream_os(rx, ref);
		} else if (stream128b_after_eds(&rx->stream)) {
			block_error(rx, ref, block128b_pos(r, 0), "data block after EDS");
		} else {
			feed(rx);
		}
		return;
	}
	if (r->sync == SYNC128B_OS) {
		idle_os(rx, ref);
		return;
	}
	if (rx->st != RX_AFTER_SDS && rx->st != RX_AFTER_SKP) {
		/* no stream: where its tokens are is not known */
		if (!rx->unread_said) {
			rx->unread_said = true;
			struct lane_packet p = {
				.kind = LANE_FRAMING,
				.pos = *block128b_pos(r, 0),
				.reason = "lane 0: data blocks not decoded from here to the next "
				          "SDS or "
				          "SKP ordered set: no data stream in step (the capture "
				          "began "
				          "inside one, or a framing error stopped it)",
				.lost_span = true,
			};
			rx->cfg.packet(rx->cfg.ctx, &p);
		}
		return;
	}
	if (rx->st == RX_AFTER_SKP) {
		/* a resynchronisation: only a clean set of Data Blocks */
		for (unsigned l = 0; l < rx->cfg.lanes; l++)
			if (!rx->lane[l].done || rx->lane[l].sync != SYNC128B_DATA) {
				rx->st = RX_IDLE;
				return;
			}
	}
	bool sds = rx->st == RX_AFTER_SDS;

	rx->unread_said = false;
	rx->st = RX_STREAM;
	stream128b_start(&rx->stream);
	if (!set_ok(rx, ref))
		return;
	/* trained: TS1/TS2, SDS, this block; a stream resumed at an SKP OS
	 * shows no end of training */
	if (rx->ts_seen && sds)
		emit_link(rx, LANE_TRAINED, ref, block128b_pos(r, 0), NULL);
	rx->ts_seen = false;
	rx->stream_ran = true;
	feed(rx);
}

void rx128b_step(struct rx128b *rx, const struct lane_pos *pos, const struct lane_word *words)
{
	bool any = false;
	unsigned idle = 0;

	for (unsigned l = 0; l < rx->cfg.lanes; l++) {
		const struct lane_word *w = &words[l];
		unsigned nb = w->nbytes > 4u ? 4u : w->nbytes;
		unsigned stray;

		if (w->none || !w->valid || nb == 0) {
			if (w->none) {
				block128b_idle(&rx->lane[l]);
				idle++;
			}
			if (rx->cfg.symbol)
				rx->cfg.symbol(rx->cfg.ctx, l, pos, 0, 0, LANE_SYM_NONE);
			continue;
		}
		/* bytes outside a block (before the first start flag) are
		 * dropped: nothing can be said of them */
		if (block128b_word(&rx->lane[l], pos, w->bytes, nb, w->sync, w->start, &stray))
			any = true;
	}
	if (idle == rx->cfg.lanes && rx->st == RX_STREAM) {
		/* every lane in electrical idle: the stream ended without
		 * EDS + EIOS, and no block will complete to say so */
		block_error(rx, 0, pos, "electrical idle inside the data stream (no EDS and EIOS)");
		return;
	}
	if (!any)
		return;
	block_set(rx);
	for (unsigned l = 0; l < rx->cfg.lanes; l++) {
		rx->lane[l].done = false;
		rx->lane[l].cut = false;
	}
}

void rx128b_finish(struct rx128b *rx)
{
	stream128b_finish(&rx->stream);
	rx->st = RX_IDLE;
}

bool rx128b_open(const struct rx128b *rx, struct lane_pos *since)
{
	return stream128b_open(&rx->stream, since);
}
