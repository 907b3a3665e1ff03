/* fc_model.c: the shadow model's links, epochs and link events, and the
 * dispatch of each packet to the DLLP or TLP half (fc_dllp.c, fc_tlp.c).
 * Semantics: rules.md "How the model reads a trace"; capture-format.md
 * section 1 (link events); spec-digest.md 6.3 (resets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fc_internal.h"

void fc_finding_begin(struct finding *f, enum rule_id rule,
                      const struct packet *pkt, int vc, int ct)
{
	finding_init(f, rule, pkt->rec);
	f->vc = vc;
	f->credit_type = ct;
}

void fc_raise(struct fc_model *m, const struct finding *f)
{
	rules_raise(m->sink, f);
}

/* Clears one port's per-epoch state on a VC, keeping its statistics. */
static void port_vc_reset(struct fc_port_vc *pv)
{
	pv->fi1 = false;
	pv->complete = false;
	pv->got_init_mask = 0;
	pv->sent_init2 = false;
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
		c->charge_seen = false;
		c->rise_count = 0;
	}
	for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++)
		pv->update_seen[cls] = false;
	pv->init_set_seen[0] = pv->init_set_seen[1] = false;
}

void fc_vc_epoch_start(struct fc_link *link, unsigned vc)
{
	link->vc[vc].state = VC_INIT;
	for (unsigned p = 0; p < DIR_COUNT; p++)
		port_vc_reset(&link->vc[vc].port[p]);
}

void fc_link_epoch_start(struct fc_link *link, bool by_event)
{
	link->epoch_seen = true;
	link->epoch_by_event = by_event;
	link->port_reset_pending = false;
	fc_vc_epoch_start(link, 0);
	for (unsigned vc = 1; vc < FC_VC_COUNT; vc++) {
		fc_vc_epoch_start(link, vc);
		link->vc[vc].state = VC_IDLE;
	}
	/* DL_Inactive resets NEXT_TRANSMIT_SEQ to 0 [6.1, 7]. */
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		link->seq_known[p] = true;
		link->seq_high[p] = 0xFFF;
		memset(link->seq_seen[p], 0, sizeof(link->seq_seen[p]));
	}
	dl_reset(link);
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
	if (link->epoch_by_event) {
		*active = false;
		return true;
	}
	return false;
}

/* --initial-credits: VCs whose advertisement the user gave start as if
 * the capture began right after their initialisation. */
static void apply_initial_credits(struct fc_link *link,
                                  const struct fc_options *opts)
{
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		bool any = false;
		for (unsigned adv = 0; adv < DIR_COUNT; adv++)
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				any |= opts->initial[adv][vc][ct].given;
		if (!any)
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
				/* the width follows the size: a value above the unscaled
				 * counter's reach needs the scaled one */
				if (ct_is_data(ct))
					c->width = (uint8_t)(c->limit > 8188 ? 16 : c->limit > 2047 ? 14 : 12);
				else
					c->width = (uint8_t)(c->limit > 508 ? 12 : c->limit > 127 ? 10 : 8);
			}
		}
	}
}

static struct fc_link *link_new(struct fc_model *m, unsigned index)
{
	struct fc_link *link = calloc(1, sizeof(*link));
	if (!link) {
		fprintf(stderr, "dllpcheck: out of memory for link %u\n", index);
		exit(2);
	}
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		fc_vc_epoch_start(link, vc);
		link->vc[vc].state = VC_UNKNOWN;
		for (unsigned p = 0; p < DIR_COUNT; p++)
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				link->vc[vc].port[p].credit[ct].consumed_known = false;
	}
	apply_initial_credits(link, m->opts);
	m->links[index] = link;
	return link;
}

static struct fc_link *link_get(struct fc_model *m, unsigned index)
{
	struct fc_link *link = m->links[index];
	return link ? link : link_new(m, index);
}

void fc_options_init(struct fc_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->update_period_ps = FC_UPDATE_PERIOD_PS;
	opts->init_repeat_ps = FC_INIT_REPEAT_PS;
	opts->starve_ps = FC_STARVE_PS;
}

void fc_model_init(struct fc_model *m, const struct fc_options *opts,
                   struct finding_sink *sink)
{
	memset(m, 0, sizeof(*m));
	m->opts = opts;
	m->sink = sink;
}

void fc_model_free(struct fc_model *m)
{
	for (unsigned i = 0; i < FC_LINK_COUNT; i++) {
		free(m->links[i]);
		m->links[i] = NULL;
	}
}

static void apply_event(struct fc_model *m, struct fc_link *link,
                        const struct packet *pkt)
{
	(void)m;
	switch (pkt->u.event.code) {
	case EV_LINK_UP:
	case EV_LINK_DOWN:
	case EV_HOT_RESET:
		/* All flow-control and sequence state of both ports is
		 * discarded; the Data Link Feature exchange starts again. */
		link->dlf_seen[DIR_DOWN] = link->dlf_seen[DIR_UP] = false;
		link->dlf_scaled[DIR_DOWN] = link->dlf_scaled[DIR_UP] = false;
		fc_link_epoch_start(link, true);
		break;
	case EV_PORT_RESET:
		/* One side's credit logic restarted, the other's did not: until
		 * the link re-initialises, every TLP uses stale credits [6.3]. */
		link->port_reset_pending = true;
		break;
	case EV_VC_ENABLE:
		fc_vc_epoch_start(link, pkt->u.event.arg & 7u);
		break;
	case EV_RECOVERY:
		/* flow-control state is kept; time in Recovery does not count
		 * for the UpdateFC and InitFC intervals [5.8, 6.2] */
		fc_timing_link_inactive(link);
		break;
	default:
		break;
	}
}

static COLD_PATH void raise_time_backwards(struct fc_model *m,
                                              const struct fc_link *link,
                                              const struct packet *pkt)
{
	const struct record *rec = pkt->rec;
	struct finding f;
	fc_finding_begin(&f, R_CAPTURE_TIME_BACKWARDS, pkt, FINDING_NO_VC,
	                 FINDING_NO_CREDIT);
	uint64_t back = link->last_time_ps - rec->time_ps;
	finding_message(m->sink, &f,
	         "time goes back %llu ps from the previous record on link %u",
	         (unsigned long long)back, rec->link);
	finding_add_evidence(&f, "previous_time_ps", (int64_t)link->last_time_ps);
	finding_add_evidence(&f, "time_ps", (int64_t)rec->time_ps);
	fc_raise(m, &f);
}

static void check_time(struct fc_model *m, struct fc_link *link,
                       const struct packet *pkt)
{
	const struct record *rec = pkt->rec;
	if (link->has_time && rec->time_ps < link->last_time_ps)
		raise_time_backwards(m, link, pkt);
	link->has_time = true;
	link->last_time_ps = rec->time_ps;
}

void fc_model_apply(struct fc_model *m, const struct packet *pkt, bool fit)
{
	const struct record *rec = pkt->rec;
	struct fc_link *link = link_get(m, rec->link);
	link->active = true;
	check_time(m, link, pkt);

	switch (rec->kind) {
	case REC_EVENT:
		apply_event(m, link, pkt);
		break;
	case REC_DLLP:
		if (!fit)
			return; /* a Bad DLLP is discarded by the receiver [1.1] */
		switch (pkt->u.dllp.type) {
		case DLLP_INITFC1:
		case DLLP_INITFC2:
		case DLLP_UPDATEFC:
			fc_apply_fc_dllp(m, link, pkt);
			break;
		case DLLP_FEATURE:
			fc_apply_feature(link, pkt);
			break;
		case DLLP_ACK:
		case DLLP_NAK:
			dl_apply_acknak(m, link, pkt);
			break;
		case DLLP_PM_ENTER_L1:
		case DLLP_PM_ENTER_L23:
			/* the link leaves L0: the UpdateFC period stops [5.8] */
			fc_timing_link_inactive(link);
			dl_apply_pm(m, link, pkt);
			break;
		case DLLP_PM_AS_REQUEST_L1:
		case DLLP_PM_REQUEST_ACK:
			dl_apply_pm(m, link, pkt);
			break;
		default:
			break;
		}
		break;
	case REC_TLP:
		fc_apply_tlp(m, link, pkt, fit);
		break;
	}
}
