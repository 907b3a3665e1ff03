/* lane_os8b10b.c: symbol lock, decode, ordered sets and scrambler of one
 * lane (lane_os8b10b.h; phy-digest.md sections 1.3, 2, 3.3). */
#include "read/lanes/lane_os8b10b.h"

#include "read/lanes/code8b10b.h"
#include "read/lanes/lfsr16.h"

enum { WHAT_TS, WHAT_EIOS, WHAT_FTS, WHAT_EIEOS };

/* 10-bit COM (K28.5) in both columns (Table 4-3): 17Ch at RD-, 283h at RD+. */
#define COM_RDM 0x17Cu
#define COM_RDP 0x283u

void lane_rx_init(struct lane_rx *l)
{
	*l = (struct lane_rx){ .lfsr = LFSR16_SEED };
}

static void no_symbol(struct lane_rx *l, struct lane_out *out)
{
	l->locked = 0;
	l->os = OS_NONE;
	out->kind = LANE_OUT_NONE;
}

void lane_rx_step(struct lane_rx *l, const struct lane_sym *in, struct lane_out *out)
{
	if (lane_rx_fast(l, in, out))
		return;
	out->event = 0;
	out->key = 0;
	out->err = CODE8B10B_OK;
	out->code = in->value;
	out->input = in->input;
	out->raw = 0;
	out->k = false;
	uint8_t byte;
	bool k;
	if (in->input == LANE_IN_CODE10) {
		unsigned code = in->value;
		if (!l->locked) {
			if (code != COM_RDM && code != COM_RDP) {
				out->kind = LANE_OUT_NONE;
				return;
			}
			l->rd = code == COM_RDP;
			l->rd_unsure = 0;
			l->locked = 1;
		}
		unsigned rd = l->rd;
		struct code8b10b c = code8b10b_decode(code, &rd);
		l->rd = (uint8_t)rd;
		/* After an error the RD is the received sub-blocks' guess (digest
		 * 1.3 leaves it open): a code of the other column that follows
		 * before an unbalanced good code has proven the RD again is the
		 * same error showing once more, not a new one. */
		if (c.err == CODE8B10B_DISPARITY && l->rd_unsure)
			c.err = CODE8B10B_OK;
		if (c.err)
			l->rd_unsure = 1;
		else if (__builtin_popcount(code) != 5)
			l->rd_unsure = 0;
		byte = c.byte;
		k = c.k;
		out->err = c.err;
	} else if (in->input == LANE_IN_SYMBOL) {
		byte = (uint8_t)in->value;
		k = (in->value & 0x100u) != 0;
		/* the `sym` form: a K flag on a byte that is no PCIe K symbol,
		 * or bits above 8, is no symbol of the code */
		if (in->value > 0x1FFu || (k && !code8b10b_valid(byte, true)))
			out->err = CODE8B10B_CODE;
		if (!l->locked) {
			if (!k || byte != K_COM || out->err) {
				out->kind = LANE_OUT_NONE;
				return;
			}
			l->locked = 1;
		}
	} else {
		no_symbol(l, out);
		return;
	}
	if (out->err == CODE8B10B_CODE) {
		/* the byte is unknown: not a COM, not an SKP, so it takes a key
		 * like any other symbol (digest 2) */
		byte = 0;
		k = false;
	}
	out->raw = byte;
	out->k = k;

	if (k && byte == K_COM) {
		/* COM advances then resets the LFSR: no visible effect (digest 2) */
		l->lfsr = LFSR16_SEED;
		l->os = OS_AFTER_COM;
		out->kind = LANE_OUT_OS;
		return;
	}
	switch (l->os) {
	case OS_AFTER_COM:
		if (out->err) {
			/* a code or disparity error right after COM: which ordered
			 * set it was cannot be told, and a damaged SKP must not read
			 * as training.  Taken as the SKP OS, the most frequent one
			 * between packets: the symbol is an error in an ordered set
			 * and SKP symbols after it belong to the set; anything else
			 * ends it (a TS's remaining symbols then reach the framing,
			 * which reports them, and no training is claimed) */
			l->os = OS_SKP;
			out->kind = LANE_OUT_OS;
			return;
		}
		if (k && byte == K_SKP) {
			l->os = OS_SKP;
			out->kind = LANE_OUT_OS;
			return;
		}
		l->os = OS_COUNT;
		l->left = 2; /* EIOS, FTS: COM + 3 */
		if (k && byte == K_IDL)
			l->what = WHAT_EIOS;
		else if (k && byte == K_FTS)
			l->what = WHAT_FTS;
		else if (k && byte == K_EIE) {
			l->what = WHAT_EIEOS;
			l->left = 14; /* COM + 14 EIE + D10.2 */
		} else if (!k || byte == K_PAD) {
			l->what = WHAT_TS;
			l->left = 14; /* COM + 15 (Table 4-25) */
			out->event = LANE_EV_TS;
			/* symbol 1 is the Link number: PAD in Polling (lane_packet.h) */
			if (k && byte == K_PAD)
				out->event |= LANE_EV_TS_PAD_LINK;
		} else {
			/* COM then a framing K symbol: no ordered set we know; the
			 * symbol goes to the stream, whose framing reports it */
			l->os = OS_NONE;
			break;
		}
		(void)lfsr16_next(&l->lfsr);
		out->kind = LANE_OUT_OS;
		return;
	case OS_SKP:
		if (k && byte == K_SKP) {
			out->kind = LANE_OUT_OS; /* SKP: the LFSR does not advance */
			return;
		}
		l->os = OS_NONE;
		break;
	case OS_COUNT:
		/* the D symbols of TS1/TS2 and the EIEOS's D10.2 advance the LFSR
		 * but are not XORed; K symbols are never scrambled */
		(void)lfsr16_next(&l->lfsr);
		out->kind = LANE_OUT_OS;
		if (--l->left == 0) {
			l->os = OS_NONE;
			if (l->what == WHAT_EIOS)
				l->locked = 0; /* electrical idle until the next COM */
		}
		return;
	default:
		break;
	}
	if (k) {
		out->kind = LANE_OUT_K;
		/* a stray SKP does not advance the LFSR either */
		if (byte != K_SKP)
			(void)lfsr16_next(&l->lfsr);
		return;
	}
	out->kind = LANE_OUT_DATA;
	out->key = lfsr16_next(&l->lfsr);
}
