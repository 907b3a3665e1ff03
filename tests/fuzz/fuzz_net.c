/* fuzz_net: whole packets of a network capture through the network
 * decoder (read/net/net_decoder.h): net_packet_parse() of every link
 * type, NetTLP, and the Warp Pipe path (TCP reassembly and framing) when
 * h-warp's decoder is linked.
 *
 * Byte 0: bits 3:0 the link type (index modulo 10 into lts[] below), bit
 * 4 --dir-map adapter=up, bit 5 server=up, bit 6 the Warp Pipe port 0x3000
 * (in NetTLP's UDP range: TCP and UDP must not be taken for each other).
 * Then packets, each after a 2-byte big-endian length (cut to what is
 * left); each is copied into a buffer of exactly its size, so a read past
 * it is caught.
 * Invariants (a trap when broken): records are numbered 1, 2, ... with the
 * reports; a record's kind is DLLP or TLP, its length within its wire
 * length, its link a link given out in order, its
 * packet one fed already; NetTLP's records are TLPs without sequence
 * field and LCRC; the note comes once, after the end, and counts packets
 * fed; decoded + skipped bytes are the bytes fed. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "decode/packet.h"
#include "fuzz_common.h"
#include "read/link_decoder.h"
#include "read/net/net_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint32_t lts[] = { 0, 1, 12, 14, 101, 108, 113, 228, 229, 276 };

static volatile unsigned sink;

struct fuzz_state {
	struct link_decoder dec;
	uint64_t packets, record_no, bytes;
	unsigned links; /* the highest link given out + 1 */
	unsigned notes;
	bool ended;
};

static void drain(struct fuzz_state *st)
{
	for (;;) {
		struct record rec;
		struct reader_malformed bad;
		memset(&rec, 0, sizeof(rec));
		reader_malformed_unknown(&bad);
		enum reader_result res = st->dec.ops->next(st->dec.state, &rec, &bad);
		if (res == READER_EOF)
			return;
		if (res == READER_RECORD) {
			FUZZ_ASSERT(rec.pos.record_no == ++st->record_no);
			FUZZ_ASSERT(rec.kind == REC_DLLP || rec.kind == REC_TLP);
			FUZZ_ASSERT(rec.len <= rec.wire_len);
			FUZZ_ASSERT(rec.len == 0 || rec.bytes != NULL);
			FUZZ_ASSERT(rec.link <= st->links);
			if (rec.link == st->links)
				st->links++;
			FUZZ_ASSERT(rec.pos.has_source_packet && rec.pos.source_packet >= 1 &&
			            rec.pos.source_packet <= st->packets);
			if (rec.flags & REC_F_NO_SEQ)
				FUZZ_ASSERT(rec.kind == REC_TLP && (rec.flags & REC_F_NO_CRC));
			for (uint32_t i = 0; i < rec.len; i++)
				sink += rec.bytes[i];
			struct packet pkt;
			packet_decode(&rec, &pkt);
		} else if (res == READER_MALFORMED) {
			FUZZ_ASSERT(bad.pos.record_no == ++st->record_no);
			FUZZ_ASSERT(memchr(bad.reason, '\0', sizeof(bad.reason)) != NULL);
			FUZZ_ASSERT(!bad.has_link || bad.link <= st->links);
			if (bad.has_link && bad.link == st->links)
				st->links++;
		} else if (res == READER_NOTE) {
			FUZZ_ASSERT(st->ended && st->notes++ == 0);
			FUZZ_ASSERT(bad.skipped >= 1 && bad.skipped <= st->packets);
		} else {
			FUZZ_ASSERT(res == READER_RESYNC);
			FUZZ_ASSERT(bad.pos.record_no == st->record_no + 1);
			/* a region of a stream names its link: it may be the
			 * link's first appearance */
			FUZZ_ASSERT(!bad.has_link || bad.link <= st->links);
			if (bad.has_link && bad.link == st->links)
				st->links++;
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_state st;
	struct reader_opts opts;
	char err[200];

	if (size < 1)
		return 0;
	memset(&st, 0, sizeof(st));
	memset(&opts, 0, sizeof(opts));
	opts.dlt = 147;
	opts.net_adapter_dir = data[0] & 0x10 ? DIR_UP : DIR_DOWN;
	opts.net_server_dir = data[0] & 0x20 ? DIR_UP : DIR_DOWN;
	opts.warp_pipe_port = data[0] & 0x40 ? 0x3000 : 0;
	if (!net_decoder_new(lts[(data[0] & 0x0F) % 10], &opts, "fuzz.pcap", &st.dec, err,
	                     sizeof(err)))
		return 0;
	size_t at = 1;
	uint64_t offset = 24;
	while (at + 2 <= size) {
		size_t len = (size_t)data[at] << 8 | data[at + 1];
		at += 2;
		if (len > size - at)
			len = size - at;
		uint8_t *copy = malloc(len ? len : 1);
		if (copy == NULL)
			break;
		memcpy(copy, data + at, len);
		struct link_packet pkt = { copy,
			                   (uint32_t)len,
			                   (uint32_t)len + (data[0] >> 7),
			                   1000 * (st.packets + 1),
			                   0,
			                   st.packets + 1,
			                   offset + 16 };
		st.packets++;
		st.bytes += len;
		offset += 16 + len;
		st.dec.ops->packet(st.dec.state, &pkt);
		drain(&st);
		free(copy);
		at += len;
	}
	st.dec.ops->end(st.dec.state);
	st.ended = true;
	drain(&st);
	uint64_t decoded = 0, skipped = 0;
	st.dec.ops->bytes(st.dec.state, &decoded, &skipped);
	FUZZ_ASSERT(decoded + skipped == st.bytes);
	st.dec.ops->free(st.dec.state);
	return 0;
}
