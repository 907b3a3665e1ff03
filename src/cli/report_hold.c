/* report_hold.c: an input's report held until one of its records decodes
 * (report_hold.h; rules.md, exit status). */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/report_hold.h"

/* No memory is taken until a byte is held, and then this much: most
 * inputs decode a record before their report has said more than its
 * opening line, and a batch of small inputs need not pay REPORT_HOLD_MEM
 * each. */
#define REPORT_HOLD_MEM_FIRST 4096u

static bool write_all(FILE *to, const void *buf, size_t n)
{
	return n == 0 || fwrite(buf, 1, n, to) == n;
}

/* Held bytes could not be kept: the report of the input is cut, which
 * report_hold_lost() tells. */
static ssize_t hold_lost(struct report_hold *h)
{
	if (!h->lost_errno)
		h->lost_errno = errno ? errno : EIO;
	h->failed = true;
	return -1;
}

/* mem grows to hold size more: from REPORT_HOLD_MEM_FIRST, doubled, up
 * to REPORT_HOLD_MEM (then the bytes spill), or beyond where no temporary
 * file can be made. */
static bool hold_grow(struct report_hold *h, size_t size)
{
	size_t want = h->mem_size ? h->mem_size : REPORT_HOLD_MEM_FIRST;
	while (want - h->mem_len < size) {
		if (want > SIZE_MAX / 2)
			return false;
		want *= 2;
	}
	unsigned char *mem = realloc(h->mem, want);
	if (!mem)
		return false;
	h->mem = mem;
	h->mem_size = want;
	return true;
}

/* The bytes written to h->out: held, or (released) passed on. */
static ssize_t hold_write(void *cookie, const char *buf, size_t size)
{
	struct report_hold *h = cookie;
	if (h->discarding)
		return (ssize_t)size;
	if (h->released) {
		if (!write_all(h->under, buf, size)) {
			h->failed = true;
			return -1;
		}
		return (ssize_t)size;
	}
	if (!h->spill && !h->no_spill && size > REPORT_HOLD_MEM - h->mem_len) {
		h->spill = tmpfile();
		if (h->spill && !write_all(h->spill, h->mem, h->mem_len))
			return hold_lost(h);
		if (!h->spill)
			h->no_spill = true; /* a read-only /tmp: held in memory */
		else
			h->mem_len = 0;
	}
	if (!h->spill) {
		if (size > h->mem_size - h->mem_len && !hold_grow(h, size))
			return hold_lost(h);
		memcpy(h->mem + h->mem_len, buf, size);
		h->mem_len += size;
		return (ssize_t)size;
	}
	if (!write_all(h->spill, buf, size))
		return hold_lost(h);
	return (ssize_t)size;
}

static int hold_close(void *cookie)
{
	(void)cookie; /* the hold is the caller's */
	return 0;
}

bool report_hold_open(struct report_hold *h, FILE *under, char *err, size_t errlen)
{
	/* all but the stdio buffer, which stdio writes before it reads (8 KiB
	 * of the struct's 9 a memset for every input) */
	memset(h, 0, offsetof(struct report_hold, out_buf));
	h->under = under;
	cookie_io_functions_t io = { .write = hold_write, .close = hold_close };
	h->out = fopencookie(h, "w", io);
	if (!h->out) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	/* a person watching the decode listing, or messages on standard
	 * error, sees them line by line once they are let through; the
	 * buffer is the hold's, of the BUFSIZ that glibc would allocate */
	bool tty = under == stderr || (under == stdout && isatty(STDOUT_FILENO));
	setvbuf(h->out, h->out_buf, tty ? _IOLBF : _IOFBF, sizeof(h->out_buf));
	return true;
}

static bool copy_spill(struct report_hold *h)
{
	char buf[65536];
	size_t n;
	rewind(h->spill);
	while ((n = fread(buf, 1, sizeof(buf), h->spill)) > 0)
		if (!write_all(h->under, buf, n))
			return false;
	return !ferror(h->spill);
}

/* Writes what is held, in order; later writes go through. */
static void hold_release(struct report_hold *h)
{
	if (h->released)
		return;
	if (h->lost_errno) {
		/* part of what was held is gone: nothing of the input's is
		 * written, the caller tells an input error in its place */
		h->discarding = true;
		h->released = true;
		return;
	}
	if (fflush(h->out) != 0)
		h->failed = true;
	if (!write_all(h->under, h->mem, h->mem_len) || (h->spill && !copy_spill(h)))
		h->failed = true;
	h->mem_len = 0;
	if (h->spill) {
		fclose(h->spill);
		h->spill = NULL;
	}
	h->released = true;
}

static void hold_on_packet(void *ctx, const struct packet *pkt, bool applicable)
{
	struct report_hold *h = ctx;
	hold_release(h);
	/* The hold steps aside: analysis.c reads the hooks at every record,
	 * so the records after this one reach the inner hooks directly. */
	*h->hooks = h->inner;
	if (h->inner.on_packet)
		h->inner.on_packet(h->inner.ctx, pkt, applicable);
}

static void hold_on_malformed(void *ctx, const struct reader_malformed *bad)
{
	struct report_hold *h = ctx;
	if (!h->have_first) {
		h->first = *bad;
		h->have_first = true;
	}
	if (h->inner.on_malformed)
		h->inner.on_malformed(h->inner.ctx, bad);
}

static void hold_on_note(void *ctx, const struct reader_malformed *bad)
{
	struct report_hold *h = ctx;
	h->have_note = true;
	snprintf(h->note, sizeof(h->note), "%s", bad->reason);
	if (h->inner.on_note)
		h->inner.on_note(h->inner.ctx, bad);
}

void report_hold_hooks(struct report_hold *h, struct analysis_hooks *hooks)
{
	h->hooks = hooks;
	h->inner = *hooks;
	hooks->on_packet = hold_on_packet;
	hooks->on_malformed = hold_on_malformed;
	hooks->on_note = hold_on_note;
	hooks->ctx = h;
}

bool report_hold_released(const struct report_hold *h)
{
	return h->released;
}

/* "pcap file", "text trace", "VCD of lanes", "csv export" */
static void format_noun(const char *format, char *buf, size_t len)
{
	if (strcmp(format, "pcap") == 0 || strcmp(format, "pcapng") == 0)
		snprintf(buf, len, "%s file", format);
	else if (strcmp(format, "text") == 0)
		snprintf(buf, len, "text trace");
	else if (strcmp(format, "vcd") == 0)
		snprintf(buf, len, "VCD of lanes");
	else
		snprintf(buf, len, "%s export", format);
}

void report_hold_no_record(const struct report_hold *h, const char *path, const char *format,
                           const char *compression, const struct input_stats *stats, char *msg,
                           size_t len)
{
	char noun[40], inside[40] = "";
	format_noun(format, noun, sizeof(noun));
	if (compression)
		snprintf(inside, sizeof(inside), "%s data holding a ", compression);
	if (h->have_note && (stats->records_read == 0 || !h->have_first)) {
		/* packets were read, none of them PCIe traffic: not "no
		 * records", which would send the user looking for an empty
		 * file (a wrong --warp-pipe-port, a capture of other traffic) */
		snprintf(msg, len, "%s: %s%s with no PCIe traffic: %s", path, inside, noun,
		         h->note);
		return;
	}
	if (stats->records_read == 0 || !h->have_first) {
		const char *what =
		        strcmp(format, "pcap") == 0     ? "with its 24-byte header and no records"
		        : strcmp(format, "pcapng") == 0 ? "with no packet records"
		        : strcmp(format, "text") == 0
		                ? "with no records (only blank lines and comments)"
		        : strcmp(format, "vcd") == 0
		                ? "with no packet on its lanes (no DLLP, TLP or training)"
		                : "with no data rows";
		snprintf(msg, len, "%s: %s%s %s", path, inside, noun, what);
		return;
	}
	const struct srcpos *p = &h->first.pos;
	char where[80];
	if (p->line) {
		int n = snprintf(where, sizeof(where), "line %" PRIu64, p->line);
		if (h->first.column && n > 0 && (size_t)n < sizeof(where))
			snprintf(where + n, sizeof(where) - (size_t)n, " column %u",
			         h->first.column);
	} else {
		snprintf(where, sizeof(where), "record %" PRIu64 " offset %" PRIu64, p->record_no,
		         p->byte_offset);
	}
	const char *unit = p->line ? "line" : "record";
	if (stats->records_read == 1)
		snprintf(msg, len,
		         "%s: no record could be read from this %s%s: its one %s "
		         "is malformed: %s: %s",
		         path, inside, noun, unit, where, h->first.reason);
	else
		snprintf(msg, len,
		         "%s: no record could be read from this %s%s: %" PRIu64 " %ss, "
		         "all malformed; first: %s: %s",
		         path, inside, noun, stats->records_read, unit, where, h->first.reason);
}

bool report_hold_close(struct report_hold *h, bool keep)
{
	if (keep)
		hold_release(h);
	else
		h->discarding = true; /* what stdio still has goes nowhere */
	if (fclose(h->out) != 0 && keep)
		h->failed = true;
	if (h->spill)
		fclose(h->spill);
	free(h->mem);
	h->spill = NULL;
	h->mem = NULL;
	return !h->failed;
}

bool report_hold_lost(const struct report_hold *h, const char *path, char *msg, size_t len)
{
	if (!h->lost_errno)
		return false;
	snprintf(msg, len,
	         "%s: its report is incomplete: what was held until a record decoded could not be "
	         "kept in a temporary file: %s",
	         path, strerror(h->lost_errno));
	return true;
}
