/* report.h: what every report format is given about one input, and the
 * report formats' entry points.  Reports only format: the numbers come
 * from the analysis and the model. */
#ifndef DLLPCHECK_REPORT_H
#define DLLPCHECK_REPORT_H

#include <stdio.h>

#include "analysis.h"
#include "fc_model.h"
#include "rules.h"

struct input_report {
	const char *file;
	const char *format;            /* "pcap", "pcapng", "text" */
	const struct input_stats *stats;
	const struct finding_sink *sink;
	const struct fc_model *model;  /* NULL: no model (decode only) */
	const struct fc_options *fc_opts;
};

/* Text (report_text.c) */
void report_text_finding(void *ctx, const struct finding *f);
void report_text_input(FILE *out, const struct input_report *r);

/* JSON Lines (report_json.c): one object per line. */
void report_jsonl_finding(void *ctx, const struct finding *f);
void report_jsonl_input(FILE *out, const struct input_report *r);

/* JSON: one document per run, streamed: begin, then for each input
 * begin_input, its findings (report_json_finding), end_input; then end. */
struct json_doc {
	FILE *out;
	unsigned inputs;
	unsigned findings_in_input;
	uint64_t by_severity[SEV_COUNT];
	uint64_t by_rule[RULE_COUNT];
};
void report_json_begin(struct json_doc *doc, FILE *out);
void report_json_begin_input(struct json_doc *doc, const char *file);
void report_json_finding(void *ctx, const struct finding *f);
void report_json_end_input(struct json_doc *doc, const struct input_report *r);
void report_json_end(struct json_doc *doc, int exit_status);

#endif
