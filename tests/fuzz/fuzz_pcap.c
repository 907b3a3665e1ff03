/* fuzz_pcap: the input is a pcap or pcapng file, read from memory (fmemopen)
 * with LINKTYPE_USER0; every record is read and decoded.  The bytes are the
 * file: nothing else is taken from them.  Covers reader.c (size checks),
 * the own classic pcap reader (reader_pcapfile.c, pcap_file.c) with its
 * resync search, reader_pcap.c and libpcap's file parsers as dllpcheck
 * drives them, and packet/dllp/tlp decoding.
 *
 * For a classic pcap it also runs the differential comparison of
 * tests/pcap_compare.h (capture-format.md section 1): wherever libpcap
 * reads the whole input, both readers must give the same records; where
 * libpcap stops at a damaged record header, the own reader must report
 * capture.resync there and account for every byte after it.  A difference
 * is printed and traps. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../pcap_compare.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_difference(const char *msg)
{
	fprintf(stderr, "fuzz_pcap: readers differ: %s\n", msg);
	__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tally t = { .report = fuzz_difference };
	if (size > 0)
		diff_input(data, size, "fuzz", &t);
	return fuzz_read_input(data, size, INPUT_PCAP);
}
