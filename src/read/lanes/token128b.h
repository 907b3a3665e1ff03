/* token128b.h: the framing tokens of 128b/130b, Non-Flit Mode
 * (phy-digest.md section 4.4, PCIe 6.2 section 4.2.2.3.1, Fig 4-13).
 *
 *   IDL  00h                       (1 symbol)
 *   SDP  F0h ACh                   (then the 6 DLLP bytes)
 *   EDB  C0h C0h C0h C0h
 *   EDS  1Fh 80h 90h 00h           (an STP layout: Length 1, FCRC 1001b, FP 1, Seq 0)
 *   STP  +0 Len[3:0] 1111b, +1 FP Len[10:4], +2 FCRC[3:0] Seq[11:8], +3 Seq[7:0]
 *
 * Symbol +0 is the first of the data stream.  The TLP Length is in DW and
 * counts the STP token and the LCRC.
 */
#ifndef DLLPCHECK_TOKEN128B_H
#define DLLPCHECK_TOKEN128B_H

#include <stdbool.h>
#include <stdint.h>

#define TOK128_IDL 0x00u
#define TOK128_SDP0 0xF0u
#define TOK128_SDP1 0xACu
#define TOK128_EDB 0xC0u
#define TOK128_LEN 4u /* STP, EDB, EDS */
#define TOK128_SDP_LEN 2u

/* +0 of an STP (and of EDS) has 1111b in bits 3:0. */
static inline bool tok128_is_stp(uint8_t b0)
{
	return (b0 & 0x0Fu) == 0x0Fu;
}

/* The Frame CRC C[3:0] of an 11-bit Length (the equations of digest 4.4),
 * and its even parity P = XOR of L[10:0] and C[3:0]. */
unsigned tok128_frame_crc(unsigned length, unsigned *parity);
/* The same CRC from the implementation note's polynomial form:
 * (L0 x^14 + L1 x^13 + ... + L10 x^4) mod (x^4 + x + 1), bit i = x^i
 * (the unit test holds the equations to it). */
unsigned tok128_frame_crc_poly(unsigned length);

/* The 4 STP symbols of a Length (0..2047 DW) and a sequence number
 * (0..4095). */
void tok128_stp_pack(unsigned length, unsigned seq, uint8_t out[4]);

/* An STP token's fields; false when its Frame CRC or parity do not match
 * its Length (a framing error: the STP is not a TLP, digest 4.6 rule 2).
 * The fields are filled either way. */
bool tok128_stp_unpack(const uint8_t tok[4], unsigned *length, unsigned *seq);

/* The 4 bytes are the EDS token. */
bool tok128_is_eds(const uint8_t tok[4]);

/* The TLP Length of a TLP (digest 4.4): the STP token, the header
 * (3 or 4 DW), the data, the digest and the LCRC, in DW. */
unsigned tok128_tlp_length(unsigned hdr_dw, unsigned data_dw, bool digest);

#endif
