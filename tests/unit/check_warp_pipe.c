/* check_warp_pipe.c: unit tests of the Warp Pipe decoder
 * (read/net/warp_pipe.h, warp_frame.h): frames split across segments and
 * several in one, both directions and their mapping, two connections and
 * a new one on the same 4-tuple, a gap and the resynchronisation after
 * it, a damaged frame, garbage, a capture that starts mid-connection, a
 * frame cut by the end, the connection limit; every record's position
 * (packet, file offset of its first byte, time) and the byte accounting
 * (decoded + skipped = every payload byte) in each.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/net/warp_pipe.h"
#include "suites.h"
#include "warp_build.h"

#define MAX_OUT 600

struct item {
	enum reader_result res;
	struct record rec; /* bytes copied below */
	uint8_t bytes[64];
	struct reader_malformed bad;
};

struct run {
	struct warp_pipe *wp;
	uint64_t packet, fed;
	unsigned n;
	struct item it[MAX_OUT];
	unsigned records, malformed, resyncs;
};

/* The packets of a test: packet k's data at file offset 1000k, its TCP
 * payload 54 bytes in, its time k microseconds. */
#define PAYLOAD_AT(k) (1000u * (k) + 54u)

static void drain(struct run *r)
{
	struct record rec;
	struct reader_malformed bad;
	enum reader_result res;
	while ((res = warp_pipe_next(r->wp, &rec, &bad)) != READER_EOF) {
		ck_assert_uint_lt(r->n, MAX_OUT);
		struct item *it = &r->it[r->n++];
		it->res = res;
		if (res == READER_RECORD) {
			r->records++;
			it->rec = rec;
			memcpy(it->bytes, rec.bytes, rec.len < 64 ? rec.len : 64);
			ck_assert_ptr_eq(rec.pos.file, "test.pcap");
			ck_assert(rec.pos.has_source_packet);
		} else {
			ck_assert(res == READER_MALFORMED || res == READER_RESYNC);
			it->bad = bad;
			if (res == READER_MALFORMED)
				r->malformed++;
			else
				r->resyncs++;
		}
	}
}

static struct run *run_new(enum link_dir server_dir)
{
	struct run *r = calloc(1, sizeof(*r));
	ck_assert_ptr_nonnull(r);
	struct warp_pipe_opts o = { WARP_PIPE_PORT, server_dir };
	r->wp = warp_pipe_new(&o, "test.pcap");
	ck_assert_ptr_nonnull(r->wp);
	return r;
}

/* A segment of connection conn (client 10.0.0.conn:40000+conn, server
 * 10.0.0.100:2115), from the server or the client. */
static void wseg_ack(struct run *r, unsigned conn, bool from_server, uint32_t seq, uint8_t flags,
                     const uint8_t *data, uint32_t len, uint32_t ack)
{
	struct net_packet np;
	memset(&np, 0, sizeof(np));
	np.transport = NET_TCP;
	struct net_addr c = { 4, { 10, 0, 0, (uint8_t)conn } };
	struct net_addr s = { 4, { 10, 0, 0, 100 } };
	np.src = from_server ? s : c;
	np.dst = from_server ? c : s;
	np.src_port = from_server ? WARP_PIPE_PORT : (uint16_t)(40000 + conn);
	np.dst_port = from_server ? (uint16_t)(40000 + conn) : WARP_PIPE_PORT;
	np.seq = seq;
	np.ack = ack;
	np.tcp_flags = flags;
	np.payload = data;
	np.payload_len = np.wire_len = len;
	np.payload_offset = 54;
	struct link_packet pkt;
	memset(&pkt, 0, sizeof(pkt));
	pkt.packet_no = ++r->packet;
	pkt.byte_offset = 1000u * pkt.packet_no;
	pkt.time_ps = 1000000u * pkt.packet_no;
	pkt.caplen = pkt.len = 54 + len;
	r->fed += len;
	warp_pipe_segment(r->wp, &np, &pkt);
	drain(r);
}

static void dump(const struct run *r)
{
	for (unsigned k = 0; k < r->n; k++) {
		const struct item *it = &r->it[k];
		if (it->res == READER_RECORD)
			fprintf(stderr,
			        "%u: record kind %d dir %d link %u len %u packet %llu off %llu\n",
			        k, it->rec.kind, it->rec.dir, it->rec.link, it->rec.len,
			        (unsigned long long)it->rec.pos.source_packet,
			        (unsigned long long)it->rec.pos.byte_offset);
		else
			fprintf(stderr, "%u: %s packet %llu off %llu: %s\n", k,
			        it->res == READER_RESYNC ? "resync" : "malformed",
			        (unsigned long long)it->bad.pos.source_packet,
			        (unsigned long long)it->bad.pos.byte_offset, it->bad.reason);
	}
}

static void wseg(struct run *r, unsigned conn, bool from_server, uint32_t seq, uint8_t flags,
                 const uint8_t *data, uint32_t len)
{
	wseg_ack(r, conn, from_server, seq, flags, data, len, 0);
}

static void finish(struct run *r)
{
	warp_pipe_end(r->wp);
	drain(r);
	uint64_t decoded, skipped;
	warp_pipe_bytes(r->wp, &decoded, &skipped);
	ck_assert_uint_eq(decoded + skipped, r->fed);
	warp_pipe_free(r->wp);
}

/* The i-th record. */
static const struct item *rec_at(const struct run *r, unsigned i)
{
	for (unsigned k = 0; k < r->n; k++)
		if (r->it[k].res == READER_RECORD && i-- == 0)
			return &r->it[k];
	ck_abort_msg("no record %u", i);
	return NULL;
}

/* The first report of this result. */
static const struct item *report_of(const struct run *r, enum reader_result res)
{
	for (unsigned k = 0; k < r->n; k++)
		if (r->it[k].res == res)
			return &r->it[k];
	ck_abort_msg("no report");
	return NULL;
}

static void handshake(struct run *r, unsigned conn, uint32_t cisn, uint32_t sisn)
{
	wseg(r, conn, false, cisn, NET_TCP_SYN, NULL, 0);
	wseg(r, conn, true, sisn, NET_TCP_SYN | NET_TCP_ACK, NULL, 0);
	wseg(r, conn, false, cisn + 1, NET_TCP_ACK, NULL, 0);
}

START_TEST(test_split_frames)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[200];
	size_t n = warp_build_mwr(f, sizeof(f), 7, 8); /* 1 + 2 + 12 + 32 + 4 = 51 */
	ck_assert_uint_eq(n, 51);
	size_t m = warp_build_ack(f + n, 6);
	wseg(r, 1, false, 101, NET_TCP_ACK, f, 10);
	ck_assert_uint_eq(r->n, 0);
	wseg(r, 1, false, 111, NET_TCP_ACK, f + 10, 30);
	ck_assert_uint_eq(r->n, 0);
	wseg(r, 1, false, 141, NET_TCP_ACK, f + 40,
	     (uint32_t)(n - 40 + 3)); /* TLP end, DLLP start */
	ck_assert_uint_eq(r->records, 1);
	wseg(r, 1, false, (uint32_t)(101 + n + 3), NET_TCP_ACK, f + n + 3, (uint32_t)(m - 3));
	ck_assert_uint_eq(r->records, 2);
	const struct item *t = rec_at(r, 0), *d = rec_at(r, 1);
	ck_assert_int_eq(t->rec.kind, REC_TLP);
	ck_assert_uint_eq(t->rec.len, 50);
	ck_assert(memcmp(t->bytes, f + 1, 50) == 0);
	ck_assert_int_eq(t->rec.dir, DIR_UP); /* the client's */
	ck_assert_uint_eq(t->rec.pos.source_packet, 4);
	ck_assert_uint_eq(t->rec.pos.byte_offset, PAYLOAD_AT(4));
	ck_assert_uint_eq(t->rec.time_ps, 4000000);
	ck_assert_int_eq(d->rec.kind, REC_DLLP);
	ck_assert_uint_eq(d->rec.len, 6);
	ck_assert(memcmp(d->bytes, f + n + 1, 6) == 0);
	ck_assert_uint_eq(d->rec.pos.source_packet, 6); /* its first byte's packet */
	ck_assert_uint_eq(d->rec.pos.byte_offset, PAYLOAD_AT(6) + (n - 40));
	ck_assert_uint_eq(d->rec.time_ps, 6000000);
	finish(r);
	ck_assert_uint_eq(r->malformed + r->resyncs, 0);
	free(r);
}
END_TEST

START_TEST(test_frames_in_one_segment)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[300];
	size_t n = warp_build_ack(f, 1);
	n += warp_build_mwr(f + n, sizeof(f) - n, 2, 1);
	size_t second = 7;
	n += warp_build_ack(f + n, 3);
	wseg(r, 1, true, 5001, NET_TCP_ACK | NET_TCP_PSH, f, (uint32_t)n);
	ck_assert_uint_eq(r->records, 3);
	ck_assert_int_eq(rec_at(r, 0)->rec.kind, REC_DLLP);
	ck_assert_int_eq(rec_at(r, 1)->rec.kind, REC_TLP);
	ck_assert_int_eq(rec_at(r, 2)->rec.kind, REC_DLLP);
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_int_eq(rec_at(r, i)->rec.dir, DIR_DOWN); /* the server's */
		ck_assert_uint_eq(rec_at(r, i)->rec.pos.source_packet, 4);
		ck_assert_uint_eq(rec_at(r, i)->rec.link, 0);
	}
	ck_assert_uint_eq(rec_at(r, 0)->rec.pos.byte_offset, PAYLOAD_AT(4));
	ck_assert_uint_eq(rec_at(r, 1)->rec.pos.byte_offset, PAYLOAD_AT(4) + second);
	ck_assert_uint_eq(rec_at(r, 2)->rec.pos.byte_offset, PAYLOAD_AT(4) + n - 7);
	finish(r);
	ck_assert_uint_eq(r->malformed + r->resyncs, 0);
	free(r);
}
END_TEST

START_TEST(test_both_directions)
{
	struct run *r = run_new(DIR_UP); /* the server is port U here */
	handshake(r, 1, 100, 5000);
	uint8_t f[100];
	size_t n = warp_build_mwr(f, sizeof(f), 0, 1);
	wseg(r, 1, false, 101, NET_TCP_ACK, f, (uint32_t)n);
	n = warp_build_ack(f, 0);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)n);
	ck_assert_uint_eq(r->records, 2);
	ck_assert_int_eq(rec_at(r, 0)->rec.kind, REC_TLP);
	ck_assert_int_eq(rec_at(r, 0)->rec.dir, DIR_DOWN);
	ck_assert_int_eq(rec_at(r, 1)->rec.kind, REC_DLLP);
	ck_assert_int_eq(rec_at(r, 1)->rec.dir, DIR_UP);
	finish(r);
	free(r);
}
END_TEST

START_TEST(test_two_connections)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	handshake(r, 2, 900, 7000);
	uint8_t f[16];
	size_t n = warp_build_ack(f, 1);
	wseg(r, 2, true, 7001, NET_TCP_ACK, f, (uint32_t)n);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)n);
	ck_assert_uint_eq(r->records, 2);
	ck_assert_uint_eq(rec_at(r, 0)->rec.link, 1); /* by first appearance */
	ck_assert_uint_eq(rec_at(r, 1)->rec.link, 0);
	/* conn 1 ends; a new SYN on its 4-tuple is a new link */
	wseg(r, 1, false, 101, NET_TCP_ACK | NET_TCP_FIN, NULL, 0);
	wseg(r, 1, true, 5008, NET_TCP_ACK | NET_TCP_FIN, NULL, 0);
	handshake(r, 1, 300000, 9000);
	wseg(r, 1, true, 9001, NET_TCP_ACK, f, (uint32_t)n);
	ck_assert_uint_eq(r->records, 3);
	ck_assert_uint_eq(rec_at(r, 2)->rec.link, 2);
	finish(r);
	ck_assert_uint_eq(r->malformed + r->resyncs, 0);
	free(r);
}
END_TEST

/* A second client SYN with another ISN while the connection is live: it
 * is reported, the client's data goes on and the server's stays on the
 * link. */
START_TEST(test_syn_on_live_connection)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[16];
	size_t n = warp_build_ack(f, 1);
	wseg(r, 1, false, 101, NET_TCP_ACK, f, (uint32_t)n);
	wseg(r, 1, false, 300000, NET_TCP_SYN, NULL, 0);
	ck_assert_uint_eq(r->malformed, 1);
	ck_assert_msg(strstr(report_of(r, READER_MALFORMED)->bad.reason,
	                     "a SYN with another initial sequence number"),
	              "%s", report_of(r, READER_MALFORMED)->bad.reason);
	n = warp_build_ack(f, 2);
	wseg(r, 1, false, (uint32_t)(101 + n), NET_TCP_ACK, f, (uint32_t)n);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)n);
	if (getenv("WARP_DUMP"))
		dump(r);
	ck_assert_uint_eq(r->records, 3);
	for (unsigned i = 0; i < 3; i++)
		ck_assert_uint_eq(rec_at(r, i)->rec.link, 0);
	ck_assert_int_eq(rec_at(r, 1)->rec.dir, DIR_UP);
	ck_assert_int_eq(rec_at(r, 2)->rec.dir, DIR_DOWN);
	finish(r);
	ck_assert_uint_eq(r->malformed + r->resyncs, 1);
	free(r);
}
END_TEST

/* A lost segment: the gap reported (with its packets), the frame it cut
 * reported, the bytes up to the next frame that verifies skipped and
 * counted, then frames again. */
START_TEST(test_gap_resync)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[400];
	size_t a = warp_build_mwr(f, sizeof(f), 1, 4); /* 35 bytes */
	size_t b = warp_build_mwr(f + a, sizeof(f) - a, 2, 16); /* 83 */
	size_t c = warp_build_ack(f + a + b, 3);
	size_t d = warp_build_mwr(f + a + b + c, sizeof(f) - a - b - c, 4, 2);
	size_t all = a + b + c + d;
	wseg(r, 1, false, 101, NET_TCP_ACK, f, (uint32_t)(a + 10)); /* A, 10 of B */
	/* 30 bytes of B lost (packet 5 never captured) */
	r->packet++;
	wseg(r, 1, false, (uint32_t)(101 + a + 40), NET_TCP_ACK, f + a + 40,
	     (uint32_t)(all - a - 40));
	ck_assert_uint_eq(r->records, 1); /* the rest held, waiting for the lost bytes */
	/* the server acknowledges them all: they were sent, the capture lost them */
	uint8_t ack[8];
	size_t k = warp_build_ack(ack, 4);
	wseg_ack(r, 1, true, 5001, NET_TCP_ACK, ack, (uint32_t)k, (uint32_t)(101 + all));
	if (getenv("WARP_DUMP"))
		dump(r);
	ck_assert_uint_eq(r->records, 4); /* A, C, D, then the server's Ack */
	ck_assert_int_eq(rec_at(r, 3)->rec.dir, DIR_DOWN);
	ck_assert_uint_eq(rec_at(r, 0)->rec.len, a - 1);
	ck_assert_int_eq(rec_at(r, 1)->rec.kind, REC_DLLP);
	ck_assert_uint_eq(rec_at(r, 1)->rec.pos.byte_offset, PAYLOAD_AT(6) + (b - 40));
	ck_assert_int_eq(rec_at(r, 2)->rec.kind, REC_TLP);
	/* the cut frame, the gap, the skipped bytes: in this order */
	ck_assert_int_eq(r->it[1].res, READER_MALFORMED);
	ck_assert_msg(strstr(r->it[1].bad.reason, "TLP frame cut by a gap in the TCP stream: 10 of "
	                                          "its 83 bytes there"),
	              "%s", r->it[1].bad.reason);
	ck_assert_uint_eq(r->it[1].bad.pos.byte_offset, PAYLOAD_AT(4) + a);
	ck_assert_int_eq(r->it[1].bad.kind, REC_TLP);
	ck_assert_int_eq(r->it[2].res, READER_MALFORMED);
	ck_assert(r->it[2].bad.lost_span);
	ck_assert_msg(strstr(r->it[2].bad.reason, "TCP stream gap: 30 bytes never captured "
	                                          "(acknowledged by the peer) "
	                                          "between packet 4 and packet 6"),
	              "%s", r->it[2].bad.reason);
	ck_assert_int_eq(r->it[3].res, READER_RESYNC);
	const struct reader_malformed *s = &r->it[3].bad;
	ck_assert_uint_eq(s->skipped, b - 40);
	ck_assert(s->resumed);
	ck_assert_uint_eq(s->pos.byte_offset, PAYLOAD_AT(6));
	ck_assert(s->has_dir && s->dir == DIR_UP && s->has_link && s->link == 0);
	char want[200];
	snprintf(
	        want, sizeof(want),
	        "damaged Warp Pipe stream (a gap in the TCP stream): %zu bytes skipped to the next "
	        "verified frame, at offset %zu",
	        b - 40, (size_t)(PAYLOAD_AT(6) + b - 40));
	ck_assert_str_eq(s->reason, want);
	finish(r);
	free(r);
}
END_TEST

/* Bytes skipped out of step up to a second gap: reading goes on after it,
 * so they are not said left unread (to_gap: bytes_before_gap); up to the
 * end they are. */
START_TEST(test_skipped_to_gap)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[16], junk[20];
	size_t n = warp_build_ack(f, 1);
	memset(junk, 0x41, sizeof(junk));
	wseg(r, 1, false, 101, NET_TCP_ACK, f, (uint32_t)n);
	wseg(r, 1, false, (uint32_t)(101 + n + 10), NET_TCP_ACK, junk, 20); /* held */
	wseg(r, 1, false, (uint32_t)(101 + n + 40), NET_TCP_ACK, f, (uint32_t)n); /* held */
	uint8_t a[8];
	size_t k = warp_build_ack(a, 2);
	wseg_ack(r, 1, true, 5001, NET_TCP_ACK, a, (uint32_t)k, (uint32_t)(101 + 2 * n + 40));
	if (getenv("WARP_DUMP"))
		dump(r);
	ck_assert_uint_eq(r->records, 3);
	ck_assert_uint_eq(r->resyncs, 1);
	const struct reader_malformed *s = &report_of(r, READER_RESYNC)->bad;
	ck_assert(!s->resumed);
	ck_assert(s->to_gap);
	ck_assert_uint_eq(s->skipped, 20);
	wseg(r, 1, false, (uint32_t)(101 + 2 * n + 40), NET_TCP_ACK, junk, 20);
	finish(r);
	ck_assert_uint_eq(r->resyncs, 2);
	ck_assert(!r->it[r->n - 1].bad.resumed);
	ck_assert(!r->it[r->n - 1].bad.to_gap);
	free(r);
}
END_TEST

/* A frame whose protocol byte is neither 2 nor 3: out of step until the
 * next frame that verifies; a DLLP with a bad CRC in step is a record
 * (the checks report it). */
START_TEST(test_damaged_frame)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[200];
	size_t n = warp_build_ack(f, 1);
	n += warp_build_ack(f + n, 2);
	f[n - 1] ^= 1; /* a bad CRC: still a frame in step */
	f[n++] = 0x41; /* damaged */
	f[n++] = 0x02; /* a DLLP-looking byte that does not verify */
	f[n++] = 0x00;
	size_t good = n;
	n += warp_build_ack(f + n, 3);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)n);
	ck_assert_uint_eq(r->records, 3);
	ck_assert_uint_eq(r->resyncs, 1);
	const struct reader_malformed *s = &report_of(r, READER_RESYNC)->bad;
	ck_assert_uint_eq(s->skipped, 3);
	ck_assert_uint_eq(s->pos.byte_offset, PAYLOAD_AT(4) + 14);
	ck_assert_msg(strstr(s->reason, "protocol byte 0x41 is neither 2 (DLLP) nor 3 (TLP)"), "%s",
	              s->reason);
	ck_assert_uint_eq(rec_at(r, 2)->rec.pos.byte_offset, PAYLOAD_AT(4) + good);
	/* a TLP with a reserved Fmt */
	uint8_t g[100];
	size_t m = warp_build_mwr(g, sizeof(g), 5, 1);
	g[3] = (uint8_t)(0xA0 | (g[3] & 0x1F)); /* Fmt 101b */
	size_t m2 = warp_build_ack(g + m, 4);
	wseg(r, 1, true, (uint32_t)(5001 + n), NET_TCP_ACK, g, (uint32_t)(m + m2));
	finish(r);
	/* a byte of the TLP's data can start a candidate that claims more bytes
	 * than came: it waits for them, up to the end */
	ck_assert_uint_eq(r->records, 4);
	ck_assert_uint_eq(r->resyncs, 2);
	ck_assert_msg(strstr(r->it[r->n - 2].bad.reason, "reserved Fmt 101b"), "%s",
	              r->it[r->n - 2].bad.reason);
	ck_assert_uint_eq(r->it[r->n - 2].bad.skipped, m);
	free(r);
}
END_TEST

/* Bytes that hold no frame: skipped to the end, counted, and said once. */
START_TEST(test_garbage)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t junk[3000];
	uint32_t x = 7;
	for (size_t i = 0; i < sizeof(junk); i++) {
		x = x * 1103515245u + 12345u;
		junk[i] = (uint8_t)(x >> 16);
	}
	junk[0] = 0x55;
	for (unsigned i = 0; i < 3; i++)
		wseg(r, 1, false, 101 + i * 1000u, NET_TCP_ACK, junk + i * 1000u, 1000);
	finish(r);
	ck_assert_uint_eq(r->records, 0);
	ck_assert_uint_eq(r->resyncs, 1);
	const struct reader_malformed *s = &report_of(r, READER_RESYNC)->bad;
	ck_assert(!s->resumed);
	ck_assert_uint_eq(s->skipped, 3000);
	ck_assert_uint_eq(s->pos.byte_offset, PAYLOAD_AT(4));
	ck_assert_msg(strstr(s->reason, "no verified frame follows; 3000 bytes left unread"), "%s",
	              s->reason);
	free(r);
}
END_TEST

START_TEST(test_cut_at_end)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[200];
	size_t n = warp_build_ack(f, 1);
	size_t t = warp_build_mwr(f + n, sizeof(f) - n, 1, 8);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)(n + 20));
	ck_assert_uint_eq(r->records, 1);
	finish(r);
	ck_assert_uint_eq(r->malformed, 1);
	const struct reader_malformed *b = &report_of(r, READER_MALFORMED)->bad;
	char want[120];
	snprintf(want, sizeof(want),
	         "Warp Pipe TLP frame cut by the end of the capture: 20 of its %zu bytes there", t);
	ck_assert_str_eq(b->reason, want);
	ck_assert_uint_eq(b->pos.byte_offset, PAYLOAD_AT(4) + n);
	ck_assert_int_eq(b->kind, REC_TLP);
	free(r);
}
END_TEST

/* No SYN: the stream is taken from the first segment, out of step, and
 * back at the first frame that verifies. */
START_TEST(test_midstream)
{
	struct run *r = run_new(DIR_DOWN);
	uint8_t f[200];
	size_t n = warp_build_mwr(f, sizeof(f), 1, 8);
	size_t m = warp_build_ack(f + n, 2);
	wseg(r, 1, true, 777777, NET_TCP_ACK, f + 5, (uint32_t)(n + m - 5));
	ck_assert_uint_eq(r->records, 1);
	ck_assert_uint_eq(r->resyncs, 1);
	const struct reader_malformed *s = &report_of(r, READER_RESYNC)->bad;
	ck_assert_uint_eq(s->skipped, n - 5);
	ck_assert_msg(strstr(s->reason, "the capture starts mid-connection, no SYN seen"), "%s",
	              s->reason);
	ck_assert_int_eq(rec_at(r, 0)->rec.kind, REC_DLLP);
	/* starting at a frame: nothing skipped, nothing said */
	wseg(r, 2, false, 1234, NET_TCP_ACK, f, (uint32_t)n);
	ck_assert_uint_eq(r->records, 2);
	ck_assert_uint_eq(r->resyncs, 1);
	finish(r);
	free(r);
}
END_TEST

/* Out of step, a DLLP whose CRC-16 checks is no frame unless it ends where
 * its segment does or a frame that verifies follows it: one made of
 * payload bytes is skipped; one of an undefined type too. */
START_TEST(test_resync_dllp_candidate)
{
	struct run *r = run_new(DIR_DOWN);
	uint8_t f[200];
	size_t n = 0;
	f[n++] = 0x41;
	f[n++] = 0x42;
	n += warp_build_ack(f + n, 9); /* a DLLP made of payload bytes */
	f[n++] = 0x41; /* no frame after it */
	f[n++] = 0x43;
	f[n++] = 0x44;
	size_t good = n;
	n += warp_build_ack(f + n, 1);
	n += warp_build_mwr(f + n, sizeof(f) - n, 2, 1);
	wseg(r, 1, true, 777777, NET_TCP_ACK, f, (uint32_t)n);
	if (getenv("WARP_DUMP"))
		dump(r);
	ck_assert_uint_eq(r->records, 2);
	ck_assert_uint_eq(rec_at(r, 0)->rec.pos.byte_offset, PAYLOAD_AT(1) + good);
	ck_assert_uint_eq(report_of(r, READER_RESYNC)->bad.skipped, good);
	/* a DLLP of an undefined type (05h) whose CRC checks, at a segment's
	 * end, out of step */
	uint8_t g[16];
	g[0] = 0x41;
	g[1] = WARP_PIPE_PROTO_DLLP;
	g[2] = 0x05;
	g[3] = g[4] = g[5] = 0;
	dllp_crc16_bytes(g + 2, g + 6);
	wseg(r, 2, true, 5000, NET_TCP_ACK, g, 8);
	ck_assert_uint_eq(r->records, 2);
	finish(r);
	ck_assert_uint_eq(r->records, 2);
	ck_assert_uint_eq(r->resyncs, 2);
	free(r);
}
END_TEST

/* A frame released from the hold after a record of the other direction:
 * its time is not before the one already given out on the link, its
 * packet is its first byte's. */
START_TEST(test_hold_time)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[16], g[16];
	size_t n = warp_build_ack(f, 1);
	warp_build_ack(f + n, 2);
	wseg(r, 1, false, (uint32_t)(101 + n), NET_TCP_ACK, f + n, (uint32_t)n); /* held */
	warp_build_ack(g, 3);
	wseg(r, 1, true, 5001, NET_TCP_ACK, g, (uint32_t)n);
	wseg(r, 1, false, 101, NET_TCP_ACK, f, (uint32_t)n);
	ck_assert_uint_eq(r->records, 3);
	for (unsigned i = 1; i < 3; i++)
		ck_assert_uint_ge(rec_at(r, i)->rec.time_ps, rec_at(r, i - 1)->rec.time_ps);
	ck_assert_uint_eq(rec_at(r, 2)->rec.pos.source_packet, 4);
	ck_assert_uint_eq(rec_at(r, 2)->rec.time_ps, 6000000);
	finish(r);
	free(r);
}
END_TEST

/* A TLP with TD=1 as warp-pipe sends it, without the ECRC DW (its
 * tlp_total_length() ignores TD): the shorter frame, whose LCRC checks,
 * with a DLLP after it in the same segment, and alone at a segment's end;
 * one with its ECRC DW is the longer frame. */
START_TEST(test_td_without_ecrc)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[200];
	size_t n = warp_build_mwr(f, sizeof(f), 1, 2);
	f[5] |= 0x80; /* TD */
	tlp_lcrc_bytes(f + 1, n - 5, f + n - 4);
	size_t m = n + warp_build_ack(f + n, 2);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)m);
	if (getenv("WARP_DUMP"))
		dump(r);
	ck_assert_uint_eq(r->records, 2);
	ck_assert_uint_eq(rec_at(r, 0)->rec.len, n - 1);
	ck_assert_int_eq(rec_at(r, 1)->rec.kind, REC_DLLP);
	wseg(r, 1, true, (uint32_t)(5001 + m), NET_TCP_ACK, f, (uint32_t)n); /* alone */
	ck_assert_uint_eq(r->records, 3);
	ck_assert_uint_eq(rec_at(r, 2)->rec.len, n - 1);
	/* with its ECRC DW (any value: the LCRC covers it) */
	uint8_t g[200];
	memcpy(g, f, n - 4);
	memset(g + n - 4, 0x5A, 4);
	tlp_lcrc_bytes(g + 1, n - 1, g + n);
	wseg(r, 1, true, (uint32_t)(5001 + m + n), NET_TCP_ACK, g, (uint32_t)(n + 4));
	ck_assert_uint_eq(r->records, 4);
	ck_assert_uint_eq(rec_at(r, 3)->rec.len, n + 3);
	/* out of step (mid-connection): back in step at such a TLP */
	uint8_t h[200];
	h[0] = 0x41;
	memcpy(h + 1, f, n);
	wseg(r, 2, true, 777, NET_TCP_ACK, h, (uint32_t)(n + 1));
	ck_assert_uint_eq(r->records, 5);
	ck_assert_uint_eq(rec_at(r, 4)->rec.len, n - 1);
	ck_assert_uint_eq(r->resyncs, 1);
	finish(r);
	ck_assert_uint_eq(r->malformed + r->resyncs, 1);
	free(r);
}
END_TEST

/* The retransmission of a frame changes nothing; a differing one is
 * reported and the first copy kept; an out-of-order pair is put right. */
START_TEST(test_retransmission_and_reorder)
{
	struct run *r = run_new(DIR_DOWN);
	handshake(r, 1, 100, 5000);
	uint8_t f[100], g[100];
	size_t a = warp_build_ack(f, 1);
	size_t b = warp_build_ack(f + a, 2);
	size_t c = warp_build_mwr(f + a + b, sizeof(f) - a - b, 3, 1);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)a);
	wseg(r, 1, true, 5001, NET_TCP_ACK, f, (uint32_t)a); /* again */
	memcpy(g, f, a);
	g[3] ^= 0xFF;
	wseg(r, 1, true, 5001, NET_TCP_ACK, g, (uint32_t)a); /* differs */
	ck_assert_uint_eq(r->records, 1);
	ck_assert_uint_eq(r->malformed, 1);
	ck_assert_msg(strstr(report_of(r, READER_MALFORMED)->bad.reason,
	                     "TCP retransmission differs from the bytes already taken: 1 of its 7"),
	              "%s", report_of(r, READER_MALFORMED)->bad.reason);
	wseg(r, 1, true, (uint32_t)(5001 + a + b), NET_TCP_ACK, f + a + b, (uint32_t)c);
	wseg(r, 1, true, (uint32_t)(5001 + a), NET_TCP_ACK, f + a, (uint32_t)b);
	ck_assert_uint_eq(r->records, 3);
	ck_assert_int_eq(rec_at(r, 1)->rec.kind, REC_DLLP);
	ck_assert_uint_eq(rec_at(r, 1)->rec.pos.source_packet, 8);
	ck_assert_int_eq(rec_at(r, 2)->rec.kind, REC_TLP);
	ck_assert_uint_eq(rec_at(r, 2)->rec.pos.source_packet, 7);
	finish(r);
	ck_assert_uint_eq(r->malformed, 1);
	free(r);
}
END_TEST

START_TEST(test_connection_limit)
{
	struct run *r = run_new(DIR_DOWN);
	uint8_t f[16];
	size_t n = warp_build_ack(f, 1);
	for (unsigned i = 0; i < WARP_PIPE_MAX_LINKS + 3; i++) {
		struct net_packet np;
		memset(&np, 0, sizeof(np));
		np.transport = NET_TCP;
		np.src = (struct net_addr){ 6, { 0xfd, 0, [14] = (uint8_t)(i >> 8), (uint8_t)i } };
		np.dst = (struct net_addr){ 6, { 0xfd, 0, [15] = 1 } };
		np.src_port = 50000;
		np.dst_port = WARP_PIPE_PORT;
		np.seq = 1;
		np.tcp_flags = NET_TCP_ACK;
		np.payload = f;
		np.payload_len = np.wire_len = (uint32_t)n;
		struct link_packet pkt = { 0 };
		pkt.packet_no = ++r->packet;
		r->fed += n;
		warp_pipe_segment(r->wp, &np, &pkt);
		drain(r);
	}
	ck_assert_uint_eq(r->records, WARP_PIPE_MAX_LINKS);
	ck_assert_uint_eq(r->malformed, 1);
	ck_assert_msg(strstr(report_of(r, READER_MALFORMED)->bad.reason,
	                     "more than 256 Warp Pipe connections: this one (client "
	                     "[fd00::100]:50000, server [fd00::1]:2115)"),
	              "%s", report_of(r, READER_MALFORMED)->bad.reason);
	finish(r);
	ck_assert_uint_eq(r->malformed, 2);
	ck_assert_msg(strstr(r->it[r->n - 1].bad.reason, "3 TCP segments (21 payload bytes)"), "%s",
	              r->it[r->n - 1].bad.reason);
	free(r);
}
END_TEST

Suite *suite_warp_pipe(void)
{
	Suite *s = suite_create("warp_pipe");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_split_frames);
	tcase_add_test(tc, test_frames_in_one_segment);
	tcase_add_test(tc, test_both_directions);
	tcase_add_test(tc, test_two_connections);
	tcase_add_test(tc, test_syn_on_live_connection);
	tcase_add_test(tc, test_gap_resync);
	tcase_add_test(tc, test_skipped_to_gap);
	tcase_add_test(tc, test_damaged_frame);
	tcase_add_test(tc, test_garbage);
	tcase_add_test(tc, test_cut_at_end);
	tcase_add_test(tc, test_midstream);
	tcase_add_test(tc, test_resync_dllp_candidate);
	tcase_add_test(tc, test_retransmission_and_reorder);
	tcase_add_test(tc, test_hold_time);
	tcase_add_test(tc, test_td_without_ecrc);
	tcase_add_test(tc, test_connection_limit);
	suite_add_tcase(s, tc);
	return s;
}
