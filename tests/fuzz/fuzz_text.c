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
	return fuzz_read_input(data, size, INPUT_TEXT);
}
