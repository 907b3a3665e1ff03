/* text_quote.c: tokens quoted into messages (see text_quote.h). */
#include <string.h>

#include "base/text_quote.h"

const char *text_quote(char *out, const char *s, size_t len)
{
	static const char hexdig[] = "0123456789abcdef";
	size_t n = len > QUOTE_MAX ? QUOTE_MAX : len;
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
			out[o++] = (char)c;
		} else {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hexdig[c >> 4];
			out[o++] = hexdig[c & 15];
		}
	}
	if (n < len) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}
