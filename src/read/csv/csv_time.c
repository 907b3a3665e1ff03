/* csv_time.c: the time cells of an export (a decimal number, an optional
 * unit) to picoseconds, and the unit words of clock ticks.  The numbers
 * and the units are base/'s (number_scan_decimal(), time_units[]).
 * specification: capture-format.md section 3. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ascii.h"
#include "base/number.h"
#include "base/time_unit.h"
#include "read/csv/csv_internal.h"

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
	struct number_dec n;
	const struct time_unit *unit;
	const char *u;
	size_t ulen;
	int pow = default_pow;

	csv_trim(&s, &len);
	number_scan_decimal(s, len, comma, &n);
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
	if (ulen > 0) {
		unit = time_unit_find_nocase(u, ulen);
		if (unit == NULL) {
			*why = "unknown time unit (fs ps ns us ms s)";
			return false;
		}
		pow = unit->pow10;
	}
	/* Below 2^63 ps (106 days), as every reader: reports carry times as
	 * signed 64-bit integers (record.h). */
	if (!number_dec_to_u64(&n, pow, ps) || *ps > (uint64_t)INT64_MAX) {
		*why = "time over 2^63-1 ps";
		return false;
	}
	return true;
}

bool csv_parse_time(const char *s, size_t len, int default_pow, uint64_t *ps, const char **why)
{
	return csv_parse_time_comma(s, len, default_pow, false, ps, why);
}
