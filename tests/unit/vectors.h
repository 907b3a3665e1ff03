/* vectors.h: helpers for unit tests that read the golden vector files
 * (tests/vectors/, verbatim copies of shared/vectors/): find and read
 * their data lines, split them into tokens, parse hex and numbers.
 */
#ifndef DLLPCHECK_TEST_VECTORS_H
#define DLLPCHECK_TEST_VECTORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Opens name in the vector directory: $VECTORS_DIR if set, else the
 * VECTORS_DIR the build passed.  NULL when it cannot be opened. */
FILE *vectors_open(const char *name);

/* A growable line buffer. */
struct vec_line {
	char *text;
	size_t cap;
	unsigned long line_no; /* of the last line read, 1-based */
};

/* Reads the next data line: comment lines (first non-blank '#') and blank
 * lines are skipped; the trailing "# comment" and the newline are cut.
 * Returns false at end of file.  Lines may be of any length. */
bool vectors_next_line(FILE *f, struct vec_line *line);
void vectors_line_free(struct vec_line *line);

/* Data lines in the named file, counted independently of any parser;
 * 0 when the file is missing. */
size_t vectors_count_data_lines(const char *name);

/* Parses the leading run of hex digit pairs of s into out (at most max
 * bytes) and sets *end after it.  Returns the byte count, or SIZE_MAX on
 * an odd digit count or when out is too small. */
size_t vectors_unhex(const char *s, uint8_t *out, size_t max, const char **end);

/* Next blank-separated token at *cursor; false when there is none. */
bool vectors_token(const char **cursor, const char **tok, size_t *len);

bool vectors_tok_eq(const char *tok, size_t len, const char *word);

/* Splits "key=value" at the first '='; false when there is none. */
bool vectors_split_kv(const char *tok, size_t len, const char **key, size_t *key_len,
                      const char **val, size_t *val_len);

/* Parses a value as the vector files print them: "0x1F" hex, "010b"
 * binary, "16DW" decimal DW count, "42" decimal.  false on junk. */
bool vectors_parse_uint(const char *s, size_t len, unsigned long *out);

/* Parses exactly len hex digits (no prefix). */
bool vectors_parse_hex(const char *s, size_t len, unsigned long *out);

#endif
