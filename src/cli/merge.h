/* merge.h: --merge, the JSON Lines reports of separate runs made one
 * report again (cli/merge.c). */
#ifndef DLLPCHECK_MERGE_H
#define DLLPCHECK_MERGE_H

#include <stdio.h>

#include "cli/config.h"

/* Reads the parts cfg->inputs (each the --format=jsonl report of one run)
 * and writes to out, in cfg->format, the report one run over all their
 * inputs would have written, in the order of the parts and, within each,
 * of its lines; returns that run's exit status, or EXIT_ERROR (nothing
 * written) when a part is not usable. */
int run_merge(const struct config *cfg, FILE *out);
/* How much of the parts' text run_merge() keeps parsed from the first
 * pass for the second: the parts that fit are read and parsed once.  (The
 * lines kept take about 10 times their text in memory: 2.5 MiB at most.) */
#define MERGE_KEEP_BYTES ((size_t)256 << 10)

/* The same with the parts opened by open(name, ctx) (a stream read to its
 * end and closed here, once per pass, or once when it is kept; NULL: it
 * could not be, and open said why): a part from memory; keep_bytes is
 * MERGE_KEEP_BYTES's (0: every part is read twice). */
int run_merge_parts(const struct config *cfg, FILE *(*open)(const char *name, void *ctx), void *ctx,
                    size_t keep_bytes, FILE *out);

#endif
