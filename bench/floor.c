/* floor.c: the physical limit of reading a capture through libpcap.
 *
 *   floor [-b BYTES] FILE.pcap
 *
 * Opens the file with libpcap (nanosecond precision, as dllpcheck does;
 * with -b through a stdio stream with a buffer of BYTES, as dllpcheck may),
 * loops pcap_next_ex over every record and touches every captured byte
 * (a sum, so that the compiler cannot drop the reads), then prints the
 * record count, the byte count and the sum.  Nothing is checked: any
 * analysis of the same file through libpcap takes at least this long.
 */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	size_t bufsize = 0;
	if (argc == 4 && strcmp(argv[1], "-b") == 0) {
		bufsize = strtoul(argv[2], NULL, 10);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: floor [-b BYTES] FILE.pcap\n");
		return 2;
	}
	pcap_t *p;
	if (bufsize) {
		FILE *fp = fopen(argv[1], "rb");
		if (!fp || setvbuf(fp, malloc(bufsize), _IOFBF, bufsize) != 0) {
			perror(argv[1]);
			return 2;
		}
		p = pcap_fopen_offline_with_tstamp_precision(
			fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	} else {
		p = pcap_open_offline_with_tstamp_precision(
			argv[1], PCAP_TSTAMP_PRECISION_NANO, errbuf);
	}
	if (!p) {
		fprintf(stderr, "floor: %s: %s\n", argv[1], errbuf);
		return 2;
	}
	struct pcap_pkthdr *hdr;
	const u_char *data;
	uint64_t records = 0, bytes = 0, sum = 0;
	int rc;
	while ((rc = pcap_next_ex(p, &hdr, &data)) == 1) {
		records++;
		bytes += hdr->caplen;
		/* every byte, eight at a time where it can */
		uint32_t n = hdr->caplen, i = 0;
		uint64_t acc = 0;
		for (; i + 8 <= n; i += 8) {
			uint64_t w;
			memcpy(&w, data + i, 8);
			acc += w;
		}
		for (; i < n; i++)
			acc += data[i];
		sum += acc ^ (uint64_t)hdr->ts.tv_usec;
	}
	if (rc != PCAP_ERROR_BREAK) {
		fprintf(stderr, "floor: %s: %s\n", argv[1], pcap_geterr(p));
		pcap_close(p);
		return 1;
	}
	pcap_close(p);
	printf("%llu records, %llu bytes, sum %016llx\n", (unsigned long long)records,
	       (unsigned long long)bytes, (unsigned long long)sum);
	return 0;
}
