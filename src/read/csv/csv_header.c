/* csv_header.c: opening an export: its header among the first lines, or
 * a headerless layout, or (issue 12) the table of unknown columns it
 * seems to be, named in the error (or opened for --dump-columns).
 * specification: capture-format.md section 3. */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "read/csv/csv_internal.h"

static bool no_memory(const struct csv_reader *r, char *err, size_t errlen)
{
	return csv_set_err(err, errlen, "%s: out of memory", r->name);
}

/* The current line as the header.  False when out of memory. */
static bool take_header(struct csv_reader *r, const struct split_mode *mode)
{
	unsigned n = csv_split_copy(r->line, r->line_len, r->scratch, mode, r->cells);
	struct csv_column *cols =
	        grow_to(r->cols, &r->cols_cap, n, sizeof(*cols), 16, CSV_MAX_COLS);

	if (cols == NULL)
		return false;
	r->cols = cols;

	r->layout = mode->layout;
	r->delim = mode->delim;
	r->header_line_no = r->line_no;
	r->header_len = r->line_len;
	snprintf(r->header_copy, sizeof(r->header_copy), "%.*s",
	         (int)(r->line_len < CSV_HEADER_COPY ? r->line_len : CSV_HEADER_COPY - 1), r->line);
	r->ncols = n;
	for (unsigned i = 0; i < n; i++) {
		struct csv_column *c = &r->cols[i];
		const char *s = r->scratch + r->cells[i].off;
		size_t len = r->cells[i].len;

		snprintf(c->name, sizeof(c->name), "%.*s",
		         (int)(len < CSV_NAME_MAX ? len : CSV_NAME_MAX - 1), s);
		csv_normalise_name(s, len, c->norm, sizeof(c->norm), c->unit, sizeof(c->unit));
		c->start = r->cells[i].off;
		c->end = r->cells[i].off + r->cells[i].len;
		c->field = csv_column_field(s, len, c->norm);
	}
	r->after_header = true;
	return true;
}

/* The header at --header-line N: split the forced way, else the best
 * guess, else by the delimiter the line holds most of. */
static bool take_header_at(struct csv_reader *r, char *err, size_t errlen)
{
	struct split_mode mode;

	if (r->line_too_long)
		return csv_set_err(err, errlen,
		                   "%s: header line %" PRIu64 " is longer than %u bytes", r->name,
		                   r->line_no, CSV_LINE_MAX);
	if (csv_guess_header(r->line, r->line_len, r->scratch, r->cells, &r->o, &mode) == 0) {
		char d = r->o.delimiter;

		if (d == CSV_DELIM_AUTO)
			d = csv_guess_delimiter(r->line, r->line_len);
		mode = d == CSV_DELIM_AUTO || d == CSV_DELIM_ALIGNED
		               ? (struct split_mode){ CSV_LAYOUT_ALIGNED, 0, 2 }
		               : (struct split_mode){ CSV_LAYOUT_DELIMITED, d, 0 };
	}
	take_header(r, &mode);
	return true;
}

/* Keeps the current line in k (after the lines it keeps already);
 * csv_shape_feed() takes none longer than CSV_SNIFF_LINE.  False when out
 * of memory. */
static bool save_line(const struct csv_reader *r, struct shape_keep *k, struct saved_line *l)
{
	size_t len = r->line_len < CSV_SNIFF_LINE ? r->line_len : CSV_SNIFF_LINE;
	char *text = grow_to(k->text, &k->cap, k->used + len, 1, 256, SHAPE_TEXT_MAX);

	if (text == NULL)
		return false;
	k->text = text;
	l->line_no = r->line_no;
	l->offset = r->line_start;
	l->len = len;
	l->at = k->used;
	memcpy(k->text + k->used, r->line, len);
	k->used += len;
	return true;
}

/* The table being read becomes the best one (its lines too: swapped, not
 * copied), and keeps no lines of its own. */
static void shape_keep_promote(struct csv_shapes *t)
{
	struct shape_keep was_best = t->best;

	t->best = t->cur;
	t->cur = was_best;
	t->cur.sh = t->best.sh;
	t->cur.nrows = 0;
	t->cur.used = 0;
}

/* The current line (broken: too long or with a NUL) for the table it may
 * belong to; a table that ends is kept in shapes.best when it has the
 * most rows yet.  False when out of memory. */
static bool shape_track(struct csv_reader *r, bool broken)
{
	struct csv_shapes *t = &r->shapes;
	struct shape_keep *k = &t->cur;
	struct shape before = k->sh;
	enum shape_event ev;

	if (broken) {
		k->sh.have = false;
		k->sh.lines++;
		ev = SHAPE_BREAK;
	} else {
		ev = csv_shape_feed(&k->sh, r->line, r->line_len, r->o.delimiter, r->scratch,
		                    r->cells);
	}
	if (ev == SHAPE_NONE)
		return true;
	if (ev == SHAPE_ROW) {
		if (k->nrows < CSV_DUMP_ROWS)
			return save_line(r, k, &k->rows[k->nrows++]);
		return true;
	}
	if (csv_shape_was_table(&before, ev) && before.rows > t->best.sh.rows) {
		shape_keep_promote(t);
		t->best.sh = before;
		t->best.sh.have = true;
	}
	if (ev == SHAPE_HEADER) {
		k->nrows = 0;
		k->used = 0;
		return save_line(r, k, &k->header);
	}
	return true;
}

/* The table with the most rows, when the input has one (shapes.best). */
static bool shape_found(struct csv_reader *r)
{
	struct csv_shapes *t = &r->shapes;

	if (csv_shape_is_table(&t->cur.sh) && t->cur.sh.rows > t->best.sh.rows)
		shape_keep_promote(t);
	return csv_shape_is_table(&t->best.sh);
}

static const char *delim_name(char d)
{
	switch (d) {
	case ',':
		return "','";
	case '\t':
		return "TAB";
	case ';':
		return "';'";
	case '|':
		return "'|'";
	default:
		return "?";
	}
}

/* The unknown-columns message: the table's header cells, the known ones,
 * and what to do. */
static bool shape_error(struct csv_reader *r, char *err, size_t errlen)
{
	const struct shape_keep *k = &r->shapes.best;
	char names[140], known[80]; /* the message fits the 512 bytes
	                                 * callers give with a long name */
	size_t o = 0, ko = 0;
	unsigned n, unterminated;

	memcpy(r->scratch, k->text + k->header.at, k->header.len);
	n = csv_split_delimited(r->scratch, k->header.len, k->sh.delim, r->cells, CSV_MAX_COLS,
	                        &unterminated);
	names[0] = known[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		const char *c = r->scratch + r->cells[i].off;
		int len = (int)r->cells[i].len, w, f;
		char norm[CSV_NAME_MAX];

		csv_normalise_name(c, (size_t)len, norm, sizeof(norm), NULL, 0);
		f = csv_column_field(c, (size_t)len, norm);
		if (f >= 0 && ko + 1 < sizeof(known)) {
			w = snprintf(known + ko, sizeof(known) - ko, "%s'%.*s' (%s)",
			             ko ? ", " : "", len > 24 ? 24 : len, c, csv_field_names[f]);
			if (w > 0)
				ko += (size_t)w;
			if (ko >= sizeof(known))
				ko = sizeof(known) - 1; /* cut, still terminated */
		}
		if (o + 1 >= sizeof(names))
			continue;
		w = snprintf(names + o, sizeof(names) - o, "%s'%.*s'", i ? ", " : "",
		             len > 24 ? 24 : len, c);
		if (w < 0 || o + (size_t)w >= sizeof(names) - 4) {
			snprintf(names + o, sizeof(names) - o, ", ...");
			o = sizeof(names);
			continue;
		}
		o += (size_t)w;
	}
	return csv_set_err(err, errlen,
	                   "%s: looks like a CSV/TSV export with unknown columns, not a text "
	                   "trace: line %" PRIu64 " names %u columns split by %s (%s) and %u "
	                   "rows of as many cells follow; %s%s; see how it is read with "
	                   "--dump-columns, then name the columns with --map FIELD=COLUMN or "
	                   "--map-file FILE",
	                   r->name, k->header.line_no, k->sh.ncells, delim_name(k->sh.delim), names,
	                   k->sh.rows,
	                   ko ? "of these names dllpcheck knows only "
	                      : "dllpcheck knows none of these names",
	                   known);
}

/* --dump-columns on a table of unknown columns: its header line as the
 * header, and its first rows (saved, as the input has been read on). */
static bool shape_open_for_dump(struct csv_reader *r, char *err, size_t errlen)
{
	const struct shape_keep *k = &r->shapes.best;
	struct split_mode mode = { CSV_LAYOUT_DELIMITED, k->sh.delim, 0 };

	memcpy(r->line, k->text + k->header.at, k->header.len);
	r->line[k->header.len] = '\0';
	r->line_len = k->header.len;
	r->line_no = k->header.line_no;
	r->line_too_long = false;
	r->line_nul = 0;
	if (!take_header(r, &mode))
		return no_memory(r, err, errlen);
	r->replay_only = true;
	r->replay_pos = 0;
	snprintf(r->problem, sizeof(r->problem),
	         "no header: line %" PRIu64 " is taken as one for this dump, but it "
	         "names too few known columns (two, one of them time, type or raw "
	         "bytes): name them with --map FIELD=COLUMN or --map-file FILE",
	         k->header.line_no);
	return true;
}

bool csv_find_header(struct csv_reader *r, char *err, size_t errlen)
{
	for (;;) {
		enum line_status st = csv_read_line(r);
		struct split_mode mode;
		struct agilent_line a;

		if (st == LINE_ERROR)
			return csv_set_err(err, errlen, "%s: cannot read: %s", r->name,
			                   strerror(errno));
		if (st == LINE_EOF)
			break;
		if (r->o.header_line_given) {
			if (r->line_no == r->o.header_line)
				return take_header_at(r, err, errlen);
			continue;
		}
		if (r->line_no > CSV_HEADER_SEARCH)
			break;
		if (r->line_too_long || r->line_nul != 0) {
			if (!shape_track(r, true))
				return no_memory(r, err, errlen);
			continue;
		}
		if (csv_guess_header(r->line, r->line_len, r->scratch, r->cells, &r->o, &mode) > 0)
			return take_header(r, &mode) || no_memory(r, err, errlen);
		if (!shape_track(r, false))
			return no_memory(r, err, errlen);
		if (r->o.delimiter != CSV_DELIM_AUTO)
			continue;
		if (csv_parse_agilent(r->line, r->line_len, &a)) {
			r->layout = CSV_LAYOUT_AGILENT;
			r->pending = true;
			return true;
		}
		if (csv_is_fpga_line(r->line, r->line_len, r->scratch, r->cells)) {
			r->layout = CSV_LAYOUT_FPGA;
			r->pending = true;
			return true;
		}
	}
	if (r->o.header_line_given)
		return csv_set_err(err, errlen,
		                   "%s: --header-line %u: the input has %" PRIu64 " lines", r->name,
		                   r->o.header_line, r->line_no);
	if (r->line_no == 0)
		return csv_set_err(err, errlen, "%s: empty export", r->name);
	if (shape_found(r))
		return r->o.dump_only ? shape_open_for_dump(r, err, errlen)
		                      : shape_error(r, err, errlen);
	return csv_set_err(err, errlen,
	                   "%s: no header in the first %u lines (a line naming two known "
	                   "columns, one of them time, type or raw bytes) and no known "
	                   "line layout; name the header with --header-line N and "
	                   "columns with --map KEY=COLUMN, or use --header-line 0 "
	                   "--map KEY=#N",
	                   r->name, CSV_HEADER_SEARCH);
}

/* --header-line 0: no header.  The columns come from --map KEY=#N; without
 * any, the first line must have a headerless layout's shape. */
bool csv_open_headerless(struct csv_reader *r, char *err, size_t errlen)
{
	bool any_index = false;

	for (int f = 0; f < CSV_F_COUNT; f++)
		any_index |= r->o.map[f].how == CSV_MAP_INDEX;
	do {
		enum line_status st = csv_read_line(r);

		if (st == LINE_ERROR)
			return csv_set_err(err, errlen, "%s: cannot read: %s", r->name,
			                   strerror(errno));
		if (st == LINE_EOF)
			return csv_set_err(err, errlen, "%s: empty export", r->name);
	} while (csv_skip_blanks(r->line, r->line_len, 0) == r->line_len);
	r->pending = true;
	if (!any_index) {
		struct agilent_line a;

		if (csv_parse_agilent(r->line, r->line_len, &a))
			r->layout = CSV_LAYOUT_AGILENT;
		else if (csv_is_fpga_line(r->line, r->line_len, r->scratch, r->cells))
			r->layout = CSV_LAYOUT_FPGA;
		else
			return csv_set_err(err, errlen,
			                   "%s: --header-line 0: name the "
			                   "columns with --map KEY=#N",
			                   r->name);
		return true;
	}
	r->delim = r->o.delimiter;
	if (r->delim == CSV_DELIM_AUTO)
		r->delim = csv_guess_delimiter(r->line, r->line_len);
	r->layout = r->delim == CSV_DELIM_AUTO || r->delim == CSV_DELIM_ALIGNED
	                    ? CSV_LAYOUT_BLANKS
	                    : CSV_LAYOUT_DELIMITED;
	return true;
}
