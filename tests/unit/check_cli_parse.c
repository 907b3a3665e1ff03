/* check_cli_parse.c: unit tests of cli/cli_parse.c, the option values with
 * a syntax of their own, through the shared number and time-unit parsers
 * (base/number.h, base/time_unit.h). */
#include <check.h>
#include <string.h>

#include "cli/cli_parse.h"
#include "suites.h"

START_TEST(test_mps)
{
	static const char *const good[] = { "128", "256", "0x100", "4096" };
	static const char *const bad[] = { "",     "64",   "300",  "8192", "-256",
		                           "+256", " 256", "256 ", "0400", "256k" };
	char err[200];
	uint32_t mps;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(parse_mps(good[i], &mps, err, sizeof(err)), "%s", good[i]);
	ck_assert(parse_mps("0x100", &mps, err, sizeof(err)));
	ck_assert_uint_eq(mps, 256);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		ck_assert_msg(!parse_mps(bad[i], &mps, err, sizeof(err)), "'%s'", bad[i]);
		ck_assert_ptr_nonnull(strstr(err, "--mps takes"));
	}
}
END_TEST

START_TEST(test_tc_map)
{
	uint8_t map[8] = { 0 };
	char err[200];

	ck_assert(parse_tc_map("1=1,07=2,0x3=0x3", map, err, sizeof(err)));
	ck_assert_uint_eq(map[1], 1);
	ck_assert_uint_eq(map[7], 2);
	ck_assert_uint_eq(map[3], 3);
	ck_assert(!parse_tc_map("8=1", map, err, sizeof(err)));
	ck_assert(!parse_tc_map("1=8", map, err, sizeof(err)));
	ck_assert(!parse_tc_map("1=", map, err, sizeof(err)));
	ck_assert(!parse_tc_map("=1", map, err, sizeof(err)));
	ck_assert(!parse_tc_map("0=1", map, err, sizeof(err)));
}
END_TEST

/* The maxima are the largest field at scale x16 [5.5]: 2032 and 32752. */
START_TEST(test_initial_credits_limits)
{
	static struct initial_credit initial[DIR_COUNT][FC_VC_COUNT][CT_COUNT];
	char err[200];

	ck_assert(parse_initial_credits("down:0:PH=2032,PD=32752,NPH=inf", initial, err,
	                                sizeof(err)));
	ck_assert(initial[DIR_DOWN][0][0].given);
	ck_assert_uint_eq(initial[DIR_DOWN][0][0].credits, 2032);
	ck_assert_uint_eq(initial[DIR_DOWN][0][1].credits, 32752);
	ck_assert(initial[DIR_DOWN][0][2].infinite);
	ck_assert(!parse_initial_credits("up:0:PH=2033", initial, err, sizeof(err)));
	ck_assert_str_eq(err, "--initial-credits: PH=2033: a credit count from 1 to 2032, or inf");
	ck_assert(!parse_initial_credits("up:0:CplD=32753", initial, err, sizeof(err)));
	ck_assert_str_eq(err,
	                 "--initial-credits: CplD=32753: a credit count from 1 to 32752, or inf");
	ck_assert(!parse_initial_credits("up:0:PH=0", initial, err, sizeof(err)));
	ck_assert(!parse_initial_credits("up:8:PH=1", initial, err, sizeof(err)));
}
END_TEST

START_TEST(test_microseconds)
{
	static const struct {
		const char *s;
		uint64_t ps;
	} good[] = {
		{ "45", UINT64_C(45000000) },
		{ "17.5", UINT64_C(17500000) },
		{ "0.000001", 1 },
		{ ".5", UINT64_C(500000) },
		{ "5.", UINT64_C(5000000) },
		{ "180.000000", UINT64_C(180000000) },
	};
	static const char *const bad[] = { "",          ".",         "0",     "0.0",
		                           "1.0000001", "1.0000000", "-1",    "1e3",
		                           "1us",       " 1",        "1.2.3", "9223372036854776" };
	char err[200];
	uint64_t ps;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ck_assert_msg(parse_microseconds(good[i].s, &ps, err, sizeof(err)), "%s",
		              good[i].s);
		ck_assert_uint_eq(ps, good[i].ps);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(!parse_microseconds(bad[i], &ps, err, sizeof(err)), "'%s'", bad[i]);
		ck_assert_ptr_nonnull(strstr(err, "is not a time in microseconds"));
	}
}
END_TEST

/* --dir-map: the network keys set the directions, the rest is left for
 * the export */
START_TEST(test_net_dir_map)
{
	struct reader_opts o;
	char rest[64], err[200];

	memset(&o, 0, sizeof(o));
	ck_assert(parse_net_dir_map("server=up", &o, rest, sizeof(rest), err, sizeof(err)));
	ck_assert_int_eq(o.net_server_dir, DIR_UP);
	ck_assert_int_eq(o.net_adapter_dir, DIR_DOWN);
	ck_assert_str_eq(rest, "");
	ck_assert(parse_net_dir_map("0=down,Adapter=UP,1=up", &o, rest, sizeof(rest), err,
	                            sizeof(err)));
	ck_assert_int_eq(o.net_adapter_dir, DIR_UP);
	ck_assert_str_eq(rest, "0=down,1=up");
	/* the other side's names turn it round */
	ck_assert(
	        parse_net_dir_map("client=up,libtlp=up", &o, rest, sizeof(rest), err, sizeof(err)));
	ck_assert_int_eq(o.net_server_dir, DIR_DOWN);
	ck_assert_int_eq(o.net_adapter_dir, DIR_DOWN);
	ck_assert(!parse_net_dir_map("server=left", &o, rest, sizeof(rest), err, sizeof(err)));
	ck_assert_str_eq(err, "--dir-map 'server=left': server maps to down or up");
	/* a key that only begins like one is an export's value */
	ck_assert(parse_net_dir_map("servers=up", &o, rest, sizeof(rest), err, sizeof(err)));
	ck_assert_str_eq(rest, "servers=up");
	ck_assert_int_eq(o.net_server_dir, DIR_DOWN);
}
END_TEST

START_TEST(test_tcp_port)
{
	uint16_t port = 0;
	char err[200];
	ck_assert(parse_tcp_port("2115", &port, err, sizeof(err)));
	ck_assert_uint_eq(port, 2115);
	ck_assert(parse_tcp_port("65535", &port, err, sizeof(err)));
	static const char *const bad[] = { "0", "65536", "-1", "", "21x", "0x10" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(!parse_tcp_port(bad[i], &port, err, sizeof(err)), "'%s'", bad[i]);
	ck_assert_uint_eq(port, 65535);
}
END_TEST

Suite *suite_cli_parse(void)
{
	Suite *s = suite_create("cli_parse");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, test_mps);
	tcase_add_test(tc, test_tc_map);
	tcase_add_test(tc, test_initial_credits_limits);
	tcase_add_test(tc, test_microseconds);
	tcase_add_test(tc, test_net_dir_map);
	tcase_add_test(tc, test_tcp_port);
	suite_add_tcase(s, tc);
	return s;
}
