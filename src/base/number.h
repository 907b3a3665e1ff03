/* number.h: unsigned integers as the readers and the options write them:
 * decimal or 0x hex, or hex digits alone where a value is documented as
 * hex.  The one parser of them (layout.md, "one number parser"). */
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

/* number_parse_u64() without bare hex, for a value of at most max: false
 * for anything else. */
bool number_parse_max(const char *s, size_t len, uint64_t max, uint64_t *out);

#endif
