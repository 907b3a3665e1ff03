/* xorshift.h: deterministic pseudo-random numbers for the unit tests
 * (xorshift32, Marsaglia 2003), so that a failure repeats run after run. */
#ifndef DLLPCHECK_TEST_XORSHIFT_H
#define DLLPCHECK_TEST_XORSHIFT_H

#include <stdint.h>

/* The next number of the sequence from *state (never 0: a state of 0
 * stays 0). */
static inline uint32_t next_random(uint32_t *state)
{
	uint32_t x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*state = x;
	return x;
}

#endif
