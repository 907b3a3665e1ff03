/* progress.c: a progress line on standard error for inputs that take
 * more than a second, only when standard error is a terminal (main.c
 * decides) and never with -q or parallel jobs. */
#include <stdio.h>
#include <time.h>

#include "cli/pipeline.h"

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The state of the one line on the terminal (one process, one input at a
 * time, so it lives here). */
static struct {
	double start, last;
	uint64_t start_records;
	bool shown;
} progress_line;

void progress_report(const struct input_stats *stats, uint64_t byte_offset)
{
	double t = now_seconds();
	if (stats->records_read <= 0x10000u || progress_line.start == 0) {
		progress_line.start = progress_line.last = t;
		progress_line.start_records = stats->records_read;
		return;
	}
	if (t - progress_line.last < 1.0)
		return;
	progress_line.last = t;
	double rate = (double)(stats->records_read - progress_line.start_records) /
	              (t - progress_line.start);
	fprintf(stderr, "\rdllpcheck: %.1f MB read, %llu records, %.0f records/s ",
	        (double)byte_offset / 1e6, (unsigned long long)stats->records_read, rate);
	progress_line.shown = true;
}

void progress_done(void)
{
	if (progress_line.shown)
		fputs("\r\033[K", stderr);
	progress_line.shown = false;
	progress_line.start = 0;
}
