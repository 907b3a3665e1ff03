/* packet_build.c: the builder's small pieces (the DLLP and TLP builders
 * are inline in packet_build.h): the kinds whose Length is reserved, and
 * link events.  specification: capture-format.md section 1 (event
 * payloads); spec-digest.md section 3 (Length). */
#include "read/packet_build.h"

bool packet_tlp_length_optional(enum tlp_kind kind)
{
	return kind == TLP_CPL || kind == TLP_CPLLK || kind == TLP_MSG;
}

uint32_t packet_build_event(unsigned code, unsigned vc, uint8_t out[EVENT_LEN])
{
	out[0] = (uint8_t)code;
	out[1] = (uint8_t)(code == EV_VC_ENABLE ? vc : 0);
	out[2] = 0;
	out[3] = 0;
	return EVENT_LEN;
}
