/* report_text.h: the human report: one line per finding, then a summary. */
#ifndef DLLPCHECK_REPORT_TEXT_H
#define DLLPCHECK_REPORT_TEXT_H

#include <stdio.h>

#include "analysis.h"
#include "rules.h"

/* A finding as one line (the sink's emit callback; ctx is a FILE *). */
void report_text_finding(void *ctx, const struct finding *f);
/* The closing summary of one input. */
void report_text_summary(FILE *out, const char *file, const char *format,
                         const struct input_stats *stats,
                         const struct finding_sink *sink);

#endif
