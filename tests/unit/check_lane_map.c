/* check_lane_map.c: unit tests of read/lanes/lane_map.c: the --lanes
 * syntax, '*' matching, the forms and widths, the errors that name what
 * was found, autodetection of the common names, and the clock. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/lane_map.h"
#include "suites.h"

struct hdr {
	FILE *fp;
	struct vcd_parser *p;
	char text[8192];
};

/* A header from lines "PATH WIDTH [ID]" (ID defaults to a fresh code). */
static void hdr_make(struct hdr *h, const char *const *vars, size_t n)
{
	size_t l = 0;
	l += (size_t)snprintf(h->text + l, sizeof(h->text) - l, "$timescale 1ps $end\n");
	for (size_t i = 0; i < n; i++) {
		char path[200], id[16] = "";
		unsigned width;
		int got = sscanf(vars[i], "%199s %u %15s", path, &width, id);
		ck_assert_int_ge(got, 2);
		if (got < 3)
			snprintf(id, sizeof(id), "v%zu", i);
		/* each variable in its own scopes, from the dotted path */
		char *name = strrchr(path, '.');
		unsigned depth = 0;
		if (name) {
			*name++ = '\0';
			for (char *s = strtok(path, "."); s; s = strtok(NULL, "."), depth++)
				l += (size_t)snprintf(h->text + l, sizeof(h->text) - l,
				                      "$scope module %s $end\n", s);
		} else {
			name = path;
		}
		l += (size_t)snprintf(h->text + l, sizeof(h->text) - l, "$var wire %u %s %s $end\n",
		                      width, id, name);
		while (depth--)
			l += (size_t)snprintf(h->text + l, sizeof(h->text) - l, "$upscope $end\n");
		ck_assert_uint_lt(l, sizeof(h->text) - 100);
	}
	snprintf(h->text + l, sizeof(h->text) - l, "$enddefinitions $end\n");
	h->fp = fmemopen(h->text, strlen(h->text), "r");
	ck_assert_ptr_nonnull(h->fp);
	h->p = vcd_new(h->fp, "t.vcd");
	struct vcd_error err;
	ck_assert_msg(vcd_read_header(h->p, &err), "%s", err.reason);
}

static void hdr_free(struct hdr *h)
{
	vcd_free(h->p);
	fclose(h->fp);
}

static const char *path_of(const struct hdr *h, size_t var)
{
	ck_assert_uint_ne(var, LANE_VAR_NONE);
	return vcd_var_at(h->p, var)->path;
}

START_TEST(test_spec_parse)
{
	struct lane_options o;
	char err[300];
	lane_options_init(&o);
	ck_assert(lane_options_add_spec(&o, "down:data=tb.rp.txdata*,k=tb.rp.txdatak*", err,
	                                sizeof(err)));
	ck_assert_str_eq(o.spec[DIR_DOWN].pattern[LANE_KEY_DATA], "tb.rp.txdata*");
	ck_assert_str_eq(o.spec[DIR_DOWN].pattern[LANE_KEY_K], "tb.rp.txdatak*");
	ck_assert(!lane_options_add_spec(&o, "down:code=x*", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "mapped twice"));
	ck_assert(!lane_options_add_spec(&o, "sideways:code=x*", err, sizeof(err)));
	ck_assert(!lane_options_add_spec(&o, "up:colour=x*", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "unknown key 'colour'"));
	ck_assert(!lane_options_add_spec(&o, "up:code=a*b*", err, sizeof(err)));
	ck_assert(!lane_options_add_spec(&o, "up:code", err, sizeof(err)));
	ck_assert(!lane_options_add_spec(&o, "up:code=a*,code=b*", err, sizeof(err)));
	ck_assert(lane_options_add_spec(&o, "up:code=lanemon.up_lane*", err, sizeof(err)));

	ck_assert(lane_options_set_clock(&o, "tb.pclk:falling", err, sizeof(err)));
	ck_assert_str_eq(o.clock, "tb.pclk");
	ck_assert_int_eq(o.edge, LANE_EDGE_FALLING);
	ck_assert(!lane_options_set_clock(&o, "tb.pclk:sideways", err, sizeof(err)));
	ck_assert(lane_options_set_period(&o, "4ns", err, sizeof(err)));
	ck_assert_uint_eq(o.period_ps, 4000);
	ck_assert(lane_options_set_period(&o, "2.5ns", err, sizeof(err)));
	ck_assert_uint_eq(o.period_ps, 2500);
	ck_assert(!lane_options_set_period(&o, "4", err, sizeof(err)));
	ck_assert(!lane_options_set_period(&o, "0ns", err, sizeof(err)));
	ck_assert(lane_options_set_scrambled(&o, "no", err, sizeof(err)));
	ck_assert_int_eq(o.scrambling, LANE_SCRAMBLE_NO);
	ck_assert(!lane_options_set_scrambled(&o, "maybe", err, sizeof(err)));
	ck_assert(lane_options_set_dir(&o, "tx=up", err, sizeof(err)));
	ck_assert_int_eq(o.tx_dir, DIR_UP);
	ck_assert(!lane_options_set_dir(&o, "rx=up", err, sizeof(err)));
}
END_TEST

START_TEST(test_pattern)
{
	unsigned lane;
	ck_assert(lane_pattern_match("txdata*", "txdata12", false, &lane));
	ck_assert_uint_eq(lane, 12);
	ck_assert(!lane_pattern_match("txdata*", "txdatak0", false, &lane));
	ck_assert(!lane_pattern_match("txdata*", "txdata", false, &lane));
	ck_assert(!lane_pattern_match("TxData*", "txdata0", false, &lane));
	ck_assert(lane_pattern_match("TxData*", "txdata0", true, &lane));
	ck_assert(lane_pattern_match("pipe_tx*_data", "pipe_tx3_data", false, &lane));
	ck_assert_uint_eq(lane, 3);
	ck_assert(lane_pattern_match("tb.lane*.d", "tb.lane7.d", false, &lane));
	ck_assert(lane_pattern_match("clk", "clk", false, &lane));
	ck_assert_uint_eq(lane, 0);
}
END_TEST

static bool build(struct hdr *h, const char *down, const char *up, const char *clock,
                  struct lane_mapping *m, char *err, size_t errlen)
{
	struct lane_options o;
	lane_options_init(&o);
	if (down)
		ck_assert(lane_options_add_spec(&o, down, err, errlen));
	if (up)
		ck_assert(lane_options_add_spec(&o, up, err, errlen));
	if (clock)
		ck_assert(lane_options_set_clock(&o, clock, err, errlen));
	return lane_map_build(&o, h->p, m, err, errlen);
}

START_TEST(test_map_forms)
{
	static const char *const vars[] = {
		"tb.rp.txdata0 16", "tb.rp.txdata1 16", "tb.rp.txdatak0 2", "tb.rp.txdatak1 2",
		"tb.rp.rxdata0 16", "tb.rp.rxdata1 16", "tb.rp.rxdatak0 2", "tb.rp.rxdatak1 2",
		"tb.pclk 1",        "tb.code0 10",      "tb.sym0 9",        "tb.bad0 8",
	};
	struct hdr h;
	struct lane_mapping m;
	char err[400];
	hdr_make(&h, vars, sizeof(vars) / sizeof(vars[0]));
	ck_assert_msg(build(&h, "down:data=tb.rp.txdata*,k=tb.rp.txdatak*",
	                    "up:data=rxdata*,k=rxdatak*", "pclk", &m, err, sizeof(err)),
	              "%s", err);
	ck_assert(m.dir[DIR_DOWN].mapped && m.dir[DIR_UP].mapped);
	ck_assert_int_eq(m.dir[DIR_DOWN].form, LANE_FORM_DATA_K);
	ck_assert_uint_eq(m.dir[DIR_DOWN].lanes, 2);
	ck_assert_uint_eq(m.dir[DIR_DOWN].data_bits, 16);
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_DATA][1]), "tb.rp.txdata1");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_UP].var[LANE_KEY_K][0]), "tb.rp.rxdatak0");
	ck_assert_str_eq(path_of(&h, m.clock), "tb.pclk");
	ck_assert(!m.autodetected);

	ck_assert(build(&h, "down:code=code*", NULL, "tb.pclk:rising", &m, err, sizeof(err)));
	ck_assert_int_eq(m.dir[DIR_DOWN].form, LANE_FORM_CODE);
	ck_assert(!m.dir[DIR_UP].mapped);
	ck_assert(build(&h, "down:sym=sym*", NULL, "pclk", &m, err, sizeof(err)));
	ck_assert_int_eq(m.dir[DIR_DOWN].form, LANE_FORM_SYM);

	/* the widths: a 10-bit code of 8 bits, k of the wrong width */
	ck_assert(!build(&h, "down:code=bad*", NULL, "pclk", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "code of lane 0 is 'tb.bad0', 8 bits wide: code wants 10"), "%s",
	              err);
	ck_assert(!build(&h, "down:data=txdata*,k=sym*", NULL, "pclk", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "gives 1 lanes"), "%s", err);
	/* no form */
	ck_assert(!build(&h, "down:data=txdata*", NULL, "pclk", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "the keys give no form"), "%s", err);
	ck_assert(!build(&h, "down:code=nothing*", NULL, "pclk", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "'nothing*' matches no variable"), "%s", err);
	/* the clock */
	ck_assert(!build(&h, "down:code=code*", NULL, "tb.code0", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "10 bits wide: a clock is 1 bit"), "%s", err);
	ck_assert(!build(&h, "down:code=code*", NULL, "nope", &m, err, sizeof(err)));
	hdr_free(&h);
}
END_TEST

START_TEST(test_map_lane_errors)
{
	static const char *const vars[] = {
		"a.l0 10", "a.l1 10", "a.l3 10",   "b.m0 10",   "b.m1 10", "b.m2 10",
		"c.x0 10", "d.x0 10", "e.y0 10 !", "f.y0 10 !", "clk 1",
	};
	struct hdr h;
	struct lane_mapping m;
	char err[400];
	hdr_make(&h, vars, sizeof(vars) / sizeof(vars[0]));
	ck_assert(!build(&h, "down:code=l*", NULL, "clk", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "matches lanes 0,1,3: lane 2 is missing"), "%s", err);
	ck_assert(!build(&h, "down:code=m*", NULL, "clk", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "matches 3 lanes (0,1,2): a link has 1, 2, 4, 8, 12, 16 or 32"),
	              "%s", err);
	ck_assert(!build(&h, "down:code=x*", NULL, "clk", &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "ambiguous: 'c.x0' and 'd.x0' both match for lane 0"), "%s", err);
	/* the same code in two scopes: one signal */
	ck_assert_msg(build(&h, "down:code=y*", NULL, "clk", &m, err, sizeof(err)), "%s", err);
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_CODE][0]), "e.y0");
	/* the full path distinguishes */
	ck_assert(build(&h, "down:code=d.x*", NULL, "clk", &m, err, sizeof(err)));
	hdr_free(&h);
}
END_TEST

static bool autodetect(struct hdr *h, enum link_dir tx, struct lane_mapping *m, char *err,
                       size_t errlen)
{
	struct lane_options o;
	lane_options_init(&o);
	o.tx_dir = tx;
	return lane_map_build(&o, h->p, m, err, errlen);
}

START_TEST(test_auto_pipe)
{
	static const char *const vars[] = {
		"tb.mac.TxData0 8", "tb.mac.TxData1 8", "tb.mac.TxDataK0 1", "tb.mac.TxDataK1 1",
		"tb.mac.RxData0 8", "tb.mac.RxData1 8", "tb.mac.RxDataK0 1", "tb.mac.RxDataK1 1",
		"tb.mac.PCLK 1",    "tb.other 8",
	};
	struct hdr h;
	struct lane_mapping m;
	char err[400];
	hdr_make(&h, vars, sizeof(vars) / sizeof(vars[0]));
	ck_assert_msg(autodetect(&h, DIR_DOWN, &m, err, sizeof(err)), "%s", err);
	ck_assert(m.autodetected && m.clock_autodetected);
	ck_assert_int_eq(m.dir[DIR_DOWN].form, LANE_FORM_DATA_K);
	ck_assert_uint_eq(m.dir[DIR_DOWN].lanes, 2);
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_DATA][1]), "tb.mac.TxData1");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_UP].var[LANE_KEY_K][0]), "tb.mac.RxDataK0");
	ck_assert_str_eq(path_of(&h, m.clock), "tb.mac.PCLK");
	ck_assert_msg(strstr(m.chose, "PIPE Tx as down: 'tb.mac.TxData*'"), "%s", m.chose);
	/* --lanes-dir tx=up: the MAC is the downstream component */
	ck_assert(autodetect(&h, DIR_UP, &m, err, sizeof(err)));
	ck_assert_str_eq(path_of(&h, m.dir[DIR_UP].var[LANE_KEY_DATA][0]), "tb.mac.TxData0");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_DATA][0]), "tb.mac.RxData0");
	hdr_free(&h);
}
END_TEST

/* A NUL byte in a scope's name cuts the variables' paths short of their
 * names: the lanes are not found by that name, and nothing is read
 * outside the path (fuzz_vcd: a memcpy of a negative size). */
START_TEST(test_auto_nul_in_scope)
{
	static const char text[] = "$scope module t\0b $end\n"
	                           "$var wire 10 ! down_lane0 $end\n"
	                           "$var wire 10 \" up_lane0 $end\n"
	                           "$var wire 1 # symclk $end\n"
	                           "$upscope $end\n$enddefinitions $end\n";
	FILE *fp = fmemopen((void *)(uintptr_t)text, sizeof(text) - 1, "r");
	ck_assert_ptr_nonnull(fp);
	struct hdr h = { .fp = fp, .p = vcd_new(fp, "t.vcd") };
	struct vcd_error verr;
	ck_assert_ptr_nonnull(h.p);
	ck_assert_msg(vcd_read_header(h.p, &verr), "%s", verr.reason);
	struct lane_mapping m;
	char err[400];
	(void)autodetect(&h, DIR_DOWN, &m, err, sizeof(err));
	hdr_free(&h);
}
END_TEST

START_TEST(test_auto_vendors)
{
	static const char *const xilinx[] = {
		"top.pipe_tx0_data 32", "top.pipe_tx0_char_is_k 4",
		"top.pipe_tx1_data 32", "top.pipe_tx1_char_is_k 4",
		"top.pclk 1",
	};
	static const char *const scoped[] = {
		"tb.phy.lane0.TxData 16",
		"tb.phy.lane1.TxData 16",
		"tb.phy.lane0.TxDataK 2",
		"tb.phy.lane1.TxDataK 2",
		"tb.phy.lane0.TxSyncHeader 2",
		"tb.phy.lane1.TxSyncHeader 2",
		"tb.phy.lane0.TxStartBlock 1",
		"tb.phy.lane1.TxStartBlock 1",
		"tb.pclk 1",
	};
	static const char *const tenbit[] = {
		"lanemon.down_lane0 10",
		"lanemon.down_lane1 10",
		"lanemon.up_lane0 10",
		"lanemon.up_lane1 10",
		"symclk 1",
	};
	static const char *const ninebit[] = {
		"mon.down_lane0 9",
		"mon.up_lane0 9",
		"pclk 1",
	};
	static const char *const two[] = {
		"tb.rp.txdata0 8", "tb.rp.txdatak0 1", "tb.ep.txdata0 8", "tb.ep.txdatak0 1",
		"clk 1",
	};
	static const char *const none[] = { "tb.a 8", "tb.clk 1" };
	struct hdr h;
	struct lane_mapping m;
	char err[400];

	hdr_make(&h, xilinx, sizeof(xilinx) / sizeof(xilinx[0]));
	ck_assert_msg(autodetect(&h, DIR_DOWN, &m, err, sizeof(err)), "%s", err);
	ck_assert_int_eq(m.dir[DIR_DOWN].form, LANE_FORM_DATA_K);
	ck_assert_uint_eq(m.dir[DIR_DOWN].data_bits, 32);
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_K][1]), "top.pipe_tx1_char_is_k");
	ck_assert(!m.dir[DIR_UP].mapped);
	hdr_free(&h);

	hdr_make(&h, scoped, sizeof(scoped) / sizeof(scoped[0]));
	ck_assert_msg(autodetect(&h, DIR_DOWN, &m, err, sizeof(err)), "%s", err);
	ck_assert_uint_eq(m.dir[DIR_DOWN].lanes, 2);
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_DATA][1]), "tb.phy.lane1.TxData");
	/* K and the 128b/130b signals both: 8b/10b, and it says so */
	ck_assert_int_eq(m.dir[DIR_DOWN].form, LANE_FORM_DATA_K);
	ck_assert_msg(strstr(m.chose, "sync header and start-of-block signals too"), "%s", m.chose);
	hdr_free(&h);

	hdr_make(&h, tenbit, sizeof(tenbit) / sizeof(tenbit[0]));
	ck_assert_msg(autodetect(&h, DIR_UP, &m, err, sizeof(err)), "%s", err);
	ck_assert_int_eq(m.dir[DIR_UP].form, LANE_FORM_CODE);
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_CODE][1]), "lanemon.down_lane1");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_UP].var[LANE_KEY_CODE][0]), "lanemon.up_lane0");
	ck_assert_str_eq(path_of(&h, m.clock), "symclk");
	hdr_free(&h);

	hdr_make(&h, ninebit, sizeof(ninebit) / sizeof(ninebit[0]));
	ck_assert_msg(autodetect(&h, DIR_DOWN, &m, err, sizeof(err)), "%s", err);
	ck_assert_int_eq(m.dir[DIR_DOWN].form, LANE_FORM_SYM);
	ck_assert_int_eq(m.dir[DIR_UP].form, LANE_FORM_SYM);
	ck_assert_str_eq(path_of(&h, m.dir[DIR_UP].var[LANE_KEY_SYM][0]), "mon.up_lane0");
	hdr_free(&h);

	hdr_make(&h, two, sizeof(two) / sizeof(two[0]));
	ck_assert(!autodetect(&h, DIR_DOWN, &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "several PIPE Tx signals found ('tb.rp.txdata*', "
	                          "'tb.ep.txdata*'): name the lanes with --lanes"),
	              "%s", err);
	hdr_free(&h);

	hdr_make(&h, none, sizeof(none) / sizeof(none[0]));
	ck_assert(!autodetect(&h, DIR_DOWN, &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "no lane signals found by name"), "%s", err);
	hdr_free(&h);
}
END_TEST

/* Intel's 128b/130b PIPE names with the lane number as a suffix
 * (txsynchd<N>, txblkst<N>, txdatavalid<N> and the rx ones; see
 * lane_autodetect.c for the guides): data+sync+start+valid per lane. */
START_TEST(test_auto_intel_128b)
{
	static const char *const intel[] = {
		"tb.rp.txdata0 16", "tb.rp.txsynchd0 2", "tb.rp.txblkst0 1", "tb.rp.txdatavalid0 1",
		"tb.rp.txdata1 16", "tb.rp.txsynchd1 2", "tb.rp.txblkst1 1", "tb.rp.txdatavalid1 1",
		"tb.rp.rxdata0 16", "tb.rp.rxsynchd0 2", "tb.rp.rxblkst0 1", "tb.rp.rxdatavalid0 1",
		"tb.rp.rxdata1 16", "tb.rp.rxsynchd1 2", "tb.rp.rxblkst1 1", "tb.rp.rxdatavalid1 1",
		"tb.pclk 1",
	};
	static const char *const wide_start[] = {
		"tb.txdata0 32",
		"tb.txsynchd0 2",
		"tb.txblkst0 4",
		"tb.pclk 1",
	};
	struct hdr h;
	struct lane_mapping m;
	char err[400];

	hdr_make(&h, intel, sizeof(intel) / sizeof(intel[0]));
	ck_assert_msg(autodetect(&h, DIR_DOWN, &m, err, sizeof(err)), "%s", err);
	for (int d = 0; d < DIR_COUNT; d++) {
		ck_assert_int_eq(m.dir[d].form, LANE_FORM_128B);
		ck_assert_uint_eq(m.dir[d].lanes, 2);
		ck_assert_uint_eq(m.dir[d].data_bits, 16);
	}
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_SYNC][1]), "tb.rp.txsynchd1");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_START][0]), "tb.rp.txblkst0");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_DOWN].var[LANE_KEY_VALID][1]), "tb.rp.txdatavalid1");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_UP].var[LANE_KEY_SYNC][0]), "tb.rp.rxsynchd0");
	ck_assert_str_eq(path_of(&h, m.dir[DIR_UP].var[LANE_KEY_START][1]), "tb.rp.rxblkst1");
	ck_assert_msg(strstr(m.chose, "PIPE Tx as down: 'tb.rp.txdata*'"), "%s", m.chose);
	hdr_free(&h);

	/* a start of block of one bit per byte is not read: the width check
	 * says so, naming the signal */
	hdr_make(&h, wide_start, sizeof(wide_start) / sizeof(wide_start[0]));
	ck_assert(!autodetect(&h, DIR_DOWN, &m, err, sizeof(err)));
	ck_assert_msg(strstr(err, "start of lane 0 is 'tb.txblkst0', 4 bits wide: start wants 1"),
	              "%s", err);
	hdr_free(&h);
}
END_TEST

Suite *suite_lane_map(void)
{
	Suite *s = suite_create("lane_map");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_spec_parse);
	tcase_add_test(tc, test_pattern);
	tcase_add_test(tc, test_map_forms);
	tcase_add_test(tc, test_map_lane_errors);
	tcase_add_test(tc, test_auto_pipe);
	tcase_add_test(tc, test_auto_nul_in_scope);
	tcase_add_test(tc, test_auto_vendors);
	tcase_add_test(tc, test_auto_intel_128b);
	suite_add_tcase(s, tc);
	return s;
}
