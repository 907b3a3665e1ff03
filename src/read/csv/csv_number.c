/* csv_number.c: the numbers of an export's cells, kept as decimal digits
 * so that nothing is lost to binary floating point; time units, times
 * (to picoseconds) and clock ticks.  specification: capture-format.md
 * section 3. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/ascii.h"
#include "read/csv/csv_internal.h"

/* Scans a number at the start of s: sign, digits (single blanks between
 * digits are thousands grouping: "0.000 001 234"), fraction, exponent.
 * With comma, a ',' is a decimal point as well as '.' ("0,000123", as
 * European locales write it): only for cells of an export whose delimiter
 * is not ','.  One decimal point at most, so "1,234.5" or "1.234,5" stop
 * at the second and are then no number of any unit. */
void csv_scan_number_dec(const char *s, size_t len, bool comma, struct num *n)
{
	size_t i = 0;
	bool in_frac = false;

	memset(n, 0, sizeof(*n));
	if (i < len && (s[i] == '+' || s[i] == '-')) {
		n->neg = s[i] == '-';
		i++;
	}
	for (;;) {
		if (i < len && is_digit(s[i])) {
			unsigned d = (unsigned)(s[i++] - '0');

			n->any = true;
			if (n->nd == 0 && d == 0) {
				n->exp10 -= in_frac;
			} else if (n->nd < NUM_DIGITS) {
				n->dig[n->nd++] = (char)d;
				n->exp10 -= in_frac;
			} else if (!in_frac) {
				n->exp10++;
			}
			continue;
		}
		if (i + 1 < len && s[i] == ' ' && n->any && is_digit(s[i - 1]) &&
		    is_digit(s[i + 1])) {
			i++;
			continue;
		}
		if (i + 1 < len && (s[i] == '.' || (comma && s[i] == ',')) && !in_frac &&
		    is_digit(s[i + 1])) {
			in_frac = true;
			i++;
			continue;
		}
		break;
	}
	if (n->any && i + 1 < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		bool eneg = false;
		int e = 0;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			eneg = s[j++] == '-';
		if (j < len && is_digit(s[j])) {
			while (j < len && is_digit(s[j])) {
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

void csv_scan_number(const char *s, size_t len, struct num *n)
{
	csv_scan_number_dec(s, len, false, n);
}

/* n * 10^pow rounded to the nearest integer; false when over 64 bits. */
bool csv_num_to_u64(const struct num *n, int pow, uint64_t *out)
{
	long e = (long)n->exp10 + pow;
	long keep = (long)n->nd + (e < 0 ? e : 0);
	uint64_t v = 0;

	*out = 0;
	if (n->nd == 0)
		return true;
	for (long i = 0; i < keep; i++) {
		unsigned d = (unsigned)n->dig[i];

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (e < 0) {
		if (keep >= 0 && keep < (long)n->nd && n->dig[keep] >= 5) {
			if (v == UINT64_MAX)
				return false;
			v++;
		}
	} else {
		for (long i = 0; i < e; i++) {
			if (v > UINT64_MAX / 10)
				return false;
			v *= 10;
		}
	}
	*out = v;
	return true;
}

/* No fraction: every digit past the decimal point is 0 ("16.0" is whole). */
bool csv_num_is_whole(const struct num *n)
{
	long first_frac = (long)n->nd + n->exp10;

	if (n->exp10 >= 0)
		return true;
	for (long i = first_frac < 0 ? 0 : first_frac; i < (long)n->nd; i++) {
		if (n->dig[i] != 0)
			return false;
	}
	return true;
}

static const struct unit_def time_units[] = {
	{ "fs", -3 },       { "ps", 0 }, { "ns", 3 }, { "us", 6 },   { "\xc2\xb5s", 6 },
	{ "\xce\xbcs", 6 }, { "ms", 9 }, { "s", 12 }, { "sec", 12 },
};

bool csv_time_unit_lookup(const char *s, size_t len, int *pow)
{
	for (size_t i = 0; i < ARRAY_LEN(time_units); i++) {
		if (ascii_eq_nocase(s, len, time_units[i].name)) {
			*pow = time_units[i].pow;
			return true;
		}
	}
	return false;
}

/* A unit word naming clock ticks or samples. */
bool csv_ticks_unit(const char *s, size_t len)
{
	return ascii_eq_nocase(s, len, "ticks") || ascii_eq_nocase(s, len, "tick") ||
	       ascii_eq_nocase(s, len, "clk") || ascii_eq_nocase(s, len, "clks") ||
	       ascii_eq_nocase(s, len, "cycles") || ascii_eq_nocase(s, len, "samples") ||
	       ascii_eq_nocase(s, len, "sample");
}

/* csv_parse_time(), with decimal commas when comma is set. */
bool csv_parse_time_comma(const char *s, size_t len, int default_pow, bool comma, uint64_t *ps,
                          const char **why)
{
	struct num n;
	const char *u;
	size_t ulen;
	int pow = default_pow;

	csv_trim(&s, &len);
	csv_scan_number_dec(s, len, comma, &n);
	if (!n.any) {
		*why = "not a time";
		return false;
	}
	if (n.neg && n.nd > 0) {
		*why = "negative time";
		return false;
	}
	u = s + n.used;
	ulen = len - n.used;
	csv_trim(&u, &ulen);
	if (ulen > 0 && !csv_time_unit_lookup(u, ulen, &pow)) {
		*why = "unknown time unit (fs ps ns us ms s)";
		return false;
	}
	/* Below 2^63 ps (106 days), as every reader: reports carry times as
	 * signed 64-bit integers (record.h). */
	if (!csv_num_to_u64(&n, pow, ps) || *ps > (uint64_t)INT64_MAX) {
		*why = "time over 2^63-1 ps";
		return false;
	}
	return true;
}

bool csv_parse_time(const char *s, size_t len, int default_pow, uint64_t *ps, const char **why)
{
	return csv_parse_time_comma(s, len, default_pow, false, ps, why);
}

/* A tick count times the clock period (fs) to ps, rounded; split so the
 * product overflows only past 2^64 ps. */
bool csv_ticks_to_ps(uint64_t ticks, uint64_t period_fs, uint64_t *ps)
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

const char *csv_pow_unit(int pow)
{
	for (size_t i = 0; i < ARRAY_LEN(time_units); i++) {
		if (time_units[i].pow == pow)
			return time_units[i].name;
	}
	return "?";
}
