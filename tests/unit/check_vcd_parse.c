/* check_vcd_parse.c: unit tests of read/lanes/vcd_parse.c: the header
 * forms, value changes (scalar, vector, x/z), aliases, $dumpoff, the
 * kinds skipped, timescales, line numbers and the readings chosen for a
 * time that goes backwards and a vector without its code. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem_pipe.h"
#include "read/lanes/vcd_parse.h"
#include "suites.h"

struct vf {
	FILE *fp;
	struct vcd_parser *p;
	struct vcd_error err;
};

static void vf_open(struct vf *v, const char *text)
{
	v->fp = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	ck_assert_ptr_nonnull(v->fp);
	v->p = vcd_new(v->fp, "t.vcd");
	ck_assert_ptr_nonnull(v->p);
}

static void vf_close(struct vf *v)
{
	vcd_free(v->p);
	fclose(v->fp);
}

static size_t var_named(const struct vcd_parser *p, const char *path)
{
	for (size_t i = 0; i < vcd_var_count(p); i++)
		if (strcmp(vcd_var_at(p, i)->path, path) == 0)
			return i;
	ck_abort_msg("no variable %s", path);
	return 0;
}

/* Every event of the rest of the file as text, one per line:
 * "T 1000", "C slot value unknown line", "B line reason", "E". */
static void events(struct vf *v, char *out, size_t size)
{
	size_t l = 0;
	out[0] = '\0';
	for (;;) {
		uint64_t t;
		struct vcd_change ch;
		enum vcd_event ev = vcd_next(v->p, &t, &ch, &v->err);
		int n = 0;
		switch (ev) {
		case VCD_TIME:
			n = snprintf(out + l, size - l, "T %llu\n", (unsigned long long)t);
			break;
		case VCD_CHANGE:
			n = snprintf(out + l, size - l, "C %u %llx %llx %llu\n", ch.slot,
			             (unsigned long long)ch.value, (unsigned long long)ch.unknown,
			             (unsigned long long)ch.line);
			break;
		case VCD_BAD:
			n = snprintf(out + l, size - l, "B %llu %s\n",
			             (unsigned long long)v->err.line, v->err.reason);
			break;
		case VCD_EOF:
			snprintf(out + l, size - l, "E\n");
			return;
		case VCD_FATAL:
			snprintf(out + l, size - l, "F %s\n", v->err.reason);
			return;
		}
		if (n > 0)
			l += (size_t)n;
		ck_assert_uint_lt(l, size);
	}
}

static const char icarus[] = "$date\n  Mon Jan  1 00:00:00 2026\n$end\n"
                             "$version\n  Icarus Verilog\n$end\n"
                             "$timescale\n  1ps\n$end\n"
                             "$scope module tb $end\n"
                             "$var reg 1 ! clk $end\n"
                             "$scope module rp $end\n"
                             "$var wire 8 \" txdata0 [7:0] $end\n"
                             "$var wire 1 # txdatak0 $end\n"
                             "$var string 1 $ msg $end\n"
                             "$var real 64 % vdd $end\n"
                             "$var wire 8 & mem[3] $end\n"
                             "$var logic 4 ' nib[3:0] $end\n"
                             "$upscope $end\n"
                             "$scope module ep $end\n"
                             "$var wire 8 \" rxdata0 [7:0] $end\n"
                             "$upscope $end\n"
                             "$upscope $end\n"
                             "$enddefinitions $end\n";

START_TEST(test_header)
{
	struct vf v;
	vf_open(&v, icarus);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert_uint_eq(vcd_var_count(v.p), 8);
	ck_assert_uint_eq(vcd_timescale_fs(v.p), 1000);
	ck_assert(vcd_timescale_given(v.p));
	const struct vcd_var *d = vcd_var_at(v.p, var_named(v.p, "tb.rp.txdata0"));
	ck_assert_str_eq(d->name, "txdata0");
	ck_assert_str_eq(d->kind, "wire");
	ck_assert_str_eq(d->id, "\"");
	ck_assert_uint_eq(d->width, 8);
	ck_assert(d->has_range);
	ck_assert_int_eq(d->msb, 7);
	ck_assert_int_eq(d->lsb, 0);
	ck_assert_uint_eq(d->line, 13);
	/* an index that is not the variable's own bits stays in the name */
	ck_assert_str_eq(vcd_var_at(v.p, var_named(v.p, "tb.rp.mem[3]"))->name, "mem[3]");
	/* a range attached to the name that is its bits is taken apart */
	const struct vcd_var *nib = vcd_var_at(v.p, var_named(v.p, "tb.rp.nib"));
	ck_assert(nib->has_range);
	ck_assert_int_eq(nib->msb, 3);
	ck_assert_str_eq(vcd_var_at(v.p, var_named(v.p, "tb.rp.msg"))->kind, "string");
	ck_assert_str_eq(vcd_var_at(v.p, var_named(v.p, "tb.ep.rxdata0"))->id, "\"");
	vf_close(&v);
}
END_TEST

static uint64_t ts_of(const char *decl, bool *ok)
{
	char text[256];
	struct vf v;
	snprintf(text, sizeof(text), "%s$var wire 1 ! a $end $enddefinitions $end\n", decl);
	vf_open(&v, text);
	*ok = vcd_read_header(v.p, &v.err);
	uint64_t fs = vcd_timescale_fs(v.p);
	vf_close(&v);
	return fs;
}

START_TEST(test_timescales)
{
	bool ok;
	ck_assert_uint_eq(ts_of("$timescale 1ns $end\n", &ok), 1000000);
	ck_assert(ok);
	ck_assert_uint_eq(ts_of("$timescale 1 ns $end\n", &ok), 1000000);
	ck_assert(ok);
	ck_assert_uint_eq(ts_of("$timescale\n\t10 ps\n$end\n", &ok), 10000);
	ck_assert(ok);
	ck_assert_uint_eq(ts_of("$timescale 100fs $end\n", &ok), 100);
	ck_assert(ok);
	ck_assert_uint_eq(ts_of("$timescale 1 s $end\n", &ok), 1000000000000000ull);
	ck_assert(ok);
	ck_assert_uint_eq(ts_of("", &ok), 1000000); /* none: 1 ns */
	ck_assert(ok);
	ts_of("$timescale 2ns $end\n", &ok);
	ck_assert(!ok);
	ts_of("$timescale 1 ks $end\n", &ok);
	ck_assert(!ok);
}
END_TEST

/* A header that cannot be read names its line. */
START_TEST(test_header_errors)
{
	static const struct {
		const char *text;
		uint64_t line;
		const char *reason;
	} cases[] = {
		{ "$var wire 1 ! a $end\n", 1, "no $enddefinitions" },
		{ "$scope module a $end\n$var wire x ! a $end\n$enddefinitions $end\n", 2,
		  "is not a number of bits" },
		{ "$upscope $end\n$enddefinitions $end\n", 1, "$upscope without a $scope" },
		{ "$comment never closed\n", 1, "ends inside $comment" },
		{ "$var wire 1 ! a $end\n#0\n", 2, "before $enddefinitions" },
		{ "$var wire 1 $end\n$enddefinitions $end\n", 1, "needs a kind" },
		{ "hello\n", 1, "is not a declaration" },
		{ "$timescale 1 ns\n$var wire 1 ! a $end $enddefinitions $end", 1, "is not one" },
		{ "$var wire 8 ! a [7:x] $end $enddefinitions $end", 1, "is not [msb:lsb]" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vf v;
		vf_open(&v, cases[i].text);
		ck_assert_msg(!vcd_read_header(v.p, &v.err), "case %zu read", i);
		ck_assert_msg(v.err.line == cases[i].line, "case %zu: line %llu", i,
		              (unsigned long long)v.err.line);
		ck_assert_msg(strstr(v.err.reason, cases[i].reason), "case %zu: %s", i,
		              v.err.reason);
		vf_close(&v);
	}
}
END_TEST

START_TEST(test_changes)
{
	static const char text[] = "$timescale 1ns $end\n"
	                           "$scope module tb $end\n"
	                           "$var wire 1 ! clk $end\n"
	                           "$var wire 8 \"x data [7:0] $end\n"
	                           "$var wire 8 # other $end\n"
	                           "$var string 1 $ s $end\n"
	                           "$var real 64 % r $end\n"
	                           "$upscope $end\n"
	                           "$enddefinitions $end\n"
	                           "#0\n"
	                           "$dumpvars\n0!\nbx \"x\nb0 #\nsHello $\nr1.5 %\n$end\n"
	                           "#5\n1!\nb1010 \"x\nb11111111 #\n"
	                           "#10\nb1z0X \"x\n0!\n"
	                           "#12\nB11110000 \"x\n";
	struct vf v;
	char ev[2048];
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(vcd_watch(v.p, var_named(v.p, "tb.clk"), 0));
	ck_assert(vcd_watch(v.p, var_named(v.p, "tb.data"), 1));
	events(&v, ev, sizeof(ev));
	ck_assert_str_eq(ev, "T 0\n"
	                     "C 0 0 0 12\n"
	                     "C 1 0 ff 13\n" /* bx: extended with x */
	                     "T 5000\n"
	                     "C 0 1 0 19\n"
	                     "C 1 a 0 20\n" /* b1010: extended with 0 */
	                     "T 10000\n"
	                     "C 1 8 5 23\n" /* b1z0X: two x/z bits */
	                     "C 0 0 0 24\n"
	                     "T 12000\n"
	                     "C 1 f0 0 26\n"
	                     "E\n");
	vf_close(&v);
}
END_TEST

/* Variables that share a code are one signal: watching both delivers
 * each change to both slots. */
START_TEST(test_alias)
{
	static const char text[] = "$var wire 4 ! a $end\n$var wire 4 ! b $end\n"
	                           "$var wire 4 # c $end\n$enddefinitions $end\n"
	                           "#1\nb101 !\nb1 #\n";
	struct vf v;
	char ev[512];
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(vcd_watch(v.p, 0, 3));
	ck_assert(vcd_watch(v.p, 1, 7));
	ck_assert(vcd_watch(v.p, 1, 7)); /* twice: once */
	events(&v, ev, sizeof(ev));
	ck_assert_str_eq(ev, "T 1000\nC 3 5 0 6\nC 7 5 0 6\nE\n");
	vf_close(&v);
}
END_TEST

/* $dumpoff: x on every watched variable at once. */
START_TEST(test_dumpoff)
{
	static const char text[] = "$timescale 1ps $end\n$var wire 3 ! a $end\n"
	                           "$var wire 1 \" b $end\n$enddefinitions $end\n"
	                           "#1\nb101 !\n1\"\n#2\n$dumpoff\nbxxx !\nx\"\n$end\n"
	                           "#3\n$dumpon\nb1 !\n0\"\n$end\n";
	struct vf v;
	char ev[1024];
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(vcd_watch(v.p, 0, 0));
	ck_assert(vcd_watch(v.p, 1, 1));
	events(&v, ev, sizeof(ev));
	/* after $dumpoff: both all-x (in table order), then the list */
	ck_assert_ptr_nonnull(strstr(ev, "T 2\n"));
	const char *after = strstr(ev, "T 2\n") + 4;
	ck_assert_msg(strncmp(after, "C 0 0 7 9\nC 1 0 1 9\n", 20) == 0 ||
	                      strncmp(after, "C 1 0 1 9\nC 0 0 7 9\n", 20) == 0,
	              "%s", after);
	ck_assert_ptr_nonnull(strstr(ev, "T 3\nC 0 1 0 15\nC 1 0 0 16\nE\n"));
	vf_close(&v);
}
END_TEST

/* Malformed lines: VCD_BAD with the line, and reading goes on. */
START_TEST(test_bad_lines)
{
	static const char text[] = "$var wire 4 ! a $end\n$enddefinitions $end\n"
	                           "#1\n"
	                           "b10 \n" /* 4: no code on its line */
	                           "#2\n"
	                           "b12 !\n" /* 6: not a bit */
	                           "#3x\n" /* 7 */
	                           "q!\n" /* 8 */
	                           "b11111 !\n" /* 9: too many bits */
	                           "$foo bar $end\n" /* 10 */
	                           "1\n" /* 11: no code */
	                           "b1 !\n";
	struct vf v;
	char ev[4096];
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(vcd_watch(v.p, 0, 0));
	events(&v, ev, sizeof(ev));
	ck_assert_msg(strstr(ev, "T 1000\nB 4 vector value 'b10' without an identifier code on its "
	                         "line\nT 2000\nB 6 "),
	              "%s", ev);
	ck_assert_ptr_nonnull(strstr(ev, "B 7 '#3x' is not a time step"));
	ck_assert_ptr_nonnull(strstr(ev, "B 8 'q!' is not a value change"));
	ck_assert_ptr_nonnull(strstr(ev, "B 9 vector value of 5 bits does not fit the 4-bit"));
	ck_assert_ptr_nonnull(strstr(ev, "B 10 '$foo' in the value changes"));
	ck_assert_ptr_nonnull(strstr(ev, "B 11 scalar value '1' without"));
	ck_assert_ptr_nonnull(strstr(ev, "C 0 1 0 12\nE\n"));
	vf_close(&v);
}
END_TEST

/* A time that goes backwards: VCD_BAD, then a step at the latest time. */
START_TEST(test_time_backwards)
{
	static const char text[] = "$timescale 1ns $end\n$var wire 1 ! a $end\n"
	                           "$enddefinitions $end\n#10\n1!\n#4\n0!\n#12\n1!\n";
	struct vf v;
	char ev[1024];
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(vcd_watch(v.p, 0, 0));
	events(&v, ev, sizeof(ev));
	ck_assert_msg(strstr(ev, "T 10000\nC 0 1 0 5\nB 6 time goes backwards (#4 is 4000 ps, "
	                         "after 10000 ps): the changes that follow are taken at 10000 "
	                         "ps\nT 10000\nC 0 0 0 7\nT 12000\n"),
	              "%s", ev);
	vf_close(&v);
}
END_TEST

/* Below 1 ps: whole picoseconds, fractions truncated. */
START_TEST(test_fs_timescale)
{
	static const char text[] = "$timescale 100 fs $end\n$var wire 1 ! a $end\n"
	                           "$enddefinitions $end\n#15\n#29\n#30\n";
	struct vf v;
	char ev[256];
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	events(&v, ev, sizeof(ev));
	ck_assert_str_eq(ev, "T 1\nT 2\nT 3\nE\n");
	vf_close(&v);
}
END_TEST

/* Unwatched changes are skipped; the byte offsets are those of the
 * lines; CRLF line ends count one line each. */
START_TEST(test_offsets)
{
	static const char text[] = "$var wire 1 ! a $end\r\n$var wire 1 \" b $end\r\n"
	                           "$enddefinitions $end\r\n#1\r\n1\"\r\n1!\r\n";
	struct vf v;
	uint64_t t, line, off;
	struct vcd_change ch;
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(vcd_watch(v.p, 0, 0));
	ck_assert_int_eq(vcd_next(v.p, &t, &ch, &v.err), VCD_TIME);
	vcd_position(v.p, &line, &off);
	ck_assert_uint_eq(line, 4);
	ck_assert_uint_eq(off, strstr(text, "#1") - text);
	ck_assert_int_eq(vcd_next(v.p, &t, &ch, &v.err), VCD_CHANGE);
	ck_assert_uint_eq(ch.line, 6);
	ck_assert_uint_eq(ch.byte_offset, strstr(text, "1!") - text);
	ck_assert_int_eq(vcd_next(v.p, &t, &ch, &v.err), VCD_EOF);
	ck_assert_uint_eq(vcd_bytes_read(v.p), strlen(text));
	vf_close(&v);
}
END_TEST

/* Wider than 64 bits cannot be watched; a word across the buffer's
 * refill (a file larger than the buffer) is read whole. */
START_TEST(test_wide_and_long)
{
	size_t n = (1u << 20) * 3 + 17;
	char *text = malloc(n + 200);
	ck_assert_ptr_nonnull(text);
	int h = sprintf(text, "$var wire 128 ! w $end\n$var wire 8 # d $end\n"
	                      "$enddefinitions $end\n");
	size_t l = (size_t)h;
	unsigned count = 0;
	while (l < n) {
		l += (size_t)sprintf(text + l, "#%u\nb%s #\n", count, (count & 1) ? "1010" : "11");
		count++;
	}
	text[l] = '\0';
	struct vf v;
	vf_open(&v, text);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(!vcd_watch(v.p, 0, 0));
	ck_assert(vcd_watch(v.p, 1, 2));
	/* checked once at the end: an assertion per change writes to Check's
	 * pipe each time */
	unsigned changes = 0, times = 0, wrong = 0, other = 0;
	for (;;) {
		uint64_t t;
		struct vcd_change ch;
		enum vcd_event ev = vcd_next(v.p, &t, &ch, &v.err);
		if (ev == VCD_EOF)
			break;
		if (ev == VCD_CHANGE) {
			if (ch.value != ((changes & 1) ? 10u : 3u) ||
			    ch.line != 4 + 2 * changes + 1)
				wrong++;
			changes++;
		} else if (ev == VCD_TIME) {
			times++;
		} else {
			other++;
			if (ev == VCD_FATAL)
				break;
		}
	}
	ck_assert_uint_eq(wrong, 0);
	ck_assert_uint_eq(other, 0);
	ck_assert_uint_eq(changes, count);
	ck_assert_uint_eq(times, count);
	vf_close(&v);
	free(text);
}
END_TEST

/* A file in memory gets a buffer of its size plus one (sw_size_for), a
 * pipe the plain VCD_BUF: both read the same events, bad lines and line
 * numbers included. */
static void all_events(FILE *fp, char *out, size_t size)
{
	struct vf v = { fp, vcd_new(fp, "t.vcd"), { 0 } };
	ck_assert_ptr_nonnull(v.p);
	ck_assert(vcd_read_header(v.p, &v.err));
	ck_assert(vcd_watch(v.p, 0, 0));
	ck_assert(vcd_watch(v.p, 1, 1));
	events(&v, out, size);
	vcd_free(v.p);
	fclose(fp);
}

START_TEST(test_fitted_buffer)
{
	size_t cap = 64 * 1024, l = 0;
	char *text = malloc(cap);
	ck_assert_ptr_nonnull(text);
	l += (size_t)sprintf(text, "%s#0\n", icarus);
	for (unsigned i = 0; l + 100 < cap / 2; i++) {
		l += (size_t)sprintf(text + l, "#%u\n%u!\nb%s \"\n", 10 + i * 5, i & 1,
		                     i % 7 == 3 ? "1x0z" : i % 11 == 5 ? "2" : "10101");
		if (i % 13 == 0)
			l += (size_t)sprintf(text + l, "#%u\n", i); /* backwards */
	}
	static char fitted[1 << 20], plain[1 << 20];
	all_events(fmemopen(text, l, "r"), fitted, sizeof(fitted));
	all_events(mem_pipe_open(text, l), plain, sizeof(plain));
	ck_assert(strlen(plain) > 1000);
	ck_assert_str_eq(fitted, plain);
	free(text);
}
END_TEST

/* The eight-at-a-time vector parser against the plain one: every length
 * up to 80, 0/1 runs with an x, z, l, h or a bad character at each place,
 * and random strings. */
START_TEST(test_bits_fast_plain)
{
	static const char alphabet[] = "0101010101xzXZlhuw-2 b";
	char s[96];
	uint32_t r = 12345;
	for (size_t n = 0; n <= 80; n++) {
		for (size_t at = 0; at <= n; at++) {
			for (size_t k = 0; k < sizeof(alphabet) - 1; k++) {
				for (size_t i = 0; i < n; i++)
					s[i] = (char)('0' + ((i * 7 + n) % 3 == 0));
				if (at < n)
					s[at] = alphabet[k];
				if (!vcd_bits_agree(s, n))
					ck_abort_msg("n %zu: '%c' at %zu", n, alphabet[k], at);
			}
		}
		for (int rep = 0; rep < 200; rep++) {
			for (size_t i = 0; i < n; i++) {
				r = r * 1103515245u + 12345u;
				s[i] = alphabet[(r >> 16) % (sizeof(alphabet) - 1)];
			}
			if (!vcd_bits_agree(s, n))
				ck_abort_msg("random n %zu", n);
		}
	}
	/* leading zeros past 64 bits lose nothing; a 1 there is lost */
	memset(s, '0', 90);
	s[89] = '1';
	ck_assert(vcd_bits_agree(s, 90));
	s[3] = '1';
	ck_assert(vcd_bits_agree(s, 90));
}
END_TEST

Suite *suite_vcd_parse(void)
{
	Suite *s = suite_create("vcd_parse");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_header);
	tcase_add_test(tc, test_timescales);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_changes);
	tcase_add_test(tc, test_alias);
	tcase_add_test(tc, test_dumpoff);
	tcase_add_test(tc, test_bad_lines);
	tcase_add_test(tc, test_time_backwards);
	tcase_add_test(tc, test_fs_timescale);
	tcase_add_test(tc, test_offsets);
	tcase_add_test(tc, test_wide_and_long);
	tcase_add_test(tc, test_fitted_buffer);
	tcase_add_test(tc, test_bits_fast_plain);
	suite_add_tcase(s, tc);
	return s;
}
