/* lane_os8b10b.h: one lane of an 8b/10b link, symbol by symbol: the
 * symbol lock, the 8b/10b decode with running disparity, the ordered sets
 * recognised and taken out of the packet stream, and the scrambler kept
 * in step (phy-digest.md sections 1.3, 2 and 3.3).
 *
 * Lock: a lane uses no symbol before its first decodable COM; with 10-bit
 * code groups, the running disparity starts as that COM's (digest 1.3:
 * "infer it from the first decodable COM").  A lane without a symbol
 * (x/z, valid low) and the end of an EIOS (electrical idle follows, and
 * the transmitter may restart with either disparity) drop the lock.
 *
 * Ordered sets, classified by the symbol after COM (digest 3.3): SKP ->
 * SKP OS of any length (received: COM + 1..5 SKP), ending at the first
 * non-SKP; IDL -> EIOS (4 symbols, then electrical idle); FTS -> FTS OS
 * (4); EIE -> EIEOS (16); a D symbol or PAD -> TS1/TS2 (16).  That last
 * test is digest UNVERIFIED item 7 (phy_ref's heuristic, not a spec rule);
 * modified TS1/TS2 and the compliance patterns are not recognised.  The
 * received SKP OS length (1..5 SKP, any taken) and the FTS OS as COM + 3
 * FTS are digest UNVERIFIED item 8 (read in [S63] and [SCOPE] only).
 *
 * Scrambler (digest 2): COM resets the LFSR; SKP does not advance it;
 * every other symbol advances it by one key; K symbols are never
 * scrambled; the D symbols of TS1/TS2 and the D10.2 closing an EIEOS
 * advance it but are not XORed.  The lane does not decide whether the
 * link scrambles: it hands out the raw byte and the key it consumed, and
 * rx8b10b.c applies the key or not.
 */
#ifndef DLLPCHECK_LANE_OS8B10B_H
#define DLLPCHECK_LANE_OS8B10B_H

#include <stdbool.h>
#include <stdint.h>

#include "read/lanes/code8b10b.h"
#include "read/lanes/lfsr16.h"
#include "read/lanes/rx8b10b.h"

enum lane_out_kind {
	LANE_OUT_NONE = 0, /* no symbol: none given, not locked, electrical idle */
	LANE_OUT_OS, /* a symbol of an ordered set (removed from the stream) */
	LANE_OUT_DATA, /* a D symbol of the packet stream (or an undecodable code) */
	LANE_OUT_K, /* a K symbol of the packet stream */
};

#define LANE_EV_TS 0x01u /* this symbol made its ordered set a TS1/TS2 */
#define LANE_EV_TS_PAD_LINK 0x02u /* ... whose Link number (symbol 1) is PAD */

struct lane_out {
	uint8_t kind; /* enum lane_out_kind */
	uint8_t raw; /* the byte as decoded (before descrambling); 0 on a code error */
	uint8_t key; /* the scrambler key of this symbol (0: none or not XORed) */
	uint8_t err; /* CODE8B10B_*: a code or a disparity error */
	bool k; /* a K symbol */
	uint8_t event; /* LANE_EV_* */
	uint16_t code; /* the input value, for messages */
	uint8_t input; /* enum lane_input */
};

struct lane_rx {
	uint16_t lfsr;
	uint8_t rd; /* 0 = RD-, 1 = RD+ */
	uint8_t locked;
	uint8_t rd_unsure; /* an error since the last unbalanced good code */
	uint8_t os; /* the ordered-set state, lane_os8b10b.c */
	uint8_t what; /* the ordered set being received */
	uint8_t left; /* its symbols still to come */
};

/* lane_rx.os */
enum {
	OS_NONE = 0, /* in the packet stream */
	OS_AFTER_COM, /* the next symbol says which ordered set this is */
	OS_SKP, /* SKP OS: SKP symbols until the first other one */
	OS_COUNT, /* a fixed-length ordered set: `left` symbols to come */
};

void lane_rx_init(struct lane_rx *l);
/* One symbol of the lane into *out (lane_rx_fast() first, then the rest). */
void lane_rx_step(struct lane_rx *l, const struct lane_sym *in, struct lane_out *out);

/* The common case, inline (the per-symbol path): a good D symbol in the
 * packet stream of a locked lane, one lookup for the code and one for the
 * key.  False, with nothing changed, for anything else. */
static inline bool lane_rx_fast(struct lane_rx *l, const struct lane_sym *in, struct lane_out *out)
{
	unsigned v = in->value;
	if (!l->locked || l->os != OS_NONE || l->rd_unsure)
		return false;
	if (in->input == LANE_IN_CODE10) {
		if (v > 0x3FFu)
			return false;
		uint16_t e = code8b10b_dec[l->rd][v];
		if (e & 0xD00u) /* K (bit 8), or an error (bits 11:10) */
			return false;
		l->rd = (uint8_t)(e >> 9 & 1u);
		v = e & 0xFFu;
	} else if (in->input != LANE_IN_SYMBOL || v > 0xFFu) {
		return false;
	}
	out->kind = LANE_OUT_DATA;
	out->raw = (uint8_t)v;
	out->key = lfsr16_next(&l->lfsr);
	out->err = CODE8B10B_OK;
	out->k = false;
	out->event = 0;
	return true;
}

#endif
