/* block128b.c: one lane's blocks from PIPE words, descrambled
 * (block128b.h; phy-digest.md sections 4.1-4.3, 5).
 */
#include "read/lanes/block128b.h"

#include <string.h>

#include "read/lanes/lfsr23.h"

void block128b_init(struct block128b *b, unsigned lane)
{
	memset(b, 0, sizeof(*b));
	b->seed = lfsr23_seed(lane);
	b->lfsr = b->seed;
}

void block128b_idle(struct block128b *b)
{
	b->in_block = false;
}

/* The ordered set an OS block's symbol 0 names (digest 4.3). */
static enum os128b os_kind(uint8_t s0)
{
	switch (s0) {
	case 0x1Eu:
		return OS128B_TS1;
	case 0x2Du:
		return OS128B_TS2;
	case 0xAAu:
	case 0x99u: /* 32 GT/s */
		return OS128B_SKP;
	case 0x66u:
		return OS128B_EIOS;
	case 0x00u:
		return OS128B_EIEOS;
	case 0xE1u:
		return OS128B_SDS;
	case 0x55u:
		return OS128B_FTS;
	default:
		return OS128B_UNKNOWN;
	}
}

/* Symbol i of an SKP OS: SKP symbols until SKP_END (E1h) or SKP_END_CTL
 * (78h), then 3 more.  Anything else makes it a malformed block. */
static void skp_symbol(struct block128b *b, unsigned i, uint8_t raw)
{
	if (b->want)
		return;
	if (raw == 0xE1u || raw == 0x78u) {
		b->os = raw == 0xE1u ? OS128B_SKP : OS128B_SKP_CTL;
		b->want = (uint8_t)(i + 4u);
	} else if (raw != b->raw[0] || i + 4u >= BLOCK128B_MAX_SYMS) {
		b->os = OS128B_UNKNOWN;
		b->want = (uint8_t)(i + 1u > BLOCK128B_SYMS ? i + 1u : BLOCK128B_SYMS);
	}
}

/* The descrambled value of symbol i (digest 4.2). */
static uint8_t descramble(struct block128b *b, unsigned i, uint8_t raw)
{
	uint8_t key;

	if (b->os == OS128B_NONE)
		return raw ^ lfsr23_key(&b->lfsr);
	switch (b->os) {
	case OS128B_SKP:
	case OS128B_SKP_CTL:
		/* unscrambled; the LFSR does not advance */
		skp_symbol(b, i, raw);
		return raw;
	case OS128B_TS1:
	case OS128B_TS2:
		key = lfsr23_key(&b->lfsr);
		if (i == 0)
			return raw;
		/* 14-15: the TS identifier (scrambled) or a DC-balance symbol
		 * (DFh/20h, F7h/08h: sent unscrambled, p.455).  A scrambled
		 * identifier can look like a DC-balance symbol, so the
		 * identifier is tried first (mine: the digest names no rule). */
		if (i >= 14 && (raw ^ key) != (b->os == OS128B_TS1 ? 0x4Au : 0x45u) &&
		    (i == 14 ? raw == 0xDFu || raw == 0x20u : raw == 0xF7u || raw == 0x08u))
			return raw;
		return raw ^ key;
	default:
		/* EIOS, EIEOS, SDS, FTS (and unknown): unscrambled, advance */
		(void)lfsr23_key(&b->lfsr);
		return raw;
	}
}

static void complete(struct block128b *b)
{
	uint32_t v;

	b->in_block = false;
	b->done = true;
	if (b->os == OS128B_EIEOS)
		b->lfsr = b->seed; /* re-seeded after the last EIEOS symbol */
	else if (block128b_skp_lfsr(b, &v))
		b->lfsr = v;
}

bool block128b_skp_lfsr(const struct block128b *b, uint32_t *lfsr)
{
	unsigned e;

	if (b->os != OS128B_SKP || b->want < 4u || b->n != b->want)
		return false;
	e = b->want - 4u; /* SKP_END */
	*lfsr = (uint32_t)(b->data[e + 1] & 0x7Fu) << 16 | (uint32_t)b->data[e + 2] << 8 |
	        b->data[e + 3];
	return true;
}

bool block128b_word(struct block128b *b, const struct lane_pos *pos, const uint8_t *bytes,
                    unsigned nbytes, uint8_t sync, bool start, unsigned *stray)
{
	bool completed = false;

	*stray = 0;
	if (start) {
		if (b->in_block)
			b->cut = true;
		b->in_block = true;
		b->sync = sync & 3u;
		b->n = 0;
		b->words = 0;
		b->want = BLOCK128B_SYMS;
		b->os = OS128B_NONE;
	}
	if (b->in_block) {
		/* a block has at most 24 symbols, so at most 24 words */
		if (b->words >= BLOCK128B_MAX_SYMS)
			b->words = BLOCK128B_MAX_SYMS - 1;
		b->wpos[b->words++] = *pos;
	}
	for (unsigned k = 0; k < nbytes; k++) {
		unsigned i = b->n;
		uint8_t raw = bytes[k];

		if (!b->in_block) {
			(*stray)++;
			continue;
		}
		if (i == 0 && b->sync == SYNC128B_OS) {
			b->os = os_kind(raw);
			/* an SKP OS's length is known at its SKP_END */
			b->want = b->os == OS128B_SKP ? 0 : (uint8_t)BLOCK128B_SYMS;
		}
		b->raw[i] = raw;
		b->word_of[i] = (uint8_t)(b->words - 1u);
		b->data[i] = descramble(b, i, raw);
		b->n = (uint8_t)(i + 1u);
		if (b->n == b->want) {
			complete(b);
			completed = true;
		}
	}
	return completed;
}
