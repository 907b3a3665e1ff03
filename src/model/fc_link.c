/* fc_link.c: the shadow model's links and their initialisation epochs:
 * a link's first record, the epochs that link events and InitFC1s start
 * (seen) or that the capture joins, the state --initial-credits gives,
 * and what Data Link Feature DLLPs say of scaled flow control.
 * Semantics: rules.md "Init evidence", "Seen and joined epochs",
 * "Credits consumed"; spec-digest.md 1.5, 1.6, 6.1.
 * A leaf of the model: it calls only the data link layer's resets. */
#include <stdlib.h>
#include <string.h>

#include "model/fc_internal.h"

/* Clears one port's per-epoch state on a VC, keeping its statistics. */
static void port_vc_reset(struct fc_port_vc *pv)
{
	pv->fi1 = false;
	pv->complete = false;
	pv->got_init_mask = 0;
	pv->sent_init2 = false;
	pv->sent_init1 = false;
	pv->maybe_init_count = 0;
	pv->maybe_complete = false;
	pv->last_init_class[0] = pv->last_init_class[1] = -1;
	memset(pv->first_adv, 0, sizeof(pv->first_adv));
	for (unsigned ct = 0; ct < CT_COUNT; ct++) {
		struct fc_credit *c = &pv->credit[ct];
		c->limit = 0;
		c->consumed = 0;
		c->init_max = 0;
		c->width = (uint8_t)(ct_is_data(ct) ? 12 : 8);
		c->scale = 0;
		c->limit_known = false;
		/* CREDITS_CONSUMED is 0 at initialisation [5.2]. */
		c->consumed_known = true;
		c->infinite = false;
		c->infinite_known = false;
		c->limit_from_init1 = false;
		c->overran = false;
		c->limit_uncertain = false;
		c->scale_known = false;
		c->charge_seen = false;
		c->rise_count = 0;
	}
	for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++)
		pv->update_seen[cls] = false;
	pv->init_set_seen[0] = pv->init_set_seen[1] = false;
}

void fc_vc_epoch_start(struct fc_link *link, unsigned vc)
{
	struct fc_vc *v = &link->vc[vc];
	v->state = VC_INIT;
	v->joined = false;
	v->idle_uncertain = false;
	for (unsigned p = 0; p < DIR_COUNT; p++)
		port_vc_reset(&v->port[p]);
}

/* A joined epoch [rules.md "Seen and joined epochs"]: what either port
 * consumed before the capture is unknown, each port's from its own first
 * InitFC1 on (fc_joined_port_started). */
static void vc_consumed_unknown(struct fc_vc *v)
{
	for (unsigned p = 0; p < DIR_COUNT; p++)
		for (unsigned ct = 0; ct < CT_COUNT; ct++)
			v->port[p].credit[ct].consumed_known = false;
}

/* Nothing is known of the VC: the capture began mid-stream. */
static void vc_unknown(struct fc_link *link, unsigned vc)
{
	fc_vc_epoch_start(link, vc);
	link->vc[vc].state = VC_UNKNOWN;
	vc_consumed_unknown(&link->vc[vc]);
}

void fc_vc_epoch_join(struct fc_link *link, unsigned vc, uint64_t record_no)
{
	struct fc_vc *v = &link->vc[vc];
	fc_vc_epoch_start(link, vc);
	v->joined = true;
	v->joined_record = record_no;
	v->epochs_joined++;
	vc_consumed_unknown(v);
}

void fc_link_epoch_start(struct fc_link *link, bool by_event)
{
	link->epoch_seen = true;
	link->epoch_by_event = by_event;
	link->port_reset_pending = false;
	link->pm_inactive = false;
	fc_vc_epoch_start(link, 0);
	for (unsigned vc = 1; vc < FC_VC_COUNT; vc++) {
		struct fc_vc *v = &link->vc[vc];
		bool before = v->initialised_before || v->state == VC_INIT ||
		              v->state == VC_GIVEN || v->tlps_while_unknown ||
		              v->fc_dllps_while_unknown;
		fc_vc_epoch_start(link, vc);
		v->state = VC_IDLE;
		v->initialised_before = before;
	}
	/* DL_Inactive resets NEXT_TRANSMIT_SEQ to 0 [6.1, 7]. */
	dl_reset(link);
	/* ... and ends every outstanding request [rules.md "The transaction
	 * layer"] */
	tl_epoch_start(link, true);
}

void fc_link_epoch_join(struct fc_link *link, uint64_t record_no)
{
	link->epoch_seen = false;
	link->epoch_by_event = false;
	link->port_reset_pending = false;
	link->pm_inactive = false;
	fc_vc_epoch_join(link, 0, record_no);
	/* whether VC1-7 were enabled before the capture is not known */
	for (unsigned vc = 1; vc < FC_VC_COUNT; vc++)
		vc_unknown(link, vc);
	/* the sequence numbers are learnt, or known from each port's own
	 * first InitFC1 on */
	dl_forget(link);
	/* requests and completions are learnt for the epoch */
	tl_epoch_start(link, false);
}

/* Port p sent its first InitFC1 on vc in a joined epoch: it is in
 * FC_INIT1 and has sent no TLP in the epoch, so what its transmitter
 * consumed is known from here on (0), and on VC0 so is its sequence
 * state (NEXT_TRANSMIT_SEQ 0 since DL_Inactive) [rules.md]. */
void fc_joined_port_started(struct fc_link *link, unsigned vc, enum link_dir p)
{
	struct fc_port_vc *pv = &link->vc[vc].port[p];
	for (unsigned ct = 0; ct < CT_COUNT; ct++) {
		pv->credit[ct].consumed = 0;
		pv->credit[ct].consumed_known = true;
	}
	if (vc == 0)
		dl_restart_port(link, p);
}

bool fc_link_scaling_known(const struct fc_link *link, bool *active)
{
	/* Scaled FC is active when both ports advertised it in Data Link
	 * Feature DLLPs [1.5, 1.6].  After a link event the exchange, if any,
	 * is in the capture: a side that sent none does not support it. */
	if (link->dlf_seen[DIR_DOWN] && link->dlf_seen[DIR_UP]) {
		*active = link->dlf_scaled[DIR_DOWN] && link->dlf_scaled[DIR_UP];
		return true;
	}
	/* a damaged DLLP from a side that sent none may have been its
	 * Data Link Feature DLLP */
	if (link->epoch_by_event && !(link->dlf_uncertain[DIR_DOWN] && !link->dlf_seen[DIR_DOWN]) &&
	    !(link->dlf_uncertain[DIR_UP] && !link->dlf_seen[DIR_UP])) {
		*active = false;
		return true;
	}
	return false;
}

/* --initial-credits: VCs whose advertisement the user gave start as if
 * the capture began right after their initialisation.  Credits given for
 * one port make its partner's transmitter known (limit, and consumed = 0
 * from the first record); the other direction stays unknown [rules.md].
 * The scale in force is learnt from the first InitFC or UpdateFC of the
 * type on the wire: until then the counters run at their widest width, in
 * which the given (absolute) values cannot wrap. */
static void apply_initial_credits(struct fc_link *link, const struct fc_options *opts)
{
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		bool given[DIR_COUNT] = { false, false };
		for (unsigned adv = 0; adv < DIR_COUNT; adv++)
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				given[adv] |= opts->initial[adv][vc][ct].given;
		if (!given[DIR_DOWN] && !given[DIR_UP])
			continue;
		fc_vc_epoch_start(link, vc);
		link->vc[vc].state = VC_GIVEN;
		for (unsigned adv = 0; adv < DIR_COUNT; adv++) {
			struct fc_port_vc *tx = &link->vc[vc].port[partner_of(adv)];
			tx->fi1 = tx->complete = true;
			tx->got_init_mask = 7;
			tx->sent_init2 = true;
			for (unsigned ct = 0; ct < CT_COUNT; ct++) {
				const struct initial_credit *ic = &opts->initial[adv][vc][ct];
				struct fc_credit *c = &tx->credit[ct];
				c->consumed_known = given[adv];
				c->width = (uint8_t)(ct_is_data(ct) ? fc_data_width(3)
				                                    : fc_hdr_width(3));
				if (!ic->given)
					continue;
				c->infinite = ic->infinite;
				c->infinite_known = true;
				c->limit = ic->infinite ? 0 : ic->credits;
				c->limit_known = true;
				c->init_max = c->limit;
				c->advertised_seen = true;
				c->advertised_infinite = ic->infinite;
				c->advertised = c->limit;
			}
		}
	}
}

/* A new link's VCs, all unknown (the capture may begin mid-stream): on
 * a link of zeroes, what vc_unknown() leaves differs from zero only in
 * these fields; written alone, not as vc_unknown()'s every field of every
 * credit of 16 ports (each store a check under ASan, the fuzzers' cost of
 * each link made).  fc_link_vcs_unknown_plain() is the plain way;
 * check_fc.c compares the two. */
static void vcs_unknown_on_zeroes(struct fc_link *link)
{
	_Static_assert(VC_UNKNOWN == 0, "a link of zeroes has its VCs unknown");
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			struct fc_port_vc *pv = &link->vc[vc].port[p];
			pv->last_init_class[0] = pv->last_init_class[1] = -1;
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				pv->credit[ct].width = (uint8_t)(ct_is_data(ct) ? 12 : 8);
		}
}

void fc_link_vcs_unknown_plain(struct fc_link *link)
{
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		vc_unknown(link, vc);
}

struct fc_link *fc_link_new(struct fc_model *m, unsigned index)
{
	struct fc_link *link = calloc(1, sizeof(*link));
	if (!link) {
		/* the library reports, only main exits: the run sees
		 * fc_model_failed() and makes it an input error */
		m->out_of_memory = true;
		return NULL;
	}
	dl_forget(link);
	link->tl_deadline_ps = UINT64_MAX;
	vcs_unknown_on_zeroes(link);
	apply_initial_credits(link, m->opts);
	m->links[index] = link;
	bitset_add(m->made, index);
	return link;
}
