/* tcp_stream.c: one direction of a TCP connection as its byte stream
 * (tcp_stream.h says what each segment does).
 *
 * The work is done in units, one per call of tcp_stream_next() that finds
 * no event waiting: a held segment that has come in order, the current
 * segment, a gap the peer's acknowledgement proves, or the end of the
 * stream.  A unit queues its events (at most five: a differing
 * retransmission, bytes of a gap come late, the data, the gap of an
 * uncaptured tail, bytes past the FIN) and updates the state at once; the events are
 * then given out one a call.  A held segment delivered leaves the hold
 * array at once, but its bytes stay where they are in the hold until the
 * queue is empty, since the DATA event points at them.
 */
#include "read/net/tcp_stream.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "read/net/net_packet.h"

void tcp_stream_init(struct tcp_stream *ts)
{
	memset(ts, 0, offsetof(struct tcp_stream, hist));
	ts->state = TCP_NEW;
}

void tcp_stream_free(struct tcp_stream *ts)
{
	free(ts->hold);
	ts->hold = NULL;
}

/* The distance of seq from the next expected number, modulo 2^32. */
static int64_t dist(const struct tcp_stream *ts, uint32_t seq)
{
	return (int32_t)(seq - ts->next_seq);
}

static struct tcp_event *push(struct tcp_stream *ts, enum tcp_event_kind kind,
                              const struct tcp_pos *pos)
{
	/* a unit queues at most 5 events and starts on an empty queue */
	struct tcp_event *ev = &ts->queue[ts->queued++];
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->pos = *pos;
	return ev;
}

static void advance(struct tcp_stream *ts, uint32_t n)
{
	ts->next_seq += n;
	ts->next_off += n;
}

/* A gap of n numbers from next: the history restarts after it (there is
 * nothing to compare a retransmission of the missing bytes with). */
static void gap(struct tcp_stream *ts, uint64_t n, uint64_t packet_after, const char *why,
                const struct tcp_pos *pos)
{
	struct tcp_event *ev = push(ts, TCP_EV_GAP, pos);
	ev->off = ts->next_off;
	ev->gap = n;
	ev->packet_before = ts->last_packet;
	ev->packet_after = packet_after;
	ev->why = why;
	ts->gap_lo = ts->next_off;
	advance(ts, (uint32_t)n);
	ts->hist_off = ts->gap_hi = ts->next_off;
}

/* Compares n bytes from stream offset off (all before next_off) with the
 * ones delivered; queues TCP_EV_DIFFERS when some differ. */
static void compare(struct tcp_stream *ts, const uint8_t *data, uint32_t n, int64_t off,
                    uint32_t seq, const struct tcp_pos *pos)
{
	int64_t lo = (int64_t)ts->hist_off;
	if ((int64_t)ts->next_off - lo > (int64_t)TCP_STREAM_HISTORY)
		lo = (int64_t)ts->next_off - TCP_STREAM_HISTORY;
	uint32_t differ = 0;
	uint64_t first = 0;
	for (uint32_t i = 0; i < n; i++) {
		int64_t o = off + i;
		if (o < lo)
			continue;
		if (ts->hist[(uint64_t)o & (TCP_STREAM_HISTORY - 1)] != data[i]) {
			if (differ++ == 0)
				first = (uint64_t)o;
		}
	}
	if (differ) {
		struct tcp_event *ev = push(ts, TCP_EV_DIFFERS, pos);
		ev->off = off < 0 ? 0 : (uint64_t)off;
		ev->len = n;
		ev->differ = differ;
		ev->first = first;
		ev->seq = seq;
	}
}

/* Bytes after the FIN (or the RST), dropped. */
static void after_end(struct tcp_stream *ts, uint32_t n, uint32_t seq, const struct tcp_pos *pos)
{
	struct tcp_event *ev = push(ts, TCP_EV_AFTER_END, pos);
	ev->len = n;
	ev->seq = seq;
	ev->why = ts->fin_known ? "after its FIN" : "after its RST";
	ts->dropped += n;
}

/* A segment that starts at or before next (d <= 0): the bytes before next
 * compared, the others delivered up to the FIN, the uncaptured tail a
 * gap. */
static void take(struct tcp_stream *ts, uint32_t seq, const uint8_t *data, uint32_t len,
                 uint32_t wire_len, const struct tcp_pos *pos)
{
	int64_t d = dist(ts, seq);
	int64_t off = (int64_t)ts->next_off + d;
	uint32_t front = -d < (int64_t)len ? (uint32_t)-d : len;
	if (front) {
		compare(ts, data, front, off, seq, pos);
		ts->dropped += front;
		if (ts->gap_hi > ts->gap_lo && off < (int64_t)ts->gap_hi &&
		    off + front > (int64_t)ts->gap_lo) {
			struct tcp_event *ev = push(ts, TCP_EV_OUT_OF_WINDOW, pos);
			ev->len = front;
			ev->seq = seq;
			ev->distance = d;
			ev->why = "bytes of a gap already reported";
		}
	}
	uint32_t rest = len - front;
	uint32_t extra = 0;
	int64_t room = INT64_MAX;
	if (ts->fin_known) {
		room = dist(ts, ts->fin_seq);
		if (room < 0)
			room = 0;
	}
	if ((int64_t)rest > room) {
		extra = rest - (uint32_t)room;
		rest = (uint32_t)room;
	}
	if (rest) {
		struct tcp_pos p = *pos;
		p.byte_offset += front;
		struct tcp_event *ev = push(ts, TCP_EV_DATA, &p);
		ev->data = data + front;
		ev->len = rest;
		ev->off = ts->next_off;
		ev->seq = seq;
		for (uint32_t i = 0; i < rest; i++)
			ts->hist[(ts->next_off + i) & (TCP_STREAM_HISTORY - 1)] = data[front + i];
		advance(ts, rest);
		ts->last_packet = pos->packet_no;
	}
	if (wire_len > len) {
		/* the snapshot length cut the segment: its tail is a gap */
		int64_t t = dist(ts, seq + wire_len);
		if (t > room - (int64_t)rest)
			t = room - (int64_t)rest;
		if (t > 0) {
			/* within this packet: it is the packet before and after */
			ts->last_packet = pos->packet_no;
			gap(ts, (uint64_t)t, pos->packet_no, "cut by the snapshot length", pos);
		}
	}
	if (extra)
		after_end(ts, extra, seq, pos);
}

static void hold_remove_bytes(struct tcp_stream *ts, uint32_t at, uint32_t len)
{
	memmove(ts->hold + at, ts->hold + at + len, ts->hold_used - at - len);
	ts->hold_used -= len;
	for (unsigned i = 0; i < ts->nheld; i++)
		if (ts->held[i].at > at)
			ts->held[i].at -= len;
}

/* held[0] leaves the array; its bytes stay until the queue is empty. */
static struct tcp_held pop_held(struct tcp_stream *ts)
{
	struct tcp_held h = ts->held[0];
	ts->nheld--;
	memmove(&ts->held[0], &ts->held[1], ts->nheld * sizeof(ts->held[0]));
	ts->drop_head = true;
	ts->drop_at = h.at;
	ts->drop_len = h.len;
	return h;
}

static bool hold_ready(struct tcp_stream *ts)
{
	if (!ts->hold && !ts->hold_failed) {
		ts->hold = malloc(TCP_STREAM_HOLD_BYTES);
		ts->hold_failed = ts->hold == NULL;
	}
	return ts->hold != NULL;
}

/* Holds a segment ahead of next (d > 0); false when it does not fit. */
static bool hold(struct tcp_stream *ts, uint32_t seq, const struct tcp_seg *seg)
{
	int64_t d = dist(ts, seq);
	unsigned i = 0;
	while (i < ts->nheld && dist(ts, ts->held[i].seq) <= d) {
		struct tcp_held *h = &ts->held[i];
		if (h->seq == seq && h->len == seg->len && h->wire_len == seg->wire_len) {
			/* the same segment again: compared with the held copy */
			uint32_t differ = 0, first = 0;
			for (uint32_t k = 0; k < seg->len; k++)
				if (ts->hold[h->at + k] != seg->data[k] && differ++ == 0)
					first = k;
			if (differ) {
				struct tcp_event *ev = push(ts, TCP_EV_DIFFERS, &seg->pos);
				ev->off = ts->next_off + (uint64_t)d;
				ev->len = seg->len;
				ev->differ = differ;
				ev->first = ev->off + first;
				ev->seq = seq;
			}
			ts->dropped += seg->len;
			h->flags |= seg->flags & NET_TCP_FIN;
			return true;
		}
		i++;
	}
	if (ts->nheld >= TCP_STREAM_HOLD_SEGS || seg->len > TCP_STREAM_HOLD_BYTES - ts->hold_used ||
	    !hold_ready(ts))
		return false;
	memmove(&ts->held[i + 1], &ts->held[i], (ts->nheld - i) * sizeof(ts->held[0]));
	ts->nheld++;
	struct tcp_held *h = &ts->held[i];
	h->seq = seq;
	h->len = seg->len;
	h->wire_len = seg->wire_len;
	h->at = ts->hold_used;
	h->flags = seg->flags;
	h->pos = seg->pos;
	if (seg->len)
		memcpy(ts->hold + ts->hold_used, seg->data, seg->len);
	ts->hold_used += seg->len;
	return true;
}

static void out_of_window(struct tcp_stream *ts, const struct tcp_seg *seg, int64_t distance,
                          const char *why)
{
	struct tcp_event *ev = push(ts, TCP_EV_OUT_OF_WINDOW, &seg->pos);
	ev->len = seg->len;
	ev->seq = seg->seq;
	ev->distance = distance;
	ev->why = why;
	ts->dropped += seg->len;
}

/* The current segment: true when it is done with (false: it is to be
 * looked at again, after the gap queued before it). */
static bool take_cur(struct tcp_stream *ts)
{
	const struct tcp_seg *seg = &ts->cur;
	uint32_t seq = seg->seq;
	bool syn = seg->flags & NET_TCP_SYN;
	if (ts->state == TCP_NEW) {
		ts->state = TCP_OPEN;
		if (syn) {
			ts->syn_seen = true;
			ts->isn = seq;
			ts->next_seq = seq + 1;
		} else {
			ts->midstream = true;
			ts->next_seq = seq;
		}
		ts->next_off = ts->hist_off = 0;
	} else if (syn && !(ts->syn_seen && seq == ts->isn)) {
		out_of_window(ts, seg, dist(ts, seq), "a SYN with another initial sequence number");
		return true;
	}
	if (syn)
		seq++; /* the SYN takes one number; data follows it */
	int64_t d = dist(ts, seq);
	int64_t start = (int64_t)ts->next_off + d;
	if (seg->flags & NET_TCP_RST) {
		/* a RST is taken only when its number is in the window (RFC 9293
		 * 3.10.7.3, from the next expected number on: the sender's
		 * SND.NXT is never before the bytes it sent); any other one
		 * would end a live stream on a stray or forged segment.  The data
		 * of a RST is no part of the stream (RFC 9293 3.5.3). */
		if (ts->state == TCP_OPEN && (d < 0 || d > (int64_t)TCP_STREAM_WINDOW)) {
			out_of_window(ts, seg, d, "a RST outside the window");
			return true;
		}
		ts->dropped += seg->len;
		if (ts->state == TCP_OPEN)
			ts->reset_pending = true;
		return true;
	}
	if (ts->state == TCP_ENDED) {
		if (seg->len == 0)
			return true;
		if (d + (int64_t)seg->wire_len <= 0 && start >= 0) {
			take(ts, seq, seg->data, seg->len, seg->wire_len, &seg->pos);
			return true;
		}
		after_end(ts, seg->len, seq, &seg->pos);
		return true;
	}
	bool fin = seg->flags & NET_TCP_FIN;
	if (seg->wire_len == 0 && !fin)
		return true; /* an ACK */
	if (d > (int64_t)TCP_STREAM_WINDOW ||
	    d + (int64_t)seg->wire_len < -(int64_t)TCP_STREAM_WINDOW) {
		out_of_window(ts, seg, d, "further from the expected number than any TCP window");
		return true;
	}
	if (start + (int64_t)seg->wire_len + (fin ? 1 : 0) <= 0) { /* the FIN takes a number */
		out_of_window(ts, seg, d, "before the stream's first byte");
		return true;
	}
	/* the FIN is recorded only once its segment passed the checks above,
	 * and only when its number is not before the bytes already delivered:
	 * a stray FIN would end a live stream (every later byte dropped
	 * "after its FIN") */
	if (fin && !ts->fin_known) {
		if (d + (int64_t)seg->wire_len >= 0) {
			ts->fin_known = true;
			ts->fin_seq = seq + seg->wire_len;
		} else if (seg->wire_len == 0) {
			out_of_window(ts, seg, d, "a FIN before the bytes already delivered");
			return true;
		}
	}
	if (seg->wire_len == 0)
		return true; /* a FIN alone (the loop ends the stream) */
	if (d <= 0) {
		take(ts, seq, seg->data, seg->len, seg->wire_len, &seg->pos);
		return true;
	}
	if (ts->fin_known && dist(ts, ts->fin_seq) <= d) {
		after_end(ts, seg->len, seq, &seg->pos);
		return true;
	}
	if (hold(ts, seq, seg))
		return true;
	/* it does not fit: the wait for the bytes before the lowest of it and
	 * the held ones ends */
	if (ts->nheld == 0 || d < dist(ts, ts->held[0].seq)) {
		gap(ts, (uint64_t)d, seg->pos.packet_no,
		    ts->nheld ? "the out-of-order hold is full" : "a segment larger than the hold",
		    &seg->pos);
	} else {
		const struct tcp_held *h = &ts->held[0];
		gap(ts, (uint64_t)dist(ts, h->seq), h->pos.packet_no,
		    "the out-of-order hold is full", &h->pos);
	}
	return false;
}

/* The stream ends by RST or at the caller's word: the held segments after
 * the gaps before them, then the end. */
static void end_unit(struct tcp_stream *ts)
{
	if (ts->state == TCP_OPEN) {
		const struct tcp_held *h = ts->nheld ? &ts->held[0] : NULL;
		if (h && ts->fin_known && dist(ts, h->seq) >= dist(ts, ts->fin_seq))
			h = NULL;
		const char *why = ts->reset_pending ? "missing before the RST"
		                                    : "still missing at the end of the capture";
		if (h) {
			gap(ts, (uint64_t)dist(ts, h->seq), h->pos.packet_no, why, &h->pos);
			return;
		}
		if (ts->fin_known && dist(ts, ts->fin_seq) > 0) {
			struct tcp_pos p = { 0 };
			p.packet_no = ts->last_packet;
			gap(ts, (uint64_t)dist(ts, ts->fin_seq), 0, why, &p);
			return;
		}
	}
	struct tcp_pos p = { 0 };
	p.packet_no = ts->last_packet;
	struct tcp_event *ev = push(ts, TCP_EV_END, &p);
	ev->reset = ts->reset_pending;
	ev->off = ts->next_off;
	ts->state = TCP_ENDED;
	ts->end_told = true;
	ts->reset_pending = ts->finish_pending = false;
}

/* Bytes acknowledged and not here: a gap up to the lowest held segment
 * or to the acknowledged number. */
static bool acked_unit(struct tcp_stream *ts)
{
	int64_t a = dist(ts, ts->ack_seq);
	if (a <= 0) {
		ts->acked = false;
		return false;
	}
	if (ts->nheld && dist(ts, ts->held[0].seq) < a) {
		const struct tcp_held *h = &ts->held[0];
		gap(ts, (uint64_t)dist(ts, h->seq), h->pos.packet_no, "acknowledged by the peer",
		    &h->pos);
	} else {
		gap(ts, (uint64_t)a, ts->ack_pos.packet_no, "acknowledged by the peer",
		    &ts->ack_pos);
	}
	return true;
}

/* One unit of work; false when there is none left. */
static bool unit(struct tcp_stream *ts)
{
	if (ts->state == TCP_OPEN && ts->nheld && dist(ts, ts->held[0].seq) <= 0) {
		struct tcp_held h = pop_held(ts);
		take(ts, h.seq, ts->hold + h.at, h.len, h.wire_len, &h.pos);
		return true;
	}
	if (ts->state == TCP_OPEN && ts->acked && acked_unit(ts))
		return true;
	if (ts->cur_pending) {
		if (take_cur(ts))
			ts->cur_pending = false;
		return true;
	}
	if (ts->state == TCP_OPEN && ts->fin_known && ts->next_seq == ts->fin_seq) {
		struct tcp_pos p = { 0 };
		p.packet_no = ts->last_packet;
		struct tcp_event *ev = push(ts, TCP_EV_END, &p);
		ev->fin = true;
		ev->off = ts->next_off;
		/* the FIN takes a number, but next stays at it: the numbers
		 * after it are the stream's end */
		ts->state = TCP_ENDED;
		ts->end_told = true;
		ts->reset_pending = ts->finish_pending = false;
		return true;
	}
	if (ts->state == TCP_ENDED && ts->nheld) {
		struct tcp_held h = pop_held(ts);
		if (h.len)
			after_end(ts, h.len, h.seq, &h.pos);
		return true;
	}
	if (ts->reset_pending || ts->finish_pending) {
		if (ts->state == TCP_ENDED && ts->end_told) {
			ts->reset_pending = ts->finish_pending = false;
			return false;
		}
		end_unit(ts);
		return true;
	}
	return false;
}

bool tcp_stream_next(struct tcp_stream *ts, struct tcp_event *ev)
{
	for (;;) {
		if (ts->head < ts->queued) {
			*ev = ts->queue[ts->head++];
			return true;
		}
		ts->head = ts->queued = 0;
		if (ts->drop_head) {
			hold_remove_bytes(ts, ts->drop_at, ts->drop_len);
			ts->drop_head = false;
		}
		if (!unit(ts))
			break;
	}
	memset(ev, 0, sizeof(*ev));
	ev->kind = TCP_EV_NONE;
	return false;
}

void tcp_stream_segment(struct tcp_stream *ts, const struct tcp_seg *seg)
{
	ts->cur = *seg;
	ts->cur_pending = true;
}

void tcp_stream_acked(struct tcp_stream *ts, uint32_t ack, const struct tcp_pos *pos)
{
	if (ts->state != TCP_OPEN)
		return;
	int64_t a = dist(ts, ack);
	if (ts->fin_known && a > dist(ts, ts->fin_seq))
		a = dist(ts, ts->fin_seq); /* the FIN's own number is no byte */
	if (a <= 0 || a > (int64_t)TCP_STREAM_WINDOW)
		return;
	if (ts->acked && dist(ts, ts->ack_seq) >= a)
		return;
	ts->acked = true;
	ts->ack_seq = ts->next_seq + (uint32_t)a;
	ts->ack_pos = *pos;
}

void tcp_stream_finish(struct tcp_stream *ts)
{
	if (ts->state == TCP_NEW) {
		ts->state = TCP_OPEN; /* nothing came: the end alone */
		ts->next_off = ts->hist_off = 0;
	}
	if (!ts->end_told)
		ts->finish_pending = true;
}
