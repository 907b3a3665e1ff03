/* pcap_compare.h: the comparison behind the differential test of the own
 * pcap and pcapng readers against libpcap (tests/pcap-diff.c) and the fuzz target
 * (tests/fuzz/fuzz_pcap.c), header only so that each stays one
 * translation unit.  diff_input() reads one input from memory through
 * the own classic reader's two ways, its one loop (reader_each, the
 * speed path) and next() a record at a time, which must give the same
 * results, and through reader_pcap.c (libpcap) and reader_pcapfile.c
 * side by side:
 *   - where libpcap reads the whole input, both must give the same
 *     results in the same order (every record's time, kind, direction,
 *     link, flags, bytes, len, wire_len, record number and byte offset,
 *     every malformed record's position and reason, and the end), and the
 *     own reader must have read every byte;
 *   - where libpcap stops (a damaged record header), the own reader must
 *     give the same records up to there, then (classic pcap)
 *     capture.resync at the same record number and offset, and read on
 *     with its positions in order and every byte accounted for (read +
 *     skipped = size);
 *   - both must refuse the same file headers.
 * capture-format.md section 1 asks for exactly this.
 */
#ifndef DLLPCHECK_PCAP_COMPARE_H
#define DLLPCHECK_PCAP_COMPARE_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "read/pcap_file.h"
#include "read/reader.h"

struct tally {
	unsigned long inputs, full, stopped, refused, differences;
	void (*report)(const char *msg);   /* each difference */
};

static inline void differ(struct tally *t, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* One difference: counted and handed to t->report with its sentence. */
static inline void differ(struct tally *t, const char *what, const char *fmt, ...)
{
	char msg[1024];
	int n = snprintf(msg, sizeof(msg), "%s: ", what);
	va_list ap;
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < sizeof(msg))
		vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	t->differences++;
	t->report(msg);
}

/* Offsets: reader_pcap.c takes a pcapng record's offset from the stream
 * position before libpcap reads on, which is the first block libpcap
 * skipped (an IDB, a statistics block) when there was one; the own reader
 * gives the packet block's own.  So for pcapng the own offset may be
 * later (ng), never earlier. */
static inline bool same_offset(uint64_t lp, uint64_t own, bool ng)
{
	return ng ? own >= lp && (own - lp) % 4 == 0 : own == lp;
}

static inline bool same_record(const struct record *a, const struct record *b, bool ng)
{
	return a->time_ps == b->time_ps && a->time_base_s == b->time_base_s &&
	       a->kind == b->kind && a->dir == b->dir && a->link == b->link &&
	       a->flags == b->flags && a->len == b->len && a->wire_len == b->wire_len &&
	       a->pos.record_no == b->pos.record_no &&
	       same_offset(a->pos.byte_offset, b->pos.byte_offset, ng) &&
	       (a->len == 0 || memcmp(a->bytes, b->bytes, a->len) == 0);
}

/* The own reader on after libpcap stopped: results that hold together and
 * every byte accounted for. */
static inline void drain_own(struct reader *own, size_t size, struct tally *t, const char *what)
{
	struct record rec;
	struct reader_malformed bad;
	uint64_t last_offset = 0, last_no = 0;
	for (;;) {
		enum reader_result res = reader_next(own, &rec, &bad);
		if (res == READER_EOF)
			break;
		const struct srcpos *pos = res == READER_RECORD ? &rec.pos : &bad.pos;
		if (pos->byte_offset < last_offset || pos->record_no < last_no ||
		    pos->byte_offset >= size)
			differ(t, what, "own reader: position record %" PRIu64 " offset %" PRIu64
			       " after record %" PRIu64 " offset %" PRIu64, pos->record_no,
			       pos->byte_offset, last_no, last_offset);
		last_offset = pos->byte_offset;
		last_no = pos->record_no;
		if (res == READER_FATAL) {
			differ(t, what, "own reader: fatal in memory: %s", bad.reason);
			break;
		}
	}
	uint64_t read, skipped;
	if (!reader_bytes(own, &read, &skipped) || read + skipped != size)
		differ(t, what, "own reader: %" PRIu64 " bytes read + %" PRIu64
		       " skipped != size %zu", read, skipped, size);
}

/* Two streams over the same bytes in memory; false (neither open) when
 * out of memory. */
static inline bool open_twice(const uint8_t *data, size_t size, FILE **f1, FILE **f2)
{
	*f1 = fmemopen((void *)(uintptr_t)data, size, "rb");
	*f2 = fmemopen((void *)(uintptr_t)data, size, "rb");
	if (*f1 && *f2)
		return true;
	if (*f1)
		fclose(*f1);
	if (*f2)
		fclose(*f2);
	return false;
}

/* ---- the own classic reader's two ways: reader_each() against next() ---- */

struct each_vs_next {
	struct reader *plain; /* the same input, read through next() */
	struct tally *t;
	const char *what;
	uint64_t results;
};

/* What a result other than a record says (skipped and resumed mean
 * something only in a resync). */
static inline bool same_bad(enum reader_result res, const struct reader_malformed *a,
                            const struct reader_malformed *b)
{
	return a->pos.record_no == b->pos.record_no && a->pos.byte_offset == b->pos.byte_offset &&
	       a->pos.has_source_packet == b->pos.has_source_packet && a->column == b->column &&
	       strcmp(a->reason, b->reason) == 0 && a->has_dir == b->has_dir &&
	       a->has_link == b->has_link && (!a->has_dir || a->dir == b->dir) &&
	       (!a->has_link || a->link == b->link) && a->kind == b->kind &&
	       (res != READER_RESYNC || (a->skipped == b->skipped && a->resumed == b->resumed));
}

/* reader_visit_fn: each result of the loop against the next one of the
 * plain way. */
static inline bool each_vs_next_visit(void *ctx, enum reader_result res, const struct record *rec,
                                      const struct reader_malformed *bad)
{
	struct each_vs_next *v = ctx;
	struct record r2;
	struct reader_malformed b2;
	memset(&b2, 0, sizeof(b2));
	enum reader_result res2 = reader_next(v->plain, &r2, &b2);
	v->results++;
	if (res != res2) {
		differ(v->t, v->what, "own reader, result %" PRIu64 ": %d by reader_each, %d by next",
		       v->results, res, res2);
		return false;
	}
	bool same = res == READER_RECORD
	                    ? same_record(rec, &r2, false) && rec->pos.line == r2.pos.line &&
	                              rec->pos.has_source_packet == r2.pos.has_source_packet &&
	                              rec->pos.source_packet == r2.pos.source_packet &&
	                              strcmp(rec->pos.file, r2.pos.file) == 0
	                    : same_bad(res, bad, &b2);
	if (!same)
		differ(v->t, v->what, "own reader, result %" PRIu64 " (%d): reader_each and next differ",
		       v->results, res);
	return same;
}

/* A classic pcap read by the own reader both ways: the same results in
 * the same order, the same end, the same bytes counted. */
static inline void diff_each(const uint8_t *data, size_t size, const char *what, struct tally *t)
{
	char err[512];
	FILE *f1, *f2;
	if (!open_twice(data, size, &f1, &f2))
		return;
	void *a = pcapfile_reader_new(f1, what, 147, err, sizeof(err));
	void *b = pcapfile_reader_new(f2, what, 147, err, sizeof(err));
	if (a && b) {
		struct reader ra = { &pcapfile_reader_ops, a, "pcap", NULL };
		struct reader rb = { &pcapfile_reader_ops, b, "pcap", NULL };
		struct each_vs_next v = { &rb, t, what, 0 };
		unsigned long before = t->differences;
		reader_each(&ra, each_vs_next_visit, &v);
		struct record r2;
		struct reader_malformed b2;
		if (t->differences == before) {
			/* the loop stops after a fatal result, as reader_each does */
			enum reader_result last = reader_next(&rb, &r2, &b2);
			if (last != READER_EOF && last != READER_FATAL)
				differ(t, what, "own reader: reader_each ended after %" PRIu64
				       " results, next gives result %d", v.results, last);
		}
		uint64_t read1, skip1, read2, skip2;
		reader_bytes(&ra, &read1, &skip1);
		reader_bytes(&rb, &read2, &skip2);
		if (t->differences == before && (read1 != read2 || skip1 != skip2))
			differ(t, what, "own reader: reader_each counts %" PRIu64 " + %" PRIu64
			       " bytes, next %" PRIu64 " + %" PRIu64, read1, skip1, read2, skip2);
	}
	/* a reader that failed to open closed its stream */
	if (a)
		pcapfile_reader_ops.close(a);
	if (b)
		pcapfile_reader_ops.close(b);
}

static inline void diff_input(const uint8_t *data, size_t size, const char *what, struct tally *t)
{
	bool ng = size >= 4 && memcmp(data, "\x0a\x0d\x0d\x0a", 4) == 0;
	if (!ng && !pcap_file_magic(data, size))
		return; /* neither: the own readers are not used for it */
	const struct reader_ops *own_ops = ng ? &pcapngfile_reader_ops : &pcapfile_reader_ops;
	t->inputs++;
	if (!ng)
		diff_each(data, size, what, t);
	char err_lp[512] = "", err_own[512] = "";
	FILE *f1, *f2;
	if (!open_twice(data, size, &f1, &f2))
		return; /* out of memory: nothing to compare */
	void *lp = pcap_reader_new(f1, what, 147, err_lp, sizeof(err_lp));
	void *own = ng ? pcapngfile_reader_new(f2, what, 147, err_own, sizeof(err_own))
	               : pcapfile_reader_new(f2, what, 147, err_own, sizeof(err_own));
	if (!lp || !own) {
		if (!lp != !own)
			differ(t, what, "libpcap %s, own reader %s", lp ? "opens" : err_lp,
			       own ? "opens" : err_own);
		else
			t->refused++;
		if (lp)
			pcap_reader_ops.close(lp);
		if (own)
			own_ops->close(own);
		return;
	}
	struct reader rl = { &pcap_reader_ops, lp, "pcap", NULL };
	struct reader ro = { own_ops, own, "pcap", NULL };
	struct record r1, r2;
	struct reader_malformed b1, b2;
	for (;;) {
		memset(&b1, 0, sizeof(b1));
		memset(&b2, 0, sizeof(b2));
		enum reader_result res1 = reader_next(&rl, &r1, &b1);
		enum reader_result res2 = reader_next(&ro, &r2, &b2);
		if (res1 == READER_FATAL) {
			t->stopped++;
			/* pcapng: the own reader may read on in a way libpcap has no
			 * counterpart for (a malformed block, a section in the other
			 * byte order); it must account for every byte */
			if (!ng && (res2 != READER_RESYNC || b2.pos.byte_offset != b1.pos.byte_offset ||
			            b2.pos.record_no != b1.pos.record_no))
				differ(t, what, "libpcap stops at record %" PRIu64 " offset %" PRIu64
				       " (%s); own reader gives result %d at record %" PRIu64
				       " offset %" PRIu64 " (%s)", b1.pos.record_no, b1.pos.byte_offset,
				       b1.reason, res2, res2 == READER_RECORD ? r2.pos.record_no
				       : b2.pos.record_no, res2 == READER_RECORD ? r2.pos.byte_offset
				       : b2.pos.byte_offset, res2 == READER_RECORD ? "" : b2.reason);
			drain_own(&ro, size, t, what);
			break;
		}
		if (res1 != res2) {
			differ(t, what, "libpcap result %d at record %" PRIu64 " offset %" PRIu64
			       ", own reader %d at record %" PRIu64 " offset %" PRIu64 " (%s)", res1,
			       res1 == READER_RECORD ? r1.pos.record_no : b1.pos.record_no,
			       res1 == READER_RECORD ? r1.pos.byte_offset : b1.pos.byte_offset, res2,
			       res2 == READER_RECORD ? r2.pos.record_no : b2.pos.record_no,
			       res2 == READER_RECORD ? r2.pos.byte_offset : b2.pos.byte_offset,
			       res2 == READER_RECORD ? "" : b2.reason);
			break;
		}
		if (res1 == READER_EOF) {
			t->full++;
			uint64_t read, skipped;
			if (!reader_bytes(&ro, &read, &skipped) || read != size || skipped)
				differ(t, what, "libpcap read it all; own reader %" PRIu64
				       " bytes read, %" PRIu64 " skipped, of %zu", read, skipped, size);
			break;
		}
		if (res1 == READER_RECORD && !same_record(&r1, &r2, ng))
			differ(t, what, "record %" PRIu64 " offset %" PRIu64 ": libpcap t=%" PRIu64
			       " base %" PRIu64 " kind %d dir %d link %u flags %u len %u wire %u; "
			       "own record %" PRIu64 " offset %" PRIu64 " t=%" PRIu64 " base %" PRIu64
			       " kind %d dir %d link %u flags %u len %u wire %u",
			       r1.pos.record_no, r1.pos.byte_offset, r1.time_ps, r1.time_base_s,
			       r1.kind, r1.dir, r1.link, r1.flags, r1.len, r1.wire_len,
			       r2.pos.record_no, r2.pos.byte_offset, r2.time_ps, r2.time_base_s,
			       r2.kind, r2.dir, r2.link, r2.flags, r2.len, r2.wire_len);
		if (res1 == READER_MALFORMED &&
		    (b1.pos.record_no != b2.pos.record_no ||
		     !same_offset(b1.pos.byte_offset, b2.pos.byte_offset, ng) ||
		     strcmp(b1.reason, b2.reason) != 0))
			differ(t, what, "malformed record %" PRIu64 " offset %" PRIu64 " (%s); own "
			       "record %" PRIu64 " offset %" PRIu64 " (%s)", b1.pos.record_no,
			       b1.pos.byte_offset, b1.reason, b2.pos.record_no, b2.pos.byte_offset,
			       b2.reason);
	}
	pcap_reader_ops.close(lp);
	own_ops->close(own);
}

#endif
