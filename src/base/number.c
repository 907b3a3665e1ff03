/* number.c: the number parsers of number.h: unsigned integers, and the
 * decimal numbers of export cells (taken from the CSV reader, issue 13). */
#include "base/number.h"

#include <string.h>

#include "base/ascii.h"

/* The value of digit c in base 10 or 16, -1 when it is not one. */
static int digit_value(char c, unsigned base)
{
	if (base == 16)
		return ascii_hex_value(c);
	return c >= '0' && c <= '9' ? c - '0' : -1;
}

bool number_parse_u64(const char *s, size_t len, bool bare_hex, uint64_t *out, bool *too_big)
{
	unsigned base = bare_hex ? 16 : 10;
	uint64_t v = 0;

	*too_big = false;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		len -= 2;
	}
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		int d = digit_value(s[i], base);
		uint64_t next;

		if (d < 0)
			return false;
		/* no division per digit: the overflow flags say it; the
		 * digits after an overflow are still checked */
		if (__builtin_mul_overflow(v, base, &next) ||
		    __builtin_add_overflow(next, (unsigned)d, &next))
			*too_big = true;
		else
			v = next;
	}
	*out = v;
	return true;
}

bool number_parse_max(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v;
	bool too_big;

	if (!number_parse_u64(s, len, false, &v, &too_big) || too_big || v > max)
		return false;
	*out = v;
	return true;
}

/* ---- decimal numbers (number_scan_decimal) ---- */

static bool is_dec_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits, grouping blanks and the decimal point, from c: returns where
 * they end.  Cells of times are scanned whole, so this walks a pointer
 * and keeps its counts in locals (an index, or a field written through
 * n, costs UBSan's checks: each a traced comparison under the fuzzer);
 * check_number.c compares it with the plain scan on random text. */
static const char *scan_digits(const char *c, const char *end, bool decimal_comma,
                               struct number_dec *n)
{
	char *dig = n->dig, *dig_end = n->dig + NUMBER_DEC_DIGITS;
	int exp10 = 0;
	bool in_frac = false, any = false;

	for (;;) {
		for (; c < end && is_dec_digit(*c); c++) {
			unsigned d = (unsigned)(*c - '0');

			any = true;
			if (dig == n->dig && d == 0) {
				exp10 -= in_frac; /* a leading zero: only its place counts */
			} else if (dig < dig_end) {
				*dig++ = (char)d;
				exp10 -= in_frac;
			} else if (!in_frac) {
				exp10++;
			}
		}
		/* a blank between two digits: thousands grouping */
		if (end - c >= 2 && *c == ' ' && any && is_dec_digit(c[-1]) && is_dec_digit(c[1])) {
			c++;
			continue;
		}
		if (end - c >= 2 && (*c == '.' || (decimal_comma && *c == ',')) && !in_frac &&
		    is_dec_digit(c[1])) {
			in_frac = true;
			c++;
			continue;
		}
		break;
	}
	n->nd = (unsigned)(dig - n->dig);
	n->exp10 = exp10;
	n->any = any;
	return c;
}

/* The exponent after e ('e' or 'E'): added to *exp10, and returns where
 * it ends; returns e itself when no digit follows. */
static const char *scan_exponent(const char *e, const char *end, int *exp10)
{
	const char *c = e + 1;
	bool neg = false;
	int v = 0;

	if (c < end && (*c == '+' || *c == '-'))
		neg = *c++ == '-';
	if (c == end || !is_dec_digit(*c))
		return e;
	/* capped: 10^10000 is out of every range already */
	for (; c < end && is_dec_digit(*c); c++) {
		if (v < 10000)
			v = v * 10 + (*c - '0');
	}
	*exp10 += neg ? -v : v;
	return c;
}

void number_scan_decimal(const char *s, size_t len, bool decimal_comma, struct number_dec *n)
{
	const char *c = s, *end = s + len;

	memset(n, 0, sizeof(*n));
	if (c < end && (*c == '+' || *c == '-')) {
		n->neg = *c == '-';
		c++;
	}
	c = scan_digits(c, end, decimal_comma, n);
	if (n->any && end - c >= 2 && (*c == 'e' || *c == 'E'))
		c = scan_exponent(c, end, &n->exp10);
	n->used = (size_t)(c - s);
}

bool number_dec_to_u64(const struct number_dec *n, int pow10, uint64_t *out)
{
	long e = (long)n->exp10 + pow10;
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

bool number_dec_is_whole(const struct number_dec *n)
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

/* "00" to "99" */
static const char digit_pairs[] = "00010203040506070809101112131415161718192021222324"
                                  "25262728293031323334353637383940414243444546474849"
                                  "50515253545556575859606162636465666768697071727374"
                                  "75767778798081828384858687888990919293949596979899";

char *number_put_u64(char *p, uint64_t v)
{
	/* how many digits: log10 from the bit length (1233 / 4096 is just
	 * over log10(2)), less one when v is under that power of 10; v | 1
	 * has the digits of v (an even v + 1 is never a power of 10) */
	static const uint64_t pow10[NUMBER_U64_DIGITS] = {
		1u,
		10u,
		100u,
		1000u,
		10000u,
		100000u,
		1000000u,
		10000000u,
		100000000u,
		1000000000u,
		10000000000u,
		100000000000u,
		1000000000000u,
		10000000000000u,
		100000000000000u,
		1000000000000000u,
		10000000000000000u,
		100000000000000000u,
		1000000000000000000u,
		10000000000000000000u,
	};
	unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1u);
	unsigned t = (bits * 1233u) >> 12;
	unsigned n = t + 1u - ((v | 1u) < pow10[t]);
	char *end = p + n;
	p = end;
	/* two digits at a time from the last; in 32 bits once v fits (a
	 * time in ps does after its last 8 digits) */
	while (v > UINT32_MAX) {
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, digit_pairs + 2 * r, 2);
	}
	uint32_t w = (uint32_t)v;
	while (w >= 100) {
		unsigned r = w % 100;
		w /= 100;
		p -= 2;
		memcpy(p, digit_pairs + 2 * r, 2);
	}
	if (w >= 10) {
		p -= 2;
		memcpy(p, digit_pairs + 2 * w, 2);
	} else {
		*--p = (char)('0' + w);
	}
	return end;
}
