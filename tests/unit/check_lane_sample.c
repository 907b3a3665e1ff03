/* check_lane_sample.c: unit tests of read/lanes/lane_sample.c: samples at
 * the active edge with the values just before it (a change at the edge's
 * own timestamp does not count), the falling edge, x/z clocks, a fixed
 * period from the first change, idle stretches skipped at once, a long
 * unchanging stretch cut; and, through the whole reader, valid = 0
 * carrying no symbol. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/code8b10b.h"
#include "read/lanes/lane_sample.h"
#include "read/lanes/reader_vcd.h"
#include "read/reader.h"
#include "suites.h"

struct seen {
	struct lane_sampler *s;
	unsigned n;
	uint64_t t[64], v[64], u[64], line[64];
	bool idle;
	unsigned idle_calls;
	uint64_t bytes; /* what bytes_fn says; 0: no bytes_fn */
	uint64_t gap, gap_at;
};

static void on_edge(void *ctx, const struct lane_pos *pos)
{
	struct seen *x = ctx;
	if (x->n < 64) {
		x->t[x->n] = pos->time_ps;
		x->line[x->n] = pos->line;
		lane_sampler_value(x->s, 1, &x->v[x->n], &x->u[x->n]);
	}
	x->n++;
}

static bool on_idle(void *ctx)
{
	struct seen *x = ctx;
	x->idle_calls++;
	return x->idle;
}

static uint64_t on_bytes(void *ctx)
{
	return ((struct seen *)ctx)->bytes;
}

static void on_gap(void *ctx, const struct lane_pos *pos, uint64_t skipped)
{
	struct seen *x = ctx;
	x->gap += skipped;
	x->gap_at = pos->time_ps;
}

static struct lane_sampler *make_bytes(struct seen *x, bool clock, enum lane_edge edge,
                                       uint64_t period, uint64_t bytes)
{
	memset(x, 0, sizeof(*x));
	x->bytes = bytes;
	struct lane_sampler_config c = { .slots = 2,
		                         .clock_slot = clock ? 0 : LANE_SAMPLE_NO_CLOCK,
		                         .edge = edge,
		                         .period_ps = period,
		                         .edge_fn = on_edge,
		                         .idle_fn = on_idle,
		                         .gap_fn = on_gap,
		                         .bytes_fn = x->bytes ? on_bytes : NULL,
		                         .ctx = x };
	x->s = lane_sampler_new(&c);
	ck_assert_ptr_nonnull(x->s);
	return x->s;
}

static struct lane_sampler *make(struct seen *x, bool clock, enum lane_edge edge, uint64_t period)
{
	return make_bytes(x, clock, edge, period, 0);
}

static void change(struct lane_sampler *s, unsigned slot, uint64_t v, uint64_t u, uint64_t line)
{
	struct vcd_change ch = { slot, v, u, line, line * 10 };
	lane_sampler_change(s, &ch);
}

/* Data written at the edge's own timestamp is the next symbol's. */
START_TEST(test_before_the_edge)
{
	struct seen x;
	struct lane_sampler *s = make(&x, true, LANE_EDGE_RISING, 0);
	lane_sampler_time(s, 0, 1, 0);
	change(s, 0, 0, 0, 2);
	change(s, 1, 0xA, 0, 3);
	lane_sampler_time(s, 10, 4, 40);
	change(s, 1, 0xB, 0, 5); /* data first, clock second, one timestamp */
	change(s, 0, 1, 0, 6);
	lane_sampler_time(s, 15, 7, 70);
	change(s, 0, 0, 0, 8);
	lane_sampler_time(s, 20, 9, 90);
	change(s, 0, 1, 0, 10); /* clock first, data second */
	change(s, 1, 0xC, 0, 11);
	lane_sampler_time(s, 25, 12, 120);
	change(s, 0, 0, 0, 13);
	change(s, 0, 1, 0, 14); /* a glitch 0 -> 1 at one time: 1 -> 1, no edge */
	lane_sampler_time(s, 30, 15, 150);
	change(s, 0, 0, 0, 16);
	lane_sampler_time(s, 35, 17, 170);
	change(s, 0, 1, 0, 18); /* the last step: its edge counts at the end */
	lane_sampler_finish(s);
	ck_assert_uint_eq(x.n, 3);
	ck_assert_uint_eq(x.t[0], 10);
	ck_assert_uint_eq(x.v[0], 0xA); /* not 0xB */
	ck_assert_uint_eq(x.line[0], 6); /* the clock's change */
	ck_assert_uint_eq(x.t[1], 20);
	ck_assert_uint_eq(x.v[1], 0xB); /* not 0xC */
	ck_assert_uint_eq(x.t[2], 35);
	ck_assert_uint_eq(x.v[2], 0xC);
	lane_sampler_free(s);
}
END_TEST

START_TEST(test_falling_and_unknown)
{
	struct seen x;
	struct lane_sampler *s = make(&x, true, LANE_EDGE_FALLING, 0);
	change(s, 0, 0, 1, 1); /* x */
	change(s, 1, 1, 0, 2);
	lane_sampler_time(s, 5, 3, 30);
	change(s, 0, 1, 0, 4); /* x -> 1: no edge */
	lane_sampler_time(s, 10, 5, 50);
	change(s, 0, 0, 0, 6); /* 1 -> 0: falling */
	change(s, 1, 2, 0, 7);
	lane_sampler_time(s, 15, 8, 80);
	change(s, 0, 0, 1, 9); /* 0 -> z: none */
	lane_sampler_time(s, 20, 10, 100);
	change(s, 0, 1, 0, 11); /* z -> 1: none */
	lane_sampler_time(s, 25, 12, 120);
	change(s, 0, 0, 0, 13); /* falling */
	lane_sampler_finish(s);
	ck_assert_uint_eq(x.n, 2);
	ck_assert_uint_eq(x.t[0], 10);
	ck_assert_uint_eq(x.v[0], 1);
	ck_assert_uint_eq(x.t[1], 25);
	ck_assert_uint_eq(x.v[1], 2);
	lane_sampler_free(s);
}
END_TEST

/* A fixed period: t0 + P, t0 + 2P, ..., each with the values standing
 * just before it; nothing past the last time in the file. */
START_TEST(test_period)
{
	struct seen x;
	struct lane_sampler *s = make(&x, false, LANE_EDGE_RISING, 4);
	lane_sampler_time(s, 100, 1, 0); /* nothing changed before: no t0 */
	change(s, 1, 7, 0, 2);
	lane_sampler_time(s, 104, 3, 30); /* t0 = 100; sample at 104 sees 7 */
	change(s, 1, 8, 0, 4);
	lane_sampler_time(s, 110, 5, 50); /* sample at 108 sees 8 */
	change(s, 1, 9, 0, 6);
	lane_sampler_time(s, 112, 7, 70); /* 112 sees 9 (set at 110) */
	lane_sampler_finish(s);
	ck_assert_uint_eq(x.n, 3);
	ck_assert_uint_eq(x.t[0], 104);
	ck_assert_uint_eq(x.v[0], 7);
	ck_assert_uint_eq(x.line[0], 3);
	ck_assert_uint_eq(x.t[1], 108);
	ck_assert_uint_eq(x.v[1], 8);
	ck_assert_uint_eq(x.t[2], 112);
	ck_assert_uint_eq(x.v[2], 9);
	lane_sampler_free(s);
}
END_TEST

/* A stretch of a billion periods that carries no symbol is skipped at
 * once; one that carries a symbol is cut after LANE_SAMPLE_REPEAT_MAX. */
START_TEST(test_period_stretches)
{
	struct seen x;
	struct lane_sampler *s = make(&x, false, LANE_EDGE_RISING, 1);
	change(s, 1, 1, 0, 1);
	lane_sampler_time(s, 0, 2, 0);
	x.idle = true;
	lane_sampler_time(s, 1000000000, 3, 30);
	ck_assert_uint_eq(x.n, 0);
	ck_assert_uint_eq(x.idle_calls, 1);
	x.idle = false;
	change(s, 1, 2, 0, 4);
	lane_sampler_time(s, 1000000000 + 3 * (uint64_t)LANE_SAMPLE_REPEAT_MAX, 5, 50);
	ck_assert_uint_eq(x.n, LANE_SAMPLE_REPEAT_MAX);
	ck_assert_uint_eq(x.gap, 2 * (uint64_t)LANE_SAMPLE_REPEAT_MAX);
	/* the next sample follows the skipped ones */
	change(s, 1, 3, 0, 6);
	lane_sampler_time(s, 1000000001 + 3 * (uint64_t)LANE_SAMPLE_REPEAT_MAX, 7, 70);
	ck_assert_uint_eq(x.n, LANE_SAMPLE_REPEAT_MAX + 1);
	lane_sampler_free(s);
}
END_TEST

/* In all no more samples than the file's size allows: a small file with
 * a tiny period cannot make a billion symbol times. */
START_TEST(test_period_budget)
{
	struct seen x;
	struct lane_sampler *s = make_bytes(&x, false, LANE_EDGE_RISING, 1, 10);
	change(s, 1, 1, 0, 1);
	lane_sampler_time(s, 0, 2, 0);
	lane_sampler_time(s, LANE_SAMPLE_REPEAT_MAX + 1000, 3, 30);
	ck_assert_uint_eq(x.n, LANE_SAMPLE_REPEAT_MAX); /* the stretch cut */
	ck_assert_uint_eq(x.gap, 1000);
	change(s, 1, 2, 0, 4);
	lane_sampler_time(s, LANE_SAMPLE_REPEAT_MAX + 2000, 5, 50);
	/* 10 bytes: 640 more samples, the other 360 cut */
	ck_assert_uint_eq(x.n, LANE_SAMPLE_REPEAT_MAX + 10 * LANE_SAMPLE_PER_BYTE);
	ck_assert_uint_eq(x.gap, 1000 + 1000 - 10 * LANE_SAMPLE_PER_BYTE);
	lane_sampler_free(s);
	/* the product's bounds (a fuzzing build's are smaller: lane_sample.h) */
	ck_assert_uint_eq(LANE_SAMPLE_REPEAT_MAX, 65536);
	ck_assert_uint_eq(LANE_SAMPLE_PER_BYTE, 64);
}
END_TEST

/* --- repeats that change nothing (repeat_fn) -------------------------------
 * A made-up decoder whose level climbs by one per sample towards the
 * value of slot 1 and stays there: once there, a repeat is a fixed point.
 * The same samples with repeat_fn and without (every sample to edge_fn)
 * must leave the same log of changes, gaps and times. */

struct climb {
	struct lane_sampler *s;
	unsigned level, calls;
	unsigned n; /* changes logged */
	uint64_t t[64], lv[64];
	uint64_t gap, gap_at;
};

static void climb_edge(void *ctx, const struct lane_pos *pos)
{
	struct climb *x = ctx;
	uint64_t v, u;
	x->calls++;
	lane_sampler_value(x->s, 1, &v, &u);
	if (x->level < v) {
		x->level++;
		if (x->n < 64) {
			x->t[x->n] = pos->time_ps;
			x->lv[x->n] = x->level;
		}
		x->n++;
	}
}

static bool climb_repeat(void *ctx, const struct lane_pos *pos, uint64_t nth)
{
	struct climb *x = ctx;
	unsigned before = x->level;
	(void)nth;
	climb_edge(ctx, pos);
	return x->level == before;
}

static void climb_gap(void *ctx, const struct lane_pos *pos, uint64_t skipped)
{
	struct climb *x = ctx;
	x->gap += skipped;
	x->gap_at = pos->time_ps;
}

static uint64_t climb_bytes(void *ctx)
{
	(void)ctx;
	return 100; /* 6400 samples past the first stretch's 65536 */
}

static void climb_run(struct climb *x, bool repeat)
{
	memset(x, 0, sizeof(*x));
	struct lane_sampler_config c = { .slots = 2,
		                         .clock_slot = LANE_SAMPLE_NO_CLOCK,
		                         .period_ps = 3,
		                         .edge_fn = climb_edge,
		                         .gap_fn = climb_gap,
		                         .bytes_fn = climb_bytes,
		                         .repeat_fn = repeat ? climb_repeat : NULL,
		                         .ctx = x };
	x->s = lane_sampler_new(&c);
	ck_assert_ptr_nonnull(x->s);
	struct lane_sampler *s = x->s;
	change(s, 1, 5, 0, 1);
	lane_sampler_time(s, 0, 2, 0);
	change(s, 1, 7, 0, 3); /* t0 = 0: 1..7 at 3..21, then 7 stays */
	lane_sampler_time(s, 3000, 4, 40);
	change(s, 1, 2, 0, 5); /* below the level: no sample before 3003 */
	lane_sampler_time(s, 3001, 6, 60);
	change(s, 1, 9, 0, 7); /* 8, 9 at 3003, 3006 */
	lane_sampler_time(s, 3006, 8, 80);
	change(s, 1, 12, 0, 9); /* 10..12, in a stretch cut at LANE_SAMPLE_REPEAT_MAX */
	uint64_t t1 = 3006 + 3 * ((uint64_t)LANE_SAMPLE_REPEAT_MAX + 50);
	lane_sampler_time(s, t1, 10, 100);
	change(s, 1, 13, 0, 11); /* the sample after the cut ones, at its time */
	lane_sampler_time(s, t1 + 3, 12, 120);
	change(s, 1, 40, 0, 13); /* 14..40, then the per-byte budget cuts */
	lane_sampler_time(s, t1 + 3 + 3 * 7000, 14, 140);
	lane_sampler_finish(s);
}

START_TEST(test_period_repeat)
{
	struct climb plain, fast;
	climb_run(&plain, false);
	climb_run(&fast, true);
	ck_assert_uint_eq(lane_sampler_skipped(plain.s), 0);
	/* the repeats were passed over, and nothing else changed */
	ck_assert_uint_gt(lane_sampler_skipped(fast.s), 60000);
	ck_assert_uint_eq(fast.calls + lane_sampler_skipped(fast.s), plain.calls);
	ck_assert_uint_eq(fast.n, plain.n);
	ck_assert_uint_eq(plain.n, 40);
	ck_assert_mem_eq(fast.t, plain.t, sizeof(plain.t));
	ck_assert_mem_eq(fast.lv, plain.lv, sizeof(plain.lv));
	uint64_t t1 = 3006 + 3 * ((uint64_t)LANE_SAMPLE_REPEAT_MAX + 50);
	ck_assert_uint_eq(plain.lv[12], 13);
	ck_assert_uint_eq(plain.t[12], t1 + 3);
	ck_assert_uint_eq(plain.t[39], t1 + 3 + 3 * 27);
	ck_assert_uint_eq(fast.level, plain.level);
	ck_assert_uint_eq(fast.gap, plain.gap);
	/* 1000 + 2 + 65536 + 1 made, then 5397 of the 71936 the bytes allow */
	ck_assert_uint_eq(plain.gap, 50 + 7000 - 5397);
	ck_assert_uint_eq(fast.gap_at, plain.gap_at);
	lane_sampler_free(plain.s);
	lane_sampler_free(fast.s);
}
END_TEST

/* --- repeats through the reader: the same results as every sample stepped -
 * Random VCDs at a period of 1 ps whose values stand for stretches of 1
 * to 3000 symbol times, rarely 70000 (ordered sets, idle, framing symbols, garbage,
 * x, valid low) in three forms: two directions of 9-bit symbols (two
 * lanes down, one up), 10-bit codes, and 128b/130b PIPE words.  Each is
 * read with the repeats passed over (on_repeat) and with
 * vcd_reader_plain(); every result must be the same. */

static uint64_t rnd_next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* a stretch: mostly one symbol time, sometimes long, rarely longer than
 * LANE_SAMPLE_REPEAT_MAX (cut, a gap) */
static unsigned rnd_hold(uint64_t *x)
{
	static const unsigned holds[] = { 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 5, 17, 300, 3000 };
	if (rnd_next(x) % 1000 == 0)
		return 70000;
	return holds[rnd_next(x) % (sizeof(holds) / sizeof(holds[0]))];
}

static unsigned rnd_sym(uint64_t *x)
{
	static const unsigned syms[] = { 0x1BC, 0x11C, 0x000, 0x000, 0x04A, 0x045, 0x1FB, 0x15C,
		                         0x1FD, 0x1FE, 0x1F7, 0x17C, 0x1FF, 0x100, 0x0FF, 0xFFFF };
	unsigned v = syms[rnd_next(x) % (sizeof(syms) / sizeof(syms[0]))];
	return v == 0x0FF ? (unsigned)(rnd_next(x) & 0xFF) : v;
}

static void put_bits(FILE *f, unsigned v, unsigned bits, const char *id)
{
	fputc('b', f);
	for (int b = (int)bits - 1; b >= 0; b--)
		fputc(v == 0xFFFF ? 'x' : (v >> b) & 1 ? '1' : '0', f);
	fprintf(f, " %s\n", id);
}

enum rform { RF_SYM, RF_CODE, RF_128B };

static char *random_vcd(uint64_t seed, enum rform form, size_t *len)
{
	uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
	char *t = NULL;
	FILE *f = open_memstream(&t, len);
	ck_assert_ptr_nonnull(f);
	fprintf(f, "$timescale 1ps $end\n");
	if (form == RF_128B)
		fprintf(f, "$var wire 8 a l0 $end\n$var wire 8 b l1 $end\n"
		           "$var wire 2 c s0 $end\n$var wire 2 d s1 $end\n"
		           "$var wire 1 e b0 $end\n$var wire 1 f b1 $end\n"
		           "$var wire 1 g v0 $end\n$var wire 1 h v1 $end\n");
	else
		fprintf(f,
		        "$var wire %u a l0 $end\n$var wire %u b l1 $end\n"
		        "$var wire %u c u0 $end\n$var wire 1 g v0 $end\n"
		        "$var wire 1 h v1 $end\n$var wire 1 i w0 $end\n",
		        form == RF_CODE ? 10 : 9, form == RF_CODE ? 10 : 9,
		        form == RF_CODE ? 10 : 9);
	fprintf(f, "$enddefinitions $end\n");
	static const char *const ids[] = { "a", "b", "c" };
	unsigned rd[3] = { 0, 0, 0 };
	uint64_t time = 0;
	for (int step = 0; step < 100; step++) {
		fprintf(f, "#%llu\n", (unsigned long long)time);
		unsigned same = (unsigned)(rnd_next(&x) % 3); /* 0: every lane its own */
		unsigned shared = rnd_sym(&x);
		for (unsigned l = 0; l < 3; l++) {
			if (form == RF_128B && l == 2)
				break;
			unsigned v = same ? shared : rnd_sym(&x);
			if (rnd_next(&x) % 4 == 0)
				continue; /* unchanged */
			if (form == RF_128B) {
				unsigned k = (unsigned)(rnd_next(&x) % 8);
				put_bits(f,
				         v == 0xFFFF ? v
				         : k == 0    ? 0xE1
				         : k == 1    ? 0xAA
				                     : v & 0xFF,
				         8, ids[l]);
				fprintf(f, "b%s %s\n", rnd_next(&x) % 3 ? "10" : "01",
				        l ? "d" : "c");
				fprintf(f, "%c%s\n", rnd_next(&x) % 5 ? '0' : '1', l ? "f" : "e");
			} else if (form == RF_CODE && v != 0xFFFF) {
				int code = code8b10b_encode((uint8_t)v, (v & 0x100) != 0, &rd[l]);
				if (code < 0 || rnd_next(&x) % 16 == 0)
					code = (int)(rnd_next(&x) &
					             0x3FF); /* not a code, or another */
				put_bits(f, (unsigned)code, 10, ids[l]);
			} else {
				put_bits(f, v, form == RF_CODE ? 10 : 9, ids[l]);
			}
		}
		static const char *const valids[] = { "g", "h", "i" };
		for (unsigned l = 0; l < 3; l++)
			if (rnd_next(&x) % 8 == 0)
				fprintf(f, "%c%s\n", rnd_next(&x) % 4 ? '1' : '0', valids[l]);
		time += rnd_hold(&x);
	}
	fprintf(f, "#%llu\n", (unsigned long long)time);
	fclose(f);
	return t;
}

/* Every result of reading the VCD, one line each (malloc'ed). */
static char *read_results(const char *text, size_t len, enum rform form, bool plain,
                          uint64_t *skipped)
{
	struct lane_options o;
	struct reader_opts ro = { 0 };
	char err[400];
	lane_options_init(&o);
	if (form == RF_128B) {
		ck_assert(lane_options_add_spec(&o, "down:data=l*,sync=s*,start=b*,valid=v*", err,
		                                sizeof(err)));
	} else {
		const char *key = form == RF_CODE ? "code" : "sym";
		char spec[80];
		snprintf(spec, sizeof(spec), "down:%s=l*,valid=v*", key);
		ck_assert_msg(lane_options_add_spec(&o, spec, err, sizeof(err)), "%s", err);
		snprintf(spec, sizeof(spec), "up:%s=u*,valid=w*", key);
		ck_assert_msg(lane_options_add_spec(&o, spec, err, sizeof(err)), "%s", err);
	}
	ck_assert(lane_options_set_period(&o, "1ps", err, sizeof(err)));
	ro.format = INPUT_VCD;
	ro.dlt = 147;
	ro.lanes = &o;
	FILE *fp = fmemopen((void *)(uintptr_t)text, len, "r");
	ck_assert_ptr_nonnull(fp);
	struct reader *r = reader_open_stream(fp, "r.vcd", true, &ro, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	if (plain)
		vcd_reader_plain(r->state);
	char *out = NULL;
	size_t out_len;
	FILE *f = open_memstream(&out, &out_len);
	ck_assert_ptr_nonnull(f);
	for (;;) {
		struct record rec;
		struct reader_malformed bad;
		memset(&bad, 0, sizeof(bad));
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF)
			break;
		if (res == READER_RECORD) {
			fprintf(f, "%llu t=%llu line=%llu off=%llu k=%d d=%d f=%u ",
			        (unsigned long long)rec.pos.record_no,
			        (unsigned long long)rec.time_ps, (unsigned long long)rec.pos.line,
			        (unsigned long long)rec.pos.byte_offset, rec.kind, rec.dir,
			        rec.flags);
			for (uint32_t i = 0; i < rec.len; i++)
				fprintf(f, "%02x", rec.bytes[i]);
			fputc('\n', f);
		} else {
			fprintf(f,
			        "%d %llu t=%d/%llu line=%llu off=%llu dir=%d/%d lane=%d/%u k=%u "
			        "lost=%d %s\n",
			        res, (unsigned long long)bad.pos.record_no, bad.has_time,
			        (unsigned long long)bad.time_ps, (unsigned long long)bad.pos.line,
			        (unsigned long long)bad.pos.byte_offset, bad.has_dir, bad.dir,
			        bad.has_lane, bad.lane, bad.kind, bad.lost_span, bad.reason);
			if (res == READER_FATAL)
				break;
		}
	}
	*skipped = vcd_reader_skipped(r->state);
	reader_close(r);
	fclose(f);
	return out;
}

START_TEST(test_repeat_reader)
{
	static const char *const names[] = { "sym", "code", "128b" };
	uint64_t skipped[3] = { 0, 0, 0 };
	for (enum rform form = RF_SYM; form <= RF_128B; form++) {
		for (uint64_t seed = 1; seed <= 10; seed++) {
			size_t len;
			char *t = random_vcd(seed, form, &len);
			uint64_t fast_skipped, plain_skipped;
			char *fast = read_results(t, len, form, false, &fast_skipped);
			char *plain = read_results(t, len, form, true, &plain_skipped);
			ck_assert_uint_eq(plain_skipped, 0);
			ck_assert_msg(strcmp(fast, plain) == 0, "%s seed %llu: the results differ",
			              names[form], (unsigned long long)seed);
			ck_assert_uint_gt(strlen(plain), 0);
			skipped[form] += fast_skipped;
			free(fast);
			free(plain);
			free(t);
		}
	}
	/* the repeats were passed over (the test compares something) */
	ck_assert_uint_gt(skipped[RF_SYM], 10000);
	ck_assert_uint_gt(skipped[RF_CODE], 10000);
	ck_assert_uint_gt(skipped[RF_128B], 10000);
}
END_TEST

/* --- valid through the reader ---------------------------------------------
 * A sym-form lane (9 bits, bit 8 = K) with a valid signal, unscrambled:
 * an InitFC1-P DLLP (40 08 01 00 4B 75, good CRC) between logical idle;
 * every other clock edge has valid = 0 and garbage on the lane, which
 * must carry no symbol. */

/* A TS1/TS2 (fill 4Ah/45h): as in Polling, Link and Lane numbers PAD,
 * or as in Recovery, with the Link and Lane numbers (0) */
static unsigned ts_symbols_as(unsigned *out, unsigned fill, bool polling)
{
	static const unsigned head[] = { 0x1BC, 0x1F7, 0x1F7, 0x10, 0x02, 0x00 };
	unsigned n = 0;
	for (unsigned i = 0; i < 6; i++)
		out[n++] = !polling && (i == 1 || i == 2) ? 0x00 : head[i];
	for (unsigned i = 0; i < 10; i++)
		out[n++] = fill;
	return n;
}

static unsigned ts_symbols(unsigned *out, unsigned fill)
{
	return ts_symbols_as(out, fill, true);
}

static char *valid_vcd(bool garbage_valid)
{
	static const unsigned dllp[] = { 0x15C, 0x40, 0x08, 0x01, 0x00, 0x4B, 0x75, 0x1FD };
	unsigned order[200];
	unsigned m = 0;
	for (int i = 0; i < 4; i++)
		m += ts_symbols(order + m, 0x4A); /* TS1 */
	for (int i = 0; i < 4; i++)
		m += ts_symbols(order + m, 0x45); /* TS2 */
	for (int i = 0; i < 8; i++)
		order[m++] = 0x00; /* logical idle, not scrambled */
	for (int i = 0; i < 8; i++)
		order[m++] = dllp[i];
	for (int i = 0; i < 8; i++)
		order[m++] = 0x00;
	size_t cap = 200000, l = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	l += (size_t)snprintf(t + l, cap - l,
	                      "$timescale 1ns $end\n$var wire 1 ! clk $end\n"
	                      "$var wire 9 \" s0 $end\n$var wire 1 # v0 $end\n"
	                      "$enddefinitions $end\n#0\n0!\n0#\nb0 \"\n");
	unsigned long long time = 0;
	for (unsigned i = 0; i < m; i++) {
		/* a valid symbol (sampled at the next edge), then a cycle of
		 * garbage with valid = 0 */
		l += (size_t)snprintf(t + l, cap - l, "#%llu\n1!\n1#\nb", time += 2);
		for (int b = 8; b >= 0; b--)
			t[l++] = (order[i] >> b) & 1 ? '1' : '0';
		l += (size_t)snprintf(t + l, cap - l, " \"\n#%llu\n0!\n", ++time);
		l += (size_t)snprintf(t + l, cap - l, "#%llu\n1!\n%c#\nb100111100 \"\n", ++time,
		                      garbage_valid ? '1' : '0');
		l += (size_t)snprintf(t + l, cap - l, "#%llu\n0!\n", ++time);
		ck_assert_uint_lt(l, cap - 200);
	}
	l += (size_t)snprintf(t + l, cap - l, "#%llu\n1!\n", time += 2);
	t[l] = '\0';
	return t;
}

static unsigned count_dllps(const char *text, unsigned *malformed)
{
	struct lane_options o;
	struct reader_opts ro = { 0 };
	char err[400];
	lane_options_init(&o);
	ck_assert(lane_options_add_spec(&o, "down:sym=s*,valid=v*", err, sizeof(err)));
	ck_assert(lane_options_set_clock(&o, "clk", err, sizeof(err)));
	ck_assert(lane_options_set_scrambled(&o, "no", err, sizeof(err)));
	ro.format = INPUT_AUTO;
	ro.dlt = 147;
	ro.lanes = &o;
	FILE *fp = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	ck_assert_ptr_nonnull(fp);
	struct reader *r = reader_open_stream(fp, "v.vcd", true, &ro, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	ck_assert_str_eq(r->format_name, "vcd");
	unsigned dllps = 0;
	*malformed = 0;
	for (;;) {
		struct record rec;
		struct reader_malformed bad;
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF)
			break;
		if (res == READER_RECORD && rec.kind == REC_DLLP) {
			static const uint8_t want[] = { 0x40, 0x08, 0x01, 0x00, 0x4B, 0x75 };
			ck_assert_uint_eq(rec.len, 6);
			ck_assert_mem_eq(rec.bytes, want, 6);
			ck_assert_uint_eq(rec.flags & REC_F_PHY_ERROR, 0);
			dllps++;
		} else if (res != READER_RECORD) {
			(*malformed)++;
		}
		ck_assert_int_ne(res, READER_FATAL);
	}
	reader_close(r);
	return dllps;
}

START_TEST(test_valid)
{
	unsigned malformed;
	char *t = valid_vcd(false);
	ck_assert_uint_eq(count_dllps(t, &malformed), 1);
	ck_assert_uint_eq(malformed, 0);
	free(t);
	/* the same garbage with valid = 1: the DLLP is no longer received
	 * clean (the test can fail) */
	t = valid_vcd(true);
	unsigned d = count_dllps(t, &malformed);
	ck_assert(d == 0 || malformed > 0);
	free(t);
}
END_TEST

/* --- link-up and recovery through the reader -------------------------------
 * Two directions of 9-bit symbols, unscrambled, each a list of phases:
 * T = TS1 x4 then TS2 x4, I = 8 symbols of logical idle, D = an InitFC1-P
 * DLLP, S = a SKP ordered set, E = EIOS and electrical idle.  The events the reader writes, in order, as letters: U link-up,
 * R recovery; a DLLP as d or u by its direction. */

static unsigned phase_symbols(char ph, unsigned *out)
{
	static const unsigned dllp[] = { 0x15C, 0x40, 0x08, 0x01, 0x00, 0x4B, 0x75, 0x1FD };
	unsigned n = 0;
	switch (ph) {
	case 'T': /* training from Polling (Link numbers PAD) */
	case 'R': /* a retrain (TS with link numbers, as in Recovery) */
		for (int i = 0; i < 4; i++)
			n += ts_symbols_as(out + n, 0x4A, ph == 'T');
		for (int i = 0; i < 4; i++)
			n += ts_symbols_as(out + n, 0x45, ph == 'T');
		break;
	case 'I':
		for (int i = 0; i < 8; i++)
			out[n++] = 0x00;
		break;
	case 'E': /* EIOS, then electrical idle (x) */
		out[n++] = 0x1BC;
		for (int i = 0; i < 3; i++)
			out[n++] = 0x17C;
		for (int i = 0; i < 8; i++)
			out[n++] = 0xFFFF;
		break;
	case 'S': /* a SKP ordered set: the COM a receiver locks on */
		out[n++] = 0x1BC;
		for (int i = 0; i < 3; i++)
			out[n++] = 0x11C;
		break;
	case 'D':
		for (int i = 0; i < 8; i++)
			out[n++] = dllp[i];
		break;
	}
	return n;
}

static void events_of(const char *down, const char *up, char *got, size_t size)
{
	unsigned sym[2][2000];
	unsigned n[2] = { 0, 0 };
	const char *phases[2] = { down, up };
	for (int d = 0; d < 2; d++) {
		for (const char *ph = phases[d]; *ph; ph++)
			n[d] += phase_symbols(*ph, sym[d] + n[d]);
	}
	unsigned len = n[0] > n[1] ? n[0] : n[1];
	for (int d = 0; d < 2; d++)
		while (n[d] < len)
			sym[d][n[d]++] = 0x00;
	size_t cap = 400000, l = 0;
	char *t = malloc(cap);
	ck_assert_ptr_nonnull(t);
	l += (size_t)snprintf(t + l, cap - l,
	                      "$var wire 1 ! clk $end\n$var wire 9 \" d0 $end\n"
	                      "$var wire 9 # u0 $end\n$enddefinitions $end\n#0\n0!\n");
	unsigned long long time = 0;
	for (unsigned i = 0; i < len; i++) {
		l += (size_t)snprintf(t + l, cap - l, "#%llu\n1!\n", time += 2);
		for (int d = 0; d < 2; d++) {
			t[l++] = 'b';
			for (int b = 8; b >= 0; b--)
				t[l++] = sym[d][i] == 0xFFFF    ? 'x'
				         : (sym[d][i] >> b) & 1 ? '1'
				                                : '0';
			l += (size_t)snprintf(t + l, cap - l, " %c\n", d ? '#' : '"');
		}
		l += (size_t)snprintf(t + l, cap - l, "#%llu\n0!\n", ++time);
		ck_assert_uint_lt(l, cap - 100);
	}
	l += (size_t)snprintf(t + l, cap - l, "#%llu\n1!\n", time += 2);

	struct lane_options o;
	struct reader_opts ro = { 0 };
	char err[400];
	lane_options_init(&o);
	ck_assert(lane_options_add_spec(&o, "down:sym=d*", err, sizeof(err)));
	if (up[0])
		ck_assert(lane_options_add_spec(&o, "up:sym=u*", err, sizeof(err)));
	ck_assert(lane_options_set_clock(&o, "clk", err, sizeof(err)));
	ck_assert(lane_options_set_scrambled(&o, "no", err, sizeof(err)));
	ro.format = INPUT_VCD;
	ro.dlt = 147;
	ro.lanes = &o;
	FILE *fp = fmemopen(t, l, "r");
	ck_assert_ptr_nonnull(fp);
	struct reader *r = reader_open_stream(fp, "e.vcd", true, &ro, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	size_t g = 0;
	for (;;) {
		struct record rec;
		struct reader_malformed bad;
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF || g + 2 >= size)
			break;
		if (res != READER_RECORD)
			got[g++] = '!';
		else if (rec.kind == REC_EVENT)
			got[g++] = rec.bytes[0] == EV_LINK_UP    ? 'U'
			           : rec.bytes[0] == EV_RECOVERY ? 'R'
			                                         : '?';
		else
			got[g++] = rec.dir == DIR_DOWN ? 'd' : 'u';
	}
	got[g] = '\0';
	reader_close(r);
	free(t);
}

START_TEST(test_link_events)
{
	char got[64];
	/* both trained: one link-up, at the later; then a DLLP each way */
	events_of("TIDI", "TIIDI", got, sizeof(got));
	ck_assert_str_eq(got, "Udu");
	/* one direction only: its own training */
	events_of("TIDI", "", got, sizeof(got));
	ck_assert_str_eq(got, "Ud");
	/* a retrain after the link was up: recovery once it resumes */
	events_of("TIDIRIDI", "TIIIIIIIIIIIIIIIIIII", got, sizeof(got));
	ck_assert_str_eq(got, "UdRd");
	/* both retrain: one recovery, at the later resume */
	events_of("TIDIRIDI", "TIDIIRIIDI", got, sizeof(got));
	ck_assert_str_eq(got, "UduRdu");
	/* a capture that begins in the data stream (a SKP ordered set the
	 * first COM): the first training is a retrain, a recovery, never a
	 * link-up (nothing shows the link went down) */
	events_of("SIDIRIDI", "SIIIIIIIIIIIIIIIIIII", got, sizeof(got));
	ck_assert_str_eq(got, "dRd");
	events_of("SIDIRIDI", "SIIIIRIIIIIIIIIIII", got, sizeof(got));
	ck_assert_str_eq(got, "dRd");
	/* EIOS and electrical idle, then training: a retrain as well (a speed
	 * change or an L1 exit looks so), one recovery at the later resume,
	 * never a second link-up that would reset the flow-control state */
	events_of("TIDIERIIIDI", "TIIDIERIDI", got, sizeof(got));
	ck_assert_str_eq(got, "UduRud");
	events_of("SIDIERIDI", "SIIIIERIIIII", got, sizeof(got));
	ck_assert_str_eq(got, "dRd");
	/* ... but when port D trains from Polling (its TS1 with the Link
	 * number PAD: entered only from Detect, where LinkUp is 0), the data
	 * link layer went down: link-up again, once both directions trained */
	events_of("TIDIETIIIDI", "TIIDIETIDI", got, sizeof(got));
	ck_assert_str_eq(got, "UduUud");
	events_of("SIDIETIDI", "SIIIIETIIIII", got, sizeof(got));
	ck_assert_str_eq(got, "dUd");
	/* only port D's PAD counts: an upstream port sends PAD in
	 * Configuration too, which Recovery may enter with the link up */
	events_of("TIDIERIIIDI", "TIIDIETIDI", got, sizeof(got));
	ck_assert_str_eq(got, "UduRud");
}
END_TEST

Suite *suite_lane_sample(void)
{
	Suite *s = suite_create("lane_sample");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_before_the_edge);
	tcase_add_test(tc, test_falling_and_unknown);
	tcase_add_test(tc, test_period);
	tcase_add_test(tc, test_period_stretches);
	tcase_add_test(tc, test_period_budget);
	tcase_add_test(tc, test_period_repeat);
	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_link_events);
	suite_add_tcase(s, tc);
	/* hundreds of thousands of samples, each stepped, twice */
	TCase *rep = tcase_create("repeats");
	tcase_add_test(rep, test_repeat_reader);
	tcase_set_timeout(rep, 60);
	suite_add_tcase(s, rep);
	return s;
}
