/* ascii.h: characters by their ASCII codes, whatever the locale (unlike
 * <ctype.h> and strncasecmp), for the readers and the mnemonic tables. */
#ifndef DLLPCHECK_ASCII_H
#define DLLPCHECK_ASCII_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline char ascii_lower(char c)
{
	return (unsigned char)(c - 'A') < 26u ? (char)(c - 'A' + 'a') : c;
}

/* The value of a hex digit, -1 for any other character: one look-up,
 * since hex records are most of a dumped trace. */
static inline int ascii_hex_value(char c)
{
	static const uint8_t value_plus_one[256] = {
		['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,
		['6'] = 7,  ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12,
		['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12,
		['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
	};
	return (int)value_plus_one[(unsigned char)c] - 1;
}

/* s[0..len) equals the NUL-terminated word, letters compared without case. */
static inline bool ascii_eq_nocase(const char *s, size_t len, const char *word)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (word[i] == '\0' || ascii_lower(s[i]) != ascii_lower(word[i]))
			return false;
	}
	return word[i] == '\0';
}

#endif
