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
	FILE *fp = fuzz_memfile(data, size);
	if (!fp)
		return 0;
	struct reader_opts opts = { .format = INPUT_PCAP, .dlt = 147 };
	char err[512];
	err[0] = '\0';
	struct reader *r = reader_open_stream(fp, "fuzz", true, &opts, err,
	                                      sizeof(err));
	if (!r) {
		/* the stream is closed by reader_open_stream on failure */
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\0', sizeof(err)));
		return 0;
	}
	FUZZ_ASSERT(r->format_name != NULL);
	fuzz_drain(r);
	reader_close(r);
	return 0;
}
