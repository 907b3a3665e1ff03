/* lane_packet.c: what the readers of rebuilt packets (reader_vcd.c, and
 * the Agilent export's read/agilent_decoder.c) judge alike. */
#include "read/lanes/lane_packet.h"

#include <string.h>

#include "core/record.h"
#include "wire/tlp.h"

bool lane_packet_ending_disagrees(const struct lane_packet *pkt)
{
	if (pkt->kind != LANE_TLP || pkt->len < 2 + 4 + 4)
		return false;
	uint8_t want[4];
	const uint8_t *got = pkt->bytes + pkt->len - 4;
	tlp_lcrc_bytes(pkt->bytes, pkt->len - 4, want);
	bool intact = memcmp(got, want, 4) == 0, inverted = true;
	for (unsigned i = 0; i < 4; i++)
		inverted = inverted && (uint8_t)(got[i] ^ want[i]) == 0xFFu;
	return pkt->nullified ? intact : inverted;
}
