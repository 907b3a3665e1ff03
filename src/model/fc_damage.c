/* fc_damage.c: what the capture saw damaged, in the shadow model.
 *
 * A DLLP with a bad CRC, a TLP with a bad LCRC, a record marked PHY_ERROR
 * without a CRC to prove its bytes, a truncated record, and a record that
 * could not be decoded at all may or may not have reached the receiver
 * intact: the tap and the receiver can disagree.  No error may rest on
 * such a packet's absence or presence [rules.md "What the capture saw
 * damaged"].  What it said is unknown, not absent: every fact it may have
 * changed becomes uncertain here, until an intact packet settles it.
 *
 *   a damaged DLLP from port S may have been
 *     an InitFC1/InitFC2 of any class and VC  -> the partner's FI1 and
 *                                                completion are uncertain
 *     an UpdateFC                              -> the partner's limits may
 *                                                be higher than ours
 *     an InitFC-P starting a set, an UpdateFC  -> S's timing restarts
 *     a PM DLLP (L1 entry)                     -> the link may be idle
 *     an Ack/Nak                               -> the partner's replay
 *                                                check resynchronises
 *     a Data Link Feature                      -> scaling negotiation
 *                                                unknown
 *     the InitFC1 of an idle VC                -> that VC may be enabled
 *   a damaged TLP from port S may have been
 *     a new TLP                                -> S's consumed may lag
 *     the TLP that completes the partner       -> completion uncertain
 *     anything the receiver took intact        -> the next TLP is not out
 *                                                of order (dl_model.c)
 */
#include "model/fc_internal.h"

/* The partner of the damaged packet's sender, on every VC, may have
 * received what completes its initialisation. */
static void receiver_progress_uncertain(struct fc_link *link, enum link_dir sender,
                                        bool may_be_initfc)
{
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		struct fc_vc *v = &link->vc[vc];
		if (v->state == VC_IDLE && may_be_initfc)
			v->idle_uncertain = true;
		if (v->state != VC_INIT && v->state != VC_GIVEN)
			continue;
		struct fc_port_vc *rx = &v->port[partner_of(sender)];
		/* after FI1 (maybe), any InitFC2, UpdateFC or TLP completes */
		if (fc_possible_fi1(rx))
			rx->maybe_complete = true;
		if (may_be_initfc && rx->maybe_init_count < FC_CLASS_COUNT)
			rx->maybe_init_count++;
	}
}

void fc_damaged_dllp(struct fc_model *m, struct fc_link *link, enum link_dir sender)
{
	(void)m;
	link->damaged_dllps[sender]++;
	receiver_progress_uncertain(link, sender, true);
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		struct fc_vc *v = &link->vc[vc];
		struct fc_port_vc *tx = &v->port[partner_of(sender)];
		struct fc_port_vc *own = &v->port[sender];
		/* an UpdateFC may have raised any limit of the partner: the gate
		 * is silent until an intact InitFC/UpdateFC of the type, and
		 * a wait for credits cannot be measured across it */
		for (unsigned ct = 0; ct < CT_COUNT; ct++) {
			struct fc_credit *c = &tx->credit[ct];
			if (c->limit_known && !c->infinite)
				c->limit_uncertain = true;
			c->charge_seen = false;
		}
		/* it may have been the InitFC that starts a set, or the previous
		 * one of the order */
		own->last_init_class[0] = own->last_init_class[1] = -1;
		own->init_set_seen[0] = own->init_set_seen[1] = false;
	}
	/* a PM DLLP may have taken the link out of L0: the UpdateFC gaps
	 * count again from the next TLP or DLLP of another kind */
	link->pm_inactive = true;
	/* the Data Link Feature exchange ends before flow-control
	 * initialisation starts [1.6]: only before any InitFC1 of VC0 */
	if (!link->vc[0].port[DIR_DOWN].sent_init1 && !link->vc[0].port[DIR_UP].sent_init1)
		link->dlf_uncertain[sender] = true;
	dl_damaged_dllp(link, sender);
}

void fc_damaged_tlp(struct fc_model *m, struct fc_link *link, enum link_dir sender)
{
	(void)m;
	link->damaged_tlps[sender]++;
	/* it may have been a new TLP: until its number appears intact (or the
	 * next new one shows where it stood), consumed may lag; without
	 * sequence numbers it never will */
	if (link->tap_no_seq[sender])
		link->cc_lag_for_epoch[sender] = true;
	else if (link->cc_damaged[sender] < UINT32_MAX)
		link->cc_damaged[sender]++;
	receiver_progress_uncertain(link, sender, false);
	dl_damaged_tlp(link, sender);
	tl_damaged_tlp(link, sender);
}
