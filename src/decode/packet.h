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

/* Decodes rec (already checked for size by the reader) into pkt. */
void packet_decode(const struct record *rec, struct packet *pkt);

#endif
