/* lane_packet.h: what a lane decoder hands the VCD reader.
 *
 * The two lane decoders (rx8b10b.h for 2.5/5 GT/s, rx128b.h for 8 GT/s and
 * above) turn one direction's symbols into packets and link facts
 * (capture-format.md section 4 "What comes out"); reader_vcd.c turns those
 * into records.  Both decoders speak this one vocabulary, so the reader
 * does not care which coding the lanes used.
 */
#ifndef DLLPCHECK_LANE_PACKET_H
#define DLLPCHECK_LANE_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a symbol time came from: the clock edge (or fixed-period sample)
 * that carried it, and the VCD text position of that edge, so a record
 * or a finding names the line a user finds in the waveform file. */
struct lane_pos {
	uint64_t time_ps;
	uint64_t line; /* 1-based line of the VCD timestamp/edge */
	uint64_t byte_offset; /* of that line in the (uncompressed) VCD */
};

enum lane_packet_kind {
	LANE_DLLP, /* SDP ... END: the 6 DLLP bytes (content and CRC-16) */
	LANE_TLP, /* STP ... END or EDB: sequence field (2 bytes, upper 4
	           * bits 0), the TLP, the 4 LCRC bytes as received */
	LANE_TRAINED, /* the data stream began (logical idle or SDS) after
	               * training ordered sets (TS1/TS2) on this direction */
	LANE_RETRAIN, /* training ordered sets interrupted a data stream:
	               * the next LANE_TRAINED is a retrain (recovery) */
	LANE_FRAMING, /* a framing, symbol or disparity error that belongs to
	               * no packet: reason and lane say which */
};

struct lane_packet {
	enum lane_packet_kind kind;
	struct lane_pos pos; /* the edge that carried the first symbol (STP,
	                      * SDP, the token) or the symbol at fault */
	unsigned lane; /* lane of that symbol */
	bool phy_error; /* a symbol, disparity or framing error inside the
	                 * packet: the bytes are kept as received */
	bool nullified; /* ended by EDB (8b/10b) or followed by an EDB token */
	const uint8_t *bytes; /* LANE_DLLP / LANE_TLP: valid during the call */
	size_t len;
	const char *reason; /* LANE_FRAMING, and phy_error: the first problem,
	                     * in words ("lane 2: disparity error in D21.5") */
	bool lost_span; /* LANE_FRAMING: what the direction sends from here is
	                 * not decoded until the decoder is back in step: any
	                 * number of packets may be missing */
	bool polling; /* LANE_TRAINED: the training had TS1/TS2 whose Link
	               * number was PAD, as a port sends them in Polling, a state
	               * reached only from Detect, where LinkUp is 0 (PCIe Base
	               * 4.2.6.2, Polling.Active: Link and Lane numbers PAD) */
};

typedef void (*lane_packet_fn)(void *ctx, const struct lane_packet *pkt);

/* A record cannot say whether its TLP ended with END or EDB; the LCRC
 * tells the data link layer instead (inverted: nullified, spec-digest
 * 3.4).  True when the two disagree, an EDB after an intact LCRC or an
 * END after an inverted one: the ending was damaged on the lanes, and the
 * record is to be marked so (PHY_ERROR), not passed as a good or a
 * nullified TLP (lane_packet.c). */
bool lane_packet_ending_disagrees(const struct lane_packet *pkt);

/* An observer of the symbols as decoded (optional, for --dump-columns):
 * lane, position, the byte before descrambling and after, whether it is a
 * K symbol (8b/10b) or, at 128b/130b, flags LANE_SYM_OS / LANE_SYM_SYNC,
 * and LANE_SYM_ERROR for a code or disparity error. */
#define LANE_SYM_K 0x01u
#define LANE_SYM_ERROR 0x02u
#define LANE_SYM_DISPARITY 0x04u
#define LANE_SYM_OS 0x08u /* inside an ordered set (removed from the stream) */
#define LANE_SYM_NONE 0x10u /* no symbol: electrical idle, x/z, not valid */
typedef void (*lane_symbol_fn)(void *ctx, unsigned lane, const struct lane_pos *pos, uint8_t raw,
                               uint8_t descrambled, unsigned flags);

enum lane_scrambling {
	LANE_SCRAMBLE_AUTO = 0, /* from the logical idle after a COM / SDS */
	LANE_SCRAMBLE_YES,
	LANE_SCRAMBLE_NO,
};

#endif
