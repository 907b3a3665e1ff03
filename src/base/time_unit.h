/* time_unit.h: the time units of the text trace and the options, and the
 * exact conversion of a decimal time to picoseconds.  The one table of
 * them (layout.md, "one time-unit table").
 * contract: capture-format.md section 2 (TIME: ps ns us ms s). */
#ifndef DLLPCHECK_TIME_UNIT_H
#define DLLPCHECK_TIME_UNIT_H

#include <stddef.h>
#include <stdint.h>

struct time_unit {
	const char *name; /* the SI symbol: "ps", "ns", "us", "ms", "s" */
	size_t len; /* strlen(name) */
	unsigned frac_digits; /* decimals down to 1 ps */
	uint64_t ps; /* picoseconds in one unit */
};

enum time_unit_id {
	TIME_UNIT_PS,
	TIME_UNIT_NS,
	TIME_UNIT_US,
	TIME_UNIT_MS,
	TIME_UNIT_S,
	TIME_UNIT_COUNT
};

/* The units, indexed by their id. */
extern const struct time_unit time_units[TIME_UNIT_COUNT];

/* The unit named s[0..len), NULL for none.  SI symbols, so the case
 * counts: "ms" is not "Ms". */
const struct time_unit *time_unit_find(const char *s, size_t len);

enum time_status {
	TIME_OK,
	TIME_FINER_THAN_PS, /* a non-zero digit below 1 ps */
	TIME_TOO_BIG, /* 2^63 ps or more */
};

/* INT.FRAC units in picoseconds, exactly, with integers: int_s[0..int_len)
 * and frac_s[0..frac_len) are decimal digits (the caller has checked
 * them; frac_len may be 0).  Digits past the unit's resolution may only
 * be zeros.  Times stay below 2^63 ps (106 days) so that every report,
 * JSON included, carries them as a signed 64-bit integer. */
enum time_status time_unit_to_ps(const char *int_s, size_t int_len, const char *frac_s,
                                 size_t frac_len, const struct time_unit *u, uint64_t *ps);

#endif
