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
