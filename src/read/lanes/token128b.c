/* token128b.c: the STP token's Frame CRC and parity, packing and
 * unpacking (token128b.h; phy-digest.md section 4.4).
 */
#include "read/lanes/token128b.h"

static unsigned bit(unsigned v, unsigned i)
{
	return v >> i & 1u;
}

/* The equations as the spec prints them (page image p.367). */
unsigned tok128_frame_crc(unsigned length, unsigned *parity)
{
	unsigned l = length & 0x7FFu;
	unsigned c0 =
	        bit(l, 10) ^ bit(l, 7) ^ bit(l, 6) ^ bit(l, 4) ^ bit(l, 2) ^ bit(l, 1) ^ bit(l, 0);
	unsigned c1 =
	        bit(l, 10) ^ bit(l, 9) ^ bit(l, 7) ^ bit(l, 5) ^ bit(l, 4) ^ bit(l, 3) ^ bit(l, 2);
	unsigned c2 =
	        bit(l, 9) ^ bit(l, 8) ^ bit(l, 6) ^ bit(l, 4) ^ bit(l, 3) ^ bit(l, 2) ^ bit(l, 1);
	unsigned c3 =
	        bit(l, 8) ^ bit(l, 7) ^ bit(l, 5) ^ bit(l, 3) ^ bit(l, 2) ^ bit(l, 1) ^ bit(l, 0);
	unsigned c = c3 << 3 | c2 << 2 | c1 << 1 | c0;

	if (parity) {
		unsigned p = 0;

		for (unsigned i = 0; i < 11; i++)
			p ^= bit(l, i);
		for (unsigned i = 0; i < 4; i++)
			p ^= bit(c, i);
		*parity = p;
	}
	return c;
}

unsigned tok128_frame_crc_poly(unsigned length)
{
	unsigned r = 0;

	for (unsigned i = 0; i < 11; i++)
		if (bit(length, i))
			r ^= 1u << (14 - i);
	for (unsigned deg = 14; deg >= 4; deg--)
		if (r & 1u << deg)
			r ^= 0x13u << (deg - 4); /* x^4 + x + 1 */
	return r;
}

/* FCRC C[3]..C[0] in +2 bits 7..4, C[3] at bit 7: the figure's convention
 * (fields MSB-left).  UNVERIFIED (phy-digest.md section 8 item 1): EDS is
 * 1001b, symmetric, so it cannot confirm the order, and no independent
 * decoder that checks FCRC was found. */
void tok128_stp_pack(unsigned length, unsigned seq, uint8_t out[4])
{
	unsigned p;
	unsigned c = tok128_frame_crc(length, &p);

	out[0] = (uint8_t)((length & 0x0Fu) << 4 | 0x0Fu);
	out[1] = (uint8_t)(p << 7 | (length >> 4 & 0x7Fu));
	out[2] = (uint8_t)(c << 4 | (seq >> 8 & 0x0Fu));
	out[3] = (uint8_t)(seq & 0xFFu);
}

bool tok128_stp_unpack(const uint8_t tok[4], unsigned *length, unsigned *seq)
{
	unsigned l = (unsigned)(tok[0] >> 4) | (unsigned)(tok[1] & 0x7Fu) << 4;
	unsigned p;
	unsigned c = tok128_frame_crc(l, &p);

	*length = l;
	*seq = (unsigned)(tok[2] & 0x0Fu) << 8 | tok[3];
	return (tok[0] & 0x0Fu) == 0x0Fu && (unsigned)(tok[2] >> 4) == c &&
	       (unsigned)(tok[1] >> 7) == p;
}

bool tok128_is_eds(const uint8_t tok[4])
{
	return tok[0] == 0x1Fu && tok[1] == 0x80u && tok[2] == 0x90u && tok[3] == 0x00u;
}

unsigned tok128_tlp_length(unsigned hdr_dw, unsigned data_dw, bool digest)
{
	return 1u + hdr_dw + data_dw + (digest ? 1u : 0u) + 1u;
}
