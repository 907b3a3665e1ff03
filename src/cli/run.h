/* run.h: running the inputs of a run, one after the other or -j at a
 * time, with the report's parts written in input order. */
#ifndef DLLPCHECK_RUN_H
#define DLLPCHECK_RUN_H

#include <stdio.h>

#include "cli/config.h"
#include "report/report.h"

/* Checks (or decodes) one input and writes its part of the report to out. */
void run_one(const struct config *cfg, int index, FILE *out, struct input_result *res);

/* run_one() after the input is open: checks (or decodes) r, whose
 * report part is held until a record decodes; an input of which no
 * record decodes is an input error (rules.md, exit status), told in the
 * report and, unless msgs is NULL, on msgs.  index: the input's place in
 * cfg->inputs (0 for an input of its own), which names its --vcd file. */
void run_reader(const struct config *cfg, struct reader *r, const char *path, int index, FILE *out,
                FILE *msgs, struct input_result *res);

/* What a report writes before the inputs' parts (the JSON document's
 * opening, the JUnit suite, the page) and after them (the totals, the
 * batch table or line), for cfg->input_count inputs named cfg->inputs;
 * results of each, and the run's exit status. */
void run_report_begin(const struct config *cfg, FILE *out);
void run_report_end(const struct config *cfg, FILE *out, const struct input_result *results,
                    int status);
/* Runs every input of cfg, cfg->jobs at a time, and writes the whole
 * report to out; returns the exit status of the run (the worst input's). */
int run_batch(const struct config *cfg, FILE *out);

#endif
