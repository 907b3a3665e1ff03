/* fuzz_text: the input is a text trace (capture-format.md section 2),
 * read from memory (fmemopen); every record is read and decoded.
 * Covers reader.c (size checks), reader_text.c (tokens, times, keys,
 * symbolic and hex DLLP/TLP/EVENT lines, tlp_encode for symbolic TLPs)
 * and packet/dllp/tlp decoding. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *fp = fuzz_memfile(data, size);
	if (!fp)
		return 0;
	struct reader_opts opts = { .format = INPUT_TEXT, .dlt = 147 };
	char err[512];
	err[0] = '\0';
	struct reader *r = reader_open_stream(fp, "fuzz", true, &opts, err,
	                                      sizeof(err));
	if (!r) {
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\0', sizeof(err)));
		return 0;
	}
	FUZZ_ASSERT(r->format_name != NULL && strcmp(r->format_name, "text") == 0);
	fuzz_drain(r);
	reader_close(r);
	return 0;
}
