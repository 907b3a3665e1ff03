/* tl_rules.c: the transaction-layer rules one new TLP proves on its own:
 * tlp.ecrc, tlp.poisoned, tlp.payload.over-mps,
 * tlp.read.over-mrrs, tlp.4k-cross, tlp.msg.direction, tlp.msg.tc.
 * specification: rules.md "The transaction layer"; spec-digest.md 3.3
 * (ECRC), 4.1 (header); PCIe 6.3 2.2.7.1 (4 KB, MRRS), 2.2.8.x (message
 * routing, TC0, who sends INTx and Set_Slot_Power_Limit), as quoted in
 * notes/tl-facts.md.
 * Each finding is built by a COLD_PATH function: a good TLP only pays for
 * the tests. */
#include <stdio.h>

#include "model/tl_internal.h"

static void begin(struct fc_model *m, struct finding *f, enum rule_id rule,
                  const struct packet *pkt)
{
	fc_finding_begin(f, rule, pkt, (int)fc_vc_of_tc(m, pkt->u.tlp.tc), FINDING_NO_CREDIT);
}

static COLD_PATH void raise_ecrc(struct fc_model *m, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	begin(m, &f, R_TLP_ECRC, pkt);
	finding_message(m->sink, &f,
	                "%s: ECRC field 0x%08X, expected 0x%08X (the LCRC is good: damaged "
	                "before this link)",
	                tlp_kind_name(t->kind), t->ecrc_field, t->ecrc_expected);
	finding_add_evidence(&f, "ecrc", t->ecrc_field);
	finding_add_evidence(&f, "ecrc_expected", t->ecrc_expected);
	fc_raise(m, &f);
}

static COLD_PATH void raise_poisoned(struct fc_model *m, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	begin(m, &f, R_TLP_POISONED, pkt);
	finding_message(m->sink, &f, "%s with EP=1: its data is poisoned", tlp_kind_name(t->kind));
	fc_raise(m, &f);
}

static COLD_PATH void raise_over_mps(struct fc_model *m, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	begin(m, &f, R_TLP_PAYLOAD_OVER_MPS, pkt);
	finding_message(m->sink, &f, "%s with %u bytes of payload: more than --mps %u",
	                tlp_kind_name(t->kind), 4u * t->payload_dw, m->opts->mps);
	finding_add_evidence(&f, "payload_bytes", 4u * t->payload_dw);
	finding_add_evidence(&f, "mps", m->opts->mps);
	fc_raise(m, &f);
}

static COLD_PATH void raise_over_mrrs(struct fc_model *m, const struct packet *pkt, uint32_t bytes)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	begin(m, &f, R_TLP_READ_OVER_MRRS, pkt);
	finding_message(m->sink, &f, "%s for %u bytes: more than --mrrs %u", tlp_kind_name(t->kind),
	                bytes, m->opts->mrrs);
	finding_add_evidence(&f, "bytes_requested", bytes);
	finding_add_evidence(&f, "mrrs", m->opts->mrrs);
	fc_raise(m, &f);
}

static COLD_PATH void raise_4k(struct fc_model *m, const struct packet *pkt, uint64_t first,
                               uint32_t bytes)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	begin(m, &f, R_TLP_4K_CROSS, pkt);
	finding_message(m->sink, &f,
	                "%s of %u bytes at 0x%llX: bytes 0x%llX..0x%llX cross the 4 KB boundary "
	                "at 0x%llX",
	                tlp_kind_name(t->kind), bytes, (unsigned long long)first,
	                (unsigned long long)first, (unsigned long long)(first + bytes - 1),
	                (unsigned long long)((first | 0xFFFu) + 1));
	finding_add_evidence(&f, "address", (int64_t)first);
	finding_add_evidence(&f, "bytes_requested", bytes);
	fc_raise(m, &f);
}

static const char *msg_name(uint8_t code, char buf[8])
{
	const char *name = tlp_msg_code_name(code);
	if (name)
		return name;
	snprintf(buf, 8, "0x%02X", code);
	return buf;
}

static COLD_PATH void raise_msg_direction(struct fc_model *m, const struct packet *pkt,
                                          const char *why)
{
	const struct tlp *t = &pkt->u.tlp;
	char buf[8];
	struct finding f;
	begin(m, &f, R_TLP_MSG_DIRECTION, pkt);
	finding_message(m->sink, &f, "%s %s (routing %s) sent by port %s: %s",
	                tlp_kind_name(t->kind), msg_name(t->msg_code, buf),
	                tlp_msg_routing_name(t->msg_routing), link_dir_name(pkt->rec->dir), why);
	finding_add_evidence(&f, "msg_code", t->msg_code);
	finding_add_evidence(&f, "routing", t->msg_routing);
	fc_raise(m, &f);
}

static COLD_PATH void raise_msg_tc(struct fc_model *m, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	char buf[8];
	struct finding f;
	begin(m, &f, R_TLP_MSG_TC, pkt);
	finding_message(m->sink, &f, "%s %s on TC%u: it must use TC0", tlp_kind_name(t->kind),
	                msg_name(t->msg_code, buf), t->tc);
	finding_add_evidence(&f, "msg_code", t->msg_code);
	finding_add_evidence(&f, "tc", t->tc);
	fc_raise(m, &f);
}

/* A message is known by its code and routing together: "the Message Code
 * field must be fully decoded" [PCIe 2.2.8]; a code with another routing
 * than its own is no such message. */
static bool is_message(const struct tlp *t, uint8_t code)
{
	return t->msg_code == code && t->msg_routing == tlp_msg_code_routing(code);
}

static bool is_intx(const struct tlp *t)
{
	return t->msg_code >= 0x20 && t->msg_code <= 0x27 && is_message(t, t->msg_code);
}

#define MSG_SET_SLOT_POWER_LIMIT 0x50u

/* Messages that must use TC0 [2.2.8.1-2.2.8.5]: INTx, power management
 * (PM_Active_State_Nak, PM_PME, PME_Turn_Off, PME_TO_Ack), error
 * signalling, Unlock, Set_Slot_Power_Limit. */
static bool must_use_tc0(const struct tlp *t)
{
	if (!is_message(t, t->msg_code))
		return false;
	switch (t->msg_code) {
	case 0x00:
	case 0x14:
	case 0x18:
	case 0x19:
	case 0x1B:
	case 0x30:
	case 0x31:
	case 0x33:
	case MSG_SET_SLOT_POWER_LIMIT:
		return true;
	default:
		return is_intx(t);
	}
}

/* Routing r[2:0] [Table 2-20]: to the Root Complex (000b) and gathered
 * (101b) travel up, broadcast (011b) down; INTx come only from Upstream
 * Ports [2.2.8.1], Set_Slot_Power_Limit only from Downstream Ports
 * [2.2.8.5].  Port D sends down, port U up. */
static void check_message(struct fc_model *m, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	bool down = pkt->rec->dir == DIR_DOWN;
	if (down && (t->msg_routing == 0 || t->msg_routing == 5))
		raise_msg_direction(m, pkt, "routed to the Root Complex, so it travels up");
	else if (!down && t->msg_routing == 3)
		raise_msg_direction(m, pkt, "a broadcast from the Root Complex travels down");
	else if (down && is_intx(t))
		raise_msg_direction(m, pkt, "INTx messages come only from an Upstream Port");
	else if (!down && is_message(t, MSG_SET_SLOT_POWER_LIMIT))
		raise_msg_direction(m, pkt, "it comes only from a Downstream Port");
	if (t->tc != 0 && must_use_tc0(t))
		raise_msg_tc(m, pkt);
}

/* Memory requests [2.2.7.1]: within one 4 KB page, reads within MRRS;
 * the bytes are worked out only where tl_memory_request says a rule may
 * fire. */
static void check_memory(struct fc_model *m, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	bool may_cross, may_exceed;
	if (!tl_memory_request(m, t, &may_cross, &may_exceed) || !(may_cross || may_exceed))
		return;
	uint32_t bytes = tlp_read_bytes(t->length_dw, t->first_be, t->last_be);
	if (may_exceed && bytes > m->opts->mrrs)
		raise_over_mrrs(m, pkt, bytes);
	uint64_t first = tlp_first_byte_address(t);
	if (may_cross && bytes && first >> 12 != (first + bytes - 1) >> 12)
		raise_4k(m, pkt, first, bytes);
}

bool tl_rules_packet(struct fc_model *m, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	if (t->ep)
		raise_poisoned(m, pkt);
	if (t->ecrc == CRC_BAD) {
		/* the header may not be what the requester sent: nothing else
		 * is judged by it (one damaged TLP, one error) */
		if (t->lcrc == CRC_GOOD)
			raise_ecrc(m, pkt);
		return false;
	}
	if (m->opts->mps && t->has_data && 4u * t->payload_dw > m->opts->mps)
		raise_over_mps(m, pkt);
	if (tlp_kind_is_completion(t->kind)) {
		/* tlp.cpl.status names the request: tl_model.c */
	} else if (tlp_kind_is_message(t->kind)) {
		check_message(m, pkt);
	} else {
		check_memory(m, pkt);
	}
	return true;
}
