/* fuzz_decompress: the gzip and zstd layer (decompress.c) and the reader
 * stack on top of it (reader.c: detection, the replayed head, the fatal
 * record of a stream that stops early).
 *
 *   byte 0   options
 *            bit 0     through reader_open_stream() and reader_each()
 *                      (else decompress_open() and freads)
 *            bit 1     read as a pipe (not seekable)
 *            bits 3:2  fread size: 1, 7, 4096 or 65536 bytes
 *            bit 4     no magic at the start: decompress as zstd (else gzip)
 *   rest     the compressed file
 *
 * Invariants: the bytes delivered are what decompress_offset() counts;
 * once the stream fails it stays failed, decompress_error() names the
 * file, and no more bytes come; a zstd stream that decompresses cleanly
 * (within 1 MiB) gives what ZSTD_decompress() gives for the whole input;
 * through the reader, a read error of the stream ends in READER_FATAL.
 * Output is capped (FUZZ_OUT_MAX) so that a small bomb stays cheap.
 * A violated invariant traps. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "read/decompress.h"
#include "fuzz_common.h"
#include "read/reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_OUT_MAX (1u << 20)
#define FUZZ_RECORDS_MAX 100000u

struct count_visit {
	uint64_t records;
	bool fatal, after_fatal;
};

static bool count_record(void *ctx, enum reader_result res, const struct record *rec,
                         const struct reader_malformed *bad)
{
	struct count_visit *v = ctx;
	FUZZ_ASSERT(!v->fatal); /* nothing after a fatal */
	if (res == READER_RECORD)
		fuzz_check_record(rec);
	else
		FUZZ_ASSERT(memchr(bad->reason, '\0', sizeof(bad->reason)) != NULL);
	if (res == READER_FATAL)
		v->fatal = true;
	return ++v->records < FUZZ_RECORDS_MAX;
}

static void through_reader(FILE *fp, bool seekable)
{
	struct reader_opts opts = { .format = INPUT_AUTO, .dlt = 147 };
	char err[512];
	struct reader *r = reader_open_stream(fp, "fuzz", seekable, &opts, err, sizeof(err));
	if (!r) {
		FUZZ_ASSERT(memchr(err, '\0', sizeof(err)) != NULL);
		return;
	}
	struct count_visit v = { 0, false, false };
	reader_each(r, count_record, &v);
	/* a decompressed stream that failed is never a silent end */
	if (r->dz && decompress_error(r->dz) && v.records < FUZZ_RECORDS_MAX)
		FUZZ_ASSERT(v.fatal);
	reader_close(r);
}

static void direct(FILE *fp, const uint8_t *data, size_t size, uint8_t o)
{
	static const size_t chunks[4] = { 1, 7, 4096, 65536 };
	enum compression c = decompress_detect(data, size);
	if (c == COMP_NONE)
		c = o & 0x10 ? COMP_ZSTD : COMP_GZIP;
	struct decompress *dz = NULL;
	char err[256];
	FILE *in = decompress_open(fp, c, "fuzz", &dz, err, sizeof(err));
	if (!in)
		return;
	size_t chunk = chunks[o >> 2 & 3];
	/* grown with the output: a buffer of the cap's size on every run
	 * would be a fresh mapping each time (ASan's large allocations), most
	 * of the run's time */
	size_t cap = 65536;
	unsigned char *out = malloc(cap);
	FUZZ_ASSERT(out != NULL);
	size_t total = 0;
	for (;;) {
		if (total + chunk > cap) {
			cap = cap * 2 >= total + chunk ? cap * 2 : total + chunk;
			out = realloc(out, cap);
			FUZZ_ASSERT(out != NULL);
		}
		size_t n = fread(out + total, 1, chunk, in);
		total += n;
		FUZZ_ASSERT(decompress_offset(dz) >= total);
		if (n < chunk || total >= FUZZ_OUT_MAX)
			break;
	}
	bool failed = decompress_error(dz) != NULL;
	if (total < FUZZ_OUT_MAX) {
		/* the end: everything delivered was counted, and the end sticks */
		FUZZ_ASSERT(decompress_offset(dz) == total);
		FUZZ_ASSERT(fread(out, 1, 1, in) == 0);
		FUZZ_ASSERT(failed == (ferror(in) != 0));
		if (failed)
			FUZZ_ASSERT(strncmp(decompress_error(dz), "fuzz: ", 6) == 0);
		if (!failed && c == COMP_ZSTD && decompress_detect(data, size) == COMP_ZSTD) {
			/* one byte more than delivered: more would not fit */
			unsigned char *ref = malloc(total + 1);
			FUZZ_ASSERT(ref != NULL);
			size_t rn = ZSTD_decompress(ref, total + 1, data, size);
			FUZZ_ASSERT(!ZSTD_isError(rn) && rn == total);
			FUZZ_ASSERT(memcmp(ref, out, total) == 0);
			free(ref);
		}
	}
	free(out);
	fclose(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t o = data[0];
	data++;
	size--;
	FILE *fp = fuzz_memfile(data, size);
	if (!fp)
		return 0;
	if (o & 1)
		through_reader(fp, !(o & 2));
	else
		direct(fp, data, size, o);
	return 0;
}
