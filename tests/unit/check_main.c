/* check_main.c: the unit test runner: every module's suite in one run. */
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(suite_rules());
	srunner_add_suite(sr, suite_dllp());
	srunner_add_suite(sr, suite_tlp());
	srunner_add_suite(sr, suite_crc32());
	srunner_add_suite(sr, suite_reader_text());
	srunner_add_suite(sr, suite_reader_csv());
	srunner_add_suite(sr, suite_csv_chars());
	srunner_add_suite(sr, suite_csv_hex());
	srunner_add_suite(sr, suite_csv_split());
	srunner_add_suite(sr, suite_csv_columns());
	srunner_add_suite(sr, suite_fc());
	srunner_add_suite(sr, suite_decompress());
	srunner_add_suite(sr, suite_pcap_file());
	srunner_add_suite(sr, suite_number());
	srunner_add_suite(sr, suite_time_unit());
	srunner_add_suite(sr, suite_cli_parse());
	srunner_add_suite(sr, suite_blank());
	srunner_add_suite(sr, suite_bitset());
	srunner_add_suite(sr, suite_rx128b());
	srunner_add_suite(sr, suite_rx8b10b());
	srunner_add_suite(sr, suite_line_reader());
	srunner_add_suite(sr, suite_packet_build());
	srunner_add_suite(sr, suite_vcd_parse());
	srunner_add_suite(sr, suite_lane_map());
	srunner_add_suite(sr, suite_lane_sample());
	srunner_add_suite(sr, suite_tl_stats());
	srunner_add_suite(sr, suite_timeline());
	srunner_add_suite(sr, suite_html());
	srunner_add_suite(sr, suite_vcd_write());
	srunner_add_suite(sr, suite_spool());
	srunner_add_suite(sr, suite_stream_window());
	srunner_add_suite(sr, suite_pcapng_writer());
	srunner_add_suite(sr, suite_annotate());
	srunner_add_suite(sr, suite_net_decap());
	srunner_add_suite(sr, suite_net_decoder());
	srunner_add_suite(sr, suite_tcp_stream());
	srunner_add_suite(sr, suite_warp_pipe());
	srunner_add_suite(sr, suite_merge_read());
	srunner_add_suite(sr, suite_merge_keep());
	srunner_add_suite(sr, suite_report_hold());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	int run = srunner_ntests_run(sr);
	srunner_free(sr);
	/* A run of no test is a failure, not a pass. */
	return failed == 0 && run > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
