/* number.c: the unsigned number parser of number.h. */
#include "base/number.h"

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
