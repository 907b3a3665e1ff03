/* check_vcd_write.c: unit tests of report/vcd_write.c (--vcd): the
 * identifier codes, and the value changes as the timeline's sink writes
 * them (only changes, one #time per time, the findings' pulses), driven
 * through the sink without a capture; a long waveform's header written
 * into the room kept for it, or before its body moved later. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/vcd_write.h"
#include "report/vcd_write_internal.h"
#include "suites.h"

/* The number a code stands for (little-endian base 94 from '!'). */
static uint32_t code_value(const char *s)
{
	uint32_t v = 0, scale = 1;
	for (const char *c = s; *c; c++) {
		v += (uint32_t)(*c - 33) * scale;
		scale *= 94;
	}
	return v;
}

START_TEST(test_codes)
{
	char c[8];
	ck_assert_uint_eq(vcd_code(0, c), 1);
	ck_assert_str_eq(c, "!");
	ck_assert_uint_eq(vcd_code(93, c), 1);
	ck_assert_str_eq(c, "~");
	ck_assert_uint_eq(vcd_code(94, c), 2);
	ck_assert_str_eq(c, "!\"");
	/* every code printable ASCII 33..126, its own number's only: it
	 * reads back, and a longer code never ends in a 0 digit */
	/* (as many as the signals of 256 links: counted, not asserted one by
	 * one, to stay fast) */
	unsigned bad = 0;
	for (uint32_t n = 0; n < 120000; n++) {
		unsigned len = vcd_code(n, c);
		bad += strlen(c) != len;
		for (unsigned i = 0; i < len; i++)
			bad += c[i] < 33 || c[i] > 126;
		bad += code_value(c) != n;
		bad += len > 1 && c[len - 1] == '!';
	}
	ck_assert_uint_eq(bad, 0);
	ck_assert_uint_eq(vcd_code(UINT32_MAX, c), 5);
}
END_TEST

struct run {
	char dir[64];
	char vcd[96];
	struct vcd_write *w;
	struct timeline_sink sink;
	char *text; /* the VCD after close */
};

static void run_open(struct run *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "/tmp/check-vcd-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(r->dir));
	snprintf(r->vcd, sizeof(r->vcd), "%s/w.vcd", r->dir);
	char err[256];
	char input[] = "in.trace";
	char *inputs[] = { input };
	r->w = vcd_write_open(r->vcd, NULL, "in.trace", inputs, 1, err, sizeof(err));
	ck_assert_msg(r->w != NULL, "%s", err);
	vcd_write_sink(r->w, &r->sink);
}

/* Closes, reads the VCD's body (after $enddefinitions) into r->text. */
static void run_close(struct run *r, uint64_t last)
{
	char err[256];
	r->sink.end(r->sink.ctx, last);
	ck_assert_msg(vcd_write_close(r->w, true, err, sizeof(err)), "%s", err);
	FILE *fp = fopen(r->vcd, "r");
	ck_assert_ptr_nonnull(fp);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	char *body = strstr(buf, "$enddefinitions $end\n");
	ck_assert_ptr_nonnull(body);
	r->text = body + strlen("$enddefinitions $end\n");
	unlink(r->vcd);
	rmdir(r->dir);
}

static struct fc_probe_credit credit(uint32_t cl, uint32_t cc)
{
	struct fc_probe_credit c = { 0 };
	c.limit_known = c.consumed_known = c.available_known = true;
	c.width = 8;
	c.limit = cl;
	c.consumed = cc;
	c.available = (cl - cc) & 0xFF;
	return c;
}

START_TEST(test_changes_only)
{
	struct run r;
	run_open(&r);
	struct timeline_at at = { 100, 0, NULL };
	struct fc_probe_credit c = credit(6, 2);
	r.sink.credit(r.sink.ctx, &at, 0, DIR_UP, CT_PH, &c);
	at.time_ps = 200; /* told again, nothing changed: nothing written */
	r.sink.credit(r.sink.ctx, &at, 0, DIR_UP, CT_PH, &c);
	at.time_ps = 300;
	c = credit(6, 3);
	r.sink.credit(r.sink.ctx, &at, 0, DIR_UP, CT_PH, &c);
	at.time_ps = 300; /* the same time: no second #300 */
	c.infinite = true;
	c.available_known = false;
	r.sink.credit(r.sink.ctx, &at, 0, DIR_UP, CT_PH, &c);
	run_close(&r, 300);
	/* codes in the order of first use: available !, CL ", CC #, uncertain $ */
	ck_assert_str_eq(r.text, "#100\n"
	                         "b0100 !\n"
	                         "b0110 \"\n"
	                         "b0010 #\n"
	                         "0$\n"
	                         "#300\n"
	                         "b0011 !\n"
	                         "b0011 #\n"
	                         "b11111111111111111111111111111111 !\n"
	                         "bx \"\n"
	                         "bx #\n");
}
END_TEST

static struct finding finding_of(enum rule_id rule, uint64_t record)
{
	struct finding f;
	memset(&f, 0, sizeof(f));
	f.rule = rule;
	f.pos.record_no = record;
	f.link = 0;
	return f;
}

START_TEST(test_pulses)
{
	struct run r;
	run_open(&r);
	struct timeline_at at = { 10, 0, NULL };
	r.sink.link_state(r.sink.ctx, &at, PROBE_LINK_ACTIVE);
	struct finding f = finding_of(R_FC_CREDIT_OVERRUN, 7);
	r.sink.finding(r.sink.ctx, &f, 20);
	/* the same rule at the next time: it stays 1, the record changes */
	f.pos.record_no = 8;
	r.sink.finding(r.sink.ctx, &f, 30);
	at.time_ps = 40; /* the next later time: the pulse falls there */
	r.sink.link_state(r.sink.ctx, &at, PROBE_LINK_L1);
	struct finding g = finding_of(R_DLLP_CRC, 9);
	g.link = -1;
	r.sink.finding(r.sink.ctx, &g, 50); /* at the last time: falls 1 ps later */
	run_close(&r, 50);
	/* state !, pulse ", record #, link $, the second pulse % */
	ck_assert_str_eq(r.text, "#10\n"
	                         "b011 !\n"
	                         "#20\n"
	                         "1\"\n"
	                         "b0111 #\n"
	                         "b0000 $\n"
	                         "#30\n"
	                         "b1000 #\n"
	                         "#40\n"
	                         "b100 !\n"
	                         "0\"\n"
	                         "#50\n"
	                         "1%\n"
	                         "b1001 #\n"
	                         "bx $\n"
	                         "#51\n"
	                         "0%\n");
}
END_TEST

START_TEST(test_discard)
{
	struct run r;
	run_open(&r);
	struct timeline_at at = { 10, 0, NULL };
	r.sink.link_state(r.sink.ctx, &at, PROBE_LINK_ACTIVE);
	char err[64];
	ck_assert(vcd_write_close(r.w, false, err, sizeof(err)));
	ck_assert_int_ne(access(r.vcd, F_OK), 0);
	ck_assert_int_eq(rmdir(r.dir), 0); /* empty: no temporary file left */
}
END_TEST

/* The whole of a file (NUL-terminated), its length in len. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
	long n = ftell(fp);
	ck_assert_int_ge(n, 0);
	rewind(fp);
	char *text = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(fread(text, 1, (size_t)n, fp), (size_t)n);
	text[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return text;
}

/* A waveform long enough to fill the buffer many times (20000 times, two
 * or three changes each), then links_later links told for the first time
 * with every VC and type (about 1500 signals each: a header longer than
 * the room kept for it). */
static void write_long(const char *path, unsigned links_later)
{
	char err[256];
	char input[] = "in.trace";
	char *inputs[] = { input };
	struct vcd_write *w = vcd_write_open(path, NULL, "in.trace", inputs, 1, err, sizeof(err));
	ck_assert_msg(w != NULL, "%s", err);
	struct timeline_sink sink;
	vcd_write_sink(w, &sink);
	struct timeline_at at = { 0, 0, NULL };
	for (uint32_t i = 0; i < 20000; i++) {
		at.time_ps = 1000 * (uint64_t)i;
		struct fc_probe_credit c = credit(i & 0xFF, (i / 3) & 0xFF);
		sink.credit(sink.ctx, &at, 0, DIR_UP, CT_PH, &c);
	}
	for (unsigned l = 1; l <= links_later; l++) {
		at.link = l;
		at.time_ps += 1000;
		for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
			for (unsigned p = 0; p < DIR_COUNT; p++)
				for (unsigned ct = 0; ct < CT_COUNT; ct++) {
					struct fc_probe_credit c = credit(l, vc);
					sink.credit(sink.ctx, &at, vc, (enum link_dir)p,
					            (enum credit_type)ct, &c);
				}
	}
	sink.end(sink.ctx, at.time_ps);
	ck_assert_msg(vcd_write_close(w, true, err, sizeof(err)), "%s", err);
}

/* The same waveform written to a FIFO (a body file copied after the
 * header, the way that needs no room), as a child process reads it. */
static char *write_long_fifo(const char *dir, unsigned links_later, size_t *len)
{
	char fifo[96], copy[96];
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(copy, sizeof(copy), "%s/copy.vcd", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int in = open(fifo, O_RDONLY), out = open(copy, O_WRONLY | O_CREAT, 0600);
		char buf[65536];
		ssize_t n;
		while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(in >= 0 && out >= 0 && close(out) == 0 ? 0 : 1);
	}
	write_long(fifo, links_later);
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	char *text = slurp(copy, len);
	unlink(fifo);
	unlink(copy);
	return text;
}

START_TEST(test_header_room)
{
	setenv("SOURCE_DATE_EPOCH", "1700000000", 1);
	for (unsigned links_later = 0; links_later <= 4; links_later += 4) {
		char dir[] = "/tmp/check-vcd-XXXXXX";
		ck_assert_ptr_nonnull(mkdtemp(dir));
		size_t copy_len, len;
		char *copy = write_long_fifo(dir, links_later, &copy_len);
		char path[96];
		snprintf(path, sizeof(path), "%s/w.vcd", dir);
		write_long(path, links_later);
		char *text = slurp(path, &len);
		const char *defs = strstr(copy, "$enddefinitions $end\n");
		ck_assert_ptr_nonnull(defs);
		ck_assert_uint_gt(copy_len - (size_t)(defs - copy), 65536); /* a long body */
		char *room = strstr(text, "$comment\n\troom kept for the declarations");
		if (links_later == 0) {
			/* the header in the room: its rest a comment of newlines
			 * that ends just before $enddefinitions, the body from a
			 * page boundary; without the comment, the file the copy
			 * writes */
			ck_assert_ptr_nonnull(room);
			char *room_end = strstr(room, "$end\n$enddefinitions $end\n");
			ck_assert_ptr_nonnull(room_end);
			for (const char *c = strchr(room + 9, '\n') + 1; c < room_end; c++)
				ck_assert_int_eq(*c, '\n');
			size_t body_at =
			        (size_t)(room_end - text) + strlen("$end\n$enddefinitions $end\n");
			ck_assert_uint_eq(body_at % 4096, 0);
			size_t cut = (size_t)(room_end + strlen("$end\n") - room);
			memmove(room, room + cut, len - (size_t)(room - text) - cut + 1);
			len -= cut;
		} else {
			/* the header outgrew the room: the body moved, the file is
			 * the copy's byte for byte */
			ck_assert_ptr_null(room);
		}
		ck_assert_uint_eq(len, copy_len);
		ck_assert_int_eq(memcmp(text, copy, len), 0);
		free(text);
		free(copy);
		unlink(path);
		ck_assert_int_eq(rmdir(dir), 0); /* no temporary file left */
	}
}
END_TEST

Suite *suite_vcd_write(void)
{
	Suite *s = suite_create("vcd_write");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_codes);
	tcase_add_test(tc, test_changes_only);
	tcase_add_test(tc, test_pulses);
	tcase_add_test(tc, test_discard);
	tcase_add_test(tc, test_header_room);
	suite_add_tcase(s, tc);
	return s;
}
