/* reader_csv.h: the protocol-analyzer export reader (CSV, TSV, other
 * delimiters, aligned text columns, and two headerless line layouts).
 * specification: capture-format.md section 3; issue 7.
 *
 * Contract: the reader is one more struct reader_ops (format "csv",
 * "agilent-dump" or "fpga-csv").  It streams its input line by line with
 * fixed buffers, allocates nothing per row, and turns each data row into
 * one record: rows with raw bytes carry those bytes (CRC checked by the
 * decoders), rows with decoded fields only are encoded here WITHOUT CRC
 * (flag REC_F_NO_CRC) so every report shows their CRC as unknown ("none").
 * A row that cannot be read is READER_MALFORMED with its line and the
 * 1-based byte column of the offending cell; with strict set the first
 * such row is READER_FATAL instead and reading stops.
 *
 * Everything a user can steer is in struct csv_options, filled by the
 * csv_options_set_*() parsers (one per command-line option), each of which
 * returns false with a message in err for a value it cannot take.
 */
#ifndef DLLPCHECK_READER_CSV_H
#define DLLPCHECK_READER_CSV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/record.h"
#include "read/reader.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

/* What a column can hold.  The order is the order --dump-columns prints. */
enum csv_field {
	CSV_F_TIME,
	CSV_F_DIR,
	CSV_F_LINK,
	CSV_F_KIND, /* packet type / protocol / layer */
	CSV_F_DLLP_TYPE,
	CSV_F_TLP_TYPE,
	CSV_F_VC,
	CSV_F_HDR_FC,
	CSV_F_DATA_FC,
	CSV_F_HDR_SCALE,
	CSV_F_DATA_SCALE,
	CSV_F_SEQ, /* TLP sequence number (and Ack/Nak without the next) */
	CSV_F_ACKNAK_SEQ, /* AckNak_Seq_Num of Ack/Nak */
	CSV_F_LENGTH, /* TLP Length, DW */
	CSV_F_TC,
	CSV_F_RAW,
	CSV_F_PACKET, /* the analyzer's own packet number (issue 12) */
	CSV_F_COUNT
};

#define CSV_NAME_MAX 64 /* a column name or --dir-map value */
#define CSV_DIR_MAP_MAX 16 /* --dir-map entries */

/* How --map placed one field. */
enum csv_map_how {
	CSV_MAP_AUTO = 0, /* not given: the header's aliases decide */
	CSV_MAP_NAME, /* by column name (normalised) */
	CSV_MAP_INDEX, /* by 1-based column number */
	CSV_MAP_NONE, /* "-" or "none": never read this field */
};

struct csv_map_entry {
	enum csv_map_how how;
	unsigned index; /* CSV_MAP_INDEX: 1-based */
	char name[CSV_NAME_MAX]; /* CSV_MAP_NAME: as given */
};

struct csv_dir_entry {
	char value[CSV_NAME_MAX]; /* trimmed, compared case-insensitively */
	enum link_dir dir;
};

/* delimiter values besides a character */
#define CSV_DELIM_AUTO 0
#define CSV_DELIM_ALIGNED ' ' /* aligned columns, cut by header positions */

struct csv_options {
	struct csv_map_entry map[CSV_F_COUNT];
	char delimiter; /* CSV_DELIM_AUTO, CSV_DELIM_ALIGNED or the char */
	bool header_line_given;
	unsigned header_line; /* 1-based; 0: there is no header */
	int time_unit_pow; /* ps per unitless time = 10^pow; -1: not given */
	uint64_t clock_period_fs; /* --clock-period in femtoseconds; 0: none */
	struct csv_dir_entry dir_map[CSV_DIR_MAP_MAX];
	unsigned dir_map_count;
	bool strict; /* first malformed row ends the input */
	bool dump_only; /* --dump-columns: open an export whose
	                                * columns are unknown or missing too, to
	                                * show it (csv_reader_layout() says
	                                * what is missing) */
};

/* The defaults: everything detected, unitless times in seconds. */
void csv_options_init(struct csv_options *o);
/* --map KEY=COLUMN, KEY=#N or KEY=none.  KEY is a field name (time, dir,
 * link, type, dllp-type, tlp-type, vc, hdr-fc, data-fc, hdr-scale,
 * data-scale, seq, acknak-seq, length, tc, raw, packet) or any of its
 * aliases. */
bool csv_options_set_map(struct csv_options *o, const char *arg, char *err, size_t errlen);
/* --map-file FILE: one KEY=VALUE a line ('#' comments, blank lines): map
 * keys as for --map, and delimiter, header-line, time-unit, clock-period,
 * dir-map as the options of the same name.  A saved profile per analyzer. */
bool csv_options_load_map_file(struct csv_options *o, const char *path, char *err, size_t errlen);
/* --delimiter: one character, or tab, comma, semicolon, pipe, space /
 * aligned (aligned columns), auto. */
bool csv_options_set_delimiter(struct csv_options *o, const char *arg, char *err, size_t errlen);
/* --header-line N: the header is line N (1-based); 0: no header, columns
 * are named by --map KEY=#N. */
bool csv_options_set_header_line(struct csv_options *o, const char *arg, char *err, size_t errlen);
/* --time-unit ps|ns|us|ms|s: the unit of times written without one. */
bool csv_options_set_time_unit(struct csv_options *o, const char *arg, char *err, size_t errlen);
/* --clock-period P: times without a unit count clock ticks (samples) of
 * P, a time ("4ns", "2.5 ns") or a frequency ("250MHz"). */
bool csv_options_set_clock_period(struct csv_options *o, const char *arg, char *err, size_t errlen);
/* --dir-map VALUE=down|up[,VALUE=down|up...] (repeatable): direction
 * cells equal to VALUE (case-insensitive) mean that direction. */
bool csv_options_set_dir_map(struct csv_options *o, const char *arg, char *err, size_t errlen);

/* True when head (the first bytes of an input that is not pcap) looks
 * like an export rather than a text trace: its first record line is not
 * "TIME down|up ..." and one of its lines is a header or a headerless
 * layout's line. */
bool csv_sniff(const unsigned char *head, size_t len);

/* Reads the header (or recognises a headerless layout) at once, so a file
 * that is no export fails here.  Takes ownership of fp only on success;
 * keeps name and copies opts. */
void *csv_reader_new(FILE *fp, const char *name, const struct csv_options *opts, char *err,
                     size_t errlen);
extern const struct reader_ops csv_reader_ops;
/* "csv", "agilent-dump" or "fpga-csv". */
const char *csv_reader_format(void *state);

/* ---- what an open export shows of itself (--dump-columns) ------------
 * Read-only: src/cli/dump_columns.c prints the layout below, then reads
 * the first CSV_DUMP_ROWS rows with reader_next() (so that it shows each
 * row as the analysis takes it) and, for each, csv_reader_line() and
 * csv_reader_cell().  The strings are the reader's own and live as long
 * as it does. */

/* Data rows --dump-columns shows; as many rows of a table of unknown
 * columns are kept while the header is looked for, to be shown. */
#define CSV_DUMP_ROWS 3

/* How the lines of an export are cut into cells. */
enum csv_layout {
	CSV_LAYOUT_DELIMITED, /* a delimiter character */
	CSV_LAYOUT_ALIGNED, /* columns cut at the header's positions */
	CSV_LAYOUT_BLANKS, /* no header, columns split at blank runs */
	CSV_LAYOUT_AGILENT, /* "DS Record N @ TIME: HEX" lines: no columns */
	CSV_LAYOUT_FPGA, /* "DIR, TIME, UNIT, 0xNN, ..." lines: no columns */
};

/* Where a field's column came from. */
enum csv_source { CSV_SRC_NONE, CSV_SRC_ALIAS, CSV_SRC_MAP };

/* The layout csv_reader_new() found. */
struct csv_layout_info {
	enum csv_layout layout;
	char delim; /* CSV_LAYOUT_DELIMITED: the delimiter */
	uint64_t header_line; /* 1-based; 0: no header */
	const char *header; /* the header line ("" for none), */
	bool header_cut; /* ... cut to its first bytes */
	const char *problem; /* dump_only: why the export cannot be
	                                * checked as it is; "" when it can */
	unsigned ncols; /* header columns (csv_reader_column) */
	int field_col[CSV_F_COUNT]; /* 0-based column of each field, -1: none */
	enum csv_source field_src[CSV_F_COUNT];
	/* times written without a unit: clock ticks of clock_period_fs when
	 * time_ticks, else in time_unit ("s", "ns", ...) */
	bool time_ticks;
	uint64_t clock_period_fs;
	const char *time_unit;
	bool data_fc_bytes; /* the DataFC column is in bytes */
	bool length_bytes; /* the Length column is in bytes */
};

/* One column of the header. */
struct csv_column_info {
	const char *name; /* as written, trimmed (cut) */
	const char *unit; /* in () or [] after the name, normalised; "" */
	int field; /* what the aliases make of it, or -1 */
};

void csv_reader_layout(const void *state, struct csv_layout_info *info);
/* Column i (0-based, below ncols) of the header. */
void csv_reader_column(const void *state, unsigned i, struct csv_column_info *col);
/* The line of the row read last (by csv_reader_ops.next): its physical
 * line number, and its text in *text, *len. */
uint64_t csv_reader_line(const void *state, const char **text, size_t *len);
/* The cell of field f in that row (trimmed, unquoted; it may be empty);
 * false when the field has no column or the row no such cell. */
bool csv_reader_cell(const void *state, enum csv_field f, const char **text, size_t *len);

/* ---- parsers, exposed for the unit tests ------------------------------ */

/* A column name normalised: trimmed, case-folded, spaces and _-.# dropped;
 * a unit in () or [] goes to unit (normalised the same way).  Both
 * NUL-terminated and cut to their size. */
void csv_normalise_name(const char *s, size_t len, char *name, size_t name_size, char *unit,
                        size_t unit_size);
/* The field a normalised name stands for, or -1.  *ticks set when the
 * name counts clock ticks or samples rather than time. */
int csv_field_lookup(const char *norm, bool *ticks);
/* The i-th alias (normalised) and its field (when field is not NULL), NULL
 * past the last: for listing them, and for the tests. */
const char *csv_alias_at(size_t i, int *field);
/* The field name --map and --dump-columns use ("hdr-fc"). */
const char *csv_field_name(enum csv_field f);
/* The delimiter a line most likely uses (',' '\t' ';' '|'), counting
 * outside quotes; 0 when it has none of them. */
char csv_guess_delimiter(const char *line, size_t len);
/* A time cell to picoseconds: plain or scientific, digits grouped by
 * single spaces, an optional unit (fs ps ns us ms s); without a unit it
 * is in 10^default_pow ps.  Rounds to the nearest ps.  False with a
 * reason in why, also for a time of 2^63 ps or more (record.h). */
bool csv_parse_time(const char *s, size_t len, int default_pow, uint64_t *ps, const char **why);
/* A direction cell: dir_map first, then down/downstream/ds/dn/->, and
 * up/upstream/us/<-. */
bool csv_parse_dir(const char *s, size_t len, const struct csv_options *o, enum link_dir *dir);

/* What a type cell names. */
enum csv_type_kind {
	CSV_T_UNKNOWN,
	CSV_T_SKIP, /* physical layer: ordered sets, idle: not a record */
	CSV_T_DLLP_ANY, /* "DLLP", "Data Link" */
	CSV_T_TLP_ANY, /* "TLP", "Transaction" */
	CSV_T_EVENT_ANY, /* "Event" */
	CSV_T_DLLP, /* a DLLP type: dllp_type, fc_class, vc */
	CSV_T_TLP, /* a TLP type: tlp_kind, addr64 */
	CSV_T_EVENT, /* a link event: event */
};

struct csv_type {
	enum csv_type_kind kind;
	enum dllp_type dllp_type;
	enum fc_class fc_class;
	int vc; /* from "(VC1)" in the name; -1: not given */
	bool by_byte; /* given as a type byte */
	uint8_t type_byte;
	enum tlp_kind tlp_kind;
	bool addr64;
	unsigned event; /* enum link_event */
};

/* A type cell: "UpdateFC-P", "UPDATEFC_P", "UpdateFC-P (VC0)", "0x80",
 * "MWr32", "MemWr", "link-up", "DLLP", "SKP"... */
void csv_parse_type(const char *s, size_t len, struct csv_type *t);

#endif
