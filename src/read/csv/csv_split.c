/* csv_split.c: one line of an export into cells: at a delimiter
 * (quotes honoured), at runs of blanks, or at the header's column
 * positions (aligned text); and the delimiter a line most likely uses.
 * specification: capture-format.md section 3. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "read/csv/csv_internal.h"

/* Copies the bytes from to[..] = from[0 .. stop - from) (the two may
 * overlap: a cell is unescaped in place) and returns the end of the copy. */
static char *move_to(char *to, const char *from, const char *stop)
{
	size_t n = (size_t)(stop - from);

	memmove(to, from, n);
	return to + n;
}

/* The first c in [p, end), or end. */
static char *find_or_end(char *p, char *end, char c)
{
	char *at = memchr(p, c, (size_t)(end - p));

	return at != NULL ? at : end;
}

/* The quoted cell whose quote is at q, unescaped in place from q + 1 (""
 * is a quote inside it): returns the end of its text; *next is where the
 * cell ends (at a delimiter or the end of the line).  Text after the
 * closing quote stays part of the cell.  *unterminated is the column of
 * q when the quote never closes. */
static char *unquote_cell(const char *line, char *q, char *end, char delim, char **next,
                          unsigned *unterminated)
{
	char *w = q + 1, *r = q + 1, *stop;

	/* memchr: a quoted cell's text is copied in runs between quotes */
	for (;;) {
		char *quote = memchr(r, '"', (size_t)(end - r));

		if (quote == NULL) {
			w = move_to(w, r, end);
			r = end;
			*unterminated = (unsigned)(q - line) + 1;
			break;
		}
		w = move_to(w, r, quote);
		r = quote + 1;
		if (r < end && *r == '"') {
			*w++ = '"';
			r++;
			continue;
		}
		break;
	}
	stop = find_or_end(r, end, delim);
	w = move_to(w, r, stop);
	*next = stop;
	return w;
}

/* Splits line[0..len) at delim, honouring "quoted" cells ("" is a quote
 * inside one); quoted content is unescaped in place.  Cells are trimmed.
 * Returns the number of cells (at most max; the rest are dropped);
 * *unterminated is the column of a quote that never closes, else 0.
 * Every byte of a line goes through here, so it walks pointers and finds
 * delimiters and quotes with memchr: an index or a comparison per byte
 * costs a traced comparison under the fuzzer. */
unsigned csv_split_delimited(char *line, size_t len, char delim, struct csv_cell *cells,
                             unsigned max, unsigned *unterminated)
{
	char *p = line, *end = line + len;
	unsigned n = 0;

	*unterminated = 0;
	for (;;) {
		char *start, *stop;

		while (p < end && *p != delim && is_blank(*p))
			p++;
		if (p == end) {
			start = stop = p; /* an empty last cell */
		} else if (*p == '"') {
			start = p + 1;
			stop = unquote_cell(line, p, end, delim, &p, unterminated);
		} else {
			start = p;
			p = find_or_end(p, end, delim);
			stop = p;
		}
		while (stop > start && is_blank(stop[-1]))
			stop--;
		if (n < max) {
			/* one store: each of three costs UBSan's address checks */
			cells[n++] = (struct csv_cell){ .off = (uint32_t)(start - line),
				                        .len = (uint32_t)(stop - start),
				                        .col = (uint32_t)(start - line) + 1 };
		}
		if (p >= end)
			break;
		p++; /* the delimiter */
	}
	return n;
}

/* Splits at runs of blanks: of at least min_run blanks, or any run holding
 * a tab.  Used for aligned headers and for aligned rows without one. */
unsigned csv_split_blanks(const char *line, size_t len, unsigned min_run, struct csv_cell *cells,
                          unsigned max)
{
	unsigned n = 0;
	size_t p = 0;

	while (p < len && is_blank(line[p]))
		p++;
	while (p < len) {
		size_t start = p, end;

		for (;;) {
			bool tab = false;

			while (p < len && !is_blank(line[p]))
				p++;
			end = p;
			while (p < len && is_blank(line[p])) {
				tab |= line[p] == '\t';
				p++;
			}
			if (p >= len || tab || p - end >= min_run)
				break;
		}
		if (n < max) {
			cells[n].off = (uint32_t)start;
			cells[n].len = (uint32_t)(end - start);
			cells[n].col = (uint32_t)start + 1;
			n++;
		}
	}
	return n;
}

/* Where to cut a row between column i-1 and column i of an aligned table:
 * at the header's position hi if a blank is there; else a value crosses
 * it: a right-aligned value of column i (starting after lo, the end of
 * the previous header name) or a value of column i-1 running over. */
static size_t aligned_cut(const char *row, size_t len, size_t lo, size_t hi)
{
	size_t p;

	if (hi >= len)
		return len;
	for (p = hi; p > lo; p--) {
		if (is_blank(row[p - 1]))
			return p;
	}
	p = hi;
	while (p < len && !is_blank(row[p]))
		p++;
	return p;
}

unsigned csv_split_aligned(const struct csv_reader *r, const char *row, size_t len,
                           struct csv_cell *cells)
{
	size_t cut = 0;

	for (unsigned i = 0; i < r->ncols; i++) {
		size_t start = cut, end;

		if (i + 1 < r->ncols) {
			size_t lo = r->cols[i].end > cut ? r->cols[i].end : cut;

			end = aligned_cut(row, len, lo, r->cols[i + 1].start);
			if (end < start)
				end = start;
		} else {
			end = len;
		}
		cut = end;
		while (start < end && is_blank(row[start]))
			start++;
		while (end > start && is_blank(row[end - 1]))
			end--;
		cells[i].off = (uint32_t)start;
		cells[i].len = (uint32_t)(end - start);
		cells[i].col = (uint32_t)start + 1;
	}
	return r->ncols;
}

char csv_guess_delimiter(const char *line, size_t len)
{
	static const char cand[] = { ',', '\t', ';', '|' };
	unsigned count[ARRAY_LEN(cand)] = { 0 };
	bool in_quote = false;
	unsigned best = 0;
	char best_c = 0;

	for (size_t i = 0; i < len; i++) {
		if (line[i] == '"') {
			in_quote = !in_quote;
			continue;
		}
		if (in_quote)
			continue;
		for (size_t k = 0; k < ARRAY_LEN(cand); k++)
			count[k] += line[i] == cand[k];
	}
	for (size_t k = 0; k < ARRAY_LEN(cand); k++) {
		if (count[k] > best) {
			best = count[k];
			best_c = cand[k];
		}
	}
	return best_c;
}

/* Splits a copy of line (in scratch) the way mode says. */
unsigned csv_split_copy(const char *line, size_t len, char *scratch, const struct split_mode *mode,
                        struct csv_cell *cells)
{
	unsigned unterminated;

	memcpy(scratch, line, len);
	if (mode->layout == CSV_LAYOUT_DELIMITED)
		return csv_split_delimited(scratch, len, mode->delim, cells, CSV_MAX_COLS,
		                           &unterminated);
	return csv_split_blanks(scratch, len, mode->min_run, cells, CSV_MAX_COLS);
}
