/* bitset.h: a fixed set of small numbers as bits in 64-bit words, walked
 * in increasing order.
 *
 * For the tables indexed by link (256 slots, of which a capture uses one
 * or a few): the walks over them (the end of the capture, a damaged
 * record for every link, each report, the frees) visit the members
 * only, a word at a time, not every slot with a test each (under the
 * fuzzer each test is a traced comparison; 256 of them per walk were a
 * sixth of fuzz_pipeline's).
 *
 * bitset_next() is a speed trick; bitset_next_plain() is the same a bit
 * at a time, and check_bitset.c compares the two for random sets at
 * every start.  Inline: a walk calls it once per member. */
#ifndef DLLPCHECK_BITSET_H
#define DLLPCHECK_BITSET_H

#include <stdbool.h>
#include <stdint.h>

#define BITSET_WORDS(n) (((n) + 63u) / 64u)

static inline void bitset_add(uint64_t *words, unsigned i)
{
	words[i / 64u] |= UINT64_C(1) << (i % 64u);
}

static inline bool bitset_has(const uint64_t *words, unsigned i)
{
	return (words[i / 64u] >> (i % 64u) & 1u) != 0;
}

/* The smallest member >= from of the set of nwords words, or
 * 64 x nwords when there is none (also for from >= 64 x nwords). */
static inline unsigned bitset_next_plain(const uint64_t *words, unsigned nwords, unsigned from)
{
	unsigned i = from;
	while (i < 64u * nwords && !bitset_has(words, i))
		i++;
	return i < 64u * nwords ? i : 64u * nwords;
}

static inline unsigned bitset_next(const uint64_t *words, unsigned nwords, unsigned from)
{
	unsigned w = from / 64u;
	if (w >= nwords)
		return 64u * nwords;
	/* the members of from's word at or above it, then whole words */
	uint64_t bits = words[w] & (~UINT64_C(0) << (from % 64u));
	while (bits == 0) {
		if (++w == nwords)
			return 64u * nwords;
		bits = words[w];
	}
	return 64u * w + (unsigned)__builtin_ctzll(bits);
}

#endif
