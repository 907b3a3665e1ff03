/* time_unit.c: the time-unit table and the decimal-to-picosecond
 * conversion of time_unit.h. */
#include "base/time_unit.h"

#include <string.h>

#define UNIT(sym, digits, ps) { sym, sizeof(sym) - 1, digits, UINT64_C(ps) }

static const struct time_unit time_units[] = {
	UNIT("ps", 0, 1),
	UNIT("ns", 3, 1000),
	UNIT("us", 6, 1000000),
	UNIT("ms", 9, 1000000000),
	UNIT("s", 12, 1000000000000),
};

const struct time_unit *time_unit_find(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++) {
		if (time_units[i].len == len && memcmp(time_units[i].name, s, len) == 0)
			return &time_units[i];
	}
	return NULL;
}

enum time_status time_unit_to_ps(const char *int_s, size_t int_len, const char *frac_s,
                                 size_t frac_len, const struct time_unit *u, uint64_t *ps)
{
	uint64_t whole = 0, frac = 0, whole_ps;
	unsigned kept = 0;

	for (size_t i = 0; i < int_len; i++) {
		unsigned dig = (unsigned)(int_s[i] - '0');

		if (whole > (UINT64_MAX - dig) / 10)
			return TIME_TOO_BIG;
		whole = whole * 10 + dig;
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
