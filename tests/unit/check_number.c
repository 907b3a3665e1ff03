/* check_number.c: unit tests of base/number.c: decimal, 0x hex and bare
 * hex; what is not a number; overflow told apart from "not a number". */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/number.h"
#include "suites.h"
#include "xorshift.h"

static bool parse(const char *s, bool bare_hex, uint64_t *v, bool *too_big)
{
	return number_parse_u64(s, strlen(s), bare_hex, v, too_big);
}

START_TEST(test_decimal_and_hex)
{
	static const struct {
		const char *s;
		bool bare_hex;
		uint64_t v;
	} cases[] = {
		{ "0", false, 0 },
		{ "7", false, 7 },
		{ "4095", false, 4095 },
		{ "007", false, 7 },
		{ "0x1F", false, 31 },
		{ "0XfF", false, 255 },
		{ "1F", true, 31 },
		{ "0x1F", true, 31 },
		{ "10", true, 16 },
		{ "7fffff", true, 0x7FFFFF },
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

/* ---- number_scan_decimal() and its conversions ---- */

/* s scanned (decimal_comma as given), then times 10^pow10. */
static bool dec_u64(const char *s, bool comma, int pow10, uint64_t *v, size_t *used)
{
	struct number_dec n;

	number_scan_decimal(s, strlen(s), comma, &n);
	*used = n.used;
	return n.any && number_dec_to_u64(&n, pow10, v);
}

START_TEST(test_decimal_scan)
{
	static const struct {
		const char *s;
		bool comma;
		int pow10;
		uint64_t v;
		size_t used;
	} cases[] = {
		{ "0", false, 0, 0, 1 },
		{ "1234", false, 0, 1234, 4 },
		{ "1.5", false, 3, 1500, 3 },
		{ "+16.0", false, 0, 16, 5 },
		{ "0.000 001 234", false, 12, 1234000, 13 }, /* grouped digits */
		{ "1 234 ns", false, 0, 1234, 5 }, /* a blank before a unit ends it */
		{ "1.5e-9 s", false, 12, 1500, 6 },
		{ "2E3", false, 0, 2000, 3 },
		{ "1e", false, 0, 1, 1 }, /* no exponent digits: not an exponent */
		{ "0,000123", true, 12, 123000000, 8 },
		{ "0,000123", false, 12, 0, 1 }, /* a comma only when asked */
		{ "1,234.5", true, 1, 12, 5 }, /* one decimal point at most */
		{ "1.234,5", true, 3, 1234, 5 },
		{ "2.5", false, 0, 3, 3 }, /* half rounds up */
		{ "2.49", false, 0, 2, 4 },
		{ "0.0000000000000000000000000000000000000000001", false, 45, 100, 45 },
		{ "18446744073709551615", false, 0, UINT64_MAX, 20 },
		{ "12ab", false, 0, 12, 2 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 1;
		size_t used = 0;

		ck_assert_msg(dec_u64(cases[i].s, cases[i].comma, cases[i].pow10, &v, &used), "%s",
		              cases[i].s);
		ck_assert_msg(v == cases[i].v, "%s: %llu", cases[i].s, (unsigned long long)v);
		ck_assert_msg(used == cases[i].used, "%s: used %zu", cases[i].s, used);
	}
}
END_TEST

START_TEST(test_decimal_sign_whole_range)
{
	struct number_dec n;
	uint64_t v;
	size_t used;

	number_scan_decimal("-0", 2, false, &n);
	ck_assert(n.any && n.neg && n.nd == 0);
	number_scan_decimal("-3", 2, false, &n);
	ck_assert(n.any && n.neg && n.nd == 1);
	number_scan_decimal("ns", 2, false, &n);
	ck_assert(!n.any);
	ck_assert_uint_eq(n.used, 0);
	number_scan_decimal("16.0", 4, false, &n);
	ck_assert(number_dec_is_whole(&n));
	number_scan_decimal("16.01", 5, false, &n);
	ck_assert(!number_dec_is_whole(&n));
	number_scan_decimal("1e3", 3, false, &n);
	ck_assert(number_dec_is_whole(&n));
	/* over 64 bits, before and after the scale */
	ck_assert(!dec_u64("18446744073709551616", false, 0, &v, &used));
	ck_assert(!dec_u64("18446744073709551615", false, 1, &v, &used));
	ck_assert(!dec_u64("1e10000", false, 0, &v, &used));
	/* more digits than kept: the integer part still counts them */
	ck_assert(dec_u64("100000000000000000000000000000000000000000", false, -30, &v, &used));
	ck_assert_uint_eq(v, 100000000000); /* 10^41 / 10^30 */
}
END_TEST

/* number_put_u64 against printf: every power of 10 and its neighbours
 * (where the digit count changes), the 32-bit boundary, the largest, and
 * a spread of others. */
START_TEST(test_put_u64)
{
	uint64_t values[200];
	unsigned n = 0;
	uint64_t p10 = 1;
	for (unsigned i = 0; i < 20; i++, p10 *= 10) {
		values[n++] = p10 - 1;
		values[n++] = p10;
		values[n++] = p10 + 1;
	}
	values[n++] = UINT32_MAX;
	values[n++] = (uint64_t)UINT32_MAX + 1;
	values[n++] = UINT64_MAX;
	values[n++] = UINT64_MAX - 1;
	for (uint64_t x = 0x9E3779B97F4A7C15u; n < 200; x = x * 6364136223846793005u + 1) {
		values[n] = x >> (n % 64);
		n++;
	}
	for (unsigned i = 0; i < n; i++) {
		char got[NUMBER_U64_DIGITS + 1], want[32];
		char *end = number_put_u64(got, values[i]);
		*end = '\0';
		snprintf(want, sizeof(want), "%" PRIu64, values[i]);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* number_scan_decimal() against the plain scan it replaced (below, as it
 * was: an index, the counts kept in *n) */

static bool plain_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void plain_scan_digits(const char *s, size_t len, bool decimal_comma, size_t *pi,
                              struct number_dec *n)
{
	size_t i = *pi;
	bool in_frac = false;

	for (;;) {
		if (i < len && plain_digit(s[i])) {
			unsigned d = (unsigned)(s[i++] - '0');

			n->any = true;
			if (n->nd == 0 && d == 0) {
				n->exp10 -= in_frac;
			} else if (n->nd < NUMBER_DEC_DIGITS) {
				n->dig[n->nd++] = (char)d;
				n->exp10 -= in_frac;
			} else if (!in_frac) {
				n->exp10++;
			}
			continue;
		}
		if (i + 1 < len && s[i] == ' ' && n->any && plain_digit(s[i - 1]) &&
		    plain_digit(s[i + 1])) {
			i++;
			continue;
		}
		if (i + 1 < len && (s[i] == '.' || (decimal_comma && s[i] == ',')) && !in_frac &&
		    plain_digit(s[i + 1])) {
			in_frac = true;
			i++;
			continue;
		}
		break;
	}
	*pi = i;
}

static void plain_scan_decimal(const char *s, size_t len, bool decimal_comma, struct number_dec *n)
{
	size_t i = 0;

	memset(n, 0, sizeof(*n));
	if (i < len && (s[i] == '+' || s[i] == '-')) {
		n->neg = s[i] == '-';
		i++;
	}
	plain_scan_digits(s, len, decimal_comma, &i, n);
	if (n->any && i + 1 < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		bool eneg = false;
		int e = 0;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			eneg = s[j++] == '-';
		if (j < len && plain_digit(s[j])) {
			while (j < len && plain_digit(s[j])) {
				if (e < 10000)
					e = e * 10 + (s[j] - '0');
				j++;
			}
			n->exp10 += eneg ? -e : e;
			i = j;
		}
	}
	n->used = i;
}

/* Both scans of s[0 .. len) agree; asserts only on a difference (an
 * assertion that holds costs Check a write). */
static void check_scan_same(const char *s, size_t len, bool comma)
{
	struct number_dec a, b;

	number_scan_decimal(s, len, comma, &a);
	plain_scan_decimal(s, len, comma, &b);
	if (a.nd != b.nd || a.exp10 != b.exp10 || a.neg != b.neg || a.any != b.any ||
	    a.used != b.used || memcmp(a.dig, b.dig, a.nd) != 0)
		ck_abort_msg("'%.*s'%s: nd %u exp %d used %zu; plain %u %d %zu", (int)len, s,
		             comma ? " (comma)" : "", a.nd, a.exp10, a.used, b.nd, b.exp10, b.used);
}

START_TEST(test_decimal_scan_edges)
{
	static const char *const cells[] = {
		"",
		"-",
		"+5",
		"0",
		"000",
		"0.000 001 234 s",
		"1 2",
		"1  2",
		" 1",
		"1 ",
		"1.",
		".5",
		"1.2.3",
		"1,5",
		"1e",
		"1e5",
		"1E+5x",
		"1e-",
		"1e-x",
		"e5",
		"-0.0e-0",
		"9999999999999999999999999999999999999999999.5",
		"0.00000000000000000000000000000000000000000000000001",
		"1e99999999",
		"12 345,678 9",
		"5 .5",
	};

	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		check_scan_same(cells[i], strlen(cells[i]), false);
		check_scan_same(cells[i], strlen(cells[i]), true);
	}
}
END_TEST

/* Text of 0 to 63 characters from the characters that matter (digits
 * weighted, long runs of them reaching past NUMBER_DEC_DIGITS), some any
 * byte. */
START_TEST(test_decimal_scan_random)
{
	static const char alphabet[] = "0123456789000 .,eE+-";
	uint32_t state = 0x0DEC1A55u;
	char s[64];

	for (int k = 0; k < 200000; k++) {
		size_t len = next_random(&state) % sizeof(s);
		uint32_t digits_only = next_random(&state) % 4 == 0;

		for (size_t i = 0; i < len; i++) {
			uint32_t r = next_random(&state);

			if (digits_only && r % 8 != 0)
				s[i] = (char)('0' + (r >> 8) % 10);
			else
				s[i] = r % 16 == 0 ? (char)(r >> 8)
				                   : alphabet[(r >> 8) % (sizeof(alphabet) - 1)];
		}
		check_scan_same(s, len, k % 2 != 0);
	}
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
	tc = tcase_create("decimal");
	tcase_add_test(tc, test_decimal_scan);
	tcase_add_test(tc, test_decimal_sign_whole_range);
	tcase_add_test(tc, test_decimal_scan_edges);
	tcase_add_test(tc, test_decimal_scan_random);
	tcase_add_test(tc, test_put_u64);
	suite_add_tcase(s, tc);
	return s;
}
