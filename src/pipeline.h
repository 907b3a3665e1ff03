/* pipeline.h: one input through the whole analysis. */
#ifndef DLLPCHECK_PIPELINE_H
#define DLLPCHECK_PIPELINE_H

#include <stdio.h>

#include "config.h"
#include "reader.h"
#include "report.h"

/* Checks every record of r in the configured report format (doc is used
 * for --format=json).  Returns the input's exit status: EXIT_FINDINGS
 * when a finding at or above --fail-on was reported, else EXIT_CLEAN. */
int pipeline_check(const struct config *cfg, struct reader *r,
                   const char *path, FILE *out, struct json_doc *doc);

#endif
