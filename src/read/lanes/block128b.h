/* block128b.h: one lane's 128b/130b blocks from PIPE words, descrambled
 * (phy-digest.md sections 4.1-4.3 and 5).
 *
 * A word with the start flag begins a block and carries its sync header
 * (PIPE TxSyncHeader: 10b Data Block, 01b Ordered Set Block; 00b and 11b
 * are invalid).  Bytes follow 1, 2 or 4 per word, byte [7:0] first; a
 * word with valid = 0 carries nothing (the PIPE stall of 128b/130b); a
 * word with no value (x/z) is electrical idle and drops a block in
 * progress.  A block is 16 symbols, except an SKP ordered set, which a
 * receiver may see 8 to 24 symbols long (4 SKP symbols added or removed):
 * it ends 3 symbols after SKP_END.  So the length comes from the content
 * and a block is complete without waiting for the next start flag; a
 * start flag before that cuts the block short (it is lost).
 *
 * The scrambler rules of digest 4.2: all 16 symbols of a Data Block are
 * scrambled and advance the LFSR; ordered sets are sent unscrambled
 * except TS1/TS2 symbols 1-13 and 14-15 (when they are not the DC-balance
 * values); every ordered-set symbol advances the LFSR except in an SKP
 * OS; the LFSR is re-seeded after the last symbol of an EIEOS and loaded
 * from the LFSR field of an SKP OS (SKP_END E1h).
 */
#ifndef DLLPCHECK_BLOCK128B_H
#define DLLPCHECK_BLOCK128B_H

#include <stdbool.h>
#include <stdint.h>

#include "read/lanes/lane_packet.h"

#define BLOCK128B_SYMS 16u
#define BLOCK128B_MAX_SYMS 24u /* the longest SKP OS a receiver may see */

#define SYNC128B_DATA 2u /* 10b */
#define SYNC128B_OS 1u /* 01b */

enum os128b {
	OS128B_NONE, /* a Data Block */
	OS128B_TS1, /* 1Eh */
	OS128B_TS2, /* 2Dh */
	OS128B_SKP, /* AAh (99h at 32 GT/s) x 4N, E1h, LFSR */
	OS128B_SKP_CTL, /* ... 78h: Control SKP, no LFSR */
	OS128B_EIOS, /* 66h */
	OS128B_EIEOS, /* 00h/FFh */
	OS128B_SDS, /* E1h, 55h (87h at 32 GT/s) */
	OS128B_FTS, /* 55h */
	OS128B_UNKNOWN, /* an OS block of no known kind, or a malformed SKP */
};

struct block128b {
	/* the block being assembled */
	bool in_block;
	uint8_t sync;
	uint8_t n; /* symbols so far */
	uint8_t want; /* its length, once known */
	enum os128b os;
	uint8_t raw[BLOCK128B_MAX_SYMS];
	uint8_t data[BLOCK128B_MAX_SYMS]; /* descrambled */
	/* the edge of each symbol: of the word that carried it */
	uint8_t word_of[BLOCK128B_MAX_SYMS];
	uint8_t words;
	struct lane_pos wpos[BLOCK128B_MAX_SYMS];
	/* a complete block waiting for the other lanes' (rx128b.c) */
	bool done;
	/* a start flag cut a block short since the last block set (the glue
	 * names it when this lane has no block) */
	bool cut;
	uint32_t seed, lfsr;
};

void block128b_init(struct block128b *b, unsigned lane);
/* One PIPE word of this lane at pos; true when it completed a block
 * (b->done).  Bytes after a complete block and before the next start
 * flag are not part of a block and are dropped (returned in *stray). */
bool block128b_word(struct block128b *b, const struct lane_pos *pos, const uint8_t *bytes,
                    unsigned nbytes, uint8_t sync, bool start, unsigned *stray);
/* Electrical idle on the lane: the block in progress is dropped. */
void block128b_idle(struct block128b *b);
/* The LFSR value in a complete SKP OS (bits 22:0), false when it is not
 * an SKP OS with SKP_END E1h.  UNVERIFIED (phy-digest.md section 4.2 and
 * section 8 item 3): which LFSR state the field reports; like [SCOPE] it
 * is taken as the state that descrambles the next block. */
bool block128b_skp_lfsr(const struct block128b *b, uint32_t *lfsr);

/* The edge that carried symbol i (< b->n) of the block. */
static inline const struct lane_pos *block128b_pos(const struct block128b *b, unsigned i)
{
	return &b->wpos[b->word_of[i]];
}

#endif
