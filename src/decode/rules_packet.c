/* rules_packet.c: findings that one packet proves on its own.
 * capture.truncated [capture-format 1], dllp.crc [2], dllp.reserved-type
 * [1.2], tlp.lcrc [3.2], tlp.nullified [3.4], tlp.malformed [4].
 * Each finding is built by a COLD_PATH function: a good packet only
 * pays for the tests. */
#include <stdio.h>

#include "decode/rules_packet.h"

static COLD_PATH void raise_dllp_crc(const struct packet *pkt, struct finding_sink *sink)
{
	const struct dllp *d = &pkt->u.dllp;
	struct finding f;
	finding_init(&f, R_DLLP_CRC, pkt->rec);
	finding_message(sink, &f, "%s: CRC field 0x%04X, expected 0x%04X", dllp_name(d),
	                d->crc_field, d->crc_expected);
	finding_add_evidence(&f, "crc", d->crc_field);
	finding_add_evidence(&f, "crc_expected", d->crc_expected);
	rules_raise(sink, &f);
}

static COLD_PATH void raise_dllp_reserved(const struct packet *pkt, struct finding_sink *sink)
{
	const struct dllp *d = &pkt->u.dllp;
	struct finding f;
	finding_init(&f, R_DLLP_RESERVED_TYPE, pkt->rec);
	finding_message(sink, &f,
	                "DLLP type 0x%02X (%s) is reserved or unsupported here; discarded",
	                d->type_byte, dllp_name(d));
	finding_add_evidence(&f, "type", d->type_byte);
	rules_raise(sink, &f);
}

static bool check_dllp(const struct packet *pkt, struct finding_sink *sink)
{
	const struct dllp *d = &pkt->u.dllp;

	if (d->crc == CRC_BAD) {
		raise_dllp_crc(pkt, sink);
		return false;
	}
	switch (d->type) {
	case DLLP_RESERVED:
	case DLLP_LINK_MGMT:
	case DLLP_ALT_PROTO_1:
	case DLLP_ALT_PROTO_2:
	case DLLP_MRINIT:
	case DLLP_MRINITFC1:
	case DLLP_MRINITFC2:
	case DLLP_MRUPDATEFC:
		/* Good CRC but a type a Non-Flit-Mode receiver without MR-IOV or
		 * an alternate protocol discards silently [1.1, 1.2]. */
		raise_dllp_reserved(pkt, sink);
		return false;
	default:
		return true;
	}
}

static COLD_PATH void raise_tlp_lcrc(const struct packet *pkt, struct finding_sink *sink)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	finding_init(&f, R_TLP_LCRC, pkt->rec);
	finding_message(sink, &f, "LCRC field 0x%08X, expected 0x%08X (Bad TLP)", t->lcrc_field,
	                t->lcrc_expected);
	finding_add_evidence(&f, "lcrc", t->lcrc_field);
	finding_add_evidence(&f, "lcrc_expected", t->lcrc_expected);
	rules_raise(sink, &f);
}

static COLD_PATH void raise_tlp_nullified(const struct packet *pkt, struct finding_sink *sink)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	finding_init(&f, R_TLP_NULLIFIED, pkt->rec);
	finding_message(sink, &f, "LCRC 0x%08X is the inverse of 0x%08X: nullified, not charged",
	                t->lcrc_field, t->lcrc_expected);
	finding_add_evidence(&f, "lcrc", t->lcrc_field);
	rules_raise(sink, &f);
}

static COLD_PATH void raise_tlp_malformed(const struct packet *pkt, struct finding_sink *sink)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	finding_init(&f, R_TLP_MALFORMED, pkt->rec);
	finding_message(sink, &f, "%s %s", tlp_kind_name(t->kind), tlp_status_text(t->status));
	finding_add_evidence(&f, "length_field", t->length_field);
	finding_add_evidence(&f, "bytes", pkt->rec->len);
	rules_raise(sink, &f);
}

static bool check_tlp(const struct packet *pkt, struct finding_sink *sink)
{
	const struct tlp *t = &pkt->u.tlp;

	if (t->lcrc == CRC_BAD) {
		raise_tlp_lcrc(pkt, sink);
		return false;
	}
	if (t->lcrc == CRC_NULLIFIED) {
		raise_tlp_nullified(pkt, sink);
		return false;
	}
	if (t->status != TLP_OK) {
		raise_tlp_malformed(pkt, sink);
		return false;
	}
	return true;
}

static COLD_PATH void raise_truncated(const struct packet *pkt, struct finding_sink *sink)
{
	const struct record *rec = pkt->rec;
	struct finding f;
	finding_init(&f, R_CAPTURE_TRUNCATED, rec);
	finding_message(sink, &f, "%s captured with %u of its %u bytes; not applied to credits",
	                rec->kind == REC_TLP ? "TLP" : "DLLP", rec->len, rec->wire_len);
	finding_add_evidence(&f, "captured", rec->len);
	finding_add_evidence(&f, "wire_length", rec->wire_len);
	rules_raise(sink, &f);
}

bool rules_packet_check(const struct packet *pkt, struct finding_sink *sink)
{
	if (pkt->truncated) {
		raise_truncated(pkt, sink);
		return false;
	}
	switch (pkt->rec->kind) {
	case REC_DLLP:
		return check_dllp(pkt, sink);
	case REC_TLP:
		return check_tlp(pkt, sink);
	case REC_EVENT:
		return true;
	}
	return false;
}
