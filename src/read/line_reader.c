/* line_reader.c: the lines of a text input (line_reader.h), in blocks
 * through read(2) for a regular file, through fread for another stream
 * that seeks, and a byte at a time through stdio for any other. */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#endif

#include "read/line_reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/stream_window.h"

void line_reader_init(struct line_reader *lr, FILE *fp)
{
	lr->fp = fp;
	lr->chunk_eof = false;
	lr->cpos = lr->cend = 0;
	lr->lines = 0;
	lr->offset = 0;
	lr->line = lr->chunk = NULL;
	lr->line_cap = lr->chunk_cap = 0;
	/* The descriptor of a regular file, and only when stdio holds no
	 * byte of it unread.  Any other stream whose size is known (one in
	 * memory, a file stdio has read ahead: sw_known_size) is read in
	 * blocks through fread, which waits for nothing there; a pipe, a
	 * terminal or a cookie that cannot seek to its end (a decompressing
	 * or replaying layer: they tell their position, but a block read
	 * would wait for a full block) keeps stdio a byte at a time. */
	uint64_t size;

	lr->fd = sw_direct_fd(fp); /* a regular file: its size is known */
	if (sw_known_size(fp, &size)) {
		/* the input's size plus one when less than a block: one read
		 * meets the end */
		lr->chunk_cap = size < LINE_READER_CHUNK ? (size_t)size + 1 : LINE_READER_CHUNK;
		lr->chunk = malloc(lr->chunk_cap);
		if (!lr->chunk) {
			lr->chunk_cap = 0;
			lr->fd = -1;
		}
	}
}

void line_reader_free(struct line_reader *lr)
{
	free(lr->line);
	free(lr->chunk);
	lr->line = lr->chunk = NULL;
	lr->line_cap = lr->chunk_cap = 0;
}

/* Room for n bytes (at most LINE_READER_MAX) in line[]: it grows by
 * doubling with the longest line.  False when out of memory (errno). */
static bool line_room(struct line_reader *lr, size_t n)
{
	char *line = grow_to(lr->line, &lr->line_cap, n, 1, 256, LINE_READER_MAX);
	if (!line) {
		errno = ENOMEM;
		return false;
	}
	lr->line = line;
	return true;
}

/* A line given: its number, start, NUL and line end. */
static enum line_status give(struct line_reader *lr, struct line *l, const char *text, size_t len,
                             uint64_t start, bool newline, enum line_status st)
{
	l->text = text;
	l->len = len;
	l->no = ++lr->lines;
	l->start = start;
	l->nul = st == LINE_OK ? memchr(text, '\0', len) : NULL;
	l->newline = newline;
	return st;
}

/* One line through stdio, a byte at a time: getc_unlocked() keeps the
 * reader usable on a pipe from a running simulation (nothing waits for a
 * full block). */
static enum line_status next_stdio(struct line_reader *lr, struct line *l)
{
	FILE *fp = lr->fp;
	uint64_t start = lr->offset, skipped = 0;
	size_t n = 0;
	int c = EOF;

	while (n < LINE_READER_MAX) {
		c = getc_unlocked(fp);
		if (c == '\n' || c == EOF)
			break;
		if (n == lr->line_cap && !line_room(lr, n + 1))
			return LINE_ERROR;
		lr->line[n++] = (char)c;
	}
	if (n == LINE_READER_MAX) {
		while ((c = getc_unlocked(fp)) != '\n' && c != EOF)
			skipped++;
	}
	lr->offset += n + skipped + (c == '\n');
	if (c == EOF && ferror(fp))
		return LINE_ERROR;
	if (c == EOF && n == 0)
		return LINE_EOF;
	/* an empty line has no text: any valid pointer will do */
	return give(lr, l, n ? lr->line : "", n, start, c == '\n',
	            skipped ? LINE_TOO_LONG : LINE_OK);
}

/* Appends what the descriptor has to the chunk, after moving the
 * unconsumed bytes to its start.  False on a read error (errno set). */
static bool chunk_fill(struct line_reader *lr)
{
	size_t avail = lr->cend - lr->cpos;
	ssize_t r;

	if (avail)
		memmove(lr->chunk, lr->chunk + lr->cpos, avail);
	lr->cpos = 0;
	lr->cend = avail;
	/* A block of the file's size found it longer (it grew): it grows to
	 * LINE_READER_CHUNK, which holds a line of LINE_READER_MAX bytes and
	 * its '\n'. */
	if (avail == lr->chunk_cap && lr->chunk_cap < LINE_READER_CHUNK) {
		char *chunk = grow_to(lr->chunk, &lr->chunk_cap, LINE_READER_CHUNK, 1,
		                      LINE_READER_CHUNK, LINE_READER_CHUNK);
		if (!chunk) {
			errno = ENOMEM;
			return false;
		}
		lr->chunk = chunk;
	}
	if (lr->fd < 0) {
		/* fread returns less than asked only at the end or on an error */
		size_t want = lr->chunk_cap - avail;
		size_t got = fread(lr->chunk + avail, 1, want, lr->fp);

		lr->cend += got;
		if (got < want) {
			if (ferror(lr->fp))
				return false;
			lr->chunk_eof = true;
		}
		return true;
	}
	do
		r = read(lr->fd, lr->chunk + avail, lr->chunk_cap - avail);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return false;
	if (r == 0)
		lr->chunk_eof = true;
	lr->cend += (size_t)r;
	return true;
}

/* A line over LINE_READER_MAX at chunk[cpos..): its first bytes kept in
 * line[], the rest consumed to its '\n' unread into memory. */
static enum line_status skip_long(struct line_reader *lr, struct line *l)
{
	uint64_t start = lr->offset;
	bool newline = false;

	if (!line_room(lr, LINE_READER_MAX))
		return LINE_ERROR;
	memcpy(lr->line, lr->chunk + lr->cpos, LINE_READER_MAX);
	for (;;) {
		const char *from = lr->chunk + lr->cpos;
		size_t avail = lr->cend - lr->cpos;
		const char *nl = memchr(from, '\n', avail);
		size_t n = nl ? (size_t)(nl - from) + 1 : avail;

		lr->cpos += n;
		lr->offset += n;
		if (nl || lr->chunk_eof) {
			newline = nl != NULL;
			break;
		}
		if (!chunk_fill(lr))
			return LINE_ERROR;
	}
	return give(lr, l, lr->line, LINE_READER_MAX, start, newline, LINE_TOO_LONG);
}

enum line_status line_reader_next_slow(struct line_reader *lr, struct line *l)
{
	if (lr->chunk == NULL)
		return next_stdio(lr, l);
	for (;;) {
		const char *from = lr->chunk + lr->cpos;
		size_t avail = lr->cend - lr->cpos;
		const char *nl = memchr(from, '\n', avail);
		size_t n = nl ? (size_t)(nl - from) : avail;
		uint64_t start = lr->offset;

		if (nl || lr->chunk_eof || avail > LINE_READER_MAX) {
			if (n > LINE_READER_MAX)
				return skip_long(lr, l);
			if (!nl && n == 0)
				return LINE_EOF;
			lr->cpos += n + (nl != NULL);
			lr->offset += n + (nl != NULL);
			return give(lr, l, from, n, start, nl != NULL, LINE_OK);
		}
		if (!chunk_fill(lr))
			return LINE_ERROR;
	}
}
