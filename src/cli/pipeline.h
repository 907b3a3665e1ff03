/* pipeline.h: one input through the whole analysis. */
#ifndef DLLPCHECK_PIPELINE_H
#define DLLPCHECK_PIPELINE_H

#include <stdio.h>

#include "cli/config.h"
#include "read/reader.h"
#include "report/report.h"

struct report_hold;

/* Checks every record of r and writes this input's part of the report,
 * in the configured format, to out.  Fills res (stats, counts, and the
 * input's exit status: EXIT_FINDINGS when a finding at or above --fail-on
 * was reported, else EXIT_CLEAN).  hold, when not NULL, is the hold out
 * belongs to (report_hold.h): it is put in front of the analysis hooks. */
void pipeline_check(const struct config *cfg, struct reader *r, const char *path, int index,
                    FILE *out, struct input_result *res, struct report_hold *hold);

/* An input's result from the findings reported (sink's counts): its
 * counts, and its exit status against fail_on (--merge judges it so too). */
void pipeline_result(struct input_result *res, const struct finding_sink *sink,
                     enum severity fail_on);

/* Progress on standard error (progress.c): a line rewritten at most once a
 * second while an input is read, cleared at its end. */
void progress_report(const struct input_stats *stats, uint64_t byte_offset);
void progress_done(void);

#endif
