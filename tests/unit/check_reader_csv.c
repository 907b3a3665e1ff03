/* check_reader_csv.c: the analyzer export reader (reader_csv.c): its value
 * parsers (names, aliases, delimiters, times, directions, types, option
 * values), format sniffing, and whole exports read through fmemopen().
 *
 * Field-only rows must come out without CRC (REC_F_NO_CRC) and decode to
 * the fields written; raw rows must carry exactly their bytes, framing
 * stripped; malformed rows must name their line and column.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/dump_columns.h"
#include "wire/dllp.h"
#include "read/reader.h"
#include "read/csv/reader_csv.h"
#include "core/record.h"
#include "suites.h"
#include "wire/tlp.h"

/* Declared in suites.h once the suite is registered there. */
Suite *suite_reader_csv(void);

/* ------------------------------------------------------------------ */
/* Helpers */

static FILE *mem_file(const char *text, size_t len)
{
	FILE *fp = fmemopen(NULL, len + 1, "w+");

	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
	rewind(fp);
	return fp;
}

static void *open_csv_opts(const char *text, const struct csv_options *o)
{
	char err[512] = "";
	FILE *fp = mem_file(text, strlen(text));
	void *r = csv_reader_new(fp, "t.csv", o, err, sizeof(err));

	ck_assert_msg(r != NULL, "open failed: %s", err);
	return r;
}

static void *open_csv(const char *text)
{
	return open_csv_opts(text, NULL);
}

/* The error csv_reader_new() gives for text (which must fail). */
static void open_fails(const char *text, const struct csv_options *o,
                       const char *expect)
{
	char err[512] = "";
	FILE *fp = mem_file(text, strlen(text));
	void *r = csv_reader_new(fp, "t.csv", o, err, sizeof(err));

	ck_assert_ptr_null(r);
	fclose(fp);
	ck_assert_msg(strstr(err, expect) != NULL, "error '%s' lacks '%s'", err, expect);
}

/* What --dump-columns prints for text[0..n) (cli/dump_columns.c, which
 * reads the rows with reader_next()); o may be NULL.  The caller frees it. */
static char *dump_of_n(const char *text, size_t n, const struct csv_options *o)
{
	struct reader_opts ro = { .format = INPUT_CSV, .csv = o, .csv_steered = true };
	char err[512] = "", *buf = NULL;
	size_t len = 0;
	FILE *fp = mem_file(text, n), *out;
	struct reader *r = reader_open_stream(fp, "t.csv", true, &ro, err, sizeof(err));

	ck_assert_msg(r != NULL, "open failed: %s", err);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	dump_columns(out, "t.csv", r);
	fclose(out);
	reader_close(r);
	return buf;
}

static char *dump_of(const char *text, const struct csv_options *o)
{
	return dump_of_n(text, strlen(text), o);
}

static enum reader_result next(void *r, struct record *rec,
                               struct reader_malformed *bad)
{
	memset(bad, 0, sizeof(*bad));
	return csv_reader_ops.next(r, rec, bad);
}

static void expect_record(void *r, struct record *rec)
{
	struct reader_malformed bad;
	enum reader_result res = next(r, rec, &bad);

	ck_assert_msg(res == READER_RECORD, "result %d, line %llu column %u: %s",
	              res, (unsigned long long)bad.pos.line, bad.column, bad.reason);
}

static void expect_malformed(void *r, uint64_t line, unsigned col,
                             const char *reason)
{
	struct record rec;
	struct reader_malformed bad;
	enum reader_result res = next(r, &rec, &bad);

	ck_assert_int_eq(res, READER_MALFORMED);
	ck_assert_uint_eq(bad.pos.line, line);
	ck_assert_msg(bad.column == col, "column %u, expected %u (%s)", bad.column,
	              col, bad.reason);
	ck_assert_msg(strstr(bad.reason, reason) != NULL, "reason '%s' lacks '%s'",
	              bad.reason, reason);
}

static void expect_eof(void *r)
{
	struct record rec;
	struct reader_malformed bad;

	ck_assert_int_eq(next(r, &rec, &bad), READER_EOF);
}

static void close_csv(void *r)
{
	csv_reader_ops.close(r);
}

static void decode_dllp(const struct record *rec, struct dllp *d)
{
	ck_assert_int_eq(rec->kind, REC_DLLP);
	ck_assert_int_eq(dllp_decode(rec->bytes, rec->len,
	                             !(rec->flags & REC_F_NO_CRC), d),
	                 DLLP_DECODE_OK);
}

/* ------------------------------------------------------------------ */
/* Names and aliases */

static void check_norm(const char *in, const char *name, const char *unit)
{
	char n[64], u[16];

	csv_normalise_name(in, strlen(in), n, sizeof(n), u, sizeof(u));
	ck_assert_str_eq(n, name);
	ck_assert_str_eq(u, unit);
}

START_TEST(test_normalise)
{
	check_norm("  Time Stamp ", "timestamp", "");
	check_norm("Time (ns)", "time", "ns");
	check_norm("Abs. Time [us]", "abstime", "us");
	check_norm("Seq_Num #", "seqnum", "");
	check_norm("AckNak-Seq.Num", "acknakseqnum", "");
	check_norm("Data FC (Bytes)", "datafc", "bytes");
	check_norm("HdrFC", "hdrfc", "");
	check_norm("", "", "");
	check_norm("(ns)", "", "ns");
	check_norm("Time (ns", "time(ns", "");
}
END_TEST

static int lookup(const char *header)
{
	char n[64], u[16];
	bool ticks;

	csv_normalise_name(header, strlen(header), n, sizeof(n), u, sizeof(u));
	return csv_field_lookup(n, &ticks);
}

START_TEST(test_aliases)
{
	static const struct { const char *name; int field; } cases[] = {
		{ "Timestamp", CSV_F_TIME }, { "Time", CSV_F_TIME }, { "TS", CSV_F_TIME },
		{ "Start Time", CSV_F_TIME }, { "Abs Time", CSV_F_TIME },
		{ "Elapsed Time", CSV_F_TIME }, { "Ticks", CSV_F_TIME },
		{ "Direction", CSV_F_DIR }, { "Dir", CSV_F_DIR }, { "Link Dir", CSV_F_DIR },
		{ "Channel", CSV_F_DIR }, { "Port", CSV_F_DIR }, { "Side", CSV_F_DIR },
		{ "Packet Type", CSV_F_KIND }, { "Type", CSV_F_KIND },
		{ "Protocol", CSV_F_KIND }, { "Layer", CSV_F_KIND },
		{ "DLLP Type", CSV_F_DLLP_TYPE }, { "TLP Type", CSV_F_TLP_TYPE },
		{ "Fmt", CSV_F_TLP_TYPE },
		{ "VC", CSV_F_VC }, { "VC ID", CSV_F_VC },
		{ "Hdr FC", CSV_F_HDR_FC }, { "Header Credits", CSV_F_HDR_FC },
		{ "Data FC", CSV_F_DATA_FC }, { "Data Credits", CSV_F_DATA_FC },
		{ "Hdr Scale", CSV_F_HDR_SCALE }, { "Data Scale", CSV_F_DATA_SCALE },
		{ "Seq", CSV_F_SEQ }, { "Seq Num", CSV_F_SEQ },
		{ "AckNak Seq Num", CSV_F_ACKNAK_SEQ },
		{ "Length", CSV_F_LENGTH }, { "TC", CSV_F_TC },
		{ "Raw", CSV_F_RAW }, { "Raw Data", CSV_F_RAW }, { "Bytes", CSV_F_RAW },
		{ "Data", CSV_F_RAW }, { "Hex", CSV_F_RAW }, { "Payload", CSV_F_RAW },
		{ "Symbols", CSV_F_RAW },
		{ "Packet #", CSV_F_PACKET }, { "Packet", CSV_F_PACKET },
		{ "Pkt", CSV_F_PACKET }, { "Packet Number", CSV_F_PACKET },
		{ "No.", CSV_F_PACKET }, { "Index", CSV_F_PACKET }, { "Frame", CSV_F_PACKET },
		{ "Comment", -1 },
	};
	bool ticks;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_msg(lookup(cases[i].name) == cases[i].field, "%s -> %d",
		              cases[i].name, lookup(cases[i].name));
	ck_assert_int_eq(csv_field_lookup("ticks", &ticks), CSV_F_TIME);
	ck_assert(ticks);
	ck_assert_int_eq(csv_field_lookup("time", &ticks), CSV_F_TIME);
	ck_assert(!ticks);
	ck_assert_str_eq(csv_field_name(CSV_F_HDR_FC), "hdr-fc");
}
END_TEST

/* csv_field_lookup() searches the alias table by halves: every entry must
 * be found, as itself, and names between and around them must not. */
START_TEST(test_alias_table_searchable)
{
	const char *name;
	int field, found;
	size_t i;

	for (i = 0; (name = csv_alias_at(i, &field)) != NULL; i++) {
		char between[64];

		found = csv_field_lookup(name, NULL);
		ck_assert_msg(found == field, "alias %zu '%s' -> %d, not %d", i, name, found,
		              field);
		/* "name~" sorts after name and before the next one unless the
		 * next starts with name: a miss either way */
		snprintf(between, sizeof(between), "%s~", name);
		ck_assert_int_eq(csv_field_lookup(between, NULL), -1);
	}
	ck_assert_uint_eq(i, 101);
	ck_assert_int_eq(csv_field_lookup("", NULL), -1);
	ck_assert_int_eq(csv_field_lookup("a", NULL), -1);
	ck_assert_int_eq(csv_field_lookup("zzz", NULL), -1);
}
END_TEST

START_TEST(test_guess_delimiter)
{
	ck_assert_int_eq(csv_guess_delimiter("a,b,c", 5), ',');
	ck_assert_int_eq(csv_guess_delimiter("a\tb\tc;d", 7), '\t');
	/* commas inside quotes do not count */
	ck_assert_int_eq(csv_guess_delimiter("\"a,b,c\";d;e", 11), ';');
	ck_assert_int_eq(csv_guess_delimiter("a|b|c", 5), '|');
	ck_assert_int_eq(csv_guess_delimiter("a  b  c", 7), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Values */

static uint64_t time_ok(const char *s, int pow)
{
	uint64_t ps = 0;
	const char *why = NULL;

	ck_assert_msg(csv_parse_time(s, strlen(s), pow, &ps, &why), "'%s': %s", s,
	              why ? why : "");
	return ps;
}

static void time_bad(const char *s, const char *why_part)
{
	uint64_t ps;
	const char *why = NULL;

	ck_assert_msg(!csv_parse_time(s, strlen(s), 12, &ps, &why), "'%s' parsed", s);
	ck_assert_msg(strstr(why, why_part) != NULL, "'%s': %s", s, why);
}

START_TEST(test_time)
{
	ck_assert_uint_eq(time_ok("0.000000100", 12), 100000);
	ck_assert_uint_eq(time_ok("1.5e-7", 12), 150000);
	ck_assert_uint_eq(time_ok("1.500000000000E-07", 12), 150000);
	ck_assert_uint_eq(time_ok("234.245 us", 12), 234245000);
	ck_assert_uint_eq(time_ok("1.000000123s", 12), UINT64_C(1000000123000));
	ck_assert_uint_eq(time_ok("0.000 001 234 s", 12), 1234000);
	ck_assert_uint_eq(time_ok("10", 3), 10000);
	ck_assert_uint_eq(time_ok(" 10 ns ", 12), 10000);
	ck_assert_uint_eq(time_ok("10NS", 12), 10000);
	ck_assert_uint_eq(time_ok("2 ms", 12), UINT64_C(2000000000));
	ck_assert_uint_eq(time_ok("1.5 ps", 12), 2);   /* nearest ps */
	ck_assert_uint_eq(time_ok("1.49 ps", 12), 1);
	ck_assert_uint_eq(time_ok("+3ns", 12), 3000);
	ck_assert_uint_eq(time_ok("-0", 12), 0);
	ck_assert_uint_eq(time_ok("1.2345678901234567890123456789012345678901 s", 12),
	                  UINT64_C(1234567890123));
	ck_assert_uint_eq(time_ok("9223372.036854775807 s", 12), (uint64_t)INT64_MAX);
	time_bad("-1 ns", "negative");
	time_bad("abc", "not a time");
	time_bad("5 parsecs", "unknown time unit");
	time_bad("1e30 s", "over 2^63");
	time_bad("9223372.036854775808 s", "over 2^63");
}
END_TEST

START_TEST(test_dir)
{
	static const struct { const char *s; enum link_dir d; } ok[] = {
		{ "Downstream", DIR_DOWN }, { "DS", DIR_DOWN }, { "down", DIR_DOWN },
		{ "Down", DIR_DOWN }, { "->", DIR_DOWN }, { " dn ", DIR_DOWN },
		{ "Upstream", DIR_UP }, { "US", DIR_UP }, { "Up", DIR_UP },
		{ "<-", DIR_UP },
	};
	struct csv_options o;
	enum link_dir d;
	char err[200];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_msg(csv_parse_dir(ok[i].s, strlen(ok[i].s), NULL, &d), "%s", ok[i].s);
		ck_assert_int_eq(d, ok[i].d);
	}
	ck_assert(!csv_parse_dir("sideways", 8, NULL, &d));
	ck_assert(!csv_parse_dir("0", 1, NULL, &d));
	csv_options_init(&o);
	ck_assert(csv_options_set_dir_map(&o, "0=down, 1=up", err, sizeof(err)));
	ck_assert(csv_options_set_dir_map(&o, "->=up,<-=down", err, sizeof(err)));
	ck_assert_uint_eq(o.dir_map_count, 4);
	ck_assert(csv_parse_dir("1", 1, &o, &d));
	ck_assert_int_eq(d, DIR_UP);
	ck_assert(csv_parse_dir(" 0 ", 3, &o, &d));
	ck_assert_int_eq(d, DIR_DOWN);
	/* the map wins over the built-in arrows */
	ck_assert(csv_parse_dir("->", 2, &o, &d));
	ck_assert_int_eq(d, DIR_UP);
	ck_assert(!csv_options_set_dir_map(&o, "0=sideways", err, sizeof(err)));
	ck_assert(!csv_options_set_dir_map(&o, "nothing", err, sizeof(err)));
}
END_TEST

static void type_is(const char *s, enum csv_type_kind kind, struct csv_type *t)
{
	csv_parse_type(s, strlen(s), t);
	ck_assert_msg(t->kind == kind, "'%s': kind %d, expected %d", s, t->kind, kind);
}

START_TEST(test_types)
{
	struct csv_type t;

	type_is("UpdateFC-P", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.dllp_type, DLLP_UPDATEFC);
	ck_assert_int_eq(t.fc_class, FC_P);
	ck_assert_int_eq(t.vc, -1);
	type_is("UPDATEFC_P", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.dllp_type, DLLP_UPDATEFC);
	type_is("UpdateFC-P (VC0)", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.vc, 0);
	type_is("UpdateFC-NP (VC 3)", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.fc_class, FC_NP);
	ck_assert_int_eq(t.vc, 3);
	type_is("InitFC1-CPL", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.dllp_type, DLLP_INITFC1);
	ck_assert_int_eq(t.fc_class, FC_CPL);
	type_is("InitFC2 Non-Posted", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.dllp_type, DLLP_INITFC2);
	ck_assert_int_eq(t.fc_class, FC_NP);
	type_is("0x91", CSV_T_DLLP, &t);      /* UpdateFC-NP VC1 */
	ck_assert(t.by_byte);
	ck_assert_int_eq(t.dllp_type, DLLP_UPDATEFC);
	ck_assert_int_eq(t.fc_class, FC_NP);
	ck_assert_int_eq(t.vc, 1);
	type_is("00h", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.dllp_type, DLLP_ACK);
	type_is("Ack", CSV_T_DLLP, &t);
	type_is("PM_Enter_L1", CSV_T_DLLP, &t);
	ck_assert_int_eq(t.dllp_type, DLLP_PM_ENTER_L1);
	type_is("MWr32", CSV_T_TLP, &t);
	ck_assert_int_eq(t.tlp_kind, TLP_MWR);
	ck_assert(!t.addr64);
	type_is("MemWr 64", CSV_T_TLP, &t);
	ck_assert(t.addr64);
	type_is("MRd", CSV_T_TLP, &t);
	ck_assert_int_eq(t.tlp_kind, TLP_MRD);
	type_is("TLP CplD", CSV_T_TLP, &t);
	ck_assert_int_eq(t.tlp_kind, TLP_CPLD);
	type_is("Link Up", CSV_T_EVENT, &t);
	ck_assert_uint_eq(t.event, EV_LINK_UP);
	type_is("vc-enable (VC1)", CSV_T_EVENT, &t);
	ck_assert_int_eq(t.vc, 1);
	type_is("DLLP", CSV_T_DLLP_ANY, &t);
	type_is("Data Link", CSV_T_DLLP_ANY, &t);
	type_is("TLP", CSV_T_TLP_ANY, &t);
	type_is("SKP", CSV_T_SKIP, &t);
	type_is("TS1", CSV_T_SKIP, &t);
	type_is("Logical Idle", CSV_T_SKIP, &t);
	type_is("Bogus", CSV_T_UNKNOWN, &t);
	type_is("UpdateFC-P (VC9)", CSV_T_UNKNOWN, &t);
	type_is("", CSV_T_UNKNOWN, &t);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Options */

START_TEST(test_options)
{
	struct csv_options o;
	char err[400];

	csv_options_init(&o);
	ck_assert(csv_options_set_map(&o, "time=#2", err, sizeof(err)));
	ck_assert_int_eq(o.map[CSV_F_TIME].how, CSV_MAP_INDEX);
	ck_assert_uint_eq(o.map[CSV_F_TIME].index, 2);
	ck_assert(csv_options_set_map(&o, "Hdr FC = Header Credits (VC0)", err, sizeof(err)));
	ck_assert_int_eq(o.map[CSV_F_HDR_FC].how, CSV_MAP_NAME);
	ck_assert_str_eq(o.map[CSV_F_HDR_FC].name, "Header Credits (VC0)");
	ck_assert(csv_options_set_map(&o, "timestamp=When", err, sizeof(err)));
	ck_assert_int_eq(o.map[CSV_F_TIME].how, CSV_MAP_NAME);
	ck_assert(csv_options_set_map(&o, "raw=none", err, sizeof(err)));
	ck_assert_int_eq(o.map[CSV_F_RAW].how, CSV_MAP_NONE);
	ck_assert(csv_options_set_map(&o, "acknak-seq=#7", err, sizeof(err)));
	ck_assert_int_eq(o.map[CSV_F_ACKNAK_SEQ].how, CSV_MAP_INDEX);
	ck_assert(!csv_options_set_map(&o, "bogus=#1", err, sizeof(err)));
	ck_assert(strstr(err, "unknown key") != NULL);
	ck_assert(!csv_options_set_map(&o, "time=#0", err, sizeof(err)));
	ck_assert(!csv_options_set_map(&o, "time", err, sizeof(err)));

	ck_assert(csv_options_set_delimiter(&o, "tab", err, sizeof(err)));
	ck_assert_int_eq(o.delimiter, '\t');
	ck_assert(csv_options_set_delimiter(&o, ";", err, sizeof(err)));
	ck_assert_int_eq(o.delimiter, ';');
	ck_assert(csv_options_set_delimiter(&o, "space", err, sizeof(err)));
	ck_assert_int_eq(o.delimiter, CSV_DELIM_ALIGNED);
	ck_assert(!csv_options_set_delimiter(&o, "xx", err, sizeof(err)));

	ck_assert(csv_options_set_header_line(&o, "3", err, sizeof(err)));
	ck_assert(o.header_line_given);
	ck_assert_uint_eq(o.header_line, 3);
	ck_assert(!csv_options_set_header_line(&o, "x", err, sizeof(err)));
	ck_assert(!csv_options_set_header_line(&o, "-1", err, sizeof(err)));

	ck_assert(csv_options_set_time_unit(&o, "us", err, sizeof(err)));
	ck_assert_int_eq(o.time_unit_pow, 6);
	ck_assert(!csv_options_set_time_unit(&o, "furlong", err, sizeof(err)));

	ck_assert(csv_options_set_clock_period(&o, "4ns", err, sizeof(err)));
	ck_assert_uint_eq(o.clock_period_fs, 4000000);
	ck_assert(csv_options_set_clock_period(&o, "2.5 ns", err, sizeof(err)));
	ck_assert_uint_eq(o.clock_period_fs, 2500000);
	ck_assert(csv_options_set_clock_period(&o, "250MHz", err, sizeof(err)));
	ck_assert_uint_eq(o.clock_period_fs, 4000000);
	ck_assert(csv_options_set_clock_period(&o, "1 GHz", err, sizeof(err)));
	ck_assert_uint_eq(o.clock_period_fs, 1000000);
	ck_assert(!csv_options_set_clock_period(&o, "0ns", err, sizeof(err)));
	ck_assert(!csv_options_set_clock_period(&o, "4", err, sizeof(err)));
	ck_assert(!csv_options_set_clock_period(&o, "-4ns", err, sizeof(err)));
}
END_TEST

START_TEST(test_map_file)
{
	static const char text[] =
		"# a profile\n"
		"delimiter = semicolon\n"
		"time = #2   # the second column\n"
		"dir = Initiator\n"
		"dir-map = RC=down,EP=up\n"
		"\n"
		"clock-period = 8ns\r\n";
	char path[] = "/tmp/check_csv_map.XXXXXX";
	struct csv_options o;
	char err[400];
	int fd = mkstemp(path);
	FILE *fp;

	ck_assert_int_ge(fd, 0);
	fp = fdopen(fd, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	csv_options_init(&o);
	ck_assert_msg(csv_options_load_map_file(&o, path, err, sizeof(err)), "%s", err);
	ck_assert_int_eq(o.delimiter, ';');
	ck_assert_int_eq(o.map[CSV_F_TIME].how, CSV_MAP_INDEX);
	ck_assert_uint_eq(o.map[CSV_F_TIME].index, 2);
	ck_assert_str_eq(o.map[CSV_F_DIR].name, "Initiator");
	ck_assert_uint_eq(o.dir_map_count, 2);
	ck_assert_uint_eq(o.clock_period_fs, 8000000);
	fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs("time = #2\nbogus = 1\n", fp);
	fclose(fp);
	ck_assert(!csv_options_load_map_file(&o, path, err, sizeof(err)));
	ck_assert_msg(strstr(err, ":2: ") != NULL, "%s", err);
	remove(path);
	ck_assert(!csv_options_load_map_file(&o, "/nonexistent/x.map", err, sizeof(err)));
}
END_TEST

/* ------------------------------------------------------------------ */
/* Sniffing */

static bool sniff(const char *s)
{
	return csv_sniff((const unsigned char *)s, strlen(s));
}

START_TEST(test_sniff)
{
	ck_assert(!sniff("# a trace\n0 down EVENT link-up\n10ns down InitFC1-P vc=0\n"));
	ck_assert(!sniff("10 ns up Ack seq=1\n"));
	ck_assert(!sniff(""));
	ck_assert(!sniff("hello world\n"));
	ck_assert(sniff("Time,Dir,Raw\n0.1,DS,5c\n"));
	ck_assert(sniff("\xEF\xBB\xBFTime;Direction;Packet Type\n"));
	ck_assert(sniff("Analyzer export v1\nDate,today\n\nTime Stamp\tLink Dir\tRaw Data\n"));
	ck_assert(sniff("Time        Dir   Type       Raw\n"));
	ck_assert(sniff("DS Record 1041 @ 0.000123456s (+8ns): 5c800803f0f2fcfd\n"));
	ck_assert(sniff("<-, 1234560, ns, 0x5c, 0x80, 0x08\n"));
	/* comments first, words of a header in a trace comment */
	ck_assert(!sniff("# every DLLP of the vectors\n0 down EVENT link-up\n"
	                 "10ns down DLLP 00000000B362   # Ack of seq 0\n"));
	ck_assert(sniff("Trace of the DLLP seq test\nTime,Dir,Raw\n"));
	/* a header needs one of time, type, raw bytes */
	ck_assert(!sniff("VC,HdrFC,DataFC\n"));
	/* ... but a table of unknown columns is no text trace either (issue
	 * 12): a header of several cells, two rows or more of as many */
	ck_assert(sniff("Idx;When;Who;What\n1;2;RC;x\n2;3;EP;y\n"));
	ck_assert(sniff("Banner\n\nZeit\tRichtung\tDaten\n0,1\tDS\t5c\n# c\n0,2\tUS\t5c\n"));
	ck_assert(sniff("A,B,C\n1,2,3\n4,5,6\n7,8"));       /* cut last line */
	ck_assert(!sniff("Idx;When;Who\n1;2;3\n"));          /* one row */
	ck_assert(!sniff("Idx;When;Who\n1;2;3\n4;5\n6;7;8\n")); /* not one shape */
	ck_assert(!sniff("Version,3.2\nDate,x\nBy,y\n"));   /* numbers are no names */
	ck_assert(!sniff("# Time,Dir,X\n# a,b,c\n# d,e,f\n0 down EVENT link-up\n"));
	ck_assert(!sniff("A;B\nc;d\ne;f\n0 down EVENT link-up\n")); /* a trace line */
	ck_assert(!sniff("A;B\nc\x01;d\ne;f\n"));        /* control bytes */
	/* tables that are no export: rows without numbers, a table that ends
	 * early (Markdown in prose), names of code, a table far down */
	ck_assert(!sniff("Name;Role\nAda;lead\nBob;dev\n"));
	ck_assert(!sniff("Intro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nMore prose.\n"));
	ck_assert(!sniff("x = 1; y = 2;\nz = 3; w = 4;\nq = 5; r = 6;\n"));
	ck_assert(!sniff("l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\n"
	                 "l16\nA;B\n1;2\n3;4\n"));
	ck_assert(sniff("l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\nl11\nl12\nl13\nl14\nl15\n"
	                "A;B\n1;2\n3;4\n"));
}
END_TEST

START_TEST(test_unknown_columns)
{
	struct csv_options o;
	char *buf;

	open_fails("Idx;When;Who\n1;2;3\n4;5;6\n", NULL,
	           "looks like a CSV/TSV export with unknown columns");
	open_fails("Idx;When;Who\n1;2;3\n4;5;6\n", NULL, "('Idx', 'When', 'Who')");
	open_fails("Idx;When;Who\n1;2;3\n4;5;6\n", NULL, "--dump-columns");
	/* the table with most rows is named: not a banner before it */
	open_fails("Key,Val\nA,b\nC,d\n\nX;Y;Z\n1;2;3\n4;5;6\n7;8;9\n", NULL,
	           "line 5 names 3 columns split by ';' ('X', 'Y', 'Z') and 3 rows");
	/* no table: the old message */
	open_fails("just some text\nwith no header\n", NULL, "no header in the first");

	/* --dump-columns: the table's header and first rows */
	csv_options_init(&o);
	o.dump_only = true;
	buf = dump_of("Banner\nIdx;When;Who\n1;2;3\n4;5;6\n7;8;9\n10;11;12\n", &o);
	ck_assert_msg(strstr(buf, "header: line 2: Idx;When;Who\n") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "problem: no header") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "  line 3:\n") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "  line 5:\n") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "  line 6:\n") == NULL, "%s", buf);
	free(buf);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Whole exports */

START_TEST(test_raw_rows)
{
	void *r = open_csv(
		"FooAnalyzer export\n"
		"Trace,link 0\n"
		"\n"
		"Packet #,Time Stamp,Link Dir,Packet Type,Raw Data\n"
		"Radix - Hex\n"
		"1,0,DS,Link-Up,\n"
		"2,0.000000100,DS,DLLP,5C 40 00 20 00 00 00 FD\n"      /* bad CRC kept */
		"3,1.5e-7,US,DLLP,\"5c,80,08,03,f0,f2,fc,fd\"\n"
		"4,2e-7,US,SKP,\n"
		"5,3e-7,DS,TLP,FB 00 00 40 00 00 01 00 00 00 0f 00 00 00 00 12 34 56 78 FE\n"
		"6,4e-7,Upstream,DLLP,00 00 00 05\n");
	struct record rec;
	struct dllp d;

	ck_assert_str_eq(csv_reader_format(r), "csv");
	expect_record(r, &rec);
	ck_assert_int_eq(rec.kind, REC_EVENT);
	ck_assert_uint_eq(rec.bytes[0], EV_LINK_UP);
	ck_assert_uint_eq(rec.pos.line, 6);
	ck_assert_uint_eq(rec.pos.record_no, 1);

	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 100000);
	ck_assert_int_eq(rec.dir, DIR_DOWN);
	ck_assert_uint_eq(rec.len, 6);
	ck_assert_uint_eq(rec.flags, 0);
	decode_dllp(&rec, &d);
	ck_assert_int_eq(d.crc, CRC_BAD);

	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 150000);
	ck_assert_int_eq(rec.dir, DIR_UP);
	decode_dllp(&rec, &d);
	ck_assert_int_eq(d.crc, CRC_GOOD);
	ck_assert_int_eq(d.type, DLLP_UPDATEFC);

	/* the SKP row is no record; the TLP has its STP/EDB stripped */
	expect_record(r, &rec);
	ck_assert_int_eq(rec.kind, REC_TLP);
	ck_assert_uint_eq(rec.len, 18);
	ck_assert_uint_eq(rec.bytes[17], 0x78);
	ck_assert_uint_eq(rec.pos.record_no, 4);
	ck_assert_uint_eq(rec.pos.line, 10);

	/* 4 bytes: a DLLP without CRC */
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.flags, REC_F_NO_CRC);
	decode_dllp(&rec, &d);
	ck_assert_int_eq(d.crc, CRC_ABSENT);
	expect_eof(r);
	close_csv(r);
}
END_TEST

START_TEST(test_field_rows)
{
	void *r = open_csv(
		"Time (ns)\tDir\tDLLP Type\tVC\tHdrFC\tDataFC\tTLP Type\tSeq\tLength\tTC\n"
		"10\tDS\tInitFC1-P\t0\t32\t256\t\t\t\t\n"
		"20\tUS\tUpdateFC-NP (VC1)\t\t8\t16128 data bytes\t\t\t\t\n"
		"30\tUS\tAck\t\t\t\t\t7\t\t\n"
		"40\tDS\t\t\t\t\tMWr32\t5\t16\t2\n"
		"50\tDS\t\t\t\t\tCpl\t\t\t\n"
		"60\tDS\tUpdateFC-Cpl\t0\tinf\t0\t\t\t\t\n");
	struct record rec;
	struct dllp d;
	struct tlp t;

	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 10000);
	ck_assert_uint_eq(rec.flags, REC_F_NO_CRC);
	ck_assert_uint_eq(rec.len, 4);
	decode_dllp(&rec, &d);
	ck_assert_int_eq(d.type, DLLP_INITFC1);
	ck_assert_uint_eq(d.hdr_fc, 32);
	ck_assert_uint_eq(d.data_fc, 256);
	ck_assert_int_eq(d.crc, CRC_ABSENT);

	expect_record(r, &rec);
	decode_dllp(&rec, &d);
	ck_assert_int_eq(d.type, DLLP_UPDATEFC);
	ck_assert_int_eq(d.fc_class, FC_NP);
	ck_assert_uint_eq(d.vc, 1);
	ck_assert_uint_eq(d.data_fc, 1008);   /* 16128 bytes / 16 */

	expect_record(r, &rec);
	decode_dllp(&rec, &d);
	ck_assert_int_eq(d.type, DLLP_ACK);
	ck_assert_uint_eq(d.acknak_seq, 7);

	expect_record(r, &rec);
	ck_assert_int_eq(rec.kind, REC_TLP);
	ck_assert_uint_eq(rec.flags, REC_F_NO_CRC);
	ck_assert_int_eq(tlp_decode(rec.bytes, rec.len, rec.wire_len, true, false, &t), TLP_OK);
	ck_assert_int_eq(t.kind, TLP_MWR);
	ck_assert_uint_eq(t.seq, 5);
	ck_assert_uint_eq(t.length_dw, 16);
	ck_assert_uint_eq(t.tc, 2);
	ck_assert_int_eq(t.lcrc, CRC_ABSENT);

	/* no sequence number: NO_SEQ too */
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.flags, REC_F_NO_CRC | REC_F_NO_SEQ);

	expect_record(r, &rec);
	decode_dllp(&rec, &d);
	ck_assert_uint_eq(d.hdr_fc, 0);
	expect_eof(r);
	close_csv(r);
}
END_TEST

START_TEST(test_malformed_rows)
{
	void *r = open_csv(
		"Time,Dir,DLLP Type,VC,HdrFC,DataFC,Raw\n"
		"10ns,DS,InitFC1-P,0,300,64,\n"
		"12ns,sideways,InitFC1-P,0,8,64,\n"
		"14ns,DS,\"InitFC1-NP,0,8,8,\n"
		"16ns,US,Bogus,0,1,1,\n"
		"18ns,DS,UpdateFC-P,,1,1,\n"
		"20ns,DS,DLLP,,,,5c 40 zz\n"
		"xx,DS,Ack,,,,\n"
		"22ns,DS,,,,,5c 40 00 00 00 00 00 00 00 fd\n"
		"24ns,DS,UpdateFC-P,0,8,20 bytes,\n"
		"26ns,DS,UpdateFC-P,0,8,64,\n");
	struct record rec;

	expect_malformed(r, 2, 21, "hdr-fc (column 5 'HdrFC'): 300 out of range 0..255");
	expect_malformed(r, 3, 6, "'sideways' is not a direction");
	expect_malformed(r, 4, 9, "quote opened here is not closed");
	expect_malformed(r, 5, 9, "unknown packet type 'Bogus'");
	expect_malformed(r, 6, 9, "has no VC");
	expect_malformed(r, 7, 23, "bad hex 'zz'");
	expect_malformed(r, 8, 1, "time (column 1 'Time'): 'xx'");
	expect_malformed(r, 9, 13, "a DLLP is 6 bytes");
	expect_malformed(r, 10, 24, "not whole credits");
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.record_no, 10);
	expect_eof(r);
	close_csv(r);
}
END_TEST

START_TEST(test_strict)
{
	struct csv_options o;
	struct record rec;
	struct reader_malformed bad;
	void *r;

	csv_options_init(&o);
	o.strict = true;
	r = open_csv_opts("Time,Dir,Raw\n1ns,DS,5c000000000000fd\n2ns,XX,00\n3ns,US,00\n", &o);
	expect_record(r, &rec);
	ck_assert_int_eq(next(r, &rec, &bad), READER_FATAL);
	ck_assert_uint_eq(bad.pos.line, 3);
	ck_assert(strstr(bad.reason, "--strict") != NULL);
	expect_eof(r);
	close_csv(r);
}
END_TEST

START_TEST(test_aligned)
{
	void *r = open_csv(
		"  Packet  Time                 Dir          Type        Len  Raw\n"
		"--------  -------------------  -----------  ----------  ---  ---\n"
		"       1  0.000 000 100 000 s  Downstream   DLLP          6  5C400020000000FD\n"
		"      12  234.245 us           Upstream     Link Up          \n"
		"     123  1.000000123s         DS           DLLP       1000  5c800803f0f2fcfd\n");
	struct record rec;

	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 100000);
	ck_assert_int_eq(rec.kind, REC_DLLP);
	ck_assert_int_eq(rec.dir, DIR_DOWN);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 234245000);
	ck_assert_int_eq(rec.kind, REC_EVENT);
	ck_assert_int_eq(rec.dir, DIR_UP);
	/* a right-aligned value wider than its header stays in its column */
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, UINT64_C(1000000123000));
	ck_assert_uint_eq(rec.bytes[0], 0x80);
	expect_eof(r);
	close_csv(r);
}
END_TEST

START_TEST(test_headerless)
{
	struct csv_options o;
	char err[200];
	struct record rec;
	void *r = open_csv(
		"DS Record 1041 @ 0.000123456s (+8ns): 5c800803f0f2fcfd\n"
		"US Record 1042 @ 0.000123460s: 5c 80 08 03 f0 f2 fc fd\n");

	ck_assert_str_eq(csv_reader_format(r), "agilent-dump");
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 123456000);
	ck_assert_int_eq(rec.dir, DIR_DOWN);
	ck_assert_uint_eq(rec.len, 6);
	expect_record(r, &rec);
	ck_assert_int_eq(rec.dir, DIR_UP);
	expect_eof(r);
	close_csv(r);

	r = open_csv("# sniffer\n<-, 1234560, ns, 0x5c, 0x80, 0x08, 0x03, 0xf0, 0xf2, 0xfc, 0xfd\n"
	             "->, 1234570, ns, 0x5c, 0x80\n");
	ck_assert_str_eq(csv_reader_format(r), "fpga-csv");
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, UINT64_C(1234560000));
	ck_assert_int_eq(rec.dir, DIR_UP);
	expect_malformed(r, 3, 18, "a DLLP is 6 bytes");
	close_csv(r);

	/* --header-line 0 and columns by number */
	csv_options_init(&o);
	ck_assert(csv_options_set_header_line(&o, "0", err, sizeof(err)));
	ck_assert(csv_options_set_map(&o, "time=#1", err, sizeof(err)));
	ck_assert(csv_options_set_map(&o, "dir=#3", err, sizeof(err)));
	ck_assert(csv_options_set_map(&o, "raw=#2", err, sizeof(err)));
	ck_assert(csv_options_set_time_unit(&o, "ns", err, sizeof(err)));
	r = open_csv_opts("5;5c800803f0f2fcfd;US\n7;5c800803f0f2fcfd;DS\n", &o);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 5000);
	ck_assert_int_eq(rec.dir, DIR_UP);
	ck_assert_uint_eq(rec.pos.line, 1);
	expect_record(r, &rec);
	expect_eof(r);
	close_csv(r);
}
END_TEST

START_TEST(test_steering)
{
	struct csv_options o;
	char err[200];
	struct record rec;
	void *r;

	/* ticks need a clock period */
	open_fails("Ticks,Channel,Raw\n5,0,5c800803f0f2fcfd\n", NULL, "--clock-period");
	csv_options_init(&o);
	ck_assert(csv_options_set_clock_period(&o, "4ns", err, sizeof(err)));
	ck_assert(csv_options_set_dir_map(&o, "0=down,1=up", err, sizeof(err)));
	r = open_csv_opts("Ticks,Channel,Raw\n5,1,5c800803f0f2fcfd\n", &o);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 20000);
	ck_assert_int_eq(rec.dir, DIR_UP);
	close_csv(r);

	/* no direction column: name one */
	open_fails("Time,Who,Raw\n1,RC,5c800803f0f2fcfd\n", NULL, "--map dir=COLUMN");
	csv_options_init(&o);
	ck_assert(csv_options_set_map(&o, "dir=Who", err, sizeof(err)));
	ck_assert(csv_options_set_dir_map(&o, "RC=down", err, sizeof(err)));
	r = open_csv_opts("Time,Who,Raw\n1,RC,5c800803f0f2fcfd\n", &o);
	expect_record(r, &rec);
	ck_assert_int_eq(rec.dir, DIR_DOWN);
	close_csv(r);

	/* --map overrides an alias: the second time column */
	csv_options_init(&o);
	ck_assert(csv_options_set_map(&o, "time=Abs Time", err, sizeof(err)));
	r = open_csv_opts("Time,Abs Time (us),Dir,Raw\n9,2,DS,5c800803f0f2fcfd\n", &o);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.time_ps, 2000000);
	close_csv(r);
	ck_assert(csv_options_set_map(&o, "time=Nope", err, sizeof(err)));
	open_fails("Time,Dir,Raw\n", &o, "no such column");

	/* --header-line and --delimiter */
	csv_options_init(&o);
	ck_assert(csv_options_set_header_line(&o, "2", err, sizeof(err)));
	ck_assert(csv_options_set_delimiter(&o, "|", err, sizeof(err)));
	open_fails("Time|Dir|Raw\nT|D|R\n1ns|DS|5c800803f0f2fcfd\n", &o,
	           "no direction column");
	ck_assert(csv_options_set_map(&o, "time=T", err, sizeof(err)));
	ck_assert(csv_options_set_map(&o, "dir=D", err, sizeof(err)));
	ck_assert(csv_options_set_map(&o, "raw=R", err, sizeof(err)));
	r = open_csv_opts("Time|Dir|Raw\nT|D|R\n1ns|DS|5c800803f0f2fcfd\n", &o);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.line, 3);
	close_csv(r);

	open_fails("just some text\nwith no header\n", NULL, "no header in the first");
	open_fails("", NULL, "empty");
}
END_TEST

/* Cells that are odd rather than wrong: a quoted quote, a row of bare
 * delimiters (skipped like a table rule), an empty time. */
START_TEST(test_odd_rows)
{
	void *r = open_csv("Time,Dir,Raw\n\"\"\"\",DS,5c\n,,,\n,DS,\n");

	expect_malformed(r, 2, 2, "time (column 1 'Time'): '\"': not a time");
	expect_malformed(r, 4, 1, "no time");
	expect_eof(r);
	close_csv(r);
}
END_TEST

/* The line buffers start at 4 KiB and grow with the input: a header of
 * 6000 bytes and a row of 9000 are read whole (a cut header would lose its
 * last column, a cut row its last cell). */
START_TEST(test_long_lines_grow)
{
	size_t pad = 6000, tail = 9000, n = 0;
	char *text = malloc(pad + tail + 100);
	struct record rec;
	void *r;

	ck_assert_ptr_nonnull(text);
	n += (size_t)sprintf(text + n, "Time,Dir,Note ");
	memset(text + n, 'n', pad);
	n += pad;
	n += (size_t)sprintf(text + n, ",Raw\n1ns,DS,");
	memset(text + n, 'v', tail);
	n += tail;
	n += (size_t)sprintf(text + n, ",5c800803f0f2fcfd\n");
	r = open_csv(text);
	free(text);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.line, 2);
	ck_assert_uint_eq(rec.len, 6); /* the DLLP, between its framing symbols */
	expect_eof(r);
	close_csv(r);
}
END_TEST

/* A line over 64 KiB and a NUL byte are malformed rows; reading goes on. */
START_TEST(test_long_and_nul)
{
	static const char head[] = "Time,Dir,Raw\n";
	static const char nul_row[] = "2ns,D\0S,00\n";
	static const char last[] = "3ns,DS,5c800803f0f2fcfd\n";
	size_t big = 70000, n = 0;
	char *text = malloc(sizeof(head) + big + sizeof(nul_row) + sizeof(last));
	char err[200];
	struct record rec;
	FILE *fp;
	void *r;

	ck_assert_ptr_nonnull(text);
	memcpy(text, head, sizeof(head) - 1);
	n = sizeof(head) - 1;
	memset(text + n, 'a', big);
	n += big;
	text[n++] = '\n';
	memcpy(text + n, nul_row, sizeof(nul_row) - 1);
	n += sizeof(nul_row) - 1;
	memcpy(text + n, last, sizeof(last) - 1);
	n += sizeof(last) - 1;
	fp = mem_file(text, n);
	free(text);
	r = csv_reader_new(fp, "t.csv", NULL, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	expect_malformed(r, 2, 65537, "longer than 65536");
	expect_malformed(r, 3, 6, "NUL byte");
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.line, 4);
	ck_assert_uint_eq(rec.pos.record_no, 3);
	expect_eof(r);
	close_csv(r);
}
END_TEST

START_TEST(test_dump_columns)
{
	char *buf = dump_of("Banner\nTime,Dir,Packet Type,Raw\n1ns,DS,DLLP,5c800803f0f2fcfd\n"
	                    "2ns,XX,DLLP,00\n", NULL);

	ck_assert_msg(strstr(buf, "delimiter ','") != NULL, "%s", buf);
	ck_assert(strstr(buf, "header: line 2: Time,Dir,Packet Type,Raw") != NULL);
	ck_assert(strstr(buf, "raw         <- #4 'Raw' (alias)") != NULL);
	ck_assert(strstr(buf, "UpdateFC-P vc=0") != NULL);
	ck_assert(strstr(buf, "-> malformed at column 5") != NULL);
	free(buf);
}
END_TEST

/* --dump-columns shows a row as the analysis takes it: a raw-bytes TLP of
 * 6 bytes is a record the export reader yields, but no TLP (the record
 * checks of reader_next()), so it is malformed, not decoded; the reader
 * itself (csv_reader_ops.next) still yields it. */
START_TEST(test_dump_agrees)
{
	static const char text[] = "Time,Dir,Type,Raw\n1ns,down,TLP,000040000001\n"
	                           "2ns,up,DLLP,00000000\n";
	char *buf = dump_of(text, NULL);
	struct record rec;
	void *r;

	ck_assert_msg(strstr(buf, "  line 2:\n    time='1ns' dir='down' type='TLP' "
	                          "raw='000040000001'\n    -> malformed: a TLP is 18 to ") != NULL,
	              "%s", buf);
	ck_assert_msg(strstr(buf, "TLP seq=") == NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "  line 3:\n") != NULL, "%s", buf);
	ck_assert_msg(strstr(buf, "DLLP Ack seq=0x000 crc=none") != NULL, "%s", buf);
	free(buf);
	/* a row refused before it is split shows no cells (not the previous
	 * row's, over its own bytes) */
	static const char nul[] = "Time,Dir,Type,Raw\n1ns,DS,DLLP,5c800803f0f2fcfd\nXY\0,up\n";
	buf = dump_of_n(nul, sizeof(nul) - 1, NULL);
	ck_assert_msg(strstr(buf, "  line 3:\n    -> malformed at column 3: NUL byte") != NULL,
	              "%s", buf);
	free(buf);
	r = open_csv(text);
	expect_record(r, &rec);
	ck_assert_int_eq(rec.kind, REC_TLP);
	ck_assert_uint_eq(rec.len, 6);
	close_csv(r);
}
END_TEST

Suite *suite_reader_csv(void)
{
	Suite *s = suite_create("reader_csv");
	TCase *tc = tcase_create("parsers");

	tcase_add_test(tc, test_normalise);
	tcase_add_test(tc, test_aliases);
	tcase_add_test(tc, test_alias_table_searchable);
	tcase_add_test(tc, test_guess_delimiter);
	tcase_add_test(tc, test_time);
	tcase_add_test(tc, test_dir);
	tcase_add_test(tc, test_types);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_map_file);
	tcase_add_test(tc, test_sniff);
	tcase_add_test(tc, test_unknown_columns);
	suite_add_tcase(s, tc);

	tc = tcase_create("exports");
	tcase_add_test(tc, test_raw_rows);
	tcase_add_test(tc, test_field_rows);
	tcase_add_test(tc, test_malformed_rows);
	tcase_add_test(tc, test_strict);
	tcase_add_test(tc, test_aligned);
	tcase_add_test(tc, test_headerless);
	tcase_add_test(tc, test_steering);
	tcase_add_test(tc, test_odd_rows);
	tcase_add_test(tc, test_long_and_nul);
	tcase_add_test(tc, test_long_lines_grow);
	tcase_add_test(tc, test_dump_columns);
	tcase_add_test(tc, test_dump_agrees);
	suite_add_tcase(s, tc);
	return s;
}
