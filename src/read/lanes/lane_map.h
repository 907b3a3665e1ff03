/* lane_map.h: which VCD variables are the lanes, and how to sample them.
 * specification: capture-format.md section 4 "Mapping"; dllpcheck(1)
 * --lanes, --lane-clock, --symbol-period, --scrambled, --lanes-dir.
 *
 * --lanes 'DIR:key=pattern[,key=pattern...]' names, for one direction
 * (down or up), the signal of each lane per key (code, sym, data, k,
 * sync, start, valid); '*' in a pattern stands for the lane number 0, 1,
 * 2, ... and a pattern is matched against the full dotted path and the
 * last part of each variable.  The keys given decide the form: code (10-
 * bit code groups), sym (9-bit symbols, bit 8 = K), data + k (PIPE at 2.5/
 * 5 GT/s) or data + sync + start (PIPE at 8 GT/s and above); valid may go
 * with any.  Without --lanes, lane_map_build() looks for the common names
 * itself (PIPE TxData/RxData and kin) and says what it chose.
 */
#ifndef DLLPCHECK_LANE_MAP_H
#define DLLPCHECK_LANE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "read/lanes/lane_packet.h"
#include "read/lanes/rx8b10b.h"
#include "read/lanes/vcd_parse.h"

enum lane_key {
	LANE_KEY_CODE,
	LANE_KEY_SYM,
	LANE_KEY_DATA,
	LANE_KEY_K,
	LANE_KEY_SYNC,
	LANE_KEY_START,
	LANE_KEY_VALID,
	LANE_KEY_COUNT
};

enum lane_form {
	LANE_FORM_NONE = 0,
	LANE_FORM_CODE, /* 10-bit code groups, bit 0 = a */
	LANE_FORM_SYM, /* 9-bit symbols, bit 8 = K */
	LANE_FORM_DATA_K, /* PIPE data (8/16/32 bits) and one K bit per byte */
	LANE_FORM_128B, /* PIPE data + sync header + start of block (+ valid) */
};

enum lane_edge { LANE_EDGE_RISING, LANE_EDGE_FALLING };

#define LANE_PATTERN_MAX 256

/* One --lanes option. */
struct lane_spec {
	bool given;
	char pattern[LANE_KEY_COUNT][LANE_PATTERN_MAX]; /* "" when absent */
};

/* Every option of the lane reader, as the command line gave them. */
struct lane_options {
	struct lane_spec spec[DIR_COUNT];
	char clock[LANE_PATTERN_MAX]; /* "" when not given */
	enum lane_edge edge;
	uint64_t period_ps; /* --symbol-period; 0 when not given */
	enum lane_scrambling scrambling;
	enum link_dir tx_dir; /* --lanes-dir tx=down|up: the direction of a
	                       * PIPE Tx (a MAC's Tx is its own direction) */
};

#define LANE_VAR_NONE ((size_t)-1)

/* One direction as mapped. */
struct lane_dir_map {
	bool mapped;
	enum lane_form form;
	unsigned lanes; /* 1, 2, 4, 8, 12, 16 or 32 */
	unsigned data_bits; /* code 10, sym 9, data 8, 16 or 32 */
	size_t var[LANE_KEY_COUNT][LANE_MAX]; /* vcd_var index, LANE_VAR_NONE */
	char pattern[LANE_KEY_COUNT][LANE_PATTERN_MAX]; /* as given or chosen */
};

struct lane_mapping {
	struct lane_dir_map dir[DIR_COUNT];
	size_t clock; /* vcd_var index; LANE_VAR_NONE with a period */
	enum lane_edge edge;
	uint64_t period_ps;
	bool autodetected; /* no --lanes: lane_map_build chose */
	bool clock_autodetected;
	char chose[600]; /* what it chose, in words, when it chose */
};

void lane_options_init(struct lane_options *o);
/* The option parsers: false with a message in err for a value they
 * cannot take. */
bool lane_options_add_spec(struct lane_options *o, const char *arg, char *err, size_t errlen);
bool lane_options_set_clock(struct lane_options *o, const char *arg, char *err, size_t errlen);
bool lane_options_set_period(struct lane_options *o, const char *arg, char *err, size_t errlen);
bool lane_options_set_scrambled(struct lane_options *o, const char *arg, char *err, size_t errlen);
bool lane_options_set_dir(struct lane_options *o, const char *arg, char *err, size_t errlen);

/* The mapping of the declared variables of p: from the --lanes options,
 * or found by name when none was given; and the clock.  False with a
 * message in err (naming what was found) when it cannot be made. */
bool lane_map_build(const struct lane_options *o, const struct vcd_parser *p,
                    struct lane_mapping *m, char *err, size_t errlen);

/* '*' matches a lane number (decimal digits) in s; *lane gets it (0 when
 * the pattern has no '*').  nocase: letters compared case-insensitively. */
bool lane_pattern_match(const char *pattern, const char *s, bool nocase, unsigned *lane);

const char *lane_form_name(enum lane_form f);
const char *lane_key_name(enum lane_key k);

#endif
