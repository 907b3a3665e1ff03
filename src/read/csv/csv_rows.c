/* csv_rows.c: one data row of an export to one record: raw bytes (framing
 * stripped), or decoded fields encoded without CRC (REC_F_NO_CRC), or a
 * link event; a row that cannot be read says why and where (the 1-based
 * byte column of its cell).  specification: capture-format.md section 3;
 * the rules in reader_csv.c's header. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/ascii.h"
#include "base/attrs.h"
#include "base/number.h"
#include "base/text_quote.h"
#include "base/time_unit.h"
#include "core/record.h"
#include "read/csv/csv_internal.h"
#include "read/packet_build.h"
#include "read/reader.h"
#include "wire/dllp.h"
#include "wire/fc_arith.h"
#include "wire/tlp.h"

static bool row_fail(struct row *w, unsigned col, const char *fmt, ...) PRINTF_LIKE(3, 4);

static bool row_fail(struct row *w, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->bad->reason, sizeof(w->bad->reason), fmt, ap);
	va_end(ap);
	w->bad->column = col;
	return false;
}

/* "hdr-fc (column 5 'HdrFC')": which export column a message is about. */
static const char *where(const struct row *w, enum csv_field f, char *buf, size_t size)
{
	const struct csv_reader *r = w->r;
	int c = r->field_col[f];

	if (c >= 0 && (unsigned)c < r->ncols)
		snprintf(buf, size, "%s (column %d '%s')", csv_field_names[f], c + 1,
		         r->cols[c].name);
	else if (c >= 0)
		snprintf(buf, size, "%s (column %d)", csv_field_names[f], c + 1);
	else
		snprintf(buf, size, "%s", csv_field_names[f]);
	return buf;
}

static const struct csv_cell *cell_of(const struct row *w, enum csv_field f)
{
	const struct csv_reader *r = w->r;
	int c = r->field_col[f];

	if (c < 0 || (unsigned)c >= r->ncells || r->cells[c].len == 0)
		return NULL;
	return &r->cells[c];
}

static const char *cell_text(const struct row *w, const struct csv_cell *c)
{
	return w->r->line + c->off;
}

/* The unit written after a count. */
enum count_unit { CU_NONE, CU_BYTES, CU_DW, CU_INF };

static bool count_unit_parse(const char *s, size_t len, enum count_unit *u)
{
	static const struct {
		const char *name;
		enum count_unit u;
	} units[] = {
		{ "", CU_NONE },           { "credits", CU_NONE }, { "credit", CU_NONE },
		{ "cr", CU_NONE },         { "headers", CU_NONE }, { "hdrs", CU_NONE },
		{ "bytes", CU_BYTES },     { "byte", CU_BYTES },   { "b", CU_BYTES },
		{ "databytes", CU_BYTES }, { "dw", CU_DW },        { "dws", CU_DW },
		{ "dword", CU_DW },        { "dwords", CU_DW },
	};
	char w[24];

	if (!csv_squeeze(s, len, w, sizeof(w)))
		return false;
	for (size_t i = 0; i < ARRAY_LEN(units); i++) {
		if (strcmp(w, units[i].name) == 0) {
			*u = units[i].u;
			return true;
		}
	}
	return false;
}

/* A count cell: decimal (grouping allowed) or 0x hex, an optional unit
 * word ("16128 data bytes", "16 DW"), or inf/infinite (0). */
static bool cell_count(struct row *w, enum csv_field f, const struct csv_cell *c, uint64_t *v,
                       enum count_unit *u)
{
	char q[QUOTE_BUF], at[96], sq[16];
	const char *s = cell_text(w, c);
	size_t len = c->len;
	struct number_dec n;

	*u = CU_NONE;
	if (csv_squeeze(s, len, sq, sizeof(sq)) &&
	    (strcmp(sq, "inf") == 0 || strcmp(sq, "infinite") == 0 ||
	     strcmp(sq, "infinity") == 0)) {
		*v = 0;
		*u = CU_INF;
		return true;
	}
	if (len > 2 && s[0] == '0' && ascii_lower(s[1]) == 'x') {
		bool too_big;

		/* a digit that is none, or over 64 bits: both "not a number" */
		if (!number_parse_u64(s, len, false, v, &too_big) || too_big)
			return row_fail(w, c->col, "%s: '%s' is not a number",
			                where(w, f, at, sizeof(at)), text_quote(q, s, len));
		return true;
	}
	number_scan_decimal(s, len, false, &n);
	if (!n.any || (n.neg && n.nd > 0) || !number_dec_is_whole(&n) ||
	    !count_unit_parse(s + n.used, len - n.used, u))
		return row_fail(w, c->col, "%s: '%s' is not a whole number",
		                where(w, f, at, sizeof(at)), text_quote(q, s, len));
	if (!number_dec_to_u64(&n, 0, v))
		return row_fail(w, c->col, "%s: '%s' is too large", where(w, f, at, sizeof(at)),
		                text_quote(q, s, len));
	return true;
}

/* An optional (or required) plain count in min..max. */
static bool field_uint(struct row *w, enum csv_field f, uint32_t min, uint32_t max, bool required,
                       const char *what, uint32_t *out, bool *given)
{
	char q[QUOTE_BUF], at[96];
	const struct csv_cell *c = cell_of(w, f);
	enum count_unit u;
	uint64_t v;

	*given = c != NULL;
	if (c == NULL) {
		if (required)
			return row_fail(w, 1, "%s has no %s", what, where(w, f, at, sizeof(at)));
		return true;
	}
	if (!cell_count(w, f, c, &v, &u))
		return false;
	if (u == CU_BYTES && f == CSV_F_LENGTH) {
		if (v % 4 != 0)
			return row_fail(w, c->col, "%s: %" PRIu64 " bytes is not a whole DW",
			                where(w, f, at, sizeof(at)), v);
		v /= 4;
	} else if (u == CU_BYTES || u == CU_INF) {
		return row_fail(w, c->col, "%s: '%s' is not a plain number",
		                where(w, f, at, sizeof(at)),
		                text_quote(q, cell_text(w, c), c->len));
	}
	if (v < min || v > max)
		return row_fail(w, c->col, "%s: %" PRIu64 " out of range %u..%u",
		                where(w, f, at, sizeof(at)), v, min, max);
	*out = (uint32_t)v;
	return true;
}

/* Whether a ',' in a time cell is a decimal point: when it cannot be the
 * delimiter (issue 12; headerless agilent-dump lines have none).  Counts
 * never take one: "1,000" credits could be a thousands separator, so a
 * comma there stays malformed rather than read as 1. */
static bool decimal_comma(const struct csv_reader *r)
{
	return r->layout != CSV_LAYOUT_FPGA &&
	       !(r->layout == CSV_LAYOUT_DELIMITED && r->delim == ',');
}

static bool row_time(struct row *w)
{
	char q[QUOTE_BUF], at[96];
	const struct csv_cell *c = cell_of(w, CSV_F_TIME);
	const struct csv_reader *r = w->r;
	const char *why = NULL, *s, *u;
	size_t len, ulen;
	struct number_dec n;
	uint64_t ticks;

	if (r->field_col[CSV_F_TIME] < 0) {
		w->time_ps = 0;
		return true;
	}
	if (c == NULL)
		return row_fail(w, 1, "no %s", where(w, CSV_F_TIME, at, sizeof(at)));
	s = cell_text(w, c);
	len = c->len;
	number_scan_decimal(s, len, decimal_comma(r), &n);
	u = s + n.used;
	ulen = len - n.used;
	csv_trim(&u, &ulen);
	if (!r->time_ticks || ulen > 0) {
		if (csv_parse_time_comma(s, len, r->time_pow, decimal_comma(r), &w->time_ps, &why))
			return true;
	} else if (!n.any || (n.neg && n.nd > 0) || !number_dec_is_whole(&n)) {
		why = "not a whole number of clock ticks";
	} else if (!number_dec_to_u64(&n, 0, &ticks) ||
	           !time_ticks_to_ps(ticks, r->o.clock_period_fs, &w->time_ps) ||
	           w->time_ps > (uint64_t)INT64_MAX) {
		why = "time over 2^63-1 ps";
	} else {
		return true;
	}
	return row_fail(w, c->col, "%s: '%s': %s", where(w, CSV_F_TIME, at, sizeof(at)),
	                text_quote(q, s, len), why);
}

static bool row_dir(struct row *w, const char *s, size_t len, unsigned col)
{
	char q[QUOTE_BUF], at[96];

	if (len == 0)
		return row_fail(w, col, "no %s", where(w, CSV_F_DIR, at, sizeof(at)));
	if (csv_parse_dir(s, len, &w->r->o, &w->dir)) {
		/* a row that fails later still says who sent it */
		w->bad->has_dir = true;
		w->bad->dir = w->dir;
		return true;
	}
	return row_fail(w, col,
	                "%s: '%s' is not a direction (Downstream/DS/Down/->, "
	                "Upstream/US/Up/<-, or --dir-map VALUE=down|up)",
	                where(w, CSV_F_DIR, at, sizeof(at)), text_quote(q, s, len));
}

/* ---- raw bytes ---- */

/* The bytes of a raw cell s[0 .. len) at byte column col, in
 * r->bytes (as many as fit, *count all of them), or why not. */
static bool row_hex(struct row *w, const char *s, size_t len, unsigned col, size_t *count)
{
	char q[QUOTE_BUF];
	struct csv_hex h;

	switch (csv_hex_bytes(s, len, w->r->bytes, sizeof(w->r->bytes), &h)) {
	case CSV_HEX_OK:
		break;
	case CSV_HEX_BAD:
		return row_fail(w, col + (unsigned)h.tok_off, "raw bytes: bad hex '%s'",
		                text_quote(q, s + h.tok_off, h.tok_len));
	case CSV_HEX_ODD:
		return row_fail(w, col + (unsigned)h.tok_off,
		                "raw bytes: odd number of hex digits in '%s'",
		                text_quote(q, s + h.tok_off, h.tok_len));
	}
	*count = h.count;
	return true;
}

/* Takes off SDP..END / STP..END|EDB; the start symbol says the kind. */
static void strip_framing(const uint8_t **b, size_t *n, enum rec_kind *kind)
{
	if (*n == 0)
		return;
	if ((*b)[0] == 0x5C) {
		*kind = REC_DLLP;
	} else if ((*b)[0] == 0xFB) {
		*kind = REC_TLP;
	} else {
		return;
	}
	(*b)++;
	(*n)--;
	if (*n > 0 && ((*b)[*n - 1] == 0xFD || ((*b)[*n - 1] == 0xFE && *kind == REC_TLP)))
		(*n)--;
}

/* hint: REC_DLLP or REC_TLP from a type column, 0 when none. */
static bool row_raw(struct row *w, const char *s, size_t len, unsigned col, enum csv_field f,
                    int hint)
{
	char at[96];
	struct csv_reader *r = w->r;
	size_t n = 0;
	const uint8_t *b = r->bytes;
	enum rec_kind kind = (enum rec_kind)0;

	if (!row_hex(w, s, len, col, &n))
		return false;
	if (n > sizeof(r->bytes))
		return row_fail(w, col, "%s: %zu bytes, more than a TLP record holds",
		                where(w, f, at, sizeof(at)), n);
	if (n == 0)
		return row_fail(w, col, "%s: no bytes", where(w, f, at, sizeof(at)));
	strip_framing(&b, &n, &kind);
	if (kind == 0)
		kind = hint                                          ? (enum rec_kind)hint
		       : n == DLLP_WIRE_LEN || n == DLLP_CONTENT_LEN ? REC_DLLP
		                                                     : REC_TLP;
	if (kind == REC_DLLP) {
		if (n != DLLP_WIRE_LEN && n != DLLP_CONTENT_LEN)
			return row_fail(w, col,
			                "%s: a DLLP is 6 bytes (4 without CRC), "
			                "this one %zu",
			                where(w, f, at, sizeof(at)), n);
		if (n == DLLP_CONTENT_LEN)
			w->flags |= REC_F_NO_CRC;
	} else if (n > TLP_MAX_RECORD_LEN) {
		return row_fail(w, col, "%s: a TLP record is at most %u bytes, this one %zu",
		                where(w, f, at, sizeof(at)), (unsigned)TLP_MAX_RECORD_LEN, n);
	}
	w->kind = kind;
	w->bytes = b;
	w->len = (uint32_t)n;
	return true;
}

/* ---- decoded fields ---- */

/* DataFC: a field value, or bytes ("16128 data bytes") turned into
 * credits (16 bytes each) and then into the field at the data scale. */
static bool row_data_fc(struct row *w, unsigned scale, uint32_t *field)
{
	char at[96];
	const struct csv_cell *c = cell_of(w, CSV_F_DATA_FC);
	enum count_unit u;
	uint64_t v;

	if (c == NULL)
		return row_fail(w, 1, "FC DLLP has no %s", where(w, CSV_F_DATA_FC, at, sizeof(at)));
	if (!cell_count(w, CSV_F_DATA_FC, c, &v, &u))
		return false;
	if (u == CU_DW)
		return row_fail(w, c->col, "%s: give credits or bytes",
		                where(w, CSV_F_DATA_FC, at, sizeof(at)));
	if (u == CU_BYTES || (u == CU_NONE && w->r->data_fc_bytes)) {
		unsigned shift = fc_scale_shift(scale);

		if (v % 16 != 0)
			return row_fail(w, c->col,
			                "%s: %" PRIu64 " bytes is not whole credits "
			                "(16 bytes each)",
			                where(w, CSV_F_DATA_FC, at, sizeof(at)), v);
		v /= 16;
		if (v & ((UINT64_C(1) << shift) - 1))
			return row_fail(w, c->col,
			                "%s: %" PRIu64 " credits do not fit data "
			                "scale %u",
			                where(w, CSV_F_DATA_FC, at, sizeof(at)), v, scale);
		v >>= shift;
	}
	if (v > FC_DATA_FIELD_MAX)
		return row_fail(w, c->col, "%s: %" PRIu64 " out of range 0..%u",
		                where(w, CSV_F_DATA_FC, at, sizeof(at)), v, FC_DATA_FIELD_MAX);
	*field = (uint32_t)v;
	return true;
}

static bool row_hdr_fc(struct row *w, uint32_t *field)
{
	char at[96];
	const struct csv_cell *c = cell_of(w, CSV_F_HDR_FC);
	enum count_unit u;
	uint64_t v;

	if (c == NULL)
		return row_fail(w, 1, "FC DLLP has no %s", where(w, CSV_F_HDR_FC, at, sizeof(at)));
	if (!cell_count(w, CSV_F_HDR_FC, c, &v, &u))
		return false;
	if (u == CU_BYTES || u == CU_DW)
		return row_fail(w, c->col, "%s: header credits are a count",
		                where(w, CSV_F_HDR_FC, at, sizeof(at)));
	if (v > FC_HDR_FIELD_MAX)
		return row_fail(w, c->col, "%s: %" PRIu64 " out of range 0..%u",
		                where(w, CSV_F_HDR_FC, at, sizeof(at)), v, FC_HDR_FIELD_MAX);
	*field = (uint32_t)v;
	return true;
}

/* The VC of a row: its VC column and/or "(VC1)" in the type name. */
static bool row_vc(struct row *w, const struct csv_type *t, unsigned min, const char *what,
                   unsigned col, uint32_t *vc)
{
	char at[96];
	const struct csv_cell *c = cell_of(w, CSV_F_VC);
	bool given;

	if (!field_uint(w, CSV_F_VC, min, 7, false, what, vc, &given))
		return false;
	if (c != NULL && t->vc >= 0 && (uint32_t)t->vc != *vc)
		return row_fail(w, c->col, "%s: VC%u, but the type says VC%d",
		                where(w, CSV_F_VC, at, sizeof(at)), *vc, t->vc);
	if (!given && t->vc >= 0) {
		if ((unsigned)t->vc < min)
			return row_fail(w, col, "%s on VC%d", what, t->vc);
		*vc = (uint32_t)t->vc;
		given = true;
	}
	if (!given)
		return row_fail(w, col, "%s has no VC (no %s and none in the type)", what,
		                where(w, CSV_F_VC, at, sizeof(at)));
	return true;
}

static bool row_fc_dllp(struct row *w, const struct csv_type *t, unsigned col,
                        struct packet_dllp *b)
{
	const char *what = dllp_type_name(t->dllp_type);
	uint32_t vc = 0, hdr = 0, data = 0, hs = 0, ds = 0;
	bool given;

	if (!row_vc(w, t, 0, what, col, &vc) ||
	    !field_uint(w, CSV_F_HDR_SCALE, 0, 3, false, what, &hs, &given) ||
	    !field_uint(w, CSV_F_DATA_SCALE, 0, 3, false, what, &ds, &given) ||
	    !row_hdr_fc(w, &hdr) || !row_data_fc(w, ds, &data))
		return false;
	b->cls = t->fc_class;
	b->vc = vc;
	b->hdr_fc = hdr;
	b->data_fc = data;
	b->hdr_scale = hs;
	b->data_scale = ds;
	return true;
}

static bool row_dllp_fields(struct row *w, const struct csv_type *t, unsigned col)
{
	struct packet_dllp b;
	uint32_t seq;
	bool given;

	memset(&b, 0, sizeof(b));
	b.type = t->dllp_type;
	b.type_byte = t->type_byte;
	if (dllp_is_fc(t->dllp_type)) {
		if (!row_fc_dllp(w, t, col, &b))
			return false;
	} else if (t->dllp_type == DLLP_ACK || t->dllp_type == DLLP_NAK) {
		enum csv_field f = cell_of(w, CSV_F_ACKNAK_SEQ) ? CSV_F_ACKNAK_SEQ : CSV_F_SEQ;

		if (!field_uint(w, f, 0, DL_SEQ_MAX, true, dllp_type_name(t->dllp_type), &seq,
		                &given))
			return false;
		b.seq = seq;
	}
	/* The 4 content bytes only: the CRC of this row is unknown. */
	b.crc = PACKET_CRC_NONE;
	w->kind = REC_DLLP;
	w->bytes = w->r->bytes;
	w->len = packet_build_dllp(&b, w->r->bytes, &w->flags);
	return true;
}

static bool row_tlp_fields(struct row *w, const struct csv_type *t, unsigned col)
{
	struct packet_tlp b;
	uint32_t seq = 0, len = 1, tc = 0;
	bool has_seq, has_len, given;
	bool len_optional = packet_tlp_length_optional(t->tlp_kind);
	const char *what = tlp_kind_name(t->tlp_kind);
	uint32_t n;

	if (!field_uint(w, CSV_F_SEQ, 0, DL_SEQ_MAX, false, what, &seq, &has_seq) ||
	    !field_uint(w, CSV_F_LENGTH, 1, 1024, !len_optional, what, &len, &has_len) ||
	    !field_uint(w, CSV_F_TC, 0, 7, false, what, &tc, &given))
		return false;
	if (w->r->length_bytes && has_len) {
		unsigned lcol = cell_of(w, CSV_F_LENGTH) ? cell_of(w, CSV_F_LENGTH)->col : 1;

		if (len % 4 != 0)
			return row_fail(w, lcol, "length: %u bytes is not a whole DW", len);
		len /= 4;
		if (len == 0)
			return row_fail(w, lcol, "length: 0 DW");
	}
	memset(&b, 0, sizeof(b));
	b.kind = t->tlp_kind;
	b.addr64 = t->addr64;
	b.has_seq = has_seq;
	b.seq = seq;
	b.has_length = has_len;
	b.length_dw = len;
	b.tc = tc;
	b.lcrc = PACKET_CRC_NONE; /* the LCRC of this row is unknown */
	n = packet_build_tlp(&b, w->r->bytes, TLP_MAX_RECORD_LEN, &w->flags);
	if (n == 0)
		return row_fail(w, col, "%s cannot be encoded with these fields", what);
	w->kind = REC_TLP;
	w->bytes = w->r->bytes;
	w->len = n;
	return true;
}

static bool row_event(struct row *w, const struct csv_type *t, unsigned col)
{
	uint32_t vc = 0;

	if (t->event == EV_VC_ENABLE && !row_vc(w, t, 1, "vc-enable", col, &vc))
		return false;
	w->kind = REC_EVENT;
	w->bytes = w->r->bytes;
	w->len = packet_build_event(t->event, vc, w->r->bytes);
	return true;
}

/* The type cells of a row, most specific first. */
struct row_type {
	struct csv_type t; /* the specific type, if any */
	unsigned col; /* its cell's column */
	bool specific;
	int hint; /* REC_DLLP / REC_TLP / REC_EVENT, 0 */
	bool skip;
	bool any_cell;
	const struct csv_cell *unknown; /* a cell naming nothing known */
	enum csv_field unknown_field;
};

static int kind_hint(enum csv_type_kind k)
{
	switch (k) {
	case CSV_T_DLLP:
	case CSV_T_DLLP_ANY:
		return REC_DLLP;
	case CSV_T_TLP:
	case CSV_T_TLP_ANY:
		return REC_TLP;
	case CSV_T_EVENT:
	case CSV_T_EVENT_ANY:
		return REC_EVENT;
	default:
		return 0;
	}
}

static void row_types(const struct row *w, struct row_type *rt)
{
	static const enum csv_field order[] = {
		CSV_F_DLLP_TYPE,
		CSV_F_TLP_TYPE,
		CSV_F_KIND,
	};

	memset(rt, 0, sizeof(*rt));
	for (size_t i = 0; i < ARRAY_LEN(order); i++) {
		const struct csv_cell *c = cell_of(w, order[i]);
		struct csv_type t;

		if (c == NULL)
			continue;
		rt->any_cell = true;
		csv_parse_type(cell_text(w, c), c->len, &t);
		if (t.kind == CSV_T_UNKNOWN && rt->unknown == NULL) {
			rt->unknown = c;
			rt->unknown_field = order[i];
		}
		rt->skip |= t.kind == CSV_T_SKIP;
		if (rt->hint == 0)
			rt->hint = kind_hint(t.kind);
		if (!rt->specific &&
		    (t.kind == CSV_T_DLLP || t.kind == CSV_T_TLP || t.kind == CSV_T_EVENT)) {
			rt->t = t;
			rt->col = c->col;
			rt->specific = true;
			rt->hint = kind_hint(t.kind);
		}
	}
}

/* The packet of a row with cells: raw bytes, or the decoded fields. */
static bool row_packet(struct row *w, const struct row_type *rt)
{
	char q[QUOTE_BUF], at[96];
	const struct csv_cell *raw = cell_of(w, CSV_F_RAW);

	if (rt->specific && rt->t.kind == CSV_T_EVENT)
		return row_event(w, &rt->t, rt->col);
	if (raw != NULL)
		return row_raw(w, cell_text(w, raw), raw->len, raw->col, CSV_F_RAW,
		               rt->hint == REC_EVENT ? 0 : rt->hint);
	if (rt->specific && rt->t.kind == CSV_T_DLLP)
		return row_dllp_fields(w, &rt->t, rt->col);
	if (rt->specific && rt->t.kind == CSV_T_TLP)
		return row_tlp_fields(w, &rt->t, rt->col);
	if (rt->unknown != NULL)
		return row_fail(w, rt->unknown->col, "%s: unknown packet type '%s'",
		                where(w, rt->unknown_field, at, sizeof(at)),
		                text_quote(q, cell_text(w, rt->unknown), rt->unknown->len));
	if (rt->any_cell)
		return row_fail(w, 1, "neither raw bytes nor a DLLP/TLP type with fields");
	return row_fail(w, 1, "no raw bytes and no packet type");
}

static enum row_result row_from_cells(struct row *w)
{
	char at[96];
	const struct csv_cell *dc, *lc;
	struct row_type rt;
	uint32_t link = 0;
	bool given;

	row_types(w, &rt);
	if (rt.skip && !rt.specific)
		return ROW_SKIP;
	if (!row_time(w))
		return ROW_MALFORMED;
	dc = cell_of(w, CSV_F_DIR);
	if (dc == NULL) {
		row_fail(w, 1, "no %s", where(w, CSV_F_DIR, at, sizeof(at)));
		return ROW_MALFORMED;
	}
	if (!row_dir(w, cell_text(w, dc), dc->len, dc->col))
		return ROW_MALFORMED;
	lc = cell_of(w, CSV_F_LINK);
	if (lc != NULL && !field_uint(w, CSV_F_LINK, 0, 255, false, "row", &link, &given))
		return ROW_MALFORMED;
	w->link = (uint8_t)link;
	return row_packet(w, &rt) ? ROW_RECORD : ROW_MALFORMED;
}

static enum row_result row_agilent(struct row *w)
{
	struct csv_reader *r = w->r;
	const struct agilent_line a = r->agilent;
	const char *why;
	char q[QUOTE_BUF];

	if (!r->agilent_ok) {
		row_fail(w, 1,
		         "not an analyzer record line "
		         "('DS|US Record N @ TIME: HEX')");
		return ROW_MALFORMED;
	}
	if (!row_dir(w, r->line + a.dir_off, a.dir_len, (unsigned)a.dir_off + 1))
		return ROW_MALFORMED;
	if (!csv_parse_time_comma(r->line + a.time_off, a.time_len, 12, decimal_comma(r),
	                          &w->time_ps, &why)) {
		row_fail(w, (unsigned)a.time_off + 1, "time '%s': %s",
		         text_quote(q, r->line + a.time_off, a.time_len), why);
		return ROW_MALFORMED;
	}
	return row_raw(w, r->line + a.hex_off, r->line_len - a.hex_off, (unsigned)a.hex_off + 1,
	               CSV_F_RAW, 0)
	               ? ROW_RECORD
	               : ROW_MALFORMED;
}

static enum row_result row_fpga(struct row *w)
{
	struct csv_reader *r = w->r;
	struct csv_cell *c = r->cells;
	const char *why;
	char q[QUOTE_BUF];
	const struct time_unit *u;

	if (r->ncells < 4) {
		row_fail(w, 1,
		         "a sniffer line is 'DIR, TIME, UNIT, 0xNN, ...': "
		         "%u fields",
		         r->ncells);
		return ROW_MALFORMED;
	}
	if (!row_dir(w, r->line + c[0].off, c[0].len, c[0].col))
		return ROW_MALFORMED;
	u = time_unit_find_nocase(r->line + c[2].off, c[2].len);
	if (u == NULL) {
		row_fail(w, c[2].col, "time unit '%s' (fs ps ns us ms s)",
		         text_quote(q, r->line + c[2].off, c[2].len));
		return ROW_MALFORMED;
	}
	if (!csv_parse_time(r->line + c[1].off, c[1].len, u->pow10, &w->time_ps, &why)) {
		row_fail(w, c[1].col, "time '%s': %s", text_quote(q, r->line + c[1].off, c[1].len),
		         why);
		return ROW_MALFORMED;
	}
	return row_raw(w, r->line + c[3].off, r->line_len - c[3].off, c[3].col, CSV_F_RAW, 0)
	               ? ROW_RECORD
	               : ROW_MALFORMED;
}

/* Splits the current line into r->cells by the layout; false (with the
 * reason) for a quote that never closes. */
static bool split_row(struct csv_reader *r, struct row *w)
{
	unsigned unterminated = 0;

	switch (r->layout) {
	case CSV_LAYOUT_DELIMITED:
	case CSV_LAYOUT_FPGA:
		r->ncells = csv_split_delimited(r->line, r->line_len,
		                                r->layout == CSV_LAYOUT_FPGA ? ',' : r->delim,
		                                r->cells, CSV_MAX_COLS, &unterminated);
		break;
	case CSV_LAYOUT_ALIGNED:
		r->ncells = csv_split_aligned(r, r->line, r->line_len, r->cells);
		break;
	case CSV_LAYOUT_BLANKS:
		r->ncells = csv_split_blanks(r->line, r->line_len, 1, r->cells, CSV_MAX_COLS);
		break;
	case CSV_LAYOUT_AGILENT:
		r->ncells = 0;
		/* once, for its record number and for the row itself */
		r->agilent_ok = csv_parse_agilent(r->line, r->line_len, &r->agilent);
		break;
	}
	if (unterminated != 0)
		return row_fail(w, unterminated, "quote opened here is not closed on this line");
	return true;
}

/* The analyzer's packet number of the current row: its packet-number
 * cell, or an agilent-dump line's record number.  Only a whole number
 * counts; any other content is no number, and a row is never malformed
 * for it (the number only helps the user find the row in the analyzer). */
static void row_packet_number(struct csv_reader *r)
{
	const char *s = NULL;
	size_t len = 0;
	struct number_dec n;
	int c = r->field_col[CSV_F_PACKET];

	if (r->layout == CSV_LAYOUT_AGILENT) {
		if (!r->agilent_ok)
			return;
		s = r->line + r->agilent.rec_off;
		len = r->agilent.rec_len;
	} else if (r->layout != CSV_LAYOUT_FPGA && c >= 0 && (unsigned)c < r->ncells) {
		s = r->line + r->cells[c].off;
		len = r->cells[c].len;
	}
	if (s == NULL)
		return;
	number_scan_decimal(s, len, false, &n);
	if (n.any && !n.neg && n.used == len && number_dec_is_whole(&n) &&
	    number_dec_to_u64(&n, 0, &r->row_packet) && r->row_packet <= (uint64_t)INT64_MAX)
		r->row_has_packet = true; /* reports carry it as a signed 64-bit integer */
}

enum row_result csv_parse_row(struct csv_reader *r, struct row *w)
{
	if (!split_row(r, w))
		return ROW_MALFORMED;
	row_packet_number(r);
	switch (r->layout) {
	case CSV_LAYOUT_AGILENT:
		return row_agilent(w);
	case CSV_LAYOUT_FPGA:
		return row_fpga(w);
	default:
		return row_from_cells(w);
	}
}
