/* check_timeline.c: the pictures' view of the model over time
 * (report/timeline.c over model/fc_probe.c).  The timeline probes after a
 * record only the VCs the record may have touched
 * (fc_probe_vcs_touched()); here, after every record of every scenario
 * and sample, every VC of every link is probed afresh and compared with
 * what the timeline told a recording sink, so a change the shortcut
 * missed fails here.  Also: times never go back, the end is told once,
 * and a VC nobody used is never told about. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/analysis.h"
#include "cli/config.h"
#include "model/fc_probe.h"
#include "report/timeline.h"
#include "scenario_walk.h"
#include "suites.h"

/* What the sink was told: the latest value of everything. */
struct told {
	bool link_told[FC_LINK_COUNT];
	uint8_t link_state[FC_LINK_COUNT];
	struct fc_probe_port port[FC_LINK_COUNT][DIR_COUNT];
	/* a sink with lag and no port (as the HTML charts'): only that */
	bool lag_only;
	bool lag[FC_LINK_COUNT][DIR_COUNT];
	uint8_t vc_told[FC_LINK_COUNT]; /* a bit per VC with its init told */
	uint16_t credit_told[FC_LINK_COUNT][FC_VC_COUNT]; /* a bit per port x type */
	uint8_t init[FC_LINK_COUNT][FC_VC_COUNT][DIR_COUNT];
	struct fc_probe_credit credit[FC_LINK_COUNT][FC_VC_COUNT][DIR_COUNT][CT_COUNT];
	bool has_time;
	uint64_t last_ps;
	unsigned ends;
	uint64_t changes, findings;
	const char *input;
};

static void told_time(struct told *t, uint64_t ps)
{
	ck_assert_msg(!t->has_time || ps >= t->last_ps, "%s: time goes back: %llu after %llu",
	              t->input, (unsigned long long)ps, (unsigned long long)t->last_ps);
	t->has_time = true;
	t->last_ps = ps;
	t->changes++;
}

static void on_link_state(void *ctx, const struct timeline_at *at, uint8_t state)
{
	struct told *t = ctx;
	told_time(t, at->time_ps);
	t->link_told[at->link] = true;
	t->link_state[at->link] = state;
}

static void on_port(void *ctx, const struct timeline_at *at, enum link_dir p,
                    const struct fc_probe_port *now)
{
	struct told *t = ctx;
	told_time(t, at->time_ps);
	ck_assert_msg(t->link_told[at->link], "%s: a port told before its link", t->input);
	memcpy(&t->port[at->link][p], now, sizeof(*now));
}

static void on_lag(void *ctx, const struct timeline_at *at, enum link_dir p, bool may_lag)
{
	struct told *t = ctx;
	told_time(t, at->time_ps);
	ck_assert_msg(t->link_told[at->link], "%s: a port's lag told before its link", t->input);
	t->lag[at->link][p] = may_lag;
}

static void on_init(void *ctx, const struct timeline_at *at, unsigned vc, enum link_dir p,
                    uint8_t state)
{
	struct told *t = ctx;
	told_time(t, at->time_ps);
	t->vc_told[at->link] |= (uint8_t)(1u << vc);
	t->init[at->link][vc][p] = state;
}

static void on_credit(void *ctx, const struct timeline_at *at, unsigned vc, enum link_dir p,
                      enum credit_type ct, const struct fc_probe_credit *now)
{
	struct told *t = ctx;
	told_time(t, at->time_ps);
	t->credit_told[at->link][vc] |= (uint16_t)(1u << (p * CT_COUNT + ct));
	memcpy(&t->credit[at->link][vc][p][ct], now, sizeof(*now));
}

static void on_finding(void *ctx, const struct finding *f, uint64_t ps)
{
	struct told *t = ctx;
	(void)f;
	told_time(t, ps);
	t->findings++;
}

static void on_end(void *ctx, uint64_t ps)
{
	struct told *t = ctx;
	ck_assert_msg(!t->has_time || ps >= t->last_ps, "%s: the end before the last change",
	              t->input);
	t->ends++;
}

/* Every value of the model now equals the one told last. */
static void compare_all(const struct told *t, const struct fc_model *m, uint64_t record_no)
{
	for (unsigned i = 0; i < FC_LINK_COUNT; i++) {
		struct fc_probe_link pl;
		if (!fc_probe_link(m, i, &pl))
			continue;
		ck_assert_msg(t->link_told[i], "%s record %llu: link %u never told", t->input,
		              (unsigned long long)record_no, i);
		ck_assert_msg(pl.state == t->link_state[i],
		              "%s record %llu: link %u state %u, told %u", t->input,
		              (unsigned long long)record_no, i, pl.state, t->link_state[i]);
		for (unsigned p = 0; p < DIR_COUNT; p++)
			ck_assert_msg(pl.port[p].consumed_may_lag == t->lag[i][p],
			              "%s record %llu: link %u port %u CC may lag %d, told %d",
			              t->input, (unsigned long long)record_no, i, p,
			              pl.port[p].consumed_may_lag, t->lag[i][p]);
		ck_assert_msg(t->lag_only || memcmp(pl.port, t->port[i], sizeof(pl.port)) == 0,
		              "%s record %llu: link %u ports differ from what was told", t->input,
		              (unsigned long long)record_no, i);
		for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
			struct fc_probe_vc v;
			fc_probe_vc(m, i, vc, &v);
			bool told = t->vc_told[i] & (1u << vc);
			if (!told) {
				ck_assert_msg(!timeline_vc_in_use(&v),
				              "%s record %llu: link %u VC%u in use, never told",
				              t->input, (unsigned long long)record_no, i, vc);
				continue;
			}
			ck_assert_uint_eq(t->credit_told[i][vc],
			                  (1u << (DIR_COUNT * CT_COUNT)) - 1);
			for (unsigned p = 0; p < DIR_COUNT; p++) {
				ck_assert_msg(
				        v.init[p] == t->init[i][vc][p],
				        "%s record %llu: link %u VC%u port %u init %u, told %u",
				        t->input, (unsigned long long)record_no, i, vc, p,
				        v.init[p], t->init[i][vc][p]);
				for (unsigned ct = 0; ct < CT_COUNT; ct++)
					ck_assert_msg(
					        memcmp(&v.credit[p][ct], &t->credit[i][vc][p][ct],
					               sizeof(v.credit[p][ct])) == 0,
					        "%s record %llu: link %u VC%u port %u %s: "
					        "CL %u CC %u available %u (known %d), told "
					        "CL %u CC %u available %u (known %d)",
					        t->input, (unsigned long long)record_no, i, vc, p,
					        credit_type_name((enum credit_type)ct),
					        v.credit[p][ct].limit, v.credit[p][ct].consumed,
					        v.credit[p][ct].available,
					        v.credit[p][ct].available_known,
					        t->credit[i][vc][p][ct].limit,
					        t->credit[i][vc][p][ct].consumed,
					        t->credit[i][vc][p][ct].available,
					        t->credit[i][vc][p][ct].available_known);
			}
		}
	}
}

struct pass {
	struct fc_model model;
	struct timeline tl;
	struct told *told;
};

static void pass_packet(void *ctx, const struct packet *pkt, bool fit)
{
	struct pass *ps = ctx;
	fc_model_apply(&ps->model, pkt, fit);
	timeline_record(&ps->tl, &ps->model, pkt, fit);
	compare_all(ps->told, &ps->model, pkt->rec->pos.record_no);
}

static void pass_malformed(void *ctx, const struct reader_malformed *bad)
{
	struct pass *ps = ctx;
	int link = bad->has_link ? bad->link : -1;
	fc_model_damaged(&ps->model, link, bad->has_dir ? (int)bad->dir : -1,
	                 bad->kind == REC_DLLP || bad->kind == REC_TLP ? bad->kind : 0,
	                 bad->lost_span ? FC_DAMAGED_MANY : 1);
	timeline_damaged(&ps->tl, &ps->model, link, bad->has_time, bad->time_ps);
	compare_all(ps->told, &ps->model, bad->pos.record_no);
}

static void pass_emit(void *ctx, const struct finding *f)
{
	timeline_finding(ctx, f);
}

struct totals {
	unsigned inputs;
	uint64_t changes, findings;
};

/* The pass, with a sink that takes every value (lag_only false) or one
 * that takes the lag instead of the ports (the HTML charts'). */
static void timeline_pass(const char *input, struct config *cfg, struct totals *tot, bool lag_only)
{
	char err[512];
	struct reader *r = reader_open(input, &cfg->reader, err, sizeof(err));
	ck_assert_msg(r != NULL, "%s", err);
	struct pass *ps = calloc(1, sizeof(*ps));
	struct told *told = calloc(1, sizeof(*told));
	ck_assert(ps && told);
	told->input = input;
	told->lag_only = lag_only;
	ps->told = told;
	timeline_init(&ps->tl);
	struct timeline_sink ts = { on_link_state, on_port, on_init, on_credit,
		                    on_finding,    on_end,  told,    on_lag };
	if (lag_only)
		ts.port = NULL;
	ck_assert(timeline_add_sink(&ps->tl, &ts));
	struct finding_sink sink;
	finding_sink_init(&sink, pass_emit, &ps->tl);
	fc_model_init(&ps->model, &cfg->fc, &sink);
	struct analysis_hooks hooks = { pass_packet, pass_malformed, ps, NULL };
	struct input_stats stats;
	memset(&stats, 0, sizeof(stats));
	analysis_run(r, &sink, &hooks, &stats);
	fc_model_finish(&ps->model);
	timeline_finish(&ps->tl, &ps->model);
	compare_all(told, &ps->model, UINT64_MAX);
	ck_assert_uint_eq(told->ends, 1);
	ck_assert(!ps->tl.out_of_memory);
	uint64_t reported = 0;
	for (unsigned k = 0; k < SEV_COUNT; k++)
		reported += sink.count_by_severity[k];
	ck_assert_msg(told->findings == reported, "%s: %llu findings told, %llu reported", input,
	              (unsigned long long)told->findings, (unsigned long long)reported);
	tot->inputs++;
	tot->changes += told->changes;
	tot->findings += told->findings;
	timeline_free(&ps->tl);
	fc_model_free(&ps->model);
	reader_close(r);
	free(told);
	free(ps);
}

static void timeline_of(const char *input, struct config *cfg, void *ctx)
{
	timeline_pass(input, cfg, ctx, false);
	timeline_pass(input, cfg, ctx, true);
}

START_TEST(test_timeline_scenarios)
{
	struct totals tot = { 0 };
	unsigned n = scenario_each(timeline_of, &tot);
	ck_assert_uint_gt(n, 100);
	/* something was drawn, and findings reached the pictures */
	ck_assert_uint_gt(tot.changes, 1000);
	ck_assert_uint_gt(tot.findings, 100);
}
END_TEST

START_TEST(test_timeline_samples)
{
	static const char *const samples[] = {
		"clean-init.trace", "crc-errors.pcap", "lost-completion.trace",
		"overrun.pcap",     "sim-x4.vcd",      "overrun-export.csv",
	};
	struct totals tot = { 0 };
	for (unsigned i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/samples/%s", SRCDIR, samples[i]);
		struct config cfg;
		config_init(&cfg);
		timeline_of(path, &cfg, &tot);
	}
	ck_assert_uint_eq(tot.inputs, 2 * sizeof(samples) / sizeof(samples[0])); /* two passes */
	ck_assert_uint_gt(tot.changes, 50);
}
END_TEST

/* No sink: nothing is probed or kept. */
START_TEST(test_timeline_without_sink)
{
	struct timeline tl;
	timeline_init(&tl);
	ck_assert(!timeline_active(&tl));
	struct timeline_sink ts = { 0 };
	ck_assert(timeline_add_sink(&tl, &ts));
	ck_assert(timeline_add_sink(&tl, &ts));
	ck_assert(!timeline_add_sink(&tl, &ts)); /* TIMELINE_SINKS_MAX */
	timeline_free(&tl);
}
END_TEST

Suite *suite_timeline(void)
{
	Suite *s = suite_create("timeline");
	TCase *tc = tcase_create("timeline");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_timeline_scenarios);
	tcase_add_test(tc, test_timeline_samples);
	tcase_add_test(tc, test_timeline_without_sink);
	suite_add_tcase(s, tc);
	return s;
}
