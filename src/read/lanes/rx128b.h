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
 */
#ifndef DLLPCHECK_RX128B_H
#define DLLPCHECK_RX128B_H

#include <stdbool.h>
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
void rx128b_free(struct rx128b *rx);

#endif
