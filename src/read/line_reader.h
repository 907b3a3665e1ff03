/* line_reader.h: the lines of a text input, for every reader of lines
 * (the text trace, reader_text.c; the exports, read/csv/).  One reader of
 * lines (layout.md, "one line reader").
 *
 * A line is the bytes up to a '\n' (not included) or up to the end of the
 * input; a last line without its '\n' is a line, an empty input has none.
 * A '\r' before the '\n' stays in the line (every reader takes it as a
 * blank), and the line says it ended in CR LF.  A line of more than
 * LINE_READER_MAX bytes is LINE_TOO_LONG: consumed to its '\n' without
 * being kept in memory, only its first LINE_READER_MAX bytes are given.
 * A NUL byte is reported (its column), not acted on: what a NUL means is
 * the caller's grammar.  Every byte is counted: start is the line's byte
 * offset in the input, and offset after a line is where the next starts.
 *
 * A regular file is read with read(2) in blocks of LINE_READER_CHUNK and
 * each line is found there with memchr and given in place; another
 * stream that can seek (one in memory, a file of which stdio has read
 * ahead) the same way in blocks through fread; a stream that cannot (a
 * pipe from a running simulation, a terminal, a decompressed or replayed
 * stream) goes through stdio a byte at a time, so that nothing waits for
 * a full block.  All three give the same lines, lengths, offsets and
 * statuses (tests/unit/check_line_reader.c).
 *
 * Memory: the struct is meant to be a member of the reader's own
 * struct; its two buffers are allocated and sized to the input: the block
 * (a stream that seeks only) to what is left of it, at most
 * LINE_READER_CHUNK, that size plus one when smaller (growing to
 * LINE_READER_CHUNK if the file grows); the line when first needed, to the longest line, at most
 * LINE_READER_MAX; so that reading many small inputs does not cost a
 * third of a megabyte each.  line_reader_free() frees them. */
#ifndef DLLPCHECK_LINE_READER_H
#define DLLPCHECK_LINE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LINE_READER_MAX 65536u
/* Lines of a regular file are found in blocks of this size (more than a
 * line, so that a line of LINE_READER_MAX bytes and its '\n' fit). */
#define LINE_READER_CHUNK (256u * 1024u)

enum line_status {
	LINE_OK,
	LINE_TOO_LONG, /* over LINE_READER_MAX bytes: consumed, cut */
	LINE_EOF, /* no more lines */
	LINE_ERROR, /* a read error, errno set: the caller stops reading */
};

/* The line read last (LINE_OK, LINE_TOO_LONG). */
struct line {
	const char *text; /* len bytes, not NUL-terminated; valid until
	                   * the next line_reader_next() */
	size_t len; /* LINE_TOO_LONG: LINE_READER_MAX */
	uint64_t no; /* 1-based line number */
	uint64_t start; /* byte offset of its first byte */
	const char *nul; /* LINE_OK: its first NUL byte in text, NULL: none */
	bool newline; /* it ended in '\n' (the last line may not) */
};

/* The 1-based column of the line's first NUL byte, 0 for none. */
static inline size_t line_nul_column(const struct line *l)
{
	return l->nul ? (size_t)(l->nul - l->text) + 1 : 0;
}

/* The line ended in "\r\n" (the '\r' is in its text). */
static inline bool line_crlf(const struct line *l)
{
	return l->newline && l->len > 0 && l->text[l->len - 1] == '\r';
}

/* The fields are the reader's own; read lines through line_reader_next()
 * and the position through line_reader_offset(), _lines(). */
struct line_reader {
	FILE *fp;
	int fd; /* -1: through stdio (blocks when chunk, else bytes) */
	bool chunk_eof;
	size_t cpos, cend; /* chunk[cpos..cend) is not consumed yet */
	uint64_t lines; /* lines given (LINE_OK, LINE_TOO_LONG) */
	uint64_t offset; /* bytes consumed */
	char *line; /* a stdio line, a too long line's start: line_cap bytes */
	size_t line_cap; /* at most LINE_READER_MAX */
	char *chunk; /* chunk_cap bytes, at most LINE_READER_CHUNK; NULL: a
	              * byte at a time */
	size_t chunk_cap;
};

/* Starts reading fp from where it is; fp stays the caller's (to close).
 * The descriptor is used only for a regular file of which stdio holds no
 * byte unread, blocks (read(2) or fread) only when the block can be
 * allocated (else stdio reads a byte at a time, the same lines).  Out of
 * memory later is LINE_ERROR, errno ENOMEM. */
void line_reader_init(struct line_reader *lr, FILE *fp);
/* Frees the buffers (the struct and fp stay the caller's). */
void line_reader_free(struct line_reader *lr);

/* line_reader_next() but for the common case below (line_reader.c). */
enum line_status line_reader_next_slow(struct line_reader *lr, struct line *l);

/* The next line into *l.  Inline for the common case, a line of a
 * regular file whole in the block (a text trace has millions): the same
 * line, offset and flags line_reader_next_slow() would give. */
static inline enum line_status line_reader_next(struct line_reader *lr, struct line *l)
{
	const char *from, *nl;
	size_t n;

	if (lr->chunk == NULL)
		return line_reader_next_slow(lr, l); /* a byte at a time */
	from = lr->chunk + lr->cpos;
	if ((nl = memchr(from, '\n', lr->cend - lr->cpos)) == NULL ||
	    (n = (size_t)(nl - from)) > LINE_READER_MAX)
		return line_reader_next_slow(lr, l);
	l->text = from;
	l->len = n;
	l->no = ++lr->lines;
	l->start = lr->offset;
	l->nul = memchr(from, '\0', n);
	l->newline = true;
	lr->cpos += n + 1;
	lr->offset += n + 1;
	return LINE_OK;
}

/* Bytes consumed so far (lines and their '\n'; on LINE_ERROR those of
 * the line being read that were read). */
static inline uint64_t line_reader_offset(const struct line_reader *lr)
{
	return lr->offset;
}

/* Lines given so far. */
static inline uint64_t line_reader_lines(const struct line_reader *lr)
{
	return lr->lines;
}

#endif
