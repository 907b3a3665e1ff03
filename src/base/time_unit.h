/* time_unit.h: the time units of the text trace, the options and the
 * exports, and the exact conversion of a decimal time to picoseconds.
 * The one table of them (layout.md, "one time-unit table").
 * contract: capture-format.md section 2 (TIME: ps ns us ms s, SI symbols,
 * case-sensitive) and section 3 (export cells: fs too, any case, the
 * micro sign, "sec"). */
#ifndef DLLPCHECK_TIME_UNIT_H
#define DLLPCHECK_TIME_UNIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct time_unit {
	const char *name; /* the symbol: "ps", "ns", "us", "ms", "s", "fs"... */
	size_t len; /* strlen(name) */
	unsigned frac_digits; /* decimals down to 1 ps */
	uint64_t ps; /* picoseconds in one unit; 0 for fs (below 1 ps) */
	int pow10; /* one unit is 10^pow10 ps: fs -3, ps 0, ns 3 ... s 12 */
};

enum time_unit_id {
	/* the SI symbols of the text trace and the options */
	TIME_UNIT_PS,
	TIME_UNIT_NS,
	TIME_UNIT_US,
	TIME_UNIT_MS,
	TIME_UNIT_S,
	TIME_UNIT_COUNT,
	/* and what exports write besides (time_unit_find_nocase() only) */
	TIME_UNIT_FS = TIME_UNIT_COUNT,
	TIME_UNIT_US_MICRO, /* U+00B5 MICRO SIGN, "s" */
	TIME_UNIT_US_MU, /* U+03BC GREEK SMALL LETTER MU, "s" */
	TIME_UNIT_SEC,
	TIME_UNIT_ALL
};

/* The units, indexed by their id. */
extern const struct time_unit time_units[TIME_UNIT_ALL];

/* The SI unit named s[0..len), NULL for none: only the first
 * TIME_UNIT_COUNT, and the case counts ("ms" is not "Ms"). */
const struct time_unit *time_unit_find(const char *s, size_t len);

/* Any unit of the table named s[0..len), letters in any case ("NS",
 * "Sec", "fs", "\xc2\xb5s"), NULL for none: an export's spellings. */
const struct time_unit *time_unit_find_nocase(const char *s, size_t len);

/* The symbol of the unit of 10^pow10 ps ("ns"; the SI one where there
 * are several), "?" for none. */
const char *time_unit_pow10_name(int pow10);

enum time_status {
	TIME_OK,
	TIME_FINER_THAN_PS, /* a non-zero digit below 1 ps */
	TIME_TOO_BIG, /* 2^63 ps or more */
};

/* INT.FRAC units in picoseconds, exactly, with integers: int_s[0..int_len)
 * and frac_s[0..frac_len) are decimal digits (the caller has checked
 * them; frac_len may be 0).  Digits past the unit's resolution may only
 * be zeros.  Times stay below 2^63 ps (106 days) so that every report,
 * JSON included, carries them as a signed 64-bit integer.  u is one of
 * the first TIME_UNIT_COUNT units or another of at least 1 ps. */
enum time_status time_unit_to_ps(const char *int_s, size_t int_len, const char *frac_s,
                                 size_t frac_len, const struct time_unit *u, uint64_t *ps);

/* ticks clock ticks of period_fs femtoseconds, in picoseconds rounded to
 * the nearest; false when that is over 64 bits. */
bool time_ticks_to_ps(uint64_t ticks, uint64_t period_fs, uint64_t *ps);

#endif
