/* dump_columns.c: --dump-columns: how an analyzer export is read (layout,
 * delimiter, header, mapping) and its first data rows, each as the
 * analysis takes it.  specification: capture-format.md section 3.
 *
 * The rows are read with reader_next(), as the analysis reads them, so a
 * row the export reader turns into a record that the record checks
 * refuse (a raw-bytes TLP shorter than a TLP header, say) is shown
 * malformed, with the reason the analysis reports for it
 * (capture.malformed), not decoded.  Of the export reader it needs only
 * the read-only accessors of reader_csv.h. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/text_quote.h"
#include "cli/dump_columns.h"
#include "decode/packet.h"
#include "read/csv/reader_csv.h"
#include "read/reader.h"
#include "report/decode_print.h"

static const char *layout_text(const struct csv_layout_info *l, char *buf, size_t size)
{
	switch (l->layout) {
	case CSV_LAYOUT_DELIMITED:
		if (l->delim == '\t')
			return "delimited, delimiter TAB";
		snprintf(buf, size, "delimited, delimiter '%c'", l->delim);
		return buf;
	case CSV_LAYOUT_ALIGNED:
		return "aligned columns (cut at the header's column positions)";
	case CSV_LAYOUT_BLANKS:
		return "blank-separated columns (no header)";
	case CSV_LAYOUT_AGILENT:
		return "agilent-dump: 'DIR Record N @ TIME [(+GAP)]: HEX' lines";
	case CSV_LAYOUT_FPGA:
		return "fpga-csv: 'DIR, TIME, UNIT, 0xNN, ...' lines";
	}
	return "?";
}

/* The layouts whose rows have columns (the headerless line layouts have
 * none: their lines are shown as read). */
static bool has_columns(const struct csv_layout_info *l)
{
	return l->layout != CSV_LAYOUT_AGILENT && l->layout != CSV_LAYOUT_FPGA;
}

/* The name --map gives field f ("hdr-fc"). */
static const char *field_name(int f)
{
	return csv_field_name((enum csv_field)f);
}

static void dump_mapping(FILE *out, const void *state, const struct csv_layout_info *l)
{
	static const char *const src[] = { "", "alias", "--map" };
	struct csv_column_info c;
	bool any = false;

	fprintf(out, "columns:\n");
	for (unsigned i = 0; i < l->ncols; i++) {
		csv_reader_column(state, i, &c);
		fprintf(out, "  #%-3u '%s'%s%s%s -> %s\n", i + 1, c.name,
		        c.unit[0] ? " [unit " : "", c.unit, c.unit[0] ? "]" : "",
		        c.field >= 0 ? field_name(c.field) : "(no alias)");
	}
	fprintf(out, "mapping:\n");
	for (int f = 0; f < CSV_F_COUNT; f++) {
		int col = l->field_col[f];

		if (col < 0)
			continue;
		if ((unsigned)col < l->ncols) {
			csv_reader_column(state, (unsigned)col, &c);
			fprintf(out, "  %-11s <- #%d '%s' (%s)\n", field_name(f), col + 1, c.name,
			        src[l->field_src[f]]);
		} else {
			fprintf(out, "  %-11s <- #%d (%s)\n", field_name(f), col + 1,
			        src[l->field_src[f]]);
		}
	}
	fprintf(out, "  not mapped:");
	for (int f = 0; f < CSV_F_COUNT; f++) {
		if (l->field_col[f] < 0) {
			fprintf(out, " %s", field_name(f));
			any = true;
		}
	}
	fprintf(out, "%s\n", any ? "" : " (none)");
	if (l->field_col[CSV_F_TIME] < 0)
		fprintf(out, "time: no column: every record at t=0\n");
	else if (l->time_ticks)
		fprintf(out, "time: values without a unit are clock ticks of %" PRIu64 " fs\n",
		        l->clock_period_fs);
	else
		fprintf(out, "time: values without a unit are in %s\n", l->time_unit);
	if (l->data_fc_bytes)
		fprintf(out, "data-fc: in bytes (16 per credit)\n");
	if (l->length_bytes)
		fprintf(out, "length: in bytes\n");
}

/* The mapped cells of the row read last. */
static void dump_cells(FILE *out, const void *state)
{
	char q[QUOTE_BUF];
	bool first = true;

	for (int f = 0; f < CSV_F_COUNT; f++) {
		const char *s;
		size_t len;

		if (!csv_reader_cell(state, (enum csv_field)f, &s, &len))
			continue;
		fprintf(out, "%s%s='%s'", first ? "    " : " ", field_name(f),
		        text_quote(q, s, len));
		first = false;
	}
	if (!first)
		fputc('\n', out);
}

/* A headerless line as read: printable ASCII, the rest as \xNN, cut. */
static void dump_text(FILE *out, const char *s, size_t len)
{
	size_t n = len > 120 ? 120 : len;

	fputs("    ", out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f)
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
	fputs(n < len ? "...\n" : "\n", out);
}

/* The first rows, each shown as reader_next() gives it: decoded, or
 * malformed with the reason the analysis reports (capture.malformed). */
static void dump_rows(FILE *out, struct reader *r, const struct csv_layout_info *l)
{
	int rows = 0;

	fprintf(out, "rows:\n");
	while (rows < CSV_DUMP_ROWS) {
		struct record rec;
		struct reader_malformed bad;
		struct packet pkt;
		enum reader_result res = reader_next(r, &rec, &bad);
		const char *text;
		size_t len;
		uint64_t line;

		if (res == READER_EOF)
			break;
		rows++;
		line = csv_reader_line(r->state, &text, &len);
		fprintf(out, "  line %" PRIu64 ":\n", line);
		if (has_columns(l))
			dump_cells(out, r->state);
		else
			dump_text(out, text, len);
		if (res != READER_RECORD) {
			/* the record checks of reader_next() name no column */
			if (bad.column != 0)
				fprintf(out, "    -> malformed at column %u: %s\n", bad.column,
				        bad.reason);
			else
				fprintf(out, "    -> malformed: %s\n", bad.reason);
			if (res == READER_FATAL)
				break;
			continue;
		}
		packet_decode(&rec, &pkt);
		fputs("    -> ", out);
		decode_print_packet(out, &pkt);
	}
	if (rows == 0)
		fprintf(out, "  (no data rows)\n");
}

void dump_columns(FILE *out, const char *path, struct reader *r)
{
	struct csv_layout_info l;
	char buf[64];

	if (r->ops != &csv_reader_ops) {
		fprintf(out,
		        "file: %s\nformat: %s (not an export: no columns; "
		        "--input-format=csv reads it as one)\n",
		        path, r->format_name);
		return;
	}
	csv_reader_layout(r->state, &l);
	fprintf(out, "file: %s\nformat: %s\nlayout: %s\n", path, r->format_name,
	        layout_text(&l, buf, sizeof(buf)));
	if (l.header_line != 0)
		fprintf(out, "header: line %" PRIu64 ": %s%s\n", l.header_line, l.header,
		        l.header_cut ? "..." : "");
	else
		fprintf(out, "header: none\n");
	if (l.problem[0] != '\0')
		fprintf(out, "problem: %s\n", l.problem);
	if (has_columns(&l))
		dump_mapping(out, r->state, &l);
	dump_rows(out, r, &l);
}
