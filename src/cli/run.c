/* run.c: the inputs of a run.  Each input is analysed on its own, one
 * after the other, or with -j N by a pool of N worker processes
 * (run_pool.c) whose parts of the report are written out in input order,
 * so the output is byte for byte that of -j 1. */
#include <stdlib.h>
#include <string.h>

#include "cli/dump_columns.h"
#include "cli/pipeline.h"
#include "cli/report_hold.h"
#include "cli/run.h"
#include "cli/run_pool.h"
#include "report/decode_print.h"
#include "report/report_html.h"

/* --decode: each record printed; a malformed one makes the status 1. */
static void decode_text_packet(void *ctx, const struct packet *pkt, bool fit)
{
	(void)fit;
	decode_print_packet(ctx, pkt);
}

static void decode_text_malformed(void *ctx, const struct reader_malformed *bad)
{
	decode_print_malformed(ctx, bad);
}

static void decode_text_note(void *ctx, const struct reader_malformed *bad)
{
	decode_print_note(ctx, bad);
}

static void decode_json_record(void *ctx, const struct packet *pkt, bool fit)
{
	(void)fit;
	decode_json_packet(ctx, pkt);
}

static void decode_json_bad(void *ctx, const struct reader_malformed *bad)
{
	decode_json_malformed(ctx, bad);
}

static void run_decode(const struct config *cfg, struct reader *r, const char *path, FILE *out,
                       struct input_result *res, struct report_hold *hold)
{
	struct analysis_hooks hooks = { decode_text_packet, decode_text_malformed, out, NULL,
		                        decode_text_note };
	if (cfg->format == OUT_JSONL) {
		/* one object per record: the note is the analysis' finding */
		hooks.on_note = NULL;
		hooks.on_packet = decode_json_record;
		hooks.on_malformed = decode_json_bad;
	} else if (cfg->input_count > 1) {
		fprintf(out, "# %s (%s)\n", path, r->format_name);
	}
	if (cfg->quiet)
		hooks.on_packet = NULL, hooks.on_malformed = NULL, hooks.on_note = NULL;
	report_hold_hooks(hold, &hooks);
	analysis_run(r, NULL, &hooks, &res->stats);
	res->by_rule[R_CAPTURE_MALFORMED] = res->stats.records_malformed;
	res->by_severity[SEV_ERROR] = res->stats.records_malformed;
	/* a region skipped is a capture.resync warning, as in a check */
	res->by_rule[R_CAPTURE_RESYNC] = res->stats.resyncs;
	res->by_severity[SEV_WARNING] = res->stats.resyncs;
	res->status =
	        res->stats.records_malformed || (res->stats.resyncs && cfg->fail_on <= SEV_WARNING)
	                ? EXIT_FINDINGS
	                : EXIT_CLEAN;
}

void run_input_error(const struct config *cfg, const char *path, const char *format, FILE *out,
                     FILE *msgs, const char *error)
{
	if (msgs)
		fprintf(msgs, "dllpcheck: %s\n", error);
	if (cfg->quiet || cfg->mode != MODE_ANALYZE)
		return;
	switch (cfg->format) {
	case OUT_JSON:
		report_json_input_error(out, path, error);
		break;
	case OUT_JSONL:
		/* a merge's page names the format of an input that opened */
		report_jsonl_input_error(out, path, cfg->with_charts ? format : NULL, error);
		break;
	case OUT_JUNIT:
		report_junit_input_error(out, path, error);
		break;
	case OUT_HTML:
		report_html_input_error(out, path, format, error);
		break;
	case OUT_TEXT:
		break; /* standard error only */
	}
}

void run_one(const struct config *cfg, int index, FILE *out, struct input_result *res)
{
	const char *path = cfg->inputs[index];
	memset(res, 0, sizeof(*res));
	char err[512];
	struct reader *r = reader_open(path, &cfg->reader, err, sizeof(err));
	if (!r) {
		res->status = EXIT_ERROR;
		snprintf(res->error, sizeof(res->error), "%s", err);
		run_input_error(cfg, path, NULL, out, stderr, err);
		return;
	}
	if (!cfg->quiet && cfg->mode != MODE_DUMP_COLUMNS)
		dump_vcd_note(stderr, path, r);
	if (cfg->mode == MODE_DUMP_COLUMNS) {
		res->opened = true;
		snprintf(res->format, sizeof(res->format), "%s", r->format_name);
		dump_columns(out, path, r);
	} else {
		run_reader(cfg, r, path, index, out, stderr, res);
	}
	reader_close(r);
}

void run_reader(const struct config *cfg, struct reader *r, const char *path, int index, FILE *out,
                FILE *msgs, struct input_result *res)
{
	char err[512];
	struct report_hold hold;
	memset(res, 0, sizeof(*res));
	if (!report_hold_open(&hold, out, err, sizeof(err))) {
		res->status = EXIT_ERROR;
		snprintf(res->error, sizeof(res->error), "%s: %.200s", path, err);
		run_input_error(cfg, path, r->format_name, out, msgs, res->error);
		return;
	}
	res->opened = true;
	snprintf(res->format, sizeof(res->format), "%s", r->format_name);
	if (cfg->mode == MODE_DECODE)
		run_decode(cfg, r, path, hold.out, res, &hold);
	else
		pipeline_check(cfg, r, path, index, hold.out, res, &hold);
	/* Not one record: an input error in place of what was held, with
	 * nothing counted as findings (rules.md, exit status). */
	bool none = res->stats.records_decoded == 0;
	/* an output of the input's could not be opened: nothing was read */
	bool refused = res->status == EXIT_ERROR && res->error[0] && !res->stats.records_read;
	if (refused)
		snprintf(err, sizeof(err), "%s", res->error);
	else if (none)
		report_hold_no_record(&hold, path, r->format_name, r->compression, &res->stats, err,
		                      sizeof(err));
	report_hold_close(&hold, !none);
	/* what was held could not be kept (a full /tmp): nothing of the
	 * input's part was written, an input error stands in its place */
	bool lost = !none && report_hold_lost(&hold, path, err, sizeof(err));
	if (none || lost) {
		struct input_stats stats = res->stats;
		memset(res, 0, sizeof(*res));
		res->stats = stats;
		res->status = EXIT_ERROR;
		snprintf(res->format, sizeof(res->format), "%s", r->format_name);
		snprintf(res->error, sizeof(res->error), "%s", err);
		run_input_error(cfg, path, r->format_name, out, msgs, err);
	}
}

/* ---- the wrappers around the inputs' parts ------------------------------- */

void run_report_begin(const struct config *cfg, FILE *out)
{
	if (cfg->quiet || cfg->mode != MODE_ANALYZE)
		return;
	if (cfg->format == OUT_JSON)
		report_json_begin(out);
	else if (cfg->format == OUT_JUNIT)
		report_junit_begin(out, cfg->input_count);
	else if (cfg->format == OUT_HTML)
		report_html_begin(out, cfg->input_count);
}

void run_report_between(const struct config *cfg, FILE *out, int index)
{
	if (!cfg->quiet && cfg->mode == MODE_ANALYZE && cfg->format == OUT_JSON && index > 0)
		report_json_separator(out);
}

void run_report_end(const struct config *cfg, FILE *out, const struct input_result *results,
                    int status)
{
	if (cfg->quiet || cfg->mode != MODE_ANALYZE)
		return;
	int n = cfg->input_count;
	switch (cfg->format) {
	case OUT_JSON:
		report_json_end(out, results, n, status);
		break;
	case OUT_JUNIT:
		report_junit_end(out);
		break;
	case OUT_HTML:
		report_html_end(out, cfg->inputs, results, n, status);
		break;
	case OUT_JSONL:
		if (n > 1)
			report_jsonl_batch(out, cfg->inputs, results, n, status);
		break;
	case OUT_TEXT:
		if (n > 1)
			report_text_batch(out, cfg->inputs, results, n, status);
		break;
	}
}

int run_batch(const struct config *cfg, FILE *out)
{
	int n = cfg->input_count;
	struct input_result *results = calloc((size_t)n, sizeof(*results));
	if (!results) {
		fprintf(stderr, "dllpcheck: out of memory\n");
		return EXIT_ERROR;
	}
	run_report_begin(cfg, out);
	int status = EXIT_CLEAN;
	if (cfg->jobs > 1 && n > 1) {
		status = run_pool(cfg, out, results);
	} else {
		for (int i = 0; i < n; i++) {
			run_report_between(cfg, out, i);
			run_one(cfg, i, out, &results[i]);
			if (results[i].status > status)
				status = results[i].status;
		}
	}
	run_report_end(cfg, out, results, status);
	free(results);
	return status;
}
