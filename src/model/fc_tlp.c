/* fc_tlp.c: TLPs in the shadow model: the init-state rules, the credit
 * gate, and charging the new ones (which are new: the data link layer,
 * dl_tlp_is_new).
 * specification: spec-digest.md 5.2 (gate), 5.9 (what is charged), 6.2
 * (TLPs during init), 6.3 (stale credits), 7 (sequence numbers);
 * rules.md "Credits consumed". */
#include <stdio.h>

#include "model/fc_internal.h"

static COLD_PATH void raise_init_state(struct fc_model *m, const struct packet *pkt,
                                       enum rule_id rule, unsigned vc, const char *state)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	fc_finding_begin(&f, rule, pkt, (int)vc, FINDING_NO_CREDIT);
	finding_message(m->sink, &f, "%s (TC%u) on VC%u from port %s, which %s",
	                tlp_mnemonic(t->kind, t->hdr_dw == 4), t->tc, vc,
	                link_dir_name(pkt->rec->dir), state);
	fc_raise(m, &f);
}

static COLD_PATH void raise_overrun(struct fc_model *m, const struct packet *pkt, unsigned vc,
                                    const struct fc_credit *c, enum credit_type ct, uint32_t need,
                                    uint32_t gap)
{
	struct finding f;
	fc_finding_begin(&f, R_FC_CREDIT_OVERRUN, pkt, (int)vc, (int)ct);
	finding_message(m->sink, &f,
	                "CL=0x%02X CC=0x%02X need=%u: (CL-(CC+need)) mod %u = 0x%02X > 0x%02X",
	                c->limit, c->consumed, need, 1u << c->width, gap, fc_half(c->width));
	finding_add_evidence(&f, "CL", c->limit);
	finding_add_evidence(&f, "CC", c->consumed);
	finding_add_evidence(&f, "need", need);
	finding_add_evidence(&f, "gap", gap);
	finding_add_evidence(&f, "width", c->width);
	fc_raise(m, &f);
}

static COLD_PATH void raise_stale(struct fc_model *m, const struct packet *pkt, unsigned vc)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	fc_finding_begin(&f, R_FC_RESET_STALE_CREDITS, pkt, (int)vc, FINDING_NO_CREDIT);
	finding_message(m->sink, &f,
	                "%s from port %s after a port-reset event and before the link "
	                "re-initialised: one side's credit state is stale",
	                tlp_mnemonic(t->kind, t->hdr_dw == 4), link_dir_name(pkt->rec->dir));
	fc_raise(m, &f);
}

/* The gate for one credit type [5.2]; charges it either way, since the
 * transmitter counted the TLP it sent. */
static void gate_and_charge(struct fc_model *m, const struct packet *pkt, unsigned vc,
                            struct fc_credit *c, enum credit_type ct, uint32_t need)
{
	if (fc_credit_tracked(c) && !c->limit_uncertain) {
		fc_timing_before_charge(m, pkt, vc, ct, c, need);
		uint32_t gap;
		if (!fc_gate_allows(c->limit, c->consumed, need, c->width, &gap)) {
			raise_overrun(m, pkt, vc, c, ct, need, gap);
			c->overran = true;
		}
	}
	c->tlps_charged++;
	c->credits_charged += need;
	if (c->consumed_known)
		c->consumed = fc_add(c->consumed, need, c->width);
	fc_timing_after_charge(c, pkt->rec->time_ps);
}

/* The init-state rules for a TLP from tx on a VC in an epoch whose start
 * was seen [6.2]; silent where the capture cannot prove the state: a
 * joined epoch, or a damaged DLLP/TLP from the partner that may have
 * carried the missing InitFC or the completion [rules.md]. */
/* Returns false when the TLP was one its receiver discards (before FI1). */
static bool check_init_state(struct fc_model *m, const struct packet *pkt, const struct fc_vc *v,
                             const struct fc_port_vc *tx, unsigned vc)
{
	if (v->joined || tx->complete)
		return true;
	if (!tx->fi1) {
		if (!fc_possible_fi1(tx)) {
			raise_init_state(m, pkt, R_FC_INIT_TLP_BEFORE_INIT, vc,
			                 "has not reached FI1 in this initialisation");
			return false;
		}
	} else if (!tx->maybe_complete) {
		raise_init_state(m, pkt, R_FC_INIT_TLP_DURING_INIT2, vc,
		                 "is still in FC_INIT2 (allowed by PCIe 1.0a only)");
	}
	return true;
}

/* A new TLP: the init-state rules and the credits [5.2, 6.2, 6.3].
 * Returns false when it is one the receiver discards (a finding said so). */
static bool charge_new_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	enum link_dir sender_dir = pkt->rec->dir;
	unsigned vc = fc_vc_of_tc(m, t->tc);
	struct fc_vc *v = &link->vc[vc];
	struct fc_port_vc *tx = &v->port[sender_dir];
	bool accepted = true;

	/* Any TLP on the VC completes the partner's initialisation once it
	 * has FI1 [6.2]. */
	struct fc_port_vc *rx = &v->port[partner_of(sender_dir)];
	if (v->state == VC_INIT && rx->fi1)
		rx->complete = true;

	if (link->port_reset_pending) {
		raise_stale(m, pkt, vc);
		return false;
	}
	switch (v->state) {
	case VC_UNKNOWN:
		v->tlps_while_unknown++;
		break;
	case VC_IDLE:
		if (v->idle_uncertain) {
			/* a damaged DLLP may have been its InitFC1 */
			v->tlps_while_unknown++;
			break;
		}
		if (v->initialised_before)
			raise_init_state(m, pkt, R_FC_INIT_TLP_BEFORE_INIT, vc,
			                 "has not re-initialised it since the link's last "
			                 "initialisation (it was initialised in an earlier one)");
		else
			raise_init_state(m, pkt, R_FC_CREDIT_VC_NOT_ENABLED, vc,
			                 "never started flow-control initialisation on it");
		return false;
	case VC_INIT:
		accepted = check_init_state(m, pkt, v, tx, vc);
		break;
	case VC_GIVEN:
		break;
	}
	gate_and_charge(m, pkt, vc, &tx->credit[ct_hdr(t->fc_class)], ct_hdr(t->fc_class),
	                t->hdr_credits);
	if (t->data_credits)
		gate_and_charge(m, pkt, vc, &tx->credit[ct_data(t->fc_class)], ct_data(t->fc_class),
		                t->data_credits);
	return accepted;
}

void fc_apply_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt, bool fit)
{
	const struct tlp *t = &pkt->u.tlp;
	enum link_dir sender_dir = pkt->rec->dir;

	/* Nullified and Bad TLPs were never received: no sequence number is
	 * used, nothing is charged [3.4, 5.9]. */
	if (t->lcrc == CRC_NULLIFIED && !pkt->truncated) {
		link->dl[sender_dir].tlps_nullified++;
		return;
	}
	if (packet_damaged(pkt)) {
		fc_damaged_tlp(m, link, sender_dir);
		return;
	}
	dl_apply_tlp(m, link, pkt);
	bool may_repeat = false;
	uint32_t holes = link->cc_holes[sender_dir];
	bool is_new = t->has_seq ? dl_tlp_is_new(link, sender_dir, t->seq, &may_repeat) : true;
	dl_after_tlp(link, sender_dir);
	/* sequence numbers skipped: TLPs the capture never saw, which may
	 * have been completions */
	if (link->cc_holes[sender_dir] > holes)
		tl_damaged_tlp(link, sender_dir);
	if (!fit) {
		/* malformed: its sequence number is used, no credit; the
		 * request or completion it may have been is unknown */
		tl_discarded_tlp(m, link, pkt);
		return;
	}
	if (!is_new) {
		link->tlps_not_charged[sender_dir]++;
		return;
	}
	link->dl[sender_dir].tlps_by_kind[t->kind]++;
	bool accepted = charge_new_tlp(m, link, pkt);
	/* the transaction layer judges new TLPs only: a replay repeats what
	 * was already judged [rules.md "The transaction layer"]; a TLP its
	 * receiver discards (reported above) answers nothing and asks for
	 * nothing that can be checked */
	tl_tlp(m, link, pkt, may_repeat, accepted);
}
