/* main.c: dllpcheck's command line.  argp fills struct config; each input
 * is run through the pipeline; the exit status says what was found. */
#include "autoconfig.h"

#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/out_file.h"
#include "cli/analysis.h"
#include "cli/cli_parse.h"
#include "cli/config.h"
#include "cli/dump_columns.h"
#include "cli/merge.h"
#include "cli/picture_paths.h"
#include "cli/pipeline.h"
#include "cli/report_hold.h"
#include "cli/run.h"
#include "cli/version.h"
#include "model/fc_model.h"
#include "read/pcap_writer.h"
#include "report/decode_print.h"
#include "report/report.h"

/* -V/--version: the version and the libraries' (cli/version.c) */
static void print_version(FILE *stream, struct argp_state *state)
{
	(void)state;
	version_print(stream);
}
void (*argp_program_version_hook)(FILE *, struct argp_state *) = print_version;
const char *argp_program_bug_address = PACKAGE_BUGREPORT;

static const char program_doc[] =
        "dllpcheck -- check PCI Express data link layer traces against the "
        "flow-control rules.\v"
        "Each FILE is a pcap/pcapng capture (link type LINKTYPE_USER0 by "
        "default), a text trace, a protocol-analyzer export (CSV and kin) or a "
        "VCD waveform of the lanes or the PIPE interface; "
        "'-' reads standard input.  See "
        "dllpcheck(1) and dllpcheck-capture(5).\n\n"
        "Exit status: 0 no finding at or above --fail-on, 1 such findings, "
        "2 usage or input error.";
static const char args_doc[] = "FILE...";

/* Long-only options get keys above the character range. */
enum {
	OPT_DECODE = 300,
	OPT_WRITE_PCAP,
	OPT_DLT,
	OPT_INPUT_FORMAT,
	OPT_LIST_RULES,
	OPT_FAIL_ON,
	OPT_ENABLE,
	OPT_DISABLE,
	OPT_FORMAT,
	OPT_TC_MAP,
	OPT_ROLE,
	OPT_MPS,
	OPT_MRRS,
	OPT_CPL_TIMEOUT,
	OPT_INITIAL_CREDITS,
	OPT_EXTENDED_SYNCH,
	OPT_UPDATE_PERIOD,
	OPT_INIT_REPEAT,
	OPT_STARVE,
	OPT_STATS,
	OPT_MAP,
	OPT_MAP_FILE,
	OPT_DELIMITER,
	OPT_HEADER_LINE,
	OPT_TIME_UNIT,
	OPT_CLOCK_PERIOD,
	OPT_DIR_MAP,
	OPT_STRICT,
	OPT_DUMP_COLUMNS,
	OPT_LANES,
	OPT_LANE_CLOCK,
	OPT_SYMBOL_PERIOD,
	OPT_SCRAMBLED,
	OPT_LANES_DIR,
	OPT_VCD,
	OPT_GTKW,
	OPT_ANNOTATE,
	OPT_WARP_PIPE_PORT,
	OPT_MERGE,
	OPT_WITH_CHARTS,
};

static const struct argp_option options[] = {
	{ NULL, 0, NULL, 0, "Modes:", 1 },
	{ "decode", OPT_DECODE, NULL, 0,
	  "Print every record decoded, one line each, instead of checking", 1 },
	{ "write-pcap", OPT_WRITE_PCAP, "OUT", 0,
	  "Write the records of the input as a pcap (nanosecond timestamps) to "
	  "OUT ('-' for standard output)",
	  1 },
	{ "list-rules", OPT_LIST_RULES, NULL, 0,
	  "List the rule catalogue (id, severity, spec section, meaning)", 1 },
	{ "merge", OPT_MERGE, NULL, 0,
	  "Each FILE is the JSON Lines report of a run (other machines, other days): "
	  "print the report one run over all their inputs would have printed (text, "
	  "json, jsonl, junit, or html of parts made with --with-charts)",
	  1 },

	{ NULL, 0, NULL, 0, "Input:", 2 },
	{ "dlt", OPT_DLT, "N", 0,
	  "pcap link type of the captures, 147-162 (default 147, LINKTYPE_USER0)", 2 },
	{ "input-format", OPT_INPUT_FORMAT, "FMT", 0,
	  "auto (default), pcap, text, csv (an analyzer export) or vcd (lanes)", 2 },
	{ "warp-pipe-port", OPT_WARP_PIPE_PORT, "PORT", 0,
	  "Network captures: the TCP port of Warp Pipe (default 2115)", 2 },
	{ "strict", OPT_STRICT, NULL, 0,
	  "Export: stop at the first row that cannot be read (a capture.malformed "
	  "finding; exit status 1)",
	  2 },

	{ NULL, 0, NULL, 0,
	  "Analyzer exports (CSV, TSV, aligned columns; see "
	  "dllpcheck-capture(5)):",
	  6 },
	{ "dump-columns", OPT_DUMP_COLUMNS, NULL, 0,
	  "Print the detected layout, delimiter, header, column mapping and the "
	  "first three rows as parsed, then stop",
	  6 },
	{ "map", OPT_MAP, "KEY=COLUMN", 0,
	  "Read KEY (time, dir, link, type, dllp-type, tlp-type, vc, hdr-fc, "
	  "data-fc, hdr-scale, data-scale, seq, acknak-seq, length, tc, raw) from "
	  "the column named COLUMN, or #N (1-based), or none (repeatable)",
	  6 },
	{ "map-file", OPT_MAP_FILE, "FILE", 0,
	  "Read --map KEY=COLUMN lines (and delimiter=, header-line=, time-unit=, "
	  "clock-period=, dir-map=) from FILE: a saved profile per analyzer",
	  6 },
	{ "delimiter", OPT_DELIMITER, "C", 0,
	  "Column delimiter: a character, tab, comma, semicolon, pipe, space "
	  "(aligned columns) or auto (default)",
	  6 },
	{ "header-line", OPT_HEADER_LINE, "N", 0,
	  "The header is line N (1-based); 0: no header, name columns with "
	  "--map KEY=#N",
	  6 },
	{ "time-unit", OPT_TIME_UNIT, "UNIT", 0,
	  "Unit of times written without one: ps, ns, us, ms or s (default: the "
	  "header's unit, else s)",
	  6 },
	{ "clock-period", OPT_CLOCK_PERIOD, "PERIOD", 0,
	  "Times without a unit count clock ticks (samples) of PERIOD, e.g. 4ns "
	  "or 250MHz",
	  6 },
	{ "dir-map", OPT_DIR_MAP, "VALUE=DIR,...", 0,
	  "Direction cells equal to VALUE mean DIR (down or up), e.g. 0=down,1=up "
	  "(repeatable); for network captures server=DIR (Warp Pipe's server side, "
	  "default down) and adapter=DIR (the NetTLP adapter, default down)",
	  6 },

	{ NULL, 0, NULL, 0, "Lane-level captures (VCD; see dllpcheck-capture(5)):", 7 },
	{ "lanes", OPT_LANES, "DIR:KEY=PATTERN,...", 0,
	  "The signals of one direction (down or up): KEY is code, sym, data, k, sync, "
	  "start or valid, '*' in PATTERN stands for the lane number, e.g. "
	  "'down:data=tb.rp.txdata*,k=tb.rp.txdatak*' (repeatable, once per direction; "
	  "default: found by name)",
	  7 },
	{ "lane-clock", OPT_LANE_CLOCK, "NAME[:rising|falling]", 0,
	  "Sample the lanes at this clock's active edge (default rising), with the values "
	  "just before it (default: a clock found by name, pclk, symclk, clk, ...)",
	  7 },
	{ "symbol-period", OPT_SYMBOL_PERIOD, "TIME", 0,
	  "No clock: sample every TIME (e.g. 4ns) from the first change", 7 },
	{ "scrambled", OPT_SCRAMBLED, "yes|no|auto", 0,
	  "Whether the 8b/10b data symbols are scrambled (default auto: from the logical "
	  "idle)",
	  7 },
	{ "lanes-dir", OPT_LANES_DIR, "tx=down|tx=up", 0,
	  "Found by name: a PIPE Tx is this direction, its Rx the other (default tx=down)", 7 },

	{ NULL, 0, NULL, 0, "Checking and output:", 3 },
	{ "fail-on", OPT_FAIL_ON, "SEVERITY", 0,
	  "Exit 1 when a finding of SEVERITY or above is reported: error "
	  "(default), warning or info",
	  3 },
	{ "disable", OPT_DISABLE, "RULE", 0,
	  "Do not report RULE (repeatable; 'all' disables every rule)", 3 },
	{ "enable", OPT_ENABLE, "RULE", 0,
	  "Report RULE again after --disable (repeatable; 'all' for every rule)", 3 },
	{ "quiet", 'q', NULL, 0, "Print nothing; only set the exit status", 3 },
	{ "format", OPT_FORMAT, "FMT", 0,
	  "Report format: text (default), json (one document), jsonl (one "
	  "object per line), junit (JUnit XML) or html (one self-contained page "
	  "with charts of the credits over time); with --decode: text or jsonl",
	  3 },
	{ "output", 'o', "FILE", 0, "Write the report to FILE instead of standard output", 3 },
	{ "with-charts", OPT_WITH_CHARTS, NULL, 0,
	  "With --format=jsonl: each input's report carries the HTML page's charts too "
	  "(for --merge --format=html of the parts)",
	  3 },
	{ "vcd", OPT_VCD, "FILE", 0,
	  "Also write the shadow model as a waveform (VCD) to FILE, with a GTKWave "
	  "save file beside it (FILE with .gtkw); for several inputs FILE-N.vcd",
	  3 },
	{ "gtkw", OPT_GTKW, "FILE", 0, "Write the GTKWave save file of --vcd to FILE", 3 },
	{ "annotate", OPT_ANNOTATE, "OUT", 0,
	  "Also write the input as a pcapng OUT with every finding as a comment on its "
	  "record and the summary as the file's comment, for Wireshark; for several "
	  "inputs OUT-N.pcapng",
	  3 },
	{ "jobs", 'j', "N", 0, "Analyse N inputs at once (output identical to -j 1)", 3 },
	{ "stats", OPT_STATS, NULL, 0,
	  "Add statistics to the report: per port, VC and credit type, time at "
	  "zero available credits; TLP counts by type; UpdateFC counts and intervals",
	  3 },

	{ NULL, 0, NULL, 0, "What the capture cannot tell:", 4 },
	{ "tc-map", OPT_TC_MAP, "TC=VC,...", 0,
	  "Map traffic classes to VCs (default: every TC on VC0), e.g. 1=1,2=1", 4 },
	{ "role", OPT_ROLE, "down=ROLE,up=ROLE", 0,
	  "What the ports are: root-port, root-port-p2p, switch or endpoint "
	  "(enables fc.adv.cpl-finite)",
	  4 },
	{ "mps", OPT_MPS, "BYTES", 0,
	  "Rx_MPS_Limit of the receivers, 128-4096 (enables the data minima of "
	  "fc.adv.below-min and tlp.payload.over-mps)",
	  4 },
	{ "mrrs", OPT_MRRS, "BYTES", 0,
	  "Max_Read_Request_Size of the requesters, 128-4096 (enables "
	  "tlp.read.over-mrrs)",
	  4 },
	{ "initial-credits", OPT_INITIAL_CREDITS, "PORT:VC:TYPE=N,...", 0,
	  "Credits PORT (down|up) advertised at an initialisation the capture does "
	  "not show, e.g. up:0:PH=8,PD=64,CplH=inf (repeatable)",
	  4 },
	{ "extended-synch", OPT_EXTENDED_SYNCH, NULL, 0,
	  "The Extended Synch bit is set: UpdateFCs are due every 120 us +50% "
	  "(fc.update.period limit 180 us instead of 45 us)",
	  4 },

	{ NULL, 0, NULL, 0, "Time limits (microseconds):", 5 },
	{ "update-period", OPT_UPDATE_PERIOD, "US", 0,
	  "Longest gap between a sender's UpdateFCs of a class and VC "
	  "(fc.update.period; default 45, or 180 with --extended-synch)",
	  5 },
	{ "init-repeat-interval", OPT_INIT_REPEAT, "US", 0,
	  "Longest time between the starts of a sender's InitFC sets "
	  "(fc.init.repeat-interval; default 34; 17 for PCIe 1.0a devices)",
	  5 },
	{ "starve-threshold", OPT_STARVE, "US", 0,
	  "Report a transmitter that waited longer than this for credits "
	  "(fc.credit.starved; default 100)",
	  5 },
	{ "cpl-timeout", OPT_CPL_TIMEOUT, "US", 0,
	  "Report a non-posted request without its completions for longer than "
	  "this (tlp.cpl.timeout; default 50000, i.e. 50 ms)",
	  5 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > max || s[0] == '-')
		return false;
	*out = v;
	return true;
}

/* The export options: each has its parser in reader_csv.c. */
static bool parse_csv_option(struct csv_options *o, int key, const char *arg, char *err,
                             size_t errlen)
{
	switch (key) {
	case OPT_MAP:
		return csv_options_set_map(o, arg, err, errlen);
	case OPT_MAP_FILE:
		return csv_options_load_map_file(o, arg, err, errlen);
	case OPT_DELIMITER:
		return csv_options_set_delimiter(o, arg, err, errlen);
	case OPT_HEADER_LINE:
		return csv_options_set_header_line(o, arg, err, errlen);
	case OPT_TIME_UNIT:
		return csv_options_set_time_unit(o, arg, err, errlen);
	case OPT_CLOCK_PERIOD:
		return csv_options_set_clock_period(o, arg, err, errlen);
	case OPT_DIR_MAP:
		return csv_options_set_dir_map(o, arg, err, errlen);
	default:
		return false;
	}
}

static void set_rule(struct config *cfg, const char *name, bool on, struct argp_state *state)
{
	enum rule_id rule;
	if (strcmp(name, "all") == 0) {
		for (unsigned i = 0; i < RULE_COUNT; i++)
			cfg->rule_enabled[i] = on;
		return;
	}
	if (!rule_lookup(name, &rule))
		argp_error(state, "unknown rule '%s' (see --list-rules)", name);
	cfg->rule_enabled[rule] = on;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct config *cfg = state->input;
	unsigned long v = 0;
	char err[600];

	switch (key) {
	case OPT_DECODE:
		cfg->mode = MODE_DECODE;
		break;
	case OPT_WRITE_PCAP:
		cfg->mode = MODE_WRITE_PCAP;
		cfg->write_pcap_path = arg;
		break;
	case OPT_LIST_RULES:
		cfg->mode = MODE_LIST_RULES;
		break;
	case OPT_MERGE:
		cfg->merge = true;
		break;
	case OPT_WITH_CHARTS:
		cfg->with_charts = true;
		break;
	case OPT_DLT:
		if (!parse_uint(arg, 162, &v) || v < 147)
			argp_error(state, "--dlt takes a user link type from 147 to 162, not '%s'",
			           arg);
		cfg->reader.dlt = (int)v;
		break;
	case OPT_INPUT_FORMAT:
		if (strcmp(arg, "auto") == 0)
			cfg->reader.format = INPUT_AUTO;
		else if (strcmp(arg, "pcap") == 0)
			cfg->reader.format = INPUT_PCAP;
		else if (strcmp(arg, "text") == 0)
			cfg->reader.format = INPUT_TEXT;
		else if (strcmp(arg, "csv") == 0)
			cfg->reader.format = INPUT_CSV;
		else if (strcmp(arg, "vcd") == 0)
			cfg->reader.format = INPUT_VCD;
		else
			argp_error(state,
			           "--input-format takes auto, pcap, text, csv or vcd, not '%s'",
			           arg);
		break;
	case OPT_STRICT:
		cfg->csv.strict = true;
		break;
	case OPT_DUMP_COLUMNS:
		cfg->mode = MODE_DUMP_COLUMNS;
		cfg->reader.csv_steered = true;
		cfg->csv.dump_only = true;
		break;
	case OPT_WARP_PIPE_PORT: {
		uint16_t port;
		if (!parse_tcp_port(arg, &port, err, sizeof(err)))
			argp_error(state, "%s", err);
		cfg->reader.warp_pipe_port = port;
		break;
	}
	case OPT_DIR_MAP: {
		/* the network keys are taken out; what is left is an export's */
		char rest[512];
		if (!parse_net_dir_map(arg, &cfg->reader, rest, sizeof(rest), err, sizeof(err)))
			argp_error(state, "%s", err);
		if (rest[0] == '\0')
			break;
		if (!parse_csv_option(&cfg->csv, key, rest, err, sizeof(err)))
			argp_error(state, "%s", err);
		cfg->reader.csv_steered = true;
		break;
	}
	case OPT_MAP:
	case OPT_MAP_FILE:
	case OPT_DELIMITER:
	case OPT_HEADER_LINE:
	case OPT_TIME_UNIT:
	case OPT_CLOCK_PERIOD:
		if (!parse_csv_option(&cfg->csv, key, arg, err, sizeof(err)))
			argp_error(state, "%s", err);
		cfg->reader.csv_steered = true;
		break;
	case OPT_LANES:
		if (!lane_options_add_spec(&cfg->lanes, arg, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_LANE_CLOCK:
		if (!lane_options_set_clock(&cfg->lanes, arg, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_SYMBOL_PERIOD:
		if (!lane_options_set_period(&cfg->lanes, arg, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_SCRAMBLED:
		if (!lane_options_set_scrambled(&cfg->lanes, arg, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_LANES_DIR:
		if (!lane_options_set_dir(&cfg->lanes, arg, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_FAIL_ON:
		if (!severity_parse(arg, &cfg->fail_on))
			argp_error(state, "--fail-on takes error, warning or info, not '%s'", arg);
		break;
	case OPT_DISABLE:
		set_rule(cfg, arg, false, state);
		break;
	case OPT_ENABLE:
		set_rule(cfg, arg, true, state);
		break;
	case 'q':
		cfg->quiet = true;
		break;
	case OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			cfg->format = OUT_TEXT;
		else if (strcmp(arg, "json") == 0)
			cfg->format = OUT_JSON;
		else if (strcmp(arg, "jsonl") == 0)
			cfg->format = OUT_JSONL;
		else if (strcmp(arg, "junit") == 0)
			cfg->format = OUT_JUNIT;
		else if (strcmp(arg, "html") == 0)
			cfg->format = OUT_HTML;
		else
			argp_error(state,
			           "--format takes text, json, jsonl, junit or html, not '%s'",
			           arg);
		break;
	case 'o':
		cfg->output_path = arg;
		break;
	case OPT_VCD:
		if (!*arg || strcmp(arg, "-") == 0)
			argp_error(state, "--vcd takes a file name (not standard output)");
		cfg->vcd_path = arg;
		break;
	case OPT_GTKW:
		if (!*arg || strcmp(arg, "-") == 0)
			argp_error(state, "--gtkw takes a file name (not standard output)");
		cfg->gtkw_path = arg;
		break;
	case OPT_ANNOTATE:
		if (!*arg || strcmp(arg, "-") == 0)
			argp_error(state, "--annotate takes a file name (not standard output)");
		cfg->annotate_path = arg;
		break;
	case 'j':
		if (!parse_uint(arg, 256, &v) || v < 1)
			argp_error(state, "-j takes a number of jobs from 1 to 256, not '%s'", arg);
		cfg->jobs = (int)v;
		break;
	case OPT_STATS:
		cfg->stats = true;
		break;
	case OPT_TC_MAP:
		if (!parse_tc_map(arg, cfg->fc.tc_to_vc, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_ROLE:
		if (!parse_roles(arg, cfg->fc.role, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_MPS:
		if (!parse_mps(arg, &cfg->fc.mps, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_MRRS:
		if (!parse_mrrs(arg, &cfg->fc.mrrs, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case OPT_CPL_TIMEOUT:
		if (!parse_microseconds(arg, &cfg->fc.cpl_timeout_ps, err, sizeof(err)))
			argp_error(state, "--cpl-timeout: %s", err);
		/* the requester's timeout is known: a tag reused sooner is
		 * still in use (tlp.tag.in-use) */
		cfg->fc.tag_reuse_window_ps = cfg->fc.cpl_timeout_ps;
		break;
	case OPT_EXTENDED_SYNCH:
		cfg->extended_synch = true;
		break;
	case OPT_UPDATE_PERIOD:
		if (!parse_microseconds(arg, &cfg->fc.update_period_ps, err, sizeof(err)))
			argp_error(state, "--update-period: %s", err);
		cfg->update_period_given = true;
		break;
	case OPT_INIT_REPEAT:
		if (!parse_microseconds(arg, &cfg->fc.init_repeat_ps, err, sizeof(err)))
			argp_error(state, "--init-repeat-interval: %s", err);
		break;
	case OPT_STARVE:
		if (!parse_microseconds(arg, &cfg->fc.starve_ps, err, sizeof(err)))
			argp_error(state, "--starve-threshold: %s", err);
		break;
	case OPT_INITIAL_CREDITS:
		if (!parse_initial_credits(arg, cfg->fc.initial, err, sizeof(err)))
			argp_error(state, "%s", err);
		break;
	case ARGP_KEY_ARGS:
		cfg->inputs = state->argv + state->next;
		cfg->input_count = state->argc - state->next;
		break;
	case ARGP_KEY_NO_ARGS:
		if (cfg->mode != MODE_LIST_RULES) {
			argp_state_help(state, stderr, ARGP_HELP_STD_USAGE | ARGP_HELP_SEE);
			exit(EXIT_ERROR);
		}
		break;
	case ARGP_KEY_END:
		if (cfg->mode == MODE_WRITE_PCAP && cfg->input_count != 1)
			argp_error(state, "--write-pcap takes exactly one input");
		if (cfg->mode == MODE_DECODE &&
		    (cfg->format == OUT_JSON || cfg->format == OUT_JUNIT ||
		     cfg->format == OUT_HTML))
			argp_error(state, "--decode prints text or jsonl (--format=jsonl)");
		if (cfg->vcd_path && cfg->mode != MODE_ANALYZE)
			argp_error(state,
			           "--vcd draws an analysis: not with --decode, --write-pcap "
			           "or --dump-columns");
		if (cfg->annotate_path && cfg->mode != MODE_ANALYZE)
			argp_error(state,
			           "--annotate writes an analysis' findings: not with --decode, "
			           "--write-pcap or --dump-columns");
		if (cfg->gtkw_path && !cfg->vcd_path)
			argp_error(state,
			           "--gtkw names the save file of --vcd: give --vcd FILE too");
		if (cfg->lanes.clock[0] && cfg->lanes.period_ps)
			argp_error(state, "--lane-clock and --symbol-period: give one of them");
		if (cfg->merge && cfg->mode != MODE_ANALYZE)
			argp_error(state, "--merge reads reports: not with --decode, --write-pcap, "
			                  "--list-rules or --dump-columns");
		if (cfg->merge && (cfg->vcd_path || cfg->annotate_path))
			argp_error(state,
			           "--vcd and --annotate need the captures, which --merge "
			           "does not read: give them to the runs that make the parts");
		/* the charts are the page's: a merge reads them, it has none of
		 * its own to write */
		if (cfg->with_charts &&
		    (cfg->format != OUT_JSONL || cfg->mode != MODE_ANALYZE || cfg->merge))
			argp_error(state, "--with-charts adds the HTML page's charts to a check's "
			                  "--format=jsonl report: not with another format, "
			                  "--decode or --merge");
		if (cfg->extended_synch && !cfg->update_period_given)
			cfg->fc.update_period_ps = FC_UPDATE_PERIOD_EXTENDED_PS;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static void list_rules(FILE *out)
{
	for (unsigned i = 0; i < RULE_COUNT; i++) {
		const struct rule_info *ri = rule_info(i);
		fprintf(out, "%-30s %-8s %-15s %s\n", ri->id, severity_name(ri->severity),
		        ri->spec_ref, ri->title);
	}
}

/* --write-pcap: copy each readable record; the messages about the others
 * are held with the report hold, so that an input with no record gets
 * the input error alone. */
struct write_ctx {
	struct pcap_writer *writer;
	FILE *msgs;
};

static void write_on_packet(void *ctx, const struct packet *pkt, bool applicable)
{
	(void)applicable;
	pcap_writer_write(((struct write_ctx *)ctx)->writer, pkt->rec);
}

static void report_malformed_stderr(void *ctx, const struct reader_malformed *bad)
{
	FILE *msgs = ((struct write_ctx *)ctx)->msgs;
	fprintf(msgs, "dllpcheck: %s: record %llu", bad->pos.file,
	        (unsigned long long)bad->pos.record_no);
	if (bad->pos.line)
		fprintf(msgs, " (line %llu)", (unsigned long long)bad->pos.line);
	fprintf(msgs, " offset %llu: skipped: %s\n", (unsigned long long)bad->pos.byte_offset,
	        bad->reason);
}

static void report_note_stderr(void *ctx, const struct reader_malformed *bad)
{
	FILE *msgs = ((struct write_ctx *)ctx)->msgs;
	fprintf(msgs, "dllpcheck: %s: packet %llu offset %llu: note: %s\n", bad->pos.file,
	        (unsigned long long)bad->pos.source_packet,
	        (unsigned long long)bad->pos.byte_offset, bad->reason);
}

/* Every readable record of the input into the writer; the exit status. */
static int copy_records(const struct config *cfg, struct pcap_writer *writer)
{
	char err[512];
	struct reader *r = reader_open(cfg->inputs[0], &cfg->reader, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		return EXIT_ERROR;
	}
	if (!cfg->quiet)
		dump_vcd_note(stderr, cfg->inputs[0], r);
	struct report_hold hold;
	if (!report_hold_open(&hold, stderr, err, sizeof(err))) {
		fprintf(stderr, "dllpcheck: %s: %s\n", cfg->inputs[0], err);
		reader_close(r);
		return EXIT_ERROR;
	}
	struct input_stats stats;
	memset(&stats, 0, sizeof(stats));
	struct write_ctx wc = { writer, hold.out };
	struct analysis_hooks hooks = { write_on_packet, report_malformed_stderr, &wc, NULL,
		                        cfg->quiet ? NULL : report_note_stderr };
	report_hold_hooks(&hold, &hooks);
	analysis_run(r, NULL, &hooks, &stats);
	bool none = stats.records_decoded == 0;
	if (none)
		report_hold_no_record(&hold, cfg->inputs[0], r->format_name, r->compression, &stats,
		                      err, sizeof(err));
	report_hold_close(&hold, !none);
	reader_close(r);
	if (!none && report_hold_lost(&hold, cfg->inputs[0], err, sizeof(err)))
		none = true; /* its messages were lost: said instead of them */
	if (none) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		return EXIT_ERROR;
	}
	/* a region skipped is a capture.resync warning, as in a check */
	return stats.records_malformed || (stats.resyncs && cfg->fail_on <= SEV_WARNING)
	               ? EXIT_FINDINGS
	               : EXIT_CLEAN;
}

/* --write-pcap OUT FILE: every readable record of FILE into OUT, which
 * appears only when the copy succeeded (status 0 or 1); it is refused
 * when it is the input. */
static int write_pcap(const struct config *cfg)
{
	char err[600];
	struct out_file of;
	if (!out_file_open(&of, cfg->write_pcap_path, "--write-pcap", true, cfg->inputs,
	                   cfg->input_count, err, sizeof(err))) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		return EXIT_ERROR;
	}
	struct pcap_writer *writer =
	        pcap_writer_open(of.fp, cfg->write_pcap_path, cfg->reader.dlt, err, sizeof(err));
	if (!writer) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		out_file_finish(&of, false, err, sizeof(err));
		return EXIT_ERROR;
	}
	int status = copy_records(cfg, writer);
	if (!pcap_writer_close(writer, err, sizeof(err))) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		status = EXIT_ERROR;
	}
	if (!out_file_finish(&of, status != EXIT_ERROR, err, sizeof(err))) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		status = EXIT_ERROR;
	}
	return status;
}

/* The heap kept between inputs: each input allocates the same few
 * buffers of a megabyte (the reader's window and stdio buffer) and the
 * model's links, and frees them at its end; by default glibc gives the
 * largest back to the kernel (mmap above 128 KiB, the heap trimmed above
 * 128 KiB free) and faults them in again for the next input, which made
 * the page faults most of a small capture's cost (1000 captures of 20
 * records: 0.10 s of system time of 0.15 s; 0.01 s with these). */
static void keep_heap(void)
{
	mallopt(M_MMAP_THRESHOLD, 8 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

int main(int argc, char **argv)
{
	keep_heap();
	struct config cfg;
	config_init(&cfg);

	argp_err_exit_status = EXIT_ERROR;
	static const struct argp argp = { options, parse_opt, args_doc, program_doc,
		                          NULL,    NULL,      NULL };
	argp_parse(&argp, argc, argv, 0, NULL, &cfg);

	if (cfg.mode == MODE_LIST_RULES) {
		list_rules(stdout);
		return EXIT_CLEAN;
	}
	if (cfg.mode == MODE_WRITE_PCAP)
		return write_pcap(&cfg);

	/* no two outputs of the run one file (-o, --vcd, --gtkw, --annotate) */
	char err[600];
	if (!picture_paths_check(&cfg, err, sizeof(err))) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		return EXIT_ERROR;
	}
	/* -o FILE: never an input; replaced only by a complete report (one
	 * that tells of an input error included) */
	FILE *out = stdout;
	struct out_file of = { 0 };
	if (cfg.output_path) {
		if (!out_file_open(&of, cfg.output_path, "-o", false, cfg.inputs, cfg.input_count,
		                   err, sizeof(err))) {
			fprintf(stderr, "dllpcheck: %s\n", err);
			return EXIT_ERROR;
		}
		out = of.fp;
	}
	/* A progress line only for a person watching a terminal. */
	cfg.progress = !cfg.quiet && cfg.jobs == 1 && isatty(STDERR_FILENO);
	int status = cfg.merge ? run_merge(&cfg, out) : run_batch(&cfg, out);
	bool written = fflush(out) == 0 && !ferror(out);
	if (out != stdout && fclose(out) != 0)
		written = false;
	if (!written) {
		fprintf(stderr, "dllpcheck: error writing the report: %s\n", strerror(errno));
		status = EXIT_ERROR;
	}
	if (cfg.output_path && !out_file_finish(&of, written, err, sizeof(err))) {
		fprintf(stderr, "dllpcheck: %s\n", err);
		status = EXIT_ERROR;
	}
	return status;
}
