/* tcp_stream.h: one direction of one TCP connection of a capture, as the
 * in-order byte stream its sender sent (RFC 9293 section 3.4 for the
 * sequence space; issue 17, Warp Pipe).  Every segment is hostile input.
 *
 * The stream starts at the SYN's sequence number + 1 (the SYN takes one
 * number), or, when the capture starts mid-connection (no SYN seen), at
 * the first segment's (tcp_stream_midstream() says so).  Sequence numbers
 * are compared modulo 2^32 (the distance from the next expected number
 * as a signed 32-bit value), so the stream wraps.
 *
 * What a segment does, with next the next expected number:
 *   - in order (seq <= next < end): the bytes from next on are delivered;
 *     the ones before next, already delivered, are compared with what was
 *     (the last TCP_STREAM_HISTORY bytes are kept): identical ones are
 *     dropped, differing ones reported (TCP_EV_DIFFERS);
 *   - ahead (next < seq, within TCP_STREAM_WINDOW): held until the bytes
 *     before it come, up to TCP_STREAM_HOLD_SEGS segments and
 *     TCP_STREAM_HOLD_BYTES bytes.  A segment that does not fit ends the
 *     wait: the missing bytes before the lowest held (or this) segment
 *     are given up as a gap (TCP_EV_GAP) and the stream goes on from it,
 *     so no captured byte is dropped and memory stays fixed;
 *   - further away than TCP_STREAM_WINDOW (the largest window TCP can
 *     open, RFC 7323 section 2.2), before the stream's start, or past its
 *     FIN: reported (TCP_EV_OUT_OF_WINDOW, TCP_EV_AFTER_END) and dropped;
 *   - captured short (the snapshot length): the captured bytes delivered,
 *     the rest a gap.
 * FIN ends the stream after its last byte (held, like data, when it comes
 * early), once its segment passed the window checks; RST ends it at once
 * (after the held segments, with the gaps before them) when its number is
 * in the window (RFC 9293 3.10.7.3), else it is reported out of window and
 * ignored.  A gap is reported with its size and the numbers of the
 * packets before and after it.
 *
 * The peer's acknowledgements (tcp_stream_acked) end a wait early: bytes
 * the receiver acknowledged were sent and received, so when the capture
 * has not got them they are a gap at once (as Wireshark's "ACKed segment
 * that wasn't captured"), and the records after them are not held back
 * behind the peer's answers to them.  Bytes that come after their gap was
 * reported are dropped and reported (TCP_EV_OUT_OF_WINDOW).
 *
 * The caller gives a segment (tcp_stream_segment) and then takes its
 * events (tcp_stream_next) until TCP_EV_NONE, before the next segment: a
 * delivered chunk's bytes are valid until the next call.  Memory: the
 * struct (history included) and one hold of TCP_STREAM_HOLD_BYTES,
 * allocated when the first segment is held.
 */
#ifndef DLLPCHECK_TCP_STREAM_H
#define DLLPCHECK_TCP_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TCP_STREAM_HOLD_SEGS 32u
#define TCP_STREAM_HOLD_BYTES 65536u
#define TCP_STREAM_HISTORY 16384u /* a power of two */
#define TCP_STREAM_WINDOW (1u << 30)

/* Where a byte of the capture is: its packet, its file offset, the
 * packet's time (as the reader gives them, link_decoder.h). */
struct tcp_pos {
	uint64_t packet_no;
	uint64_t byte_offset;
	uint64_t time_ps;
	uint64_t time_base_s;
};

/* One segment as the capture holds it. */
struct tcp_seg {
	uint32_t seq;
	uint8_t flags; /* NET_TCP_* of net_packet.h */
	const uint8_t *data; /* len captured payload bytes, valid until the
	                      * segment's events are taken */
	uint32_t len;
	uint32_t wire_len; /* payload bytes on the wire (>= len) */
	struct tcp_pos pos; /* of data[0] */
};

enum tcp_event_kind {
	TCP_EV_NONE, /* nothing more from this segment */
	TCP_EV_DATA, /* data[0..len): the next bytes of the stream, from
	              * stream offset off; pos is data[0]'s */
	TCP_EV_GAP, /* gap bytes from stream offset off never captured
	             * (why says how it was found); packet_before: the packet
	             * of the last byte before it (0: none), packet_after: of
	             * the first after it */
	TCP_EV_DIFFERS, /* a retransmission of len bytes from stream offset off
	                 * of which differ bytes differ from those delivered,
	                 * the first at stream offset first */
	TCP_EV_OUT_OF_WINDOW, /* a segment of len bytes distance numbers from
	                       * the expected one (why: how), dropped */
	TCP_EV_AFTER_END, /* len bytes after the stream's FIN or RST, dropped */
	TCP_EV_END, /* the stream ended: by FIN, by RST (reset) or by the
	             * caller (tcp_stream_finish) */
};

struct tcp_event {
	enum tcp_event_kind kind;
	const uint8_t *data;
	uint32_t len;
	uint64_t off;
	uint64_t gap;
	uint64_t packet_before, packet_after;
	uint64_t first;
	uint32_t differ;
	uint32_t seq; /* the segment's sequence number (reports) */
	int64_t distance;
	bool reset, fin;
	const char *why;
	struct tcp_pos pos; /* DATA: of data[0]; reports: the segment's */
};

struct tcp_held {
	uint32_t seq, len, wire_len, at; /* at: offset in the hold */
	uint8_t flags;
	struct tcp_pos pos;
};

enum tcp_state { TCP_NEW, TCP_OPEN, TCP_ENDED };

struct tcp_stream {
	uint8_t state; /* enum tcp_state */
	bool syn_seen, midstream;
	bool fin_known; /* fin_seq is where the stream ends */
	bool reset_pending, finish_pending, end_told;
	uint32_t isn; /* the SYN's, when syn_seen */
	uint32_t next_seq; /* the next expected sequence number */
	uint32_t fin_seq;
	uint64_t next_off; /* stream offset of next_seq: bytes delivered and gaps */
	uint64_t last_packet; /* of the last byte delivered */
	/* the segment being worked on */
	bool cur_pending;
	struct tcp_seg cur;
	/* a held segment delivered: its bytes leave the hold when the queue
	 * is empty */
	bool drop_head;
	uint32_t drop_at, drop_len;
	/* the events of the last unit of work, given out from head */
	struct tcp_event queue[6];
	unsigned queued, head;
	/* out-of-order segments, by sequence number (distance from next) */
	struct tcp_held held[TCP_STREAM_HOLD_SEGS];
	unsigned nheld;
	uint32_t hold_used;
	uint8_t *hold; /* TCP_STREAM_HOLD_BYTES, allocated on first use */
	bool hold_failed; /* out of memory: no holding */
	/* the peer acknowledged up to ack_seq (ahead of next) in ack_pos's packet */
	bool acked;
	uint32_t ack_seq;
	struct tcp_pos ack_pos;
	/* the last gap: stream offsets [gap_lo, gap_hi) */
	uint64_t gap_lo, gap_hi;
	/* captured payload bytes dropped (not delivered) */
	uint64_t dropped;
	/* the last bytes delivered: stream offsets [hist_off, next_off) whose
	 * last TCP_STREAM_HISTORY are in hist (ring, by offset); last, as
	 * tcp_stream_init() leaves it as it is */
	uint64_t hist_off;
	uint8_t hist[TCP_STREAM_HISTORY];
};

void tcp_stream_init(struct tcp_stream *ts);
void tcp_stream_free(struct tcp_stream *ts);

/* A segment of this direction (seg->data must stay valid until its events
 * are taken). */
void tcp_stream_segment(struct tcp_stream *ts, const struct tcp_seg *seg);

/* The peer's segment of pos acknowledges the numbers before ack: bytes
 * before it that are not here are a gap (given by tcp_stream_next()). */
void tcp_stream_acked(struct tcp_stream *ts, uint32_t ack, const struct tcp_pos *pos);

/* The next event of the segment given (or of tcp_stream_finish); false
 * (ev->kind TCP_EV_NONE) when there is none. */
bool tcp_stream_next(struct tcp_stream *ts, struct tcp_event *ev);

/* The input ended (or the connection gave way to a new one): the held
 * segments are given out after the gaps before them, then TCP_EV_END
 * (unless the stream had ended already). */
void tcp_stream_finish(struct tcp_stream *ts);

static inline bool tcp_stream_ended(const struct tcp_stream *ts)
{
	return ts->state == TCP_ENDED;
}
static inline bool tcp_stream_midstream(const struct tcp_stream *ts)
{
	return ts->midstream;
}
/* Captured payload bytes given that were not delivered (retransmitted
 * copies, out of window, after the end). */
static inline uint64_t tcp_stream_dropped(const struct tcp_stream *ts)
{
	return ts->dropped;
}

#endif
