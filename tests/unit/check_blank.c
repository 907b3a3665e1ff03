/* check_blank.c: unit tests of base/blank.h: blank_find(), eight bytes at
 * a time, agrees with blank_find_plain() for every byte value at every
 * position, and neither reads outside s[p..end). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/blank.h"
#include "suites.h"

#define MAX_LEN 24u /* three words and a tail */

START_TEST(test_blank_is)
{
	for (unsigned c = 0; c < 256; c++) {
		bool want = c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';

		ck_assert_msg(blank_is((char)c) == want, "byte %02x", c);
	}
}
END_TEST

/* A word of 'x' with one byte b at position k (every byte value, every k),
 * in a heap block of exactly len bytes so that ASan sees a read past its
 * end; every start p.  Bytes around '!' and above 7Fh are the ones the
 * word trick could mistake. */
START_TEST(test_matches_plain)
{
	for (size_t len = 0; len <= MAX_LEN; len++) {
		char *s = malloc(len ? len : 1);

		ck_assert_ptr_nonnull(s);
		for (size_t k = 0; k < (len ? len : 1); k++) {
			for (unsigned b = 0; b < 256; b++) {
				memset(s, 'x', len);
				if (k < len)
					s[k] = (char)b;
				for (size_t p = 0; p <= len; p++) {
					size_t got = blank_find(s, p, len);
					size_t want = blank_find_plain(s, p, len);

					if (got != want)
						ck_abort_msg("len %zu byte %02x at %zu from %zu: "
						             "%zu, plain %zu",
						             len, b, k, p, got, want);
				}
			}
		}
		free(s);
	}
}
END_TEST

/* Two bytes below '!' in one word: a control character before a blank
 * must not hide the blank; a blank before a control character wins. */
START_TEST(test_control_before_blank)
{
	char s[24];

	memset(s, 'A', sizeof(s));
	s[3] = '\x01';
	s[5] = ' ';
	ck_assert_uint_eq(blank_find(s, 0, sizeof(s)), 5);
	s[2] = '\t';
	ck_assert_uint_eq(blank_find(s, 0, sizeof(s)), 2);
	memset(s, '\x1f', sizeof(s));
	s[17] = '\f';
	ck_assert_uint_eq(blank_find(s, 0, sizeof(s)), 17);
	ck_assert_uint_eq(blank_find(s, 0, 17), 17);
	s[17] = '\x80';
	ck_assert_uint_eq(blank_find(s, 1, sizeof(s)), sizeof(s));
}
END_TEST

Suite *suite_blank(void)
{
	Suite *s = suite_create("blank");
	TCase *tc = tcase_create("find");

	tcase_add_test(tc, test_blank_is);
	tcase_add_test(tc, test_matches_plain);
	tcase_add_test(tc, test_control_before_blank);
	suite_add_tcase(s, tc);
	return s;
}
