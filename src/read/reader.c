/* reader.c: opens an input, finds its format and checks every record
 * against the size its kind requires (capture-format.md section 1) so that
 * each reader yields records of one shape.
 *
 * Format detection: gzip or zstd magic bytes first put the decompressor
 * (decompress.h) in front of the stream, and the format is that of the
 * bytes inside.  A pcap (either byte order, micro- or nanosecond) or
 * pcapng magic number in the first 4 bytes means the own pcap or pcapng
 * reader (reader_pcapfile.c, reader_pcapngfile.c; libpcap, reader_pcap.c,
 * for a file forced to pcap that has neither); binary data that is no
 * capture (not_capture.h) is refused; a VCD (vcd_sniff: its first word
 * is a header keyword, capture-format.md section 4) goes to the lane
 * reader (read/lanes/reader_vcd.c); otherwise the
 * first READER_HEAD_MAX bytes go to csv_sniff(), which tells an analyzer
 * export from a text trace (an export option given also means export).  Standard input cannot be rewound, so the bytes
 * used to detect the format are handed back through a small stdio cookie.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/stream_window.h"
#include "read/csv/reader_csv.h"
#include "read/decompress.h"
#include "read/not_capture.h"
#include "read/pcap_file.h"
#include "read/reader.h"
#include "wire/tlp.h"

/* Bytes read before choosing a format: enough for an export's banner and
 * header lines. */
#define READER_HEAD_MAX 4096u

/* --- standard input with the peeked bytes put back ----------------------- */

struct peeked_stream {
	FILE *under;
	unsigned char head[READER_HEAD_MAX];
	size_t head_len, head_pos;
	uint64_t delivered; /* bytes read through it: its position */
};

static ssize_t peeked_read(void *cookie, char *buf, size_t size)
{
	struct peeked_stream *ps = cookie;
	size_t n = 0;
	while (n < size && ps->head_pos < ps->head_len)
		buf[n++] = (char)ps->head[ps->head_pos++];
	if (n < size)
		n += fread(buf + n, 1, size - n, ps->under);
	if (n == 0 && ferror(ps->under))
		return -1;
	ps->delivered += n;
	return (ssize_t)n;
}

/* Position queries only (ftell), as for a decompressed stream: a reader
 * that asks where a record starts (pcapng) gets the answer on a pipe too. */
static int peeked_seek(void *cookie, off64_t *offset, int whence)
{
	struct peeked_stream *ps = cookie;
	if (whence != SEEK_CUR || *offset != 0) {
		errno = ESPIPE;
		return -1;
	}
	*offset = (off64_t)ps->delivered;
	return 0;
}

static int peeked_close(void *cookie)
{
	struct peeked_stream *ps = cookie;
	int rc = ps->under == stdin ? 0 : fclose(ps->under);
	free(ps);
	return rc;
}

static FILE *reopen_with_head(FILE *under, const unsigned char *head, size_t head_len)
{
	struct peeked_stream *ps = calloc(1, sizeof(*ps));
	if (!ps)
		return NULL;
	ps->under = under;
	memcpy(ps->head, head, head_len);
	ps->head_len = head_len;
	cookie_io_functions_t io = { .read = peeked_read,
		                     .seek = peeked_seek,
		                     .close = peeked_close };
	FILE *fp = fopencookie(ps, "r", io);
	if (!fp)
		free(ps);
	return fp;
}

/* --- the readers: one registration table --------------------------------
 *
 * One entry per reader, in the order they are tried for an input of their
 * format: the first whose takes() accepts the first bytes reads it.  Every
 * open() takes the stream over and closes it on failure, with err filled:
 * one contract for every reader. */
struct reader_format {
	enum input_format format;
	bool (*takes)(const unsigned char *head, size_t len);
	void *(*open)(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
	              size_t errlen);
	const struct reader_ops *ops;
	const char *format_name;
	const char *(*name_of)(void *state); /* instead of format_name */
};

static bool takes_any(const unsigned char *head, size_t len)
{
	(void)head;
	(void)len;
	return true;
}

static bool takes_pcap(const unsigned char *head, size_t len)
{
	return pcap_file_magic(head, len);
}

static bool takes_pcapng(const unsigned char *head, size_t len)
{
	return len >= 4 && memcmp(head, "\x0a\x0d\x0d\x0a", 4) == 0;
}

/* classic pcap: the own reader, which reads on past a damaged record
 * header (libpcap stays the reference, reader_pcap.c) */
static void *open_pcapfile(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                           size_t errlen)
{
	return pcapfile_reader_open(fp, name, opts, err, errlen);
}

static void *open_pcapngfile(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                             size_t errlen)
{
	return pcapngfile_reader_open(fp, name, opts, err, errlen);
}

/* a file forced to pcap that has neither magic number: libpcap says why
 * it cannot read it */
static void *open_libpcap(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                          size_t errlen)
{
	return pcap_reader_new(fp, name, opts->dlt, err, errlen);
}

static void *open_csv(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                      size_t errlen)
{
	void *state = csv_reader_new(fp, name, opts->csv, err, errlen);
	if (!state)
		fclose(fp); /* csv_reader_new() leaves fp with its caller */
	return state;
}

static void *open_text(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                       size_t errlen)
{
	(void)opts;
	void *state = text_reader_new(fp, name);
	if (!state) {
		snprintf(err, errlen, "%s: out of memory", name);
		fclose(fp);
	}
	return state;
}

static void *open_vcd(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                      size_t errlen)
{
	return vcd_reader_new(fp, name, opts->lanes, err, errlen);
}

static const struct reader_format reader_formats[] = {
	{ INPUT_PCAP, takes_pcap, open_pcapfile, &pcapfile_reader_ops, "pcap", NULL },
	{ INPUT_PCAP, takes_pcapng, open_pcapngfile, &pcapngfile_reader_ops, "pcapng", NULL },
	{ INPUT_PCAP, takes_any, open_libpcap, &pcap_reader_ops, "pcap", NULL },
	{ INPUT_CSV, takes_any, open_csv, &csv_reader_ops, NULL, csv_reader_format },
	{ INPUT_VCD, takes_any, open_vcd, &vcd_reader_ops, "vcd", NULL },
	{ INPUT_TEXT, takes_any, open_text, &text_reader_ops, "text", NULL },
};

static const struct reader_format *reader_format_for(enum input_format fmt,
                                                     const unsigned char *head, size_t len)
{
	const size_t n = sizeof(reader_formats) / sizeof(reader_formats[0]);
	for (size_t i = 0; i < n; i++)
		if (reader_formats[i].format == fmt && reader_formats[i].takes(head, len))
			return &reader_formats[i];
	return &reader_formats[n - 1]; /* the text trace takes anything */
}

struct reader *reader_open(const char *path, const struct reader_opts *opts, char *err,
                           size_t errlen)
{
	if (strcmp(path, "-") == 0)
		return reader_open_stream(stdin, "-", false, opts, err, errlen);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	/* before any read: setvbuf is allowed only then; without the memory
	 * the default buffer does.  A file smaller than the buffer gets one
	 * of its size (sw_size_for asks the file, not the stream): a batch
	 * of small captures does not pay for a megabyte each. */
	size_t iobuf_size = sw_size_for(fp, READER_IOBUF_SIZE);
	char *iobuf = malloc(iobuf_size);
	if (iobuf && setvbuf(fp, iobuf, _IOFBF, iobuf_size) != 0) {
		free(iobuf);
		iobuf = NULL;
	}
	/* a FIFO or a device (a shell's <(zcat cap.gz)) cannot be rewound
	 * after the format is detected: its first bytes are replayed */
	struct stat st;
	bool seekable = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);
	struct reader *r = reader_open_stream(fp, path, seekable, opts, err, errlen);
	if (r)
		r->iobuf = iobuf;
	else
		free(iobuf); /* the stream is closed already */
	return r;
}

/* Hands the bytes read to detect a format back: fp rewound, or (a pipe)
 * read again through a stream that replays them.  NULL (fp closed, err
 * set) on failure. */
static FILE *give_back(FILE *fp, bool seekable, const unsigned char *head, size_t head_len,
                       const char *name, char *err, size_t errlen)
{
	if (!seekable) {
		FILE *replay = reopen_with_head(fp, head, head_len);
		if (!replay) {
			snprintf(err, errlen, "%s: out of memory", name);
			fclose(fp);
		}
		return replay;
	}
	if (fseek(fp, 0, SEEK_SET) != 0) {
		snprintf(err, errlen, "%s: cannot rewind: %s", name, strerror(errno));
		fclose(fp);
		return NULL;
	}
	return fp;
}

/* A gzip or zstd input: the stream of its uncompressed bytes in place of
 * fp, their first bytes in head (capture-format.md section 5).  NULL
 * (the stream closed, err set) when not one byte can be decompressed. */
static FILE *open_decompressed(FILE *fp, bool seekable, enum compression comp, unsigned char *head,
                               size_t *head_len, const char *name, struct decompress **dz,
                               char *err, size_t errlen)
{
	fp = give_back(fp, seekable, head, *head_len, name, err, errlen);
	if (!fp)
		return NULL;
	fp = decompress_open(fp, comp, name, dz, err, errlen);
	if (!fp)
		return NULL;
	*head_len = fread(head, 1, READER_HEAD_MAX, fp);
	if (*head_len > 0)
		return fp; /* a later error is met by the reader, after these bytes */
	const char *why = decompress_error(*dz);
	if (why)
		snprintf(err, errlen, "%s; not one byte could be decompressed", why);
	else
		snprintf(err, errlen, "%s: %s data that decompresses to nothing (0 bytes)", name,
		         compression_name(comp));
	fclose(fp);
	return NULL;
}

struct reader *reader_open_stream(FILE *fp, const char *name, bool seekable,
                                  const struct reader_opts *opts, char *err, size_t errlen)
{
	unsigned char head[READER_HEAD_MAX];
	size_t head_len = fread(head, 1, sizeof(head), fp);
	if (head_len < sizeof(head) && ferror(fp)) {
		snprintf(err, errlen, "%s: cannot read: %s", name, strerror(errno));
		fclose(fp);
		return NULL;
	}
	if (head_len == 0) {
		/* Nothing to check is not a clean result: a conformance run over
		 * an empty capture must not pass silently. */
		snprintf(err, errlen, "%s: empty input (0 bytes)", name);
		fclose(fp);
		return NULL;
	}
	/* Compressed, whatever the file is called: the format is that of the
	 * bytes inside, and every reader reads those. */
	struct decompress *dz = NULL;
	enum compression comp = decompress_detect(head, head_len);
	if (comp != COMP_NONE) {
		fp = open_decompressed(fp, seekable, comp, head, &head_len, name, &dz, err, errlen);
		if (!fp)
			return NULL;
		seekable = false;
	}
	enum input_format fmt = opts->format;
	if (fmt == INPUT_AUTO) {
		char what[300];
		if (takes_pcap(head, head_len) || takes_pcapng(head, head_len)) {
			fmt = INPUT_PCAP;
		} else if (vcd_sniff(head, head_len)) {
			fmt = INPUT_VCD; /* before the binary check: a VCD is text */
		} else if (not_capture(head, head_len, what, sizeof(what))) {
			/* binary data read as text would be a malformed line per
			 * newline byte: one input error instead (rules.md, exit status) */
			snprintf(err, errlen, "%s: %s%s%s", name, dz ? compression_name(comp) : "",
			         dz ? " data holding " : "", what);
			fclose(fp);
			return NULL;
		} else if (opts->csv_steered || csv_sniff(head, head_len)) {
			fmt = INPUT_CSV;
		} else {
			fmt = INPUT_TEXT;
		}
	}

	/* Give the detection bytes back. */
	fp = give_back(fp, seekable, head, head_len, name, err, errlen);
	if (!fp)
		return NULL;

	struct reader *r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", name);
		fclose(fp);
		return NULL;
	}
	r->name = name;
	r->dz = dz;
	r->compression = dz ? compression_name(comp) : NULL;
	const struct reader_format *f = reader_format_for(fmt, head, head_len);
	r->ops = f->ops;
	r->state = f->open(fp, name, opts, err, errlen);
	if (r->state) {
		r->format_name = f->name_of ? f->name_of(r->state) : f->format_name;
		r->encapsulation = r->ops->encapsulation ? r->ops->encapsulation(r->state) : NULL;
	}
	if (!r->state) {
		free(r);
		return NULL;
	}
	return r;
}

bool reader_record_bad(const struct record *rec, struct reader_malformed *bad)
{
	if (record_check_full(rec, bad->reason, sizeof(bad->reason)))
		return true;
	bad->pos = rec->pos;
	/* the record header was readable: its direction, link and kind are
	 * known */
	bad->has_dir = bad->has_link = true;
	bad->dir = rec->dir;
	bad->link = rec->link;
	bad->kind = (uint8_t)rec->kind;
	bad->column = 0;
	return false;
}

/* --- a decompressed input that stops early -------------------------------
 * The format reader sees a read error (EIO) where the compressed data is
 * corrupt or cut; the fatal record it reports then says what the
 * decompressor found and where (capture-format.md section 5), and a
 * reader that took the error for the end of the input cannot end it
 * silently. */

static void decompress_reason(const struct reader *r, struct reader_malformed *bad)
{
	snprintf(bad->reason, sizeof(bad->reason), "%s", decompress_error(r->dz));
}

/* A READER_FATAL for a stream that ended early after record last_record. */
static void decompress_fatal(const struct reader *r, uint64_t last_record,
                             struct reader_malformed *bad)
{
	memset(bad, 0, sizeof(*bad));
	bad->pos.file = r->name;
	bad->pos.record_no = last_record + 1;
	bad->pos.byte_offset = decompress_offset(r->dz);
	decompress_reason(r, bad);
}

static enum reader_result next_record(struct reader *r, struct record *rec,
                                      struct reader_malformed *bad)
{
	/* every field a reader does not set is 0 */
	memset(rec, 0, sizeof(*rec));
	/* readers fill bad->pos field by field */
	reader_malformed_reset(bad);
	enum reader_result res = r->ops->next(r->state, rec, bad);
	if (res != READER_RECORD)
		return res;
	return reader_record_ok(rec, bad) ? READER_RECORD : READER_MALFORMED;
}

enum reader_result reader_next(struct reader *r, struct record *rec, struct reader_malformed *bad)
{
	enum reader_result res = next_record(r, rec, bad);
	if (!r->dz)
		return res;
	if (res == READER_RECORD || res == READER_MALFORMED) {
		r->dz_last_record = res == READER_RECORD ? rec->pos.record_no : bad->pos.record_no;
		return res;
	}
	if (!decompress_error(r->dz) || r->dz_reported)
		return res;
	if (res == READER_FATAL)
		decompress_reason(r, bad);
	else
		decompress_fatal(r, r->dz_last_record, bad);
	r->dz_reported = true;
	return READER_FATAL;
}

struct dz_visit {
	struct reader *r;
	reader_visit_fn visit;
	void *ctx;
	uint64_t last_record;
	bool fatal, stopped;
};

static bool dz_visit_record(void *ctx, enum reader_result res, const struct record *rec,
                            const struct reader_malformed *bad)
{
	struct dz_visit *v = ctx;
	struct reader_malformed why;
	v->last_record = res == READER_RECORD ? rec->pos.record_no : bad->pos.record_no;
	if (res == READER_FATAL) {
		v->fatal = true;
		if (decompress_error(v->r->dz)) {
			why = *bad;
			decompress_reason(v->r, &why);
			bad = &why;
		}
	}
	if (!v->visit(v->ctx, res, rec, bad))
		v->stopped = true;
	return !v->stopped;
}

void reader_each(struct reader *r, reader_visit_fn visit, void *ctx)
{
	if (r->dz) {
		struct dz_visit v = { r, visit, ctx, 0, false, false };
		if (!r->ops->each || !r->ops->each(r->state, dz_visit_record, &v)) {
			struct record rec;
			struct reader_malformed bad;
			for (;;) {
				enum reader_result res = next_record(r, &rec, &bad);
				if (res == READER_EOF || !dz_visit_record(&v, res, &rec, &bad) ||
				    res == READER_FATAL)
					break;
			}
		}
		if (!v.fatal && !v.stopped && decompress_error(r->dz)) {
			struct record rec;
			struct reader_malformed bad;
			memset(&rec, 0, sizeof(rec));
			decompress_fatal(r, v.last_record, &bad);
			visit(ctx, READER_FATAL, &rec, &bad);
		}
		return;
	}
	if (r->ops->each && r->ops->each(r->state, visit, ctx))
		return;
	struct record rec;
	struct reader_malformed bad;
	for (;;) {
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF || !visit(ctx, res, &rec, &bad) || res == READER_FATAL)
			return;
	}
}

bool reader_bytes(const struct reader *r, uint64_t *read, uint64_t *skipped)
{
	if (!r->ops->bytes)
		return false;
	r->ops->bytes(r->state, read, skipped);
	return true;
}

void reader_close(struct reader *r)
{
	if (!r)
		return;
	r->ops->close(r->state);
	free(r->iobuf);
	free(r);
}

void reader_resync_report(struct reader_malformed *bad, const char *damaged, const char *unit,
                          const char *why, uint64_t skipped, bool found, uint64_t resume_offset)
{
	bad->skipped = skipped;
	bad->resumed = found;
	if (found)
		snprintf(bad->reason, sizeof(bad->reason),
		         "damaged %s (%s): %llu bytes skipped to the next %s, at offset %llu",
		         damaged, why, (unsigned long long)skipped, unit,
		         (unsigned long long)resume_offset);
	else
		snprintf(bad->reason, sizeof(bad->reason),
		         "damaged %s (%s): no %s follows; %llu bytes left unread", damaged, why,
		         unit, (unsigned long long)skipped);
}
