/* fuzz_csv: the input is a protocol-analyzer export (reader_csv.c): any
 * delimited layout with a header, aligned columns, or a headerless layout
 * (Agilent record dumps, the FPGA sniffer's CSV), read from memory;
 * every record is read and decoded.  Covers the delimiter, header and
 * column detection, the value parsers (times with units and grouped
 * digits, directions, type names, credits in bytes), raw-byte rows with
 * framing symbols, and rows of decoded fields. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fuzz_read_input(data, size, INPUT_CSV);
}
