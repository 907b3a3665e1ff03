/* fuzz_csv: the input is a protocol-analyzer export (reader_csv.c): any
 * delimited layout with a header, aligned columns, or a headerless layout
 * (Agilent record dumps, the FPGA sniffer's CSV), read from memory;
 * every record is read and decoded.  Covers the delimiter, header and
 * column detection, the value parsers (times with units, grouped digits
 * and decimal commas, directions, type names, credits in bytes), raw-byte
 * rows with framing symbols, rows of decoded fields, and the packet
 * number of a row.  Then the same bytes as --dump-columns reads them
 * (cli/dump_columns.c, through reader_next()), which also opens a table
 * of unknown or missing columns (the saved header and rows replayed,
 * issue 12). */
#include <stddef.h>
#include <stdint.h>

#include "cli/dump_columns.h"
#include "fuzz_common.h"
#include "read/csv/reader_csv.h"
#include "read/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_dump_columns(const uint8_t *data, size_t size)
{
	struct csv_options o;
	struct reader_opts opts = { .format = INPUT_CSV, .csv = &o, .csv_steered = true };
	char err[512];
	FILE *fp = fuzz_memfile(data, size), *out;
	struct reader *r;

	if (!fp)
		return;
	csv_options_init(&o);
	o.dump_only = true;
	err[0] = '\0';
	r = reader_open_stream(fp, "fuzz", true, &opts, err, sizeof(err));
	if (!r) {
		/* the stream is closed by reader_open_stream on failure */
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\0', sizeof(err)));
		return;
	}
	out = fuzz_devnull();
	if (out)
		dump_columns(out, "fuzz", r);
	reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_input(data, size, INPUT_CSV);
	fuzz_dump_columns(data, size);
	return 0;
}
