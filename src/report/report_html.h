/* report_html.h: --format=html: one self-contained page (no network)
 * with the verdict, the findings, the credits over time as charts and the
 * summary tables, for one input or a batch (the batch table first).
 * Every string from a capture reaches the page as escaped JSON data,
 * never as markup. */
#ifndef DLLPCHECK_REPORT_HTML_H
#define DLLPCHECK_REPORT_HTML_H

#include <stdio.h>

#include "report/report.h"
#include "report/timeline.h"

/* The page's head, for a run of inputs inputs. */
void report_html_begin(FILE *out, int inputs);

/* One input's section: begin, its findings and the model's changes
 * through the sink (report_html_sink), end.  NULL when out of memory. */
struct html_input;
struct html_input *report_html_input_begin(FILE *out, const char *file);
void report_html_sink(struct html_input *hi, struct timeline_sink *out);
/* Writes the input's section and frees hi. */
void report_html_input_end(struct html_input *hi, const struct input_report *r);
void report_html_input_error(FILE *out, const char *file, const char *error);

/* The batch table (for more than one input) and the page's end. */
void report_html_end(FILE *out, char *const *files, const struct input_result *results, int count,
                     int exit_status);

#endif
