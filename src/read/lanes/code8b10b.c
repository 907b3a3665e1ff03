/* code8b10b.c: encode and names (decode is inline in code8b10b.h), one
 * lookup in the generated tables (code8b10b_table.h; phy-digest.md
 * sections 1.1-1.3). */
#include "read/lanes/code8b10b.h"

#include <stdio.h>

int code8b10b_encode(uint8_t byte, bool k, unsigned *rd)
{
	uint16_t e = code8b10b_enc[*rd & 1u][(k ? 0x100u : 0u) | byte];
	if (!(e & 0x800u))
		return -1;
	*rd = e >> 10 & 1u;
	return e & 0x3FF;
}

bool code8b10b_valid(uint8_t byte, bool k)
{
	return (code8b10b_enc[0][(k ? 0x100u : 0u) | byte] & 0x800u) != 0;
}

const char *code8b10b_name(uint8_t byte, bool k, char *buf)
{
	snprintf(buf, 8, "%c%u.%u", k ? 'K' : 'D', byte & 31u, (unsigned)byte >> 5);
	return buf;
}
