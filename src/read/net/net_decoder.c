/* net_decoder.c: a network capture's packets to Warp Pipe and NetTLP,
 * everything else counted (net_decoder.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/net/net_decoder.h"
#include "read/net/net_packet.h"
#include "read/net/nettlp.h"
#include "read/net/warp_pipe.h"

#define NET_LINKS 256u

enum source { SRC_WARP, SRC_NETTLP, SRC_COUNT };

struct net_decoder {
	uint32_t linktype;
	const char *name;
	uint16_t warp_port;
	struct warp_pipe *wp;
	struct nettlp *nt;
	bool ended;
	uint64_t record_no;
	/* what this packet made besides Warp Pipe's: one record or report */
	bool have_own;
	enum reader_result own_res;
	struct record own_rec;
	/* its bytes: a packet's data is valid during the call only
	 * (link_decoder.h), the record is given out after it */
	uint8_t own_bytes[TLP_MAX_RECORD_LEN];
	struct reader_malformed own_bad;
	/* the packets that are not PCIe traffic, reported once at the end */
	uint64_t other_packets, other_first, other_first_offset;
	char other_first_what[64];
	bool note_given;
	/* of the packets' data: in PCIe packets, and skipped (not PCIe,
	 * damaged, fragments); Warp Pipe's payload bytes are its own */
	uint64_t decoded, skipped;
	/* link numbers given out, by source and the source's own number */
	int16_t link_map[SRC_COUNT][NET_LINKS];
	unsigned links;
};

static void position(const struct net_decoder *d, const struct link_packet *pkt, struct srcpos *pos)
{
	memset(pos, 0, sizeof(*pos));
	pos->file = d->name;
	pos->byte_offset = pkt->byte_offset;
	pos->source_packet = pkt->packet_no;
	pos->has_source_packet = true;
}

/* A packet that may have been PCIe but cannot be read. */
static void own_report(struct net_decoder *d, const struct link_packet *pkt, const char *what,
                       const char *why)
{
	d->have_own = true;
	d->own_res = READER_MALFORMED;
	reader_malformed_unknown(&d->own_bad);
	position(d, pkt, &d->own_bad.pos);
	snprintf(d->own_bad.reason, sizeof(d->own_bad.reason),
	         "%.32s%.140s (offsets in the packet)", what, why);
}

static void not_pcie(struct net_decoder *d, const struct link_packet *pkt, const char *what)
{
	if (d->other_packets++ == 0) {
		d->other_first = pkt->packet_no;
		d->other_first_offset = pkt->byte_offset;
		snprintf(d->other_first_what, sizeof(d->other_first_what), "%.63s", what);
	}
	d->skipped += pkt->caplen;
}

static bool is_warp(const struct net_decoder *d, const struct net_packet *np)
{
	return np->transport == NET_TCP &&
	       (np->src_port == d->warp_port || np->dst_port == d->warp_port);
}

static bool is_nettlp(const struct net_packet *np)
{
	return np->transport == NET_UDP && nettlp_ports(np->src_port, np->dst_port);
}

static void nd_packet(void *state, const struct link_packet *pkt)
{
	struct net_decoder *d = state;
	struct net_packet np;
	char why[200];
	char what[160];

	d->have_own = false;
	switch (net_packet_parse(d->linktype, pkt->data, pkt->caplen, &np, why, sizeof(why))) {
	case NET_NOT_IP:
		not_pcie(d, pkt, why);
		return;
	case NET_DAMAGED:
		d->skipped += pkt->caplen;
		own_report(d, pkt, "", why);
		return;
	case NET_FRAGMENT:
		if (is_warp(d, &np) || is_nettlp(&np)) {
			d->skipped += pkt->caplen;
			own_report(d, pkt,
			           is_warp(d, &np) ? "a Warp Pipe segment lost: "
			                           : "a NetTLP datagram lost: ",
			           why);
		} else {
			not_pcie(d, pkt, "an IP fragment that shows no port of ours");
		}
		return;
	case NET_PARSED:
		break;
	}
	if (is_warp(d, &np)) {
		/* the headers are this packet's, the payload Warp Pipe's */
		d->decoded += pkt->caplen - np.payload_len;
		warp_pipe_segment(d->wp, &np, pkt);
		return;
	}
	if (is_nettlp(&np)) {
		d->have_own = true;
		d->own_res = nettlp_datagram(d->nt, &np, pkt, &d->own_rec, &d->own_bad);
		if (d->own_res == READER_RECORD && d->own_rec.len > sizeof(d->own_bytes)) {
			/* more than the largest TLP: no record of ours */
			d->own_res = READER_MALFORMED;
			memset(&d->own_bad, 0, sizeof(d->own_bad));
			d->own_bad.pos = d->own_rec.pos;
			snprintf(d->own_bad.reason, sizeof(d->own_bad.reason),
			         "nettlp: a TLP of %u bytes, more than the largest TLP (%u bytes)",
			         d->own_rec.len, (unsigned)sizeof(d->own_bytes));
		}
		if (d->own_res == READER_RECORD) {
			memcpy(d->own_bytes, d->own_rec.bytes, d->own_rec.len);
			d->own_rec.bytes = d->own_bytes;
			d->decoded += pkt->caplen;
		} else {
			d->skipped += pkt->caplen;
		}
		return;
	}
	if (np.transport == NET_TCP || np.transport == NET_UDP)
		snprintf(what, sizeof(what), "%s port %u to %u",
		         np.transport == NET_TCP ? "tcp" : "udp", np.src_port, np.dst_port);
	else
		snprintf(what, sizeof(what), "ipv%u protocol %u", np.src.family, np.protocol);
	not_pcie(d, pkt, what);
}

/* The link given out for a source's own link number; -1 when the 256
 * are taken. */
static int map_link(struct net_decoder *d, enum source src, uint8_t inner)
{
	int16_t *m = &d->link_map[src][inner];
	if (*m < 0) {
		if (d->links == NET_LINKS)
			return -1;
		*m = (int16_t)d->links++;
	}
	return *m;
}

/* Renumbers what a source gave; a record whose link cannot be given
 * becomes a report. */
static enum reader_result give(struct net_decoder *d, enum source src, enum reader_result res,
                               struct record *rec, struct reader_malformed *bad)
{
	if (res == READER_RECORD) {
		int l = map_link(d, src, rec->link);
		if (l < 0) {
			reader_malformed_unknown(bad);
			bad->pos = rec->pos;
			bad->kind = (uint8_t)rec->kind;
			snprintf(
			        bad->reason, sizeof(bad->reason),
			        "a record of a connection or address pair beyond the first %u (one "
			        "link each): skipped",
			        NET_LINKS);
			res = READER_MALFORMED;
		} else {
			rec->link = (uint8_t)l;
		}
	} else if (bad->has_link) {
		int l = map_link(d, src, bad->link);
		bad->has_link = l >= 0;
		bad->link = l >= 0 ? (uint8_t)l : 0;
	}
	/* every record and report is numbered; a region skipped gets the
	 * number the next record will have (link_decoder.h) */
	if (res == READER_RECORD)
		rec->pos.record_no = ++d->record_no;
	else if (res == READER_MALFORMED)
		bad->pos.record_no = ++d->record_no;
	else
		bad->pos.record_no = d->record_no + 1;
	return res;
}

static enum reader_result nd_next(void *state, struct record *rec, struct reader_malformed *bad)
{
	struct net_decoder *d = state;

	if (d->have_own) {
		d->have_own = false;
		if (d->own_res == READER_RECORD)
			*rec = d->own_rec;
		else
			*bad = d->own_bad;
		return give(d, SRC_NETTLP, d->own_res, rec, bad);
	}
	enum reader_result res = warp_pipe_next(d->wp, rec, bad);
	if (res != READER_EOF)
		return give(d, SRC_WARP, res, rec, bad);
	if (d->ended && !d->note_given && d->other_packets) {
		d->note_given = true;
		reader_malformed_unknown(bad);
		memset(&bad->pos, 0, sizeof(bad->pos));
		bad->pos.file = d->name;
		bad->pos.byte_offset = d->other_first_offset;
		bad->pos.source_packet = d->other_first;
		bad->pos.has_source_packet = true;
		bad->pos.record_no = d->record_no + 1;
		bad->skipped = d->other_packets;
		snprintf(bad->reason, sizeof(bad->reason),
		         "%llu packet%s of no PCIe traffic (neither Warp Pipe on TCP port %u nor "
		         "NetTLP) skipped, the first packet %llu (%s)",
		         (unsigned long long)d->other_packets, d->other_packets == 1 ? "" : "s",
		         d->warp_port, (unsigned long long)d->other_first, d->other_first_what);
		return READER_NOTE;
	}
	return READER_EOF;
}

static void nd_end(void *state)
{
	struct net_decoder *d = state;
	d->ended = true;
	warp_pipe_end(d->wp);
}

static void nd_bytes(void *state, uint64_t *decoded, uint64_t *skipped)
{
	struct net_decoder *d = state;
	uint64_t wd = 0, ws = 0;
	warp_pipe_bytes(d->wp, &wd, &ws);
	*decoded = d->decoded + wd;
	*skipped = d->skipped + ws;
}

static void nd_free(void *state)
{
	struct net_decoder *d = state;
	if (d == NULL)
		return;
	warp_pipe_free(d->wp);
	nettlp_free(d->nt);
	free(d);
}

static const struct link_decoder_ops net_decoder_ops = {
	.format_name = "network",
	.packet = nd_packet,
	.next = nd_next,
	.end = nd_end,
	.bytes = nd_bytes,
	.free = nd_free,
};

bool net_decoder_new(uint32_t linktype, const struct reader_opts *opts, const char *name,
                     struct link_decoder *dec, char *err, size_t errlen)
{
	struct net_decoder *d = calloc(1, sizeof(*d));

	dec->ops = NULL;
	dec->state = NULL;
	if (d == NULL)
		goto oom;
	d->linktype = linktype;
	d->name = name;
	d->warp_port = opts->warp_pipe_port ? opts->warp_pipe_port : WARP_PIPE_PORT;
	struct warp_pipe_opts wo = { d->warp_port, opts->net_server_dir };
	struct nettlp_opts no = { opts->net_adapter_dir };
	d->wp = warp_pipe_new(&wo, name);
	d->nt = nettlp_new(&no, name);
	if (d->wp == NULL || d->nt == NULL)
		goto oom;
	for (unsigned s = 0; s < SRC_COUNT; s++)
		for (unsigned i = 0; i < NET_LINKS; i++)
			d->link_map[s][i] = -1;
	dec->ops = &net_decoder_ops;
	dec->state = d;
	return true;
oom:
	nd_free(d);
	snprintf(err, errlen, "%s: out of memory", name);
	return false;
}
