/* check_number.c: unit tests of base/number.c: decimal, 0x hex and bare
 * hex; what is not a number; overflow told apart from "not a number". */
#include <check.h>
#include <string.h>

#include "base/number.h"
#include "suites.h"

static bool parse(const char *s, bool bare_hex, uint64_t *v, bool *too_big)
{
	return number_parse_u64(s, strlen(s), bare_hex, v, too_big);
}

START_TEST(test_decimal_and_hex)
{
	static const struct { const char *s; bool bare_hex; uint64_t v; } cases[] = {
		{ "0", false, 0 },         { "7", false, 7 },
		{ "4095", false, 4095 },   { "007", false, 7 },
		{ "0x1F", false, 31 },     { "0XfF", false, 255 },
		{ "1F", true, 31 },        { "0x1F", true, 31 },
		{ "10", true, 16 },        { "7fffff", true, 0x7FFFFF },
		{ "18446744073709551615", false, UINT64_MAX },
		{ "0xFFFFFFFFFFFFFFFF", false, UINT64_MAX },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 1;
		bool too_big = true;

		ck_assert_msg(parse(cases[i].s, cases[i].bare_hex, &v, &too_big), "%s", cases[i].s);
		ck_assert_msg(!too_big, "%s", cases[i].s);
		ck_assert_uint_eq(v, cases[i].v);
	}
}
END_TEST

/* Signs, blanks, empty strings, a bare "0x", letters in decimal and
 * octal-looking digits past 7 that are decimal: none is silently cut. */
START_TEST(test_not_numbers)
{
	static const char *const dec[] = {
		"", "-1", "+1", " 1", "1 ", "0x", "1F", "12a", "0x1G", "1.0", "1e3",
	};
	static const char *const hex[] = { "", "0x", "G", "1 ", "-1", "x1" };
	uint64_t v;
	bool too_big;

	for (size_t i = 0; i < sizeof(dec) / sizeof(dec[0]); i++)
		ck_assert_msg(!parse(dec[i], false, &v, &too_big), "'%s'", dec[i]);
	for (size_t i = 0; i < sizeof(hex) / sizeof(hex[0]); i++)
		ck_assert_msg(!parse(hex[i], true, &v, &too_big), "'%s'", hex[i]);
	/* leading zeros are decimal, not octal */
	ck_assert(parse("010", false, &v, &too_big));
	ck_assert_uint_eq(v, 10);
	ck_assert(parse("08", false, &v, &too_big));
	ck_assert_uint_eq(v, 8);
}
END_TEST

/* One past 2^64-1 is a number too big, not a non-number; a bad digit
 * after the overflow still makes it a non-number. */
START_TEST(test_too_big)
{
	uint64_t v;
	bool too_big = false;

	ck_assert(parse("18446744073709551616", false, &v, &too_big));
	ck_assert(too_big);
	ck_assert(parse("0x10000000000000000", false, &v, &too_big));
	ck_assert(too_big);
	ck_assert(parse("10000000000000000", true, &v, &too_big));
	ck_assert(too_big);
	ck_assert(!parse("18446744073709551616x", false, &v, &too_big));
}
END_TEST

/* number_parse_max(): the range ends are in, one past them is out; only
 * the len bytes given are read. */
START_TEST(test_max)
{
	uint64_t v = 0;

	ck_assert(number_parse_max("7", 1, 7, &v));
	ck_assert_uint_eq(v, 7);
	ck_assert(!number_parse_max("8", 1, 7, &v));
	ck_assert(number_parse_max("0x10", 4, 16, &v));
	ck_assert_uint_eq(v, 16);
	ck_assert(number_parse_max("12=3", 2, 12, &v));
	ck_assert_uint_eq(v, 12);
	ck_assert(!number_parse_max("99999999999999999999", 20, UINT64_MAX, &v));
	ck_assert(!number_parse_max("1F", 2, 100, &v));
}
END_TEST

Suite *suite_number(void)
{
	Suite *s = suite_create("number");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_decimal_and_hex);
	tcase_add_test(tc, test_not_numbers);
	tcase_add_test(tc, test_too_big);
	tcase_add_test(tc, test_max);
	suite_add_tcase(s, tc);
	return s;
}
