/* utf8.c: UTF-8 validation (RFC 3629: no overlongs, no surrogates, at
 * most U+10FFFF) and escaping of what is not valid. */
#include <stdint.h>
#include <stdio.h>

#include "base/utf8.h"

/* Length of the valid UTF-8 sequence at p, or 0. */
static size_t sequence_length(const unsigned char *p)
{
	unsigned c = p[0];
	if (c < 0x80)
		return 1;
	size_t n;
	uint32_t cp;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3Fu);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

bool utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = sequence_length(p);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

void utf8_escape(const char *s, char *out, size_t cap)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;
	if (!cap)
		return;
	while (*p && o + 1 < cap) {
		size_t n = sequence_length(p);
		if (n && o + n < cap) {
			for (size_t i = 0; i < n; i++)
				out[o++] = (char)p[i];
			p += n;
		} else if (!n && o + 4 < cap) {
			snprintf(out + o, cap - o, "\\x%02X", *p);
			o += 4;
			p++;
		} else {
			break;
		}
	}
	out[o] = '\0';
}
