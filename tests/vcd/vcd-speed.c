/* vcd-speed.c: the VCD parser alone (vcd_parse.h) over a file, watching
 * the variables named on the command line: bytes, time steps, changes,
 * malformed lines, and the speed.  Not built by make: for measuring,
 *
 *   gcc -O2 -I src -D_GNU_SOURCE -o /tmp/vcd-speed tests/vcd/vcd-speed.c libdllpcheck.a
 *   /tmp/vcd-speed BIG.vcd tb.TxData0 tb.TxDataK0 ... tb.pclk
 *
 * (a big VCD: tests/lanes/pcap2vcd.py --form pipe16 --lanes 4 of a
 * bench/gen capture).  The whole reader is measured with dllpcheck -q. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "read/lanes/vcd_parse.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: vcd-speed FILE.vcd [VARIABLE...]\n");
		return 2;
	}
	FILE *fp = fopen(argv[1], "rb");
	if (!fp) {
		perror(argv[1]);
		return 2;
	}
	struct vcd_parser *p = vcd_new(fp, argv[1]);
	struct vcd_error e;
	struct timespec a, b;
	clock_t c0 = clock();
	clock_gettime(CLOCK_MONOTONIC, &a);
	if (!p || !vcd_read_header(p, &e)) {
		fprintf(stderr, "%s:%llu: %s\n", argv[1], p ? (unsigned long long)e.line : 0ull,
		        p ? e.reason : "out of memory");
		return 2;
	}
	for (int i = 2; i < argc; i++)
		for (size_t v = 0; v < vcd_var_count(p); v++)
			if (strcmp(vcd_var_at(p, v)->path, argv[i]) == 0)
				vcd_watch(p, v, (unsigned)i);
	unsigned long long changes = 0, times = 0, bad = 0;
	uint64_t t;
	struct vcd_change ch;
	for (;;) {
		enum vcd_event ev = vcd_next(p, &t, &ch, &e);
		if (ev == VCD_EOF || ev == VCD_FATAL)
			break;
		if (ev == VCD_CHANGE)
			changes++;
		else if (ev == VCD_TIME)
			times++;
		else
			bad++;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	double wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
	unsigned long long n = vcd_bytes_read(p);
	printf("%llu bytes, %llu time steps, %llu watched changes, %llu malformed; "
	       "%.3f s wall (%.1f MB/s), %.3f s CPU (%.1f MB/s)\n",
	       n, times, changes, bad, wall, (double)n / wall / 1e6, cpu, (double)n / cpu / 1e6);
	vcd_free(p);
	fclose(fp);
	return 0;
}
