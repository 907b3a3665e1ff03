/* run_pool.h: -j N, a pool of N worker processes (run_pool.c). */
#ifndef DLLPCHECK_RUN_POOL_H
#define DLLPCHECK_RUN_POOL_H

#include <stdio.h>

#include "cli/config.h"
#include "report/report.h"

/* Runs every input of cfg in cfg->jobs worker processes and writes their
 * parts of the report to out in input order (between them what
 * run_report_between writes), filling results; returns the worst status. */
int run_pool(const struct config *cfg, FILE *out, struct input_result *results);

/* What goes between two inputs' parts (run.c): a JSON document's ",". */
void run_report_between(const struct config *cfg, FILE *out, int index);
/* An input that could not be analysed, told in the report in its format
 * (run.c) and, unless msgs is NULL, on msgs; format: its reader's, or NULL. */
void run_input_error(const struct config *cfg, const char *path, const char *format, FILE *out,
                     FILE *msgs, const char *error);

#endif
