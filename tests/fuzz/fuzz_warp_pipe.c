/* fuzz_warp_pipe: the Warp Pipe decoder (read/net/warp_pipe.c, tcp_stream.c,
 * warp_frame.c) on synthetic TCP segments, straight into
 * warp_pipe_segment(), every record and report pulled after each.
 *
 * Input: byte 0 options (bit 0: the server is port U; bit 1: a 16-bit
 * connection number per segment, so that the 256-connection limit is
 * reached), then segments, each:
 *   byte   flags: bits 1:0 connection (0-3), bit 2 from the server, bit 3
 *          SYN, bit 4 FIN, bit 5 RST, bit 6 ACK (an acknowledgement field
 *          follows), bit 7 cut by the snapshot length (a byte follows: how
 *          many bytes more the segment had on the wire)
 *   [2 bytes connection number, big-endian, with option bit 1]
 *   2 bytes seq: a signed big-endian distance from the number after the
 *          direction's last segment (0: in order)
 *   [2 bytes ack: a signed distance from the number after the other
 *          direction's last segment]
 *   [1 byte: wire bytes beyond the captured ones]
 *   2 bytes length (big-endian, cut to what is left), then the payload.
 * Invariants (a violated one traps): every payload byte is decoded or
 * skipped (warp_pipe_bytes); a DLLP record has 6 bytes, a TLP record 18
 * to TLP_MAX_RECORD_LEN; a record's link is one given out, its packet
 * one fed, its byte offset inside that packet's payload, its time that
 * packet's; every report has a reason, a resync skipped bytes. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/record.h"
#include "fuzz_common.h"
#include "read/link_decoder.h"
#include "read/net/net_packet.h"
#include "read/net/warp_pipe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_PACKETS 8192u
#define PACKET_SPAN 100000u /* file bytes between two packets' data */

struct fuzz_state {
	uint64_t packets;
	uint32_t payload_len[MAX_PACKETS + 1];
	unsigned max_link;
	uint64_t fed;
};

static void pull(struct warp_pipe *wp, struct fuzz_state *st)
{
	struct record rec;
	struct reader_malformed bad;
	enum reader_result r;
	unsigned guard = 0;
	while ((r = warp_pipe_next(wp, &rec, &bad)) != READER_EOF) {
		FUZZ_ASSERT(++guard < 10000000u);
		if (r == READER_RECORD) {
			if (rec.kind == REC_DLLP)
				FUZZ_ASSERT(rec.len == DLLP_WIRE_LEN);
			else
				FUZZ_ASSERT(rec.kind == REC_TLP && rec.len >= 18 &&
				            rec.len <= TLP_MAX_RECORD_LEN);
			FUZZ_ASSERT(rec.wire_len == rec.len);
			for (uint32_t i = 0; i < rec.len; i++)
				(void)*(volatile const uint8_t *)&rec.bytes[i];
			FUZZ_ASSERT(rec.link <= st->max_link);
			uint64_t p = rec.pos.source_packet;
			FUZZ_ASSERT(rec.pos.has_source_packet && p >= 1 && p <= st->packets);
			uint64_t at = p * PACKET_SPAN + 54;
			FUZZ_ASSERT(rec.pos.byte_offset >= at &&
			            rec.pos.byte_offset < at + st->payload_len[p]);
			/* its first byte's packet's time, or later: never before a
			 * record already given out on its link, never after the
			 * packets fed so far (warp_pipe.c, record times) */
			FUZZ_ASSERT(rec.time_ps >= p * 1000u && rec.time_ps <= st->packets * 1000u);
			FUZZ_ASSERT(rec.pos.record_no == 0);
		} else {
			FUZZ_ASSERT(r == READER_MALFORMED || r == READER_RESYNC);
			FUZZ_ASSERT(bad.reason[0] != '\0');
			FUZZ_ASSERT(memchr(bad.reason, '\0', sizeof(bad.reason)) != NULL);
			if (r == READER_RESYNC)
				FUZZ_ASSERT(bad.skipped > 0);
			if (bad.has_link)
				FUZZ_ASSERT(bad.link <= st->max_link);
		}
	}
}

static uint32_t be16(const uint8_t *p)
{
	return (uint32_t)p[0] << 8 | p[1];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static struct fuzz_state st;
	memset(&st, 0, sizeof(st));
	uint8_t opt = data[0];
	struct warp_pipe_opts o = { WARP_PIPE_PORT, opt & 1 ? DIR_UP : DIR_DOWN };
	struct warp_pipe *wp = warp_pipe_new(&o, "fuzz.pcap");
	if (!wp)
		return 0;
	/* the next number of each direction of each connection (by its low
	 * 2 bits: enough to aim at the streams) */
	uint32_t next[4][2] = { { 0 } };
	size_t at = 1;
	while (at < size && st.packets < MAX_PACKETS) {
		uint8_t fl = data[at++];
		unsigned conn = fl & 3u;
		bool server = fl & 4u;
		if (opt & 2) {
			if (size - at < 2)
				break;
			conn = be16(data + at);
			at += 2;
		}
		if (size - at < 2)
			break;
		int16_t dseq = (int16_t)be16(data + at);
		at += 2;
		int16_t dack = 0;
		if (fl & 0x40) {
			if (size - at < 2)
				break;
			dack = (int16_t)be16(data + at);
			at += 2;
		}
		uint32_t more = 0;
		if (fl & 0x80) {
			if (size - at < 1)
				break;
			more = data[at++];
		}
		if (size - at < 2)
			break;
		uint32_t len = be16(data + at);
		at += 2;
		if (len > size - at)
			len = (uint32_t)(size - at);
		struct net_packet np;
		memset(&np, 0, sizeof(np));
		np.transport = NET_TCP;
		struct net_addr c = { 4, { 10, (uint8_t)(conn >> 8), (uint8_t)conn, 1 } };
		struct net_addr s = { 4, { 10, 0, 0, 100 } };
		np.src = server ? s : c;
		np.dst = server ? c : s;
		uint16_t cport = (uint16_t)(40000u + (conn & 0xFFu));
		np.src_port = server ? WARP_PIPE_PORT : cport;
		np.dst_port = server ? cport : WARP_PIPE_PORT;
		uint32_t *mine = &next[conn & 3u][server], *theirs = &next[conn & 3u][!server];
		np.seq = *mine + (uint32_t)(int32_t)dseq;
		np.ack = *theirs + (uint32_t)(int32_t)dack;
		np.tcp_flags =
		        (uint8_t)(((fl & 8u) ? NET_TCP_SYN : 0) | ((fl & 0x10u) ? NET_TCP_FIN : 0) |
		                  ((fl & 0x20u) ? NET_TCP_RST : 0) |
		                  ((fl & 0x40u) ? NET_TCP_ACK : 0));
		np.payload = data + at;
		np.payload_len = len;
		np.wire_len = len + more;
		np.payload_offset = 54;
		*mine = np.seq + ((fl & 8u) ? 1u : 0u) + len + more;
		struct link_packet pkt;
		memset(&pkt, 0, sizeof(pkt));
		pkt.packet_no = ++st.packets;
		pkt.byte_offset = pkt.packet_no * PACKET_SPAN;
		pkt.time_ps = pkt.packet_no * 1000u;
		pkt.caplen = 54 + len;
		pkt.len = pkt.caplen + more;
		pkt.data = NULL; /* the decoder takes the payload from np */
		st.payload_len[pkt.packet_no] = len;
		st.fed += len;
		st.max_link = WARP_PIPE_MAX_LINKS - 1;
		warp_pipe_segment(wp, &np, &pkt);
		pull(wp, &st);
		at += len;
	}
	warp_pipe_end(wp);
	pull(wp, &st);
	uint64_t decoded, skipped;
	warp_pipe_bytes(wp, &decoded, &skipped);
	FUZZ_ASSERT(decoded + skipped == st.fed);
	warp_pipe_free(wp);
	return 0;
}
