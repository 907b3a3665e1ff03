/* report_html.h: --format=html: one self-contained page (no network)
 * with the verdict, the findings, the credits over time as charts and the
 * summary tables, for one input or a batch (the batch table first).
 * Every string from a capture reaches the page as escaped JSON data,
 * never as markup (html-contract.md). */
#ifndef DLLPCHECK_REPORT_HTML_H
#define DLLPCHECK_REPORT_HTML_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/report.h"
#include "report/timeline.h"

/* The page's head and the run's block, for a run of inputs inputs. */
void report_html_begin(FILE *out, int inputs);

/* One input's block: begin, its findings and the model's changes
 * through the sink (report_html_sink; findings come only through it),
 * end.  NULL when out of memory.  Only the input's own block is written
 * to out (at its end), so that -j N can gather the blocks in order. */
struct html_input;
struct html_input *report_html_input_begin(FILE *out, const char *file);
void report_html_sink(struct html_input *hi, struct timeline_sink *out);
/* Something of the input's block could not be kept (out of memory): the
 * page would be incomplete. */
bool report_html_input_failed(const struct html_input *hi);
/* Writes the input's block (exit_status: the input's) and frees hi. */
void report_html_input_end(struct html_input *hi, const struct input_report *r, int exit_status);
/* Frees hi without writing (the input ends in an error instead). */
void report_html_input_free(struct html_input *hi);
/* An input error: a block of its file, its format (NULL when the input
 * never opened) and the message. */
void report_html_input_error(FILE *out, const char *file, const char *format, const char *error);

/* --with-charts: an input's charts alone (no page), from its findings
 * and the model's changes through the sink; NULL when out of memory. */
struct html_input *report_html_charts_begin(void);
/* They as JSON Lines (the input's "charts" line, then a "chart" line per
 * chart), before its summary line; hi stays the caller's to free. */
void report_jsonl_charts(FILE *out, const char *file, struct html_input *hi);

/* --merge: an input's block from a part's lines instead of a run.  A
 * finding shown (its index in findings, or -1 when it is only counted);
 * the input's times and dropped charts (its "charts" line); a chart
 * (its "chart" line: false when out of memory); or why there are none (a
 * part made without --with-charts, kept by the caller until the end). */
struct html_chart_copy;
struct html_input_times {
	bool has_start, has_end, has_origin;
	uint64_t start_ps, end_ps, origin_ps;
	unsigned dropped;
};
int report_html_input_finding(struct html_input *hi, const struct finding *f);
void report_html_input_times(struct html_input *hi, const struct html_input_times *t);
bool report_html_input_chart(struct html_input *hi, const struct html_chart_copy *c);
void report_html_input_no_charts(struct html_input *hi, const char *why);

/* The batch's block (written for every run), the script, the page's end. */
void report_html_end(FILE *out, char *const *files, const struct input_result *results, int count,
                     int exit_status);

#endif
