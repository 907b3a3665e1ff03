/* packet.c: record -> typed packet, through dllp.c and tlp.c. */
#include <string.h>

#include "decode/packet.h"

void packet_decode(const struct record *rec, struct packet *pkt)
{
	/* The decoders clear what they fill: clearing the whole union here
	 * too would be a second memset on every record. */
	pkt->rec = rec;
	pkt->truncated = record_truncated(rec);
	switch (rec->kind) {
	case REC_DLLP:
		if (!pkt->truncated)
			(void)dllp_decode(rec->bytes, rec->len, !(rec->flags & REC_F_NO_CRC),
			                  &pkt->u.dllp);
		else {
			memset(&pkt->u.dllp, 0, sizeof(pkt->u.dllp));
			pkt->u.dllp.type_byte = rec->len ? rec->bytes[0] : 0;
		}
		break;
	case REC_TLP:
		(void)tlp_decode(rec->bytes, rec->len, rec->wire_len, !(rec->flags & REC_F_NO_SEQ),
		                 !(rec->flags & REC_F_NO_CRC), &pkt->u.tlp);
		pkt->truncated = pkt->u.tlp.status == TLP_TRUNCATED;
		break;
	case REC_EVENT:
		pkt->u.event.code = rec->bytes[0];
		pkt->u.event.arg = rec->bytes[1];
		break;
	default:
		memset(&pkt->u, 0, sizeof(pkt->u));
		break;
	}
}
