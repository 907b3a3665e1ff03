/* fuzz_vcd: the input is a VCD of lanes (capture-format.md section 4),
 * read from memory as --input-format vcd; every record is read and
 * checked.  Twice: with the lanes found by name (autodetection), and with
 * a fixed mapping that the first byte chooses (10-bit codes at a clock,
 * 9-bit symbols with valid at a fixed period, PIPE data + k at a falling
 * edge, PIPE 128b/130b data + sync + start + valid), on the bytes after
 * it.  Covers the VCD parser (vcd_*.c), the mapping (lane_options.c,
 * lane_map.c, lane_autodetect.c), lane_sample.c, reader_vcd.c and
 * both lane decoders behind them.
 *
 * A read that passed over repeated samples as fixed points (reader_vcd.c
 * on_repeat) is read again with every sample stepped (vcd_reader_plain)
 * and must give the same results, when it passed over at most
 * PLAIN_CHECK_MAX of them: stepping a long stretch is the cost the trick
 * saves (up to 65,536 symbol times, about 60 ms here), while short
 * stretches already take it through all its paths (the first repeat, the
 * cuts of lane_sample.h after it). */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "read/lanes/lane_map.h"
#include "read/lanes/reader_vcd.h"

#define PLAIN_CHECK_MAX 256u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What reading the input gives (a digest); plain: every sample stepped.
 * *skipped: the samples passed over as fixed points. */
static void read_all(const uint8_t *data, size_t size, const struct lane_options *lanes, bool plain,
                     uint64_t *digest, uint64_t *skipped)
{
	*digest = *skipped = 0;
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
	FUZZ_ASSERT(strcmp(r->format_name, "vcd") == 0);
	if (plain)
		vcd_reader_plain(r->state);
	fuzz_drain(r, digest);
	*skipped = vcd_reader_skipped(r->state);
	FUZZ_ASSERT(!plain || *skipped == 0);
	reader_close(r);
}

static void read_checked(const uint8_t *data, size_t size, const struct lane_options *lanes)
{
	uint64_t digest, skipped, plain_digest, none;
	read_all(data, size, lanes, false, &digest, &skipped);
	if (skipped == 0 || skipped > PLAIN_CHECK_MAX)
		return;
	read_all(data, size, lanes, true, &plain_digest, &none);
	FUZZ_ASSERT(plain_digest == digest);
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

	read_checked(data, size, NULL);
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
	read_checked(data + 1, size - 1, &o);
	return 0;
}
