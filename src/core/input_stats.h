/* input_stats.h: what one input came to, record by record and byte by
 * byte, as every report gives it. */
#ifndef DLLPCHECK_INPUT_STATS_H
#define DLLPCHECK_INPUT_STATS_H

#include <stdbool.h>
#include <stdint.h>

/* Record accounting of one input: read = decoded + malformed.  For a
 * format whose reader counts bytes (pcap, bytes_counted), bytes_read +
 * bytes_skipped = the input's size (capture-format.md section 1): the
 * bytes of its headers and records, and those of the regions reported
 * capture.resync. */
struct input_stats {
	uint64_t records_read;
	uint64_t records_decoded;
	uint64_t records_malformed;
	uint64_t records_truncated;
	uint64_t dllps, tlps, events;
	uint64_t time_base_s; /* record.time_base_s of the input */
	bool bytes_counted;
	uint64_t bytes_read, bytes_skipped;
	uint64_t resyncs; /* regions skipped */
};

/* The exit status of a run (rules.md): 1 when a finding is at or above
 * --fail-on, 2 on usage or input errors. */
enum exit_status { EXIT_CLEAN = 0, EXIT_FINDINGS = 1, EXIT_ERROR = 2 };

#endif
