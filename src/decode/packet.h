/* packet.h: a record decoded: the typed DLLP, TLP or link event it holds.
 * The decoder fills it; nothing downstream looks at record bytes again. */
#ifndef DLLPCHECK_PACKET_H
#define DLLPCHECK_PACKET_H

#include "core/record.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

struct packet {
	const struct record *rec;
	bool truncated; /* capture.truncated: never applied to credits */
	union {
		struct dllp dllp;
		struct tlp tlp;
		struct {
			unsigned code; /* enum link_event */
			unsigned arg; /* vc-enable: the VC */
		} event;
	} u;
};

/* The capture saw the packet damaged so that its content is unknown
 * [rules.md "What the capture saw damaged"]: cut short, a bad CRC/LCRC,
 * or PHY_ERROR without a good CRC to prove its bytes (a nullified TLP is
 * not: its inverted LCRC proves them).  Not for link events. */
static inline bool packet_damaged(const struct packet *pkt)
{
	enum crc_status crc = pkt->rec->kind == REC_TLP ? pkt->u.tlp.lcrc : pkt->u.dllp.crc;
	return pkt->truncated || crc == CRC_BAD ||
	       ((pkt->rec->flags & REC_F_PHY_ERROR) && crc != CRC_GOOD && crc != CRC_NULLIFIED);
}

/* Decodes rec (already checked for size by the reader) into pkt. */
void packet_decode(const struct record *rec, struct packet *pkt);

#endif
