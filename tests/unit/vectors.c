/* vectors.c: reading the golden vector files for the unit tests. */
#include "vectors.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#ifndef VECTORS_DIR
#define VECTORS_DIR "tests/vectors"
#endif

FILE *vectors_open(const char *name)
{
	const char *dir = getenv("VECTORS_DIR");
	size_t n;
	char *path;
	FILE *f;

	if (!dir || !*dir)
		dir = VECTORS_DIR;
	n = strlen(dir) + 1 + strlen(name) + 1;
	path = malloc(n);
	if (!path)
		return NULL;
	snprintf(path, n, "%s/%s", dir, name);
	f = fopen(path, "r");
	free(path);
	return f;
}

/* Reads one physical line into line->text, growing it; false at EOF. */
static bool read_physical_line(FILE *f, struct vec_line *line)
{
	size_t used = 0;

	for (;;) {
		if (line->cap - used < 2) {
			size_t cap = line->cap ? line->cap * 2 : 256;
			char *text = realloc(line->text, cap);

			if (!text)
				return false;
			line->text = text;
			line->cap = cap;
		}
		if (!fgets(line->text + used, (int)(line->cap - used), f))
			return used > 0;
		used += strlen(line->text + used);
		if (used > 0 && line->text[used - 1] == '\n')
			return true;
	}
}

bool vectors_next_line(FILE *f, struct vec_line *line)
{
	while (read_physical_line(f, line)) {
		char *hash = strchr(line->text, '#');
		char *p = line->text;
		size_t n;

		line->line_no++;
		if (hash)
			*hash = '\0';
		n = strlen(p);
		while (n > 0 && isspace((unsigned char)p[n - 1]))
			p[--n] = '\0';
		while (isspace((unsigned char)*p))
			p++;
		if (*p)
			return true;
	}
	return false;
}

void vectors_line_free(struct vec_line *line)
{
	free(line->text);
	line->text = NULL;
	line->cap = 0;
}

size_t vectors_count_data_lines(const char *name)
{
	FILE *f = vectors_open(name);
	struct vec_line line = { 0 };
	size_t count = 0;

	if (!f)
		return 0;
	while (vectors_next_line(f, &line))
		count++;
	vectors_line_free(&line);
	fclose(f);
	return count;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t vectors_unhex(const char *s, uint8_t *out, size_t max, const char **end)
{
	size_t digits = 0;

	while (isspace((unsigned char)*s))
		s++;
	while (hex_value(s[digits]) >= 0)
		digits++;
	*end = s + digits;
	if (digits % 2 || digits / 2 > max)
		return SIZE_MAX;
	for (size_t i = 0; i < digits / 2; i++)
		out[i] = (uint8_t)(hex_value(s[2 * i]) << 4 | hex_value(s[2 * i + 1]));
	return digits / 2;
}

bool vectors_token(const char **cursor, const char **tok, size_t *len)
{
	const char *p = *cursor;
	size_t n = 0;

	while (isspace((unsigned char)*p))
		p++;
	while (p[n] && !isspace((unsigned char)p[n]))
		n++;
	*tok = p;
	*len = n;
	*cursor = p + n;
	return n > 0;
}

bool vectors_tok_eq(const char *tok, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(tok, word, len) == 0;
}

bool vectors_split_kv(const char *tok, size_t len, const char **key,
		      size_t *key_len, const char **val, size_t *val_len)
{
	const char *eq = memchr(tok, '=', len);

	if (!eq)
		return false;
	*key = tok;
	*key_len = (size_t)(eq - tok);
	*val = eq + 1;
	*val_len = len - *key_len - 1;
	return true;
}

static bool parse_digits(const char *s, size_t len, unsigned base,
			 unsigned long *out)
{
	unsigned long v = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		int d = hex_value(s[i]);

		if (d < 0 || (unsigned)d >= base)
			return false;
		v = v * base + (unsigned)d;
	}
	*out = v;
	return true;
}

bool vectors_parse_hex(const char *s, size_t len, unsigned long *out)
{
	return parse_digits(s, len, 16, out);
}

bool vectors_parse_uint(const char *s, size_t len, unsigned long *out)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_digits(s + 2, len - 2, 16, out);
	if (len > 2 && memcmp(s + len - 2, "DW", 2) == 0)
		return parse_digits(s, len - 2, 10, out);
	if (len > 1 && s[len - 1] == 'b')
		return parse_digits(s, len - 1, 2, out);
	return parse_digits(s, len, 10, out);
}
