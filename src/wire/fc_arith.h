/* fc_arith.h: modulo counter arithmetic for flow-control credits.
 *
 * Every flow-control counter is an unsigned N-bit counter: 8 (header) or
 * 12 (data) bits, 10/14 or 12/16 with scaled flow control [5.1, 1.5].
 * Counters wrap, so they are never compared with '<': all arithmetic goes
 * through these helpers, in the counter's own width.
 */
#ifndef DLLPCHECK_FC_ARITH_H
#define DLLPCHECK_FC_ARITH_H

#include <stdbool.h>
#include <stdint.h>

static inline uint32_t fc_mask(unsigned width)
{
	return (UINT32_C(1) << width) - 1u;
}

/* (a - b) mod 2^width */
static inline uint32_t fc_sub(uint32_t a, uint32_t b, unsigned width)
{
	return (a - b) & fc_mask(width);
}

/* (a + b) mod 2^width */
static inline uint32_t fc_add(uint32_t a, uint32_t b, unsigned width)
{
	return (a + b) & fc_mask(width);
}

static inline uint32_t fc_half(unsigned width)
{
	return UINT32_C(1) << (width - 1u);
}

/* The transmitter gate [5.2, Eq 2-12/2-13]: a TLP needing `need` credits
 * may go iff (CREDIT_LIMIT - (CREDITS_CONSUMED + need)) mod 2^N <= 2^N/2.
 * *gap receives the left-hand side, the evidence. */
static inline bool fc_gate_allows(uint32_t limit, uint32_t consumed, uint32_t need, unsigned width,
                                  uint32_t *gap)
{
	uint32_t required = fc_add(consumed, need, width);
	uint32_t g = fc_sub(limit, required, width);
	if (gap)
		*gap = g;
	return g <= fc_half(width);
}

/* A new value moved backwards from the old: (new - old) mod 2^N > 2^N/2. */
static inline bool fc_regresses(uint32_t old_value, uint32_t new_value, unsigned width)
{
	return fc_sub(new_value, old_value, width) > fc_half(width);
}

/* The fields of an FC DLLP [1.4, 1.5]: HdrFC 8 bits, DataFC 12 bits, and
 * a 2-bit scale for each (0 and 1: x1, 2: x4, 3: x16). */
#define FC_HDR_FIELD_MAX 255u
#define FC_DATA_FIELD_MAX 4095u
#define FC_SCALE_MAX 3u

/* Header and data counter widths for a scale field [1.5 table]. */
static inline unsigned fc_hdr_width(unsigned scale)
{
	return scale == 2 ? 10u : scale == 3 ? 12u : 8u;
}
static inline unsigned fc_data_width(unsigned scale)
{
	return scale == 2 ? 14u : scale == 3 ? 16u : 12u;
}
/* The field on the wire stands for field << shift credits. */
static inline unsigned fc_scale_shift(unsigned scale)
{
	return scale == 2 ? 2u : scale == 3 ? 4u : 0u;
}
/* The most credits a receiver may have outstanding [5.5]: 127/2047
 * unscaled or at scale 1, 508/8188 at scale 4, 2032/32752 at scale 16. */
static inline uint32_t fc_hdr_max(unsigned scale)
{
	return UINT32_C(127) << fc_scale_shift(scale);
}
static inline uint32_t fc_data_max(unsigned scale)
{
	return UINT32_C(2047) << fc_scale_shift(scale);
}

#endif
