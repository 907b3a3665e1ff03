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
 * bytes and records are handed over from it without a copy, so memory
 * does not grow with the file; the resync search looks ahead through the
 * same window (a candidate record is at most 16 + 262144 bytes).
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/attrs.h"
#include "base/stream_window.h"
#include "read/pcap_file.h"
#include "read/reader.h"

/* At least twice the largest record, so that a record and the search's
 * look-ahead always fit; it never grows. */
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
};

static void pf_position(const struct pcapfile_reader *r, uint64_t record_no, uint64_t offset,
                        struct srcpos *pos)
{
	pos->file = r->name;
	pos->record_no = record_no;
	pos->byte_offset = offset;
	pos->line = 0;
}

void *pcapfile_reader_new(FILE *fp, const char *name, int dlt, char *err, size_t errlen)
{
	struct pcapfile_reader *r = calloc(1, sizeof(*r));
	if (!r || !sw_init(&r->w, fp, PF_WINDOW, PF_WINDOW)) {
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
		pcap_linktype_error(err, errlen, name, (int)r->fh.linktype,
		                    pcap_datalink_val_to_name((int)r->fh.linktype), dlt);
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

static COLD_PATH enum reader_result pf_fatal(struct pcapfile_reader *r,
                                             struct reader_malformed *bad)
{
	r->done = true;
	memset(bad, 0, sizeof(*bad));
	pf_position(r, r->record_no + 1, sw_offset(&r->w), &bad->pos);
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
	pf_position(r, r->record_no + 1, from, &bad->pos);
	reader_resync_report(bad, "record header", "record", why, skipped, found, sw_offset(w));
	return READER_RESYNC;
}

static enum reader_result pf_next(void *state, struct record *rec, struct reader_malformed *bad)
{
	struct pcapfile_reader *r = state;
	char why[120];

	if (r->done)
		return READER_EOF;
	struct stream_window *w = &r->w;
	size_t avail = sw_fill(w, PCAP_REC_HDR_LEN);
	/* a read error counts only where the bytes read do not suffice: the
	 * records before it are read first */
	if (avail < PCAP_REC_HDR_LEN && w->read_errno)
		return pf_fatal(r, bad);
	if (avail < PCAP_REC_HDR_LEN) {
		if (avail == 0) {
			r->done = true;
			return READER_EOF;
		}
		snprintf(why, sizeof(why), "the file ends %zu bytes into it", avail);
		return pf_resync(r, bad, why);
	}
	struct pcap_rec_hdr rh;
	if (!pcap_rec_hdr_parse(&r->fh, sw_data(w), &rh, why, sizeof(why)))
		return pf_resync(r, bad, why);
	size_t need = PCAP_REC_HDR_LEN + rh.caplen;
	avail = sw_fill(w, need);
	if (avail < need) {
		if (w->read_errno)
			return pf_fatal(r, bad);
		snprintf(why, sizeof(why),
		         "captured length %u runs past the end of the file, "
		         "%zu bytes on",
		         rh.caplen, avail - PCAP_REC_HDR_LEN);
		return pf_resync(r, bad, why);
	}
	const uint8_t *data = sw_data(w) + PCAP_REC_HDR_LEN;
	pf_position(r, ++r->record_no, sw_offset(w), &rec->pos);
	sw_take(w, need);
	r->bytes_read += need;
	r->have_prev = true;
	r->prev_sec = rh.ts_sec;
	r->prev_ns = rh.ts_ns;
	rec->time_ps = pcap_clock_ps(&r->clock, rh.ts_sec, rh.ts_ns);
	rec->time_base_s = r->clock.base_s;
	/* as libpcap: the bytes beyond the snapshot length are skipped */
	return pcap_payload_record(data, pcap_rec_data_len(&r->fh, &rh), rh.len, rec, bad)
	               ? READER_RECORD
	               : READER_MALFORMED;
}

static void pf_bytes(void *state, uint64_t *read, uint64_t *skipped)
{
	const struct pcapfile_reader *r = state;
	*read = r->bytes_read;
	*skipped = r->bytes_skipped;
}

static void pf_close(void *state)
{
	struct pcapfile_reader *r = state;
	if (!r)
		return;
	fclose(r->fp);
	sw_free(&r->w);
	free(r);
}

const struct reader_ops pcapfile_reader_ops = {
	.format_name = "pcap",
	.next = pf_next,
	.close = pf_close,
	.bytes = pf_bytes,
};
