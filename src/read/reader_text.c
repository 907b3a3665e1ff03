/* reader_text.c: the text trace reader: lines into records.
 * specification: capture-format.md section 2; the grammar of a line is
 * text_parse.c's.
 *
 * Lines: '#' starts a comment anywhere; blank and comment-only lines are
 * not records; a '\r' before the newline is whitespace.  Every other line
 * is one record and advances record_no, also when malformed.  Columns are
 * 1-based byte offsets in the line.  A line over TEXT_LINE_MAX bytes or
 * holding a NUL byte is malformed as a whole (the rest of a long line is
 * skipped unread into memory).
 *
 * Memory: one struct per reader holds the line buffer and the record
 * bytes; nothing is allocated per line, so hostile input costs time only.
 * text_reader_new() leaves fp with the caller when it fails.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#endif

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/blank.h"
#include "core/record.h"
#include "read/reader.h"
#include "read/text_parse.h"
#include "wire/tlp.h"

#define TEXT_LINE_MAX 65536u
/* Lines of a file are found in blocks of this size (more than a line). */
#define TEXT_CHUNK (256u * 1024u)

struct text_reader {
	FILE *fp;
	const char *name;
	uint64_t line_no; /* lines consumed */
	uint64_t record_no; /* records returned or reported malformed */
	uint64_t offset; /* bytes consumed */
	bool failed; /* a read error was reported: stay fatal */
	int read_errno; /* of that error, for the repeated report */
	const char *cur; /* the current line: in line or in chunk */
	char line[TEXT_LINE_MAX];
	uint8_t bytes[TLP_MAX_RECORD_LEN];
	/* A regular file is read with read(2) into chunk, and each line is
	 * found there with memchr and parsed in place; other streams (a
	 * pipe from a running simulation, standard input) go through stdio
	 * a character at a time, so that nothing waits for a full block. */
	int fd; /* -1: through stdio */
	bool chunk_eof;
	size_t cpos, cend; /* chunk[cpos..cend) is not consumed yet */
	char chunk[TEXT_CHUNK];
};

/* ------------------------------------------------------------------ */
/* Lines */

enum line_status { LINE_OK, LINE_TOO_LONG, LINE_EOF, LINE_ERROR };

/* Reads one line (without its '\n') into tr->line.  A line longer than
 * the buffer is consumed to its end but not kept.  getc_unlocked() keeps
 * the reader usable on a pipe from a running simulation (nothing waits
 * for a full block); it serves every stream but regular files. */
static enum line_status read_line_stdio(struct text_reader *tr, size_t *len)
{
	FILE *fp = tr->fp;
	uint64_t skipped = 0;
	size_t n = 0;
	int c = EOF;

	while (n < TEXT_LINE_MAX) {
		c = getc_unlocked(fp);
		if (c == '\n' || c == EOF)
			break;
		tr->line[n++] = (char)c;
	}
	if (n == TEXT_LINE_MAX) {
		while ((c = getc_unlocked(fp)) != '\n' && c != EOF)
			skipped++;
	}
	*len = n;
	tr->cur = tr->line;
	tr->offset += n + skipped + (c == '\n');
	if (c == EOF && ferror(fp))
		return LINE_ERROR;
	if (c == EOF && n == 0)
		return LINE_EOF;
	return skipped ? LINE_TOO_LONG : LINE_OK;
}

/* Appends what the descriptor has to the chunk, after moving the
 * unconsumed bytes to its start.  False on a read error (errno set). */
static bool chunk_fill(struct text_reader *tr)
{
	size_t avail = tr->cend - tr->cpos;
	ssize_t r;

	memmove(tr->chunk, tr->chunk + tr->cpos, avail);
	tr->cpos = 0;
	tr->cend = avail;
	do
		r = read(tr->fd, tr->chunk + avail, TEXT_CHUNK - avail);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return false;
	if (r == 0)
		tr->chunk_eof = true;
	tr->cend += (size_t)r;
	return true;
}

/* read_line_stdio() for a descriptor: the same lines, lengths, offsets
 * and statuses; the line is left in the chunk (tr->cur). */
static enum line_status read_line(struct text_reader *tr, size_t *len)
{
	if (tr->fd < 0)
		return read_line_stdio(tr, len);
	for (;;) {
		const char *start = tr->chunk + tr->cpos;
		size_t avail = tr->cend - tr->cpos;
		const char *nl = memchr(start, '\n', avail);
		size_t n = nl ? (size_t)(nl - start) : avail;

		if (nl || tr->chunk_eof || avail > TEXT_LINE_MAX) {
			if (n > TEXT_LINE_MAX)
				break; /* too long: skipped below */
			if (!nl && n == 0)
				return LINE_EOF;
			tr->cur = start;
			tr->cpos += n + (nl != NULL);
			tr->offset += n + (nl != NULL);
			*len = n;
			return LINE_OK;
		}
		if (!chunk_fill(tr))
			return LINE_ERROR;
	}
	/* A line over TEXT_LINE_MAX: consumed to its newline, not kept. */
	for (;;) {
		const char *start = tr->chunk + tr->cpos;
		size_t avail = tr->cend - tr->cpos;
		const char *nl = memchr(start, '\n', avail);
		size_t n = nl ? (size_t)(nl - start) + 1 : avail;

		tr->cpos += n;
		tr->offset += n;
		if (nl || tr->chunk_eof)
			break;
		if (!chunk_fill(tr))
			return LINE_ERROR;
	}
	*len = TEXT_LINE_MAX;
	return LINE_TOO_LONG;
}

/* The end of the line's content: before any comment and trailing blanks. */
static size_t content_end(const char *line, size_t len)
{
	const char *hash = memchr(line, '#', len);
	size_t end = hash ? (size_t)(hash - line) : len;

	while (end > 0 && blank_is(line[end - 1]))
		end--;
	return end;
}

static void fill_pos(const struct text_reader *tr, struct srcpos *pos, uint64_t line_start)
{
	pos->file = tr->name;
	pos->record_no = tr->record_no;
	pos->byte_offset = line_start;
	pos->line = tr->line_no;
}

static enum reader_result malformed_line(struct text_reader *tr, struct reader_malformed *bad,
                                         uint64_t line_start, unsigned col, const char *reason)
{
	tr->record_no++;
	fill_pos(tr, &bad->pos, line_start);
	bad->column = col;
	snprintf(bad->reason, sizeof(bad->reason), "%s", reason);
	return READER_MALFORMED;
}

static enum reader_result read_failed(struct text_reader *tr, struct reader_malformed *bad,
                                      uint64_t line_start, int err)
{
	tr->failed = true;
	tr->read_errno = err;
	fill_pos(tr, &bad->pos, line_start);
	bad->pos.record_no = tr->record_no + 1;
	bad->pos.line = tr->line_no + 1;
	bad->column = 0;
	snprintf(bad->reason, sizeof(bad->reason), "%s: read error: %s", tr->name,
	         err ? strerror(err) : "unknown error");
	return READER_FATAL;
}

/* Parses a non-blank line of len bytes ending its content at end. */
static enum reader_result parse_record(struct text_reader *tr, size_t end, uint64_t line_start,
                                       struct record *rec, struct reader_malformed *bad)
{
	tr->record_no++;
	if (!text_parse_line(tr->cur, end, tr->bytes, rec, bad)) {
		fill_pos(tr, &bad->pos, line_start);
		return READER_MALFORMED;
	}
	fill_pos(tr, &rec->pos, line_start);
	return READER_RECORD;
}

static enum reader_result text_next(void *state, struct record *rec, struct reader_malformed *bad)
{
	struct text_reader *tr = state;

	for (;;) {
		uint64_t line_start = tr->offset;
		const char *nul;
		size_t len, end;
		enum line_status st;

		if (tr->failed)
			return read_failed(tr, bad, line_start, tr->read_errno);
		errno = 0;
		st = read_line(tr, &len);
		if (st == LINE_EOF)
			return READER_EOF;
		if (st == LINE_ERROR)
			return read_failed(tr, bad, line_start, errno);
		tr->line_no++;
		if (st == LINE_TOO_LONG)
			return malformed_line(tr, bad, line_start, TEXT_LINE_MAX + 1,
			                      "line longer than 65536 bytes");
		/* The words of a line are not NUL-safe, and a NUL means
		 * this is not a text trace line at all. */
		nul = memchr(tr->cur, '\0', len);
		if (nul != NULL)
			return malformed_line(tr, bad, line_start, (unsigned)(nul - tr->cur) + 1,
			                      "NUL byte in text line");
		end = content_end(tr->cur, len);
		if (end == 0)
			continue; /* blank or comment only: not a record */
		return parse_record(tr, end, line_start, rec, bad);
	}
}

static void text_close(void *state)
{
	struct text_reader *tr = state;

	if (tr == NULL)
		return;
	fclose(tr->fp);
	free(tr);
}

void *text_reader_new(FILE *fp, const char *name)
{
	struct text_reader *tr;

	if (fp == NULL)
		return NULL;
	tr = calloc(1, sizeof(*tr));
	if (tr == NULL)
		return NULL;
	tr->fp = fp;
	tr->name = name;
	tr->cur = tr->line;
	/* The descriptor of a regular file, and only when stdio holds no
	 * byte of it unread; pipes keep stdio (a byte at a time). */
	tr->fd = fileno(fp);
	if (tr->fd >= 0) {
		struct stat st;
		long at = ftell(fp);

		if (fstat(tr->fd, &st) != 0 || !S_ISREG(st.st_mode) || at < 0 ||
		    (off_t)at != lseek(tr->fd, 0, SEEK_CUR))
			tr->fd = -1;
	}
	return tr;
}

const struct reader_ops text_reader_ops = {
	.format_name = "text",
	.next = text_next,
	.close = text_close,
};
