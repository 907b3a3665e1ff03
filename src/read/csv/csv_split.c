/* csv_split.c: one line of an export into cells: at a delimiter
 * (quotes honoured), at runs of blanks, or at the header's column
 * positions (aligned text); and the delimiter a line most likely uses.
 * specification: capture-format.md section 3. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "read/csv/csv_internal.h"

/* Splits line[0..len) at delim, honouring "quoted" cells ("" is a quote
 * inside one); quoted content is unescaped in place.  Cells are trimmed.
 * Returns the number of cells (at most max; the rest are dropped);
 * *unterminated is the column of a quote that never closes, else 0. */
unsigned csv_split_delimited(char *line, size_t len, char delim, struct csv_cell *cells,
                             unsigned max, unsigned *unterminated)
{
	unsigned n = 0;
	size_t p = 0;

	*unterminated = 0;
	for (;;) {
		size_t start, w, end;

		while (p < len && line[p] != delim && is_blank(line[p]))
			p++;
		start = p;
		if (p < len && line[p] == '"') {
			size_t r = p + 1;

			w = p + 1;
			for (;;) {
				if (r >= len) {
					*unterminated = (unsigned)p + 1;
					break;
				}
				if (line[r] == '"') {
					if (r + 1 < len && line[r + 1] == '"') {
						line[w++] = '"';
						r += 2;
						continue;
					}
					r++;
					break;
				}
				line[w++] = line[r++];
			}
			/* Text after the closing quote stays part of the cell. */
			while (r < len && line[r] != delim)
				line[w++] = line[r++];
			end = w;
			p = r;
			start++;
		} else {
			/* memchr: most cells are unquoted, and this is every byte */
			const char *d = memchr(line + p, delim, len - p);

			p = d != NULL ? (size_t)(d - line) : len;
			end = p;
		}
		while (end > start && is_blank(line[end - 1]))
			end--;
		if (n < max) {
			cells[n].off = (uint32_t)start;
			cells[n].len = (uint32_t)(end - start);
			cells[n].col = (uint32_t)start + 1;
			n++;
		}
		if (p >= len)
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
