/* code8b10b.h: the 8b/10b code of one symbol (phy-digest.md section 1):
 * decode of a 10-bit code group at a running disparity, with the code
 * and disparity errors of section 1.3, and encode (for the tests and the
 * bench generator).  Both are one lookup in the generated literal tables
 * of code8b10b_table.h (tools/gen-8b10b.py).
 *
 * Running disparity: 0 = RD-, 1 = RD+.  A code group has bit 0 = a, the
 * first bit on the wire (Fig 4-2, 4-3).
 */
#ifndef DLLPCHECK_CODE8B10B_H
#define DLLPCHECK_CODE8B10B_H

#include <stdbool.h>
#include <stdint.h>

#include "read/lanes/code8b10b_table.h"

#define CODE8B10B_OK 0u
#define CODE8B10B_DISPARITY 1u /* valid only in the other RD column */
#define CODE8B10B_CODE 2u /* in neither column: the byte is unknown */

/* The PCIe K symbols (Table 4-3), as bytes (K flag separate). */
#define K_COM 0xBCu /* K28.5 */
#define K_STP 0xFBu /* K27.7 */
#define K_SDP 0x5Cu /* K28.2 */
#define K_END 0xFDu /* K29.7 */
#define K_EDB 0xFEu /* K30.7 */
#define K_PAD 0xF7u /* K23.7 */
#define K_SKP 0x1Cu /* K28.0 */
#define K_FTS 0x3Cu /* K28.1 */
#define K_IDL 0x7Cu /* K28.3 */
#define K_EIE 0xFCu /* K28.7 */

struct code8b10b {
	uint8_t byte;
	bool k;
	uint8_t err; /* CODE8B10B_* */
};

/* Decodes code (10 bits, bit 0 = a) at *rd and sets *rd to the running
 * disparity after it (on an error, the one the received sub-blocks give).
 * Inline: it is the per-symbol path of every 10-bit lane. */
static inline struct code8b10b code8b10b_decode(unsigned code, unsigned *rd)
{
	uint16_t e = code8b10b_dec[*rd & 1u][code & 0x3FFu];
	struct code8b10b r = {
		.byte = (uint8_t)e,
		.k = (e >> 8 & 1u) != 0,
		.err = (uint8_t)(e >> 10 & 3u),
	};
	/* a code group wider than 10 bits is no code group */
	if (code > 0x3FFu)
		r.err = CODE8B10B_CODE;
	*rd = e >> 9 & 1u;
	return r;
}
/* The code group of byte (a K symbol when k) at *rd, and the RD after it
 * in *rd; -1 when k names no PCIe K symbol. */
int code8b10b_encode(uint8_t byte, bool k, unsigned *rd);
/* True when (byte, k) is a data byte or one of the 12 PCIe K symbols. */
bool code8b10b_valid(uint8_t byte, bool k);
/* "D21.5" / "K28.5" into buf (at least 8 bytes); returns buf. */
const char *code8b10b_name(uint8_t byte, bool k, char *buf);

#endif
