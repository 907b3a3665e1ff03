/* crc32.c: the CRC-32 register update of crc32.h, by table lookups
 * (slicing-by-8).
 * specification: spec-digest.md section 3.2 (the LCRC; the ECRC [3.3] is
 * the same CRC).
 */
#include "crc32.h"

/* Row 0 of the tables is the byte-at-a-time table. */
#include "crc32_slice8.h"

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Slicing-by-8: the register absorbs 4 bytes, and the 8 bytes are looked
 * up at once, each in the row that advances it over the bytes after it.
 * The same register as the byte-at-a-time loop, which does the tail. */
uint32_t crc32_update_portable(uint32_t reg, const uint8_t *p, size_t n)
{
	const uint32_t (*t)[256] = crc32_slice8;

	for (; n >= 8; p += 8, n -= 8) {
		uint32_t lo = reg ^ le32(p), hi = le32(p + 4);

		reg = t[7][lo & 0xFFu] ^ t[6][lo >> 8 & 0xFFu] ^
		      t[5][lo >> 16 & 0xFFu] ^ t[4][lo >> 24] ^
		      t[3][hi & 0xFFu] ^ t[2][hi >> 8 & 0xFFu] ^
		      t[1][hi >> 16 & 0xFFu] ^ t[0][hi >> 24];
	}
	for (size_t i = 0; i < n; i++)
		reg = (reg >> 8) ^ t[0][(reg ^ p[i]) & 0xFFu];
	return reg;
}

/* One implementation for now; crc32.h keeps the table version's own name
 * for the tests. */
uint32_t crc32_update(uint32_t reg, const uint8_t *p, size_t n)
{
	return crc32_update_portable(reg, p, n);
}
