/* time_unit.c: the time-unit table and the decimal-to-picosecond
 * conversion of time_unit.h. */
#include "base/time_unit.h"

#include <string.h>

#include "base/ascii.h"

#define UNIT(sym, digits, ps, pow10)                              \
	{                                                         \
		sym, sizeof(sym) - 1, digits, UINT64_C(ps), pow10 \
	}

const struct time_unit time_units[TIME_UNIT_ALL] = {
	[TIME_UNIT_PS] = UNIT("ps", 0, 1, 0),
	[TIME_UNIT_NS] = UNIT("ns", 3, 1000, 3),
	[TIME_UNIT_US] = UNIT("us", 6, 1000000, 6),
	[TIME_UNIT_MS] = UNIT("ms", 9, 1000000000, 9),
	[TIME_UNIT_S] = UNIT("s", 12, 1000000000000, 12),
	[TIME_UNIT_FS] = UNIT("fs", 0, 0, -3),
	[TIME_UNIT_US_MICRO] = UNIT("\xc2\xb5s", 6, 1000000, 6),
	[TIME_UNIT_US_MU] = UNIT("\xce\xbcs", 6, 1000000, 6),
	[TIME_UNIT_SEC] = UNIT("sec", 12, 1000000000000, 12),
};

const struct time_unit *time_unit_find(const char *s, size_t len)
{
	for (size_t i = 0; i < TIME_UNIT_COUNT; i++) {
		const struct time_unit *u = &time_units[i];

		/* the first letter first: a time unit is looked up per line */
		if (u->len == len && u->name[0] == s[0] && memcmp(u->name, s, len) == 0)
			return u;
	}
	return NULL;
}

const struct time_unit *time_unit_find_nocase(const char *s, size_t len)
{
	for (size_t i = 0; i < TIME_UNIT_ALL; i++) {
		if (ascii_eq_nocase(s, len, time_units[i].name))
			return &time_units[i];
	}
	return NULL;
}

const char *time_unit_pow10_name(int pow10)
{
	/* the SI symbols come first in the table */
	for (size_t i = 0; i < TIME_UNIT_ALL; i++) {
		if (time_units[i].pow10 == pow10)
			return time_units[i].name;
	}
	return "?";
}

enum time_status time_unit_to_ps(const char *int_s, size_t int_len, const char *frac_s,
                                 size_t frac_len, const struct time_unit *u, uint64_t *ps)
{
	uint64_t whole = 0, frac = 0, whole_ps;
	unsigned kept = 0;

	for (size_t i = 0; i < int_len; i++) {
		unsigned dig = (unsigned)(int_s[i] - '0');

		if (__builtin_mul_overflow(whole, 10u, &whole) ||
		    __builtin_add_overflow(whole, dig, &whole))
			return TIME_TOO_BIG;
	}
	for (size_t i = 0; i < frac_len; i++) {
		unsigned dig = (unsigned)(frac_s[i] - '0');

		if (kept < u->frac_digits) {
			frac = frac * 10 + dig;
			kept++;
		} else if (dig != 0) {
			return TIME_FINER_THAN_PS;
		}
	}
	for (; kept < u->frac_digits; kept++)
		frac *= 10;
	if (__builtin_mul_overflow(whole, u->ps, &whole_ps) ||
	    whole_ps > (uint64_t)INT64_MAX - frac)
		return TIME_TOO_BIG;
	*ps = whole_ps + frac;
	return TIME_OK;
}

/* Split so that the product overflows only past 2^64 ps. */
bool time_ticks_to_ps(uint64_t ticks, uint64_t period_fs, uint64_t *ps)
{
	uint64_t whole = period_fs / 1000, frac = period_fs % 1000;
	uint64_t a, b;

	if (whole != 0 && ticks > UINT64_MAX / whole)
		return false;
	a = ticks * whole;
	if (frac != 0 && ticks > (UINT64_MAX - 500) / frac) {
		/* ticks * frac would overflow: divide first (loses < 1 ps). */
		b = ticks / 1000 * frac + (ticks % 1000 * frac + 500) / 1000;
	} else {
		b = (ticks * frac + 500) / 1000;
	}
	if (a > UINT64_MAX - b)
		return false;
	*ps = a + b;
	return true;
}
