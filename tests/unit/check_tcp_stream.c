/* check_tcp_stream.c: unit tests of one TCP direction's reassembly
 * (read/net/tcp_stream.h): in order, out of order within the hold and
 * beyond it (segments and bytes), identical overlaps dropped, a differing
 * retransmission reported, the sequence space wrapping, a gap with its
 * size and packets, FIN and RST, a capture that starts mid-connection,
 * segments out of window, a segment cut by the snapshot length; and the
 * byte accounting (delivered + dropped = captured) in each.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "read/net/net_packet.h"
#include "read/net/tcp_stream.h"
#include "suites.h"

/* What a stream gave out. */
struct got {
	uint8_t bytes[200000];
	size_t n; /* delivered */
	uint64_t next_off;
	uint64_t fed; /* captured bytes given */
	unsigned kinds[TCP_EV_END + 1];
	struct tcp_event last[TCP_EV_END + 1]; /* the last of each kind */
	uint64_t data_pos_packet[64]; /* packet of each DATA event */
	unsigned ndata;
};

static void drain(struct tcp_stream *ts, struct got *g)
{
	struct tcp_event ev;
	while (tcp_stream_next(ts, &ev)) {
		ck_assert_int_le(ev.kind, TCP_EV_END);
		g->kinds[ev.kind]++;
		g->last[ev.kind] = ev;
		if (ev.kind == TCP_EV_DATA) {
			ck_assert_uint_ge(ev.off, g->next_off); /* offsets only grow */
			g->next_off = ev.off + ev.len;
			ck_assert_uint_le(g->n + ev.len, sizeof(g->bytes));
			memcpy(g->bytes + g->n, ev.data, ev.len);
			g->n += ev.len;
			if (g->ndata < 64)
				g->data_pos_packet[g->ndata++] = ev.pos.packet_no;
		}
	}
}

static void seg(struct tcp_stream *ts, struct got *g, uint32_t seq, uint8_t flags, const char *data,
                uint64_t packet)
{
	struct tcp_seg s = { 0 };
	s.seq = seq;
	s.flags = flags;
	s.data = (const uint8_t *)data;
	s.len = s.wire_len = (uint32_t)strlen(data);
	s.pos.packet_no = packet;
	s.pos.byte_offset = packet * 100;
	g->fed += s.len;
	tcp_stream_segment(ts, &s);
	drain(ts, g);
}

static void seg_bytes(struct tcp_stream *ts, struct got *g, uint32_t seq, const uint8_t *data,
                      uint32_t len, uint64_t packet)
{
	struct tcp_seg s = { 0 };
	s.seq = seq;
	s.flags = NET_TCP_ACK;
	s.data = data;
	s.len = s.wire_len = len;
	s.pos.packet_no = packet;
	g->fed += len;
	tcp_stream_segment(ts, &s);
	drain(ts, g);
}

static void finish(struct tcp_stream *ts, struct got *g)
{
	tcp_stream_finish(ts);
	drain(ts, g);
	/* every captured byte delivered or dropped */
	ck_assert_uint_eq(g->n + tcp_stream_dropped(ts), g->fed);
}

static struct got *got_new(void)
{
	struct got *g = calloc(1, sizeof(*g));
	ck_assert_ptr_nonnull(g);
	return g;
}

START_TEST(test_in_order)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 2);
	seg(&ts, g, 1004, NET_TCP_ACK | NET_TCP_PSH, "defg", 3);
	ck_assert_uint_eq(g->n, 7);
	ck_assert(memcmp(g->bytes, "abcdefg", 7) == 0);
	ck_assert(!tcp_stream_midstream(&ts));
	ck_assert_uint_eq(g->kinds[TCP_EV_DATA], 2);
	ck_assert_uint_eq(g->last[TCP_EV_DATA].pos.packet_no, 3);
	ck_assert_uint_eq(g->last[TCP_EV_DATA].pos.byte_offset, 300);
	ck_assert_uint_eq(g->last[TCP_EV_DATA].off, 3);
	finish(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP] + g->kinds[TCP_EV_DIFFERS], 0);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_out_of_order_within)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1007, NET_TCP_ACK, "ghi", 2);
	seg(&ts, g, 1004, NET_TCP_ACK, "def", 3);
	ck_assert_uint_eq(g->n, 0); /* held */
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 4);
	ck_assert_uint_eq(g->n, 9);
	ck_assert(memcmp(g->bytes, "abcdefghi", 9) == 0);
	/* in stream order, each with its own packet */
	ck_assert_uint_eq(g->data_pos_packet[0], 4);
	ck_assert_uint_eq(g->data_pos_packet[1], 3);
	ck_assert_uint_eq(g->data_pos_packet[2], 2);
	finish(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 0);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

/* More out-of-order segments than the hold takes: the missing bytes are
 * given up as one gap, every held byte is delivered. */
START_TEST(test_out_of_order_beyond_segments)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 0, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1, NET_TCP_ACK, "x", 2);
	/* bytes 2..3 never come; segments of 2 bytes from 3 on */
	for (unsigned i = 0; i < TCP_STREAM_HOLD_SEGS; i++)
		seg(&ts, g, 4 + 2 * i, NET_TCP_ACK, "ab", 10 + i);
	ck_assert_uint_eq(g->n, 1);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 0);
	seg(&ts, g, 4 + 2 * TCP_STREAM_HOLD_SEGS, NET_TCP_ACK, "cd", 99);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 1);
	struct tcp_event *gp = &g->last[TCP_EV_GAP];
	ck_assert_uint_eq(gp->gap, 2);
	ck_assert_uint_eq(gp->off, 1);
	ck_assert_uint_eq(gp->packet_before, 2);
	ck_assert_uint_eq(gp->packet_after, 10);
	ck_assert_str_eq(gp->why, "the out-of-order hold is full");
	ck_assert_uint_eq(g->n, 1 + 2 * TCP_STREAM_HOLD_SEGS + 2);
	ck_assert(memcmp(g->bytes + g->n - 4, "abcd", 4) == 0);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

/* ... and more bytes than it takes; a lower segment that does not fit is
 * the one the gap goes to. */
START_TEST(test_out_of_order_beyond_bytes)
{
	static uint8_t big[40000], big2[40000];
	memset(big, 'B', sizeof(big));
	memset(big2, 'C', sizeof(big2));
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 0, NET_TCP_SYN, "", 1);
	seg_bytes(&ts, g, 101, big, sizeof(big), 2); /* bytes 0..99 missing */
	ck_assert_uint_eq(g->n, 0);
	seg_bytes(&ts, g, 51, big2, 50, 3); /* held, below the first */
	seg_bytes(&ts, g, 101 + sizeof(big), big2, sizeof(big2), 4); /* does not fit */
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 1); /* the 50 bytes before 51 */
	ck_assert_uint_eq(g->last[TCP_EV_GAP].off, 0);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].gap, 50);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].packet_after, 3);
	ck_assert_str_eq(g->last[TCP_EV_GAP].why, "the out-of-order hold is full");
	ck_assert_uint_eq(g->n, 50 + sizeof(big) + sizeof(big2));
	ck_assert_uint_eq(g->last[TCP_EV_DATA].off, 50 + 50 + sizeof(big));
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_overlap_identical)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abcdef", 2);
	seg(&ts, g, 1003, NET_TCP_ACK, "cdefgh", 3); /* 4 old, 2 new */
	seg(&ts, g, 1001, NET_TCP_ACK, "abcdefgh", 4); /* all old */
	ck_assert_uint_eq(g->n, 8);
	ck_assert(memcmp(g->bytes, "abcdefgh", 8) == 0);
	ck_assert_uint_eq(g->kinds[TCP_EV_DIFFERS], 0);
	ck_assert_uint_eq(tcp_stream_dropped(&ts), 12);
	/* a duplicate of a held segment */
	seg(&ts, g, 1012, NET_TCP_ACK, "mn", 5);
	seg(&ts, g, 1012, NET_TCP_ACK, "mn", 6);
	ck_assert_uint_eq(g->kinds[TCP_EV_DIFFERS], 0);
	seg(&ts, g, 1009, NET_TCP_ACK, "ijk", 7);
	seg(&ts, g, 1012, NET_TCP_ACK, "mn", 8);
	ck_assert(memcmp(g->bytes, "abcdefghijkmn", 13) == 0);
	ck_assert_uint_eq(g->kinds[TCP_EV_DIFFERS], 0);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_retransmission_differs)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abcdef", 2);
	seg(&ts, g, 1001, NET_TCP_ACK, "abXdeY", 3);
	ck_assert_uint_eq(g->kinds[TCP_EV_DIFFERS], 1);
	struct tcp_event *d = &g->last[TCP_EV_DIFFERS];
	ck_assert_uint_eq(d->differ, 2);
	ck_assert_uint_eq(d->first, 2);
	ck_assert_uint_eq(d->off, 0);
	ck_assert_uint_eq(d->len, 6);
	ck_assert_uint_eq(d->pos.packet_no, 3);
	ck_assert(memcmp(g->bytes, "abcdef", 6) == 0); /* the first copy kept */
	/* a differing copy of a held segment */
	seg(&ts, g, 1010, NET_TCP_ACK, "zz", 4);
	seg(&ts, g, 1010, NET_TCP_ACK, "zy", 5);
	ck_assert_uint_eq(g->kinds[TCP_EV_DIFFERS], 2);
	ck_assert_uint_eq(g->last[TCP_EV_DIFFERS].first, 10);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

/* The sequence space wraps at 2^32: in order and out of order across it. */
START_TEST(test_wrap)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 0xFFFFFFF9u, NET_TCP_SYN, "", 1);
	seg(&ts, g, 0xFFFFFFFAu, NET_TCP_ACK, "abcd", 2); /* to ...FD */
	seg(&ts, g, 0x00000002u, NET_TCP_ACK, "ijk", 3); /* held across the wrap */
	seg(&ts, g, 0xFFFFFFFEu, NET_TCP_ACK, "efgh", 4); /* FE FF 00 01 */
	ck_assert_uint_eq(g->n, 11);
	ck_assert(memcmp(g->bytes, "abcdefghijk", 11) == 0);
	seg(&ts, g, 0xFFFFFFFCu, NET_TCP_ACK, "cdefgh", 5); /* old, across it */
	ck_assert_uint_eq(g->kinds[TCP_EV_DIFFERS], 0);
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 0);
	finish(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 0);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_gap)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 2);
	seg(&ts, g, 1010, NET_TCP_ACK, "xyz", 5); /* 1004..1009 never come */
	ck_assert_uint_eq(g->n, 3);
	finish(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 1);
	struct tcp_event *gp = &g->last[TCP_EV_GAP];
	ck_assert_uint_eq(gp->gap, 6);
	ck_assert_uint_eq(gp->off, 3);
	ck_assert_uint_eq(gp->packet_before, 2);
	ck_assert_uint_eq(gp->packet_after, 5);
	ck_assert_uint_eq(g->n, 6);
	ck_assert(memcmp(g->bytes, "abcxyz", 6) == 0);
	ck_assert_uint_eq(g->last[TCP_EV_DATA].off, 9); /* after the gap */
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_fin)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1004, NET_TCP_ACK | NET_TCP_FIN, "def", 3); /* the FIN comes early */
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 0);
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 2);
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	ck_assert(g->last[TCP_EV_END].fin);
	ck_assert(tcp_stream_ended(&ts));
	ck_assert_uint_eq(g->n, 6);
	seg(&ts, g, 1008, NET_TCP_ACK, "late", 4);
	ck_assert_uint_eq(g->kinds[TCP_EV_AFTER_END], 1);
	seg(&ts, g, 1004, NET_TCP_ACK | NET_TCP_FIN, "def", 5); /* the FIN again */
	ck_assert_uint_eq(g->kinds[TCP_EV_AFTER_END] + g->kinds[TCP_EV_DIFFERS], 1);
	finish(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_rst)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 2);
	seg(&ts, g, 1008, NET_TCP_ACK, "hi", 3); /* held */
	seg(&ts, g, 1004, NET_TCP_RST, "", 4);
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	ck_assert(g->last[TCP_EV_END].reset);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 1); /* before the held one */
	ck_assert_uint_eq(g->last[TCP_EV_GAP].gap, 4);
	ck_assert_uint_eq(g->n, 5);
	finish(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

/* A stray FIN far out of the window, one behind the bytes delivered and a
 * RST out of the window do not end a live stream (RFC 9293 3.10.7.3); a
 * RST in the window still does. */
START_TEST(test_stray_fin_rst)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 2);
	seg(&ts, g, 1004u - 0x7FFFFFF0u, NET_TCP_ACK | NET_TCP_FIN, "", 3);
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 1);
	seg(&ts, g, 1002, NET_TCP_ACK | NET_TCP_FIN, "", 4); /* behind next */
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 2);
	seg(&ts, g, 1004u + 0x50000000u, NET_TCP_RST, "", 5);
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 3);
	ck_assert_str_eq(g->last[TCP_EV_OUT_OF_WINDOW].why, "a RST outside the window");
	seg(&ts, g, 1003, NET_TCP_RST, "", 6); /* behind next */
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 4);
	seg(&ts, g, 1004, NET_TCP_ACK, "def", 7);
	seg(&ts, g, 1007, NET_TCP_ACK, "ghi", 8);
	ck_assert_uint_eq(g->n, 9);
	ck_assert(memcmp(g->bytes, "abcdefghi", 9) == 0);
	ck_assert_uint_eq(g->kinds[TCP_EV_AFTER_END] + g->kinds[TCP_EV_END], 0);
	ck_assert(!tcp_stream_ended(&ts));
	seg(&ts, g, 1010, NET_TCP_RST, "", 9); /* in the window */
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	ck_assert(g->last[TCP_EV_END].reset);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

/* A zero-length FIN of an empty stream ends it. */
START_TEST(test_fin_empty)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK | NET_TCP_FIN, "", 2);
	ck_assert_uint_eq(g->kinds[TCP_EV_END], 1);
	ck_assert(g->last[TCP_EV_END].fin);
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 0);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_midstream)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 50000, NET_TCP_ACK, "mno", 7);
	ck_assert(tcp_stream_midstream(&ts));
	ck_assert_uint_eq(g->n, 3);
	ck_assert_uint_eq(g->last[TCP_EV_DATA].off, 0);
	seg(&ts, g, 49990, NET_TCP_ACK, "abc", 8); /* before the stream's start */
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 1);
	ck_assert_str_eq(g->last[TCP_EV_OUT_OF_WINDOW].why, "before the stream's first byte");
	seg(&ts, g, 49999, NET_TCP_ACK, "lmnop", 9); /* partly before: the rest taken */
	ck_assert_uint_eq(g->n, 4);
	ck_assert(memcmp(g->bytes, "mnop", 4) == 0);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_out_of_window)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 2);
	seg(&ts, g, 1004u + (1u << 31), NET_TCP_ACK, "far", 3);
	seg(&ts, g, 1004u + TCP_STREAM_WINDOW + 1, NET_TCP_ACK, "far", 4);
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 2);
	ck_assert_int_eq(g->last[TCP_EV_OUT_OF_WINDOW].distance, (int64_t)TCP_STREAM_WINDOW + 1);
	seg(&ts, g, 5000, NET_TCP_SYN, "", 5); /* another ISN */
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 3);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 6); /* the SYN again */
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 3);
	seg(&ts, g, 1004, NET_TCP_ACK, "d", 7);
	ck_assert_uint_eq(g->n, 4);
	finish(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 0);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

START_TEST(test_snapshot_cut)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	struct tcp_seg s = { 0 };
	s.seq = 1001;
	s.flags = NET_TCP_ACK;
	s.data = (const uint8_t *)"abcd";
	s.len = 4;
	s.wire_len = 10;
	s.pos.packet_no = 2;
	g->fed += 4;
	tcp_stream_segment(&ts, &s);
	drain(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 1);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].gap, 6);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].packet_before, 2);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].packet_after, 2);
	seg(&ts, g, 1011, NET_TCP_ACK, "k", 3);
	ck_assert_uint_eq(g->n, 5);
	ck_assert_uint_eq(g->last[TCP_EV_DATA].off, 10);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

/* The peer acknowledges bytes the capture has not got: a gap at once, up
 * to the held segment (delivered) and then up to the acknowledged number;
 * those bytes coming late are reported and dropped. */
START_TEST(test_acked)
{
	struct tcp_stream ts;
	struct got *g = got_new();
	tcp_stream_init(&ts);
	seg(&ts, g, 1000, NET_TCP_SYN, "", 1);
	seg(&ts, g, 1001, NET_TCP_ACK, "abc", 2);
	seg(&ts, g, 1010, NET_TCP_ACK, "jkl", 3); /* 1004..1009 lost */
	struct tcp_pos p = { 4, 400, 0, 0 };
	tcp_stream_acked(&ts, 1003, &p); /* old: nothing */
	drain(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 0);
	tcp_stream_acked(&ts, 1020, &p); /* 1013..1019 lost too */
	drain(&ts, g);
	ck_assert_uint_eq(g->kinds[TCP_EV_GAP], 2);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].gap, 7);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].packet_before, 3);
	ck_assert_uint_eq(g->last[TCP_EV_GAP].packet_after, 4);
	ck_assert_str_eq(g->last[TCP_EV_GAP].why, "acknowledged by the peer");
	ck_assert_uint_eq(g->n, 6);
	seg(&ts, g, 1015, NET_TCP_ACK, "opq", 5); /* in the gap: late */
	ck_assert_uint_eq(g->kinds[TCP_EV_OUT_OF_WINDOW], 1);
	ck_assert_str_eq(g->last[TCP_EV_OUT_OF_WINDOW].why, "bytes of a gap already reported");
	seg(&ts, g, 1020, NET_TCP_ACK, "u", 6);
	ck_assert_uint_eq(g->n, 7);
	ck_assert(memcmp(g->bytes, "abcjklu", 7) == 0);
	finish(&ts, g);
	tcp_stream_free(&ts);
	free(g);
}
END_TEST

/* Random segments of a known stream, shuffled, duplicated, some lost:
 * what is delivered is the stream with the lost bytes left out, in
 * order, and every byte is accounted for. */
START_TEST(test_random)
{
	static uint8_t stream[20000];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof(stream); i++) {
		x = x * 1103515245u + 12345u;
		stream[i] = (uint8_t)(x >> 16);
	}
	for (unsigned round = 0; round < 20; round++) {
		struct tcp_stream ts;
		struct got *g = got_new();
		tcp_stream_init(&ts);
		uint32_t isn = 0xFFFF0000u + round * 977u;
		seg(&ts, g, isn, NET_TCP_SYN, "", 1);
		size_t at = 0;
		uint64_t pk = 2;
		while (at < sizeof(stream)) {
			x = x * 1103515245u + 12345u;
			uint32_t n = 1 + (x >> 16) % 1400;
			if (at + n > sizeof(stream))
				n = (uint32_t)(sizeof(stream) - at);
			x = x * 1103515245u + 12345u;
			unsigned r = (x >> 16) % 10;
			if (r == 0 && at + 2 * n <= sizeof(stream)) {
				/* swap with the next one */
				seg_bytes(&ts, g, isn + 1 + (uint32_t)(at + n), stream + at + n, n,
				          pk++);
				seg_bytes(&ts, g, isn + 1 + (uint32_t)at, stream + at, n, pk++);
				at += 2 * n;
				continue;
			}
			seg_bytes(&ts, g, isn + 1 + (uint32_t)at, stream + at, n, pk++);
			if (r == 1)
				seg_bytes(&ts, g, isn + 1 + (uint32_t)at, stream + at, n, pk++);
			at += n;
		}
		finish(&ts, g);
		ck_assert_uint_eq(g->n, sizeof(stream));
		ck_assert(memcmp(g->bytes, stream, sizeof(stream)) == 0);
		ck_assert_uint_eq(g->kinds[TCP_EV_GAP] + g->kinds[TCP_EV_DIFFERS] +
		                          g->kinds[TCP_EV_OUT_OF_WINDOW],
		                  0);
		tcp_stream_free(&ts);
		free(g);
	}
}
END_TEST

Suite *suite_tcp_stream(void)
{
	Suite *s = suite_create("tcp_stream");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_in_order);
	tcase_add_test(tc, test_out_of_order_within);
	tcase_add_test(tc, test_out_of_order_beyond_segments);
	tcase_add_test(tc, test_out_of_order_beyond_bytes);
	tcase_add_test(tc, test_overlap_identical);
	tcase_add_test(tc, test_retransmission_differs);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_gap);
	tcase_add_test(tc, test_fin);
	tcase_add_test(tc, test_rst);
	tcase_add_test(tc, test_stray_fin_rst);
	tcase_add_test(tc, test_fin_empty);
	tcase_add_test(tc, test_midstream);
	tcase_add_test(tc, test_out_of_window);
	tcase_add_test(tc, test_snapshot_cut);
	tcase_add_test(tc, test_acked);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return s;
}
