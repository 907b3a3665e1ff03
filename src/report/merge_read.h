/* merge_read.h: a JSON Lines report read back, line by line (--merge).
 *
 * A part is the standard output of one run `dllpcheck --format=jsonl
 * FILE...` (any -j): per input its findings, then its "summary" line, or
 * one "error" line; then, when the run had more than one input, the
 * "batch" line, last; or several such outputs one after the other (GNU
 * parallel -k ... > part).  The reader turns each line back into what the
 * run's reports were given (struct finding; struct input_report's
 * numbers and link views), so the report formats write the report again
 * with their own code.  A part is untrusted: every line is checked
 * whole (JSON, its type, every key the writer writes and no other, the
 * values' types and ranges, the rule and evidence names against the
 * catalogue, the finding's signature, the version of dllpcheck that
 * wrote it, the findings against their summary's counts, a batch line
 * against the inputs of its run, the charts of --with-charts against their
 * bounds and the findings they mark), and the first fault ends the part with a
 * message "PART: line N: what".  One line is held at a time (but for the
 * lines merge_reader_keep() is given to keep, within its budget): memory
 * does not grow with the findings.
 */
#ifndef DLLPCHECK_MERGE_READ_H
#define DLLPCHECK_MERGE_READ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/input_stats.h"
#include "core/rules.h"
#include "model/fc_model.h"
#include "model/fc_view.h"
#include "report/html_chart.h"
#include "report/report_html.h"

enum merge_item {
	MERGE_END, /* the part ended as a run's report ends */
	MERGE_FAIL, /* the part is not usable: merge_reader.err says why */
	MERGE_FINDING, /* .finding, of the input .file */
	MERGE_SUMMARY, /* .input: the input .file is complete */
	MERGE_ERROR, /* the input .file could not be read: .error */
	MERGE_BATCH, /* the part's batch line (checked against its inputs) */
	MERGE_CHARTS, /* .charts.times: the input's charts line (--with-charts) */
	MERGE_CHART, /* .chart: one chart of the input (--with-charts) */
};

/* The current input's charts (--with-charts): its "charts" line, and how
 * many of the chart lines it counts were read. */
struct merge_charts {
	bool seen;
	unsigned count, read;
	int64_t last_key; /* the last chart's link, VC and type, -1 before */
	struct html_input_times times;
};

/* One input's summary line, as the reports are given it. */
struct merge_input {
	char format[8];
	char encapsulation[32];
	bool has_encapsulation;
	struct input_stats stats;
	uint64_t by_severity[SEV_COUNT];
	uint64_t by_rule[RULE_COUNT];
	struct fc_options opts; /* role, mps, mrrs, tc_to_vc; the rest defaults */
	char *options_text; /* the "options" object as written (compact) */
	/* whether the links carry "stats" (--stats); stats_known is false
	 * when there is no link to tell */
	bool stats_wanted, stats_known;
	unsigned link_count;
	unsigned link_index[FC_LINK_COUNT];
	struct fc_link_view *views; /* link_count views, grown as needed */
	unsigned views_cap;
};

/* A part's lines as the first pass of --merge parsed them, kept for the
 * second (cli/merge.c) while their text fits budget bytes: that pass then
 * reads them from here, neither reopening nor parsing the part again.  A
 * part that outgrows the budget keeps nothing (over). */
struct merge_kept {
	struct json_t **lines;
	size_t count, cap;
	size_t bytes; /* the text of the lines kept */
	size_t budget;
	bool over;
};

struct merge_reader {
	FILE *fp; /* NULL: the lines come from replay */
	const char *name; /* the part, for messages */
	uint64_t line; /* of the item returned */
	char *buf;
	size_t cap;
	char *file; /* the input the current line is about */
	uint64_t input_line; /* its first line */
	/* the findings of the current input so far, to check its summary */
	uint64_t seen_by_rule[RULE_COUNT];
	uint64_t seen_by_severity[SEV_COUNT];
	bool in_input; /* findings read, no summary yet */
	/* the inputs since the last batch line, in order, for the next */
	char **inputs;
	unsigned input_count, inputs_cap;
	struct finding finding;
	char evidence_names[FINDING_MAX_EVIDENCE][64];
	struct merge_input input;
	char error[1024]; /* MERGE_ERROR: the input's error */
	char error_format[8]; /* and its format, when the line has one */
	struct merge_charts charts;
	struct html_chart_copy *chart; /* MERGE_CHART (allocated at the first) */
	/* the current input's findings so far, and the series each of the
	 * first HTML_FINDINGS_MAX marks (a chart's markers are checked
	 * against them) */
	uint64_t input_findings;
	uint32_t *mark_key;
	char err[1200]; /* MERGE_FAIL: PART: line N: what */
	bool failed;
	struct merge_kept *keep; /* the lines parsed are kept here */
	const struct merge_kept *replay; /* the lines are read from here */
	size_t replayed;
};

/* Reads the part fp (not closed here), named name in messages. */
void merge_reader_init(struct merge_reader *m, FILE *fp, const char *name);
/* Reads the lines kept of a part (whole: !kept->over) instead of its
 * text. */
void merge_reader_init_kept(struct merge_reader *m, const struct merge_kept *kept,
                            const char *name);
/* Every line of the part read from now on is kept in kept (its budget
 * set), until it outgrows the budget. */
void merge_reader_keep(struct merge_reader *m, struct merge_kept *kept);
void merge_kept_free(struct merge_kept *kept);
/* The next item of the part; MERGE_END or MERGE_FAIL once it is done. */
enum merge_item merge_reader_next(struct merge_reader *m);
void merge_reader_free(struct merge_reader *m);

#endif
