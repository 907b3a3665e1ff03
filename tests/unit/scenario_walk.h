/* scenario_walk.h: every scenario input of tests/scenarios (RULE/CASE.trace
 * or .pcap) with the options tests/test-scenarios.sh gives it (CASE.args,
 * else the directory's args), for the suites that run them in-process. */
#ifndef DLLPCHECK_TESTS_SCENARIO_WALK_H
#define DLLPCHECK_TESTS_SCENARIO_WALK_H

#include "cli/config.h"

/* Applies the options of an args file to cfg (the ones the scenarios use:
 * main.c's parser is not in the library); a missing file is none. */
void scenario_options(struct config *cfg, const char *path);

/* Calls each(input, cfg, ctx) for every scenario input, cfg initialised
 * (config_init) with its options; returns how many there were. */
unsigned scenario_each(void (*each)(const char *input, struct config *cfg, void *ctx), void *ctx);

#endif
