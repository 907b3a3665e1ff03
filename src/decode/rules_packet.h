/* rules_packet.h: the rules that need only one decoded packet
 * (capture.truncated, dllp.*, tlp.*). */
#ifndef DLLPCHECK_RULES_PACKET_H
#define DLLPCHECK_RULES_PACKET_H

#include "core/rules.h"
#include "decode/packet.h"

/* Raises the packet-level findings of pkt.  Returns true when the packet
 * is fit to be applied to the shadow model (complete, CRC good or absent,
 * well-formed, not nullified, of a type the model knows). */
bool rules_packet_check(const struct packet *pkt, struct finding_sink *sink);

#endif
