/* report.h: what every report format is given about one input, and the
 * report formats' entry points.  Reports only format: the numbers come
 * from the analysis and the model. */
#ifndef DLLPCHECK_REPORT_H
#define DLLPCHECK_REPORT_H

#include <stdio.h>

#include "core/input_stats.h"
#include "core/rules.h"
#include "model/fc_model.h"

struct input_report {
	const char *file;
	const char *format; /* "pcap", "pcapng", "text" */
	/* another tool's encapsulation inside a pcap/pcapng ("agilent", ...;
	 * reader.encapsulation), NULL for ours and other formats */
	const char *encapsulation;
	const struct input_stats *stats;
	const struct finding_sink *sink;
	const struct fc_model *model; /* NULL: no model (decode only) */
	/* No model but its links' views (--merge: read back from a JSON
	 * Lines report): link_index[i] is the link of link_views[i], ascending. */
	bool merged;
	const struct fc_link_view *link_views;
	const unsigned *link_index;
	unsigned link_count;
	const struct fc_options *fc_opts;
	bool stats_wanted; /* --stats */
};

/* Link index of the input as the reports show it: from the model, or
 * from the views given (report_input.c); false when the input had no
 * record on that link. */
struct fc_link_view;
bool report_input_link(const struct input_report *r, unsigned index, struct fc_link_view *out);
/* The first link index at or after from that the input may have a record
 * on (a link the model made, or one of the views given), FC_LINK_COUNT
 * when none: the reports ask report_input_link() for these, not for
 * every one of the FC_LINK_COUNT. */
unsigned report_input_next_link(const struct input_report *r, unsigned from);
/* "unknown", "not-initialised", "initialised", "given": a VC's state in
 * the JSON reports (enum vc_state); NULL for another value. */
const char *report_vc_state_name(unsigned state);

/* Text (report_text.c) */
void report_text_finding(void *ctx, const struct finding *f);
void report_text_input(FILE *out, const struct input_report *r);
/* The first lines of report_text_input: the input's counts and findings
 * by severity, the time base, the findings by rule (--annotate's section
 * comment too). */
void report_text_summary(FILE *out, const struct input_report *r);

/* JSON Lines (report_json.c): one object per line. */
void report_jsonl_finding(void *ctx, const struct finding *f);
void report_jsonl_input(FILE *out, const struct input_report *r);

/* What one input came to, for the wrappers around the per-input parts
 * of a report (the JSON document, the JUnit suite, the batch table). */
struct input_result {
	int status; /* enum exit_status */
	bool opened; /* false: error says why */
	char error[512];
	char format[8];
	struct input_stats stats;
	uint64_t by_severity[SEV_COUNT];
	uint64_t by_rule[RULE_COUNT];
};

/* JSON: one document per run.  begin; per input, input_begin, its
 * findings (report_json_finding with a struct json_input as ctx),
 * input_end, or input_error; with a "," between inputs written by the
 * caller (report_json_separator); then end. */
/* A finding's "signature" in JSON and JSON Lines: RULE/LINK/PORT/VC/TYPE,
 * '-' for each the finding does not name (e.g. fc.credit.overrun/0/up/0/PH,
 * dllp.crc/0/down/-/-); written into buf, which it returns. */
const char *report_finding_signature(const struct finding *f, char *buf, size_t len);

struct json_input {
	FILE *out;
	unsigned findings;
};
void report_json_begin(FILE *out);
void report_json_separator(FILE *out);
void report_json_input_begin(struct json_input *ji, FILE *out, const char *file);
void report_json_finding(void *ctx, const struct finding *f);
void report_json_input_end(struct json_input *ji, const struct input_report *r);
void report_json_input_error(FILE *out, const char *file, const char *error);
void report_json_end(FILE *out, const struct input_result *results, int count, int exit_status);
/* format: the reader's, for a page's batch (--with-charts), or NULL */
void report_jsonl_input_error(FILE *out, const char *file, const char *format, const char *error);
/* The pieces of the document, for the HTML page's JSON blocks: a
 * finding as the document writes it (its text, to free; NULL when out of
 * memory); an input's object as the document writes it, minus its
 * "findings" (its text given to put(text, size, data), in pieces); and
 * the batch (a new reference: per input its file, status, format, records
 * and findings by severity, as the text batch table gives them). */
struct json_t;
char *report_json_finding_text(const struct finding *f);
/* v's JSON text as json_dumps() writes it, in a buffer of malloc()'s (to
 * free with free(): json_dumps()'s comes from jansson's allocator, which
 * json_set_alloc_funcs() may have made another one); NULL when out of
 * memory. */
char *report_json_text(const struct json_t *v, size_t flags);
void report_json_input_write(const struct input_report *r, int (*put)(const char *, size_t, void *),
                             void *data);
struct json_t *report_json_batch_object(char *const *files, const struct input_result *results,
                                        int count, int exit_status);
void report_jsonl_batch(FILE *out, char *const *files, const struct input_result *results,
                        int count, int exit_status);

/* JUnit XML (report_junit.c): one testsuite per run, one testcase per
 * input, a failure per finding at or above the --fail-on severity. */
struct junit_input {
	FILE *out;
	enum severity fail_on;
};
void report_junit_begin(FILE *out, int inputs);
void report_junit_input_begin(FILE *out, const char *file);
void report_junit_finding(void *ctx, const struct finding *f);
void report_junit_input_end(FILE *out, const struct input_report *r);
void report_junit_input_error(FILE *out, const char *file, const char *error);
void report_junit_end(FILE *out);

/* The closing table of a text report over several inputs. */
void report_text_batch(FILE *out, char *const *files, const struct input_result *results, int count,
                       int exit_status);

#endif
