/* warp_build.h: Warp Pipe frames for the tests (warp_pipe.h draws them):
 * an Ack DLLP or a TLP built by wire/ with good CRCs, behind the protocol
 * byte. */
#ifndef DLLPCHECK_TESTS_WARP_BUILD_H
#define DLLPCHECK_TESTS_WARP_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "read/net/warp_pipe.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

/* An Ack of seq: 7 bytes. */
static inline size_t warp_build_ack(uint8_t *out, unsigned seq)
{
	out[0] = WARP_PIPE_PROTO_DLLP;
	out[1] = 0x00;
	out[2] = 0x00;
	out[3] = (uint8_t)(seq >> 8 & 0x0F);
	out[4] = (uint8_t)seq;
	dllp_crc16_bytes(out + 1, out + 5);
	return 7;
}

/* An MWr32 of len_dw DW with sequence number seq: 1 + 2 + 12 + 4*len_dw + 4
 * bytes (cap at least that). */
static inline size_t warp_build_mwr(uint8_t *out, size_t cap, unsigned seq, unsigned len_dw)
{
	struct tlp_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.kind = TLP_MWR;
	spec.seq = (uint16_t)seq;
	spec.length_dw = (uint16_t)len_dw;
	spec.has_seq = true;
	spec.has_lcrc = true;
	out[0] = WARP_PIPE_PROTO_TLP;
	size_t n = tlp_encode(&spec, out + 1, cap - 1);
	return n ? n + 1 : 0;
}

#endif
