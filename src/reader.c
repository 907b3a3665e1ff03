/* reader.c: opens an input, finds its format and checks every record
 * against the size its kind requires (capture-format.md section 1) so that
 * each reader yields records of one shape.
 *
 * Format detection: a pcap (either byte order, micro- or nanosecond) or
 * pcapng magic number in the first 4 bytes means the own pcap or pcapng
 * reader (reader_pcapfile.c, reader_pcapngfile.c; libpcap, reader_pcap.c,
 * for a file forced to pcap that has neither); otherwise the
 * first READER_HEAD_MAX bytes go to csv_sniff(), which tells an analyzer
 * export from a text trace (an export option given also means export).  Standard input cannot be rewound, so the bytes
 * used to detect the format are handed back through a small stdio cookie.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcap_file.h"
#include "reader.h"
#include "reader_csv.h"
#include "tlp.h"

/* Bytes read before choosing a format: enough for an export's banner and
 * header lines. */
#define READER_HEAD_MAX 4096u

/* --- standard input with the peeked bytes put back ----------------------- */

struct peeked_stream {
	FILE *under;
	unsigned char head[READER_HEAD_MAX];
	size_t head_len, head_pos;
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
	return (ssize_t)n;
}

static int peeked_close(void *cookie)
{
	struct peeked_stream *ps = cookie;
	int rc = ps->under == stdin ? 0 : fclose(ps->under);
	free(ps);
	return rc;
}

static FILE *reopen_with_head(FILE *under, const unsigned char *head,
                              size_t head_len)
{
	struct peeked_stream *ps = calloc(1, sizeof(*ps));
	if (!ps)
		return NULL;
	ps->under = under;
	memcpy(ps->head, head, head_len);
	ps->head_len = head_len;
	cookie_io_functions_t io = { .read = peeked_read, .close = peeked_close };
	FILE *fp = fopencookie(ps, "r", io);
	if (!fp)
		free(ps);
	return fp;
}

static bool is_pcap_magic(const unsigned char m[4])
{
	static const unsigned char magics[][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xd4, 0xc3, 0xb2, 0xa1 }, /* us */
		{ 0xa1, 0xb2, 0x3c, 0x4d }, { 0x4d, 0x3c, 0xb2, 0xa1 }, /* ns */
		{ 0x0a, 0x0d, 0x0d, 0x0a },                             /* pcapng SHB */
	};
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (memcmp(m, magics[i], 4) == 0)
			return true;
	return false;
}

struct reader *reader_open(const char *path, const struct reader_opts *opts,
                           char *err, size_t errlen)
{
	if (strcmp(path, "-") == 0)
		return reader_open_stream(stdin, "-", false, opts, err, errlen);
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	/* before any read: setvbuf is allowed only then; without the memory
	 * the default buffer does */
	char *iobuf = malloc(READER_IOBUF_SIZE);
	if (iobuf && setvbuf(fp, iobuf, _IOFBF, READER_IOBUF_SIZE) != 0) {
		free(iobuf);
		iobuf = NULL;
	}
	struct reader *r = reader_open_stream(fp, path, true, opts, err, errlen);
	if (r)
		r->iobuf = iobuf;
	else
		free(iobuf); /* the stream is closed already */
	return r;
}

struct reader *reader_open_stream(FILE *fp, const char *name, bool seekable,
                                  const struct reader_opts *opts, char *err,
                                  size_t errlen)
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
	enum input_format fmt = opts->format;
	if (fmt == INPUT_AUTO) {
		if (head_len >= 4 && is_pcap_magic(head))
			fmt = INPUT_PCAP;
		else if (opts->csv_steered || csv_sniff(head, head_len))
			fmt = INPUT_CSV;
		else
			fmt = INPUT_TEXT;
	}

	/* Give the detection bytes back. */
	if (!seekable) {
		FILE *replay = reopen_with_head(fp, head, head_len);
		if (!replay) {
			snprintf(err, errlen, "%s: out of memory", name);
			fclose(fp);
			return NULL;
		}
		fp = replay;
	} else if (fseek(fp, 0, SEEK_SET) != 0) {
		snprintf(err, errlen, "%s: cannot rewind: %s", name, strerror(errno));
		fclose(fp);
		return NULL;
	}

	struct reader *r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "%s: out of memory", name);
		fclose(fp);
		return NULL;
	}
	if (fmt == INPUT_PCAP && pcap_file_magic(head, head_len)) {
		/* classic pcap: the own reader, which reads on past a damaged
		 * record header (libpcap stays the reference, reader_pcap.c) */
		r->ops = &pcapfile_reader_ops;
		r->state = pcapfile_reader_new(fp, name, opts->dlt, err, errlen);
		r->format_name = "pcap";
	} else if (fmt == INPUT_PCAP && head_len >= 4 && memcmp(head, "\x0a\x0d\x0d\x0a", 4) == 0) {
		r->ops = &pcapngfile_reader_ops; /* pcapng: likewise */
		r->state = pcapngfile_reader_new(fp, name, opts->dlt, err, errlen);
		r->format_name = "pcapng";
	} else if (fmt == INPUT_PCAP) {
		r->ops = &pcap_reader_ops;
		r->state = pcap_reader_new(fp, name, opts->dlt, err, errlen);
		r->format_name = head_len >= 4 && head[0] == 0x0a ? "pcapng" : "pcap";
	} else if (fmt == INPUT_CSV) {
		r->ops = &csv_reader_ops;
		r->state = csv_reader_new(fp, name, opts->csv, err, errlen);
		if (r->state)
			r->format_name = csv_reader_format(r->state);
		else
			fclose(fp); /* csv_reader_new() leaves fp with us on failure */
	} else {
		r->ops = &text_reader_ops;
		r->state = text_reader_new(fp, name);
		r->format_name = "text";
		if (!r->state) {
			snprintf(err, errlen, "%s: out of memory", name);
			fclose(fp);
		}
	}
	if (!r->state) {
		free(r);
		return NULL;
	}
	return r;
}

/* The smallest and largest payload (after the pseudo-header) of each kind
 * as it was on the wire; reason set when the record is not of a legal
 * size. */
static bool record_size_ok(const struct record *rec, char *reason,
                           size_t reason_len)
{
	uint32_t min, max;
	const char *what;
	switch (rec->kind) {
	case REC_DLLP:
		min = max = rec->flags & REC_F_NO_CRC ? DLLP_CONTENT_LEN : DLLP_WIRE_LEN;
		what = rec->flags & REC_F_NO_CRC ? "a DLLP without CRC" : "a DLLP";
		break;
	case REC_TLP:
		/* sequence field, a 3 DW header, LCRC */
		min = (rec->flags & REC_F_NO_SEQ ? 0u : 2u) + 12u +
		      (rec->flags & REC_F_NO_CRC ? 0u : 4u);
		max = TLP_MAX_RECORD_LEN;
		what = "a TLP";
		break;
	case REC_EVENT:
		min = max = EVENT_LEN;
		what = "a link event";
		break;
	default:
		snprintf(reason, reason_len, "unknown record kind %u", (unsigned)rec->kind);
		return false;
	}
	if (rec->wire_len < min || rec->wire_len > max) {
		if (min == max)
			snprintf(reason, reason_len, "%s is %u bytes, this record has %u",
			         what, min, rec->wire_len);
		else
			snprintf(reason, reason_len, "%s is %u to %u bytes, this record has %u",
			         what, min, max, rec->wire_len);
		return false;
	}
	return true;
}

static bool event_ok(const struct record *rec, char *reason, size_t reason_len)
{
	if (record_truncated(rec)) {
		snprintf(reason, reason_len, "link event truncated to %u bytes", rec->len);
		return false;
	}
	unsigned code = rec->bytes[0], arg = rec->bytes[1];
	if (code < EV_FIRST || code > EV_LAST) {
		snprintf(reason, reason_len, "unknown link event code %u", code);
		return false;
	}
	if (code == EV_VC_ENABLE ? (arg < 1 || arg > 7) : arg != 0) {
		snprintf(reason, reason_len, "link event %s with argument %u",
		         link_event_name(code), arg);
		return false;
	}
	return true;
}

bool reader_record_ok(const struct record *rec, struct reader_malformed *bad)
{
	if (record_size_ok(rec, bad->reason, sizeof(bad->reason)) &&
	    (rec->kind != REC_EVENT || event_ok(rec, bad->reason, sizeof(bad->reason))))
		return true;
	bad->pos = rec->pos;
	bad->column = 0;
	return false;
}

enum reader_result reader_next(struct reader *r, struct record *rec,
                               struct reader_malformed *bad)
{
	/* every field a reader does not set is 0 */
	memset(rec, 0, sizeof(*rec));
	enum reader_result res = r->ops->next(r->state, rec, bad);
	if (res != READER_RECORD)
		return res;
	return reader_record_ok(rec, bad) ? READER_RECORD : READER_MALFORMED;
}

void reader_each(struct reader *r, reader_visit_fn visit, void *ctx)
{
	if (r->ops->each && r->ops->each(r->state, visit, ctx))
		return;
	struct record rec;
	struct reader_malformed bad;
	for (;;) {
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF || !visit(ctx, res, &rec, &bad) ||
		    res == READER_FATAL)
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
