/* warp_pipe.c: the Warp Pipe decoder (warp_pipe.h): connections, their
 * two streams (tcp_stream.h), the frames of each (warp_frame.h), and the
 * records and reports they make, pulled one at a time.
 *
 * The framing, as the public source of antmicro/warp-pipe has it:
 *   - inc/warppipe/proto.h (commit 1d3f9af1e21d6f0d9a58950fee47c9c57718fac0):
 *     enum pcie_proto { PCIE_PROTO_DLLP = 2, PCIE_PROTO_TLP = 3 }, and
 *     struct warppipe_pcie_transport { uint8_t t_proto; union { struct
 *     pcie_dllp t_dllp (4 bytes, dl_crc16[2]); struct pcie_dltlp t_tlp
 *     (the 12-bit sequence number in 2 bytes, upper 4 bits reserved, then
 *     the TLP) } };
 *   - src/client.c (commit 080d1c05825f5b05d715e5b4bb315c6a0d408b0f, and
 *     the warppipe_* version of the same file): client_send_pcie_transport()
 *     sends 1 + 6 bytes for a DLLP and 1 + 6 + tlp_total_length() for a TLP
 *     (the sequence field, the TLP, the LCRC written after it), one
 *     send() a frame; the reader takes 7 bytes, then for a TLP the rest of
 *     "1B proto + 2B DL header + 4B DL LCRC32" plus the TLP's length;
 *   - src/crc.c (commit 1d89303a542e8143013d9c9f7a496e40e1b2ea0a): the
 *     CRC-16 over the 4 DLLP bytes and the LCRC over the sequence field and
 *     the TLP, reflected polynomials D008h and EDB88320h from FFFFh /
 *     FFFFFFFFh, complemented, low byte first: the CRC-16 and LCRC of the
 *     PCIe specification as wire/dllp.c and wire/tlp.c compute them
 *     (checked on random frames against both, byte for byte);
 *   - docs/source/pcie-over-tcp.md (commit dfa6c7cecca67def9a73d9884f2e74351e8ac8c9):
 *     the wire format drawn, "a single \x02 (DLLP) or \x03 (TLP) byte
 *     with the relevant packet contents appended";
 *   - inc/warppipe/config.h (commit 1d89303a...): SERVER_PORT_NUM "2115".
 * So a record's bytes are a frame less its protocol byte, unchanged.
 */
#include "read/net/warp_pipe.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "read/net/tcp_stream.h"
#include "read/net/warp_frame.h"

/* The largest segment payload kept (an IPv4 or IPv6 packet holds at most
 * 65535; a capture of a jumbogram or of offloaded segments may hold
 * more): bytes beyond it are taken as not captured. */
#define WP_SEG_MAX (1u << 18)

enum { SIDE_CLIENT = 0, SIDE_SERVER = 1 };

/* The break at the end of the input (compared by address) */
static const char end_capture[] = "the end of the capture";
/* The break at a gap of the stream (compared by address) */
static const char gap_break[] = "a gap in the TCP stream";

struct wp_dir {
	struct tcp_stream ts;
	struct warp_frame fr;
	bool started;
	/* the delivered chunk being given to the framer */
	const uint8_t *chunk;
	size_t chunk_len;
	uint64_t chunk_off;
	struct tcp_pos chunk_pos;
	/* a stream report that waits for the framer's reports of the break */
	bool pending;
	struct reader_malformed pending_bad;
};

struct wp_conn {
	struct net_addr caddr, saddr;
	uint16_t cport, sport;
	uint8_t link;
	bool retired; /* a new connection took its 4-tuple */
	bool has_time;
	uint64_t last_time_ps; /* the latest record time given out on the link */
	struct wp_dir dir[2]; /* SIDE_CLIENT: the client's stream */
};

struct wp_work {
	struct wp_conn *c;
	uint8_t side;
	bool finish, started, free_after;
};

struct warp_pipe {
	struct warp_pipe_opts o;
	const char *name;
	struct wp_conn *conns[WARP_PIPE_MAX_LINKS];
	unsigned nconns; /* links given out */
	uint8_t *seg; /* the current segment's payload: seg_cap bytes */
	size_t seg_cap; /* grown to the largest payload, at most WP_SEG_MAX */
	struct wp_work work[4];
	unsigned nwork, work_head;
	bool ending;
	unsigned end_link, end_side;
	/* connections beyond the limit */
	uint64_t limit_segs, limit_bytes;
	bool limit_told, limit_pending, limit_summary_told;
	struct reader_malformed limit_bad;
	/* the bytes of freed connections, and those no connection took */
	uint64_t decoded, skipped;
};

struct warp_pipe *warp_pipe_new(const struct warp_pipe_opts *o, const char *name)
{
	struct warp_pipe *wp = calloc(1, sizeof(*wp));
	if (!wp)
		return NULL;
	wp->o = *o;
	wp->name = name;
	return wp;
}

static void conn_free(struct warp_pipe *wp, struct wp_conn *c)
{
	for (unsigned s = 0; s < 2; s++) {
		wp->decoded += c->dir[s].fr.decoded;
		wp->skipped += c->dir[s].fr.skipped + tcp_stream_dropped(&c->dir[s].ts);
		tcp_stream_free(&c->dir[s].ts);
	}
	wp->conns[c->link] = NULL;
	free(c);
}

void warp_pipe_free(struct warp_pipe *wp)
{
	if (!wp)
		return;
	for (unsigned i = 0; i < wp->nconns; i++)
		if (wp->conns[i])
			conn_free(wp, wp->conns[i]);
	free(wp->seg);
	free(wp);
}

void warp_pipe_bytes(const struct warp_pipe *wp, uint64_t *decoded, uint64_t *skipped)
{
	uint64_t d = wp->decoded, s = wp->skipped;
	for (unsigned i = 0; i < wp->nconns; i++) {
		const struct wp_conn *c = wp->conns[i];
		if (!c)
			continue;
		for (unsigned k = 0; k < 2; k++) {
			d += c->dir[k].fr.decoded;
			s += c->dir[k].fr.skipped + tcp_stream_dropped(&c->dir[k].ts);
		}
	}
	*decoded = d;
	*skipped = s;
}

static bool addr_eq(const struct net_addr *a, const struct net_addr *b)
{
	return a->family == b->family && memcmp(a->bytes, b->bytes, a->family == 6 ? 16 : 4) == 0;
}

static void addr_text(const struct net_addr *a, uint16_t port, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN] = "?";
	inet_ntop(a->family == 6 ? AF_INET6 : AF_INET, a->bytes, ip, sizeof(ip));
	snprintf(buf, len, a->family == 6 ? "[%s]:%u" : "%s:%u", ip, (unsigned)port);
}

/* Room in seg for a payload of len bytes (at most WP_SEG_MAX): the
 * buffer grows by doubling with the largest payload seen, so a capture
 * of small segments does not cost a quarter megabyte.  False when out of
 * memory (the segment is then skipped, as one no connection takes). */
static bool seg_room(struct warp_pipe *wp, uint32_t len)
{
	uint8_t *seg = grow_to(wp->seg, &wp->seg_cap, len, 1, 2048, WP_SEG_MAX);
	if (!seg)
		return false;
	wp->seg = seg;
	return true;
}

/* The newest connection of this 4-tuple. */
static struct wp_conn *find(struct warp_pipe *wp, const struct net_addr *ca, uint16_t cp,
                            const struct net_addr *sa, uint16_t sp)
{
	for (unsigned i = wp->nconns; i-- > 0;) {
		struct wp_conn *c = wp->conns[i];
		if (c && !c->retired && c->cport == cp && c->sport == sp &&
		    addr_eq(&c->caddr, ca) && addr_eq(&c->saddr, sa))
			return c;
	}
	return NULL;
}

static void fill_pos(struct warp_pipe *wp, struct srcpos *sp, const struct tcp_pos *p)
{
	memset(sp, 0, sizeof(*sp));
	sp->file = wp->name;
	sp->byte_offset = p->byte_offset;
	sp->source_packet = p->packet_no;
	sp->has_source_packet = true;
}

static enum link_dir side_dir(const struct warp_pipe *wp, unsigned side)
{
	return side == SIDE_SERVER ? wp->o.server_dir : (enum link_dir) !wp->o.server_dir;
}

static void report_init(struct warp_pipe *wp, struct reader_malformed *bad, const struct wp_conn *c,
                        unsigned side, const struct tcp_pos *p)
{
	memset(bad, 0, sizeof(*bad));
	reader_malformed_unknown(bad);
	fill_pos(wp, &bad->pos, p);
	if (c) {
		bad->has_dir = bad->has_link = true;
		bad->dir = side_dir(wp, side);
		bad->link = c->link;
	}
	bad->has_time = true;
	bad->time_ps = p->time_ps;
}

static void limit_report(struct warp_pipe *wp, const struct net_packet *np,
                         const struct link_packet *pkt, bool from_server)
{
	wp->limit_segs++;
	wp->limit_bytes += np->payload_len;
	if (wp->limit_told)
		return;
	wp->limit_told = wp->limit_pending = true;
	struct tcp_pos p = { pkt->packet_no, pkt->byte_offset + np->payload_offset, pkt->time_ps,
		             pkt->time_base_s };
	char a[54], b[54]; /* "[" IPv6 "]:" port */
	addr_text(from_server ? &np->dst : &np->src, from_server ? np->dst_port : np->src_port, a,
	          sizeof(a));
	addr_text(from_server ? &np->src : &np->dst, from_server ? np->src_port : np->dst_port, b,
	          sizeof(b));
	report_init(wp, &wp->limit_bad, NULL, 0, &p);
	snprintf(wp->limit_bad.reason, sizeof(wp->limit_bad.reason),
	         "more than %u Warp Pipe connections: this one (client %s, server %s) and any "
	         "further are skipped",
	         WARP_PIPE_MAX_LINKS, a, b);
}

static struct wp_conn *conn_new(struct warp_pipe *wp, const struct net_addr *ca, uint16_t cp,
                                const struct net_addr *sa, uint16_t sp)
{
	struct wp_conn *c = malloc(sizeof(*c));
	if (!c)
		return NULL;
	memset(c, 0, offsetof(struct wp_conn, dir));
	c->caddr = *ca;
	c->saddr = *sa;
	c->cport = cp;
	c->sport = sp;
	c->link = (uint8_t)wp->nconns;
	for (unsigned s = 0; s < 2; s++) {
		struct wp_dir *d = &c->dir[s];
		memset(d, 0, offsetof(struct wp_dir, ts));
		d->started = false;
		d->chunk = NULL;
		d->chunk_len = 0;
		d->pending = false;
		tcp_stream_init(&d->ts);
		warp_frame_init(&d->fr, true, NULL);
	}
	wp->conns[wp->nconns++] = c;
	return c;
}

static void work_push(struct warp_pipe *wp, struct wp_conn *c, unsigned side, bool finish,
                      bool free_after)
{
	if (wp->nwork == sizeof(wp->work) / sizeof(wp->work[0]))
		return; /* never: a segment queues at most 4 */
	struct wp_work *w = &wp->work[wp->nwork++];
	w->c = c;
	w->side = (uint8_t)side;
	w->finish = finish;
	w->started = false;
	w->free_after = free_after;
}

void warp_pipe_segment(struct warp_pipe *wp, const struct net_packet *np,
                       const struct link_packet *pkt)
{
	if (wp->ending || np->transport != NET_TCP) {
		wp->skipped += np->payload_len;
		return;
	}
	uint16_t port = wp->o.port;
	bool syn_only = (np->tcp_flags & (NET_TCP_SYN | NET_TCP_ACK)) == NET_TCP_SYN;
	bool from_server = np->src_port == port;
	if (from_server && np->dst_port == port)
		from_server = !syn_only; /* both ends on the port: the SYN's sender is the client */
	const struct net_addr *ca = from_server ? &np->dst : &np->src;
	const struct net_addr *sa = from_server ? &np->src : &np->dst;
	uint16_t cp = from_server ? np->dst_port : np->src_port;
	uint16_t sp = from_server ? np->src_port : np->dst_port;
	struct wp_conn *c = find(wp, ca, cp, sa, sp);
	if (!c && np->src_port == port && np->dst_port == port) {
		/* both ends on the port, no SYN seen: the other way round */
		c = find(wp, sa, sp, ca, cp);
		if (c) {
			from_server = !from_server;
			const struct net_addr *t = ca;
			ca = sa;
			sa = t;
		}
	}
	if (c && syn_only && !from_server) {
		/* a new connection on the same 4-tuple: a SYN that is not the
		 * first one's again, after the client's stream ended (its FIN
		 * or RST seen, warp_pipe.h).  While the stream is live, the SYN
		 * is no proof the connection is over: tcp_stream reports it (a
		 * SYN with another initial sequence number) and both streams go
		 * on on their link. */
		const struct tcp_stream *ts = &c->dir[SIDE_CLIENT].ts;
		if (ts->state != TCP_NEW && !(ts->syn_seen && ts->isn == np->seq) &&
		    (tcp_stream_ended(ts) || ts->fin_known)) {
			c->retired = true;
			work_push(wp, c, SIDE_CLIENT, true, false);
			work_push(wp, c, SIDE_SERVER, true, true);
			c = NULL;
		}
	}
	if (!c) {
		if (wp->nconns == WARP_PIPE_MAX_LINKS) {
			limit_report(wp, np, pkt, from_server);
			wp->skipped += np->payload_len;
			return;
		}
		c = conn_new(wp, ca, cp, sa, sp);
		if (!c) {
			wp->skipped += np->payload_len;
			return;
		}
	}
	unsigned side = from_server ? SIDE_SERVER : SIDE_CLIENT;
	uint32_t len = np->payload_len;
	if (len > WP_SEG_MAX) {
		wp->skipped += len - WP_SEG_MAX;
		len = WP_SEG_MAX;
	}
	if (!seg_room(wp, len)) {
		wp->skipped += len;
		return;
	}
	if (len)
		memcpy(wp->seg, np->payload, len);
	struct tcp_seg seg = {
		.seq = np->seq,
		.flags = np->tcp_flags,
		.data = wp->seg,
		.len = len,
		.wire_len = np->wire_len > len ? np->wire_len : len,
		.pos = { pkt->packet_no, pkt->byte_offset + np->payload_offset, pkt->time_ps,
		         pkt->time_base_s },
	};
	if (np->tcp_flags & NET_TCP_ACK) {
		/* what the peer has received comes out before its answers */
		tcp_stream_acked(&c->dir[!side].ts, np->ack, &seg.pos);
		work_push(wp, c, !side, false, false);
	}
	tcp_stream_segment(&c->dir[side].ts, &seg);
	work_push(wp, c, side, false, false);
}

/* A record's time: the capture's own time of a frame is its first byte's
 * packet's, but the record cannot be given out before it is complete, and
 * reassembly (the hold, tcp_stream.h) gives a frame out after the frames
 * of either direction that completed before it.  So its time is the later
 * of its first byte's packet time and the latest time already given out on
 * the link: reassembly order raises no capture.time-backwards, and
 * source_packet still names the first byte's packet. */
static void record_fill(struct warp_pipe *wp, struct wp_conn *c, unsigned side,
                        const struct warp_frame_out *out, struct record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->time_ps = out->pos.time_ps;
	if (c->has_time && rec->time_ps < c->last_time_ps)
		rec->time_ps = c->last_time_ps;
	c->has_time = true;
	c->last_time_ps = rec->time_ps;
	rec->time_base_s = out->pos.time_base_s;
	rec->kind = (enum rec_kind)out->kind;
	rec->dir = side_dir(wp, side);
	rec->link = c->link;
	rec->flags = 0;
	rec->bytes = out->bytes;
	rec->len = rec->wire_len = out->len;
	fill_pos(wp, &rec->pos, &out->pos);
}

static const char *kind_name(uint8_t kind)
{
	return kind == REC_DLLP ? "DLLP" : kind == REC_TLP ? "TLP" : "";
}

/* The framer's report of a cut frame or of skipped bytes. */
static enum reader_result frame_report(struct warp_pipe *wp, const struct wp_conn *c, unsigned side,
                                       enum warp_frame_result r, const struct warp_frame_out *out,
                                       struct reader_malformed *bad)
{
	report_init(wp, bad, c, side, &out->pos);
	if (r == WARP_FRAME_CUT) {
		bad->kind = out->kind;
		if (out->need)
			snprintf(bad->reason, sizeof(bad->reason),
			         "Warp Pipe %s frame cut by %s: %llu of its %llu bytes there",
			         kind_name(out->kind), out->why, (unsigned long long)out->have,
			         (unsigned long long)out->need);
		else
			snprintf(bad->reason, sizeof(bad->reason),
			         "Warp Pipe frame cut by %s: %llu bytes of its header there",
			         out->why, (unsigned long long)out->have);
		return READER_MALFORMED;
	}
	/* skipped bytes may have held any number of packets */
	bad->lost_span = true;
	const char *why = out->why ? out->why : "out of step";
	if (out->resumed || !out->until || out->until == end_capture) {
		reader_resync_report(bad, "Warp Pipe stream", "verified frame", why, out->skipped,
		                     out->resumed, out->resume.byte_offset);
		/* the skipped bytes are the stream's, not one stretch of the
		 * file: where it went on is said, not summed */
		bad->has_resume_offset = out->resumed;
		bad->resume_offset = out->resume.byte_offset;
	} else {
		/* up to a gap, reading goes on after it: not bytes_unread (left
		 * unread at the end, rules.def) but bytes_before_gap; up to a FIN
		 * or RST, nothing follows in this stream (bytes_unread) */
		bad->skipped = out->skipped;
		bad->resumed = false;
		bad->to_gap = out->until == gap_break;
		snprintf(bad->reason, sizeof(bad->reason),
		         "damaged Warp Pipe stream (%s): %llu bytes skipped, no verified frame "
		         "among them before %s",
		         why, (unsigned long long)out->skipped, out->until);
	}
	return READER_RESYNC;
}

/* A report of the stream; false for DATA, GAP and END (worked here). */
static bool stream_report(struct warp_pipe *wp, const struct wp_conn *c, unsigned side,
                          const struct tcp_event *ev, struct reader_malformed *bad)
{
	report_init(wp, bad, c, side, &ev->pos);
	switch (ev->kind) {
	case TCP_EV_DIFFERS:
		snprintf(bad->reason, sizeof(bad->reason),
		         "TCP retransmission differs from the bytes already taken: %u of its %u "
		         "bytes from stream offset %llu differ, the first at %llu; the first "
		         "copy is kept",
		         ev->differ, ev->len, (unsigned long long)ev->off,
		         (unsigned long long)ev->first);
		return true;
	case TCP_EV_OUT_OF_WINDOW:
		snprintf(bad->reason, sizeof(bad->reason),
		         "TCP segment out of window (%s): seq %u is %lld from the expected %u; %u "
		         "bytes dropped",
		         ev->why, ev->seq, (long long)ev->distance,
		         (uint32_t)(ev->seq - ev->distance), ev->len);
		return true;
	case TCP_EV_AFTER_END:
		snprintf(bad->reason, sizeof(bad->reason),
		         "TCP segment after the stream ended (%s): %u bytes dropped", ev->why,
		         ev->len);
		return true;
	case TCP_EV_GAP:
		bad->lost_span = true;
		if (ev->packet_before)
			snprintf(bad->reason, sizeof(bad->reason),
			         "TCP stream gap: %llu bytes never captured (%s) between packet "
			         "%llu and packet %llu, at stream offset %llu",
			         (unsigned long long)ev->gap, ev->why,
			         (unsigned long long)ev->packet_before,
			         (unsigned long long)ev->packet_after, (unsigned long long)ev->off);
		else
			snprintf(bad->reason, sizeof(bad->reason),
			         "TCP stream gap: %llu bytes never captured (%s) before packet "
			         "%llu, at stream offset %llu",
			         (unsigned long long)ev->gap, ev->why,
			         (unsigned long long)ev->packet_after, (unsigned long long)ev->off);
		return false;
	default:
		return false;
	}
}

static const char *end_why(const struct tcp_event *ev)
{
	return ev->fin     ? "the end of the connection (FIN)"
	       : ev->reset ? "the end of the connection (RST)"
	                   : end_capture;
}

/* The next record or report of one direction; READER_EOF: none now. */
static enum reader_result dir_next(struct warp_pipe *wp, struct wp_conn *c, unsigned side,
                                   struct record *rec, struct reader_malformed *bad)
{
	struct wp_dir *d = &c->dir[side];
	for (;;) {
		struct warp_frame_out out;
		enum warp_frame_result r = warp_frame_step(&d->fr, &out);
		if (r == WARP_FRAME_RECORD) {
			record_fill(wp, c, side, &out, rec);
			return READER_RECORD;
		}
		if (r != WARP_FRAME_MORE)
			return frame_report(wp, c, side, r, &out, bad);
		if (d->chunk_len) {
			size_t n = warp_frame_feed(&d->fr, d->chunk, d->chunk_len, d->chunk_off,
			                           &d->chunk_pos);
			if (n == 0)
				d->fr.blocked = true; /* the framer passes its head over */
			d->chunk += n;
			d->chunk_len -= n;
			d->chunk_off += n;
			d->chunk_pos.byte_offset += n;
			continue;
		}
		if (d->pending) {
			d->pending = false;
			*bad = d->pending_bad;
			return READER_MALFORMED;
		}
		struct tcp_event ev;
		if (!tcp_stream_next(&d->ts, &ev))
			return READER_EOF;
		if (!d->started) {
			d->started = true;
			if (tcp_stream_midstream(&d->ts))
				warp_frame_lose_step(
				        &d->fr, "the capture starts mid-connection, no SYN seen");
		}
		switch (ev.kind) {
		case TCP_EV_DATA:
			d->chunk = ev.data;
			d->chunk_len = ev.len;
			d->chunk_off = ev.off;
			d->chunk_pos = ev.pos;
			break;
		case TCP_EV_GAP:
			stream_report(wp, c, side, &ev, &d->pending_bad);
			d->pending = true;
			warp_frame_break(&d->fr, gap_break);
			break;
		case TCP_EV_END:
			warp_frame_break(&d->fr, end_why(&ev));
			break;
		default:
			if (stream_report(wp, c, side, &ev, bad))
				return READER_MALFORMED;
			break;
		}
	}
}

void warp_pipe_end(struct warp_pipe *wp)
{
	wp->ending = true;
	wp->end_link = wp->end_side = 0;
}

/* At the end: the next stream to finish; false when all are. */
static bool end_next(struct warp_pipe *wp)
{
	while (wp->end_link < wp->nconns) {
		struct wp_conn *c = wp->conns[wp->end_link];
		unsigned side = wp->end_side;
		if (++wp->end_side == 2) {
			wp->end_side = 0;
			wp->end_link++;
		}
		if (c) {
			work_push(wp, c, side, true, false);
			return true;
		}
	}
	return false;
}

enum reader_result warp_pipe_next(struct warp_pipe *wp, struct record *rec,
                                  struct reader_malformed *bad)
{
	if (wp->limit_pending) {
		wp->limit_pending = false;
		*bad = wp->limit_bad;
		return READER_MALFORMED;
	}
	for (;;) {
		while (wp->work_head < wp->nwork) {
			struct wp_work *w = &wp->work[wp->work_head];
			if (w->finish && !w->started) {
				w->started = true;
				tcp_stream_finish(&w->c->dir[w->side].ts);
			}
			enum reader_result r = dir_next(wp, w->c, w->side, rec, bad);
			if (r != READER_EOF)
				return r;
			wp->work_head++;
			if (w->free_after)
				conn_free(wp, w->c);
		}
		wp->nwork = wp->work_head = 0;
		if (!wp->ending || !end_next(wp))
			break;
	}
	if (wp->ending && wp->limit_segs && !wp->limit_summary_told) {
		wp->limit_summary_told = true;
		*bad = wp->limit_bad; /* at the first segment skipped */
		snprintf(bad->reason, sizeof(bad->reason),
		         "%llu TCP segments (%llu payload bytes) of Warp Pipe connections beyond "
		         "the "
		         "first %u were skipped",
		         (unsigned long long)wp->limit_segs, (unsigned long long)wp->limit_bytes,
		         WARP_PIPE_MAX_LINKS);
		return READER_MALFORMED;
	}
	return READER_EOF;
}
