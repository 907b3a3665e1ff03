/* decompress.c: gzip (zlib) and zstd (libzstd) inputs as a stdio stream of
 * their uncompressed bytes, through fopencookie (capture-format.md
 * section 5).
 *
 * One cookie read fills the caller's buffer from a fixed input buffer:
 *
 *     under --fread--> in[DZ_IN_SIZE] --inflate / ZSTD_decompressStream--> buf
 *
 * The stream is a sequence of gzip members (RFC 1952 section 2.2: "a gzip
 * file consists of a series of members") or of zstd frames (RFC 8878
 * section 3: "zstd compressed data is made up of one or more frames"); it
 * may end only where one ends (at_boundary).  Anything else is an error
 * that stops the stream for good: the bytes of a damaged member cannot be
 * trusted, and nothing after them can be framed.  Bytes after the last
 * member that are not another member (trailing garbage, zero padding) are
 * such an error too, so that no byte of the file goes unaccounted for.
 * The zstd window is held to libzstd's default limit (2^27 bytes): a frame
 * that needs more is refused, not given the memory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "base/attrs.h"
#include "read/decompress.h"

#define DZ_IN_SIZE (1u << 16)

struct decompress {
	FILE *under;
	const char *name;
	enum compression kind;
	z_stream z;
	bool z_init;
	ZSTD_DStream *zs;
	bool at_boundary; /* between members or frames: the end may come */
	bool in_eof; /* under has no more bytes */
	bool failed;
	uint64_t in_consumed; /* compressed bytes read from under */
	uint64_t out_total; /* uncompressed bytes delivered */
	uint64_t members; /* gzip members or zstd frames completed */
	size_t in_len, in_pos;
	char error[256];
	unsigned char in[DZ_IN_SIZE]; /* last: not zeroed (decompress_open) */
};

enum compression decompress_detect(const unsigned char *head, size_t len)
{
	if (len >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		return COMP_GZIP;
	if (len >= 4 && head[0] == 0x28 && head[1] == 0xb5 && head[2] == 0x2f && head[3] == 0xfd)
		return COMP_ZSTD;
	/* a skippable frame (RFC 8878 section 3.1.2): magic 0x184D2A5?, LE */
	if (len >= 4 && (head[0] & 0xf0) == 0x50 && head[1] == 0x2a && head[2] == 0x4d &&
	    head[3] == 0x18)
		return COMP_ZSTD;
	return COMP_NONE;
}

const char *compression_name(enum compression c)
{
	switch (c) {
	case COMP_GZIP:
		return "gzip";
	case COMP_ZSTD:
		return "zstd";
	default:
		return "none";
	}
}

static COLD_PATH void dz_fail(struct decompress *d, const char *fmt, ...) PRINTF_LIKE(2, 3);

/* Stops the stream: every later read fails with errno EIO. */
static void dz_fail(struct decompress *d, const char *fmt, ...)
{
	char what[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	d->failed = true;
	snprintf(d->error, sizeof(d->error),
	         "%s: %s data %s at uncompressed byte %llu (compressed byte %llu)", d->name,
	         compression_name(d->kind), what, (unsigned long long)d->out_total,
	         (unsigned long long)(d->in_consumed - (d->in_len - d->in_pos)));
}

/* Reads more compressed bytes once the buffer is used up. */
static bool dz_refill(struct decompress *d)
{
	if (d->in_pos < d->in_len || d->in_eof)
		return true;
	size_t n = fread(d->in, 1, sizeof(d->in), d->under);
	d->in_len = n;
	d->in_pos = 0;
	d->in_consumed += n;
	if (n == 0) {
		if (ferror(d->under)) {
			dz_fail(d, "cannot be read (%s)", strerror(errno));
			return false;
		}
		d->in_eof = true;
	}
	return true;
}

/* One decoder call into buf; *produced bytes written. */
static bool dz_step_gzip(struct decompress *d, char *buf, size_t size, size_t *produced)
{
	if (d->at_boundary) {
		/* another member follows: it must be one (RFC 1952 2.2) */
		inflateReset(&d->z);
		d->at_boundary = false;
	}
	d->z.next_in = d->in + d->in_pos;
	d->z.avail_in = (uInt)(d->in_len - d->in_pos);
	d->z.next_out = (Bytef *)buf;
	d->z.avail_out = size > UINT32_MAX ? UINT32_MAX : (uInt)size;
	int rc = inflate(&d->z, Z_NO_FLUSH);
	*produced = (size_t)((char *)d->z.next_out - buf);
	d->in_pos = d->in_len - d->z.avail_in;
	d->out_total += *produced;
	if (rc == Z_STREAM_END) {
		d->at_boundary = true;
		d->members++;
		return true;
	}
	if (rc == Z_OK || rc == Z_BUF_ERROR) /* no progress without input */
		return true;
	if (rc == Z_MEM_ERROR)
		dz_fail(d, "cannot be decompressed (out of memory)");
	else if (d->members > 0 && rc == Z_DATA_ERROR && d->z.total_out == 0)
		dz_fail(d, "ends with bytes that are not a gzip member (%s)",
		        d->z.msg ? d->z.msg : "invalid header");
	else
		dz_fail(d, "corrupt (%s)", d->z.msg ? d->z.msg : "invalid data");
	return false;
}

static bool dz_step_zstd(struct decompress *d, char *buf, size_t size, size_t *produced)
{
	ZSTD_inBuffer in = { d->in + d->in_pos, d->in_len - d->in_pos, 0 };
	ZSTD_outBuffer out = { buf, size, 0 };
	size_t rc = ZSTD_decompressStream(d->zs, &out, &in);
	*produced = out.pos;
	d->in_pos += in.pos;
	d->out_total += out.pos;
	if (ZSTD_isError(rc)) {
		if (d->members > 0 && d->at_boundary && out.pos == 0)
			dz_fail(d, "ends with bytes that are not a zstd frame (%s)",
			        ZSTD_getErrorName(rc));
		else
			dz_fail(d, "corrupt (%s)", ZSTD_getErrorName(rc));
		return false;
	}
	/* 0: a frame is complete and flushed; the next call starts another */
	if (rc == 0) {
		if (!d->at_boundary)
			d->members++;
		d->at_boundary = true;
	} else if (in.pos > 0 || out.pos > 0) {
		d->at_boundary = false;
	}
	return true;
}

static ssize_t dz_read(void *cookie, char *buf, size_t size)
{
	struct decompress *d = cookie;
	size_t out = 0;
	while (out == 0 && size > 0 && !d->failed) {
		if (!dz_refill(d))
			break;
		bool no_input = d->in_pos == d->in_len;
		if (no_input && d->at_boundary)
			return 0; /* the end, where a member or frame ends */
		size_t produced = 0;
		bool ok = d->kind == COMP_GZIP ? dz_step_gzip(d, buf, size, &produced)
		                               : dz_step_zstd(d, buf, size, &produced);
		out += produced; /* delivered even when the call then failed */
		if (!ok)
			break;
		if (produced == 0 && no_input && !d->at_boundary)
			dz_fail(d, "truncated: the file ends inside a %s",
			        d->kind == COMP_GZIP ? "member" : "frame");
	}
	if (out > 0)
		return (ssize_t)out; /* the error, if any, comes at the next read */
	if (d->failed) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* Position queries only (ftell: offset 0 from the current position), so
 * that a reader can ask where it is in the uncompressed stream. */
static int dz_seek(void *cookie, off64_t *offset, int whence)
{
	struct decompress *d = cookie;
	if (whence != SEEK_CUR || *offset != 0) {
		errno = ESPIPE;
		return -1;
	}
	*offset = (off64_t)d->out_total;
	return 0;
}

static void dz_free(struct decompress *d)
{
	if (d->z_init)
		inflateEnd(&d->z);
	if (d->zs)
		ZSTD_freeDStream(d->zs);
	free(d);
}

static int dz_close(void *cookie)
{
	struct decompress *d = cookie;
	int rc = d->under == stdin ? 0 : fclose(d->under);
	dz_free(d);
	return rc;
}

FILE *decompress_open(FILE *under, enum compression c, const char *name, struct decompress **dz,
                      char *err, size_t errlen)
{
	/* everything but the input buffer zeroed: 64 KiB less to clear for
	 * every compressed input (and every run of fuzz_decompress) */
	struct decompress *d = malloc(sizeof(*d));
	if (!d)
		goto nomem;
	memset(d, 0, offsetof(struct decompress, in));
	d->under = under;
	d->name = name;
	d->kind = c;
	if (c == COMP_GZIP) {
		/* 15 + 16: a gzip wrapper, the largest window */
		if (inflateInit2(&d->z, 15 + 16) != Z_OK)
			goto nomem;
		d->z_init = true;
	} else {
		d->zs = ZSTD_createDStream();
		if (!d->zs || ZSTD_isError(ZSTD_initDStream(d->zs)))
			goto nomem;
	}
	cookie_io_functions_t io = { .read = dz_read, .seek = dz_seek, .close = dz_close };
	FILE *fp = fopencookie(d, "r", io);
	if (!fp)
		goto nomem;
	/* stdio's own buffer (BUFSIZ, 8 KiB) in front of dz_read; a larger
	 * fread goes to dz_read whole.  (A setvbuf() here without a buffer
	 * changed nothing: glibc ignores the size then.) */
	*dz = d;
	return fp;
nomem:
	snprintf(err, errlen, "%s: out of memory for %s decompression", name, compression_name(c));
	if (d)
		dz_free(d);
	if (under != stdin)
		fclose(under);
	return NULL;
}

const char *decompress_error(const struct decompress *dz)
{
	return dz && dz->failed ? dz->error : NULL;
}

uint64_t decompress_offset(const struct decompress *dz)
{
	return dz ? dz->out_total : 0;
}
