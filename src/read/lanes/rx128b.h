/* rx128b.h: one direction of a link at 8 GT/s and above (128b/130b,
 * Non-Flit Mode), from PIPE words to packets (phy-digest.md section 4).
 *
 * The VCD reader calls rx128b_step() once per PIPE clock edge with one
 * word per lane: 1, 2 or 4 data bytes (byte [7:0] first on the wire),
 * the sync header and start-of-block flag (valid with start), and the
 * valid flag (TxDataValid: 0 = this edge carries no data).  The decoder
 * assembles 130-bit blocks per lane, descrambles with the per-lane LFSR
 * (seeded by lane number, re-loaded from SKP ordered sets), handles the
 * ordered-set blocks (TS1/TS2, SKP, EIOS, EIEOS, SDS, FTS), de-stripes the
 * data stream across lanes and block boundaries, and parses the tokens
 * (STP with Frame CRC and parity, SDP, EDB, EDS, IDL).  A TLP record is
 * the 2-byte sequence field (0000b + Seq[11:8], Seq[7:0]), the TLP and
 * the LCRC; the LCRC was computed over the 4 reserved bits as 0000b
 * (phy-digest.md section 4.4).
 *
 * How the implementation (rx128b.c and the files it names) reads what
 * the digest leaves open:
 *   - the lanes are aligned (every lane starts its blocks on the same
 *     edge); a lane without a block at another lane's block boundary is a
 *     framing error inside a data stream;
 *   - LANE_TRAINED at lane 0, symbol 0 of the first Data Block after SDS,
 *     when TS1/TS2 came before the SDS; a stream picked up at an SKP OS
 *     (a capture that starts in L0, or after a framing error) gives none;
 *   - LANE_RETRAIN at the first TS1/TS2 after a data stream ran;
 *   - a framing error inside a packet is that packet's (phy_error, the
 *     bytes received, no LANE_FRAMING); elsewhere it is LANE_FRAMING; the
 *     stream then stops until SDS or an SKP OS with the LFSR;
 *   - a complete TLP is held until the next token says whether EDB
 *     nullifies it (rx128b_open() reports it meanwhile); rx128b_finish()
 *     reports a held TLP as it is, and a TLP cut short with phy_error;
 *   - every lane in electrical idle inside a data stream ends it with a
 *     framing error (no EDS + EIOS came).
 * UNVERIFIED digest items this depends on (phy-digest.md section 8): the
 * FCRC bit order in STP +2 (item 1), the scrambler's keys (item 2, from
 * the seeds, not compared with the spec's example), which LFSR state an
 * SKP OS carries (item 3: taken as the state that descrambles the next
 * block, as [SCOPE] does), Control SKP 78h and FTS beyond 55h (item 3),
 * the x12/x32 token lane rules (item 4: the generic "lane 4k" reading),
 * and the PIPE signal semantics of TxStartBlock/TxDataValid (item 6).
 */
#ifndef DLLPCHECK_RX128B_H
#define DLLPCHECK_RX128B_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/lanes/lane_packet.h"

struct lane_word {
	uint8_t bytes[4];
	uint8_t nbytes; /* 1, 2 or 4 */
	uint8_t sync; /* 2 bits as PIPE TxSyncHeader: 10b data, 01b OS */
	bool start; /* TxStartBlock: this word begins a block */
	bool valid; /* TxDataValid (true when the capture has no such signal) */
	bool none; /* x/z on the lane: no data (electrical idle) */
};

struct rx128b_config {
	unsigned lanes; /* 1, 2, 4, 8, 12, 16 or 32 */
	lane_packet_fn packet;
	lane_symbol_fn symbol; /* optional */
	void *ctx;
};

struct rx128b;

struct rx128b *rx128b_new(const struct rx128b_config *cfg);
/* One PIPE clock edge: words[0 .. lanes-1]. */
void rx128b_step(struct rx128b *rx, const struct lane_pos *pos, const struct lane_word *words);
void rx128b_finish(struct rx128b *rx);
bool rx128b_open(const struct rx128b *rx, struct lane_pos *since);
/* As rx8b10b_state_size() and the rest (rx8b10b.h): the decoder's whole
 * state is its object, for the VCD reader to skip repeats that change
 * nothing. */
size_t rx128b_state_size(const struct rx128b *rx);
void rx128b_state_save(const struct rx128b *rx, void *copy);
bool rx128b_state_same(const struct rx128b *rx, const void *copy);
void rx128b_free(struct rx128b *rx);

#endif
