/* config.h: every option of a run, filled by main.c's argp parser and
 * nothing else. */
#ifndef DLLPCHECK_CONFIG_H
#define DLLPCHECK_CONFIG_H

#include <stdbool.h>

#include "core/rules.h"
#include "model/fc_model.h"
#include "read/csv/reader_csv.h"
#include "read/lanes/lane_map.h"
#include "read/reader.h"

enum run_mode { MODE_ANALYZE, MODE_DECODE, MODE_WRITE_PCAP, MODE_LIST_RULES, MODE_DUMP_COLUMNS };
enum out_format { OUT_TEXT, OUT_JSON, OUT_JSONL, OUT_JUNIT, OUT_HTML };

/* Exit status (rules.md): 0 clean, 1 a finding at or above --fail-on,
 * 2 usage or input error. */

struct config {
	enum run_mode mode;
	enum out_format format;
	struct reader_opts reader;
	struct csv_options csv; /* reader.csv points here */
	struct lane_options lanes; /* reader.lanes points here */
	const char *write_pcap_path;
	enum severity fail_on;
	bool rule_enabled[RULE_COUNT];
	bool quiet;
	struct fc_options fc;
	bool extended_synch;
	bool stats; /* --stats */
	bool progress; /* a progress line on a terminal */
	int jobs; /* -j: inputs analysed at once */
	const char *output_path; /* -o */
	const char *vcd_path; /* --vcd: the shadow model as a waveform */
	const char *gtkw_path; /* --gtkw: its GTKWave save file (default beside it) */
	const char *annotate_path; /* --annotate: the capture with the findings as comments */
	bool update_period_given;
	/* --merge: the inputs are JSON Lines reports of runs (cli/merge.c) */
	bool merge;
	/* --with-charts: a JSON Lines report carries the HTML page's charts
	 * of each input, for a --merge --format=html of its parts */
	bool with_charts;
	char **inputs;
	int input_count;
};

/* The defaults: analyze, text report, LINKTYPE_USER0, fail on errors,
 * every rule enabled, every TC on VC0. */
void config_init(struct config *cfg);

#endif
