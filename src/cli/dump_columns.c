/* csv_dump.c: --dump-columns: how an export is read (layout, delimiter,
 * header, mapping) and its first data rows as parsed. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/text_quote.h"
#include "decode/packet.h"
#include "read/csv/csv_internal.h"
#include "report/decode_print.h"

static const char *layout_text(const struct csv_reader *r, char *buf, size_t size)
{
	switch (r->layout) {
	case LAYOUT_DELIMITED:
		if (r->delim == '\t')
			return "delimited, delimiter TAB";
		snprintf(buf, size, "delimited, delimiter '%c'", r->delim);
		return buf;
	case LAYOUT_ALIGNED:
		return "aligned columns (cut at the header's column positions)";
	case LAYOUT_BLANKS:
		return "blank-separated columns (no header)";
	case LAYOUT_AGILENT:
		return "agilent-dump: 'DIR Record N @ TIME [(+GAP)]: HEX' lines";
	case LAYOUT_FPGA:
		return "fpga-csv: 'DIR, TIME, UNIT, 0xNN, ...' lines";
	}
	return "?";
}

static void dump_mapping(FILE *out, const struct csv_reader *r)
{
	static const char *const src[] = { "", "alias", "--map" };
	bool any = false;

	fprintf(out, "columns:\n");
	for (unsigned i = 0; i < r->ncols; i++) {
		const struct csv_column *c = &r->cols[i];

		fprintf(out, "  #%-3u '%s'%s%s%s -> %s\n", i + 1, c->name,
		        c->unit[0] ? " [unit " : "", c->unit, c->unit[0] ? "]" : "",
		        c->field >= 0 ? csv_field_names[c->field] : "(no alias)");
	}
	fprintf(out, "mapping:\n");
	for (int f = 0; f < CSV_F_COUNT; f++) {
		int c = r->field_col[f];

		if (c < 0)
			continue;
		if ((unsigned)c < r->ncols)
			fprintf(out, "  %-11s <- #%d '%s' (%s)\n", csv_field_names[f], c + 1,
			        r->cols[c].name, src[r->field_src[f]]);
		else
			fprintf(out, "  %-11s <- #%d (%s)\n", csv_field_names[f], c + 1,
			        src[r->field_src[f]]);
	}
	fprintf(out, "  not mapped:");
	for (int f = 0; f < CSV_F_COUNT; f++) {
		if (r->field_col[f] < 0) {
			fprintf(out, " %s", csv_field_names[f]);
			any = true;
		}
	}
	fprintf(out, "%s\n", any ? "" : " (none)");
	if (r->field_col[CSV_F_TIME] < 0)
		fprintf(out, "time: no column: every record at t=0\n");
	else if (r->time_ticks)
		fprintf(out, "time: values without a unit are clock ticks of %" PRIu64 " fs\n",
		        r->o.clock_period_fs);
	else
		fprintf(out, "time: values without a unit are in %s\n", csv_pow_unit(r->time_pow));
	if (r->data_fc_bytes)
		fprintf(out, "data-fc: in bytes (16 per credit)\n");
	if (r->length_bytes)
		fprintf(out, "length: in bytes\n");
}

static void dump_cells(FILE *out, const struct csv_reader *r)
{
	char q[QUOTE_BUF];
	bool first = true;

	for (int f = 0; f < CSV_F_COUNT; f++) {
		int c = r->field_col[f];

		if (c < 0 || (unsigned)c >= r->ncells)
			continue;
		fprintf(out, "%s%s='%s'", first ? "    " : " ", csv_field_names[f],
		        text_quote(q, r->line + r->cells[c].off, r->cells[c].len));
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

void csv_dump_columns(FILE *out, void *state)
{
	struct csv_reader *r = state;
	char buf[64];
	int rows = 0;

	fprintf(out, "file: %s\nformat: %s\nlayout: %s\n", r->name,
	        csv_reader_format(r), layout_text(r, buf, sizeof(buf)));
	if (r->header_line_no != 0)
		fprintf(out, "header: line %" PRIu64 ": %s%s\n", r->header_line_no,
		        r->header_copy, r->header_len >= CSV_HEADER_COPY ? "..." : "");
	else
		fprintf(out, "header: none\n");
	if (r->problem[0] != '\0')
		fprintf(out, "problem: %s\n", r->problem);
	if (r->layout != LAYOUT_AGILENT && r->layout != LAYOUT_FPGA)
		dump_mapping(out, r);
	fprintf(out, "rows:\n");
	while (rows < CSV_DUMP_ROWS) {
		struct record rec;
		struct reader_malformed bad;
		struct packet pkt;
		enum reader_result res;

		/* as reader_next(): fields a reader does not set are 0 */
		memset(&rec, 0, sizeof(rec));
		res = csv_next(r, &rec, &bad);

		if (res == READER_EOF)
			break;
		rows++;
		fprintf(out, "  line %" PRIu64 ":\n", r->line_no);
		if (r->layout != LAYOUT_AGILENT && r->layout != LAYOUT_FPGA)
			dump_cells(out, r);
		else
			dump_text(out, r->line, r->line_len);
		if (res != READER_RECORD) {
			fprintf(out, "    -> malformed at column %u: %s\n", bad.column,
			        bad.reason);
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
