/* csv_chars.c: the export reader's character classes and small text
 * helpers: blanks, words, a byte order mark, squeezed words, messages.
 * The classes themselves (is_blank, is_digit, is_alnum, is_hex,
 * is_name_drop) are inline in csv_internal.h.  Bytes are ASCII whatever the locale (base/ascii.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "base/ascii.h"
#include "read/csv/csv_internal.h"

/* The classes of csv_internal.h, by byte (ASCII: the letters are two runs
 * of 26); tests/unit/check_csv_chars.c compares every entry with the
 * comparisons it replaces. */
#define CC_DIGITS(v)                                                                               \
	['0'] = (v), ['1'] = (v), ['2'] = (v), ['3'] = (v), ['4'] = (v), ['5'] = (v), ['6'] = (v), \
	['7'] = (v), ['8'] = (v), ['9'] = (v)
#define CC_LETTERS6(a, v)                                                                    \
	[(a) + 0] = (v), [(a) + 1] = (v), [(a) + 2] = (v), [(a) + 3] = (v), [(a) + 4] = (v), \
	       [(a) + 5] = (v)
#define CC_LETTERS20(a, v)                                                                    \
	[(a) + 6] = (v), [(a) + 7] = (v), [(a) + 8] = (v), [(a) + 9] = (v), [(a) + 10] = (v), \
	       [(a) + 11] = (v), [(a) + 12] = (v), [(a) + 13] = (v), [(a) + 14] = (v),        \
	       [(a) + 15] = (v), [(a) + 16] = (v), [(a) + 17] = (v), [(a) + 18] = (v),        \
	       [(a) + 19] = (v), [(a) + 20] = (v), [(a) + 21] = (v), [(a) + 22] = (v),        \
	       [(a) + 23] = (v), [(a) + 24] = (v), [(a) + 25] = (v)

const unsigned char csv_char_class[256] = {
	[' '] = CSV_CC_BLANK | CSV_CC_NAME_DROP,
	['\t'] = CSV_CC_BLANK | CSV_CC_NAME_DROP,
	['\r'] = CSV_CC_BLANK | CSV_CC_NAME_DROP,
	['\v'] = CSV_CC_BLANK | CSV_CC_NAME_DROP,
	['\f'] = CSV_CC_BLANK | CSV_CC_NAME_DROP,
	['_'] = CSV_CC_NAME_DROP,
	['-'] = CSV_CC_NAME_DROP,
	['.'] = CSV_CC_NAME_DROP,
	['#'] = CSV_CC_NAME_DROP,
	CC_DIGITS(CSV_CC_ALNUM | CSV_CC_HEX),
	CC_LETTERS6('A', CSV_CC_ALNUM | CSV_CC_HEX),
	CC_LETTERS20('A', CSV_CC_ALNUM),
	CC_LETTERS6('a', CSV_CC_ALNUM | CSV_CC_HEX),
	CC_LETTERS20('a', CSV_CC_ALNUM),
};

bool csv_starts_nocase(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && ascii_eq_nocase(s, n, word);
}

void csv_trim(const char **s, size_t *len)
{
	while (*len > 0 && is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && is_blank((*s)[*len - 1]))
		(*len)--;
}

bool csv_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* Lower-case letters and digits only: "UpdateFC-P (VC0)" -> "updatefcpvc0".
 * Returns false when the result does not fit. */
bool csv_squeeze(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (!is_alnum(s[i]))
			continue;
		if (o + 1 >= size)
			return false;
		out[o++] = ascii_lower(s[i]);
	}
	out[o] = '\0';
	return true;
}

size_t csv_skip_blanks(const char *s, size_t len, size_t p)
{
	while (p < len && is_blank(s[p]))
		p++;
	return p;
}

size_t csv_strip_bom(const char *s, size_t len)
{
	return len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}
