/* reader_csv.c: protocol-analyzer exports: delimited text with a header,
 * aligned text columns, and two headerless line layouts.
 * specification: capture-format.md section 3; issue 7 (the layouts,
 * aliases, values and options below are what the man page documents).
 * This file is the reader itself (lines, opening, next, close, the view
 * --dump-columns reads); csv_internal.h lists the pieces it uses.
 *
 * Finding the layout (csv_reader_new), on the first lines only:
 *   - a header: the first line (of at most CSV_HEADER_SEARCH) whose
 *     columns, split by ',' TAB ';' '|' (quotes honoured) or by blank runs
 *     (aligned columns), name at least two known fields, one of them time,
 *     a packet type or raw bytes.  Banner lines before it are skipped; so
 *     are a "Radix -" line after it, table rules ("-----"), '#' comments
 *     and repeats of the header further down.  --header-line and
 *     --delimiter replace the guesses.
 *   - "DS Record 1041 @ 0.000123456s (+8ns): 5c800803f0f2fcfd": Agilent
 *     analyzer record dumps (DS/US, time with unit, framed symbols);
 *   - "<-, 1234560, ns, 0x5c, 0x80, ...": an FPGA sniffer's CSV (-> is
 *     down, <- is up unless --dir-map says otherwise).
 * Column names are normalised (trim, case-fold, a unit in () or [] kept
 * apart, spaces and _-.# dropped) and looked up in alias_table[].
 *
 * Rows: one data line is one record.  With a non-empty raw-bytes cell the
 * bytes are the packet: physical-layer framing (SDP 5Ch ... END FDh for a
 * DLLP, STP FBh ... END FDh / EDB FEh for a TLP) is stripped, a DLLP is 6
 * bytes (4: no CRC), a TLP is sequence number, TLP, LCRC; the decoders
 * check the CRCs.  Without raw bytes the decoded fields (type, VC, HdrFC,
 * DataFC, scales, seq; TLP type, length, TC) are encoded (by
 * read/packet_build.h, as the text trace's symbolic packets) without CRC
 * (REC_F_NO_CRC): the CRC of such a row is unknown, never "good".  DLLP
 * type names are wire/dllp.c's (dllp_squeezed_lookup()).  A TLP
 * row without a sequence number gets REC_F_NO_SEQ.  Link events are rows
 * whose type names one ("Link-Up", "vc-enable" with the VC column).
 * Ordered sets and idle rows (SKP, TS1, ...) are not records: skipped.
 *
 * Positions: line numbers are physical lines (quoted cells may not span
 * lines); record_no counts data rows, malformed ones included; the column
 * of a malformed row is the 1-based byte column where the offending cell
 * starts, and the reason names the export's column number and header name.
 *
 * Memory: one struct per reader (the line reader, line_reader.h, with
 * its buffers; cells, record bytes) and what grows with the input: the
 * line and a scratch copy to split, to the longest line (csv_line_room());
 * the header's columns; the lines kept of the tables seen while looking
 * for the header, to their length (a small input costs little, a
 * fuzzer's thousands of inputs a second among them).  Nothing is allocated per
 * row; a line over CSV_LINE_MAX bytes is one
 * malformed row, consumed without being kept.
 * Hostile input costs time only.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/time_unit.h"
#include "read/csv/csv_internal.h"
#include "read/reader.h"

/* ------------------------------------------------------------------ */
/* Reading lines */

/* r->line and r->scratch made to hold len bytes and a NUL.  They never
 * shrink, so a line kept while looking for the header (csv_header.c),
 * which was read into them, fits when it is copied back.  False when out
 * of memory (the buffers are then as they were). */
static bool csv_line_room(struct csv_reader *r, size_t len)
{
	enum { FIRST = 256, MOST = CSV_LINE_MAX + 1 };
	char *p;

	p = grow_to(r->line, &r->line_cap, len + 1, 1, FIRST, MOST);
	if (p == NULL)
		return false;
	r->line = p;
	p = grow_to(r->scratch, &r->scratch_cap, len + 1, 1, FIRST, MOST);
	if (p == NULL)
		return false;
	r->scratch = p;
	return true;
}

static void csv_reader_free(struct csv_reader *r)
{
	line_reader_free(&r->lines);
	free(r->line);
	free(r->scratch);
	free(r->cols);
	free(r->shapes.cur.text);
	free(r->shapes.best.text);
	free(r);
}

/* Reads one line (without '\n') into r->line, NUL-terminated, where the
 * splitters may unquote it in place: the line reader's (line_reader.h),
 * a byte order mark taken off the first.  A longer line than the buffer
 * is LINE_OK with line_too_long set (its first bytes kept). */
enum line_status csv_read_line(struct csv_reader *r)
{
	struct line l;
	enum line_status st;
	size_t n, bom;

	r->line_start = line_reader_offset(&r->lines);
	st = line_reader_next(&r->lines, &l);
	if (st == LINE_EOF || st == LINE_ERROR)
		return st;
	n = l.len;
	r->line_no = l.no;
	r->line_too_long = st == LINE_TOO_LONG;
	r->line_nul = line_nul_column(&l);
	bom = l.no == 1 ? csv_strip_bom(l.text, n) : 0;
	if (!csv_line_room(r, n - bom)) {
		errno = ENOMEM;
		return LINE_ERROR;
	}
	memcpy(r->line, l.text + bom, n - bom);
	n -= bom;
	if (r->line_nul != 0)
		r->line_nul -= bom; /* a NUL is no byte of the mark */
	r->line[n] = '\0';
	r->line_len = n;
	return LINE_OK;
}

/* ------------------------------------------------------------------ */
/* Opening */

void *csv_reader_new(FILE *fp, const char *name, const struct csv_options *opts, char *err,
                     size_t errlen)
{
	struct csv_reader *r;
	bool ok;

	if (fp == NULL)
		return NULL;
	r = malloc(sizeof(*r));
	if (r == NULL) {
		csv_set_err(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	memset(r, 0, offsetof(struct csv_reader, cells)); /* see the struct */
	r->fp = fp;
	r->name = name;
	line_reader_init(&r->lines, fp);
	if (!csv_line_room(r, 0)) {
		csv_set_err(err, errlen, "%s: out of memory", name);
		csv_reader_free(r);
		return NULL;
	}
	if (opts != NULL)
		r->o = *opts;
	else
		csv_options_init(&r->o);
	for (int f = 0; f < CSV_F_COUNT; f++)
		r->field_col[f] = -1;
	r->time_pow = 12;
	r->time_ticks = r->o.clock_period_fs != 0;
	if (r->o.header_line_given && r->o.header_line == 0)
		ok = csv_open_headerless(r, err, errlen);
	else
		ok = csv_find_header(r, err, errlen);
	if (ok && (r->layout == CSV_LAYOUT_DELIMITED || r->layout == CSV_LAYOUT_ALIGNED ||
	           r->layout == CSV_LAYOUT_BLANKS))
		ok = csv_resolve_mapping(r, err, errlen);
	if (!ok) {
		csv_reader_free(r);
		return NULL;
	}
	return r;
}

const char *csv_reader_format(void *state)
{
	const struct csv_reader *r = state;

	switch (r->layout) {
	case CSV_LAYOUT_AGILENT:
		return "agilent-dump";
	case CSV_LAYOUT_FPGA:
		return "fpga-csv";
	default:
		return "csv";
	}
}

/* ------------------------------------------------------------------ */
/* The reader */

/* Lines that are not rows: blank, '#' comments, table rules, a "Radix -"
 * line right after the header, the header repeated (page breaks). */
static bool skip_line(struct csv_reader *r)
{
	const char *s = r->line;
	size_t len = r->line_len, p = csv_skip_blanks(s, len, 0);
	bool after_header = r->after_header;
	bool rule = true;

	if (p == len)
		return true;
	r->after_header = false;
	if (s[p] == '#')
		return true;
	if (after_header && csv_starts_nocase(s + p, len - p, "radix"))
		return true;
	for (size_t i = p; i < len && rule; i++)
		rule = strchr("-=+|:*_,;\t \r", s[i]) != NULL || s[i] == r->delim;
	if (rule)
		return true;
	return r->header_line_no != 0 && len == r->header_len && len < CSV_HEADER_COPY &&
	       memcmp(s, r->header_copy, len) == 0;
}

static void fill_pos(const struct csv_reader *r, struct srcpos *pos)
{
	pos->file = r->name;
	pos->record_no = r->record_no;
	pos->byte_offset = r->line_start;
	pos->line = r->line_no;
	pos->source_packet = r->row_packet;
	pos->has_source_packet = r->row_has_packet;
}

static enum reader_result malformed(struct csv_reader *r, struct reader_malformed *bad)
{
	size_t n;

	fill_pos(r, &bad->pos);
	if (!r->o.strict)
		return READER_MALFORMED;
	r->stopped = true;
	n = strlen(bad->reason);
	snprintf(bad->reason + n, sizeof(bad->reason) - n, " (--strict: reading stopped)");
	return READER_FATAL;
}

static enum reader_result read_failed(struct csv_reader *r, struct reader_malformed *bad, int err)
{
	r->failed = true;
	r->read_errno = err;
	fill_pos(r, &bad->pos);
	bad->pos.record_no = r->record_no + 1;
	bad->pos.has_source_packet = false; /* no row was read */
	bad->column = 0;
	snprintf(bad->reason, sizeof(bad->reason), "%s: read error: %s", r->name,
	         err ? strerror(err) : "unknown error");
	return READER_FATAL;
}

/* The next line to parse as a row: the pending one, or a new one. */
static enum line_status next_line(struct csv_reader *r)
{
	if (r->pending) {
		r->pending = false;
		return LINE_OK;
	}
	if (r->replay_only) {
		const struct shape_keep *k = &r->shapes.best;
		const struct saved_line *l;

		if (r->replay_pos >= k->nrows)
			return LINE_EOF;
		l = &k->rows[r->replay_pos++];
		memcpy(r->line, k->text + l->at, l->len);
		r->line[l->len] = '\0';
		r->line_len = l->len;
		r->line_no = l->line_no;
		r->line_start = l->offset;
		r->line_too_long = false;
		r->line_nul = 0; /* csv_shape_feed() keeps no line with a NUL */
		return LINE_OK;
	}
	errno = 0;
	return csv_read_line(r);
}

static enum reader_result csv_next(void *state, struct record *rec, struct reader_malformed *bad)
{
	struct csv_reader *r = state;

	for (;;) {
		struct row w;
		enum line_status st;
		enum row_result res;

		if (r->stopped)
			return READER_EOF;
		if (r->failed)
			return read_failed(r, bad, r->read_errno);
		st = next_line(r);
		if (st == LINE_EOF)
			return READER_EOF;
		if (st == LINE_ERROR)
			return read_failed(r, bad, errno);
		memset(bad, 0, sizeof(*bad));
		r->row_has_packet = false;
		r->row_packet = 0;
		/* no cells until this line is split: a line refused before
		 * (too long, a NUL) shows none of the previous row's */
		r->ncells = 0;
		if (r->line_too_long) {
			r->record_no++;
			bad->column = CSV_LINE_MAX + 1;
			snprintf(bad->reason, sizeof(bad->reason), "line longer than %u bytes",
			         CSV_LINE_MAX);
			return malformed(r, bad);
		}
		if (r->line_nul != 0) {
			r->record_no++;
			bad->column = (unsigned)r->line_nul;
			snprintf(bad->reason, sizeof(bad->reason), "NUL byte in a text line");
			return malformed(r, bad);
		}
		if (skip_line(r))
			continue;
		memset(&w, 0, sizeof(w));
		w.r = r;
		w.bad = bad;
		r->record_no++;
		res = csv_parse_row(r, &w);
		if (res == ROW_SKIP) {
			r->record_no--;
			continue;
		}
		if (res == ROW_MALFORMED) {
			bad->kind = (uint8_t)w.kind;
			return malformed(r, bad);
		}
		rec->time_ps = w.time_ps;
		rec->kind = w.kind;
		rec->dir = w.dir;
		rec->link = w.link;
		rec->flags = w.flags;
		rec->bytes = w.bytes;
		rec->len = w.len;
		rec->wire_len = w.len;
		fill_pos(r, &rec->pos);
		return READER_RECORD;
	}
}

static void csv_close(void *state)
{
	struct csv_reader *r = state;

	if (r == NULL)
		return;
	fclose(r->fp);
	csv_reader_free(r);
}

const struct reader_ops csv_reader_ops = {
	.format_name = "csv",
	.next = csv_next,
	.close = csv_close,
};

/* ------------------------------------------------------------------ */
/* What an open export shows of itself (--dump-columns) */

void csv_reader_layout(const void *state, struct csv_layout_info *info)
{
	const struct csv_reader *r = state;

	memset(info, 0, sizeof(*info));
	info->layout = r->layout;
	info->delim = r->delim;
	info->header_line = r->header_line_no;
	info->header = r->header_copy;
	info->header_cut = r->header_len >= CSV_HEADER_COPY;
	info->problem = r->problem;
	info->ncols = r->ncols;
	memcpy(info->field_col, r->field_col, sizeof(info->field_col));
	memcpy(info->field_src, r->field_src, sizeof(info->field_src));
	info->time_ticks = r->time_ticks;
	info->clock_period_fs = r->o.clock_period_fs;
	info->time_unit = time_unit_pow10_name(r->time_pow);
	info->data_fc_bytes = r->data_fc_bytes;
	info->length_bytes = r->length_bytes;
}

void csv_reader_column(const void *state, unsigned i, struct csv_column_info *col)
{
	const struct csv_reader *r = state;

	if (i >= r->ncols) {
		col->name = col->unit = "";
		col->field = -1;
		return;
	}
	col->name = r->cols[i].name;
	col->unit = r->cols[i].unit;
	col->field = r->cols[i].field;
}

uint64_t csv_reader_line(const void *state, const char **text, size_t *len)
{
	const struct csv_reader *r = state;

	*text = r->line;
	*len = r->line_len;
	return r->line_no;
}

bool csv_reader_cell(const void *state, enum csv_field f, const char **text, size_t *len)
{
	const struct csv_reader *r = state;
	int c = (unsigned)f < CSV_F_COUNT ? r->field_col[f] : -1;

	if (c < 0 || (unsigned)c >= r->ncells)
		return false;
	*text = r->line + r->cells[c].off;
	*len = r->cells[c].len;
	return true;
}
