/* dump-8b10b: prints the C tables of the 8b/10b lane decoder as text for
 * tests/test-phy-8b10b.sh, which compares them with phy_ref.py:
 *   enc RD K BYTE CODE RDOUT   every symbol that exists (536 lines)
 *   dec RD CODE BYTE K RDOUT ERR   every 10-bit value at both RDs
 *   key N KEY                  256 scrambler keys after a reset
 * RD 0 = RD-, 1 = RD+; ERR 0 none, 1 disparity, 2 code. */
#include <stdio.h>

#include "read/lanes/code8b10b.h"
#include "read/lanes/lfsr16.h"

int main(void)
{
	for (unsigned rd = 0; rd < 2; rd++)
		for (unsigned v = 0; v < 512; v++) {
			unsigned r = rd;
			int code = code8b10b_encode((uint8_t)v, v >= 256, &r);
			if (code >= 0)
				printf("enc %u %u %u %d %u\n", rd, v >> 8, v & 255u, code, r);
		}
	for (unsigned rd = 0; rd < 2; rd++)
		for (unsigned code = 0; code < 1024; code++) {
			unsigned r = rd;
			struct code8b10b c = code8b10b_decode(code, &r);
			printf("dec %u %u %u %u %u %u\n", rd, code, c.byte, c.k ? 1u : 0u, r,
			       c.err);
		}
	uint16_t s = LFSR16_SEED;
	for (unsigned i = 0; i < 256; i++)
		printf("key %u %u\n", i, lfsr16_next(&s));
	return 0;
}
