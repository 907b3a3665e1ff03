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
 * Memory: one struct per reader holds the line reader (line_reader.h:
 * its buffers, how a file and a pipe are read) and the record bytes;
 * nothing is allocated per line, so hostile input costs time only.
 * text_reader_new() leaves fp with the caller when it fails.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blank.h"
#include "core/record.h"
#include "read/line_reader.h"
#include "read/reader.h"
#include "read/text_parse.h"
#include "wire/tlp.h"

#define TEXT_LINE_MAX LINE_READER_MAX

struct text_reader {
	FILE *fp;
	const char *name;
	uint64_t record_no; /* records returned or reported malformed */
	bool failed; /* a read error was reported: stay fatal */
	int read_errno; /* of that error, for the repeated report */
	uint8_t bytes[TLP_MAX_RECORD_LEN];
	struct line_reader lines;
};

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
	pos->line = line_reader_lines(&tr->lines);
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
	bad->pos.line = line_reader_lines(&tr->lines) + 1;
	bad->column = 0;
	snprintf(bad->reason, sizeof(bad->reason), "%s: read error: %s", tr->name,
	         err ? strerror(err) : "unknown error");
	return READER_FATAL;
}

/* Parses a non-blank line ending its content at end. */
static enum reader_result parse_record(struct text_reader *tr, const char *line, size_t end,
                                       uint64_t line_start, struct record *rec,
                                       struct reader_malformed *bad)
{
	tr->record_no++;
	if (!text_parse_line(line, end, tr->bytes, rec, bad)) {
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
		uint64_t line_start = line_reader_offset(&tr->lines);
		struct line l;
		size_t end;
		enum line_status st;

		if (tr->failed)
			return read_failed(tr, bad, line_start, tr->read_errno);
		errno = 0;
		st = line_reader_next(&tr->lines, &l);
		if (st == LINE_EOF)
			return READER_EOF;
		if (st == LINE_ERROR)
			return read_failed(tr, bad, line_start, errno);
		if (st == LINE_TOO_LONG)
			return malformed_line(tr, bad, line_start, TEXT_LINE_MAX + 1,
			                      "line longer than 65536 bytes");
		/* The words of a line are not NUL-safe, and a NUL means
		 * this is not a text trace line at all. */
		if (l.nul != NULL)
			return malformed_line(tr, bad, line_start, (unsigned)line_nul_column(&l),
			                      "NUL byte in text line");
		end = content_end(l.text, l.len);
		if (end == 0)
			continue; /* blank or comment only: not a record */
		return parse_record(tr, l.text, end, line_start, rec, bad);
	}
}

static void text_close(void *state)
{
	struct text_reader *tr = state;

	if (tr == NULL)
		return;
	fclose(tr->fp);
	line_reader_free(&tr->lines);
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
	line_reader_init(&tr->lines, fp);
	return tr;
}

const struct reader_ops text_reader_ops = {
	.format_name = "text",
	.next = text_next,
	.close = text_close,
};
