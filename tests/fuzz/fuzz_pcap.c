/* fuzz_pcap: the input is a pcap or pcapng file, read through libpcap
 * from memory (fmemopen) with LINKTYPE_USER0; every record is read and
 * decoded.  The bytes are the file: nothing else is taken from them.
 * Covers reader.c (size checks), reader_pcap.c, libpcap's file parsers
 * as dllpcheck drives them, and packet/dllp/tlp decoding. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_read_input(data, size, INPUT_PCAP);
}
