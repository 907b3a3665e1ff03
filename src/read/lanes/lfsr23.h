/* lfsr23.h: the 128b/130b scrambler (8 GT/s and above), one LFSR per lane
 * (phy-digest.md section 4.2, PCIe 6.2 section 4.2.2.4, Fig 4-18).
 *
 * G(X) = X^23 + X^21 + X^16 + X^8 + X^5 + X^2 + 1 in Galois form: each
 * shift is lfsr = (lfsr << 1 & 7FFFFFh) ^ (210125h if D22), the output
 * bit is D22, XORed with the data LSB first.  Scrambling and descrambling
 * are the same XOR.  Eight shifts at a time by table lookup: the key and
 * the feedback of a byte depend only on D22..D15 (no tap below D15 reaches
 * D22 within eight shifts).
 */
#ifndef DLLPCHECK_LFSR23_H
#define DLLPCHECK_LFSR23_H

#include <stdint.h>

#define LFSR23_MASK 0x7FFFFFu

/* The seed of a lane (its default lane number mod 8, digest 4.2 table). */
uint32_t lfsr23_seed(unsigned lane);

/* The tables (lfsr23.c).  The key of the next symbol (XOR it with the data); the LFSR advances by
 * eight shifts. */
extern const uint8_t lfsr23_key_table[256];
extern const uint32_t lfsr23_next_table[256];
static inline uint8_t lfsr23_key(uint32_t *lfsr)
{
	uint32_t top = *lfsr >> 15 & 0xFFu;

	*lfsr = (*lfsr << 8 & LFSR23_MASK) ^ lfsr23_next_table[top];
	return lfsr23_key_table[top];
}

/* The same eight shifts one bit at a time, as Fig 4-18 draws them (the
 * unit test holds the tables to it). */
uint8_t lfsr23_key_bitwise(uint32_t *lfsr);

#endif
