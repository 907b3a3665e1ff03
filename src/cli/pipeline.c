/* pipeline.c: one input through the whole analysis: reader -> decoder ->
 * packet rules -> shadow model -> findings -> report. */
#include <stdio.h>
#include <string.h>

#include "cli/pipeline.h"
#include "cli/report_hold.h"

/* The analysis: packets into the shadow model. */
static void model_on_packet(void *ctx, const struct packet *pkt, bool fit)
{
	fc_model_apply(ctx, pkt, fit);
}

/* A record that could not be decoded at all: for the model, a packet of
 * unknown content, link and direction that the capture saw damaged
 * [rules.md "What the capture saw damaged"]. */
static void model_on_malformed(void *ctx, const struct reader_malformed *bad)
{
	/* a lost stretch (a lane decoder out of step) may have held any
	 * number of packets */
	fc_model_damaged(ctx, bad->has_link ? bad->link : -1, bad->has_dir ? (int)bad->dir : -1,
	                 bad->kind == REC_DLLP || bad->kind == REC_TLP ? bad->kind : 0,
	                 bad->lost_span ? FC_DAMAGED_MANY : 1);
}

void pipeline_check(const struct config *cfg, struct reader *r, const char *path, FILE *out,
                    struct input_result *res, struct report_hold *hold)
{
	void (*emit)(void *, const struct finding *) = NULL;
	void *emit_ctx = out;
	struct json_input json_in;
	struct junit_input junit_in = { out, cfg->fail_on };
	if (!cfg->quiet) {
		switch (cfg->format) {
		case OUT_TEXT:
			emit = report_text_finding;
			break;
		case OUT_JSONL:
			emit = report_jsonl_finding;
			break;
		case OUT_JSON:
			emit = report_json_finding;
			emit_ctx = &json_in;
			report_json_input_begin(&json_in, out, path);
			break;
		case OUT_JUNIT:
			emit = report_junit_finding;
			emit_ctx = &junit_in;
			report_junit_input_begin(out, path);
			break;
		}
	}
	struct finding_sink sink;
	finding_sink_init(&sink, emit, emit_ctx);
	memcpy(sink.enabled, cfg->rule_enabled, sizeof(sink.enabled));

	struct fc_model model;
	fc_model_init(&model, &cfg->fc, &sink);
	struct analysis_hooks hooks = { model_on_packet, model_on_malformed, &model,
		                        cfg->progress ? progress_report : NULL };
	if (hold)
		report_hold_hooks(hold, &hooks);
	analysis_run(r, &sink, &hooks, &res->stats);
	fc_model_finish(&model);
	if (cfg->progress)
		progress_done();

	struct input_report rep = {
		.file = path,
		.format = r->format_name,
		.stats = &res->stats,
		.sink = &sink,
		.model = &model,
		.fc_opts = &cfg->fc,
		.stats_wanted = cfg->stats,
	};
	if (!cfg->quiet) {
		switch (cfg->format) {
		case OUT_TEXT:
			report_text_input(out, &rep);
			break;
		case OUT_JSONL:
			report_jsonl_input(out, &rep);
			break;
		case OUT_JSON:
			report_json_input_end(&json_in, &rep);
			break;
		case OUT_JUNIT:
			report_junit_input_end(out, &rep);
			break;
		}
	}
	bool model_failed = fc_model_failed(&model);
	fc_model_free(&model);

	memcpy(res->by_severity, sink.count_by_severity, sizeof(res->by_severity));
	memcpy(res->by_rule, sink.count_by_rule, sizeof(res->by_rule));
	res->status = EXIT_CLEAN;
	for (int sev = cfg->fail_on; sev < SEV_COUNT; sev++)
		if (sink.count_by_severity[sev])
			res->status = EXIT_FINDINGS;
	if (model_failed) {
		/* the library reported it; an incomplete analysis never passes */
		res->status = EXIT_ERROR;
		snprintf(res->error, sizeof(res->error),
		         "%s: out of memory for the shadow model: the analysis is incomplete",
		         path);
		fprintf(stderr, "dllpcheck: %s\n", res->error);
	}
}
