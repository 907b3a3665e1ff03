/* blank.h: the blanks between the words of a text line (' ', '\t', '\r',
 * '\v', '\f') and the end of a word, for the line readers.
 *
 * blank_find() is a speed trick (eight bytes at a time: a hex record is
 * one long word); blank_find_plain() is the same a byte at a time, and
 * check_blank.c compares the two for every byte value at every position,
 * length and alignment.  Inline: the lexer calls it once per word. */
#ifndef DLLPCHECK_BLANK_H
#define DLLPCHECK_BLANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The blanks as bits of one mask: a compare and a shift per character,
 * which the lexer pays for every byte of a line. */
#define BLANK_MASK                                                                              \
	(UINT64_C(1) << ' ' | UINT64_C(1) << '\t' | UINT64_C(1) << '\r' | UINT64_C(1) << '\v' | \
	 UINT64_C(1) << '\f')

static inline bool blank_is(char c)
{
	unsigned char u = (unsigned char)c;

	return u <= ' ' && (BLANK_MASK >> u & 1u);
}

/* The first blank in s[p..end), or end. */
static inline size_t blank_find_plain(const char *s, size_t p, size_t end)
{
	while (p < end && !blank_is(s[p]))
		p++;
	return p;
}

/* blank_find_plain(), eight bytes at a time where eight remain.  In a
 * 64-bit word, bytes below '!' are the ones whose bit 7 in
 * (w - 0x21..21) & ~w & 0x80..80 is set; a borrow only runs upwards from
 * such a byte, so the lowest bit set is the first of them (which may be a
 * control character, not a blank: then the scan goes on after it).  Reads
 * only s[p..end). */
static inline size_t blank_find(const char *s, size_t p, size_t end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (end - p >= 8) {
		uint64_t w;

		memcpy(&w, s + p, sizeof(w));
		uint64_t below =
		        (w - UINT64_C(0x2121212121212121)) & ~w & UINT64_C(0x8080808080808080);
		if (below == 0) {
			p += 8;
			continue;
		}
		size_t q = p + (size_t)__builtin_ctzll(below) / 8;
		if (blank_is(s[q]))
			return q;
		p = q + 1;
	}
#endif
	return blank_find_plain(s, p, end);
}

#endif
