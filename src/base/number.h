/* number.h: numbers as the readers and the options write them: unsigned
 * integers (decimal or 0x hex, or hex digits alone where a value is
 * documented as hex), and the decimal numbers of an export's cells
 * (sign, fraction, exponent, grouped digits), kept as decimal digits so
 * that nothing is lost to binary floating point.  The one parser of them
 * (layout.md, "one number parser"). */
#ifndef DLLPCHECK_NUMBER_H
#define DLLPCHECK_NUMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parses all of s[0..len): decimal, or hex after "0x"/"0X" (at least one
 * digit after it), or with bare_hex hex digits with or without 0x.  No
 * sign, no blank, no octal.  False when s is not such a number.  True
 * with *too_big set when it is one but exceeds 64 bits, so that a caller
 * can say "out of range" rather than "not a number"; *out is then
 * unspecified. */
bool number_parse_u64(const char *s, size_t len, bool bare_hex, uint64_t *out, bool *too_big);

/* Writes v in decimal at p (at most NUMBER_U64_DIGITS bytes, no NUL) and
 * returns the end: the one fast writer of the outputs that write millions
 * of numbers (the VCD's times, the HTML page's charts), two digits a
 * division. */
#define NUMBER_U64_DIGITS 20
char *number_put_u64(char *p, uint64_t v);

/* number_parse_u64() without bare hex, for a value of at most max: false
 * for anything else. */
bool number_parse_max(const char *s, size_t len, uint64_t max, uint64_t *out);

/* A decimal number: value = dig[0..nd) * 10^exp10 (leading zeros not
 * kept; digits past NUMBER_DEC_DIGITS of an integer part counted in
 * exp10, of a fraction dropped). */
#define NUMBER_DEC_DIGITS 38
struct number_dec {
	char dig[NUMBER_DEC_DIGITS]; /* digit values 0..9, not characters */
	unsigned nd;
	int exp10;
	bool neg; /* a '-' sign (also before zero) */
	bool any; /* at least one digit */
	size_t used; /* bytes of s the number takes */
};

/* Scans a decimal number at the start of s[0..len) (the rest, s + used,
 * is the caller's: a unit, a word): an optional sign, digits, where a
 * single blank between two digits is thousands grouping ("0.000 001 234"),
 * one decimal point, and an exponent ("1.5e-9", "2E3") when digits come
 * before it.  With decimal_comma a ',' is a decimal point as well as '.'
 * ("0,000123", as European locales write it); one decimal point at most,
 * so "1,234.5" or "1.234,5" stop at the second.  No digit: n->any false. */
void number_scan_decimal(const char *s, size_t len, bool decimal_comma, struct number_dec *n);

/* n * 10^pow10 rounded to the nearest integer (half up), the sign
 * ignored; false when that is over 64 bits. */
bool number_dec_to_u64(const struct number_dec *n, int pow10, uint64_t *out);

/* No fraction: every digit past the decimal point is 0 ("16.0" is whole). */
bool number_dec_is_whole(const struct number_dec *n);

#endif
