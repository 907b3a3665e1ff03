/* packet_build.h: a packet given by its fields into the bytes of its
 * record, for every reader of symbolic packets: the text trace's
 * ("UpdateFC-P vc=0 hdr=8 data=64", "TLP MWr32 seq=1 len=4", "EVENT
 * link-up", capture-format.md section 2) and an export's rows of decoded
 * fields (section 3).  The one builder of them (layout.md,
 * "fields-to-bytes in one builder"); the encoders are wire/'s.
 *
 * The readers parse and check the fields (their grammars and messages
 * differ); the builder lays them out: which fields a kind has, the
 * CRC-16 or LCRC (correct, absent with REC_F_NO_CRC, or forced), the
 * sequence number (absent with REC_F_NO_SEQ), the defaults of what a
 * symbolic packet does not say (the routing of a message, the length of
 * a packet whose Length is reserved).
 * specification: spec-digest.md sections 1 (DLLP formats), 2 (CRC-16), 3
 * (TLP framing, LCRC); capture-format.md sections 1-3. */
#ifndef DLLPCHECK_PACKET_BUILD_H
#define DLLPCHECK_PACKET_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "core/record.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

/* The CRC-16 of a DLLP, the LCRC of a TLP. */
enum packet_crc {
	PACKET_CRC_GOOD, /* computed */
	PACKET_CRC_NONE, /* not in the record: REC_F_NO_CRC (its CRC is unknown) */
	PACKET_CRC_FORCED, /* the field given (a test of a bad CRC) */
};

/* A DLLP by its fields.  Only the kind's own fields are read, so a
 * reader may fill in every field it has. */
struct packet_dllp {
	enum dllp_type type;
	/* InitFC1, InitFC2, UpdateFC [1.4] */
	enum fc_class cls;
	unsigned vc, hdr_fc, data_fc, hdr_scale, data_scale;
	/* Ack, Nak: AckNak_Seq_Num [1.3] */
	unsigned seq;
	/* Data_Link_Feature [1.6] */
	bool feature_ack;
	uint32_t feature_bits;
	/* Vendor: bytes 1..3 */
	uint32_t vendor_data;
	/* every other kind (PM, NOP, the opaque and reserved ones): byte 0
	 * as given, where the kind has no fixed code, and no content */
	uint8_t type_byte;
	enum packet_crc crc;
	uint16_t crc_field; /* PACKET_CRC_FORCED: byte 4 << 8 | byte 5 */
};

/* Writes the DLLP's 6 bytes to out; returns the record's length (6, or 4
 * with PACKET_CRC_NONE, which also sets REC_F_NO_CRC in *flags).  Inline,
 * as the builders are, so that the fields go to the encoder without a
 * second copy (a symbolic text trace builds one packet a line). */
static inline uint32_t packet_build_dllp(const struct packet_dllp *p, uint8_t out[6],
                                         uint8_t *flags)
{
	struct dllp d;

	memset(&d, 0, sizeof(d));
	d.type = p->type;
	d.type_byte = p->type_byte;
	switch (p->type) {
	case DLLP_INITFC1:
	case DLLP_INITFC2:
	case DLLP_UPDATEFC:
		d.fc_class = p->cls;
		d.vc = (uint8_t)p->vc;
		d.hdr_fc = (uint8_t)p->hdr_fc;
		d.data_fc = (uint16_t)p->data_fc;
		d.hdr_scale = (uint8_t)p->hdr_scale;
		d.data_scale = (uint8_t)p->data_scale;
		d.type_byte = dllp_fc_type_byte(p->type, p->cls, p->vc);
		break;
	case DLLP_ACK:
	case DLLP_NAK:
		d.acknak_seq = (uint16_t)p->seq;
		break;
	case DLLP_FEATURE:
		d.feature_ack = p->feature_ack;
		d.feature_support = p->feature_bits;
		break;
	case DLLP_VENDOR:
		d.content = p->vendor_data;
		break;
	default:
		/* the MR-IOV FC kinds too: their payload is opaque [1.2], so
		 * no field of theirs is taken */
		break;
	}
	dllp_encode(&d, out);
	if (p->crc == PACKET_CRC_FORCED) {
		out[4] = (uint8_t)(p->crc_field >> 8);
		out[5] = (uint8_t)p->crc_field;
	}
	if (p->crc == PACKET_CRC_NONE) {
		*flags |= REC_F_NO_CRC;
		return DLLP_CONTENT_LEN;
	}
	return DLLP_WIRE_LEN;
}

/* A TLP by its fields. */
struct packet_tlp {
	enum tlp_kind kind;
	bool addr64;
	bool has_seq; /* false: no sequence field, REC_F_NO_SEQ */
	unsigned seq;
	bool has_length; /* false: 1 DW (see packet_tlp_length_optional()) */
	unsigned length_dw;
	unsigned tc;
	bool td; /* an ECRC digest */
	enum packet_crc lcrc;
	uint32_t lcrc_field; /* PACKET_CRC_FORCED: as on the wire, big-endian */
	bool nullified; /* the LCRC sent inverted (with PACKET_CRC_GOOD) */
	struct tlp_fields hdr; /* header fields given (zeroed: the defaults) */
	/* Msg/MsgD routing r[2:0]; when not given, the one of the message
	 * code given (tlp_msg_code_routing()), else 100b, local */
	bool routing_given;
	unsigned msg_routing;
};

/* The Bus/Device/Function the encoder gives a configuration request
 * (wire/tlp.c, bus 1, device 0, function 0): a reader given the register
 * of one but not its target keeps it (tests/unit/check_packet_build.c
 * holds the two to each other). */
#define PACKET_CFG_TARGET_DEFAULT 0x0100u

/* The routing of a symbolic message: given, or the code's, or local. */
static inline uint8_t packet_tlp_msg_routing(const struct packet_tlp *p)
{
	if (p->routing_given)
		return (uint8_t)(p->msg_routing & 7u);
	if (p->hdr.msg_code_given)
		return tlp_msg_code_routing(p->hdr.msg_code);
	return 4; /* 100b: local, terminate at receiver */
}

/* Kinds that carry no data and request none, whose Length is reserved:
 * a symbolic one may leave it out (Cpl, CplLk, Msg). */
bool packet_tlp_length_optional(enum tlp_kind kind);

/* Writes the record (sequence number, header, payload of a fixed pattern,
 * ECRC, LCRC, minus what is absent) to out, of cap bytes, and sets
 * REC_F_NO_CRC / REC_F_NO_SEQ in *flags for what is absent; returns its
 * length, 0 when the fields cannot be encoded (then *flags is as it was). */
static inline uint32_t packet_build_tlp(const struct packet_tlp *p, uint8_t *out, size_t cap,
                                        uint8_t *flags)
{
	const struct tlp_spec spec = {
		.kind = p->kind,
		.addr64 = p->addr64,
		.seq = (uint16_t)p->seq,
		.length_dw = p->has_length ? (uint16_t)p->length_dw : 1,
		.tc = (uint8_t)p->tc,
		.td = p->td,
		.msg_routing = packet_tlp_msg_routing(p),
		.has_seq = p->has_seq,
		.has_lcrc = p->lcrc != PACKET_CRC_NONE,
		.nullify = p->nullified,
		.force_lcrc = p->lcrc == PACKET_CRC_FORCED,
		.forced_lcrc = p->lcrc_field,
		.hdr = p->hdr,
	};
	size_t n = tlp_encode(&spec, out, cap);
	if (n == 0)
		return 0;
	*flags |= (spec.has_lcrc ? 0 : REC_F_NO_CRC) | (spec.has_seq ? 0 : REC_F_NO_SEQ);
	return (uint32_t)n;
}

/* A link event's payload (capture-format.md section 1): the code, the VC
 * of vc-enable (ignored for the others), zeros; returns EVENT_LEN. */
uint32_t packet_build_event(unsigned code, unsigned vc, uint8_t out[EVENT_LEN]);

#endif
