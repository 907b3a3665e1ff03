/* pipeline.c: one input through the whole analysis: reader -> decoder ->
 * packet rules -> shadow model -> findings -> report. */
#include <string.h>

#include "pipeline.h"
#include "report.h"

static bool fails(const struct config *cfg, const struct finding_sink *sink)
{
	for (int sev = cfg->fail_on; sev < SEV_COUNT; sev++)
		if (sink->count_by_severity[sev])
			return true;
	return false;
}

/* The analysis: packets into the shadow model. */
static void model_on_packet(void *ctx, const struct packet *pkt, bool fit)
{
	fc_model_apply(ctx, pkt, fit);
}

int pipeline_check(const struct config *cfg, struct reader *r,
                   const char *path, FILE *out, struct json_doc *doc)
{
	void (*emit)(void *, const struct finding *) = NULL;
	void *emit_ctx = out;
	if (!cfg->quiet) {
		switch (cfg->format) {
		case OUT_TEXT: emit = report_text_finding; break;
		case OUT_JSONL: emit = report_jsonl_finding; break;
		case OUT_JSON:
			emit = report_json_finding;
			emit_ctx = doc;
			report_json_begin_input(doc, path);
			break;
		}
	}
	struct finding_sink sink;
	finding_sink_init(&sink, emit, emit_ctx);
	memcpy(sink.enabled, cfg->rule_enabled, sizeof(sink.enabled));

	struct fc_model model;
	fc_model_init(&model, &cfg->fc, &sink);
	struct input_stats stats;
	memset(&stats, 0, sizeof(stats));
	struct analysis_hooks hooks = { model_on_packet, NULL, &model };
	analysis_run(r, &sink, &hooks, &stats);

	struct input_report rep = {
		.file = path, .format = r->format_name, .stats = &stats,
		.sink = &sink, .model = &model, .fc_opts = &cfg->fc,
	};
	if (!cfg->quiet) {
		switch (cfg->format) {
		case OUT_TEXT: report_text_input(out, &rep); break;
		case OUT_JSONL: report_jsonl_input(out, &rep); break;
		case OUT_JSON: report_json_end_input(doc, &rep); break;
		}
	}
	fc_model_free(&model);
	return fails(cfg, &sink) ? EXIT_FINDINGS : EXIT_CLEAN;
}

