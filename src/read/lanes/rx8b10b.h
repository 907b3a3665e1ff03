/* rx8b10b.h: one direction of a link at 2.5 or 5 GT/s, from symbols to
 * packets (phy-digest.md sections 1-3).
 *
 * The VCD reader calls rx8b10b_step() once per symbol time with one
 * symbol per lane, lanes already aligned (as a transmitter sends them,
 * or after de-skew).  The decoder checks 8b/10b codes and the running
 * disparity per lane, removes ordered sets per lane, descrambles, de-
 * stripes the lanes and parses the framing (STP/SDP/END/EDB/PAD, logical
 * idle), and reports each packet and link fact through cfg.packet.
 * A PIPE word of 16 or 32 bits is two or four symbol times: byte [7:0]
 * first, all with the edge's position.
 */
#ifndef DLLPCHECK_RX8B10B_H
#define DLLPCHECK_RX8B10B_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/lanes/lane_packet.h"

#define LANE_MAX 32u

enum lane_input {
	LANE_IN_NONE = 0, /* no symbol on this lane: x/z, valid=0, idle */
	LANE_IN_CODE10, /* value: a 10-bit code group, bit 0 = a (first on
	                 * the wire), still to be 8b/10b decoded */
	LANE_IN_SYMBOL, /* value: a decoded byte (bits 7:0) and the K flag
	                 * in bit 8 (the `sym` form, PIPE data + k) */
};

struct lane_sym {
	uint16_t value;
	uint8_t input; /* enum lane_input */
};

struct rx8b10b_config {
	unsigned lanes; /* 1, 2, 4, 8, 12, 16 or 32 */
	enum lane_scrambling scrambling;
	lane_packet_fn packet;
	lane_symbol_fn symbol; /* optional */
	void *ctx; /* passed to both */
};

struct rx8b10b;

/* NULL on a lane count it cannot take or when out of memory. */
struct rx8b10b *rx8b10b_new(const struct rx8b10b_config *cfg);
/* One symbol time: syms[0 .. lanes-1]. */
void rx8b10b_step(struct rx8b10b *rx, const struct lane_pos *pos, const struct lane_sym *syms);
/* The input ended: a packet still open is reported (phy_error, "the
 * capture ends inside the packet"). */
void rx8b10b_finish(struct rx8b10b *rx);
/* True while a packet is being received, with the position of its first
 * symbol: the reader holds back the other direction's later packets so
 * records come out in the order of their first symbols. */
bool rx8b10b_open(const struct rx8b10b *rx, struct lane_pos *since);
/* What auto-detection settled on: LANE_SCRAMBLE_AUTO while undecided. */
enum lane_scrambling rx8b10b_scrambling(const struct rx8b10b *rx);
/* The decoder's whole state is its object (nothing it points to changes,
 * and rx8b10b_step() reads no other state and branches on no position,
 * only stores and reports it): rx8b10b_state_save() copies its
 * rx8b10b_state_size() bytes, rx8b10b_state_same() tells whether it is
 * still the state copied.  A step that left the state the same and
 * reported nothing would do so again with the same symbols: the VCD
 * reader skips such repeats (lane_sample.h repeat_fn). */
size_t rx8b10b_state_size(const struct rx8b10b *rx);
void rx8b10b_state_save(const struct rx8b10b *rx, void *copy);
bool rx8b10b_state_same(const struct rx8b10b *rx, const void *copy);
void rx8b10b_free(struct rx8b10b *rx);

#endif
