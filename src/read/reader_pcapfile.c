/* reader_pcapfile.c: classic pcap read by the project itself, so that a
 * damaged record header does not end the reading (capture-format.md
 * section 1, rules.md capture.resync).  On every file libpcap reads it
 * gives the records libpcap gives (tests/test-pcap-diff, fuzz_pcap); where
 * libpcap stops, at a record header whose captured length is above the
 * largest (262144) or runs past the end of the file, it reports the
 * offset, searches forward for the next offset where a record verifiably
 * starts (pcap_rec_candidate) and reads on from there.  Every byte of the
 * input is either in what was read (the file header, the records) or in
 * a region reported skipped.
 *
 * The input is a stream: nothing seeks or asks for the position (a pipe,
 * standard input or a decompressing layer reads the same way); offsets
 * are counted here.  The bytes are read into one window of PF_WINDOW
 * bytes (the input's size when it is known to be smaller) and records are handed over from it without a copy, so memory
 * does not grow with the file; the resync search looks ahead through the
 * same window (a candidate record is at most 16 + 262144 bytes).
 *
 * A file of another link type than --dlt names holds another tool's
 * encapsulation: its packets go to the decoder link_decoder_for() gives
 * (link_decoder.h), and the records are what it makes of them.
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/attrs.h"
#include "base/stream_window.h"
#include "read/link_decoder.h"
#include "read/pcap_file.h"
#include "read/reader.h"

/* At least twice the largest record, so that a record and the search's
 * look-ahead always fit; it never grows past it, and starts smaller for a
 * smaller input (sw_size_for). */
#define PF_WINDOW (1u << 20)
/* The fewest bytes a record of ours has in the file: header and
 * pseudo-header.  The search ends when fewer are left. */
#define PF_PROBE (PCAP_REC_HDR_LEN + PCAP_PSEUDO_HDR_LEN)

struct pcapfile_reader {
	FILE *fp;
	const char *name;
	struct stream_window w;
	bool done; /* after the end or a fatal error */
	struct pcap_file_hdr fh;
	struct pcap_clock clock;
	uint64_t record_no;
	uint64_t bytes_read, bytes_skipped;
	bool have_prev; /* the time of the last record framed */
	int64_t prev_sec, prev_ns;
	/* another tool's encapsulation (ops NULL: ours): its decoder, whether
	 * it was told the file ended, and the number of the last record or
	 * report it made, which record_no (the packets) is not then */
	struct link_decoder dec;
	bool dec_ended;
	uint64_t dec_no;
};

static void pf_position(const struct pcapfile_reader *r, uint64_t record_no, uint64_t offset,
                        struct srcpos *pos)
{
	pos->file = r->name;
	pos->record_no = record_no;
	pos->byte_offset = offset;
	pos->line = 0;
}

/* opts NULL: our encapsulation only (the reference comparisons) */
static void *pf_open(FILE *fp, const char *name, int dlt, const struct reader_opts *opts, char *err,
                     size_t errlen)
{
	struct pcapfile_reader *r = calloc(1, sizeof(*r));
	if (!r || !sw_init(&r->w, fp, sw_size_for(fp, PF_WINDOW), PF_WINDOW)) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto fail;
	}
	r->fp = fp;
	r->name = name;
	size_t n = sw_fill(&r->w, PCAP_FILE_HDR_LEN);
	if (n < PCAP_FILE_HDR_LEN && r->w.read_errno) {
		snprintf(err, errlen, "%s: cannot read: %s", name, strerror(r->w.read_errno));
		goto fail;
	}
	if (!pcap_file_hdr_parse(sw_data(&r->w), n, &r->fh, name, err, errlen))
		goto fail;
	if (r->fh.linktype != (uint32_t)dlt) {
		if (!opts)
			pcap_linktype_error(err, errlen, name, (int)r->fh.linktype,
			                    pcap_datalink_val_to_name((int)r->fh.linktype), dlt);
		else
			link_decoder_for(r->fh.linktype, opts, name, &r->dec, err, errlen);
		if (!r->dec.ops)
			goto fail;
	}
	sw_take(&r->w, PCAP_FILE_HDR_LEN);
	r->bytes_read = PCAP_FILE_HDR_LEN;
	return r;
fail:
	fclose(fp);
	if (r)
		sw_free(&r->w);
	free(r);
	return NULL;
}

void *pcapfile_reader_new(FILE *fp, const char *name, int dlt, char *err, size_t errlen)
{
	return pf_open(fp, name, dlt, NULL, err, errlen);
}

void *pcapfile_reader_open(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                           size_t errlen)
{
	return pf_open(fp, name, opts->dlt, opts, err, errlen);
}

/* The number the next record of the input gets: the next packet's, or
 * with a decoder the one after its last record. */
static uint64_t pf_next_no(const struct pcapfile_reader *r)
{
	return (r->dec.ops ? r->dec_no : r->record_no) + 1;
}

static COLD_PATH enum reader_result pf_fatal(struct pcapfile_reader *r,
                                             struct reader_malformed *bad)
{
	r->done = true;
	memset(bad, 0, sizeof(*bad));
	pf_position(r, pf_next_no(r), sw_offset(&r->w), &bad->pos);
	snprintf(bad->reason, sizeof(bad->reason), "cannot read: %s", strerror(r->w.read_errno));
	return READER_FATAL;
}

/* sw_candidate_fn: a record verifiably starts at data (its bytes must
 * all be there: it fits the file). */
static size_t pf_candidate(void *ctx, const uint8_t *data, size_t avail)
{
	const struct pcapfile_reader *r = ctx;
	struct pcap_rec_hdr rh;
	if (!pcap_rec_candidate(&r->fh, data, avail, r->have_prev, r->prev_sec, r->prev_ns, &rh))
		return 0;
	return PCAP_REC_HDR_LEN + rh.caplen;
}

/* The header at the current offset cannot be valid (why says how): the
 * search for the next offset where a record verifiably starts, from the
 * byte after it.  A candidate must fit the file: its bytes must be there. */
static COLD_PATH enum reader_result pf_resync(struct pcapfile_reader *r,
                                              struct reader_malformed *bad, const char *why)
{
	struct stream_window *w = &r->w;
	uint64_t from = sw_offset(w);
	sw_take(w, 1);
	/* a record's pseudo-header version byte follows its header */
	enum sw_search_result res =
	        sw_search(w, PF_PROBE, PCAP_REC_HDR_LEN, PCAP_PSEUDO_VERSION, pf_candidate, r);
	if (res == SW_ERROR)
		return pf_fatal(r, bad);
	bool found = res == SW_FOUND;
	uint64_t skipped = sw_offset(w) - from;
	r->bytes_skipped += skipped;
	if (!found)
		r->done = true;
	memset(bad, 0, sizeof(*bad));
	pf_position(r, pf_next_no(r), from, &bad->pos);
	reader_resync_report(bad, "record header", "record", why, skipped, found, sw_offset(w));
	return READER_RESYNC;
}

/* Frames the next packet of the file: true with *pkt filled (its data
 * valid until the next call) and *offset the file offset of its record
 * header, else false with *res what stopped it (READER_EOF, a resync, a
 * fatal error).  Inlined into both callers: our encapsulation's path (one
 * record per packet) pays no call, only the branch on the decoder. */
static HOT_INLINE bool pf_packet(struct pcapfile_reader *r, struct link_packet *pkt,
                                 uint64_t *offset, struct reader_malformed *bad,
                                 enum reader_result *res)
{
	char why[120];

	if (r->done)
		return (*res = READER_EOF), false;
	struct stream_window *w = &r->w;
	size_t avail = sw_fill(w, PCAP_REC_HDR_LEN);
	/* a read error counts only where the bytes read do not suffice: the
	 * records before it are read first */
	if (avail < PCAP_REC_HDR_LEN && w->read_errno)
		return (*res = pf_fatal(r, bad)), false;
	if (avail < PCAP_REC_HDR_LEN) {
		if (avail == 0) {
			r->done = true;
			return (*res = READER_EOF), false;
		}
		snprintf(why, sizeof(why), "the file ends %zu bytes into it", avail);
		return (*res = pf_resync(r, bad, why)), false;
	}
	struct pcap_rec_hdr rh;
	if (!pcap_rec_hdr_parse(&r->fh, sw_data(w), &rh, why, sizeof(why)))
		return (*res = pf_resync(r, bad, why)), false;
	size_t need = PCAP_REC_HDR_LEN + rh.caplen;
	avail = sw_fill(w, need);
	if (avail < need) {
		if (w->read_errno)
			return (*res = pf_fatal(r, bad)), false;
		snprintf(why, sizeof(why),
		         "captured length %u runs past the end of the file, "
		         "%zu bytes on",
		         rh.caplen, avail - PCAP_REC_HDR_LEN);
		return (*res = pf_resync(r, bad, why)), false;
	}
	*offset = sw_offset(w);
	pkt->data = sw_data(w) + PCAP_REC_HDR_LEN;
	/* as libpcap: the bytes beyond the snapshot length are skipped */
	pkt->caplen = pcap_rec_data_len(&r->fh, &rh);
	pkt->len = rh.len;
	pkt->packet_no = ++r->record_no;
	pkt->byte_offset = *offset + PCAP_REC_HDR_LEN;
	sw_take(w, need);
	r->bytes_read += need;
	r->have_prev = true;
	r->prev_sec = rh.ts_sec;
	r->prev_ns = rh.ts_ns;
	pkt->time_ps = pcap_clock_ps(&r->clock, rh.ts_sec, rh.ts_ns);
	pkt->time_base_s = r->clock.base_s;
	return true;
}

/* link_next_packet_fn for link_decoder_pull: the next packet. */
static bool pf_decoder_packet(void *reader, struct link_packet *pkt, struct reader_malformed *bad,
                              enum reader_result *res)
{
	uint64_t offset;
	return pf_packet(reader, pkt, &offset, bad, res);
}

/* The next record of our encapsulation (one per packet), its size not
 * yet checked.  It sets every field of *rec but the source packet's,
 * which a pcap has none of: the caller clears those once. */
static HOT_INLINE enum reader_result pf_record(struct pcapfile_reader *r, struct record *rec,
                                               struct reader_malformed *bad)
{
	struct link_packet pkt;
	uint64_t offset;
	enum reader_result res;
	if (!pf_packet(r, &pkt, &offset, bad, &res))
		return res;
	pf_position(r, pkt.packet_no, offset, &rec->pos);
	rec->time_ps = pkt.time_ps;
	rec->time_base_s = pkt.time_base_s;
	return pcap_payload_record(pkt.data, pkt.caplen, pkt.len, rec, bad) ? READER_RECORD
	                                                                    : READER_MALFORMED;
}

static enum reader_result pf_next(void *state, struct record *rec, struct reader_malformed *bad)
{
	struct pcapfile_reader *r = state;
	if (r->dec.ops)
		return link_decoder_pull(&r->dec, &r->dec_no, &r->dec_ended, pf_decoder_packet, r,
		                         rec, bad);
	return pf_record(r, rec, bad);
}

/* reader_ops.each: every record of our encapsulation from one loop, what
 * reader_each() would do through next() one call at a time (the record
 * cleared and bad reset before each, the size checked), without the
 * calls and the clearing per record: the record is cleared once and
 * pf_record() sets the same fields every time; bad is reset after each
 * result that wrote to it (a record does not).  tests/pcap_compare.h
 * holds the two ways to the same results on every input of
 * tests/pcap-diff and the fuzz target.  Another tool's encapsulation
 * (several records a packet) goes through next(). */
static bool pf_each(void *state, reader_visit_fn visit, void *ctx)
{
	struct pcapfile_reader *r = state;
	if (r->dec.ops)
		return false;
	struct record rec;
	struct reader_malformed bad;
	memset(&rec, 0, sizeof(rec));
	memset(&bad, 0, sizeof(bad));
	for (;;) {
		enum reader_result res = pf_record(r, &rec, &bad);
		if (res == READER_RECORD && !reader_record_ok(&rec, &bad))
			res = READER_MALFORMED;
		if (res == READER_EOF || !visit(ctx, res, &rec, &bad) || res == READER_FATAL)
			return true;
		if (res != READER_RECORD)
			reader_malformed_reset(&bad);
	}
}

static void pf_bytes(void *state, uint64_t *read, uint64_t *skipped)
{
	const struct pcapfile_reader *r = state;
	*read = r->bytes_read;
	*skipped = r->bytes_skipped;
	link_decoder_account(&r->dec, read, skipped);
}

static const char *pf_encapsulation(void *state)
{
	const struct pcapfile_reader *r = state;
	return r->dec.ops ? r->dec.ops->format_name : NULL;
}

static void pf_close(void *state)
{
	struct pcapfile_reader *r = state;
	if (!r)
		return;
	fclose(r->fp);
	sw_free(&r->w);
	if (r->dec.ops)
		r->dec.ops->free(r->dec.state);
	free(r);
}

const struct reader_ops pcapfile_reader_ops = {
	.format_name = "pcap",
	.next = pf_next,
	.close = pf_close,
	.each = pf_each,
	.bytes = pf_bytes,
	.encapsulation = pf_encapsulation,
};
