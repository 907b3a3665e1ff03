/* check_csv_chars.c: the export reader's character classes
 * (read/csv/csv_chars.c): csv_char_class[], which replaces comparisons
 * asked of every byte, against those comparisons, for each of the 256
 * byte values; and the helpers built on the classes. */
#include <stdbool.h>
#include <string.h>

#include "read/csv/csv_internal.h"
#include "suites.h"

/* The definitions the table stands for, written as comparisons. */
static bool plain_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool plain_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool plain_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool plain_name_drop(char c)
{
	return plain_blank(c) || c == '_' || c == '-' || c == '.' || c == '#';
}

START_TEST(test_classes_every_byte)
{
	for (int b = 0; b < 256; b++) {
		char c = (char)b;

		ck_assert_msg(is_blank(c) == plain_blank(c), "is_blank(0x%02x)", b);
		ck_assert_msg(is_alnum(c) == plain_alnum(c), "is_alnum(0x%02x)", b);
		ck_assert_msg(is_digit(c) == (c >= '0' && c <= '9'), "is_digit(0x%02x)", b);
		ck_assert_msg(is_hex(c) == plain_hex(c), "is_hex(0x%02x)", b);
		ck_assert_msg(is_name_drop(c) == plain_name_drop(c), "is_name_drop(0x%02x)", b);
	}
}
END_TEST

/* The table holds the four classes and nothing else. */
START_TEST(test_table_no_other_bits)
{
	for (int b = 0; b < 256; b++)
		ck_assert_msg((csv_char_class[b] & ~(unsigned)(CSV_CC_BLANK | CSV_CC_ALNUM |
		                                               CSV_CC_NAME_DROP | CSV_CC_HEX)) == 0,
		              "byte 0x%02x", b);
}
END_TEST

START_TEST(test_helpers_on_classes)
{
	const char *s = " \t\v\fx y\r";
	const char *t = s;
	size_t len = strlen(s);
	char out[16];

	ck_assert_uint_eq(csv_skip_blanks(s, len, 0), 4);
	csv_trim(&t, &len);
	ck_assert_uint_eq(len, 3);
	ck_assert(memcmp(t, "x y", 3) == 0);
	ck_assert(csv_squeeze("UpdateFC-P (VC0)\xc3\xa9", 18, out, sizeof(out)));
	ck_assert_str_eq(out, "updatefcpvc0");
}
END_TEST

Suite *suite_csv_chars(void)
{
	Suite *s = suite_create("csv_chars");
	TCase *tc = tcase_create("classes");

	tcase_add_test(tc, test_classes_every_byte);
	tcase_add_test(tc, test_table_no_other_bits);
	tcase_add_test(tc, test_helpers_on_classes);
	suite_add_tcase(s, tc);
	return s;
}
