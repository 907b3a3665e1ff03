/* check_crc32.c: unit tests of crc32.c: crc32_update (folded with
 * PCLMULQDQ where the CPU has it) and crc32_update_portable (tables) give
 * the register of the bit-serial CRC-32 for every length, alignment,
 * start value and split of the input.
 * specification: spec-digest.md section 3.2.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/crc32.h"
#include "suites.h"
#include "xorshift.h"

/* Lengths 0..MAX_LEN cover the table path, the fold of one and of four
 * 16-byte lanes (several 64-byte rounds) and every tail length. */
#define MAX_LEN 1100u
#define ALIGNMENTS 16u

/* ---- helpers ------------------------------------------------------------ */

/* Bit-serial CRC-32 register from spec-digest 3.2, one byte. */
static uint32_t crc32_bitwise_byte(uint32_t reg, uint8_t byte)
{
	reg ^= byte;
	for (int k = 0; k < 8; k++)
		reg = (reg & 1) ? (reg >> 1) ^ 0xEDB88320u : reg >> 1;
	return reg;
}

static uint32_t crc32_bitwise(uint32_t reg, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		reg = crc32_bitwise_byte(reg, p[i]);
	return reg;
}

static void fill_random(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)next_random(&seed);
}

/* The start values: the LCRC's, zero, and a few without a pattern. */
static const uint32_t start_regs[] = {
	0xFFFFFFFFu, 0x00000000u, 0x9E3779B9u, 0x5A17C0DEu, 0x00000001u,
	0x80000000u,
};
#define START_REGS (sizeof(start_regs) / sizeof(start_regs[0]))

/* ---- tests ---------------------------------------------------------------- */

/* Both updates give the bit-serial register for every length 0..MAX_LEN
 * at every start alignment 0..15, from every start value.  The input is
 * copied to the end of a heap block of exactly alignment + length bytes,
 * so that ASan sees a read past its end; the reference grows one byte a
 * step. */
START_TEST(test_matches_bitwise)
{
	static uint8_t data[MAX_LEN];
	uint32_t ref[START_REGS];

	fill_random(data, sizeof(data), 0xC0FFEE11u);
	for (size_t align = 0; align < ALIGNMENTS; align++) {
		memcpy(ref, start_regs, sizeof(ref));
		for (size_t n = 0; n <= MAX_LEN; n++) {
			uint8_t *block = malloc(align + n > 0 ? align + n : 1);
			const uint8_t *p = block + align;

			ck_assert_ptr_nonnull(block);
			memcpy(block + align, data, n);
			for (size_t r = 0; r < START_REGS; r++) {
				if (n > 0)
					ref[r] = crc32_bitwise_byte(ref[r], data[n - 1]);
				ck_assert_msg(crc32_update(start_regs[r], p, n) == ref[r],
					      "crc32_update: length %zu, alignment %zu, start %08x",
					      n, align, (unsigned)start_regs[r]);
				ck_assert_msg(crc32_update_portable(start_regs[r], p, n) == ref[r],
					      "crc32_update_portable: length %zu, alignment %zu, start %08x",
					      n, align, (unsigned)start_regs[r]);
			}
			free(block);
		}
	}
}
END_TEST

/* An empty update leaves the register and does not read p, which may be
 * NULL (an empty payload). */
START_TEST(test_empty_input)
{
	for (size_t r = 0; r < START_REGS; r++) {
		ck_assert_uint_eq(crc32_update(start_regs[r], NULL, 0), start_regs[r]);
		ck_assert_uint_eq(crc32_update_portable(start_regs[r], NULL, 0),
				  start_regs[r]);
	}
}
END_TEST

/* A CRC over pieces is a chain of updates: update(update(reg, a), b) is
 * update(reg, a || b) for every split point, as the LCRC over the
 * sequence field and then the TLP, and the ECRC over its pieces, need. */
START_TEST(test_split_updates)
{
	static const size_t totals[] = {
		1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 79, 80,
		127, 128, 129, 143, 200, 270, 300, 513, 1100,
	};
	static uint8_t data[MAX_LEN];

	fill_random(data, sizeof(data), 0x5EED5EEDu);
	for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		size_t total = totals[t];

		for (size_t r = 0; r < START_REGS; r++) {
			uint32_t whole = crc32_bitwise(start_regs[r], data, total);

			for (size_t cut = 0; cut <= total; cut++) {
				uint32_t head = crc32_update(start_regs[r], data, cut);
				uint32_t head_p = crc32_update_portable(start_regs[r], data, cut);

				ck_assert_msg(crc32_update(head, data + cut, total - cut) == whole,
					      "crc32_update: %zu bytes cut at %zu", total, cut);
				ck_assert_msg(crc32_update_portable(head_p, data + cut,
								    total - cut) == whole,
					      "crc32_update_portable: %zu bytes cut at %zu",
					      total, cut);
			}
		}
	}
}
END_TEST

/* The catalogued check value of CRC-32 (the zlib/Ethernet CRC): the
 * complemented register over "123456789" from FFFFFFFFh is CBF43926h. */
START_TEST(test_check_value)
{
	static const char digits[] = "123456789";
	const uint8_t *p = (const uint8_t *)digits;

	ck_assert_uint_eq(~crc32_update(0xFFFFFFFFu, p, 9), 0xCBF43926u);
	ck_assert_uint_eq(~crc32_update_portable(0xFFFFFFFFu, p, 9), 0xCBF43926u);
	ck_assert_uint_eq(~crc32_bitwise(0xFFFFFFFFu, p, 9), 0xCBF43926u);
}
END_TEST

/* A value from outside this file for an input long enough to be folded
 * (72 bytes: one round of four lanes and a tail): "123456789" eight times
 * over, whose CRC-32 by zlib is 8811A440h
 * (python3 -c 'import zlib; print(hex(zlib.crc32(b"123456789" * 8)))'). */
START_TEST(test_check_value_long)
{
	uint8_t digits[72];

	for (size_t i = 0; i < sizeof(digits); i++)
		digits[i] = (uint8_t)('1' + i % 9);
	ck_assert_uint_eq(~crc32_update(0xFFFFFFFFu, digits, sizeof(digits)),
			  0x8811A440u);
	ck_assert_uint_eq(~crc32_update_portable(0xFFFFFFFFu, digits, sizeof(digits)),
			  0x8811A440u);
}
END_TEST

Suite *suite_crc32(void)
{
	Suite *s = suite_create("crc32");
	TCase *tc = tcase_create("register");

	/* Every length, alignment and start value: a few seconds under
	 * valgrind. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_matches_bitwise);
	tcase_add_test(tc, test_empty_input);
	tcase_add_test(tc, test_split_updates);
	tcase_add_test(tc, test_check_value);
	tcase_add_test(tc, test_check_value_long);
	suite_add_tcase(s, tc);
	return s;
}
