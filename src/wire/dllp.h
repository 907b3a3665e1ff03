/* dllp.h: Data Link Layer Packet decode and encode, CRC-16.
 * specification: spec-digest.md sections 1 (formats) and 2 (CRC-16).
 */
#ifndef DLLPCHECK_DLLP_H
#define DLLPCHECK_DLLP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sequence numbers are 12 bits: AckNak_Seq_Num [1.3] and the TLP's [3.1]. */
#define DL_SEQ_MAX 4095u

/* Flow-control classes; also indexes per-class arrays. */
enum fc_class { FC_P = 0, FC_NP = 1, FC_CPL = 2, FC_CLASS_COUNT = 3 };

enum dllp_type {
	DLLP_ACK,
	DLLP_NAK,
	DLLP_MRINIT, /* MR-IOV, opaque */
	DLLP_FEATURE, /* Data_Link_Feature */
	DLLP_ALT_PROTO_1, /* Alternate Protocol Use 1, opaque */
	DLLP_ALT_PROTO_2,
	DLLP_PM_ENTER_L1,
	DLLP_PM_ENTER_L23,
	DLLP_PM_AS_REQUEST_L1,
	DLLP_PM_REQUEST_ACK,
	DLLP_LINK_MGMT, /* Flit Mode only: reserved in NFM */
	DLLP_VENDOR,
	DLLP_NOP,
	DLLP_INITFC1,
	DLLP_INITFC2,
	DLLP_UPDATEFC,
	DLLP_MRINITFC1, /* MR-IOV, opaque */
	DLLP_MRINITFC2,
	DLLP_MRUPDATEFC,
	DLLP_RESERVED, /* any other type byte, incl. FC bytes with bit 3 set */
	DLLP_TYPE_COUNT
};

enum crc_status {
	CRC_GOOD, /* CRC present and correct */
	CRC_BAD, /* CRC present and wrong */
	CRC_ABSENT, /* the capture carries no CRC (NO_CRC flag, 4-byte form) */
	CRC_NULLIFIED, /* TLPs only: LCRC is the inverse of the correct one */
};

struct dllp {
	uint8_t type_byte; /* byte 0 as captured */
	enum dllp_type type;
	uint32_t content; /* bytes 1..3 as a 24-bit value */

	/* Ack, Nak */
	uint16_t acknak_seq; /* 12 bits */

	/* InitFC1, InitFC2, UpdateFC (fields also filled for the MR-IOV FC
	 * kinds, which are otherwise opaque) */
	enum fc_class fc_class;
	uint8_t vc; /* 0..7 */
	uint8_t hdr_scale; /* 2 bits */
	uint8_t hdr_fc; /* 8 bits as on the wire */
	uint8_t data_scale; /* 2 bits */
	uint16_t data_fc; /* 12 bits as on the wire */

	/* Data_Link_Feature */
	bool feature_ack;
	uint32_t feature_support; /* 23 bits */

	/* CRC-16 */
	enum crc_status crc;
	uint16_t crc_field; /* bytes 4,5 as captured: byte4 << 8 | byte5 */
	uint16_t crc_expected; /* the same, as it should be */
};

enum dllp_decode_status {
	DLLP_DECODE_OK,
	DLLP_DECODE_SHORT, /* fewer bytes than the form needs */
	DLLP_DECODE_LONG, /* more bytes than the form allows */
};

/* Decodes a DLLP of len bytes: 6 when has_crc (content + CRC), else 4.
 * Never reads past len.  On a status other than OK, *out is zeroed. */
enum dllp_decode_status dllp_decode(const uint8_t *bytes, size_t len, bool has_crc,
                                    struct dllp *out);

/* Builds the 4 content bytes from the typed fields (type, acknak_seq, fc
 * fields, feature fields, or content for the opaque kinds; type_byte is
 * used for DLLP_RESERVED and the opaque kinds) and appends the correct
 * CRC-16: writes 6 bytes. */
void dllp_encode(const struct dllp *dllp, uint8_t out[6]);

/* The two CRC bytes (DLLP bytes 4 and 5) for 4 content bytes [2.2]. */
void dllp_crc16_bytes(const uint8_t content[4], uint8_t out[2]);

/* Type byte for an FC DLLP of the given kind, class and VC. */
uint8_t dllp_fc_type_byte(enum dllp_type type, enum fc_class cls, unsigned vc);

/* Names: "Ack", "InitFC1-P", "UpdateFC-Cpl", "PM_Enter_L1",
 * "Data_Link_Feature", "Reserved"... dllp_name() includes the class for FC
 * kinds; dllp_type_name() is the bare kind ("InitFC1"). Never NULL. */
const char *dllp_type_name(enum dllp_type type);
const char *dllp_name(const struct dllp *dllp);
const char *fc_class_name(enum fc_class cls); /* "P", "NP", "Cpl" */

/* Looks up a DLLP mnemonic of the symbolic text form, s[0..len)
 * (capture-format.md section 2: "UpdateFC-P", "Ack", "PM_Enter_L1",
 * "Feature", "Vendor"..., and "Data_Link_Feature" as dllp_name() prints
 * it), letters without case and '_' and '-' alike.  Returns the name as
 * the table spells it and fills type and, for the FC kinds, cls (FC_P
 * for the others); NULL for any other word.  One table in dllp.c holds
 * these and the printed names. */
const char *dllp_mnemonic_lookup(const char *s, size_t len, enum dllp_type *type,
                                 enum fc_class *cls);

/* Looks up a DLLP name as analyzer exports write it, s[0..len) compared
 * with its letters and digits only, case-blind ("UPDATEFC_P", "Update FC
 * P", "InitFC1 NonPosted", "UpdFC-Cmpl", "PM AS Request L1",
 * "Vendor Specific"): every mnemonic of dllp_mnemonic_lookup(), and the
 * export spellings kept in the same table in dllp.c (FC classes Posted,
 * NonPosted, Completion, Cmpl; UpdFC; PM_AS_Request_L1;
 * Vendor_Specific).  An FC kind needs its class.  Returns the name as
 * the table spells it and fills type and cls as dllp_mnemonic_lookup()
 * does; NULL for any other word. */
const char *dllp_squeezed_lookup(const char *s, size_t len, enum dllp_type *type,
                                 enum fc_class *cls);

static inline bool dllp_is_fc(enum dllp_type t)
{
	return t == DLLP_INITFC1 || t == DLLP_INITFC2 || t == DLLP_UPDATEFC;
}
static inline bool dllp_is_pm(enum dllp_type t)
{
	return t == DLLP_PM_ENTER_L1 || t == DLLP_PM_ENTER_L23 || t == DLLP_PM_AS_REQUEST_L1 ||
	       t == DLLP_PM_REQUEST_ACK;
}

#endif
