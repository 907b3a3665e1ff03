/* warp_pipe.h: the Warp Pipe decoder (antmicro/warp-pipe, PCIe over TCP;
 * issue 17): the TCP segments of a capture whose source or destination
 * port is the Warp Pipe port, made into DLLP and TLP records.
 *
 * Framing (verified against the public source of antmicro/warp-pipe,
 * see warp_pipe.c for the files and commits): each direction of a TCP
 * connection is a byte stream of frames, one after the other, nothing
 * between them:
 *
 *     +------+------------------------------------------+
 *     | 0x02 | DLLP: 4 content bytes, 2 CRC-16 bytes    |   7 bytes
 *     +------+------------------------------------------+
 *     | 0x03 | sequence field (2) | TLP | LCRC (4)      |   7 + TLP bytes
 *     +------+------------------------------------------+
 *
 * the TLP's length taken from its header (prefixes, Fmt, Length, TD).
 * A record's bytes are the frame less its protocol byte, exactly the
 * payload of capture-format.md section 1 (DLLP: 6 bytes; TLP: sequence
 * field, TLP, LCRC), so every check applies.
 *
 * Each direction's stream is reassembled by read/net/tcp_stream.h
 * (bounded, hostile input).  After a gap, a damaged frame or a capture
 * that starts mid-connection the decoder resynchronises at the next
 * offset where a frame verifiably starts (a DLLP whose CRC-16 checks, a
 * TLP whose LCRC checks), never at a guess, and reports the bytes it
 * skipped (READER_RESYNC).
 *
 * Links: each TCP connection (its 4-tuple, a new one after a SYN that
 * follows the end of the previous one on the same 4-tuple: the client's
 * FIN or RST seen; a SYN of another initial sequence number on a live
 * connection is reported and changes nothing) is one link,
 * numbered 0, 1, ... in order of first appearance, up to
 * WARP_PIPE_MAX_LINKS; the segments of any further connection are
 * reported once and skipped.  Direction: the stream sent by the server
 * (source port == port) is server_dir, the client's the other.
 *
 * Memory: a fixed amount per connection (tcp_stream.h, and a window of
 * twice the largest frame per direction), at most WARP_PIPE_MAX_LINKS
 * connections, and one copy of the current segment: it does not grow
 * with the capture.
 */
#ifndef DLLPCHECK_WARP_PIPE_H
#define DLLPCHECK_WARP_PIPE_H

#include <stdint.h>

#include "core/record.h"
#include "read/link_decoder.h"
#include "read/net/net_packet.h"
#include "read/reader.h"

/* SERVER_PORT_NUM of warp-pipe's inc/warppipe/config.h */
#define WARP_PIPE_PORT 2115u
#define WARP_PIPE_MAX_LINKS 256u
/* Frame protocol bytes (enum pcie_proto of warp-pipe's proto.h) */
#define WARP_PIPE_PROTO_DLLP 2u
#define WARP_PIPE_PROTO_TLP 3u
/* The largest frame: the protocol byte and the largest TLP record. */
#define WARP_PIPE_FRAME_MAX (1u + TLP_MAX_RECORD_LEN)

struct warp_pipe_opts {
	uint16_t port; /* WARP_PIPE_PORT */
	enum link_dir server_dir; /* DIR_DOWN */
};

struct warp_pipe;

/* A decoder for one input (name: the input's name, kept, not copied:
 * it must outlive the decoder, it is every record's pos.file).  NULL
 * when out of memory. */
struct warp_pipe *warp_pipe_new(const struct warp_pipe_opts *o, const char *name);

/* A TCP segment (np->transport == NET_TCP) whose source or destination
 * port is o->port, of the capture's packet pkt.  The bytes are copied
 * (np->payload is valid during the call only); what they make is pulled
 * with warp_pipe_next() before the next segment. */
void warp_pipe_segment(struct warp_pipe *wp, const struct net_packet *np,
                       const struct link_packet *pkt);

/* The next record, or a report (READER_MALFORMED: a gap, an out-of-window
 * or differing retransmitted segment, a frame cut by a gap or by the end,
 * a connection beyond the limit; READER_RESYNC: bytes skipped to the next
 * verified frame), from the segments fed so far; READER_EOF: nothing more
 * until the next segment (after warp_pipe_end(): nothing more at all).
 * rec->bytes are valid until the next call.  pos.file, source_packet
 * (has_source_packet) and byte_offset (of the frame's first byte, the
 * protocol byte) are set; pos.record_no is 0: the caller numbers the
 * records of its input.  Reports carry has_dir/has_link (and kind for a
 * cut frame) when known, lost_span for a gap. */
enum reader_result warp_pipe_next(struct warp_pipe *wp, struct record *rec,
                                  struct reader_malformed *bad);

/* The input ended: every stream's held segments are given out (after the
 * gap before them) and what is left (a frame cut by the end, bytes with
 * no verified frame after them) is reported by warp_pipe_next(). */
void warp_pipe_end(struct warp_pipe *wp);

/* Of the TCP payload bytes fed so far (each segment's captured payload):
 * those in a frame that became a record (decoded), and all others
 * (skipped: retransmitted copies, out-of-window segments, bytes skipped to
 * resynchronise, cut frames, connections beyond the limit).  After
 * warp_pipe_end() and warp_pipe_next() to READER_EOF, decoded + skipped is
 * every payload byte fed. */
void warp_pipe_bytes(const struct warp_pipe *wp, uint64_t *decoded, uint64_t *skipped);

void warp_pipe_free(struct warp_pipe *wp);

#endif
