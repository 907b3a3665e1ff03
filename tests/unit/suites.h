/* suites.h: one Suite per module; check_main.c runs them all. */
#ifndef DLLPCHECK_TESTS_SUITES_H
#define DLLPCHECK_TESTS_SUITES_H

#include <check.h>

Suite *suite_rules(void);
Suite *suite_dllp(void);
Suite *suite_tlp(void);
Suite *suite_crc32(void);
Suite *suite_reader_text(void);
Suite *suite_reader_csv(void);
Suite *suite_csv_chars(void);
Suite *suite_csv_hex(void);
Suite *suite_csv_split(void);
Suite *suite_csv_columns(void);
Suite *suite_fc(void);
Suite *suite_decompress(void);
Suite *suite_pcap_file(void);
Suite *suite_number(void);
Suite *suite_time_unit(void);
Suite *suite_cli_parse(void);
Suite *suite_blank(void);
Suite *suite_bitset(void);
Suite *suite_rx128b(void);
Suite *suite_rx8b10b(void);
Suite *suite_line_reader(void);
Suite *suite_packet_build(void);
Suite *suite_vcd_parse(void);
Suite *suite_lane_map(void);
Suite *suite_lane_sample(void);
Suite *suite_tl_stats(void);
Suite *suite_timeline(void);
Suite *suite_html(void);
Suite *suite_vcd_write(void);
Suite *suite_spool(void);
Suite *suite_stream_window(void);
Suite *suite_pcapng_writer(void);
Suite *suite_annotate(void);
Suite *suite_net_decap(void);
Suite *suite_net_decoder(void);
Suite *suite_tcp_stream(void);
Suite *suite_warp_pipe(void);
Suite *suite_merge_read(void);
Suite *suite_merge_keep(void);
Suite *suite_report_hold(void);

#endif
