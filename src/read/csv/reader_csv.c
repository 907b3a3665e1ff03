/* reader_csv.c: protocol-analyzer exports: delimited text with a header,
 * aligned text columns, and two headerless line layouts.
 * specification: capture-format.md section 3; issue 7 (the layouts,
 * aliases, values and options below are what the man page documents).
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
 * DataFC, scales, seq; TLP type, length, TC) are encoded here without CRC
 * (REC_F_NO_CRC): the CRC of such a row is unknown, never "good".  A TLP
 * row without a sequence number gets REC_F_NO_SEQ.  Link events are rows
 * whose type names one ("Link-Up", "vc-enable" with the VC column).
 * Ordered sets and idle rows (SKP, TS1, ...) are not records: skipped.
 *
 * Positions: line numbers are physical lines (quoted cells may not span
 * lines); record_no counts data rows, malformed ones included; the column
 * of a malformed row is the 1-based byte column where the offending cell
 * starts, and the reason names the export's column number and header name.
 *
 * Memory: one struct per reader (line, a scratch copy for header guesses,
 * cells, record bytes), nothing allocated per row; a line over
 * CSV_LINE_MAX bytes is one malformed row, consumed without being kept.
 * Hostile input costs time only.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ascii.h"
#include "base/attrs.h"
#include "base/text_quote.h"
#include "report/decode_print.h"
#include "wire/dllp.h"
#include "decode/packet.h"
#include "read/reader.h"
#include "read/csv/reader_csv.h"
#include "core/record.h"
#include "wire/tlp.h"

#define CSV_LINE_MAX 65536u
#define CSV_MAX_COLS 256u
#define CSV_HEADER_SEARCH 100u  /* lines searched for a header */
#define CSV_UNIT_MAX 16u
#define CSV_HEADER_COPY 1024u   /* header text kept for --dump-columns */
#define CSV_SNIFF_LINE 4096u    /* longest line csv_sniff() looks at */
#define CSV_DUMP_ROWS 3

/* A quoted token in a message keeps at most this many input bytes. */


#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

enum csv_layout {
	LAYOUT_DELIMITED,   /* a delimiter character */
	LAYOUT_ALIGNED,     /* columns cut at the header's positions */
	LAYOUT_BLANKS,      /* no header, columns split at blank runs */
	LAYOUT_AGILENT,
	LAYOUT_FPGA,
};

/* One cell of the current line: content line[off .. off+len), already
 * trimmed and unquoted; col is the 1-based byte column where it starts. */
struct csv_cell {
	uint32_t off, len, col;
};

struct csv_column {
	char name[CSV_NAME_MAX];   /* as written, trimmed (cut) */
	char norm[CSV_NAME_MAX];
	char unit[CSV_UNIT_MAX];
	uint32_t start, end;       /* the name's byte range in the header line */
	int field;                 /* what the aliases make of it, or -1 */
};

/* The shape of a delimited table whose columns may be unknown
 * (shape_feed(), issue 12): its header among the first SHAPE_BANNER_MAX
 * lines, then SHAPE_MIN_ROWS rows or more up to the end of the lines
 * looked at, or SHAPE_LONG_ROWS before a line of another shape (a
 * trailer). */
#define SHAPE_MIN_ROWS 2u
#define SHAPE_LONG_ROWS 16u
#define SHAPE_BANNER_MAX 16u
#define SHAPE_NAME_MAX 48u

struct shape {
	bool have;                 /* a candidate header */
	char delim;
	unsigned ncells, rows;
	unsigned lines;            /* lines fed, blank and comment lines not counted */
	bool digits;               /* a row has a cell starting with a digit */
};

enum shape_event { SHAPE_NONE, SHAPE_HEADER, SHAPE_ROW, SHAPE_BREAK };

/* A line kept while looking for the header. */
struct saved_line {
	uint64_t line_no, offset;
	size_t len;
	char text[CSV_SNIFF_LINE];
};

/* A table seen while looking for the header: its shape, header line and
 * first rows (which --dump-columns shows when no header is recognised). */
struct shape_keep {
	struct shape sh;
	struct saved_line header;
	struct saved_line rows[CSV_DUMP_ROWS];
	unsigned nrows;
};

/* Where a field's column came from, for --dump-columns. */
enum field_source { SRC_NONE, SRC_ALIAS, SRC_MAP };

struct csv_reader {
	FILE *fp;
	const char *name;
	struct csv_options o;
	enum csv_layout layout;
	char delim;
	bool delim_given;

	/* header */
	uint64_t header_line_no;   /* 0: none */
	char header_copy[CSV_HEADER_COPY];
	size_t header_len;         /* full length; copy cut at CSV_HEADER_COPY-1 */
	unsigned ncols;
	struct csv_column cols[CSV_MAX_COLS];
	int field_col[CSV_F_COUNT];        /* 0-based column, -1: none */
	enum field_source field_src[CSV_F_COUNT];
	int time_pow;              /* unitless times are 10^time_pow ps */
	bool time_ticks;           /* unitless times count --clock-period */
	bool data_fc_bytes;        /* the DataFC column is in bytes */
	bool length_bytes;         /* the Length column is in bytes */

	/* input position */
	uint64_t line_no, record_no, offset, line_start;
	bool pending;              /* line[] holds a data line not yet parsed */
	size_t line_len;
	bool line_too_long;
	bool after_header;         /* a "Radix -" line may come next */
	bool failed;
	int read_errno;
	bool stopped;              /* --strict ended the input */
	uint64_t row_packet;       /* the current row's packet-number cell, */
	bool row_has_packet;       /* when it holds a whole number */

	/* no header recognised: the table it may be (find_header()) */
	struct shape_keep shape_cur, shape_best;
	unsigned replay_pos;       /* --dump-columns: rows of shape_best given */
	bool replay_only;          /* ... and then the end */
	char problem[256];         /* --dump-columns: why it cannot be checked */

	unsigned ncells;
	struct csv_cell cells[CSV_MAX_COLS];
	char line[CSV_LINE_MAX + 1];
	char scratch[CSV_LINE_MAX + 1];
	uint8_t bytes[TLP_MAX_RECORD_LEN + 8];
};

/* ------------------------------------------------------------------ */
/* Characters and messages */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool starts_nocase(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	return len >= n && ascii_eq_nocase(s, n, word);
}

static void trim(const char **s, size_t *len)
{
	while (*len > 0 && is_blank(**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len > 0 && is_blank((*s)[*len - 1]))
		(*len)--;
}


static bool set_err(char *err, size_t errlen, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

static bool set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* Lower-case letters and digits only: "UpdateFC-P (VC0)" -> "updatefcpvc0".
 * Returns false when the result does not fit. */
static bool squeeze(const char *s, size_t len, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (!is_alnum(s[i]))
			continue;
		if (o + 1 >= size)
			return false;
		out[o++] = ascii_lower(s[i]);
	}
	out[o] = '\0';
	return true;
}

/* ------------------------------------------------------------------ */
/* Column names and aliases */

static bool name_dropped(char c)
{
	return is_blank(c) || c == '_' || c == '-' || c == '.' || c == '#';
}

/* Appends the normalised form of s[0..len) to out (size bytes). */
static void normalise_into(const char *s, size_t len, char *out, size_t size)
{
	size_t o = strlen(out);

	for (size_t i = 0; i < len && o + 1 < size; i++) {
		if (!name_dropped(s[i]))
			out[o++] = ascii_lower(s[i]);
	}
	out[o] = '\0';
}

void csv_normalise_name(const char *s, size_t len, char *name, size_t name_size,
                        char *unit, size_t unit_size)
{
	if (name_size > 0)
		name[0] = '\0';
	if (unit_size > 0)
		unit[0] = '\0';
	trim(&s, &len);
	for (size_t i = 0; i < len; i++) {
		char close = s[i] == '(' ? ')' : s[i] == '[' ? ']' : '\0';
		const char *end;

		if (close == '\0')
			continue;
		end = memchr(s + i + 1, close, len - i - 1);
		if (end == NULL)
			break;
		/* "Time (ns)": the name is what is outside, the unit inside. */
		if (name_size > 0)
			normalise_into(s, i, name, name_size);
		if (unit_size > 0)
			normalise_into(s + i + 1, (size_t)(end - s) - i - 1, unit, unit_size);
		if (name_size > 0)
			normalise_into(end + 1, len - (size_t)(end + 1 - s), name, name_size);
		return;
	}
	if (name_size > 0)
		normalise_into(s, len, name, name_size);
}

struct alias {
	const char *name;          /* normalised */
	enum csv_field field;
	bool ticks;
};

static const struct alias alias_table[] = {
	{ "timestamp", CSV_F_TIME, false }, { "time", CSV_F_TIME, false },
	{ "ts", CSV_F_TIME, false }, { "starttime", CSV_F_TIME, false },
	{ "abstime", CSV_F_TIME, false }, { "absolutetime", CSV_F_TIME, false },
	{ "elapsedtime", CSV_F_TIME, false }, { "elapsed", CSV_F_TIME, false },
	{ "ticks", CSV_F_TIME, true }, { "tick", CSV_F_TIME, true },
	{ "sample", CSV_F_TIME, true }, { "samples", CSV_F_TIME, true },
	{ "samplenumber", CSV_F_TIME, true }, { "cycle", CSV_F_TIME, true },
	{ "cycles", CSV_F_TIME, true },

	{ "direction", CSV_F_DIR, false }, { "dir", CSV_F_DIR, false },
	{ "linkdir", CSV_F_DIR, false }, { "linkdirection", CSV_F_DIR, false },
	{ "channel", CSV_F_DIR, false }, { "ch", CSV_F_DIR, false },
	{ "port", CSV_F_DIR, false }, { "side", CSV_F_DIR, false },

	{ "link", CSV_F_LINK, false }, { "linkid", CSV_F_LINK, false },
	{ "linkno", CSV_F_LINK, false }, { "linkindex", CSV_F_LINK, false },

	{ "packettype", CSV_F_KIND, false }, { "type", CSV_F_KIND, false },
	{ "protocol", CSV_F_KIND, false }, { "layer", CSV_F_KIND, false },
	{ "kind", CSV_F_KIND, false }, { "pkttype", CSV_F_KIND, false },

	{ "dllptype", CSV_F_DLLP_TYPE, false }, { "dllp", CSV_F_DLLP_TYPE, false },

	{ "tlptype", CSV_F_TLP_TYPE, false }, { "tlp", CSV_F_TLP_TYPE, false },
	{ "fmt", CSV_F_TLP_TYPE, false }, { "fmttype", CSV_F_TLP_TYPE, false },

	{ "vc", CSV_F_VC, false }, { "vcid", CSV_F_VC, false },
	{ "virtualchannel", CSV_F_VC, false },

	{ "hdrfc", CSV_F_HDR_FC, false }, { "headerfc", CSV_F_HDR_FC, false },
	{ "headercredits", CSV_F_HDR_FC, false }, { "hdrcredits", CSV_F_HDR_FC, false },

	{ "datafc", CSV_F_DATA_FC, false }, { "datacredits", CSV_F_DATA_FC, false },

	{ "hdrscale", CSV_F_HDR_SCALE, false }, { "headerscale", CSV_F_HDR_SCALE, false },
	{ "hdrfcscale", CSV_F_HDR_SCALE, false },
	{ "datascale", CSV_F_DATA_SCALE, false }, { "datafcscale", CSV_F_DATA_SCALE, false },

	{ "seq", CSV_F_SEQ, false }, { "seqnum", CSV_F_SEQ, false },
	{ "seqno", CSV_F_SEQ, false }, { "sequence", CSV_F_SEQ, false },
	{ "sequencenumber", CSV_F_SEQ, false }, { "tlpseq", CSV_F_SEQ, false },
	{ "tlpseqnum", CSV_F_SEQ, false },

	{ "acknakseqnum", CSV_F_ACKNAK_SEQ, false }, { "acknakseq", CSV_F_ACKNAK_SEQ, false },
	{ "acknakseqno", CSV_F_ACKNAK_SEQ, false }, { "ackseq", CSV_F_ACKNAK_SEQ, false },
	{ "ackseqnum", CSV_F_ACKNAK_SEQ, false },

	{ "length", CSV_F_LENGTH, false }, { "len", CSV_F_LENGTH, false },
	{ "tlplength", CSV_F_LENGTH, false }, { "tlplen", CSV_F_LENGTH, false },

	{ "tc", CSV_F_TC, false }, { "trafficclass", CSV_F_TC, false },

	{ "raw", CSV_F_RAW, false }, { "rawdata", CSV_F_RAW, false },
	{ "rawbytes", CSV_F_RAW, false }, { "bytes", CSV_F_RAW, false },
	{ "data", CSV_F_RAW, false }, { "hex", CSV_F_RAW, false },
	{ "hexdata", CSV_F_RAW, false }, { "payload", CSV_F_RAW, false },
	{ "symbols", CSV_F_RAW, false }, { "packetdata", CSV_F_RAW, false },

	/* The analyzer's own numbering of the rows ("Packet #", "No.",
	 * "Index", "Frame"; a bare "#" too, see column_field()). */
	{ "packet", CSV_F_PACKET, false }, { "packetnumber", CSV_F_PACKET, false },
	{ "packetno", CSV_F_PACKET, false }, { "packetnum", CSV_F_PACKET, false },
	{ "packetid", CSV_F_PACKET, false }, { "pkt", CSV_F_PACKET, false },
	{ "pktno", CSV_F_PACKET, false }, { "pktnum", CSV_F_PACKET, false },
	{ "pktnumber", CSV_F_PACKET, false }, { "pktid", CSV_F_PACKET, false },
	{ "no", CSV_F_PACKET, false }, { "nr", CSV_F_PACKET, false },
	{ "number", CSV_F_PACKET, false }, { "num", CSV_F_PACKET, false },
	{ "index", CSV_F_PACKET, false }, { "idx", CSV_F_PACKET, false },
	{ "frame", CSV_F_PACKET, false }, { "frameno", CSV_F_PACKET, false },
	{ "framenumber", CSV_F_PACKET, false }, { "framenum", CSV_F_PACKET, false },
};

static const char *const field_names[CSV_F_COUNT] = {
	[CSV_F_TIME] = "time", [CSV_F_DIR] = "dir", [CSV_F_LINK] = "link",
	[CSV_F_KIND] = "type", [CSV_F_DLLP_TYPE] = "dllp-type",
	[CSV_F_TLP_TYPE] = "tlp-type", [CSV_F_VC] = "vc",
	[CSV_F_HDR_FC] = "hdr-fc", [CSV_F_DATA_FC] = "data-fc",
	[CSV_F_HDR_SCALE] = "hdr-scale", [CSV_F_DATA_SCALE] = "data-scale",
	[CSV_F_SEQ] = "seq", [CSV_F_ACKNAK_SEQ] = "acknak-seq",
	[CSV_F_LENGTH] = "length", [CSV_F_TC] = "tc", [CSV_F_RAW] = "raw",
	[CSV_F_PACKET] = "packet",
};

const char *csv_field_name(enum csv_field f)
{
	return (unsigned)f < CSV_F_COUNT ? field_names[f] : "?";
}

int csv_field_lookup(const char *norm, bool *ticks)
{
	if (ticks != NULL)
		*ticks = false;
	for (size_t i = 0; i < ARRAY_LEN(alias_table); i++) {
		if (strcmp(alias_table[i].name, norm) == 0) {
			if (ticks != NULL)
				*ticks = alias_table[i].ticks;
			return (int)alias_table[i].field;
		}
	}
	return -1;
}

/* The field a header cell names (raw text s, normalised norm), or -1: its
 * aliases, and a bare "#" (normalised to nothing) for the packet number. */
static int column_field(const char *s, size_t len, const char *norm)
{
	if (norm[0] == '\0') {
		trim(&s, &len);
		return len == 1 && s[0] == '#' ? CSV_F_PACKET : -1;
	}
	return csv_field_lookup(norm, NULL);
}

/* Fields that make a line a header (with one more known column). */
static bool field_is_primary(int f)
{
	return f == CSV_F_TIME || f == CSV_F_KIND || f == CSV_F_DLLP_TYPE ||
	       f == CSV_F_TLP_TYPE || f == CSV_F_RAW;
}

/* ------------------------------------------------------------------ */
/* Splitting lines into cells */

/* Splits line[0..len) at delim, honouring "quoted" cells ("" is a quote
 * inside one); quoted content is unescaped in place.  Cells are trimmed.
 * Returns the number of cells (at most max; the rest are dropped);
 * *unterminated is the column of a quote that never closes, else 0. */
static unsigned split_delimited(char *line, size_t len, char delim,
                                struct csv_cell *cells, unsigned max,
                                unsigned *unterminated)
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
			while (p < len && line[p] != delim)
				p++;
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
static unsigned split_blanks(const char *line, size_t len, unsigned min_run,
                             struct csv_cell *cells, unsigned max)
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

static unsigned split_aligned(const struct csv_reader *r, const char *row,
                              size_t len, struct csv_cell *cells)
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

/* ------------------------------------------------------------------ */
/* Numbers */

/* A decimal number: value = digits * 10^exp10, with the digits kept as
 * text so nothing is lost to binary floating point. */
#define NUM_DIGITS 38
struct num {
	char dig[NUM_DIGITS];
	unsigned nd;
	int exp10;
	bool neg, any;
	size_t used;
};

/* Scans a number at the start of s: sign, digits (single blanks between
 * digits are thousands grouping: "0.000 001 234"), fraction, exponent.
 * With comma, a ',' is a decimal point as well as '.' ("0,000123", as
 * European locales write it): only for cells of an export whose delimiter
 * is not ','.  One decimal point at most, so "1,234.5" or "1.234,5" stop
 * at the second and are then no number of any unit. */
static void scan_number_dec(const char *s, size_t len, bool comma, struct num *n)
{
	size_t i = 0;
	bool in_frac = false;

	memset(n, 0, sizeof(*n));
	if (i < len && (s[i] == '+' || s[i] == '-')) {
		n->neg = s[i] == '-';
		i++;
	}
	for (;;) {
		if (i < len && is_digit(s[i])) {
			unsigned d = (unsigned)(s[i++] - '0');

			n->any = true;
			if (n->nd == 0 && d == 0) {
				n->exp10 -= in_frac;
			} else if (n->nd < NUM_DIGITS) {
				n->dig[n->nd++] = (char)d;
				n->exp10 -= in_frac;
			} else if (!in_frac) {
				n->exp10++;
			}
			continue;
		}
		if (i + 1 < len && s[i] == ' ' && n->any && is_digit(s[i - 1]) &&
		    is_digit(s[i + 1])) {
			i++;
			continue;
		}
		if (i + 1 < len && (s[i] == '.' || (comma && s[i] == ',')) && !in_frac &&
		    is_digit(s[i + 1])) {
			in_frac = true;
			i++;
			continue;
		}
		break;
	}
	if (n->any && i + 1 < len && (s[i] == 'e' || s[i] == 'E')) {
		size_t j = i + 1;
		bool eneg = false;
		int e = 0;

		if (j < len && (s[j] == '+' || s[j] == '-'))
			eneg = s[j++] == '-';
		if (j < len && is_digit(s[j])) {
			while (j < len && is_digit(s[j])) {
				if (e < 10000)
					e = e * 10 + (s[j] - '0');
				j++;
			}
			n->exp10 += eneg ? -e : e;
			i = j;
		}
	}
	n->used = i;
}

static void scan_number(const char *s, size_t len, struct num *n)
{
	scan_number_dec(s, len, false, n);
}

/* n * 10^pow rounded to the nearest integer; false when over 64 bits. */
static bool num_to_u64(const struct num *n, int pow, uint64_t *out)
{
	long e = (long)n->exp10 + pow;
	long keep = (long)n->nd + (e < 0 ? e : 0);
	uint64_t v = 0;

	*out = 0;
	if (n->nd == 0)
		return true;
	for (long i = 0; i < keep; i++) {
		unsigned d = (unsigned)n->dig[i];

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	if (e < 0) {
		if (keep >= 0 && keep < (long)n->nd && n->dig[keep] >= 5) {
			if (v == UINT64_MAX)
				return false;
			v++;
		}
	} else {
		for (long i = 0; i < e; i++) {
			if (v > UINT64_MAX / 10)
				return false;
			v *= 10;
		}
	}
	*out = v;
	return true;
}

/* No fraction: every digit past the decimal point is 0 ("16.0" is whole). */
static bool num_is_whole(const struct num *n)
{
	long first_frac = (long)n->nd + n->exp10;

	if (n->exp10 >= 0)
		return true;
	for (long i = first_frac < 0 ? 0 : first_frac; i < (long)n->nd; i++) {
		if (n->dig[i] != 0)
			return false;
	}
	return true;
}

struct unit_def {
	const char *name;          /* case-insensitive */
	int pow;                   /* 10^pow ps */
};

static const struct unit_def time_units[] = {
	{ "fs", -3 }, { "ps", 0 }, { "ns", 3 }, { "us", 6 },
	{ "\xc2\xb5s", 6 }, { "\xce\xbcs", 6 }, { "ms", 9 },
	{ "s", 12 }, { "sec", 12 },
};

static bool time_unit_lookup(const char *s, size_t len, int *pow)
{
	for (size_t i = 0; i < ARRAY_LEN(time_units); i++) {
		if (ascii_eq_nocase(s, len, time_units[i].name)) {
			*pow = time_units[i].pow;
			return true;
		}
	}
	return false;
}

/* A unit word naming clock ticks or samples. */
static bool ticks_unit(const char *s, size_t len)
{
	return ascii_eq_nocase(s, len, "ticks") || ascii_eq_nocase(s, len, "tick") ||
	       ascii_eq_nocase(s, len, "clk") || ascii_eq_nocase(s, len, "clks") ||
	       ascii_eq_nocase(s, len, "cycles") || ascii_eq_nocase(s, len, "samples") ||
	       ascii_eq_nocase(s, len, "sample");
}

/* csv_parse_time(), with decimal commas when comma is set. */
static bool parse_time(const char *s, size_t len, int default_pow, bool comma,
                       uint64_t *ps, const char **why)
{
	struct num n;
	const char *u;
	size_t ulen;
	int pow = default_pow;

	trim(&s, &len);
	scan_number_dec(s, len, comma, &n);
	if (!n.any) {
		*why = "not a time";
		return false;
	}
	if (n.neg && n.nd > 0) {
		*why = "negative time";
		return false;
	}
	u = s + n.used;
	ulen = len - n.used;
	trim(&u, &ulen);
	if (ulen > 0 && !time_unit_lookup(u, ulen, &pow)) {
		*why = "unknown time unit (fs ps ns us ms s)";
		return false;
	}
	/* Below 2^63 ps (106 days), as every reader: reports carry times as
	 * signed 64-bit integers (record.h). */
	if (!num_to_u64(&n, pow, ps) || *ps > (uint64_t)INT64_MAX) {
		*why = "time over 2^63-1 ps";
		return false;
	}
	return true;
}

bool csv_parse_time(const char *s, size_t len, int default_pow, uint64_t *ps,
                    const char **why)
{
	return parse_time(s, len, default_pow, false, ps, why);
}

/* A tick count times the clock period (fs) to ps, rounded; split so the
 * product overflows only past 2^64 ps. */
static bool ticks_to_ps(uint64_t ticks, uint64_t period_fs, uint64_t *ps)
{
	uint64_t whole = period_fs / 1000, frac = period_fs % 1000;
	uint64_t a, b;

	if (whole != 0 && ticks > UINT64_MAX / whole)
		return false;
	a = ticks * whole;
	if (frac != 0 && ticks > (UINT64_MAX - 500) / frac) {
		/* ticks * frac would overflow: divide first (loses < 1 ps). */
		b = ticks / 1000 * frac + (ticks % 1000 * frac + 500) / 1000;
	} else {
		b = (ticks * frac + 500) / 1000;
	}
	if (a > UINT64_MAX - b)
		return false;
	*ps = a + b;
	return true;
}

/* ------------------------------------------------------------------ */
/* Directions and types */

bool csv_parse_dir(const char *s, size_t len, const struct csv_options *o,
                   enum link_dir *dir)
{
	static const char *const downs[] = { "down", "downstream", "ds", "dn" };
	static const char *const ups[] = { "up", "upstream", "us" };
	char w[16];

	trim(&s, &len);
	for (unsigned i = 0; o != NULL && i < o->dir_map_count; i++) {
		if (ascii_eq_nocase(s, len, o->dir_map[i].value)) {
			*dir = o->dir_map[i].dir;
			return true;
		}
	}
	if (ascii_eq_nocase(s, len, "->")) {
		*dir = DIR_DOWN;
		return true;
	}
	if (ascii_eq_nocase(s, len, "<-")) {
		*dir = DIR_UP;
		return true;
	}
	if (!squeeze(s, len, w, sizeof(w)))
		return false;
	for (size_t i = 0; i < ARRAY_LEN(downs); i++) {
		if (strcmp(w, downs[i]) == 0) {
			*dir = DIR_DOWN;
			return true;
		}
	}
	for (size_t i = 0; i < ARRAY_LEN(ups); i++) {
		if (strcmp(w, ups[i]) == 0) {
			*dir = DIR_UP;
			return true;
		}
	}
	return false;
}

struct type_name {
	const char *name;          /* squeezed */
	enum csv_type_kind kind;
	unsigned code;             /* dllp_type, or link_event */
};

static const struct type_name type_names[] = {
	{ "dllp", CSV_T_DLLP_ANY, 0 }, { "datalink", CSV_T_DLLP_ANY, 0 },
	{ "datalinklayer", CSV_T_DLLP_ANY, 0 }, { "dll", CSV_T_DLLP_ANY, 0 },
	{ "link", CSV_T_DLLP_ANY, 0 },
	{ "tlp", CSV_T_TLP_ANY, 0 }, { "transaction", CSV_T_TLP_ANY, 0 },
	{ "transactionlayer", CSV_T_TLP_ANY, 0 }, { "tl", CSV_T_TLP_ANY, 0 },
	{ "event", CSV_T_EVENT_ANY, 0 }, { "linkevent", CSV_T_EVENT_ANY, 0 },

	{ "skp", CSV_T_SKIP, 0 }, { "skip", CSV_T_SKIP, 0 }, { "skpos", CSV_T_SKIP, 0 },
	{ "ts1", CSV_T_SKIP, 0 }, { "ts2", CSV_T_SKIP, 0 }, { "fts", CSV_T_SKIP, 0 },
	{ "eios", CSV_T_SKIP, 0 }, { "eieos", CSV_T_SKIP, 0 }, { "sds", CSV_T_SKIP, 0 },
	{ "idle", CSV_T_SKIP, 0 }, { "logicalidle", CSV_T_SKIP, 0 },
	{ "electricalidle", CSV_T_SKIP, 0 }, { "eidle", CSV_T_SKIP, 0 },
	{ "orderedset", CSV_T_SKIP, 0 }, { "physical", CSV_T_SKIP, 0 },
	{ "physicallayer", CSV_T_SKIP, 0 }, { "phy", CSV_T_SKIP, 0 },

	{ "linkup", CSV_T_EVENT, EV_LINK_UP }, { "linkdown", CSV_T_EVENT, EV_LINK_DOWN },
	{ "hotreset", CSV_T_EVENT, EV_HOT_RESET }, { "recovery", CSV_T_EVENT, EV_RECOVERY },
	{ "portreset", CSV_T_EVENT, EV_PORT_RESET }, { "vcenable", CSV_T_EVENT, EV_VC_ENABLE },

	{ "ack", CSV_T_DLLP, DLLP_ACK }, { "nak", CSV_T_DLLP, DLLP_NAK },
	{ "pmenterl1", CSV_T_DLLP, DLLP_PM_ENTER_L1 },
	{ "pmenterl23", CSV_T_DLLP, DLLP_PM_ENTER_L23 },
	{ "pmactivestaterequestl1", CSV_T_DLLP, DLLP_PM_AS_REQUEST_L1 },
	{ "pmasrequestl1", CSV_T_DLLP, DLLP_PM_AS_REQUEST_L1 },
	{ "pmrequestack", CSV_T_DLLP, DLLP_PM_REQUEST_ACK },
	{ "nop", CSV_T_DLLP, DLLP_NOP },
	{ "feature", CSV_T_DLLP, DLLP_FEATURE },
	{ "datalinkfeature", CSV_T_DLLP, DLLP_FEATURE },
	{ "vendor", CSV_T_DLLP, DLLP_VENDOR },
	{ "vendorspecific", CSV_T_DLLP, DLLP_VENDOR },
};

struct fc_prefix {
	const char *name;
	enum dllp_type type;
};

static const struct fc_prefix fc_prefixes[] = {
	{ "initfc1", DLLP_INITFC1 }, { "initfc2", DLLP_INITFC2 },
	{ "updatefc", DLLP_UPDATEFC }, { "updfc", DLLP_UPDATEFC },
};

struct fc_suffix {
	const char *name;
	enum fc_class cls;
};

static const struct fc_suffix fc_suffixes[] = {
	{ "p", FC_P }, { "posted", FC_P }, { "np", FC_NP }, { "nonposted", FC_NP },
	{ "cpl", FC_CPL }, { "completion", FC_CPL }, { "cmpl", FC_CPL },
};

static bool parse_fc_name(const char *w, struct csv_type *t)
{
	for (size_t i = 0; i < ARRAY_LEN(fc_prefixes); i++) {
		size_t pl = strlen(fc_prefixes[i].name);

		if (strncmp(w, fc_prefixes[i].name, pl) != 0)
			continue;
		for (size_t k = 0; k < ARRAY_LEN(fc_suffixes); k++) {
			if (strcmp(w + pl, fc_suffixes[k].name) == 0) {
				t->kind = CSV_T_DLLP;
				t->dllp_type = fc_prefixes[i].type;
				t->fc_class = fc_suffixes[k].cls;
				return true;
			}
		}
	}
	return false;
}

/* TLP mnemonics as tlp_mnemonic_parse() knows them, also "MemWr",
 * "MWr" (3 DW header assumed) and "MWr 64". */
static bool parse_tlp_name(const char *w, struct csv_type *t)
{
	char buf[40];
	size_t len = strlen(w);

	if (len + 3 > sizeof(buf))
		return false;
	if (strncmp(w, "mem", 3) == 0 && len > 3) {
		buf[0] = 'm';
		memcpy(buf + 1, w + 3, len - 2);
	} else {
		memcpy(buf, w, len + 1);
	}
	len = strlen(buf);
	if (tlp_mnemonic_parse(buf, len, &t->tlp_kind, &t->addr64)) {
		t->kind = CSV_T_TLP;
		return true;
	}
	memcpy(buf + len, "32", 3);
	if (tlp_mnemonic_parse(buf, len + 2, &t->tlp_kind, &t->addr64)) {
		t->kind = CSV_T_TLP;
		return true;
	}
	return false;
}

/* "0x80" or "80h": a DLLP type byte. */
static bool parse_type_byte(const char *s, size_t len, struct csv_type *t)
{
	unsigned v = 0;
	uint8_t content[4] = { 0 };
	struct dllp d;

	if (len == 4 && s[0] == '0' && ascii_lower(s[1]) == 'x') {
		s += 2;
		len = 2;
	} else if (len == 3 && ascii_lower(s[2]) == 'h') {
		len = 2;
	} else {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		int h = ascii_hex_value(s[i]);

		if (h < 0)
			return false;
		v = v << 4 | (unsigned)h;
	}
	content[0] = (uint8_t)v;
	if (dllp_decode(content, 4, false, &d) != DLLP_DECODE_OK)
		return false;
	t->kind = CSV_T_DLLP;
	t->by_byte = true;
	t->type_byte = (uint8_t)v;
	t->dllp_type = d.type;
	t->fc_class = d.fc_class;
	if (dllp_is_fc(d.type))
		t->vc = d.vc;
	return true;
}

/* A trailing "vcN" ("UpdateFC-P (VC0)" squeezed): cut off into t->vc. */
static void cut_vc_suffix(char *w, struct csv_type *t)
{
	size_t len = strlen(w), d = len;

	while (d > 0 && is_digit(w[d - 1]))
		d--;
	if (d == len || d < 3 || len - d > 2 || w[d - 2] != 'v' || w[d - 1] != 'c')
		return;
	t->vc = atoi(w + d);
	w[d - 2] = '\0';
}

void csv_parse_type(const char *s, size_t len, struct csv_type *t)
{
	char w[48];
	const char *base;

	memset(t, 0, sizeof(*t));
	t->kind = CSV_T_UNKNOWN;
	t->vc = -1;
	trim(&s, &len);
	if (len == 0 || parse_type_byte(s, len, t))
		return;
	if (!squeeze(s, len, w, sizeof(w)) || w[0] == '\0')
		return;
	cut_vc_suffix(w, t);
	if (t->vc > 7)
		return;
	base = w;
	/* "TLP MWr32", "DLLP UpdateFC-P": the layer word adds nothing. */
	if (strncmp(base, "dllp", 4) == 0 && base[4] != '\0')
		base += 4;
	else if (strncmp(base, "tlp", 3) == 0 && base[3] != '\0')
		base += 3;
	for (size_t i = 0; i < ARRAY_LEN(type_names); i++) {
		if (strcmp(base, type_names[i].name) != 0)
			continue;
		t->kind = type_names[i].kind;
		if (t->kind == CSV_T_DLLP)
			t->dllp_type = (enum dllp_type)type_names[i].code;
		else if (t->kind == CSV_T_EVENT)
			t->event = type_names[i].code;
		return;
	}
	if (parse_fc_name(base, t) || parse_tlp_name(base, t))
		return;
	t->kind = CSV_T_UNKNOWN;
}

/* ------------------------------------------------------------------ */
/* Options */

void csv_options_init(struct csv_options *o)
{
	memset(o, 0, sizeof(*o));
	o->time_unit_pow = -1;
}

/* The field a --map key names: a field name or any alias. */
static int map_key_lookup(const char *s, size_t len)
{
	char norm[CSV_NAME_MAX];

	trim(&s, &len);
	csv_normalise_name(s, len, norm, sizeof(norm), NULL, 0);
	for (int f = 0; f < CSV_F_COUNT; f++) {
		char fn[CSV_NAME_MAX] = "";

		normalise_into(field_names[f], strlen(field_names[f]), fn, sizeof(fn));
		if (strcmp(fn, norm) == 0)
			return f;
	}
	return csv_field_lookup(norm, NULL);
}

static bool parse_small_uint(const char *s, size_t len, unsigned max,
                             unsigned *out)
{
	unsigned v = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
		if (v > max)
			return false;
	}
	*out = v;
	return true;
}

/* KEY=VALUE of arg: key and value trimmed. */
static bool split_kv(const char *arg, const char *what, const char **k,
                     size_t *klen, const char **v, size_t *vlen, char *err,
                     size_t errlen)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL)
		return set_err(err, errlen, "%s '%s': expected KEY=VALUE", what, arg);
	*k = arg;
	*klen = (size_t)(eq - arg);
	*v = eq + 1;
	*vlen = strlen(eq + 1);
	trim(k, klen);
	trim(v, vlen);
	return true;
}

bool csv_options_set_map(struct csv_options *o, const char *arg, char *err,
                         size_t errlen)
{
	const char *k = NULL, *v = NULL;
	size_t klen = 0, vlen = 0;
	int f;
	struct csv_map_entry *m;

	if (!split_kv(arg, "--map", &k, &klen, &v, &vlen, err, errlen))
		return false;
	f = map_key_lookup(k, klen);
	if (f < 0)
		return set_err(err, errlen,
		               "--map '%s': unknown key (time, dir, link, type, "
		               "dllp-type, tlp-type, vc, hdr-fc, data-fc, hdr-scale, "
		               "data-scale, seq, acknak-seq, length, tc, raw, packet)", arg);
	m = &o->map[f];
	memset(m, 0, sizeof(*m));
	if (vlen == 0 || ascii_eq_nocase(v, vlen, "none") || ascii_eq_nocase(v, vlen, "-")) {
		m->how = CSV_MAP_NONE;
	} else if (v[0] == '#') {
		if (!parse_small_uint(v + 1, vlen - 1, CSV_MAX_COLS, &m->index) ||
		    m->index == 0)
			return set_err(err, errlen,
			               "--map '%s': column number from #1 to #%u", arg,
			               CSV_MAX_COLS);
		m->how = CSV_MAP_INDEX;
	} else {
		if (vlen >= sizeof(m->name))
			return set_err(err, errlen, "--map '%s': column name too long", arg);
		memcpy(m->name, v, vlen);
		m->name[vlen] = '\0';
		m->how = CSV_MAP_NAME;
	}
	return true;
}

bool csv_options_set_delimiter(struct csv_options *o, const char *arg,
                               char *err, size_t errlen)
{
	static const struct { const char *name; char c; } names[] = {
		{ "auto", CSV_DELIM_AUTO }, { "tab", '\t' }, { "\\t", '\t' },
		{ "comma", ',' }, { "semicolon", ';' }, { "pipe", '|' },
		{ "space", CSV_DELIM_ALIGNED }, { "aligned", CSV_DELIM_ALIGNED },
		{ "whitespace", CSV_DELIM_ALIGNED },
	};

	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		if (ascii_eq_nocase(arg, strlen(arg), names[i].name)) {
			o->delimiter = names[i].c;
			return true;
		}
	}
	if (strlen(arg) == 1 && arg[0] != '"' && arg[0] != '\n' && arg[0] != '\r') {
		o->delimiter = arg[0];
		return true;
	}
	return set_err(err, errlen,
	               "--delimiter takes one character, tab, comma, semicolon, "
	               "pipe, space (aligned columns) or auto, not '%s'", arg);
}

bool csv_options_set_header_line(struct csv_options *o, const char *arg,
                                 char *err, size_t errlen)
{
	unsigned v;

	if (!parse_small_uint(arg, strlen(arg), 1000000, &v))
		return set_err(err, errlen,
		               "--header-line takes a line number (0: no header), not '%s'",
		               arg);
	o->header_line_given = true;
	o->header_line = v;
	return true;
}

bool csv_options_set_time_unit(struct csv_options *o, const char *arg,
                               char *err, size_t errlen)
{
	int pow;

	if (!time_unit_lookup(arg, strlen(arg), &pow) || pow < 0)
		return set_err(err, errlen,
		               "--time-unit takes ps, ns, us, ms or s, not '%s'", arg);
	o->time_unit_pow = pow;
	return true;
}

/* "250MHz": period in fs = 10^15 / f, rounded. */
static bool frequency_to_fs(const struct num *n, int unit_pow, uint64_t *fs)
{
	uint64_t hz_scaled;
	int e = n->exp10 + unit_pow;   /* f = digits * 10^e Hz */
	int shift = 0;
	uint64_t num = 1;
	struct num m = *n;

	/* f = digits * 10^e; period = 10^(15-e) / digits */
	m.exp10 = 0;
	if (!num_to_u64(&m, 0, &hz_scaled) || hz_scaled == 0)
		return false;
	shift = 15 - e;
	if (shift < 0 || shift > 19)
		return false;
	for (int i = 0; i < shift; i++)
		num *= 10;
	*fs = (num + hz_scaled / 2) / hz_scaled;
	return *fs != 0;
}

bool csv_options_set_clock_period(struct csv_options *o, const char *arg,
                                  char *err, size_t errlen)
{
	static const struct unit_def freq_units[] = {
		{ "hz", 0 }, { "khz", 3 }, { "mhz", 6 }, { "ghz", 9 },
	};
	const char *s = arg, *u;
	size_t len = strlen(arg), ulen;
	struct num n;
	int pow;
	uint64_t fs = 0;

	trim(&s, &len);
	scan_number(s, len, &n);
	u = s + n.used;
	ulen = len - n.used;
	trim(&u, &ulen);
	if (!n.any || n.neg)
		goto bad;
	for (size_t i = 0; i < ARRAY_LEN(freq_units); i++) {
		if (ascii_eq_nocase(u, ulen, freq_units[i].name)) {
			if (!frequency_to_fs(&n, freq_units[i].pow, &fs))
				goto bad;
			o->clock_period_fs = fs;
			return true;
		}
	}
	if (!time_unit_lookup(u, ulen, &pow) || !num_to_u64(&n, pow + 3, &fs) ||
	    fs == 0)
		goto bad;
	o->clock_period_fs = fs;
	return true;
bad:
	return set_err(err, errlen,
	               "--clock-period takes a time (4ns, 2.5 ns) or a frequency "
	               "(250MHz) greater than 0, not '%s'", arg);
}

bool csv_options_set_dir_map(struct csv_options *o, const char *arg,
                             char *err, size_t errlen)
{
	const char *p = arg;

	while (*p != '\0') {
		const char *comma = strchr(p, ',');
		size_t plen = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', plen);
		const char *k = p, *v;
		size_t klen, vlen;
		struct csv_dir_entry *e;

		if (eq == NULL)
			return set_err(err, errlen,
			               "--dir-map '%s': expected VALUE=down|up[,...]", arg);
		klen = (size_t)(eq - p);
		v = eq + 1;
		vlen = plen - klen - 1;
		trim(&k, &klen);
		trim(&v, &vlen);
		if (klen == 0 || klen >= CSV_NAME_MAX)
			return set_err(err, errlen, "--dir-map '%s': empty or long value", arg);
		if (o->dir_map_count >= CSV_DIR_MAP_MAX)
			return set_err(err, errlen, "--dir-map: more than %u values",
			               CSV_DIR_MAP_MAX);
		e = &o->dir_map[o->dir_map_count];
		if (ascii_eq_nocase(v, vlen, "down"))
			e->dir = DIR_DOWN;
		else if (ascii_eq_nocase(v, vlen, "up"))
			e->dir = DIR_UP;
		else
			return set_err(err, errlen,
			               "--dir-map '%s': a value maps to down or up", arg);
		memcpy(e->value, k, klen);
		e->value[klen] = '\0';
		o->dir_map_count++;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return true;
}

/* '#' starts a comment, except "#N" (a column number) right after '='. */
static void cut_comment(char *line)
{
	for (char *h = strchr(line, '#'); h != NULL; h = strchr(h + 1, '#')) {
		char *b = h;

		while (b > line && is_blank(b[-1]))
			b--;
		if (b > line && b[-1] == '=' && is_digit(h[1]))
			continue;
		*h = '\0';
		return;
	}
}

/* One line of a map file: KEY=VALUE. */
static bool map_file_line(struct csv_options *o, char *line, char *err,
                          size_t errlen)
{
	static const struct {
		const char *key;
		bool (*set)(struct csv_options *, const char *, char *, size_t);
	} opts[] = {
		{ "delimiter", csv_options_set_delimiter },
		{ "headerline", csv_options_set_header_line },
		{ "timeunit", csv_options_set_time_unit },
		{ "clockperiod", csv_options_set_clock_period },
		{ "dirmap", csv_options_set_dir_map },
	};
	char *eq = strchr(line, '=');
	char key[CSV_NAME_MAX];
	const char *v;
	size_t vlen;

	if (eq == NULL)
		return set_err(err, errlen, "expected KEY=VALUE");
	csv_normalise_name(line, (size_t)(eq - line), key, sizeof(key), NULL, 0);
	v = eq + 1;
	vlen = strlen(v);
	trim(&v, &vlen);
	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		if (strcmp(key, opts[i].key) == 0) {
			char val[CSV_NAME_MAX * 4];

			if (vlen >= sizeof(val))
				return set_err(err, errlen, "value too long");
			/* A delimiter may be a blank: keep "tab"/"space" words. */
			memcpy(val, v, vlen);
			val[vlen] = '\0';
			return opts[i].set(o, val, err, errlen);
		}
	}
	return csv_options_set_map(o, line, err, errlen);
}

bool csv_options_load_map_file(struct csv_options *o, const char *path,
                               char *err, size_t errlen)
{
	char line[512], msg[300];
	unsigned no = 0;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return set_err(err, errlen, "--map-file %s: cannot open: %s", path,
		               strerror(errno));
	while (fgets(line, sizeof(line), fp) != NULL) {
		size_t len = strlen(line);
		const char *s = line;

		no++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			fclose(fp);
			return set_err(err, errlen, "%s:%u: line too long", path, no);
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		cut_comment(line);
		len = strlen(line);
		trim(&s, &len);
		if (len == 0)
			continue;
		memmove(line, s, len);
		line[len] = '\0';
		if (!map_file_line(o, line, msg, sizeof(msg))) {
			fclose(fp);
			return set_err(err, errlen, "%s:%u: %s", path, no, msg);
		}
	}
	if (ferror(fp)) {
		fclose(fp);
		return set_err(err, errlen, "--map-file %s: read error", path);
	}
	fclose(fp);
	return true;
}

/* ------------------------------------------------------------------ */
/* Line shapes: headers and the headerless layouts */

static size_t skip_blanks(const char *s, size_t len, size_t p)
{
	while (p < len && is_blank(s[p]))
		p++;
	return p;
}

/* How a header line is split. */
struct split_mode {
	enum csv_layout layout;    /* LAYOUT_DELIMITED or LAYOUT_ALIGNED */
	char delim;
	unsigned min_run;          /* aligned: blanks between names */
};

/* Splits a copy of line (in scratch) the way mode says. */
static unsigned split_copy(const char *line, size_t len, char *scratch,
                           const struct split_mode *mode,
                           struct csv_cell *cells)
{
	unsigned unterminated;

	memcpy(scratch, line, len);
	if (mode->layout == LAYOUT_DELIMITED)
		return split_delimited(scratch, len, mode->delim, cells,
		                       CSV_MAX_COLS, &unterminated);
	return split_blanks(scratch, len, mode->min_run, cells, CSV_MAX_COLS);
}

/* The field --map names the column of (normalised name norm), or -1. */
static int mapped_name_field(const struct csv_options *o, const char *norm)
{
	for (int f = 0; o != NULL && f < CSV_F_COUNT; f++) {
		char mn[CSV_NAME_MAX];

		if (o->map[f].how != CSV_MAP_NAME)
			continue;
		csv_normalise_name(o->map[f].name, strlen(o->map[f].name), mn,
		                   sizeof(mn), NULL, 0);
		if (strcmp(mn, norm) == 0)
			return f;
	}
	return -1;
}

/* Distinct known fields among the cells (by alias, or named by --map;
 * the packet number not counted); 0 unless a header: two known, one of
 * them primary, and for blank-split columns at least half the cells
 * known, so a line of prose ("the DLLP seq test") is no header. */
static unsigned header_score(const char *buf, const struct csv_cell *cells,
                             unsigned n, const struct csv_options *o,
                             bool aligned)
{
	unsigned seen = 0, count = 0, known_cells = 0, cells_used = 0;
	bool primary = false;

	for (unsigned i = 0; i < n; i++) {
		char norm[CSV_NAME_MAX];
		int f;

		if (cells[i].len == 0)
			continue;
		cells_used++;
		if (cells[i].len >= CSV_NAME_MAX * 2)
			continue;
		csv_normalise_name(buf + cells[i].off, cells[i].len, norm,
		                   sizeof(norm), NULL, 0);
		f = mapped_name_field(o, norm);
		if (f < 0)
			f = column_field(buf + cells[i].off, cells[i].len, norm);
		/* A row-number column is in many tables that are no export, and
		 * "packet" in many a sentence: it does not make a header
		 * (detection as before issue 12). */
		if (f == CSV_F_PACKET)
			continue;
		known_cells += f >= 0;
		if (f < 0 || (seen & (1u << f)))
			continue;
		seen |= 1u << f;
		count++;
		primary |= field_is_primary(f);
	}
	if (aligned && known_cells * 2 < cells_used)
		return 0;
	return count >= 2 && primary ? count : 0;
}

/* The split of line that makes the best header, by groups: the best of
 * the delimiters the line holds; else aligned columns with two blanks
 * between names; else with one ("Time (ns)" must not become two names
 * when a tab or two blanks separate the columns).  The --delimiter in o
 * leaves one choice.  Returns the score (0: not a header). */
static unsigned guess_header(const char *line, size_t len, char *scratch,
                             struct csv_cell *cells, const struct csv_options *o,
                             struct split_mode *best)
{
	char forced = o != NULL ? o->delimiter : CSV_DELIM_AUTO;
	static const char delims[] = { ',', '\t', ';', '|' };
	struct split_mode modes[ARRAY_LEN(delims) + 2];
	unsigned nmodes = 0, best_score = 0;
	size_t b = skip_blanks(line, len, 0);

	/* Names, not numbers: a line starting with a digit is data. */
	if (b == len || is_digit(line[b]))
		return 0;

	if (forced == CSV_DELIM_AUTO || forced == CSV_DELIM_ALIGNED) {
		for (size_t i = 0; forced == CSV_DELIM_AUTO && i < ARRAY_LEN(delims); i++) {
			if (memchr(line, delims[i], len) != NULL)
				modes[nmodes++] = (struct split_mode){ LAYOUT_DELIMITED, delims[i], 0 };
		}
		modes[nmodes++] = (struct split_mode){ LAYOUT_ALIGNED, 0, 2 };
		modes[nmodes++] = (struct split_mode){ LAYOUT_ALIGNED, 0, 1 };
	} else {
		modes[nmodes++] = (struct split_mode){ LAYOUT_DELIMITED, forced, 0 };
	}
	*best = modes[0];
	for (unsigned m = 0; m < nmodes; m++) {
		unsigned n = split_copy(line, len, scratch, &modes[m], cells);
		unsigned score = header_score(scratch, cells, n, o,
		                              modes[m].layout == LAYOUT_ALIGNED);

		/* A later group is tried only when no earlier one made a header. */
		if (best_score > 0 && modes[m].layout == LAYOUT_ALIGNED &&
		    (best->layout == LAYOUT_DELIMITED || best->min_run != modes[m].min_run))
			break;
		if (score > best_score) {
			best_score = score;
			*best = modes[m];
		}
	}
	return best_score;
}

/* "DS Record 1041 @ 0.000123456s (+8ns): 5c800803f0f2fcfd" */
struct agilent_line {
	size_t dir_off, dir_len;
	size_t rec_off, rec_len;   /* the analyzer's record number */
	size_t time_off, time_len;
	size_t hex_off;
};

static size_t skip_word(const char *s, size_t len, size_t p)
{
	while (p < len && !is_blank(s[p]))
		p++;
	return p;
}

static bool parse_agilent(const char *s, size_t len, struct agilent_line *a)
{
	size_t p = skip_blanks(s, len, 0), q;
	const char *colon;

	a->dir_off = p;
	p = skip_word(s, len, p);
	a->dir_len = p - a->dir_off;
	p = skip_blanks(s, len, p);
	q = skip_word(s, len, p);
	if (a->dir_len == 0 || !ascii_eq_nocase(s + p, q - p, "record"))
		return false;
	p = skip_blanks(s, len, q);
	if (p >= len || !is_digit(s[p]))
		return false;
	a->rec_off = p;
	while (p < len && is_digit(s[p]))
		p++;
	a->rec_len = p - a->rec_off;
	p = skip_blanks(s, len, p);
	if (p >= len || s[p] != '@')
		return false;
	p = skip_blanks(s, len, p + 1);
	colon = memchr(s + p, ':', len - p);
	if (colon == NULL)
		return false;
	a->time_off = p;
	q = (size_t)(colon - s);
	/* "(+8ns)", the gap since the previous record, is not needed. */
	for (size_t i = p; i < q; i++) {
		if (s[i] == '(') {
			q = i;
			break;
		}
	}
	while (q > p && is_blank(s[q - 1]))
		q--;
	a->time_len = q - p;
	a->hex_off = (size_t)(colon - s) + 1;
	return a->time_len > 0;
}

/* "<-, 1234560, ns, 0x5c, 0x80, ...": arrow, time, unit, bytes. */
static bool is_fpga_line(const char *line, size_t len, char *scratch,
                         struct csv_cell *cells)
{
	static const struct split_mode comma = { LAYOUT_DELIMITED, ',', 0 };
	unsigned n = split_copy(line, len, scratch, &comma, cells);
	int pow;

	if (n < 4)
		return false;
	if (!ascii_eq_nocase(scratch + cells[0].off, cells[0].len, "->") &&
	    !ascii_eq_nocase(scratch + cells[0].off, cells[0].len, "<-"))
		return false;
	if (cells[1].len == 0 || !is_digit(scratch[cells[1].off]))
		return false;
	if (!time_unit_lookup(scratch + cells[2].off, cells[2].len, &pow))
		return false;
	return cells[3].len > 2 && starts_nocase(scratch + cells[3].off,
	                                          cells[3].len, "0x");
}

/* A text trace line: "TIME down|up ...", TIME possibly followed by its
 * unit as a word. */
static bool is_text_trace_line(const char *s, size_t len)
{
	size_t p = skip_blanks(s, len, 0), q;

	if (p >= len || !is_digit(s[p]))
		return false;
	for (int word = 0; word < 2; word++) {
		p = skip_blanks(s, len, skip_word(s, len, p));
		q = skip_word(s, len, p);
		if (ascii_eq_nocase(s + p, q - p, "down") || ascii_eq_nocase(s + p, q - p, "up"))
			return true;
	}
	return false;
}

static size_t strip_bom(const char *s, size_t len)
{
	return len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* ---- A delimited table whose columns are not known (issue 12) ----
 *
 * An export whose header names no known column must not be read as a
 * text trace (a malformed line per row): it is recognised by its shape
 * alone, a header line of at least two short cells (not a number, not
 * starting with a digit: text trace records and data rows do) split by
 * one of , TAB ; | and then at least SHAPE_MIN_ROWS lines of the same
 * number of cells.  Blank lines and '#' comments are skipped; any other
 * line ends the table, and may start the next one.  A text trace never
 * has this shape: every line that is no comment starts with its time.
 * An export is one table from near its top to its end, so a table that
 * starts after SHAPE_BANNER_MAX lines, or ends early (a Markdown table
 * in prose, a few lines of a script), is none: such files stay what they
 * were (text), and no message calls them an export. */

/* Text a header or row can be: no control bytes but TAB (and the '\r' of
 * a CRLF line end); bytes from 0x80 are UTF-8 letters ("Zeit (\xc2\xb5s)"). */
static bool shape_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
			return false;
	}
	return true;
}

/* A character of a column name: letters (UTF-8 ones too), digits, blanks
 * and the punctuation names and units use ("Time (us)", "Seq_Num #",
 * "Len [DW]", "Data/Ctl", "%", "Rx+Tx", "AT&T", "Lane's"); not code or
 * markup ('*', '=', '{', '<', '$', '\\', '"', '!' ...). */
static bool shape_name_char(char ch)
{
	unsigned char c = (unsigned char)ch;

	return c >= 0x80 || is_alnum(ch) || (ch != '\0' && strchr(" _-.#()[]/%+&':", ch) != NULL);
}

/* Whether the cells (split from buf) can be a header's names: at least
 * two, each short, of name characters only, with a letter, not starting
 * with a digit. */
static bool shape_names(const char *buf, const struct csv_cell *cells, unsigned n)
{
	unsigned named = 0;

	for (unsigned i = 0; i < n; i++) {
		const char *c = buf + cells[i].off;
		struct num num;

		if (cells[i].len == 0)
			continue;
		bool letter = cells[i].len == 1 && c[0] == '#'; /* "#": a packet number */

		if (cells[i].len > SHAPE_NAME_MAX || is_digit(c[0]))
			return false;
		for (uint32_t k = 0; k < cells[i].len; k++) {
			if (!shape_name_char(c[k]))
				return false;
			letter |= (unsigned char)c[k] >= 0x80 ||
			          (is_alnum(c[k]) && !is_digit(c[k]));
		}
		if (!letter)
			return false; /* a table rule ("---") or a number-like cell */
		scan_number(c, cells[i].len, &num);
		if (num.any && num.used == cells[i].len)
			return false;
		named++;
	}
	return named >= 2;
}

/* Whether one of a row's cells starts with a digit: an export's rows
 * carry numbers (times, packet numbers, bytes). */
static bool shape_row_digits(const char *buf, const struct csv_cell *cells, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (cells[i].len > 0 && is_digit(buf[cells[i].off]))
			return true;
	}
	return false;
}

/* Feeds one line (len bytes, at most CSV_SNIFF_LINE) to the shape; forced
 * is the --delimiter, CSV_DELIM_AUTO to guess it from the header. */
static enum shape_event shape_feed(struct shape *sh, const char *line, size_t len,
                                   char forced, char *scratch, struct csv_cell *cells)
{
	size_t b = skip_blanks(line, len, 0);
	struct split_mode mode = { LAYOUT_DELIMITED, 0, 0 };
	unsigned unterminated, n;

	if (b == len || line[b] == '#')
		return SHAPE_NONE;
	if (sh->lines < UINT32_MAX)
		sh->lines++;
	if (len > CSV_SNIFF_LINE || !shape_text(line, len) || forced == CSV_DELIM_ALIGNED) {
		sh->have = false;
		return SHAPE_BREAK;
	}
	if (sh->have) {
		memcpy(scratch, line, len);
		n = split_delimited(scratch, len, sh->delim, cells, CSV_MAX_COLS, &unterminated);
		if (n == sh->ncells && unterminated == 0) {
			sh->rows++;
			sh->digits |= shape_row_digits(scratch, cells, n);
			return SHAPE_ROW;
		}
	}
	sh->have = false;
	mode.delim = forced != CSV_DELIM_AUTO ? forced : csv_guess_delimiter(line, len);
	if (is_digit(line[b]) || mode.delim == 0 || sh->lines > SHAPE_BANNER_MAX)
		return SHAPE_BREAK;
	memcpy(scratch, line, len);
	n = split_delimited(scratch, len, mode.delim, cells, CSV_MAX_COLS, &unterminated);
	if (n < 2 || unterminated != 0 || !shape_names(scratch, cells, n))
		return SHAPE_BREAK;
	sh->have = true;
	sh->delim = mode.delim;
	sh->ncells = n;
	sh->rows = 0;
	sh->digits = false;
	return SHAPE_HEADER;
}

/* A table that runs to the end of the lines looked at. */
static bool shape_is_table(const struct shape *sh)
{
	return sh->have && sh->rows >= SHAPE_MIN_ROWS && sh->digits;
}

/* A table that ended, before (the shape before the line that ended it),
 * when it was long enough for what ended it to be a trailer. */
static bool shape_was_table(const struct shape *before, enum shape_event ev)
{
	return (ev == SHAPE_HEADER || ev == SHAPE_BREAK) && before->have &&
	       before->rows >= SHAPE_LONG_ROWS && before->digits;
}

bool csv_sniff(const unsigned char *head, size_t len)
{
	char line[CSV_SNIFF_LINE], scratch[CSV_SNIFF_LINE];
	struct csv_cell cells[CSV_MAX_COLS];
	const char *s = (const char *)head;
	size_t p = strip_bom(s, len);
	struct shape sh = { false, 0, 0, 0, 0, false };
	bool table = false;                /* a long table that ended */

	while (p < len) {
		const char *nl = memchr(s + p, '\n', len - p);
		size_t end = nl ? (size_t)(nl - s) : len;
		size_t n = end - p > sizeof(line) ? sizeof(line) : end - p;
		size_t b;
		struct split_mode mode;
		struct agilent_line a;
		struct shape before = sh;
		bool cut = end - p > sizeof(line);
		enum shape_event ev;

		memcpy(line, s + p, n);
		p = end + 1;
		b = skip_blanks(line, n, 0);
		if (b == n || line[b] == '#' || memchr(line, '\0', n) != NULL) {
			if (b != n && line[b] != '#') {
				table |= shape_was_table(&sh, SHAPE_BREAK);
				sh.have = false;
				sh.lines++;
			}
			continue;
		}
		if (is_text_trace_line(line, n))
			return false;
		if (guess_header(line, n, scratch, cells, NULL, &mode) > 0 ||
		    parse_agilent(line, n, &a) || is_fpga_line(line, n, scratch, cells))
			return true;
		/* an export with unknown columns: the reader says so when it
		 * opens it (find_header()) */
		if (cut) {
			/* longer than any line a table is judged by */
			table |= shape_was_table(&sh, SHAPE_BREAK);
			sh.have = false;
			sh.lines++;
			continue;
		}
		ev = shape_feed(&sh, line, n, CSV_DELIM_AUTO, scratch, cells);
		if (ev != SHAPE_ROW && nl == NULL)
			sh = before; /* the head may end inside its last line */
		else
			table |= shape_was_table(&before, ev);
	}
	return table || shape_is_table(&sh);
}

/* ------------------------------------------------------------------ */
/* Reading lines */

enum line_status { LINE_OK, LINE_EOF, LINE_ERROR };

/* Reads one line (without '\n') into r->line; a longer one than the
 * buffer is consumed to its end and flagged. */
static enum line_status read_line(struct csv_reader *r)
{
	FILE *fp = r->fp;
	uint64_t skipped = 0;
	size_t n = 0;
	int c = EOF;

	r->line_start = r->offset;
	while (n < CSV_LINE_MAX) {
		c = getc_unlocked(fp);
		if (c == '\n' || c == EOF)
			break;
		r->line[n++] = (char)c;
	}
	if (n == CSV_LINE_MAX) {
		while ((c = getc_unlocked(fp)) != '\n' && c != EOF)
			skipped++;
	}
	r->offset += n + skipped + (c == '\n');
	if (c == EOF && ferror(fp))
		return LINE_ERROR;
	if (c == EOF && n == 0 && skipped == 0)
		return LINE_EOF;
	r->line_no++;
	r->line_too_long = skipped != 0;
	if (r->line_no == 1 && strip_bom(r->line, n) > 0) {
		memmove(r->line, r->line + 3, n - 3);
		n -= 3;
	}
	r->line[n] = '\0';
	r->line_len = n;
	return LINE_OK;
}

/* ------------------------------------------------------------------ */
/* Opening: the header and the mapping */

static void take_header(struct csv_reader *r, const struct split_mode *mode)
{
	unsigned n = split_copy(r->line, r->line_len, r->scratch, mode, r->cells);

	r->layout = mode->layout;
	r->delim = mode->delim;
	r->header_line_no = r->line_no;
	r->header_len = r->line_len;
	snprintf(r->header_copy, sizeof(r->header_copy), "%.*s",
	         (int)(r->line_len < CSV_HEADER_COPY ? r->line_len : CSV_HEADER_COPY - 1),
	         r->line);
	r->ncols = n;
	for (unsigned i = 0; i < n; i++) {
		struct csv_column *c = &r->cols[i];
		const char *s = r->scratch + r->cells[i].off;
		size_t len = r->cells[i].len;

		snprintf(c->name, sizeof(c->name), "%.*s",
		         (int)(len < CSV_NAME_MAX ? len : CSV_NAME_MAX - 1), s);
		csv_normalise_name(s, len, c->norm, sizeof(c->norm), c->unit,
		                   sizeof(c->unit));
		c->start = r->cells[i].off;
		c->end = r->cells[i].off + r->cells[i].len;
		c->field = column_field(s, len, c->norm);
	}
	r->after_header = true;
}

/* The header at --header-line N: split the forced way, else the best
 * guess, else by the delimiter the line holds most of. */
static bool take_header_at(struct csv_reader *r, char *err, size_t errlen)
{
	struct split_mode mode;

	if (r->line_too_long)
		return set_err(err, errlen, "%s: header line %" PRIu64 " is longer than %u bytes",
		               r->name, r->line_no, CSV_LINE_MAX);
	if (guess_header(r->line, r->line_len, r->scratch, r->cells, &r->o,
	                 &mode) == 0) {
		char d = r->o.delimiter;

		if (d == CSV_DELIM_AUTO)
			d = csv_guess_delimiter(r->line, r->line_len);
		mode = d == CSV_DELIM_AUTO || d == CSV_DELIM_ALIGNED
		       ? (struct split_mode){ LAYOUT_ALIGNED, 0, 2 }
		       : (struct split_mode){ LAYOUT_DELIMITED, d, 0 };
	}
	take_header(r, &mode);
	return true;
}

/* Keeps the current line; shape_feed() takes none longer than l->text. */
static void save_line(const struct csv_reader *r, struct saved_line *l)
{
	l->line_no = r->line_no;
	l->offset = r->line_start;
	l->len = r->line_len < sizeof(l->text) ? r->line_len : sizeof(l->text);
	memcpy(l->text, r->line, l->len);
}

/* The current line (broken: too long or with a NUL) for the table it may
 * belong to; a table that ends is kept in shape_best when it has the most
 * rows yet. */
static void shape_track(struct csv_reader *r, bool broken)
{
	struct shape_keep *k = &r->shape_cur;
	struct shape before = k->sh;
	enum shape_event ev;

	if (broken) {
		k->sh.have = false;
		k->sh.lines++;
		ev = SHAPE_BREAK;
	} else {
		ev = shape_feed(&k->sh, r->line, r->line_len, r->o.delimiter, r->scratch,
		                r->cells);
	}
	if (ev == SHAPE_NONE)
		return;
	if (ev == SHAPE_ROW) {
		if (k->nrows < CSV_DUMP_ROWS)
			save_line(r, &k->rows[k->nrows++]);
		return;
	}
	if (shape_was_table(&before, ev) && before.rows > r->shape_best.sh.rows) {
		r->shape_best = *k;
		r->shape_best.sh = before;
		r->shape_best.sh.have = true;
	}
	if (ev == SHAPE_HEADER) {
		save_line(r, &k->header);
		k->nrows = 0;
	}
}

/* The table with the most rows, when the input has one (shape_best). */
static bool shape_found(struct csv_reader *r)
{
	if (shape_is_table(&r->shape_cur.sh) &&
	    r->shape_cur.sh.rows > r->shape_best.sh.rows)
		r->shape_best = r->shape_cur;
	return shape_is_table(&r->shape_best.sh);
}

static const char *delim_name(char d)
{
	switch (d) {
	case ',': return "','";
	case '\t': return "TAB";
	case ';': return "';'";
	case '|': return "'|'";
	default: return "?";
	}
}

/* The unknown-columns message: the table's header cells, the known ones,
 * and what to do. */
static bool shape_error(struct csv_reader *r, char *err, size_t errlen)
{
	const struct shape_keep *k = &r->shape_best;
	char names[140], known[80];     /* the message fits the 512 bytes
	                                 * callers give with a long name */
	size_t o = 0, ko = 0;
	unsigned n, unterminated;

	memcpy(r->scratch, k->header.text, k->header.len);
	n = split_delimited(r->scratch, k->header.len, k->sh.delim, r->cells, CSV_MAX_COLS,
	                    &unterminated);
	names[0] = known[0] = '\0';
	for (unsigned i = 0; i < n; i++) {
		const char *c = r->scratch + r->cells[i].off;
		int len = (int)r->cells[i].len, w, f;
		char norm[CSV_NAME_MAX];

		csv_normalise_name(c, (size_t)len, norm, sizeof(norm), NULL, 0);
		f = column_field(c, (size_t)len, norm);
		if (f >= 0 && ko + 1 < sizeof(known)) {
			w = snprintf(known + ko, sizeof(known) - ko, "%s'%.*s' (%s)",
			             ko ? ", " : "", len > 24 ? 24 : len, c, field_names[f]);
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
	return set_err(err, errlen,
	               "%s: looks like a CSV/TSV export with unknown columns, not a text "
	               "trace: line %" PRIu64 " names %u columns split by %s (%s) and %u "
	               "rows of as many cells follow; %s%s; see how it is read with "
	               "--dump-columns, then name the columns with --map FIELD=COLUMN or "
	               "--map-file FILE",
	               r->name, k->header.line_no, k->sh.ncells, delim_name(k->sh.delim),
	               names, k->sh.rows, ko ? "of these names dllpcheck knows only " :
	               "dllpcheck knows none of these names", known);
}

/* --dump-columns on a table of unknown columns: its header line as the
 * header, and its first rows (saved, as the input has been read on). */
static bool shape_open_for_dump(struct csv_reader *r)
{
	const struct shape_keep *k = &r->shape_best;
	struct split_mode mode = { LAYOUT_DELIMITED, k->sh.delim, 0 };

	memcpy(r->line, k->header.text, k->header.len);
	r->line[k->header.len] = '\0';
	r->line_len = k->header.len;
	r->line_no = k->header.line_no;
	r->line_too_long = false;
	take_header(r, &mode);
	r->replay_only = true;
	r->replay_pos = 0;
	snprintf(r->problem, sizeof(r->problem),
	         "no header: line %" PRIu64 " is taken as one for this dump, but it "
	         "names too few known columns (two, one of them time, type or raw "
	         "bytes): name them with --map FIELD=COLUMN or --map-file FILE",
	         k->header.line_no);
	return true;
}

static bool find_header(struct csv_reader *r, char *err, size_t errlen)
{
	for (;;) {
		enum line_status st = read_line(r);
		struct split_mode mode;
		struct agilent_line a;

		if (st == LINE_ERROR)
			return set_err(err, errlen, "%s: cannot read: %s", r->name,
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
		if (r->line_too_long || memchr(r->line, '\0', r->line_len) != NULL) {
			shape_track(r, true);
			continue;
		}
		if (guess_header(r->line, r->line_len, r->scratch, r->cells, &r->o,
		                 &mode) > 0) {
			take_header(r, &mode);
			return true;
		}
		shape_track(r, false);
		if (r->o.delimiter != CSV_DELIM_AUTO)
			continue;
		if (parse_agilent(r->line, r->line_len, &a)) {
			r->layout = LAYOUT_AGILENT;
			r->pending = true;
			return true;
		}
		if (is_fpga_line(r->line, r->line_len, r->scratch, r->cells)) {
			r->layout = LAYOUT_FPGA;
			r->pending = true;
			return true;
		}
	}
	if (r->o.header_line_given)
		return set_err(err, errlen, "%s: --header-line %u: the input has %" PRIu64
		               " lines", r->name, r->o.header_line, r->line_no);
	if (r->line_no == 0)
		return set_err(err, errlen, "%s: empty export", r->name);
	if (shape_found(r))
		return r->o.dump_only ? shape_open_for_dump(r) : shape_error(r, err, errlen);
	return set_err(err, errlen,
	               "%s: no header in the first %u lines (a line naming two known "
	               "columns, one of them time, type or raw bytes) and no known "
	               "line layout; name the header with --header-line N and "
	               "columns with --map KEY=COLUMN, or use --header-line 0 "
	               "--map KEY=#N", r->name, CSV_HEADER_SEARCH);
}

/* --header-line 0: no header.  The columns come from --map KEY=#N; without
 * any, the first line must have a headerless layout's shape. */
static bool open_headerless(struct csv_reader *r, char *err, size_t errlen)
{
	bool any_index = false;

	for (int f = 0; f < CSV_F_COUNT; f++)
		any_index |= r->o.map[f].how == CSV_MAP_INDEX;
	do {
		enum line_status st = read_line(r);

		if (st == LINE_ERROR)
			return set_err(err, errlen, "%s: cannot read: %s", r->name,
			               strerror(errno));
		if (st == LINE_EOF)
			return set_err(err, errlen, "%s: empty export", r->name);
	} while (skip_blanks(r->line, r->line_len, 0) == r->line_len);
	r->pending = true;
	if (!any_index) {
		struct agilent_line a;

		if (parse_agilent(r->line, r->line_len, &a))
			r->layout = LAYOUT_AGILENT;
		else if (is_fpga_line(r->line, r->line_len, r->scratch, r->cells))
			r->layout = LAYOUT_FPGA;
		else
			return set_err(err, errlen,
			               "%s: --header-line 0: name the columns with --map KEY=#N",
			               r->name);
		return true;
	}
	r->delim = r->o.delimiter;
	if (r->delim == CSV_DELIM_AUTO)
		r->delim = csv_guess_delimiter(r->line, r->line_len);
	r->layout = r->delim == CSV_DELIM_AUTO || r->delim == CSV_DELIM_ALIGNED
	            ? LAYOUT_BLANKS : LAYOUT_DELIMITED;
	return true;
}

static void column_list(const struct csv_reader *r, char *out, size_t size)
{
	size_t o = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < r->ncols && o + 1 < size; i++) {
		int n = snprintf(out + o, size - o, "%s#%u '%s'", i ? ", " : "", i + 1,
		                 r->cols[i].name);

		if (n < 0)
			break;
		o += (size_t)n;
	}
}

static int column_by_name(const struct csv_reader *r, const char *name)
{
	char norm[CSV_NAME_MAX];

	csv_normalise_name(name, strlen(name), norm, sizeof(norm), NULL, 0);
	for (unsigned i = 0; i < r->ncols; i++) {
		if (ascii_eq_nocase(name, strlen(name), r->cols[i].name))
			return (int)i;
	}
	for (unsigned i = 0; i < r->ncols; i++) {
		if (norm[0] != '\0' && strcmp(norm, r->cols[i].norm) == 0)
			return (int)i;
	}
	return -1;
}

static bool apply_map(struct csv_reader *r, char *err, size_t errlen)
{
	char list[512];

	for (int f = 0; f < CSV_F_COUNT; f++) {
		const struct csv_map_entry *m = &r->o.map[f];
		int c = -1;

		switch (m->how) {
		case CSV_MAP_AUTO:
			continue;
		case CSV_MAP_NONE:
			break;
		case CSV_MAP_INDEX:
			if (r->header_line_no != 0 && m->index > r->ncols)
				return set_err(err, errlen,
				               "%s: --map %s=#%u: the header has %u columns",
				               r->name, field_names[f], m->index, r->ncols);
			c = (int)m->index - 1;
			break;
		case CSV_MAP_NAME:
			if (r->header_line_no == 0)
				return set_err(err, errlen,
				               "%s: --map %s=%s: no header to find it in; use #N",
				               r->name, field_names[f], m->name);
			c = column_by_name(r, m->name);
			if (c < 0) {
				column_list(r, list, sizeof(list));
				return set_err(err, errlen,
				               "%s: --map %s=%s: no such column (%s)",
				               r->name, field_names[f], m->name, list);
			}
			break;
		}
		r->field_col[f] = c;
		r->field_src[f] = c < 0 ? SRC_NONE : SRC_MAP;
	}
	return true;
}

static bool unit_is_bytes(const char *unit)
{
	return strcmp(unit, "bytes") == 0 || strcmp(unit, "byte") == 0 ||
	       strcmp(unit, "b") == 0;
}

/* What the header's units and the options say about the values. */
static bool set_units(struct csv_reader *r, char *err, size_t errlen)
{
	int tc = r->field_col[CSV_F_TIME];
	int dc = r->field_col[CSV_F_DATA_FC];
	int lc = r->field_col[CSV_F_LENGTH];
	bool ticks = false;
	int pow = 12;

	if (tc >= 0 && (unsigned)tc < r->ncols) {
		const struct csv_column *c = &r->cols[tc];

		csv_field_lookup(c->norm, &ticks);
		ticks |= ticks_unit(c->unit, strlen(c->unit));
		if (c->unit[0] != '\0' && !time_unit_lookup(c->unit, strlen(c->unit), &pow))
			pow = 12;
		if (ticks && r->o.clock_period_fs == 0)
			return set_err(err, errlen,
			               "%s: column #%d '%s' counts clock ticks: give "
			               "--clock-period", r->name, tc + 1, c->name);
	}
	if (r->o.time_unit_pow >= 0)
		pow = r->o.time_unit_pow;
	r->time_pow = pow;
	r->time_ticks = r->o.clock_period_fs != 0;
	r->data_fc_bytes = dc >= 0 && (unsigned)dc < r->ncols &&
	                   unit_is_bytes(r->cols[dc].unit);
	r->length_bytes = lc >= 0 && (unsigned)lc < r->ncols &&
	                  unit_is_bytes(r->cols[lc].unit);
	return true;
}

/* The column an export cannot be read without, as a message; NULL when
 * it has them all. */
static const char *missing_column(const struct csv_reader *r)
{
	if (r->field_col[CSV_F_DIR] < 0)
		return "no direction column: name one with --map dir=COLUMN";
	if (r->field_col[CSV_F_RAW] < 0 && r->field_col[CSV_F_KIND] < 0 &&
	    r->field_col[CSV_F_DLLP_TYPE] < 0 && r->field_col[CSV_F_TLP_TYPE] < 0)
		return "no raw-bytes or packet-type column: name one with "
		       "--map raw=COLUMN or --map type=COLUMN";
	return NULL;
}

static bool resolve_mapping(struct csv_reader *r, char *err, size_t errlen)
{
	const char *missing;

	for (unsigned i = 0; i < r->ncols; i++) {
		int f = r->cols[i].field;

		if (f >= 0 && r->field_col[f] < 0) {
			r->field_col[f] = (int)i;
			r->field_src[f] = SRC_ALIAS;
		}
	}
	if (!apply_map(r, err, errlen) || !set_units(r, err, errlen))
		return false;
	missing = missing_column(r);
	if (missing == NULL)
		return true;
	/* --dump-columns shows what is missing instead of failing on it. */
	if (r->o.dump_only) {
		if (r->problem[0] == '\0')
			snprintf(r->problem, sizeof(r->problem), "%s", missing);
		return true;
	}
	return set_err(err, errlen, "%s: %s", r->name, missing);
}

void *csv_reader_new(FILE *fp, const char *name, const struct csv_options *opts,
                     char *err, size_t errlen)
{
	struct csv_reader *r;
	bool ok;

	if (fp == NULL)
		return NULL;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		set_err(err, errlen, "%s: out of memory", name);
		return NULL;
	}
	r->fp = fp;
	r->name = name;
	if (opts != NULL)
		r->o = *opts;
	else
		csv_options_init(&r->o);
	for (int f = 0; f < CSV_F_COUNT; f++)
		r->field_col[f] = -1;
	r->time_pow = 12;
	r->time_ticks = r->o.clock_period_fs != 0;
	if (r->o.header_line_given && r->o.header_line == 0)
		ok = open_headerless(r, err, errlen);
	else
		ok = find_header(r, err, errlen);
	if (ok && (r->layout == LAYOUT_DELIMITED || r->layout == LAYOUT_ALIGNED ||
	           r->layout == LAYOUT_BLANKS))
		ok = resolve_mapping(r, err, errlen);
	if (!ok) {
		free(r);
		return NULL;
	}
	return r;
}

const char *csv_reader_format(void *state)
{
	const struct csv_reader *r = state;

	switch (r->layout) {
	case LAYOUT_AGILENT: return "agilent-dump";
	case LAYOUT_FPGA: return "fpga-csv";
	default: return "csv";
	}
}

/* ------------------------------------------------------------------ */
/* Rows */

struct row {
	struct csv_reader *r;
	struct reader_malformed *bad;
	uint64_t time_ps;
	enum link_dir dir;
	uint8_t link;
	enum rec_kind kind;
	uint8_t flags;
	const uint8_t *bytes;
	uint32_t len;
};

static bool row_fail(struct row *w, unsigned col, const char *fmt, ...)
	PRINTF_LIKE(3, 4);

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
static const char *where(const struct row *w, enum csv_field f, char *buf,
                         size_t size)
{
	const struct csv_reader *r = w->r;
	int c = r->field_col[f];

	if (c >= 0 && (unsigned)c < r->ncols)
		snprintf(buf, size, "%s (column %d '%s')", field_names[f], c + 1,
		         r->cols[c].name);
	else if (c >= 0)
		snprintf(buf, size, "%s (column %d)", field_names[f], c + 1);
	else
		snprintf(buf, size, "%s", field_names[f]);
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
	static const struct { const char *name; enum count_unit u; } units[] = {
		{ "", CU_NONE }, { "credits", CU_NONE }, { "credit", CU_NONE },
		{ "cr", CU_NONE }, { "headers", CU_NONE }, { "hdrs", CU_NONE },
		{ "bytes", CU_BYTES }, { "byte", CU_BYTES }, { "b", CU_BYTES },
		{ "databytes", CU_BYTES }, { "dw", CU_DW }, { "dws", CU_DW },
		{ "dword", CU_DW }, { "dwords", CU_DW },
	};
	char w[24];

	if (!squeeze(s, len, w, sizeof(w)))
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
static bool cell_count(struct row *w, enum csv_field f, const struct csv_cell *c,
                       uint64_t *v, enum count_unit *u)
{
	char q[QUOTE_BUF], at[96], sq[16];
	const char *s = cell_text(w, c);
	size_t len = c->len;
	struct num n;

	*u = CU_NONE;
	if (squeeze(s, len, sq, sizeof(sq)) &&
	    (strcmp(sq, "inf") == 0 || strcmp(sq, "infinite") == 0 ||
	     strcmp(sq, "infinity") == 0)) {
		*v = 0;
		*u = CU_INF;
		return true;
	}
	if (len > 2 && s[0] == '0' && ascii_lower(s[1]) == 'x') {
		uint64_t x = 0;

		for (size_t i = 2; i < len; i++) {
			int h = ascii_hex_value(s[i]);

			if (h < 0 || x > UINT64_MAX >> 4)
				return row_fail(w, c->col, "%s: '%s' is not a number",
				                where(w, f, at, sizeof(at)), text_quote(q, s, len));
			x = x << 4 | (unsigned)h;
		}
		*v = x;
		return true;
	}
	scan_number(s, len, &n);
	if (!n.any || (n.neg && n.nd > 0) || !num_is_whole(&n) ||
	    !count_unit_parse(s + n.used, len - n.used, u))
		return row_fail(w, c->col, "%s: '%s' is not a whole number",
		                where(w, f, at, sizeof(at)), text_quote(q, s, len));
	if (!num_to_u64(&n, 0, v))
		return row_fail(w, c->col, "%s: '%s' is too large",
		                where(w, f, at, sizeof(at)), text_quote(q, s, len));
	return true;
}

/* An optional (or required) plain count in min..max. */
static bool field_uint(struct row *w, enum csv_field f, uint32_t min,
                       uint32_t max, bool required, const char *what,
                       uint32_t *out, bool *given)
{
	char q[QUOTE_BUF], at[96];
	const struct csv_cell *c = cell_of(w, f);
	enum count_unit u;
	uint64_t v;

	*given = c != NULL;
	if (c == NULL) {
		if (required)
			return row_fail(w, 1, "%s has no %s", what,
			                where(w, f, at, sizeof(at)));
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
	return r->layout != LAYOUT_FPGA && !(r->layout == LAYOUT_DELIMITED && r->delim == ',');
}

static bool row_time(struct row *w)
{
	char q[QUOTE_BUF], at[96];
	const struct csv_cell *c = cell_of(w, CSV_F_TIME);
	const struct csv_reader *r = w->r;
	const char *why = NULL, *s, *u;
	size_t len, ulen;
	struct num n;
	uint64_t ticks;

	if (r->field_col[CSV_F_TIME] < 0) {
		w->time_ps = 0;
		return true;
	}
	if (c == NULL)
		return row_fail(w, 1, "no %s", where(w, CSV_F_TIME, at, sizeof(at)));
	s = cell_text(w, c);
	len = c->len;
	scan_number_dec(s, len, decimal_comma(r), &n);
	u = s + n.used;
	ulen = len - n.used;
	trim(&u, &ulen);
	if (!r->time_ticks || ulen > 0) {
		if (parse_time(s, len, r->time_pow, decimal_comma(r), &w->time_ps, &why))
			return true;
	} else if (!n.any || (n.neg && n.nd > 0) || !num_is_whole(&n)) {
		why = "not a whole number of clock ticks";
	} else if (!num_to_u64(&n, 0, &ticks) ||
	           !ticks_to_ps(ticks, r->o.clock_period_fs, &w->time_ps) ||
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

static bool framing_symbol(const char *s, size_t len, uint8_t *b)
{
	static const struct { const char *name; uint8_t sym; } syms[] = {
		{ "SDP", 0x5C }, { "STP", 0xFB }, { "END", 0xFD }, { "EDB", 0xFE },
	};

	for (size_t i = 0; i < ARRAY_LEN(syms); i++) {
		if (ascii_eq_nocase(s, len, syms[i].name)) {
			*b = syms[i].sym;
			return true;
		}
	}
	return false;
}

/* Hex bytes in any common spelling: "5c800803", "5C 80 08", "0x5c, 0x80",
 * "5Ch 80h", "5c:80", with SDP/STP/END/EDB as words.  col is the byte
 * column of s.  Stores at most cap bytes, counting them all. */
static bool parse_hex_bytes(struct row *w, const char *s, size_t len,
                            unsigned col, uint8_t *out, size_t cap, size_t *count)
{
	char q[QUOTE_BUF];
	size_t n = 0, p = 0;

	while (p < len) {
		size_t t, tlen, digits;
		const char *tok;
		uint8_t sym;

		if (!is_alnum(s[p])) {
			p++;
			continue;
		}
		t = p;
		while (p < len && is_alnum(s[p]))
			p++;
		tok = s + t;
		tlen = p - t;
		if (framing_symbol(tok, tlen, &sym)) {
			if (n < cap)
				out[n] = sym;
			n++;
			continue;
		}
		if (tlen > 2 && tok[0] == '0' && ascii_lower(tok[1]) == 'x') {
			tok += 2;
			tlen -= 2;
		} else if (tlen > 1 && tlen <= 3 && ascii_lower(tok[tlen - 1]) == 'h') {
			tlen--;
		}
		digits = tlen;
		for (size_t i = 0; i < tlen; i++) {
			if (ascii_hex_value(tok[i]) < 0)
				return row_fail(w, col + (unsigned)t, "raw bytes: bad hex '%s'",
				                text_quote(q, s + t, p - t));
		}
		/* "0x5" or "5h" is one byte; elsewhere digits come in pairs. */
		if (digits % 2 != 0 && !(digits == 1 && tok != s + t))
			return row_fail(w, col + (unsigned)t,
			                "raw bytes: odd number of hex digits in '%s'",
			                text_quote(q, s + t, p - t));
		for (size_t i = 0; i < digits; i += 2) {
			unsigned v = (unsigned)ascii_hex_value(tok[i]);

			if (digits == 1)
				v = (unsigned)ascii_hex_value(tok[0]);
			else
				v = v << 4 | (unsigned)ascii_hex_value(tok[i + 1]);
			if (n < cap)
				out[n] = (uint8_t)v;
			n++;
		}
	}
	*count = n;
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
static bool row_raw(struct row *w, const char *s, size_t len, unsigned col,
                    enum csv_field f, int hint)
{
	char at[96];
	struct csv_reader *r = w->r;
	size_t n = 0;
	const uint8_t *b = r->bytes;
	enum rec_kind kind = (enum rec_kind)0;

	if (!parse_hex_bytes(w, s, len, col, r->bytes, sizeof(r->bytes), &n))
		return false;
	if (n > sizeof(r->bytes))
		return row_fail(w, col, "%s: %zu bytes, more than a TLP record holds",
		                where(w, f, at, sizeof(at)), n);
	if (n == 0)
		return row_fail(w, col, "%s: no bytes", where(w, f, at, sizeof(at)));
	strip_framing(&b, &n, &kind);
	if (kind == 0)
		kind = hint ? (enum rec_kind)hint
		            : n == DLLP_WIRE_LEN || n == DLLP_CONTENT_LEN ? REC_DLLP : REC_TLP;
	if (kind == REC_DLLP) {
		if (n != DLLP_WIRE_LEN && n != DLLP_CONTENT_LEN)
			return row_fail(w, col, "%s: a DLLP is 6 bytes (4 without CRC), "
			                "this one %zu", where(w, f, at, sizeof(at)), n);
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
		return row_fail(w, 1, "FC DLLP has no %s",
		                where(w, CSV_F_DATA_FC, at, sizeof(at)));
	if (!cell_count(w, CSV_F_DATA_FC, c, &v, &u))
		return false;
	if (u == CU_DW)
		return row_fail(w, c->col, "%s: give credits or bytes",
		                where(w, CSV_F_DATA_FC, at, sizeof(at)));
	if (u == CU_BYTES || (u == CU_NONE && w->r->data_fc_bytes)) {
		unsigned shift = scale >= 2 ? 2 * (scale - 1) : 0;

		if (v % 16 != 0)
			return row_fail(w, c->col, "%s: %" PRIu64 " bytes is not whole credits "
			                "(16 bytes each)", where(w, CSV_F_DATA_FC, at, sizeof(at)), v);
		v /= 16;
		if (v & ((UINT64_C(1) << shift) - 1))
			return row_fail(w, c->col, "%s: %" PRIu64 " credits do not fit data "
			                "scale %u", where(w, CSV_F_DATA_FC, at, sizeof(at)), v, scale);
		v >>= shift;
	}
	if (v > 4095)
		return row_fail(w, c->col, "%s: %" PRIu64 " out of range 0..4095",
		                where(w, CSV_F_DATA_FC, at, sizeof(at)), v);
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
		return row_fail(w, 1, "FC DLLP has no %s",
		                where(w, CSV_F_HDR_FC, at, sizeof(at)));
	if (!cell_count(w, CSV_F_HDR_FC, c, &v, &u))
		return false;
	if (u == CU_BYTES || u == CU_DW)
		return row_fail(w, c->col, "%s: header credits are a count",
		                where(w, CSV_F_HDR_FC, at, sizeof(at)));
	if (v > 255)
		return row_fail(w, c->col, "%s: %" PRIu64 " out of range 0..255",
		                where(w, CSV_F_HDR_FC, at, sizeof(at)), v);
	*field = (uint32_t)v;
	return true;
}

/* The VC of a row: its VC column and/or "(VC1)" in the type name. */
static bool row_vc(struct row *w, const struct csv_type *t, unsigned min,
                   const char *what, unsigned col, uint32_t *vc)
{
	char at[96];
	const struct csv_cell *c = cell_of(w, CSV_F_VC);
	bool given;

	if (!field_uint(w, CSV_F_VC, min, 7, false, what, vc, &given))
		return false;
	if (c != NULL && t->vc >= 0 && (uint32_t)t->vc != *vc)
		return row_fail(w, c->col,
		                "%s: VC%u, but the type says VC%d",
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
                        struct dllp *d)
{
	const char *what = dllp_type_name(t->dllp_type);
	uint32_t vc = 0, hdr = 0, data = 0, hs = 0, ds = 0;
	bool given;

	if (!row_vc(w, t, 0, what, col, &vc) ||
	    !field_uint(w, CSV_F_HDR_SCALE, 0, 3, false, what, &hs, &given) ||
	    !field_uint(w, CSV_F_DATA_SCALE, 0, 3, false, what, &ds, &given) ||
	    !row_hdr_fc(w, &hdr) || !row_data_fc(w, ds, &data))
		return false;
	d->fc_class = t->fc_class;
	d->vc = (uint8_t)vc;
	d->hdr_fc = (uint8_t)hdr;
	d->data_fc = (uint16_t)data;
	d->hdr_scale = (uint8_t)hs;
	d->data_scale = (uint8_t)ds;
	d->type_byte = dllp_fc_type_byte(t->dllp_type, t->fc_class, vc);
	return true;
}

static bool row_dllp_fields(struct row *w, const struct csv_type *t, unsigned col)
{
	struct dllp d;
	uint32_t seq;
	bool given;

	memset(&d, 0, sizeof(d));
	d.type = t->dllp_type;
	d.type_byte = t->type_byte;
	if (dllp_is_fc(t->dllp_type)) {
		if (!row_fc_dllp(w, t, col, &d))
			return false;
	} else if (t->dllp_type == DLLP_ACK || t->dllp_type == DLLP_NAK) {
		enum csv_field f = cell_of(w, CSV_F_ACKNAK_SEQ) ? CSV_F_ACKNAK_SEQ : CSV_F_SEQ;

		if (!field_uint(w, f, 0, 4095, true, dllp_type_name(t->dllp_type),
		                &seq, &given))
			return false;
		d.acknak_seq = (uint16_t)seq;
	}
	/* The 4 content bytes only: the CRC of this row is unknown. */
	dllp_encode(&d, w->r->bytes);
	w->kind = REC_DLLP;
	w->flags |= REC_F_NO_CRC;
	w->bytes = w->r->bytes;
	w->len = DLLP_CONTENT_LEN;
	return true;
}

static bool row_tlp_fields(struct row *w, const struct csv_type *t, unsigned col)
{
	struct tlp_spec spec;
	uint32_t seq = 0, len = 1, tc = 0;
	bool has_seq, has_len, given;
	bool len_optional = t->tlp_kind == TLP_CPL || t->tlp_kind == TLP_CPLLK ||
	                    t->tlp_kind == TLP_MSG;
	const char *what = tlp_kind_name(t->tlp_kind);
	size_t n;

	if (!field_uint(w, CSV_F_SEQ, 0, 4095, false, what, &seq, &has_seq) ||
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
	memset(&spec, 0, sizeof(spec));
	spec.kind = t->tlp_kind;
	spec.addr64 = t->addr64;
	spec.seq = (uint16_t)seq;
	spec.length_dw = (uint16_t)len;
	spec.tc = (uint8_t)tc;
	spec.msg_routing = 4; /* 100b: local, terminate at receiver */
	spec.has_seq = has_seq;
	spec.has_lcrc = false;
	n = tlp_encode(&spec, w->r->bytes, TLP_MAX_RECORD_LEN);
	if (n == 0)
		return row_fail(w, col, "%s cannot be encoded with these fields", what);
	w->kind = REC_TLP;
	w->flags |= REC_F_NO_CRC | (has_seq ? 0 : REC_F_NO_SEQ);
	w->bytes = w->r->bytes;
	w->len = (uint32_t)n;
	return true;
}

static bool row_event(struct row *w, const struct csv_type *t, unsigned col)
{
	uint32_t vc = 0;
	uint8_t *b = w->r->bytes;

	if (t->event == EV_VC_ENABLE &&
	    !row_vc(w, t, 1, "vc-enable", col, &vc))
		return false;
	b[0] = (uint8_t)t->event;
	b[1] = (uint8_t)vc;
	b[2] = 0;
	b[3] = 0;
	w->kind = REC_EVENT;
	w->bytes = b;
	w->len = EVENT_LEN;
	return true;
}

/* The type cells of a row, most specific first. */
struct row_type {
	struct csv_type t;        /* the specific type, if any */
	unsigned col;             /* its cell's column */
	bool specific;
	int hint;                 /* REC_DLLP / REC_TLP / REC_EVENT, 0 */
	bool skip;
	bool any_cell;
	const struct csv_cell *unknown; /* a cell naming nothing known */
	enum csv_field unknown_field;
};

static int kind_hint(enum csv_type_kind k)
{
	switch (k) {
	case CSV_T_DLLP: case CSV_T_DLLP_ANY: return REC_DLLP;
	case CSV_T_TLP: case CSV_T_TLP_ANY: return REC_TLP;
	case CSV_T_EVENT: case CSV_T_EVENT_ANY: return REC_EVENT;
	default: return 0;
	}
}

static void row_types(const struct row *w, struct row_type *rt)
{
	static const enum csv_field order[] = {
		CSV_F_DLLP_TYPE, CSV_F_TLP_TYPE, CSV_F_KIND,
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
		if (!rt->specific && (t.kind == CSV_T_DLLP || t.kind == CSV_T_TLP ||
		                      t.kind == CSV_T_EVENT)) {
			rt->t = t;
			rt->col = c->col;
			rt->specific = true;
			rt->hint = kind_hint(t.kind);
		}
	}
}

enum row_result { ROW_RECORD, ROW_MALFORMED, ROW_SKIP };

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
	struct agilent_line a;
	const char *why;
	char q[QUOTE_BUF];

	if (!parse_agilent(r->line, r->line_len, &a)) {
		row_fail(w, 1, "not an analyzer record line "
		         "('DS|US Record N @ TIME: HEX')");
		return ROW_MALFORMED;
	}
	if (!row_dir(w, r->line + a.dir_off, a.dir_len, (unsigned)a.dir_off + 1))
		return ROW_MALFORMED;
	if (!parse_time(r->line + a.time_off, a.time_len, 12, decimal_comma(r), &w->time_ps,
	                &why)) {
		row_fail(w, (unsigned)a.time_off + 1, "time '%s': %s",
		         text_quote(q, r->line + a.time_off, a.time_len), why);
		return ROW_MALFORMED;
	}
	return row_raw(w, r->line + a.hex_off, r->line_len - a.hex_off,
	               (unsigned)a.hex_off + 1, CSV_F_RAW, 0)
	       ? ROW_RECORD : ROW_MALFORMED;
}

static enum row_result row_fpga(struct row *w)
{
	struct csv_reader *r = w->r;
	struct csv_cell *c = r->cells;
	const char *why;
	char q[QUOTE_BUF];
	int pow;

	if (r->ncells < 4) {
		row_fail(w, 1, "a sniffer line is 'DIR, TIME, UNIT, 0xNN, ...': "
		         "%u fields", r->ncells);
		return ROW_MALFORMED;
	}
	if (!row_dir(w, r->line + c[0].off, c[0].len, c[0].col))
		return ROW_MALFORMED;
	if (!time_unit_lookup(r->line + c[2].off, c[2].len, &pow)) {
		row_fail(w, c[2].col, "time unit '%s' (fs ps ns us ms s)",
		         text_quote(q, r->line + c[2].off, c[2].len));
		return ROW_MALFORMED;
	}
	if (!csv_parse_time(r->line + c[1].off, c[1].len, pow, &w->time_ps, &why)) {
		row_fail(w, c[1].col, "time '%s': %s",
		         text_quote(q, r->line + c[1].off, c[1].len), why);
		return ROW_MALFORMED;
	}
	return row_raw(w, r->line + c[3].off, r->line_len - c[3].off, c[3].col,
	               CSV_F_RAW, 0) ? ROW_RECORD : ROW_MALFORMED;
}

/* Splits the current line into r->cells by the layout; false (with the
 * reason) for a quote that never closes. */
static bool split_row(struct csv_reader *r, struct row *w)
{
	unsigned unterminated = 0;

	switch (r->layout) {
	case LAYOUT_DELIMITED:
	case LAYOUT_FPGA:
		r->ncells = split_delimited(r->line, r->line_len,
		                            r->layout == LAYOUT_FPGA ? ',' : r->delim,
		                            r->cells, CSV_MAX_COLS, &unterminated);
		break;
	case LAYOUT_ALIGNED:
		r->ncells = split_aligned(r, r->line, r->line_len, r->cells);
		break;
	case LAYOUT_BLANKS:
		r->ncells = split_blanks(r->line, r->line_len, 1, r->cells, CSV_MAX_COLS);
		break;
	case LAYOUT_AGILENT:
		r->ncells = 0;
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
	struct num n;
	int c = r->field_col[CSV_F_PACKET];
	struct agilent_line a;

	if (r->layout == LAYOUT_AGILENT) {
		if (!parse_agilent(r->line, r->line_len, &a))
			return;
		s = r->line + a.rec_off;
		len = a.rec_len;
	} else if (r->layout != LAYOUT_FPGA && c >= 0 && (unsigned)c < r->ncells) {
		s = r->line + r->cells[c].off;
		len = r->cells[c].len;
	}
	if (s == NULL)
		return;
	scan_number(s, len, &n);
	if (n.any && !n.neg && n.used == len && num_is_whole(&n) &&
	    num_to_u64(&n, 0, &r->row_packet) && r->row_packet <= (uint64_t)INT64_MAX)
		r->row_has_packet = true; /* reports carry it as a signed 64-bit integer */
}

static enum row_result parse_row(struct csv_reader *r, struct row *w)
{
	if (!split_row(r, w))
		return ROW_MALFORMED;
	row_packet_number(r);
	switch (r->layout) {
	case LAYOUT_AGILENT: return row_agilent(w);
	case LAYOUT_FPGA: return row_fpga(w);
	default: return row_from_cells(w);
	}
}

/* ------------------------------------------------------------------ */
/* The reader */

/* Lines that are not rows: blank, '#' comments, table rules, a "Radix -"
 * line right after the header, the header repeated (page breaks). */
static bool skip_line(struct csv_reader *r)
{
	const char *s = r->line;
	size_t len = r->line_len, p = skip_blanks(s, len, 0);
	bool after_header = r->after_header;
	bool rule = true;

	if (p == len)
		return true;
	r->after_header = false;
	if (s[p] == '#')
		return true;
	if (after_header && starts_nocase(s + p, len - p, "radix"))
		return true;
	for (size_t i = p; i < len && rule; i++)
		rule = strchr("-=+|:*_,;\t \r", s[i]) != NULL || s[i] == r->delim;
	if (rule)
		return true;
	return r->header_line_no != 0 && len == r->header_len &&
	       len < CSV_HEADER_COPY && memcmp(s, r->header_copy, len) == 0;
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

static enum reader_result malformed(struct csv_reader *r,
                                    struct reader_malformed *bad)
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

static enum reader_result read_failed(struct csv_reader *r,
                                      struct reader_malformed *bad, int err)
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
		const struct saved_line *l;

		if (r->replay_pos >= r->shape_best.nrows)
			return LINE_EOF;
		l = &r->shape_best.rows[r->replay_pos++];
		memcpy(r->line, l->text, l->len);
		r->line[l->len] = '\0';
		r->line_len = l->len;
		r->line_no = l->line_no;
		r->line_start = l->offset;
		r->line_too_long = false;
		return LINE_OK;
	}
	errno = 0;
	return read_line(r);
}

static enum reader_result csv_next(void *state, struct record *rec,
                                   struct reader_malformed *bad)
{
	struct csv_reader *r = state;

	for (;;) {
		struct row w;
		enum line_status st;
		enum row_result res;
		const char *nul;

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
		if (r->line_too_long) {
			r->record_no++;
			bad->column = CSV_LINE_MAX + 1;
			snprintf(bad->reason, sizeof(bad->reason),
			         "line longer than %u bytes", CSV_LINE_MAX);
			return malformed(r, bad);
		}
		nul = memchr(r->line, '\0', r->line_len);
		if (nul != NULL) {
			r->record_no++;
			bad->column = (unsigned)(nul - r->line) + 1;
			snprintf(bad->reason, sizeof(bad->reason), "NUL byte in a text line");
			return malformed(r, bad);
		}
		if (skip_line(r))
			continue;
		memset(&w, 0, sizeof(w));
		w.r = r;
		w.bad = bad;
		r->record_no++;
		res = parse_row(r, &w);
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
	free(r);
}

const struct reader_ops csv_reader_ops = {
	.format_name = "csv",
	.next = csv_next,
	.close = csv_close,
};

/* ------------------------------------------------------------------ */
/* --dump-columns */

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

static const char *pow_unit(int pow)
{
	for (size_t i = 0; i < ARRAY_LEN(time_units); i++) {
		if (time_units[i].pow == pow)
			return time_units[i].name;
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
		        c->field >= 0 ? field_names[c->field] : "(no alias)");
	}
	fprintf(out, "mapping:\n");
	for (int f = 0; f < CSV_F_COUNT; f++) {
		int c = r->field_col[f];

		if (c < 0)
			continue;
		if ((unsigned)c < r->ncols)
			fprintf(out, "  %-11s <- #%d '%s' (%s)\n", field_names[f], c + 1,
			        r->cols[c].name, src[r->field_src[f]]);
		else
			fprintf(out, "  %-11s <- #%d (%s)\n", field_names[f], c + 1,
			        src[r->field_src[f]]);
	}
	fprintf(out, "  not mapped:");
	for (int f = 0; f < CSV_F_COUNT; f++) {
		if (r->field_col[f] < 0) {
			fprintf(out, " %s", field_names[f]);
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
		fprintf(out, "time: values without a unit are in %s\n", pow_unit(r->time_pow));
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
		fprintf(out, "%s%s='%s'", first ? "    " : " ", field_names[f],
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
