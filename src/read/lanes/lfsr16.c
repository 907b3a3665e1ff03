/* lfsr16.c: one symbol of the Gen1/2 scrambler by table (lfsr16.h). */
#include "read/lanes/lfsr16.h"

#include "read/lanes/code8b10b_table.h"

uint8_t lfsr16_next(uint16_t *state)
{
	unsigned h = *state >> 8;
	*state = (uint16_t)((unsigned)(*state << 8) ^ lfsr16_fb[h]);
	return lfsr16_key[h];
}
