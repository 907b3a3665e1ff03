/* check_time_unit.c: unit tests of base/time_unit.c: the units of
 * capture-format.md section 2 and the exact conversion to picoseconds. */
#include <check.h>
#include <string.h>

#include "base/time_unit.h"
#include "suites.h"

/* "INT.FRAC" (digits only, the caller's job) in unit. */
static enum time_status to_ps(const char *text, const char *unit, uint64_t *ps)
{
	const struct time_unit *u = time_unit_find(unit, strlen(unit));
	const char *dot = strchr(text, '.');
	size_t int_len = dot ? (size_t)(dot - text) : strlen(text);

	ck_assert_ptr_nonnull(u);
	return time_unit_to_ps(text, int_len, dot ? dot + 1 : "", dot ? strlen(dot + 1) : 0, u,
	                       ps);
}

START_TEST(test_units)
{
	static const struct { const char *name; unsigned digits; uint64_t ps; } units[] = {
		{ "ps", 0, 1 }, { "ns", 3, 1000 }, { "us", 6, 1000000 },
		{ "ms", 9, 1000000000 }, { "s", 12, UINT64_C(1000000000000) },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		const struct time_unit *u = time_unit_find(units[i].name, strlen(units[i].name));

		ck_assert_ptr_eq(u, &time_units[i]);
		ck_assert_str_eq(u->name, units[i].name);
		ck_assert_uint_eq(u->len, strlen(units[i].name));
		ck_assert_uint_eq(u->frac_digits, units[i].digits);
		ck_assert_uint_eq(u->ps, units[i].ps);
	}
	/* SI symbols: the case counts; no other unit, no prefix match */
	ck_assert_ptr_null(time_unit_find("NS", 2));
	ck_assert_ptr_null(time_unit_find("Ms", 2));
	ck_assert_ptr_null(time_unit_find("fs", 2));
	ck_assert_ptr_null(time_unit_find("sec", 3));
	ck_assert_ptr_null(time_unit_find("nsx", 3));
	ck_assert_ptr_null(time_unit_find("n", 1));
	ck_assert_ptr_null(time_unit_find("", 0));
	/* only len bytes are read */
	ck_assert_ptr_nonnull(time_unit_find("nsec", 2));
}
END_TEST

START_TEST(test_exact)
{
	uint64_t ps = 1;

	ck_assert_int_eq(to_ps("0", "ns", &ps), TIME_OK);
	ck_assert_uint_eq(ps, 0);
	ck_assert_int_eq(to_ps("1.5", "us", &ps), TIME_OK);
	ck_assert_uint_eq(ps, 1500000);
	ck_assert_int_eq(to_ps("17.000001", "us", &ps), TIME_OK);
	ck_assert_uint_eq(ps, 17000001);
	ck_assert_int_eq(to_ps("1.0", "ps", &ps), TIME_OK);
	ck_assert_uint_eq(ps, 1);
	/* zeros past the resolution are exact */
	ck_assert_int_eq(to_ps("2.0010000", "ns", &ps), TIME_OK);
	ck_assert_uint_eq(ps, 2001);
	ck_assert_int_eq(to_ps("0.000000000001", "s", &ps), TIME_OK);
	ck_assert_uint_eq(ps, 1);
}
END_TEST

START_TEST(test_finer_than_ps)
{
	uint64_t ps;

	ck_assert_int_eq(to_ps("1.0001", "ps", &ps), TIME_FINER_THAN_PS);
	ck_assert_int_eq(to_ps("1.0001", "ns", &ps), TIME_FINER_THAN_PS);
	ck_assert_int_eq(to_ps("0.0000000000001", "s", &ps), TIME_FINER_THAN_PS);
}
END_TEST

/* 2^63-1 ps is the last time; one more is too big, whatever the unit,
 * and so is a whole part over 64 bits before any fraction is looked at. */
START_TEST(test_too_big)
{
	uint64_t ps;

	ck_assert_int_eq(to_ps("9223372036854775807", "ps", &ps), TIME_OK);
	ck_assert_uint_eq(ps, (uint64_t)INT64_MAX);
	ck_assert_int_eq(to_ps("9223372036854775808", "ps", &ps), TIME_TOO_BIG);
	ck_assert_int_eq(to_ps("9223372036854775.807", "ns", &ps), TIME_OK);
	ck_assert_uint_eq(ps, (uint64_t)INT64_MAX);
	ck_assert_int_eq(to_ps("9223372036854775.808", "ns", &ps), TIME_TOO_BIG);
	ck_assert_int_eq(to_ps("9223373", "s", &ps), TIME_TOO_BIG);
	ck_assert_int_eq(to_ps("99999999999999999999.00001", "ps", &ps), TIME_TOO_BIG);
}
END_TEST

/* The spellings of exports: any case, fs, the micro sign, sec; the SI
 * lookup is not widened by them. */
START_TEST(test_nocase)
{
	static const struct {
		const char *name;
		int pow10;
	} names[] = {
		{ "fs", -3 }, { "FS", -3 }, { "ps", 0 },        { "Ps", 0 },
		{ "NS", 3 },  { "us", 6 },  { "\xc2\xb5s", 6 }, { "\xce\xbcs", 6 },
		{ "Ms", 9 },  { "s", 12 },  { "SEC", 12 },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct time_unit *u =
		        time_unit_find_nocase(names[i].name, strlen(names[i].name));

		ck_assert_msg(u != NULL, "%s", names[i].name);
		ck_assert_int_eq(u->pow10, names[i].pow10);
	}
	ck_assert_ptr_null(time_unit_find_nocase("", 0));
	ck_assert_ptr_null(time_unit_find_nocase("n", 1));
	ck_assert_ptr_null(time_unit_find_nocase("secs", 4));
	ck_assert_ptr_null(time_unit_find_nocase("hz", 2));
	for (size_t i = 0; i < TIME_UNIT_COUNT; i++)
		ck_assert_ptr_eq(time_unit_find_nocase(time_units[i].name, time_units[i].len),
		                 &time_units[i]);
	/* every unit's ps and pow10 agree */
	for (size_t i = 0; i < TIME_UNIT_ALL; i++) {
		uint64_t p = 1;

		for (int k = 0; k < time_units[i].pow10; k++)
			p *= 10;
		ck_assert_uint_eq(time_units[i].ps, time_units[i].pow10 < 0 ? 0 : p);
		ck_assert_uint_eq(time_units[i].len, strlen(time_units[i].name));
	}
}
END_TEST

START_TEST(test_pow10_name)
{
	ck_assert_str_eq(time_unit_pow10_name(-3), "fs");
	ck_assert_str_eq(time_unit_pow10_name(0), "ps");
	ck_assert_str_eq(time_unit_pow10_name(3), "ns");
	ck_assert_str_eq(time_unit_pow10_name(6), "us");
	ck_assert_str_eq(time_unit_pow10_name(9), "ms");
	ck_assert_str_eq(time_unit_pow10_name(12), "s");
	ck_assert_str_eq(time_unit_pow10_name(1), "?");
}
END_TEST

/* Clock ticks: rounded to the nearest ps, over 64 bits refused. */
START_TEST(test_ticks)
{
	uint64_t ps = 0;

	ck_assert(time_ticks_to_ps(3, 4000, &ps));
	ck_assert_uint_eq(ps, 12);
	ck_assert(time_ticks_to_ps(3, 2500, &ps)); /* 7.5 ps */
	ck_assert_uint_eq(ps, 8);
	ck_assert(time_ticks_to_ps(1, 400, &ps)); /* 0.4 ps */
	ck_assert_uint_eq(ps, 0);
	ck_assert(time_ticks_to_ps(UINT64_MAX, 1, &ps)); /* divided first */
	ck_assert_uint_eq(ps, UINT64_MAX / 1000 + 1);
	ck_assert(!time_ticks_to_ps(UINT64_MAX, 2000, &ps));
	ck_assert(time_ticks_to_ps(0, 4000, &ps));
	ck_assert_uint_eq(ps, 0);
}
END_TEST

Suite *suite_time_unit(void)
{
	Suite *s = suite_create("time_unit");
	TCase *tc = tcase_create("convert");

	tcase_add_test(tc, test_units);
	tcase_add_test(tc, test_exact);
	tcase_add_test(tc, test_finer_than_ps);
	tcase_add_test(tc, test_too_big);
	suite_add_tcase(s, tc);
	tc = tcase_create("exports");
	tcase_add_test(tc, test_nocase);
	tcase_add_test(tc, test_pow10_name);
	tcase_add_test(tc, test_ticks);
	suite_add_tcase(s, tc);
	return s;
}
