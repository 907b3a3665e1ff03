/* fuzz_lanes8b: arbitrary symbols through the 8b/10b lane decoder
 * (rx8b10b.h).  Byte 0: bits 2:0 the lane count (1, 2, 4, 8, 12, 16, 32,
 * 4), bit 3 the `sym` form (9-bit symbols, bit 8 = K) instead of 10-bit
 * codes, bits 5:4 the scrambling (auto, yes, no, auto), bit 6 the symbol
 * observer.  Then per symbol time, per lane, a little-endian 16-bit
 * value: bit 15 = no symbol, else the code group (or symbol).
 * Invariants (a trap when broken): every report names a lane of the link
 * and a symbol time already given, in order of its first symbol for the
 * packets that were open; packet bytes exist and never exceed the largest
 * TLP record; a reason exactly when phy_error or LANE_FRAMING; open()
 * agrees with what comes out; finish() leaves nothing open. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/record.h"
#include "fuzz_common.h"
#include "read/lanes/rx8b10b.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned sink;

struct fuzz_state {
	unsigned lanes;
	uint64_t now; /* the symbol time being stepped */
	unsigned sum;
	unsigned reports;
};

static void on_packet(void *ctx, const struct lane_packet *p)
{
	struct fuzz_state *st = ctx;
	FUZZ_ASSERT(p->lane < st->lanes);
	FUZZ_ASSERT(p->pos.time_ps <= st->now);
	FUZZ_ASSERT(p->pos.line == p->pos.time_ps + 1);
	FUZZ_ASSERT((p->reason != NULL) == (p->phy_error || p->kind == LANE_FRAMING));
	if (p->reason)
		st->sum += (unsigned)strlen(p->reason);
	if (p->kind == LANE_DLLP || p->kind == LANE_TLP) {
		FUZZ_ASSERT(p->len <= TLP_MAX_RECORD_LEN);
		FUZZ_ASSERT(p->len == 0 || p->bytes != NULL);
		for (size_t i = 0; i < p->len; i++)
			st->sum += p->bytes[i];
		if (p->kind == LANE_DLLP)
			FUZZ_ASSERT(!p->nullified);
		if (p->kind == LANE_DLLP && !p->phy_error)
			FUZZ_ASSERT(p->len == DLLP_WIRE_LEN);
		if (p->kind == LANE_TLP && !p->phy_error)
			FUZZ_ASSERT(p->len >= 18);
	} else {
		FUZZ_ASSERT(p->len == 0 && !p->phy_error && !p->nullified);
	}
	st->reports++;
}

static void on_symbol(void *ctx, unsigned lane, const struct lane_pos *pos, uint8_t raw,
                      uint8_t descrambled, unsigned flags)
{
	struct fuzz_state *st = ctx;
	FUZZ_ASSERT(lane < st->lanes);
	FUZZ_ASSERT(pos->time_ps == st->now);
	FUZZ_ASSERT(flags < 0x20u);
	st->sum += raw + descrambled;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned widths[8] = { 1, 2, 4, 8, 12, 16, 32, 4 };
	static const enum lane_scrambling scr[4] = { LANE_SCRAMBLE_AUTO, LANE_SCRAMBLE_YES,
		                                     LANE_SCRAMBLE_NO, LANE_SCRAMBLE_AUTO };
	if (size < 1)
		return 0;
	struct fuzz_state st = { .lanes = widths[data[0] & 7u] };
	bool sym = data[0] & 8u;
	struct rx8b10b_config cfg = {
		.lanes = st.lanes,
		.scrambling = scr[data[0] >> 4 & 3u],
		.packet = on_packet,
		.symbol = data[0] & 0x40u ? on_symbol : NULL,
		.ctx = &st,
	};
	struct rx8b10b *rx = rx8b10b_new(&cfg);
	FUZZ_ASSERT(rx != NULL);
	struct lane_sym syms[LANE_MAX];
	size_t row = 2u * st.lanes;
	for (size_t off = 1; off + row <= size; off += row, st.now++) {
		for (unsigned i = 0; i < st.lanes; i++) {
			unsigned v = data[off + 2 * i] | (unsigned)data[off + 2 * i + 1] << 8;
			if (v & 0x8000u)
				syms[i] = (struct lane_sym){ .input = LANE_IN_NONE };
			else if (sym)
				syms[i] = (struct lane_sym){ .value = (uint16_t)(v & 0x1FFu),
					                     .input = LANE_IN_SYMBOL };
			else
				syms[i] = (struct lane_sym){ .value = (uint16_t)(v & 0x3FFu),
					                     .input = LANE_IN_CODE10 };
		}
		struct lane_pos pos = { .time_ps = st.now, .line = st.now + 1, .byte_offset = off };
		rx8b10b_step(rx, &pos, syms);
		struct lane_pos since;
		if (rx8b10b_open(rx, &since))
			FUZZ_ASSERT(since.time_ps <= st.now);
		enum lane_scrambling s = rx8b10b_scrambling(rx);
		FUZZ_ASSERT(s == LANE_SCRAMBLE_AUTO || s == LANE_SCRAMBLE_YES ||
		            s == LANE_SCRAMBLE_NO);
		if (cfg.scrambling != LANE_SCRAMBLE_AUTO)
			FUZZ_ASSERT(s == cfg.scrambling);
	}
	bool was_open = rx8b10b_open(rx, NULL);
	unsigned before = st.reports;
	rx8b10b_finish(rx);
	FUZZ_ASSERT(!rx8b10b_open(rx, NULL));
	FUZZ_ASSERT(st.reports == before + (was_open ? 1u : 0u));
	rx8b10b_free(rx);
	sink = st.sum; /* every byte handed out was read */
	return 0;
}
