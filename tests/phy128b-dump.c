/* phy128b-dump: the 128b/130b scrambler keys (8 lanes x 256 bytes from
 * the seeds) and the STP Frame CRC and parity of every Length, one per
 * line, for tests/test-phy-128b.sh to compare with phy_ref.py:
 *   key LANE INDEX HEX
 *   fcrc LENGTH CRC PARITY STP0 STP1 STP2 STP3     (the STP of seq 0xA5C)
 */
#include <stdio.h>

#include "read/lanes/lfsr23.h"
#include "read/lanes/token128b.h"

int main(void)
{
	for (unsigned lane = 0; lane < 8; lane++) {
		uint32_t lfsr = lfsr23_seed(lane);

		for (unsigned i = 0; i < 256; i++)
			printf("key %u %u %02x\n", lane, i, lfsr23_key(&lfsr));
	}
	for (unsigned l = 0; l < 2048; l++) {
		unsigned p, c = tok128_frame_crc(l, &p);
		uint8_t t[4];

		tok128_stp_pack(l, 0xA5C, t);
		printf("fcrc %u %u %u %02x %02x %02x %02x\n", l, c, p, t[0], t[1], t[2], t[3]);
	}
	return ferror(stdout) ? 1 : 0;
}
