/* fuzz_vcd: the input is a VCD of lanes (capture-format.md section 4),
 * read from memory as --input-format vcd; every record is read and
 * checked.  Twice: with the lanes found by name (autodetection), and with
 * a fixed mapping that the first byte chooses (10-bit codes at a clock,
 * 9-bit symbols with valid at a fixed period, PIPE data + k at a falling
 * edge, PIPE 128b/130b data + sync + start + valid), on the bytes after
 * it.  Covers the VCD parser (vcd_*.c), the mapping (lane_options.c,
 * lane_map.c, lane_autodetect.c), lane_sample.c, reader_vcd.c and
 * both lane decoders behind them. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "read/lanes/lane_map.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void read_all(const uint8_t *data, size_t size, const struct lane_options *lanes)
{
	FILE *fp = fuzz_memfile(data, size);
	if (!fp)
		return;
	struct reader_opts opts = { .format = INPUT_VCD, .dlt = 147, .lanes = lanes };
	char err[512];
	err[0] = '\0';
	struct reader *r = reader_open_stream(fp, "fuzz", true, &opts, err, sizeof(err));
	if (!r) {
		/* refused: it says why */
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\0', sizeof(err)));
		return;
	}
	uint64_t digest;
	fuzz_drain(r, &digest);
	reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const maps[][4] = {
		{ "down:code=l*", "up:code=u*", "c", NULL },
		{ "down:sym=l*,valid=v*", NULL, NULL, "1ps" },
		{ "down:data=l*,k=k*", "up:data=u*,k=uk*", "c:falling", NULL },
		{ "down:data=l*,sync=s*,start=b*,valid=v*", NULL, "c", NULL },
	};
	struct lane_options o;
	char err[300];

	read_all(data, size, NULL);
	if (size < 1)
		return 0;
	const char *const *m = maps[data[0] % 4];
	lane_options_init(&o);
	FUZZ_ASSERT(lane_options_add_spec(&o, m[0], err, sizeof(err)));
	if (m[1])
		FUZZ_ASSERT(lane_options_add_spec(&o, m[1], err, sizeof(err)));
	if (m[2])
		FUZZ_ASSERT(lane_options_set_clock(&o, m[2], err, sizeof(err)));
	if (m[3])
		FUZZ_ASSERT(lane_options_set_period(&o, m[3], err, sizeof(err)));
	o.scrambling = (enum lane_scrambling)((data[0] >> 2) % 3);
	read_all(data + 1, size - 1, &o);
	return 0;
}
