/* scramble8b10b.h: whether an 8b/10b link scrambles (rx8b10b_config
 * .scrambling AUTO), decided from what the trace proves:
 *
 * - logical idle is 00h data, scrambled (phy-digest.md section 2): an idle
 *   D symbol that arrives as 00h while its key is not 00h says
 *   "unscrambled", one that arrives as its key says "scrambled"; four
 *   agreeing idle symbols in a row settle it;
 * - while undecided, a packet received without error whose CRC (the
 *   DLLP's CRC-16, the TLP's LCRC, inverted for an EDB-ended one) checks
 *   one way and not the other settles it.
 * Once settled it stays for the capture.  While undecided the stream is
 * taken as scrambled: a scrambler can be disabled only at the end of
 * Configuration (digest 2), and PIPE data is scrambled (digest section 5,
 * from Intel's PIPE PHY guides: digest UNVERIFIED item 6).
 * Scrambling is chosen per link, not per lane (digest 2: one LFSR per lane
 * "all running in step").
 */
#ifndef DLLPCHECK_SCRAMBLE8B10B_H
#define DLLPCHECK_SCRAMBLE8B10B_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/lanes/lane_packet.h"

struct scramble_detect {
	enum lane_scrambling mode; /* forced, settled, or AUTO while undecided */
	bool forced;
	enum lane_scrambling vote; /* what the idle symbols in a row said */
	unsigned votes;
};

void scramble_detect_init(struct scramble_detect *d, enum lane_scrambling cfg);
/* Whether data symbols are to be descrambled now. */
static inline bool scramble_on(const struct scramble_detect *d)
{
	return d->mode != LANE_SCRAMBLE_NO;
}
/* One error-free D symbol of logical idle: raw byte and its key. */
void scramble_idle_vote(struct scramble_detect *d, uint8_t raw, uint8_t key);
/* An error-free packet ends while undecided: bytes as received (raw) and
 * the keys of its D symbols.  Settles the mode when the CRC says so;
 * bytes is left as received. */
void scramble_packet_vote(struct scramble_detect *d, enum lane_packet_kind kind, bool nullified,
                          uint8_t *bytes, const uint8_t *keys, size_t len);

#endif
