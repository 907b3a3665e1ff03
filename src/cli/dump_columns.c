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
#include <stdlib.h>
#include <string.h>

#include "base/text_quote.h"
#include "base/timefmt.h"
#include "cli/dump_columns.h"
#include "decode/packet.h"
#include "read/csv/reader_csv.h"
#include "read/lanes/reader_vcd.h"
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

/* --- a VCD of lanes (capture-format.md section 4) ------------------------ */

#define VCD_DUMP_SYMBOLS 24
#define VCD_DUMP_RECORDS 5

struct sym_seen {
	unsigned n[DIR_COUNT][LANE_MAX];
	char text[DIR_COUNT][LANE_MAX][VCD_DUMP_SYMBOLS * 6 + 1];
	struct lane_pos first[DIR_COUNT][LANE_MAX];
};

static const char *k_name(uint8_t b)
{
	switch (b) {
	case 0xBC:
		return "COM";
	case 0xFB:
		return "STP";
	case 0x5C:
		return "SDP";
	case 0xFD:
		return "END";
	case 0xFE:
		return "EDB";
	case 0xF7:
		return "PAD";
	case 0x1C:
		return "SKP";
	case 0x3C:
		return "FTS";
	case 0x7C:
		return "IDL";
	case 0xFC:
		return "EIE";
	default:
		return NULL;
	}
}

static void vcd_symbol(void *ctx, enum link_dir dir, unsigned lane, const struct lane_pos *pos,
                       uint8_t raw, uint8_t descrambled, unsigned flags)
{
	struct sym_seen *s = ctx;
	(void)raw;
	if (lane >= LANE_MAX || (flags & LANE_SYM_NONE) || s->n[dir][lane] >= VCD_DUMP_SYMBOLS)
		return;
	char *t = s->text[dir][lane] + strlen(s->text[dir][lane]);
	const char *name = (flags & LANE_SYM_K) ? k_name(descrambled) : NULL;
	if (s->n[dir][lane] == 0)
		s->first[dir][lane] = *pos;
	if (flags & LANE_SYM_ERROR)
		sprintf(t, " ERR");
	else if (name)
		sprintf(t, " %s", name);
	else if (flags & LANE_SYM_K)
		sprintf(t, " K%u.%u", descrambled & 31u, descrambled >> 5);
	else
		sprintf(t, (flags & LANE_SYM_OS) ? " %02x" : " %02X", descrambled);
	if (flags & LANE_SYM_DISPARITY)
		strcat(t, "!");
	s->n[dir][lane]++;
}

static bool symbols_full(const struct sym_seen *s, const struct lane_mapping *m)
{
	for (int d = 0; d < DIR_COUNT; d++)
		for (unsigned l = 0; m->dir[d].mapped && l < m->dir[d].lanes; l++)
			if (s->n[d][l] < VCD_DUMP_SYMBOLS)
				return false;
	return true;
}

void dump_vcd_note(FILE *msgs, const char *path, const struct reader *r)
{
	if (r->ops != &vcd_reader_ops)
		return;
	const struct lane_mapping *m = vcd_reader_mapping(r->state);
	if (m->autodetected || m->clock_autodetected)
		fprintf(msgs, "dllpcheck: %s: lanes %s: %s\n", path,
		        m->autodetected ? "found by name" : "mapped by --lanes", m->chose);
}

static void dump_vcd(FILE *out, const char *path, struct reader *r)
{
	const struct lane_mapping *m = vcd_reader_mapping(r->state);
	const struct vcd_parser *p = vcd_reader_parser(r->state);
	uint64_t fs = vcd_timescale_fs(p);
	static const char *const units[] = { "fs", "ps", "ns", "us", "ms", "s" };
	unsigned u = 0;
	uint64_t v = fs;
	while (v >= 1000 && v % 1000 == 0 && u < 5)
		v /= 1000, u++;

	fprintf(out, "file: %s\nformat: vcd (%zu variables)\n", path, vcd_var_count(p));
	fprintf(out, "timescale: %" PRIu64 " %s%s%s\n", v, units[u],
	        vcd_timescale_given(p) ? "" : " (none given: the default)",
	        fs < 1000 ? "; below 1 ps: times truncated to whole picoseconds" : "");
	fprintf(out, "mapping: %s\n", m->autodetected ? "found by name" : "from --lanes");
	if (m->chose[0])
		fprintf(out, "  chose: %s\n", m->chose);
	if (m->clock != LANE_VAR_NONE)
		fprintf(out, "clock: %s, %s edge (values just before it)%s\n",
		        vcd_var_at(p, m->clock)->path,
		        m->edge == LANE_EDGE_RISING ? "rising" : "falling",
		        m->clock_autodetected ? " (found by name)" : "");
	else
		fprintf(out, "symbol period: " TIME_PS_FMT " s, from the first change\n",
		        TIME_PS_ARGS(m->period_ps));
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct lane_dir_map *dm = &m->dir[d];
		if (!dm->mapped) {
			fprintf(out, "%s: not mapped\n", link_dir_name((enum link_dir)d));
			continue;
		}
		fprintf(out, "%s: %s, x%u, %u bits per lane\n", link_dir_name((enum link_dir)d),
		        lane_form_name(dm->form), dm->lanes, dm->data_bits);
		for (unsigned l = 0; l < dm->lanes; l++) {
			fprintf(out, "  lane %u:", l);
			for (int k = 0; k < LANE_KEY_COUNT; k++) {
				if (dm->var[k][l] == LANE_VAR_NONE)
					continue;
				const struct vcd_var *var = vcd_var_at(p, dm->var[k][l]);
				fprintf(out, " %s=%s (%u bits, line %" PRIu64 ")",
				        lane_key_name((enum lane_key)k), var->path, var->width,
				        var->line);
			}
			fputc('\n', out);
		}
	}
	/* the first records, and meanwhile the first symbols of each lane */
	struct sym_seen *seen = calloc(1, sizeof(*seen));
	if (!seen)
		return;
	vcd_reader_observe(r->state, vcd_symbol, seen);
	fprintf(out, "records:\n");
	unsigned shown = 0;
	for (;;) {
		struct record rec;
		struct reader_malformed bad;
		struct packet pkt;
		if (shown >= VCD_DUMP_RECORDS && symbols_full(seen, m))
			break;
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF)
			break;
		if (shown >= VCD_DUMP_RECORDS)
			continue;
		shown++;
		if (res != READER_RECORD) {
			fprintf(out, "  line %" PRIu64 ": malformed: %s\n", bad.pos.line,
			        bad.reason);
			if (res == READER_FATAL)
				break;
			continue;
		}
		packet_decode(&rec, &pkt);
		fprintf(out, "  line %" PRIu64 ": ", rec.pos.line);
		decode_print_packet(out, &pkt);
	}
	if (shown == 0)
		fprintf(out, "  (none)\n");
	fprintf(out,
	        "symbols (the first %u of each lane, descrambled; K symbols by name, "
	        "ordered-set data in lower case, ERR a code error, ! a disparity error):\n",
	        VCD_DUMP_SYMBOLS);
	for (int d = 0; d < DIR_COUNT; d++) {
		for (unsigned l = 0; m->dir[d].mapped && l < m->dir[d].lanes; l++) {
			if (seen->n[d][l] == 0) {
				fprintf(out, "  %s lane %u: (no symbol)\n",
				        link_dir_name((enum link_dir)d), l);
				continue;
			}
			fprintf(out,
			        "  %s lane %u (from t=" TIME_PS_FMT " s, line %" PRIu64 "):%s\n",
			        link_dir_name((enum link_dir)d), l,
			        TIME_PS_ARGS(seen->first[d][l].time_ps), seen->first[d][l].line,
			        seen->text[d][l]);
		}
	}
	vcd_reader_observe(r->state, NULL, NULL);
	free(seen);
}

void dump_columns(FILE *out, const char *path, struct reader *r)
{
	struct csv_layout_info l;
	char buf[64];

	if (r->ops == &vcd_reader_ops) {
		dump_vcd(out, path, r);
		return;
	}
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
