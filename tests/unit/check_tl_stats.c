/* check_tl_stats.c: the transaction layer's numbers as the reports show
 * them (--stats): a link's struct tl_stats filled by hand, as the
 * transaction model (model/tl_*.c) fills it, then its read-only view
 * (fc_view.c), the text section (report_text.c) and the "transactions"
 * key of the JSON summary (report_json.c). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fc_internal.h"
#include "model/fc_view.h"
#include "report/report.h"
#include "suites.h"

struct fixture {
	struct fc_options opts;
	struct finding_sink sink;
	struct fc_model model;
	struct input_stats stats;
	struct fc_link *link;
};

static void no_emit(void *ctx, const struct finding *f)
{
	(void)ctx;
	(void)f;
}

/* A model with link 0 active and nothing else: the reports show what the
 * test puts in link->tl_stats. */
static void fixture_init(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	fc_options_init(&fx->opts);
	finding_sink_init(&fx->sink, no_emit, NULL);
	fc_model_init(&fx->model, &fx->opts, &fx->sink);
	fx->link = fc_link_get(&fx->model, 0);
	ck_assert_ptr_nonnull(fx->link);
	fx->link->active = true;
	fx->link->has_time = true;
	fx->link->last_time_ps = 5000000;
}

/* Port D sent 120 MRd and 4 CfgRd0; 118 ended by their completions, 1 by
 * a link-down, 2 still outstanding (1 of them reported by
 * tlp.cpl.timeout), at most 16 at once; 122 completions came back from
 * port U: 118 SC, 2 UR, 1 CA, 1 reserved (3) of which 2 matched nothing;
 * 3 requests came from requesters that could not be tracked, 5 requests
 * and completions while the transaction state was unknown.  Latencies:
 * 100 ns to 10 us. */
static void fill_down(struct tl_stats *t)
{
	t->requests[TLP_MRD] = 120;
	t->requests[TLP_CFGRD0] = 4;
	t->completed = 118;
	t->ended_by_epoch = 1;
	t->timed_out = 1;
	t->outstanding = 2;
	t->outstanding_high_water = 16;
	for (unsigned i = 0; i < 118; i++) {
		fc_intervals_add(&t->latency_first, 100000 + 1000 * (uint64_t)i);
		fc_intervals_add(&t->latency_last, i == 117 ? 10000000 : 200000);
	}
	t->completions = 122;
	t->completions_unmatched = 2;
	t->cpl_status[TLP_CPL_SC] = 118;
	t->cpl_status[TLP_CPL_UR] = 2;
	t->cpl_status[TLP_CPL_CA] = 1;
	t->cpl_status[3] = 1;
	t->requesters_untracked = 3;
	t->while_unknown = 5;
}

static void fixture_free(struct fixture *fx)
{
	fc_model_free(&fx->model);
}

static struct input_report report_of(struct fixture *fx, bool stats)
{
	struct input_report r = {
		.file = "hand.trace",
		.format = "text",
		.stats = &fx->stats,
		.sink = &fx->sink,
		.model = &fx->model,
		.fc_opts = &fx->opts,
		.stats_wanted = stats,
	};
	return r;
}

/* The report of one input as a string (free it). */
static char *text_of(struct fixture *fx, bool stats)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	struct input_report r = report_of(fx, stats);
	report_text_input(out, &r);
	fclose(out);
	return buf;
}

static json_t *jsonl_of(struct fixture *fx, bool stats)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	struct input_report r = report_of(fx, stats);
	report_jsonl_input(out, &r);
	fclose(out);
	json_error_t err;
	json_t *o = json_loads(buf, 0, &err);
	ck_assert_msg(o != NULL, "not JSON (%s): %s", err.text, buf);
	free(buf);
	return o;
}

/* The view copies every number, sums the requests and groups the
 * reserved statuses; the latencies read the histogram as the UpdateFC
 * intervals do (median to within 1/16). */
START_TEST(test_view)
{
	struct fixture fx;
	fixture_init(&fx);
	fill_down(&fx.link->tl_stats[DIR_DOWN]);
	struct fc_link_view v;
	ck_assert(fc_model_view_link(&fx.model, 0, &v));
	const struct tl_stats_view *t = &v.tl_stats[DIR_DOWN];
	ck_assert(tl_stats_view_any(t));
	ck_assert(!tl_stats_view_any(&v.tl_stats[DIR_UP]));
	ck_assert_uint_eq(t->requests[TLP_MRD], 120);
	ck_assert_uint_eq(t->requests[TLP_CFGRD0], 4);
	ck_assert_uint_eq(t->requests_total, 124);
	ck_assert_uint_eq(t->completed, 118);
	ck_assert_uint_eq(t->ended_by_epoch, 1);
	ck_assert_uint_eq(t->timed_out, 1);
	ck_assert_uint_eq(t->outstanding, 2);
	ck_assert_uint_eq(t->outstanding_high_water, 16);
	ck_assert_uint_eq(t->completions, 122);
	ck_assert_uint_eq(t->completions_unmatched, 2);
	ck_assert_uint_eq(t->status[TL_STATUS_SC], 118);
	ck_assert_uint_eq(t->status[TL_STATUS_UR], 2);
	ck_assert_uint_eq(t->status[TL_STATUS_CRS], 0);
	ck_assert_uint_eq(t->status[TL_STATUS_CA], 1);
	ck_assert_uint_eq(t->status[TL_STATUS_OTHER], 1);
	ck_assert_uint_eq(t->requesters_untracked, 3);
	ck_assert_uint_eq(t->while_unknown, 5);
	ck_assert_uint_eq(t->latency_first.count, 118);
	ck_assert(t->latency_first.has_median);
	ck_assert_uint_eq(t->latency_first.min_ps, 100000);
	ck_assert_uint_eq(t->latency_first.max_ps, 217000);
	/* the true median is 158500 ps: within 1/16 */
	ck_assert_uint_ge(t->latency_first.median_ps, 158500 - 158500 / 16);
	ck_assert_uint_le(t->latency_first.median_ps, 158500 + 158500 / 16);
	ck_assert_uint_eq(t->latency_last.min_ps, 200000);
	ck_assert_uint_eq(t->latency_last.max_ps, 10000000);
	ck_assert_uint_ge(t->latency_last.median_ps, 200000 - 200000 / 16);
	ck_assert_uint_le(t->latency_last.median_ps, 200000 + 200000 / 16);
	/* a direction with no completed request has no latency */
	ck_assert_uint_eq(v.tl_stats[DIR_UP].latency_first.count, 0);
	ck_assert(!v.tl_stats[DIR_UP].latency_first.has_median);
	ck_assert_str_eq(tl_status_view_name(TL_STATUS_SC), "SC");
	ck_assert_str_eq(tl_status_view_name(TL_STATUS_OTHER), "other");
	fixture_free(&fx);
}
END_TEST

/* --stats prints the section for the direction that had transactions,
 * with the units and wording of the other --stats lines. */
START_TEST(test_text)
{
	struct fixture fx;
	fixture_init(&fx);
	fill_down(&fx.link->tl_stats[DIR_DOWN]);
	char *s = text_of(&fx, true);
	ck_assert_msg(strstr(s, "    port down sent 124 non-posted requests: 120 MRd, 4 CfgRd0; "
	                        "completed 118, ended unanswered by a new epoch 1, outstanding "
	                        "at the end 2, most at once 16; timed out (tlp.cpl.timeout) 1\n"),
	              "%s", s);
	ck_assert_msg(strstr(s, "    port down latency to the first completion min "
	                        "0.000000100000s median ~0.0000001"),
	              "%s", s);
	ck_assert_msg(strstr(s, "s max 0.000000217000s; to the last min 0.000000200000s median "
	                        "~0.0000002"),
	              "%s", s);
	ck_assert_msg(strstr(s, "s max 0.000010000000s\n"), "%s", s);
	ck_assert_msg(strstr(s, "    port down received 122 completions for its requests: 118 SC, "
	                        "2 UR, 1 CA, 1 other; 2 matched no outstanding request\n"),
	              "%s", s);
	ck_assert_msg(strstr(s, "    partial: port down: 3 requests from requesters that could "
	                        "not be tracked"),
	              "%s", s);
	ck_assert_msg(strstr(s, "    partial: port down: 5 of its requests and of the completions "
	                        "for them came while the transaction state was unknown"),
	              "%s", s);
	/* nothing for the direction without transactions */
	ck_assert_msg(!strstr(s, "port up   sent 0 non-posted"), "%s", s);
	ck_assert_msg(!strstr(s, "port up   received"), "%s", s);
	free(s);
	/* without --stats, no section */
	s = text_of(&fx, false);
	ck_assert_msg(!strstr(s, "non-posted"), "%s", s);
	free(s);
	fixture_free(&fx);
}
END_TEST

/* The extras (epoch, timeout, unmatched, untracked) only when they
 * happened; no latency line before a request completed; one request
 * is singular. */
START_TEST(test_text_minimal)
{
	struct fixture fx;
	fixture_init(&fx);
	struct tl_stats *t = &fx.link->tl_stats[DIR_UP];
	t->requests[TLP_CFGWR0] = 1;
	t->outstanding = 1;
	t->outstanding_high_water = 1;
	char *s = text_of(&fx, true);
	ck_assert_msg(strstr(s, "    port up   sent 1 non-posted request: 1 CfgWr0; completed 0, "
	                        "outstanding at the end 1, most at once 1\n"
	                        "    port up   received 0 completions for its requests\n"),
	              "%s", s);
	ck_assert_msg(!strstr(s, "latency") && !strstr(s, "partial: port up"), "%s", s);
	ck_assert_msg(!strstr(s, "port down sent 0 non-posted"), "%s", s);
	free(s);
	/* nothing at all on a link without transactions */
	memset(t, 0, sizeof(*t));
	s = text_of(&fx, true);
	ck_assert_msg(!strstr(s, "non-posted") && !strstr(s, "completions for"), "%s", s);
	free(s);
	fixture_free(&fx);
}
END_TEST

static json_int_t int_at(json_t *o, const char *path)
{
	char key[64];
	json_t *v = o;
	for (const char *p = path; v && *p;) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		ck_assert(n < sizeof(key));
		memcpy(key, p, n);
		key[n] = 0;
		v = json_object_get(v, key);
		p += n + (dot != NULL);
	}
	ck_assert_msg(json_is_integer(v), "%s is not an integer", path);
	return json_integer_value(v);
}

/* The JSON summary carries links[].transactions.down/up with --stats. */
START_TEST(test_json)
{
	struct fixture fx;
	fixture_init(&fx);
	fill_down(&fx.link->tl_stats[DIR_DOWN]);
	json_t *o = jsonl_of(&fx, true);
	json_t *link = json_array_get(json_object_get(o, "links"), 0);
	ck_assert_ptr_nonnull(link);
	json_t *tr = json_object_get(link, "transactions");
	ck_assert_ptr_nonnull(tr);
	json_t *d = json_object_get(tr, "down"), *u = json_object_get(tr, "up");
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(u);
	ck_assert_int_eq(int_at(d, "requests.MRd"), 120);
	ck_assert_int_eq(int_at(d, "requests.CfgRd0"), 4);
	ck_assert_uint_eq(json_object_size(json_object_get(d, "requests")), 2);
	ck_assert_int_eq(int_at(d, "requests_total"), 124);
	ck_assert_int_eq(int_at(d, "completed"), 118);
	ck_assert_int_eq(int_at(d, "ended_by_epoch"), 1);
	ck_assert_int_eq(int_at(d, "timed_out"), 1);
	ck_assert_int_eq(int_at(d, "outstanding"), 2);
	ck_assert_int_eq(int_at(d, "outstanding_max"), 16);
	ck_assert_int_eq(int_at(d, "latency_first_ps.count"), 118);
	ck_assert_int_eq(int_at(d, "latency_first_ps.min"), 100000);
	ck_assert_int_eq(int_at(d, "latency_first_ps.max"), 217000);
	json_int_t med = int_at(d, "latency_first_ps.median");
	ck_assert(med >= 158500 - 158500 / 16 && med <= 158500 + 158500 / 16);
	ck_assert_int_eq(int_at(d, "latency_last_ps.max"), 10000000);
	ck_assert_int_eq(int_at(d, "completions"), 122);
	ck_assert_int_eq(int_at(d, "unmatched"), 2);
	ck_assert_int_eq(int_at(d, "status.SC"), 118);
	ck_assert_int_eq(int_at(d, "status.UR"), 2);
	ck_assert_int_eq(int_at(d, "status.CRS"), 0);
	ck_assert_int_eq(int_at(d, "status.CA"), 1);
	ck_assert_int_eq(int_at(d, "status.other"), 1);
	ck_assert_int_eq(int_at(d, "requesters_untracked"), 3);
	ck_assert_int_eq(int_at(d, "while_unknown"), 5);
	/* the quiet direction: zeros, latencies null */
	ck_assert_int_eq(int_at(u, "requests_total"), 0);
	ck_assert_uint_eq(json_object_size(json_object_get(u, "requests")), 0);
	ck_assert_int_eq(int_at(u, "latency_first_ps.count"), 0);
	ck_assert(json_is_null(json_object_get(json_object_get(u, "latency_first_ps"), "median")));
	ck_assert(json_is_null(json_object_get(json_object_get(u, "latency_last_ps"), "min")));
	json_decref(o);
	/* without --stats, no key */
	o = jsonl_of(&fx, false);
	link = json_array_get(json_object_get(o, "links"), 0);
	ck_assert_ptr_null(json_object_get(link, "transactions"));
	json_decref(o);
	fixture_free(&fx);
}
END_TEST

Suite *suite_tl_stats(void)
{
	Suite *s = suite_create("tl_stats");
	TCase *tc = tcase_create("report");
	tcase_add_test(tc, test_view);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_text_minimal);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}
