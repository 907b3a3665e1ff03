/* csv_internal.h: what the pieces of the export reader share (private to
 * src/read/csv/; the interface is reader_csv.h).
 * specification: capture-format.md section 3; issue 7.
 *
 * The reader is one struct csv_reader per input (reader_csv.c), read by
 * pieces with one job each:
 *   csv_chars.c    character classes, trimming, messages
 *   csv_columns.c  column names, their aliases and the field names
 *   csv_split.c    lines into cells (delimited, blank runs, aligned)
 *   csv_time.c     time cells and the units of clock ticks
 *   csv_types.c    direction and packet-type cells
 *   csv_options.c  the command-line options and map files
 *   csv_sniff.c    line shapes: headers, the headerless layouts, tables
 *   csv_header.c   finding the header (or layout) when an input opens
 *   csv_mapping.c  columns to fields, and the units of their values
 *   csv_rows.c     one row to one record
 *   reader_csv.c   the reader: lines, opening, next, close, and what an
 *                  open export shows of itself (csv_reader_layout())
 * --dump-columns (src/cli/dump_columns.c) reads an export through
 * reader_next() and those accessors, never through this header.
 */
#ifndef DLLPCHECK_CSV_INTERNAL_H
#define DLLPCHECK_CSV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/attrs.h"
#include "core/record.h"
#include "read/csv/reader_csv.h"
#include "read/line_reader.h"
#include "read/reader.h"
#include "wire/tlp.h"

#define CSV_LINE_MAX LINE_READER_MAX
#define CSV_MAX_COLS 256u
#define CSV_HEADER_SEARCH 100u /* lines searched for a header */
#define CSV_UNIT_MAX 16u
#define CSV_HEADER_COPY 1024u /* header text kept for --dump-columns */
#define CSV_SNIFF_LINE 4096u /* longest line csv_sniff() looks at */

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* One cell of the current line: content line[off .. off+len), already
 * trimmed and unquoted; col is the 1-based byte column where it starts. */
struct csv_cell {
	uint32_t off, len, col;
};

struct csv_column {
	char name[CSV_NAME_MAX]; /* as written, trimmed (cut) */
	char norm[CSV_NAME_MAX];
	char unit[CSV_UNIT_MAX];
	uint32_t start, end; /* the name's byte range in the header line */
	int field; /* what the aliases make of it, or -1 */
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
	bool have; /* a candidate header */
	char delim;
	unsigned ncells, rows;
	unsigned lines; /* lines fed, blank and comment lines not counted */
	bool digits; /* a row has a cell starting with a digit */
};

enum shape_event { SHAPE_NONE, SHAPE_HEADER, SHAPE_ROW, SHAPE_BREAK };

/* A line kept while looking for the header: its len bytes (at most
 * CSV_SNIFF_LINE) are the keeping table's text[at ..]. */
struct saved_line {
	uint64_t line_no, offset;
	size_t len, at;
};

/* A table seen while looking for the header: its shape, header line and
 * first rows (which --dump-columns shows when no header is recognised).
 * The lines' bytes are kept one after the other in text (used of cap
 * bytes), sized to them: the lines a table may have are 16 KB, those of
 * an export's banner a few dozen bytes. */
#define SHAPE_TEXT_MAX ((CSV_DUMP_ROWS + 1) * CSV_SNIFF_LINE)

struct shape_keep {
	struct shape sh;
	struct saved_line header;
	struct saved_line rows[CSV_DUMP_ROWS];
	unsigned nrows;
	char *text;
	size_t used, cap;
};

/* The table being read (cur) and the one with the most rows yet (best). */
struct csv_shapes {
	struct shape_keep cur, best;
};

/* "DS Record 1041 @ 0.000123456s (+8ns): 5c800803f0f2fcfd" */
struct agilent_line {
	size_t dir_off, dir_len;
	size_t rec_off, rec_len; /* the analyzer's record number */
	size_t time_off, time_len;
	size_t hex_off;
};

struct csv_reader {
	FILE *fp;
	const char *name;
	struct csv_options o;
	enum csv_layout layout;
	char delim;
	bool delim_given;

	/* header */
	uint64_t header_line_no; /* 0: none */
	char header_copy[CSV_HEADER_COPY];
	size_t header_len; /* full length; copy cut at CSV_HEADER_COPY-1 */
	unsigned ncols;
	struct csv_column *cols; /* ncols of them, cols_cap allocated */
	size_t cols_cap;
	int field_col[CSV_F_COUNT]; /* 0-based column, -1: none */
	enum csv_source field_src[CSV_F_COUNT];
	int time_pow; /* unitless times are 10^time_pow ps */
	bool time_ticks; /* unitless times count --clock-period */
	bool data_fc_bytes; /* the DataFC column is in bytes */
	bool length_bytes; /* the Length column is in bytes */

	/* input position */
	struct line_reader lines;
	uint64_t line_no, record_no, line_start; /* of the current line */
	bool pending; /* line[] holds a data line not yet parsed */
	size_t line_len;
	bool line_too_long;
	size_t line_nul; /* 1-based column of its first NUL byte, 0: none */
	bool after_header; /* a "Radix -" line may come next */
	bool failed;
	int read_errno;
	bool stopped; /* --strict ended the input */
	uint64_t row_packet; /* the current row's packet-number cell, */
	bool row_has_packet; /* when it holds a whole number */
	struct agilent_line agilent; /* the current agilent-dump row, split */
	bool agilent_ok; /* (split_row()), when it is one */

	/* no header recognised: the table it may be (find_header()) */
	struct csv_shapes shapes;
	unsigned replay_pos; /* --dump-columns: rows of shapes.best given */
	bool replay_only; /* ... and then the end */
	char problem[256]; /* --dump-columns: why it cannot be checked */

	/* The current line, NUL-terminated, and a copy to split: each of
	 * line_cap bytes, sized to the longest line read yet (at most
	 * CSV_LINE_MAX + 1; a saved line, read into them, fits), not to the
	 * longest line allowed: a reader of a small export stays small
	 * (csv_line_room()). */
	char *line;
	char *scratch;
	size_t line_cap, scratch_cap;

	unsigned ncells;
	/* Last, and not zeroed when the reader is made (csv_reader_new()):
	 * 7 KB of the struct's 11, of which a small export touches little.
	 * Only cells[0 .. ncells) are read, after the split that wrote them;
	 * the record bytes after the row that wrote them. */
	struct csv_cell cells[CSV_MAX_COLS];
	uint8_t bytes[TLP_MAX_RECORD_LEN + 8];
};

/* ------------------------------------------------------------------ */
/* Characters and messages (csv_chars.c; the classes inline, as they are
 * asked of every byte) */

/* The classes of a byte, as bits of csv_char_class[] (csv_chars.c): one
 * look-up where the comparisons were five (a blank) or six (a letter or
 * digit).  (Bit sets tested by arithmetic cost the fuzzer one traced
 * comparison less per byte, but the plain build 25% more time on a 55 MB
 * export: the table it is.)  The unit suite csv_chars checks each of the
 * 256 entries against the definitions. */
enum {
	CSV_CC_BLANK = 1, /* ' ' TAB CR VT FF */
	CSV_CC_ALNUM = 2, /* 0-9 A-Z a-z */
	CSV_CC_NAME_DROP = 4, /* dropped from a column name: blanks, _ - . # */
	CSV_CC_HEX = 8, /* 0-9 A-F a-f */
};
extern const unsigned char csv_char_class[256];

/* The classes of byte ch (CSV_CC_*); the classes of several bytes can be
 * combined and tested once. */
static inline unsigned csv_classes(char ch)
{
	return csv_char_class[(unsigned char)ch];
}

static inline bool is_blank(char c)
{
	return (csv_classes(c) & CSV_CC_BLANK) != 0;
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9'; /* one comparison already */
}

static inline bool is_alnum(char c)
{
	return (csv_classes(c) & CSV_CC_ALNUM) != 0;
}

static inline bool is_hex(char c)
{
	return (csv_classes(c) & CSV_CC_HEX) != 0;
}

static inline bool is_name_drop(char c)
{
	return (csv_classes(c) & CSV_CC_NAME_DROP) != 0;
}

bool csv_starts_nocase(const char *s, size_t len, const char *word);
void csv_trim(const char **s, size_t *len);
bool csv_set_err(char *err, size_t errlen, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Lower-case letters and digits only: "UpdateFC-P (VC0)" -> "updatefcpvc0".
 * Returns false when the result does not fit. */
bool csv_squeeze(const char *s, size_t len, char *out, size_t size);
size_t csv_skip_blanks(const char *s, size_t len, size_t p);
/* 3 when s starts with a UTF-8 byte order mark, else 0 */
size_t csv_strip_bom(const char *s, size_t len);

/* ------------------------------------------------------------------ */
/* Column names and aliases (csv_columns.c) */

extern const char *const csv_field_names[CSV_F_COUNT];
/* Appends the normalised form of s[0..len) to out (size bytes). */
void csv_normalise_into(const char *s, size_t len, char *out, size_t size);
/* The field a header cell names (raw text s, normalised norm), or -1: its
 * aliases, and a bare "#" (normalised to nothing) for the packet number. */
int csv_column_field(const char *s, size_t len, const char *norm);
/* Fields that make a line a header (with one more known column). */
bool csv_field_is_primary(int f);

/* ------------------------------------------------------------------ */
/* Splitting lines into cells (csv_split.c) */

/* How a header line is split. */
struct split_mode {
	enum csv_layout layout; /* CSV_LAYOUT_DELIMITED or CSV_LAYOUT_ALIGNED */
	char delim;
	unsigned min_run; /* aligned: blanks between names */
};

/* Splits line[0..len) at delim, honouring "quoted" cells; see csv_split.c. */
unsigned csv_split_delimited(char *line, size_t len, char delim, struct csv_cell *cells,
                             unsigned max, unsigned *unterminated);
/* Splits at runs of blanks: of at least min_run blanks, or any run holding
 * a tab. */
unsigned csv_split_blanks(const char *line, size_t len, unsigned min_run, struct csv_cell *cells,
                          unsigned max);
/* Cuts a row of an aligned table at the header's column positions. */
unsigned csv_split_aligned(const struct csv_reader *r, const char *row, size_t len,
                           struct csv_cell *cells);
/* Splits a copy of line (in scratch) the way mode says. */
unsigned csv_split_copy(const char *line, size_t len, char *scratch, const struct split_mode *mode,
                        struct csv_cell *cells);

/* ------------------------------------------------------------------ */
/* Raw bytes written as hex (csv_hex.c) */

enum csv_hex_status {
	CSV_HEX_OK,
	CSV_HEX_BAD, /* a token holds a character that is no hex digit */
	CSV_HEX_ODD, /* a token holds an odd number of hex digits */
};

/* What csv_hex_bytes() read: the bytes, or the token an error is about
 * (s[tok_off .. tok_off + tok_len), "0x" or 'h' included). */
struct csv_hex {
	size_t count;
	size_t tok_off, tok_len;
};

/* Hex bytes in any common spelling, "5c800803", "5C 80 08", "0x5c, 0x80",
 * "5Ch 80h", "5c:80", with SDP/STP/END/EDB as words, from s[0 .. len):
 * stores at most cap of them in out and counts them all (h->count); stops
 * at the first token that is no hex. */
enum csv_hex_status csv_hex_bytes(const char *s, size_t len, uint8_t *out, size_t cap,
                                  struct csv_hex *h);

/* ------------------------------------------------------------------ */
/* Times (csv_time.c; the numbers and units are base/number.h's and
 * base/time_unit.h's) */

/* A unit word naming clock ticks or samples. */
bool csv_ticks_unit(const char *s, size_t len);
/* csv_parse_time(), with decimal commas when comma is set. */
bool csv_parse_time_comma(const char *s, size_t len, int default_pow, bool comma, uint64_t *ps,
                          const char **why);

/* ------------------------------------------------------------------ */
/* Line shapes (csv_sniff.c) */

/* The split of line that makes the best header; its score (0: none).
 * scratch and cells are left as the last split tried: callers split the
 * line again the way *best says. */
unsigned csv_guess_header(const char *line, size_t len, char *scratch, struct csv_cell *cells,
                          const struct csv_options *o, struct split_mode *best);
bool csv_parse_agilent(const char *s, size_t len, struct agilent_line *a);
/* "<-, 1234560, ns, 0x5c, 0x80, ...": arrow, time, unit, bytes. */
bool csv_is_fpga_line(const char *line, size_t len, char *scratch, struct csv_cell *cells);
/* Feeds one line to the shape of a table of unknown columns. */
enum shape_event csv_shape_feed(struct shape *sh, const char *line, size_t len, char forced,
                                char *scratch, struct csv_cell *cells);
/* A table that runs to the end of the lines looked at. */
bool csv_shape_is_table(const struct shape *sh);
/* A table that ended, long enough for what ended it to be a trailer. */
bool csv_shape_was_table(const struct shape *before, enum shape_event ev);

/* ------------------------------------------------------------------ */
/* Opening (csv_header.c, csv_mapping.c) */

/* The header, or a headerless layout, among the first lines. */
bool csv_find_header(struct csv_reader *r, char *err, size_t errlen);
/* --header-line 0: no header. */
bool csv_open_headerless(struct csv_reader *r, char *err, size_t errlen);
/* The fields' columns from the aliases and --map, and their units. */
bool csv_resolve_mapping(struct csv_reader *r, char *err, size_t errlen);

/* ------------------------------------------------------------------ */
/* Lines and rows (reader_csv.c, csv_rows.c) */

/* Reads one line (without '\n') into r->line: LINE_OK (also for a line
 * too long, flagged), LINE_EOF or LINE_ERROR. */
enum line_status csv_read_line(struct csv_reader *r);

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

enum row_result { ROW_RECORD, ROW_MALFORMED, ROW_SKIP };

/* The current line as a row of r's layout. */
enum row_result csv_parse_row(struct csv_reader *r, struct row *w);

#endif
