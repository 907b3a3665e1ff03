/* fuzz_lanes128b: the 128b/130b decoder (read/lanes/rx128b.h) on PIPE
 * words built from the input.
 *
 *   byte 0: the lane count (1, 2, 4, 8, 12, 16, 32 by its low 3 bits),
 *           the word width (bits 3-4: 1, 2, 4 bytes), bit 5: the harness
 *           scrambles the Data Block bytes itself (so the fuzzer's bytes
 *           are the plain stream and reach the token parser as written)
 *   then blocks: a control byte (bits 0-1 the sync header, bit 2 a
 *           valid = 0 edge inside the block, bit 3 lane 0 x/z for the
 *           block, bit 4 the block cut short by a start flag, bits 5-7 all
 *           set: the block has no start flag), then 16
 *           bytes per lane, stream order (byte n on lane n mod N).
 * Invariants (a violated one traps): every packet is of a known kind, on
 * a lane that exists, with bytes only for DLLP/TLP, a TLP record of at
 * most TLP_MAX_RECORD_LEN bytes with Seq[15:12] = 0, a DLLP of 6 bytes
 * unless phy_error, a reason for LANE_FRAMING and phy_error; rx128b_open()
 * names a position no later than the current edge; nothing is open after
 * rx128b_finish(). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/record.h"
#include "fuzz_common.h"
#include "read/lanes/lfsr23.h"
#include "read/lanes/rx128b.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned fuzz_lanes;

static void on_packet(void *ctx, const struct lane_packet *p)
{
	(void)ctx;
	FUZZ_ASSERT(p->kind <= LANE_FRAMING);
	FUZZ_ASSERT(p->lane < fuzz_lanes);
	if (p->kind == LANE_FRAMING || p->phy_error)
		FUZZ_ASSERT(p->reason != NULL && p->reason[0] != '\0');
	if (p->kind == LANE_TLP) {
		FUZZ_ASSERT(p->len >= 2 && p->len <= TLP_MAX_RECORD_LEN);
		FUZZ_ASSERT((p->bytes[0] & 0xF0u) == 0);
		if (!p->phy_error)
			FUZZ_ASSERT(p->len % 4 == 2 && p->len >= 2 + 16);
		volatile uint8_t sink = p->bytes[p->len - 1]; /* ASan: readable */
		(void)sink;
	} else if (p->kind == LANE_DLLP) {
		FUZZ_ASSERT(p->len <= 6 && (p->phy_error || p->len == 6));
		if (p->len) {
			volatile uint8_t sink = p->bytes[p->len - 1];
			(void)sink;
		}
	} else {
		FUZZ_ASSERT(p->len == 0);
	}
}

static void on_symbol(void *ctx, unsigned lane, const struct lane_pos *pos, uint8_t raw,
                      uint8_t descrambled, unsigned flags)
{
	(void)ctx, (void)pos, (void)raw, (void)descrambled, (void)flags;
	FUZZ_ASSERT(lane < fuzz_lanes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned lane_counts[8] = { 1, 2, 4, 8, 12, 16, 32, 4 };
	static const unsigned widths[4] = { 1, 2, 4, 4 };
	struct lane_word w[32];
	uint32_t lfsr[32];
	uint64_t edge = 0;

	if (size < 1)
		return 0;
	unsigned lanes = lane_counts[data[0] & 7u];
	unsigned width = widths[data[0] >> 3 & 3u];
	bool scramble = data[0] & 0x20u;
	struct rx128b_config cfg = {
		.lanes = lanes, .packet = on_packet, .symbol = on_symbol, .ctx = NULL
	};
	struct rx128b *rx = rx128b_new(&cfg);
	size_t off = 1;

	fuzz_lanes = lanes;
	FUZZ_ASSERT(rx != NULL);
	for (unsigned l = 0; l < lanes; l++)
		lfsr[l] = lfsr23_seed(l);
	while (off < size) {
		uint8_t ctl = data[off++];
		uint8_t sym[32][16];
		bool nostart = ctl >> 5 == 7u;

		memset(sym, 0, sizeof(sym));
		for (unsigned n = 0; n < 16 * lanes && off < size; n++)
			sym[n % lanes][n / lanes] = data[off++];
		for (unsigned l = 0; l < lanes; l++) {
			bool os_skp =
			        (ctl & 3u) == 1u && (sym[l][0] == 0xAAu || sym[l][0] == 0x99u);
			for (unsigned s = 0; scramble && s < 16; s++) {
				if (os_skp)
					break;
				uint8_t k = lfsr23_key(&lfsr[l]);
				if ((ctl & 3u) == 2u)
					sym[l][s] ^= k;
			}
		}
		for (unsigned k = 0; k < 16; k += width) {
			struct lane_pos pos = { .time_ps = edge * 1000, .line = edge + 1 };
			struct lane_pos since;

			if ((ctl & 4u) && k == 8) {
				for (unsigned l = 0; l < lanes; l++)
					w[l] = (struct lane_word){ .valid = false };
				rx128b_step(rx, &pos, w);
				edge++;
				pos.time_ps = edge * 1000;
				pos.line = edge + 1;
			}
			for (unsigned l = 0; l < lanes; l++) {
				w[l] = (struct lane_word){ .nbytes = (uint8_t)width,
					                   .sync = ctl & 3u,
					                   .start = (k == 0 && !nostart) ||
					                            ((ctl & 0x10u) && k == 8),
					                   .valid = true,
					                   .none = (ctl & 8u) && l == 0 };
				memcpy(w[l].bytes, &sym[l][k], width);
			}
			rx128b_step(rx, &pos, w);
			if (rx128b_open(rx, &since))
				FUZZ_ASSERT(since.time_ps <= pos.time_ps);
			edge++;
		}
	}
	rx128b_finish(rx);
	struct lane_pos since;
	FUZZ_ASSERT(!rx128b_open(rx, &since));
	rx128b_free(rx);
	return 0;
}
