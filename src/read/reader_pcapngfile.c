/* reader_pcapngfile.c: pcapng read by the project itself, so that a
 * damaged block does not end the reading (capture-format.md section 1,
 * rules.md capture.resync).  On every file libpcap reads it gives the
 * records libpcap gives (tests/pcap-diff, fuzz_pcap): Section Header,
 * Interface Description, Enhanced, Simple and (obsolete) Packet Blocks,
 * any if_tsresol and if_tsoffset, either byte order, other block types
 * skipped.  Where libpcap stops:
 *   - at a block whose length cannot be (below 12, not a multiple of 4,
 *     above 16 MiB, past the end of the file, or not the trailing length),
 *     it reports capture.resync at the block's offset, searches forward
 *     for the next offset where a block verifiably starts (a known type,
 *     a length that fits, the same trailing length:
 *     pcapng_block_head_ok/tail_ok) and reads on from there;
 *   - at a framed block whose contents libpcap refuses (a packet on an
 *     unknown interface, an interface of another link type, bad options),
 *     it reports that block as malformed, with libpcap's message, and
 *     reads on; a new section in the other byte order is read in it.
 * Every byte is in a block read or in a region reported skipped.
 *
 * The input is a stream (stream_window.h): no seek, offsets counted here;
 * the window starts at PNG_WINDOW (the input's size when it is known to
 * be smaller) and grows only as far as the largest block (16 MiB,
 * libpcap's limit), and at most PNG_MAX_IFS interfaces are kept per
 * section (the table grows as they come), so memory does not grow with
 * the file.
 *
 * A file whose first interface has another link type than --dlt names
 * holds another tool's encapsulation: its packets go to the decoder
 * link_decoder_for() gives (link_decoder.h), and the records are what it
 * makes of them (the later interfaces must have the same type, as today).
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/attrs.h"
#include "base/grow.h"
#include "base/stream_window.h"
#include "read/link_decoder.h"
#include "read/pcap_file.h"
#include "read/pcapng_file.h"
#include "read/reader.h"

#define PNG_WINDOW (1u << 20)
#define PNG_MAX_IFS 4096u

struct pcapngfile_reader {
	FILE *fp;
	const char *name;
	struct stream_window w;
	bool done;
	bool swapped; /* the current section's byte order */
	uint32_t linktype, snaplen; /* of the first interface */
	struct pcapng_if *ifs; /* ifs_cap entries, at most PNG_MAX_IFS */
	uint32_t ifcount; /* interfaces of the current section */
	size_t ifs_cap;
	struct pcap_clock clock;
	uint64_t record_no;
	uint64_t bytes_read, bytes_skipped;
	/* another tool's encapsulation (ops NULL: ours), as in
	 * reader_pcapfile.c: the decoder, told the end, its last number */
	struct link_decoder dec;
	bool dec_ended;
	uint64_t dec_no;
};

static void png_position(const struct pcapngfile_reader *r, uint64_t record_no, uint64_t offset,
                         struct srcpos *pos)
{
	pos->file = r->name;
	pos->record_no = record_no;
	pos->byte_offset = offset;
	pos->line = 0;
}

/* One framed block at the current position: its type, length and body;
 * false with why filled when its framing cannot be (or, with
 * w.read_errno, the stream failed).  eof: the input ended before it. */
static bool png_block(struct pcapngfile_reader *r, uint32_t *type, uint32_t *len, bool *eof,
                      char *why, size_t why_len)
{
	struct stream_window *w = &r->w;
	*eof = false;
	size_t avail = sw_fill(w, 8);
	if (avail < 8) {
		/* a read error counts only where the bytes read do not suffice:
		 * the records before it are read first */
		if (w->read_errno)
			return false;
		*eof = avail == 0;
		snprintf(why, why_len, "the file ends %zu bytes into a block header", avail);
		return false;
	}
	*type = pcapng_get32(r->swapped, sw_data(w));
	*len = pcapng_get32(r->swapped, sw_data(w) + 4);
	if (!pcapng_block_len_ok(*len, PCAPNG_BLOCK_MAX, why, why_len))
		return false;
	avail = sw_fill(w, *len);
	if (avail < *len) {
		if (!w->read_errno)
			snprintf(why, why_len,
			         "block length %u runs past the end of the file, "
			         "%zu bytes on",
			         *len, avail);
		return false;
	}
	uint32_t trailer = pcapng_get32(r->swapped, sw_data(w) + *len - 4);
	if (trailer != *len) {
		snprintf(why, why_len,
		         "block total length in header %u and trailer %u don't "
		         "match",
		         *len, trailer);
		return false;
	}
	return true;
}

/* The entry of the next interface of the section (ifcount < PNG_MAX_IFS):
 * the table grows by doubling as interfaces come, as a file has one or
 * two.  NULL when out of memory. */
static struct pcapng_if *png_if_next(struct pcapngfile_reader *r)
{
	struct pcapng_if *ifs =
	        grow_to(r->ifs, &r->ifs_cap, r->ifcount + 1, sizeof(*ifs), 4, PNG_MAX_IFS);
	if (!ifs)
		return NULL;
	r->ifs = ifs;
	return &r->ifs[r->ifcount];
}

/* opts NULL: our encapsulation only (the reference comparisons) */
static void *png_open(FILE *fp, const char *name, int dlt, const struct reader_opts *opts,
                      char *err, size_t errlen)
{
	struct pcapngfile_reader *r = calloc(1, sizeof(*r));
	if (!r || !sw_init(&r->w, fp, sw_size_for(fp, PNG_WINDOW), PCAPNG_BLOCK_MAX)) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto fail;
	}
	r->fp = fp;
	r->name = name;
	struct stream_window *w = &r->w;
	size_t n = sw_fill(w, PCAPNG_SHB_MAX);
	uint32_t len;
	/* a read error counts only where the bytes read do not suffice */
	if (!pcapng_shb_first(sw_data(w), n, &r->swapped, &len, name, err, errlen)) {
		if (w->read_errno)
			snprintf(err, errlen, "%s: cannot read: %s", name, strerror(w->read_errno));
		goto fail;
	}
	sw_take(w, len);
	r->bytes_read = len;
	/* as libpcap: the first Interface Description Block sets the link
	 * type; blocks of other types before it are skipped */
	for (;;) {
		uint32_t type;
		bool eof;
		char why[160];
		const char *refused = "not a readable pcap/pcapng file";
		if (!png_block(r, &type, &len, &eof, why, sizeof(why))) {
			if (w->read_errno)
				snprintf(err, errlen, "%s: cannot read: %s", name,
				         strerror(w->read_errno));
			else if (eof)
				snprintf(err, errlen,
				         "%s: %s: the capture file has no Interface "
				         "Description Blocks",
				         name, refused);
			else
				snprintf(err, errlen, "%s: %s: %s", name, refused, why);
			goto fail;
		}
		const uint8_t *body = sw_data(w) + 8;
		if (type == PCAPNG_EPB || type == PCAPNG_SPB || type == PCAPNG_PB) {
			snprintf(err, errlen,
			         "%s: %s: the capture file has a packet block before "
			         "any Interface Description Blocks",
			         name, refused);
			goto fail;
		}
		if (type == PCAPNG_IDB) {
			struct pcapng_if *ifc = png_if_next(r);
			if (!ifc) {
				snprintf(err, errlen, "%s: out of memory", name);
				goto fail;
			}
			if (!pcapng_idb(r->swapped, body, len - 12, &r->linktype, &r->snaplen, ifc,
			                why, sizeof(why))) {
				snprintf(err, errlen, "%s: %s: %s", name, refused, why);
				goto fail;
			}
			if (r->linktype != (uint32_t)dlt) {
				int found = (int)r->linktype;
				if (!opts)
					pcap_linktype_error(err, errlen, name, found,
					                    pcap_datalink_val_to_name(found), dlt);
				else
					link_decoder_for(r->linktype, opts, name, &r->dec, err,
					                 errlen);
				if (!r->dec.ops)
					goto fail;
			}
			r->ifcount = 1;
			sw_take(w, len);
			r->bytes_read += len;
			return r;
		}
		sw_take(w, len);
		r->bytes_read += len;
	}
fail:
	fclose(fp);
	if (r) {
		sw_free(&r->w);
		free(r->ifs);
	}
	free(r);
	return NULL;
}

void *pcapngfile_reader_new(FILE *fp, const char *name, int dlt, char *err, size_t errlen)
{
	return png_open(fp, name, dlt, NULL, err, errlen);
}

void *pcapngfile_reader_open(FILE *fp, const char *name, const struct reader_opts *opts, char *err,
                             size_t errlen)
{
	return png_open(fp, name, opts->dlt, opts, err, errlen);
}

/* The number the next record of the input gets (reader_pcapfile.c). */
static uint64_t png_next_no(const struct pcapngfile_reader *r)
{
	return (r->dec.ops ? r->dec_no : r->record_no) + 1;
}

static COLD_PATH enum reader_result png_fatal(struct pcapngfile_reader *r,
                                              struct reader_malformed *bad)
{
	r->done = true;
	memset(bad, 0, sizeof(*bad));
	png_position(r, png_next_no(r), sw_offset(&r->w), &bad->pos);
	snprintf(bad->reason, sizeof(bad->reason), "cannot read: %s", strerror(r->w.read_errno));
	return READER_FATAL;
}

/* sw_candidate_fn: a block with a valid type and a matching trailing
 * length starts at data. */
static size_t png_candidate(void *ctx, const uint8_t *data, size_t avail)
{
	const struct pcapngfile_reader *r = ctx;
	bool sw = r->swapped;
	uint32_t len;
	if (!pcapng_block_head_ok(data, avail, PCAPNG_BLOCK_MAX, &sw, &len))
		return 0;
	if (avail < len)
		return len; /* the trailer is not read yet */
	return pcapng_block_tail_ok(data, len, sw) ? len : 0;
}

/* The block at the current offset cannot be framed (why): the search for
 * the next offset where a block verifiably starts, from the byte after
 * it.  Blocks are 4-byte aligned in a sound file, but damage may insert
 * or remove any number of bytes, so every offset is tried. */
static COLD_PATH enum reader_result png_resync(struct pcapngfile_reader *r,
                                               struct reader_malformed *bad, const char *why)
{
	struct stream_window *w = &r->w;
	uint64_t from = sw_offset(w);
	sw_take(w, 1);
	enum sw_search_result res = sw_search(w, PCAPNG_BLOCK_MIN, 0, -1, png_candidate, r);
	if (res == SW_ERROR)
		return png_fatal(r, bad);
	bool found = res == SW_FOUND;
	uint64_t skipped = sw_offset(w) - from;
	r->bytes_skipped += skipped;
	if (!found)
		r->done = true;
	memset(bad, 0, sizeof(*bad));
	png_position(r, png_next_no(r), from, &bad->pos);
	reader_resync_report(bad, "block", "block", why, skipped, found, sw_offset(w));
	return READER_RESYNC;
}

static COLD_PATH enum reader_result png_malformed(struct pcapngfile_reader *r, uint64_t offset,
                                                  struct reader_malformed *bad, const char *why)
{
	memset(bad, 0, sizeof(*bad));
	/* with a decoder the packets are not the records: the report takes
	 * the next number of the input's records */
	if (r->dec.ops)
		png_position(r, ++r->dec_no, offset, &bad->pos);
	else
		png_position(r, ++r->record_no, offset, &bad->pos);
	snprintf(bad->reason, sizeof(bad->reason), "%s", why);
	return READER_MALFORMED;
}

/* A later Interface Description Block: added to the section's interfaces
 * (refused, when libpcap would stop at it, so that the packets on it are
 * malformed and the later interfaces keep their numbers).  False with why
 * when it is refused. */
static bool png_add_interface(struct pcapngfile_reader *r, const uint8_t *body, size_t len,
                              char *why, size_t why_len)
{
	uint32_t linktype, snaplen;
	struct pcapng_if ifc;
	bool ok = pcapng_idb(r->swapped, body, len, &linktype, &snaplen, &ifc, why, why_len);
	if (ok && linktype != r->linktype) {
		snprintf(why, why_len,
		         "an interface has a type %u different from the type of "
		         "the first interface",
		         linktype);
		ok = false;
	} else if (ok && snaplen != r->snaplen) {
		snprintf(why, why_len,
		         "an interface has a snapshot length %u different from the "
		         "snapshot length of the first interface",
		         snaplen);
		ok = false;
	}
	if (r->ifcount == PNG_MAX_IFS) {
		if (ok)
			snprintf(why, why_len, "more than %u interfaces in a section", PNG_MAX_IFS);
		return false;
	}
	struct pcapng_if *slot = png_if_next(r);
	if (!slot) {
		snprintf(why, why_len, "out of memory for the interface");
		return false;
	}
	ifc.refused = !ok;
	*slot = ifc;
	r->ifcount++;
	return ok;
}

/* The next packet of the file: true with *pkt filled (its data valid
 * until the next call) and *offset the file offset of its block, else
 * false with *res what stopped it (READER_EOF, a block reported, a
 * resync, a fatal error).  Inlined into both callers: our encapsulation's
 * path pays no call, only the branch on the decoder. */
static HOT_INLINE bool png_packet(struct pcapngfile_reader *r, struct link_packet *lp,
                                  uint64_t *offset_out, struct reader_malformed *bad,
                                  enum reader_result *res)
{
	struct stream_window *w = &r->w;
	char why[200];

	while (!r->done) {
		uint32_t type, len;
		bool eof;
		if (!png_block(r, &type, &len, &eof, why, sizeof(why))) {
			if (w->read_errno)
				return (*res = png_fatal(r, bad)), false;
			if (eof)
				break;
			return (*res = png_resync(r, bad, why)), false;
		}
		uint64_t offset = sw_offset(w);
		const uint8_t *body = sw_data(w) + 8;
		size_t body_len = len - 12;
		sw_take(w, len); /* the bytes stay where they are until the next call */
		r->bytes_read += len;
		if (type == PCAPNG_IDB) {
			if (!png_add_interface(r, body, body_len, why, sizeof(why)))
				return (*res = png_malformed(r, offset, bad, why)), false;
			continue;
		}
		if (type == PCAPNG_SHB) {
			if (!pcapng_shb_next(body, body_len, &r->swapped, why, sizeof(why)))
				return (*res = png_malformed(r, offset, bad, why)), false;
			r->ifcount = 0; /* a new section has its own interfaces */
			continue;
		}
		if (type != PCAPNG_EPB && type != PCAPNG_SPB && type != PCAPNG_PB)
			continue; /* a block of another type: skipped, as libpcap does */
		struct pcapng_packet pkt;
		if (!pcapng_packet(r->swapped, type, body, body_len, r->snaplen, r->ifcount, &pkt,
		                   why, sizeof(why)))
			return (*res = png_malformed(r, offset, bad, why)), false;
		const struct pcapng_if *ifc = &r->ifs[pkt.interface_id];
		if (ifc->refused) {
			snprintf(why, sizeof(why),
			         "a packet on interface %u, whose Interface "
			         "Description Block was refused",
			         pkt.interface_id);
			return (*res = png_malformed(r, offset, bad, why)), false;
		}
		int64_t sec, ns;
		pcapng_time(ifc, pkt.t, &sec, &ns);
		*offset_out = offset;
		lp->data = pkt.data;
		lp->caplen = pkt.caplen;
		lp->len = pkt.len;
		lp->packet_no = ++r->record_no;
		lp->byte_offset = offset + (uint64_t)(pkt.data - (body - 8));
		lp->time_ps = pcap_clock_ps(&r->clock, sec, ns);
		lp->time_base_s = r->clock.base_s;
		return true;
	}
	r->done = true;
	return (*res = READER_EOF), false;
}

/* link_next_packet_fn for link_decoder_pull: the next packet. */
static bool png_decoder_packet(void *reader, struct link_packet *pkt, struct reader_malformed *bad,
                               enum reader_result *res)
{
	uint64_t offset;
	return png_packet(reader, pkt, &offset, bad, res);
}

static enum reader_result png_next(void *state, struct record *rec, struct reader_malformed *bad)
{
	struct pcapngfile_reader *r = state;
	if (r->dec.ops)
		return link_decoder_pull(&r->dec, &r->dec_no, &r->dec_ended, png_decoder_packet, r,
		                         rec, bad);
	struct link_packet pkt;
	uint64_t offset;
	enum reader_result res;
	if (!png_packet(r, &pkt, &offset, bad, &res))
		return res;
	png_position(r, pkt.packet_no, offset, &rec->pos);
	rec->time_ps = pkt.time_ps;
	rec->time_base_s = pkt.time_base_s;
	return pcap_payload_record(pkt.data, pkt.caplen, pkt.len, rec, bad) ? READER_RECORD
	                                                                    : READER_MALFORMED;
}

static void png_bytes(void *state, uint64_t *read, uint64_t *skipped)
{
	const struct pcapngfile_reader *r = state;
	*read = r->bytes_read;
	*skipped = r->bytes_skipped;
	link_decoder_account(&r->dec, read, skipped);
}

static const char *png_encapsulation(void *state)
{
	const struct pcapngfile_reader *r = state;
	return r->dec.ops ? r->dec.ops->format_name : NULL;
}

static void png_close(void *state)
{
	struct pcapngfile_reader *r = state;
	if (!r)
		return;
	fclose(r->fp);
	sw_free(&r->w);
	free(r->ifs);
	if (r->dec.ops)
		r->dec.ops->free(r->dec.state);
	free(r);
}

const struct reader_ops pcapngfile_reader_ops = {
	.format_name = "pcapng",
	.next = png_next,
	.close = png_close,
	.bytes = png_bytes,
	.encapsulation = png_encapsulation,
};
