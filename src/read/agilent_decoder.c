/* agilent_decoder.c: the Agilent/Keysight PCIe analyzer export as
 * cyrozap's tools write it: a pcap or pcapng of LINKTYPE_USER11 (158),
 * one analyzer record per packet (agilent_decoder.h, link_decoder.h;
 * dllpcheck-capture(5), CAPTURES FROM OTHER TOOLS).
 *
 * Layout, from the public source of cyrozap/agilent-pcie-analyzer-re at
 * commit 0153bfd573e06443ab9408757158a569f0f4544c (the header part also
 * read, the same, at c8a7aa42c4e602342fed9761493ee9b38432d250): the
 * dissector wireshark/proto_pcie_capture.c (the header, its flags, the
 * metadata), wireshark/proto_pcie.c dissect_pcie_frame (the symbols: one
 * frame per record), and the writer tools/agilent_pad/examples/pad2pcapng.rs (commit
 * 08dacbcf5fd5c5377c84f288acd4eea7407d6ce3: the 20-byte header built
 * from the PAD file's record, then the record's data, in an EPB of an
 * interface with if_tsresol 9).  Little-endian:
 *
 *     0  record number (u32)         16 flags (u32):
 *     4  timestamp, ns (u64)            bit 30 gap, 29 scrambled,
 *     12 LFSR state (u16)               28 direction (1: upstream),
 *     14 metadata info (u16):           27:12 electrical idle per lane,
 *        bit 15 extra metadata,         11 disparity error, 10 channel
 *        14:0 metadata offset           bonded, 9:8 link speed (1: 2.5,
 *     20 symbols (metadata offset of    3: 5.0 GT/s), 7:4 start lane,
 *        them, or all the rest when     3 symbol error, 2:0 width
 *        the offset is 0)               (x1 << n)
 *     20 + offset: per 8 symbols a K-symbol bitmap byte and a disparity
 *        polarity byte; then extra and LFSR metadata (not read here).
 *
 * The symbols are the 8b/10b-decoded bytes with their framing K symbols
 * (STP FBh, SDP 5Ch, END FDh, EDB FEh, COM BCh).  They go through the
 * 8b/10b framing of the lane reader (read/lanes/frame8b10b.h, one lane,
 * the stream as the analyzer de-striped it): STP ... END is a TLP, STP ...
 * EDB a nullified one, SDP + 6 + END a DLLP, with its checks (a TLP of
 * fewer than 18 symbols, a DLLP of other than 6 bytes, a K symbol inside
 * a packet).  A record is one frame: a packet still open at its end has
 * lost its END, and symbols after its END/EDB other than PAD (a second
 * packet) are reported, not read.  A record that starts with COM is an ordered set (no
 * record); one that starts with a D symbol is no packet: reported.
 *
 * Readings of the source (marked UNVERIFIED in the man page):
 *  - the symbols are taken as descrambled whatever the scrambled flag
 *    says: the source's dissector reads the TLP and DLLP fields from them
 *    as they stand, and its writer copies the analyzer's data unchanged;
 *    the LFSR state is not used;
 *  - K-bitmap bit i of a block is symbol 8n + i (the source names the
 *    bytes, not the bit order); without metadata a symbol is a K symbol
 *    only as the frame's first (STP, SDP, COM) or an STP/SDP frame's last
 *    but its trailing PADs (END, EDB), and those PADs;
 *  - the symbol-error and disparity-error flags are per record: the
 *    record's packet is PHY_ERROR; the disparity polarity bytes are the
 *    running disparity, not errors, and are not read;
 *  - the gap, electrical-idle, speed and width fields are not used.
 *
 * Byte accounting: the bytes of a packet reported malformed as a whole
 * (cut header, bad offset, cut by the snapshot length, too long, no
 * packet) are skipped; all others, ordered sets included, are decoded.
 */
#include "read/agilent_decoder.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/attrs.h"
#include "read/lanes/code8b10b.h"
#include "read/lanes/frame8b10b.h"
#include "read/lanes/scramble8b10b.h"
#include "read/pcap_file.h"

#define AGL_HDR_LEN 20u
#define AGL_F_SCRAMBLED (1u << 29) /* not used: see "descrambled" above */
#define AGL_F_UP (1u << 28)
#define AGL_F_DISPARITY (1u << 11)
#define AGL_F_SYMBOL (1u << 3)
#define AGL_META_EXTRA 0x8000u /* not used: the extra metadata is not read */
#define AGL_META_OFFSET 0x7FFFu
/* The longest frame: STP, the largest TLP record's bytes, END. */
#define AGL_MAX_FRAME (TLP_MAX_RECORD_LEN + 2u)
/* What one record can make: its packet (or a report of it) and a report
 * of what follows the packet, or one report of the record: at most 2
 * (agl_packet stops framing at the first result). */
#define AGL_QUEUE 2u

struct agl_out {
	enum reader_result res; /* READER_RECORD or READER_MALFORMED */
	struct record rec;
	struct reader_malformed bad;
	uint8_t bytes[TLP_MAX_RECORD_LEN];
};

struct agilent {
	const char *name;
	struct scramble_detect det; /* never on: the symbols are descrambled */
	struct frame8b10b frame;
	struct pcap_clock clock;
	/* the record being framed */
	const struct link_packet *pkt;
	enum link_dir dir;
	bool flagged; /* the analyzer flagged a symbol or disparity error */
	uint32_t number; /* the analyzer's record number */
	bool have_header; /* its 20-byte header was there */
	uint64_t time_ps, time_base_s;
	bool ending; /* the frame is closed at the record's end */
	/* what it made, given out by next() */
	struct agl_out q[AGL_QUEUE];
	unsigned q_len, q_next;
	uint64_t decoded, skipped;
};

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

static struct agl_out *agl_slot(struct agilent *a)
{
	if (a->q_len == AGL_QUEUE)
		return NULL; /* cannot happen: a record makes at most AGL_QUEUE */
	struct agl_out *o = &a->q[a->q_len++];
	memset(&o->rec, 0, sizeof(o->rec));
	memset(&o->bad, 0, sizeof(o->bad));
	return o;
}

static void agl_pos(const struct agilent *a, uint64_t byte_offset, struct srcpos *pos)
{
	pos->file = a->name;
	pos->byte_offset = byte_offset;
	pos->source_packet = a->pkt->packet_no;
	pos->has_source_packet = true;
}

/* A report on the record being read (or a packet of it); skipped: its
 * bytes count as skipped. */
static void agl_report(struct agilent *a, uint64_t byte_offset, int kind, const char *fmt, ...)
        PRINTF_LIKE(4, 5);
static void agl_report(struct agilent *a, uint64_t byte_offset, int kind, const char *fmt, ...)
{
	struct agl_out *o = agl_slot(a);
	if (!o)
		return;
	o->res = READER_MALFORMED;
	reader_malformed_unknown(&o->bad);
	agl_pos(a, byte_offset, &o->bad.pos);
	/* what the header showed: direction and time (the finding names the
	 * time); without the header nothing but the position */
	o->bad.has_dir = o->bad.has_time = o->bad.has_link = a->have_header;
	o->bad.time_ps = a->time_ps;
	o->bad.dir = a->dir;
	o->bad.link = 0;
	o->bad.kind = (uint8_t)kind;
	int n = a->have_header
	                ? snprintf(o->bad.reason, sizeof(o->bad.reason),
	                           "Agilent record %u (%s): ", a->number, link_dir_name(a->dir))
	                : snprintf(o->bad.reason, sizeof(o->bad.reason), "Agilent record: ");
	if (n < 0 || (size_t)n >= sizeof(o->bad.reason))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->bad.reason + n, sizeof(o->bad.reason) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* The framer's reasons start "lane 0: ": the stream is one lane here. */
static const char *agl_reason(const char *why, const char *none)
{
	if (!why)
		return none;
	if (strncmp(why, "lane 0: ", 8) == 0)
		why += 8;
	return why;
}

/* lane_packet_fn: what frame8b10b made of the record's symbols. */
static void agl_on_packet(void *ctx, const struct lane_packet *lp)
{
	struct agilent *a = ctx;
	if (lp->kind == LANE_FRAMING) {
		agl_report(a, lp->pos.byte_offset, 0, "%s",
		           agl_reason(lp->reason, "framing error"));
		return;
	}
	if (lp->kind != LANE_DLLP && lp->kind != LANE_TLP)
		return;
	enum rec_kind kind = lp->kind == LANE_DLLP ? REC_DLLP : REC_TLP;
	const char *why = lp->reason;
	/* the record ended with the packet still open: its END is lost */
	if (a->ending)
		why = "the record ends before the packet's END";
	uint32_t len = (uint32_t)(lp->len > TLP_MAX_RECORD_LEN ? TLP_MAX_RECORD_LEN : lp->len);
	struct record probe = { .kind = kind, .dir = a->dir, .len = len, .wire_len = len };
	char size_why[120];
	if (!record_check(&probe, size_why, sizeof(size_why))) {
		/* no record of its kind: the framer's reason says why */
		agl_report(a, lp->pos.byte_offset, (int)kind, "%s: %s",
		           agl_reason(why, "a damaged packet"), size_why);
		return;
	}
	struct agl_out *o = agl_slot(a);
	if (!o)
		return;
	o->res = READER_RECORD;
	memcpy(o->bytes, lp->bytes, len);
	o->rec.kind = kind;
	o->rec.dir = a->dir;
	o->rec.link = 0;
	o->rec.time_ps = a->time_ps;
	o->rec.time_base_s = a->time_base_s;
	o->rec.bytes = o->bytes;
	o->rec.len = o->rec.wire_len = len;
	if (lp->phy_error || a->ending || a->flagged || lane_packet_ending_disagrees(lp))
		o->rec.flags = REC_F_PHY_ERROR;
	agl_pos(a, lp->pos.byte_offset, &o->rec.pos);
}

/* Whether symbol i is a K symbol: the bitmap when the record has one,
 * else the frame's first (a start) and, after STP/SDP, its last but the
 * PADs after it (end: the index of that last) and those PADs. */
static bool agl_is_k(const uint8_t *sym, uint32_t end, const uint8_t *kmap, uint32_t i)
{
	if (kmap)
		return (kmap[2u * (i / 8u)] >> (i % 8u)) & 1u;
	if (i == 0)
		return sym[0] == K_STP || sym[0] == K_SDP || sym[0] == K_COM;
	if (i == end)
		return sym[i] == K_END || sym[i] == K_EDB;
	return i > end && sym[i] == K_PAD;
}

static void agl_packet(void *state, const struct link_packet *pkt)
{
	struct agilent *a = state;
	a->pkt = pkt;
	a->q_len = a->q_next = 0;
	a->dir = DIR_DOWN;
	a->number = 0;
	a->flagged = false;
	a->have_header = pkt->caplen >= AGL_HDR_LEN;
	a->time_ps = pkt->time_ps;
	a->time_base_s = pkt->time_base_s;
	const uint8_t *d = pkt->data;
	if (pkt->caplen < AGL_HDR_LEN) {
		a->skipped += pkt->caplen;
		agl_report(a, pkt->byte_offset, 0, "%u bytes, fewer than the 20-byte header%s",
		           pkt->caplen,
		           pkt->caplen < pkt->len ? " (cut by the snapshot length)" : "");
		return;
	}
	a->number = get32(d);
	uint64_t ns = get64(d + 4);
	/* the record's own clock, as a pcap's (pcap_clock_ps) */
	a->time_ps =
	        pcap_clock_ps(&a->clock, (int64_t)(ns / 1000000000u), (int64_t)(ns % 1000000000u));
	a->time_base_s = a->clock.base_s;
	uint16_t meta = get16(d + 14);
	uint32_t flags = get32(d + 16);
	a->dir = flags & AGL_F_UP ? DIR_UP : DIR_DOWN;
	a->flagged = (flags & (AGL_F_SYMBOL | AGL_F_DISPARITY)) != 0;
	uint32_t avail = pkt->caplen - AGL_HDR_LEN;
	uint32_t off = meta & AGL_META_OFFSET;
	uint32_t n = off ? off : avail;
	const uint8_t *kmap = NULL;
	if (off) {
		uint32_t kmap_len = 2u * ((off + 7u) / 8u);
		if (off > avail || kmap_len > avail - off) {
			a->skipped += pkt->caplen;
			agl_report(a, pkt->byte_offset, 0,
			           "metadata offset %u: the %u symbols and their %u bytes of "
			           "K-symbol and disparity bitmaps run past the %u bytes after the "
			           "header%s",
			           off, off, kmap_len, avail,
			           pkt->caplen < pkt->len ? " (cut by the snapshot length)" : "");
			return;
		}
		kmap = d + AGL_HDR_LEN + off;
	} else if (pkt->caplen < pkt->len) {
		/* the symbols run to the end of the record: those cut are lost */
		a->skipped += pkt->caplen;
		agl_report(a, pkt->byte_offset, 0,
		           "cut by the snapshot length: %u of its %u bytes kept, the symbols "
		           "incomplete",
		           pkt->caplen, pkt->len);
		return;
	}
	const uint8_t *sym = d + AGL_HDR_LEN;
	uint64_t sym_off = pkt->byte_offset + AGL_HDR_LEN;
	if (n == 0) {
		a->decoded += pkt->caplen; /* no symbols: nothing to make */
		return;
	}
	if (n > AGL_MAX_FRAME) {
		a->skipped += pkt->caplen;
		agl_report(a, sym_off, 0, "a frame of %u symbols, longer than the largest TLP (%u)",
		           n, AGL_MAX_FRAME);
		return;
	}
	/* without the bitmap: the frame's last symbol but trailing PADs */
	uint32_t end = n - 1;
	while (!kmap && end > 0 && sym[end] == K_PAD)
		end--;
	bool k0 = agl_is_k(sym, end, kmap, 0);
	if (k0 && sym[0] == K_COM) {
		/* an ordered set: no record; an error in it belongs to no packet */
		a->decoded += pkt->caplen;
		if (a->flagged)
			agl_report(a, sym_off, 0, "%s in an ordered set",
			           flags & AGL_F_SYMBOL ? "a symbol error" : "a disparity error");
		return;
	}
	if (!k0 || (sym[0] != K_STP && sym[0] != K_SDP)) {
		a->skipped += pkt->caplen;
		char nb[8];
		agl_report(a, sym_off, 0,
		           "%u symbols starting with %s, not STP, SDP or COM: no packet", n,
		           code8b10b_name(sym[0], k0, nb));
		return;
	}
	a->decoded += pkt->caplen;
	struct lane_pos pos = { .time_ps = a->time_ps, .line = pkt->packet_no };
	/* one record, one frame: the symbols go in until the framer gives its
	 * packet (at END/EDB, or a second start, which it then holds open) */
	uint32_t i = 0;
	while (i < n && a->q_len == 0) {
		pos.byte_offset = sym_off + i;
		frame8b10b_begin(&a->frame, 1u, 1u);
		frame8b10b_symbol(&a->frame, &pos, 0, sym[i], 0, agl_is_k(sym, end, kmap, i), 0, 0,
		                  0);
		i++;
	}
	if (a->q_len == 0) {
		/* the record ended with the packet open: its END is lost */
		a->ending = true;
		frame8b10b_break(&a->frame, &pos, 0, false);
		a->ending = false;
		return;
	}
	if (frame8b10b_open(&a->frame, NULL)) {
		/* a second start: not this record's packet; the framer forgets it */
		i--;
		frame8b10b_init(&a->frame, 1u, &a->det, agl_on_packet, a);
	}
	/* after the packet: PADs (a wide link's filler) are nothing; any other
	 * symbol is more than one frame, reported once, not read */
	uint32_t rest = i;
	while (rest < n && sym[rest] == K_PAD && agl_is_k(sym, end, kmap, rest))
		rest++;
	if (rest < n)
		agl_report(a, sym_off + rest, 0,
		           "%u symbols after the packet's end (one packet a record), not read",
		           n - rest);
}

static enum reader_result agl_next(void *state, struct record *rec, struct reader_malformed *bad)
{
	struct agilent *a = state;
	if (a->q_next == a->q_len)
		return READER_EOF;
	const struct agl_out *o = &a->q[a->q_next++];
	if (o->res == READER_RECORD)
		*rec = o->rec;
	else
		*bad = o->bad;
	return o->res;
}

static void agl_end(void *state)
{
	(void)state; /* a record is one frame: nothing is held across them */
}

static void agl_bytes(void *state, uint64_t *decoded, uint64_t *skipped)
{
	const struct agilent *a = state;
	*decoded = a->decoded;
	*skipped = a->skipped;
}

static void agl_free(void *state)
{
	free(state);
}

static const struct link_decoder_ops agilent_ops = {
	.format_name = "agilent",
	.packet = agl_packet,
	.next = agl_next,
	.end = agl_end,
	.bytes = agl_bytes,
	.free = agl_free,
};

bool agilent_decoder_new(const struct reader_opts *opts, const char *name, struct link_decoder *dec,
                         char *err, size_t errlen)
{
	(void)opts;
	struct agilent *a = calloc(1, sizeof(*a));
	if (!a) {
		snprintf(err, errlen, "%s: out of memory", name);
		return false;
	}
	a->name = name;
	scramble_detect_init(&a->det, LANE_SCRAMBLE_NO);
	frame8b10b_init(&a->frame, 1u, &a->det, agl_on_packet, a);
	dec->ops = &agilent_ops;
	dec->state = a;
	return true;
}
