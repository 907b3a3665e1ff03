/* stream128b.h: the 128b/130b data stream of one direction, from the
 * de-striped Data Block bytes to packets (phy-digest.md sections 4.4-4.6).
 *
 * The glue (rx128b.c) feeds the bytes of each Data Block in stream order:
 * stream byte n is on lane n mod N, symbol (n div N) mod 16 (digest 4.5);
 * the stream goes on across block boundaries.  The parser expects a token
 * at each packet boundary:
 *   STP  Frame CRC and parity checked (a mismatch is a framing error and
 *        no TLP); then Length*4 - 4 more bytes: the TLP and its LCRC.  The
 *        record is (0000b + Seq[11:8]), Seq[7:0], the TLP, the LCRC: the
 *        token's +2 byte with its FCRC nibble masked to 0 (digest 4.4,
 *        "LCRC at 128b/130b - confirmed").
 *   SDP  F0h ACh and the 6 DLLP bytes (the record).
 *   EDB  4 x C0h right after a TLP's last DW: that TLP is nullified, so a
 *        complete TLP is held until the next token says which.
 *   EDS  in the last DW of a Data Block: the next block is an ordered set.
 *   IDL  00h.
 * Everything else where a token is expected, and the other rules of
 * digest 4.6, is a framing error: reported (LANE_FRAMING, or phy_error on
 * the packet it cut short, with the bytes received) and the stream stops
 * until the glue restarts it (next SDS, or an SKP OS with the LFSR).
 */
#ifndef DLLPCHECK_STREAM128B_H
#define DLLPCHECK_STREAM128B_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "read/lanes/lane_packet.h"

/* The stream bytes of one Data Block on N lanes. */
#define BLOCK_STREAM_BYTES(lanes) (16u * (lanes))

enum stream128b_state {
	S128_STOPPED, /* no data stream, or stopped by a framing error */
	S128_TOKEN, /* a token is expected */
	S128_TOKBYTES, /* inside a token */
	S128_TLP, /* TLP bytes after its STP */
	S128_DLLP, /* DLLP bytes after SDP */
	S128_EDS, /* EDS seen: the block must end */
};

struct stream128b {
	unsigned lanes;
	lane_packet_fn packet;
	void *ctx;
	enum stream128b_state st;
	/* the token being read */
	uint8_t tok[4];
	unsigned tok_n, tok_want;
	struct lane_pos tok_pos;
	unsigned tok_lane;
	unsigned tok_idx; /* its index in the block */
	/* the packet being read (or the complete TLP held for an EDB) */
	enum lane_packet_kind kind;
	bool open; /* bytes of a packet not yet reported */
	bool held; /* a complete TLP waits for the next token */
	size_t len, need;
	struct lane_pos pkt_pos;
	unsigned pkt_lane;
	uint8_t buf[TLP_MAX_RECORD_LEN];
	/* after IDL: lanes before idl_end in the symbol time idl_sym must be
	 * IDL (or EDS), digest 4.6 rule 6 */
	bool idl_rule;
	unsigned idl_end;
	uint64_t idl_sym;
	uint64_t sym; /* the symbol time of the current byte */
	char reason[128];
};

void stream128b_init(struct stream128b *s, unsigned lanes, lane_packet_fn packet, void *ctx);
/* A data stream starts: a token is expected in its first byte. */
void stream128b_start(struct stream128b *s);
/* The edge of stream byte idx of the block being fed. */
typedef const struct lane_pos *(*stream128b_pos_fn)(void *ctx, unsigned idx);
/* The 16N stream bytes of one Data Block; sym0 counts the symbol times of
 * the stream before it (any increasing count); pos_of(ctx, idx) gives the
 * edge of byte idx (asked only for tokens and errors).  Packet bodies are
 * copied in runs; tokens are read a byte at a time. */
void stream128b_block(struct stream128b *s, const uint8_t *bytes, uint64_t sym0,
                      stream128b_pos_fn pos_of, void *ctx);
/* A framing error found by the glue (block level): reported as one of the
 * packet being read if there is one, else as LANE_FRAMING; the stream
 * stops.  A TLP held for an EDB is reported first, as it was complete. */
void stream128b_error(struct stream128b *s, unsigned lane, const struct lane_pos *pos,
                      const char *reason);
/* The stream ends without error (EDS then EIOS/EIEOS). */
void stream128b_stop(struct stream128b *s);
/* The input ended: a held TLP is reported, a packet cut short is reported
 * with phy_error ("the capture ends inside the TLP"). */
void stream128b_finish(struct stream128b *s);
/* True while a packet is being read (or held), with its first symbol. */
bool stream128b_open(const struct stream128b *s, struct lane_pos *since);

static inline bool stream128b_running(const struct stream128b *s)
{
	return s->st != S128_STOPPED;
}
static inline bool stream128b_after_eds(const struct stream128b *s)
{
	return s->st == S128_EDS;
}

#endif
