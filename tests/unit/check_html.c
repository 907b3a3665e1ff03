/* check_html.c: unit tests of the HTML report's pieces: report/html_escape.h
 * (the JSON blocks' one escaper: < > & U+2028 U+2029 as \u escapes, also
 * when a write cuts a UTF-8 sequence, and nothing else changed) and
 * report/html_chart.h (the bucket collector against a brute-force
 * reference on random values and times, merging, bounds; the charts'
 * limit of HTML_CHARTS_MAX; the findings' markers). */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html_chart.h"
#include "report/html_escape.h"
#include "suites.h"
#include "xorshift.h"

/* ---- the escaper ---------------------------------------------------------- */

/* An escaper writing to memory (open_memstream). */
struct mem_escape {
	char *buf;
	size_t size;
	FILE *f;
	struct html_escape e;
};

static void mem_open(struct mem_escape *m)
{
	m->buf = NULL;
	m->size = 0;
	m->f = open_memstream(&m->buf, &m->size);
	ck_assert_ptr_nonnull(m->f);
	html_escape_init(&m->e, m->f);
}

/* The text written (malloc'd, NUL-terminated), its length in *len. */
static char *mem_close(struct mem_escape *m, size_t *len)
{
	ck_assert(html_escape_finish(&m->e));
	fclose(m->f);
	*len = m->size;
	return m->buf;
}

/* in through the escaper, written in pieces of at most chunk bytes (0:
 * one write); the result in a malloc'd string of *len bytes */
static char *escape(const char *in, size_t n, size_t chunk, size_t *len)
{
	struct mem_escape m;
	mem_open(&m);
	if (!chunk)
		chunk = n ? n : 1;
	for (size_t i = 0; i < n; i += chunk)
		ck_assert_int_eq(html_escape_write(in + i, n - i < chunk ? n - i : chunk, &m.e), 0);
	return mem_close(&m, len);
}

START_TEST(test_escape_known)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "" },
		{ "plain {\"a\":1}", "plain {\"a\":1}" },
		{ "\"</script>\"", "\"\\u003c/script\\u003e\"" },
		{ "<!--", "\\u003c!--" },
		{ "a&b", "a\\u0026b" },
		{ "x\xe2\x80\xa8y\xe2\x80\xa9z", "x\\u2028y\\u2029z" },
		/* other characters of E2 80 xx and E2 xx stay as they are */
		{ "\xe2\x80\x94 \xe2\x82\xac \xe2\x80\xe2\x80\xa8",
		  "\xe2\x80\x94 \xe2\x82\xac \xe2\x80\\u2028" },
		{ "\xe2\xe2\x80\xa9", "\xe2\\u2029" },
		/* a sequence cut at the end of the input goes out as it was */
		{ "end\xe2\x80", "end\xe2\x80" },
		{ "end\xe2", "end\xe2" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].in);
		for (size_t chunk = 0; chunk <= n; chunk++) {
			size_t len;
			char *out = escape(cases[i].in, n, chunk, &len);
			ck_assert_msg(len == strlen(cases[i].out) &&
			                      memcmp(out, cases[i].out, len) == 0,
			              "case %zu chunk %zu: '%.*s'", i, chunk, (int)len, out);
			free(out);
		}
	}
}
END_TEST

/* Random bytes rich in the special ones, written in random pieces: no
 * special character left, and the \u escapes undone give the input. */
START_TEST(test_escape_random)
{
	static const unsigned char alphabet[] = { '<',  '>',  '&', 0xE2, 0x80,
		                                  0xA8, 0xA9, 'a', '\\', 'u' };
	uint32_t rnd = 0x2028u;
	for (unsigned round = 0; round < 2000; round++) {
		unsigned char in[64];
		size_t n = next_random(&rnd) % sizeof(in);
		for (size_t i = 0; i < n; i++)
			in[i] = alphabet[next_random(&rnd) % sizeof(alphabet)];
		size_t len;
		char *out = escape((const char *)in, n, 1 + next_random(&rnd) % 7, &len);
		ck_assert_ptr_null(memchr(out, '<', len));
		ck_assert_ptr_null(memchr(out, '>', len));
		ck_assert_ptr_null(memchr(out, '&', len));
		for (size_t i = 0; i + 2 < len; i++)
			ck_assert(!(out[i] == '\xe2' && out[i + 1] == '\x80' &&
			            (out[i + 2] == '\xa8' || out[i + 2] == '\xa9')));
		/* undo: only the escaper's own escapes ("\u" of the input is
		 * left alone since its next four bytes never spell one of them
		 * unless the escaper wrote them) */
		unsigned char back[64];
		size_t m = 0;
		for (size_t i = 0; i < len;) {
			static const struct {
				const char *esc;
				const char *raw;
			} undo[] = { { "\\u003c", "<" },
				     { "\\u003e", ">" },
				     { "\\u0026", "&" },
				     { "\\u2028", "\xe2\x80\xa8" },
				     { "\\u2029", "\xe2\x80\xa9" } };
			size_t k = 0;
			for (; k < 5; k++)
				if (len - i >= 6 && memcmp(out + i, undo[k].esc, 6) == 0)
					break;
			if (k < 5) {
				size_t r = strlen(undo[k].raw);
				ck_assert_uint_le(m + r, sizeof(back));
				memcpy(back + m, undo[k].raw, r);
				m += r;
				i += 6;
			} else {
				ck_assert_uint_lt(m, sizeof(back));
				back[m++] = (unsigned char)out[i++];
			}
		}
		ck_assert_msg(m == n && memcmp(back, in, n) == 0, "round %u", round);
		free(out);
	}
}
END_TEST

/* Through Jansson: the block parses to the very string it was given. */
START_TEST(test_escape_json)
{
	const char *s = "</script><script>alert(1)</script><!-- & \xe2\x80\xa8\xe2\x80\xa9 \"q\"";
	struct mem_escape m;
	mem_open(&m);
	json_t *v = json_pack("{s:s}", "m", s);
	html_escape_json(&m.e, v, JSON_COMPACT);
	size_t len;
	char *buf = mem_close(&m, &len);
	ck_assert_ptr_null(strstr(buf, "</"));
	ck_assert_ptr_null(strstr(buf, "<!--"));
	ck_assert_str_eq(buf,
	                 "{\"m\":\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script"
	                 "\\u003e\\u003c!-- \\u0026 \\u2028\\u2029 \\\"q\\\"\"}");
	json_t *back = json_loads(buf, 0, NULL);
	ck_assert_ptr_nonnull(back);
	ck_assert_str_eq(json_string_value(json_object_get(back, "m")), s);
	json_decref(back);
	json_decref(v);
	free(buf);
}
END_TEST

/* ---- the bucket collector ------------------------------------------------- */

struct event {
	uint64_t t;
	bool update; /* else a value */
	struct html_value v;
};

/* The buckets straight from the events at the final width (no merging,
 * no running state): for each bucket that has events, the list of values
 * that held in it (the last told before it, then those told in it), and
 * from the list its min, max, last and flags. */
static void reference(const struct event *ev, size_t n, uint64_t t0, uint64_t width,
                      struct html_bucket *out)
{
	memset(out, 0, HTML_BUCKETS * sizeof(*out));
	static const struct html_value *held[6001];
	const struct html_value *before = NULL;
	for (size_t i = 0; i < n;) {
		uint64_t k = (ev[i].t - t0) / width;
		ck_assert_uint_lt(k, HTML_BUCKETS);
		size_t count = 0, j = i;
		if (before)
			held[count++] = before;
		for (; j < n && (ev[j].t - t0) / width == k; j++) {
			if (ev[j].update)
				out[k].updates++;
			else
				held[count++] = &ev[j].v;
		}
		out[k].seen = true;
		for (size_t h = 0; h < count; h++) {
			unsigned kind = held[h]->kind;
			out[k].flags |= (held[h]->uncertain ? HTML_F_UNCERTAIN : 0) |
			                (kind == HV_INFINITE ? HTML_F_INFINITE : 0) |
			                (kind == HV_UNKNOWN ? HTML_F_UNKNOWN : 0);
		}
		uint32_t lo = UINT32_MAX, hi = 0;
		for (size_t h = 0; h < count; h++)
			if (held[h]->kind == HV_KNOWN) {
				lo = held[h]->value < lo ? held[h]->value : lo;
				hi = held[h]->value > hi ? held[h]->value : hi;
				out[k].any_known = true;
			}
		out[k].min = lo;
		out[k].max = hi;
		if (count && held[count - 1]->kind == HV_KNOWN) {
			out[k].last_known = true;
			out[k].last = held[count - 1]->value;
		}
		if (count)
			before = held[count - 1];
		i = j;
	}
}

static void check_against_reference(const struct html_series *s, const struct event *ev, size_t n,
                                    unsigned round)
{
	/* bounds: the narrowest buckets that hold the last time */
	uint64_t span = n ? ev[n - 1].t - s->t0 : 0;
	ck_assert_uint_lt(span / s->bucket_ps, HTML_BUCKETS);
	ck_assert(s->bucket_ps == 1 || span / (s->bucket_ps / 2) >= HTML_BUCKETS);
	static struct html_bucket ref[HTML_BUCKETS];
	reference(ev, n, s->t0, s->bucket_ps, ref);
	for (unsigned k = 0; k < HTML_BUCKETS; k++) {
		struct html_bucket want = ref[k];
		const struct html_bucket *got = html_series_bucket(s, k);
		ck_assert_msg(got->seen == want.seen, "round %u bucket %u seen", round, k);
		if (!want.seen)
			continue;
		ck_assert_msg(
		        got->flags == want.flags && got->updates == want.updates &&
		                got->any_known == want.any_known &&
		                got->last_known == want.last_known,
		        "round %u bucket %u: flags %u/%u updates %u/%u known %d/%d last %d/%d",
		        round, k, got->flags, want.flags, got->updates, want.updates,
		        got->any_known, want.any_known, got->last_known, want.last_known);
		if (want.any_known)
			ck_assert_msg(got->min == want.min && got->max == want.max,
			              "round %u bucket %u: min %u/%u max %u/%u", round, k, got->min,
			              want.min, got->max, want.max);
		if (want.last_known)
			ck_assert_msg(got->last == want.last, "round %u bucket %u: last %u/%u",
			              round, k, got->last, want.last);
	}
	ck_assert_uint_le(html_series_span(s), HTML_BUCKETS);
}

/* A new series over any bytes: every bucket as the plain value of an
 * empty one (its struct, compared byte for byte), the rest zero but the
 * origin and 1 ps buckets. */
START_TEST(test_series_init)
{
	static struct html_series s;
	const struct html_bucket empty = { .min = UINT32_MAX };
	memset(&s, 0xA5, sizeof(s));
	html_series_init(&s, 77);
	for (unsigned k = 0; k < HTML_BUCKETS; k++)
		ck_assert_msg(memcmp(html_series_bucket(&s, k), &empty, sizeof(empty)) == 0, "bucket %u", k);
	ck_assert_uint_eq(s.t0, 77);
	ck_assert_uint_eq(s.bucket_ps, 1);
	ck_assert_uint_eq(s.cur, 0);
	ck_assert_uint_eq(s.top, 0);
	ck_assert_uint_eq(s.cur_start, 0);
	ck_assert_uint_eq(s.cur_width, 0);
	ck_assert(!s.has_value);
	ck_assert_uint_eq(html_series_span(&s), 0);
}
END_TEST

START_TEST(test_series_random)
{
	uint32_t rnd = 16u;
	static struct event ev[6000];
	static struct html_series s;
	for (unsigned round = 0; round < 60; round++) {
		uint64_t t0 = next_random(&rnd) % 1000, t = t0;
		size_t n = 1 + next_random(&rnd) % (sizeof(ev) / sizeof(ev[0]));
		/* steps of various scales: dense runs, gaps, jumps */
		unsigned scale = next_random(&rnd) % 40;
		html_series_init(&s, t0);
		for (size_t i = 0; i < n; i++) {
			uint32_t r = next_random(&rnd);
			if (r % 97 == 0)
				t += (uint64_t)next_random(&rnd) << (next_random(&rnd) % 24);
			else if (r % 3)
				t += next_random(&rnd) % (2u + ((uint64_t)1 << (scale % 20)));
			ev[i].t = t;
			ev[i].update = next_random(&rnd) % 9 == 0;
			uint32_t k = next_random(&rnd) % 16;
			ev[i].v = (struct html_value){ k < 12   ? HV_KNOWN
				                       : k < 14 ? HV_UNKNOWN
				                                : HV_INFINITE,
				                       next_random(&rnd) % 11 == 0,
				                       k < 12 ? next_random(&rnd) % 256 : 0 };
			if (ev[i].update)
				html_series_update(&s, t);
			else
				html_series_set(&s, t, &ev[i].v);
		}
		check_against_reference(&s, ev, n, round);
	}
}
END_TEST

/* 4096 values, one a picosecond: one merge, and bucket k holds 2k - 1
 * carried in, 2k and 2k + 1. */
START_TEST(test_series_merge)
{
	static struct html_series s;
	html_series_init(&s, 0);
	for (uint32_t t = 0; t < 2 * HTML_BUCKETS; t++) {
		struct html_value v = { HV_KNOWN, false, t };
		html_series_set(&s, t, &v);
	}
	ck_assert_uint_eq(s.bucket_ps, 2);
	ck_assert_uint_eq(html_series_span(&s), HTML_BUCKETS);
	ck_assert_uint_eq(html_series_bucket(&s, 0)->min, 0);
	ck_assert_uint_eq(html_series_bucket(&s, 0)->max, 1);
	for (unsigned k = 1; k < HTML_BUCKETS; k++) {
		ck_assert_uint_eq(html_series_bucket(&s, k)->min, 2 * k - 1);
		ck_assert_uint_eq(html_series_bucket(&s, k)->max, 2 * k + 1);
		ck_assert_uint_eq(html_series_bucket(&s, k)->last, 2 * k + 1);
	}
	/* one more far away: 512 ps buckets, the 4096 values in the first 8 */
	struct html_value v = { HV_INFINITE, true, 0 };
	html_series_set(&s, 1000000, &v);
	ck_assert_uint_eq(s.bucket_ps, 512);
	ck_assert_uint_eq(html_series_bucket(&s, 0)->min, 0);
	ck_assert_uint_eq(html_series_bucket(&s, 0)->max, 511);
	ck_assert_uint_eq(html_series_bucket(&s, 7)->min, 3583);
	ck_assert_uint_eq(html_series_bucket(&s, 7)->max, 4095);
	ck_assert_uint_eq(html_series_bucket(&s, 0)->flags, 0);
	ck_assert(!html_series_bucket(&s, 8)->seen);
	ck_assert_uint_eq(html_series_bucket(&s, 1000000 / 512)->min, 4095); /* carried in */
	ck_assert_uint_eq(html_series_bucket(&s, 1000000 / 512)->flags, HTML_F_INFINITE | HTML_F_UNCERTAIN);
	ck_assert(!html_series_bucket(&s, 1000000 / 512)->last_known);
}
END_TEST

/* The widest times: no overflow, still 2048 buckets at most. */
START_TEST(test_series_bounds)
{
	static struct html_series s;
	html_series_init(&s, 0);
	struct html_value v = { HV_KNOWN, false, 7 };
	html_series_set(&s, 0, &v);
	html_series_set(&s, UINT64_MAX, &v);
	ck_assert_uint_lt(UINT64_MAX / s.bucket_ps, HTML_BUCKETS);
	ck_assert(html_series_bucket(&s, 0)->seen);
	ck_assert(html_series_bucket(&s, HTML_BUCKETS - 1)->seen);
	/* a time before the origin counts as the origin */
	html_series_init(&s, 1000);
	html_series_set(&s, 5, &v);
	ck_assert(html_series_bucket(&s, 0)->seen);
	ck_assert_uint_eq(s.bucket_ps, 1);
}
END_TEST

/* Chart i written as text, parsed back; NULL when nothing was written. */
static json_t *chart_json(const struct html_charts *cs, unsigned i)
{
	struct mem_escape m;
	mem_open(&m);
	html_charts_write(cs, i, html_escape_write, &m.e);
	size_t size;
	char *buf = mem_close(&m, &size);
	json_t *v = size ? json_loads(buf, 0, NULL) : NULL;
	ck_assert(!size || v);
	free(buf);
	return v;
}

/* More (link, VC, type) with a limit than HTML_CHARTS_MAX: the rest are
 * counted once each, and the charts come out in link, VC, type order. */
START_TEST(test_charts_max)
{
	struct html_charts *cs = html_charts_new();
	ck_assert_ptr_nonnull(cs);
	struct fc_probe_credit c;
	memset(&c, 0, sizeof(c));
	c.limit_known = c.consumed_known = c.available_known = true;
	c.width = 8;
	c.limit = c.available = 9;
	unsigned made = 0;
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned link = 60; link-- > 0;)
			for (unsigned ct = 0; ct < CT_COUNT; ct++) {
				struct timeline_at at = { 100u * made++, link, NULL };
				html_charts_credit(cs, &at, 3, DIR_UP, (enum credit_type)ct, &c);
			}
	ck_assert_uint_eq(cs->count, HTML_CHARTS_MAX);
	ck_assert_uint_eq(cs->dropped, 60 * CT_COUNT - HTML_CHARTS_MAX);
	ck_assert_uint_eq(html_charts_sort(cs), HTML_CHARTS_MAX);
	json_t *first = chart_json(cs, 0), *last = chart_json(cs, HTML_CHARTS_MAX - 1);
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(last);
	/* links 59 down to 18 came first (252 charts), then link 17's first
	 * four types: its CplH and CplD and links 16 to 0 are dropped */
	ck_assert_int_eq(json_integer_value(json_object_get(first, "link")), 17);
	ck_assert_str_eq(json_string_value(json_object_get(first, "type")), "PH");
	ck_assert_int_eq(json_integer_value(json_object_get(last, "link")), 59);
	ck_assert_str_eq(json_string_value(json_object_get(last, "type")), "CplD");
	/* past the last: nothing written */
	json_t *none = chart_json(cs, HTML_CHARTS_MAX);
	ck_assert_ptr_null(none);
	/* a chart's series as the contract has them */
	json_t *series = json_array_get(json_object_get(last, "series"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(series, "port")), "up");
	ck_assert_int_eq(json_integer_value(json_object_get(series, "width")), 8);
	/* link 59's CplD: the 6th chart made in the first pass, at 500 ps,
	 * then again (unchanged) at 36500 ps: buckets of 32 ps from 0 */
	ck_assert_int_eq(json_integer_value(json_object_get(series, "bucket_ps")), 32);
	char *text = json_dumps(json_object_get(series, "points"), JSON_COMPACT);
	ck_assert_str_eq(text, "[[480,9,9,9,0],[36480,9,9,9,0]]");
	free(text);
	json_decref(first);
	json_decref(last);
	html_charts_free(cs);
}
END_TEST

/* The numbers of a chart's text at every digit count, from 0 to the
 * widest time (20 digits) and credit value (2^32 - 1): as printf has
 * them. */
START_TEST(test_charts_numbers)
{
	static const uint64_t times[] = { 0,
		                          9,
		                          10,
		                          99,
		                          100,
		                          12345678901234567ull,
		                          9999999999999999999ull,
		                          10000000000000000000ull,
		                          UINT64_MAX };
	static const uint32_t values[] = { 0,         9,          10,         99,
		                           100,       999,        1000,       65535,
		                           99999999u, 100000000u, 999999999u, 1000000000u,
		                           UINT32_MAX };
	for (unsigned i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		struct html_charts *cs = html_charts_new();
		ck_assert_ptr_nonnull(cs);
		unsigned n = sizeof(values) / sizeof(values[0]);
		for (unsigned link = 0; link < n; link++) {
			struct fc_probe_credit c;
			memset(&c, 0, sizeof(c));
			c.limit_known = c.consumed_known = c.available_known = true;
			c.width = 32;
			c.limit = c.available = values[link];
			struct timeline_at at = { times[i], link, NULL };
			html_charts_credit(cs, &at, 0, DIR_DOWN, CT_PH, &c);
		}
		ck_assert_uint_eq(html_charts_sort(cs), n);
		/* as text: Jansson reads no integer above INT64_MAX */
		for (unsigned link = 0; link < n; link++) {
			struct mem_escape m;
			mem_open(&m);
			html_charts_write(cs, link, html_escape_write, &m.e);
			size_t size;
			char *text = mem_close(&m, &size);
			char want[128];
			snprintf(want, sizeof(want), "\"points\":[[%llu,%lu,%lu,%lu,0]]",
			         (unsigned long long)times[i], (unsigned long)values[link],
			         (unsigned long)values[link], (unsigned long)values[link]);
			ck_assert_msg(strstr(text, want), "%s not in %s", want, text);
			free(text);
		}
		html_charts_free(cs);
	}
}
END_TEST

/* The findings' markers: none made before the first (most inputs have
 * few), then kept in order, those that name no series left out, at most
 * HTML_FINDINGS_MAX; a series lists its own. */
START_TEST(test_charts_marks)
{
	struct html_charts *cs = html_charts_new();
	ck_assert_ptr_nonnull(cs);
	ck_assert_ptr_null(cs->marks);
	struct fc_probe_credit c;
	memset(&c, 0, sizeof(c));
	c.limit_known = c.consumed_known = c.available_known = true;
	c.width = 8;
	c.limit = c.available = 9;
	struct timeline_at at = { 1000, 2, NULL };
	html_charts_credit(cs, &at, 1, DIR_DOWN, CT_PH, &c);
	ck_assert_uint_eq(cs->count, 1);
	unsigned marked = 0;
	for (unsigned i = 0; i < 2 * HTML_FINDINGS_MAX; i++) {
		struct finding f;
		finding_init(&f, R_FC_INIT_ORDER, NULL);
		f.link = 2;
		f.port = DIR_DOWN;
		f.vc = i % 3 == 2 ? FINDING_NO_VC : 1; /* every third: no series */
		f.credit_type = CT_PH;
		html_charts_mark(cs, &f, 1000 + i, i);
		marked += i % 3 != 2;
		if (marked == 3)
			/* grown as they come, not made at the most */
			ck_assert_uint_lt(cs->marks_size, HTML_FINDINGS_MAX);
	}
	ck_assert(!cs->out_of_memory);
	ck_assert_uint_eq(cs->mark_count, HTML_FINDINGS_MAX);
	for (unsigned k = 0; k < cs->mark_count; k++) {
		/* the k-th finding that names the series: i = k + k / 2 */
		unsigned i = k + k / 2;
		ck_assert_uint_eq(cs->marks[k].index, i);
		ck_assert_uint_eq(cs->marks[k].t_ps, 1000 + i);
	}
	ck_assert_uint_eq(html_charts_sort(cs), 1);
	json_t *chart = chart_json(cs, 0);
	ck_assert_ptr_nonnull(chart);
	json_t *series = json_array_get(json_object_get(chart, "series"), 0);
	json_t *marks = json_object_get(series, "findings");
	ck_assert_uint_eq(json_array_size(marks), HTML_FINDINGS_MAX);
	char *text = json_dumps(json_array_get(marks, 2), JSON_COMPACT);
	ck_assert_str_eq(text, "[1003,3]");
	free(text);
	json_decref(chart);
	html_charts_free(cs);
}
END_TEST

Suite *suite_html(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("escape");
	tcase_add_test(tc, test_escape_known);
	tcase_add_test(tc, test_escape_random);
	tcase_add_test(tc, test_escape_json);
	suite_add_tcase(s, tc);
	tc = tcase_create("chart");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_series_init);
	tcase_add_test(tc, test_series_random);
	tcase_add_test(tc, test_series_merge);
	tcase_add_test(tc, test_series_bounds);
	tcase_add_test(tc, test_charts_max);
	tcase_add_test(tc, test_charts_numbers);
	tcase_add_test(tc, test_charts_marks);
	suite_add_tcase(s, tc);
	return s;
}
