/* pipeline.c: one input through the whole analysis: reader -> decoder ->
 * packet rules -> shadow model -> findings -> report, and, for the
 * pictures (--vcd, --format=html), the model's values over time, and the
 * records with their findings as a pcapng (--annotate). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/picture_paths.h"
#include "cli/pipeline.h"
#include "cli/report_hold.h"
#include "report/annotate.h"
#include "report/report_html.h"
#include "report/timeline.h"
#include "report/vcd_write.h"

/* What the analysis hooks are given: the model and, when something is
 * drawn, the timeline that follows it, and the annotated capture. */
struct pipeline_pass {
	struct fc_model *model;
	struct timeline *timeline;
	struct annotate *annotate;
	/* the report format's own emit, behind the timeline's */
	void (*emit)(void *ctx, const struct finding *f);
	void *emit_ctx;
};

/* The analysis: packets into the shadow model. */
static void model_on_packet(void *ctx, const struct packet *pkt, bool fit)
{
	fc_model_apply(((struct pipeline_pass *)ctx)->model, pkt, fit);
}

/* A record that could not be decoded at all: for the model, a packet of
 * unknown content, link and direction that the capture saw damaged
 * [rules.md "What the capture saw damaged"]. */
static void model_on_malformed(void *ctx, const struct reader_malformed *bad)
{
	struct pipeline_pass *pass = ctx;
	int link = bad->has_link ? bad->link : -1;
	/* a lost stretch (a lane decoder out of step) may have held any
	 * number of packets */
	fc_model_damaged(pass->model, link, bad->has_dir ? (int)bad->dir : -1,
	                 bad->kind == REC_DLLP || bad->kind == REC_TLP ? bad->kind : 0,
	                 bad->lost_span ? FC_DAMAGED_MANY : 1);
	if (pass->timeline)
		timeline_damaged(pass->timeline, pass->model, link, bad->has_time, bad->time_ps);
}

/* ... and the timeline after it, when something is drawn; the annotated
 * capture's block of the record begins first, so that the model's
 * findings about it reach it. */
static void tee_on_packet(void *ctx, const struct packet *pkt, bool fit)
{
	struct pipeline_pass *pass = ctx;
	if (pass->annotate)
		annotate_record(pass->annotate, pkt->rec);
	fc_model_apply(pass->model, pkt, fit);
	if (pass->timeline)
		timeline_record(pass->timeline, pass->model, pkt, fit);
}

/* Every finding reported: to the report format, then to the pictures and
 * the annotated capture. */
static void tee_emit(void *ctx, const struct finding *f)
{
	struct pipeline_pass *pass = ctx;
	if (pass->emit)
		pass->emit(pass->emit_ctx, f);
	if (pass->timeline)
		timeline_finding(pass->timeline, f);
	if (pass->annotate)
		annotate_finding(pass->annotate, f);
}

void pipeline_result(struct input_result *res, const struct finding_sink *sink,
                     enum severity fail_on)
{
	memcpy(res->by_severity, sink->count_by_severity, sizeof(res->by_severity));
	memcpy(res->by_rule, sink->count_by_rule, sizeof(res->by_rule));
	res->status = EXIT_CLEAN;
	for (int sev = fail_on; sev < SEV_COUNT; sev++)
		if (sink->count_by_severity[sev])
			res->status = EXIT_FINDINGS;
}

static void input_failed(struct input_result *res, const char *msg)
{
	res->status = EXIT_ERROR;
	snprintf(res->error, sizeof(res->error), "%.500s", msg);
	fprintf(stderr, "dllpcheck: %s\n", res->error);
}

void pipeline_check(const struct config *cfg, struct reader *r, const char *path, int index,
                    FILE *out, struct input_result *res, struct report_hold *hold)
{
	/* the pictures: what follows the model over time */
	char err[512];
	struct timeline timeline;
	timeline_init(&timeline);
	struct timeline_sink tsink;
	struct vcd_write *vcd = NULL;
	if (cfg->vcd_path) {
		char vpath[4096], gpath[4096];
		bool gtkw;
		picture_paths(cfg, index, vpath, sizeof(vpath), gpath, sizeof(gpath), &gtkw);
		vcd = vcd_write_open(vpath, gtkw ? gpath : NULL, path, cfg->inputs,
		                     cfg->input_count, err, sizeof(err));
		if (!vcd) {
			/* before anything is read or written: run_reader()
			 * reports it as the input's error */
			res->status = EXIT_ERROR;
			snprintf(res->error, sizeof(res->error), "%.500s", err);
			return;
		}
		vcd_write_sink(vcd, &tsink);
		timeline_add_sink(&timeline, &tsink);
	}
	struct annotate *annotate = NULL;
	if (cfg->annotate_path) {
		char apath[4096];
		annotate_path(cfg, index, apath, sizeof(apath));
		annotate = annotate_open(apath, path, cfg->reader.dlt, cfg->inputs,
		                         cfg->input_count, err, sizeof(err));
		if (!annotate) {
			res->status = EXIT_ERROR;
			snprintf(res->error, sizeof(res->error), "%.500s", err);
			if (vcd)
				vcd_write_close(vcd, false, err, sizeof(err));
			timeline_free(&timeline);
			return;
		}
	}
	void (*emit)(void *, const struct finding *) = NULL;
	void *emit_ctx = out;
	struct json_input json_in;
	struct junit_input junit_in = { out, cfg->fail_on };
	struct html_input *html_in = NULL;
	if (!cfg->quiet) {
		switch (cfg->format) {
		case OUT_TEXT:
			emit = report_text_finding;
			break;
		case OUT_JSONL:
			emit = report_jsonl_finding;
			/* the page's charts, for a merge of the parts */
			if (cfg->with_charts)
				html_in = report_html_charts_begin();
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
		case OUT_HTML:
			/* findings reach the page through its timeline sink */
			html_in = report_html_input_begin(out, path);
			break;
		}
	}

	if (html_in) {
		report_html_sink(html_in, &tsink);
		timeline_add_sink(&timeline, &tsink);
	}
	bool drawn = timeline_active(&timeline);
	/* the findings and records go to more than the report */
	bool tee = drawn || annotate;

	struct fc_model model;
	struct pipeline_pass pass = { &model, drawn ? &timeline : NULL, annotate, emit, emit_ctx };
	struct finding_sink sink;
	if (tee)
		finding_sink_init(&sink, tee_emit, &pass);
	else
		finding_sink_init(&sink, emit, emit_ctx);
	memcpy(sink.enabled, cfg->rule_enabled, sizeof(sink.enabled));

	fc_model_init(&model, &cfg->fc, &sink);
	struct analysis_hooks hooks = { tee ? tee_on_packet : model_on_packet, model_on_malformed,
		                        &pass, cfg->progress ? progress_report : NULL };
	if (hold)
		report_hold_hooks(hold, &hooks);
	analysis_run(r, &sink, &hooks, &res->stats);
	fc_model_finish(&model);
	timeline_finish(&timeline, &model);
	if (cfg->progress)
		progress_done();

	struct input_report rep = {
		.file = path,
		.format = r->format_name,
		.encapsulation = r->encapsulation,
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
			if (html_in)
				report_jsonl_charts(out, path, html_in);
			report_jsonl_input(out, &rep);
			break;
		case OUT_JSON:
			report_json_input_end(&json_in, &rep);
			break;
		case OUT_JUNIT:
			report_junit_input_end(out, &rep);
			break;
		case OUT_HTML:
			break; /* below, with the input's exit status */
		}
	}
	bool model_failed = fc_model_failed(&model);
	bool html = cfg->format == OUT_HTML && !cfg->quiet;
	bool charts = cfg->format == OUT_JSONL && cfg->with_charts && !cfg->quiet;
	bool pictures_failed =
	        timeline.out_of_memory ||
	        ((html || charts) && (!html_in || report_html_input_failed(html_in)));

	pipeline_result(res, &sink, cfg->fail_on);
	/* an input with no record is an input error (run.c): its waveform
	 * goes too */
	bool keep = res->stats.records_decoded > 0;
	if (vcd && !vcd_write_close(vcd, keep, err, sizeof(err)))
		input_failed(res, err);
	/* an incomplete analysis (below) leaves no capture whose summary
	 * would tell a verdict */
	if (annotate && !annotate_close(annotate, keep && !model_failed, &rep, res->status,
	                                cfg->fail_on, err, sizeof(err)))
		input_failed(res, err);
	if (model_failed) {
		/* the library reported it; an incomplete analysis never passes */
		snprintf(err, sizeof(err),
		         "%s: out of memory for the shadow model: the analysis is incomplete",
		         path);
		input_failed(res, err);
	} else if (pictures_failed) {
		snprintf(err, sizeof(err),
		         "%s: out of memory for the pictures: they are incomplete", path);
		input_failed(res, err);
	}
	/* the page's block carries the input's exit status: written last;
	 * an input that ended in an error is an error block */
	if (html && res->status == EXIT_ERROR && res->error[0]) {
		report_html_input_free(html_in);
		report_html_input_error(out, path, r->format_name, res->error);
	} else if (html) {
		report_html_input_end(html_in, &rep, res->status);
	} else {
		report_html_input_free(html_in);
	}
	fc_model_free(&model);
	timeline_free(&timeline);
}
