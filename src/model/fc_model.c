/* fc_model.c: the shadow model's links, epochs and link events, and the
 * dispatch of each packet to the DLLP or TLP half (fc_dllp.c, fc_tlp.c).
 * Semantics: rules.md "How the model reads a trace"; capture-format.md
 * section 1 (link events); spec-digest.md 6.3 (resets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fc_internal.h"

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
	if (link->epoch_by_event &&
	    !(link->dlf_uncertain[DIR_DOWN] && !link->dlf_seen[DIR_DOWN]) &&
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
static void apply_initial_credits(struct fc_link *link,
                                  const struct fc_options *opts)
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
				c->width = (uint8_t)(ct_is_data(ct) ? fc_data_width(3) : fc_hdr_width(3));
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

static struct fc_link *link_new(struct fc_model *m, unsigned index)
{
	struct fc_link *link = calloc(1, sizeof(*link));
	if (!link) {
		fprintf(stderr, "dllpcheck: out of memory for link %u\n", index);
		exit(2);
	}
	dl_forget(link);
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		vc_unknown(link, vc);
	apply_initial_credits(link, m->opts);
	m->links[index] = link;
	return link;
}

static struct fc_link *link_get(struct fc_model *m, unsigned index)
{
	struct fc_link *link = m->links[index];
	return link ? link : link_new(m, index);
}

static const char *const role_names[] = {
	[ROLE_UNKNOWN] = "unknown",       [ROLE_ROOT_PORT] = "root-port",
	[ROLE_ROOT_PORT_P2P] = "root-port-p2p", [ROLE_SWITCH] = "switch",
	[ROLE_ENDPOINT] = "endpoint",
};

const char *port_role_name(enum port_role role)
{
	return role <= ROLE_ENDPOINT ? role_names[role] : "?";
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
		link->dlf_uncertain[DIR_DOWN] = link->dlf_uncertain[DIR_UP] = false;
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

/* Power management and the UpdateFC period [5.8, rules.md]: the link is
 * not active from PM_Enter_L1/L23, or from a PM_Request_Ack answering a
 * PM_Active_State_Request_L1, until the next TLP or DLLP of another kind;
 * a DLLP the capture saw damaged may have been such an entry.  Returns
 * false for the PM DLLPs, which do not wake the link. */
static bool pm_dllp(const struct packet *pkt)
{
	switch (pkt->u.dllp.type) {
	case DLLP_PM_ENTER_L1:
	case DLLP_PM_ENTER_L23:
	case DLLP_PM_AS_REQUEST_L1:
	case DLLP_PM_REQUEST_ACK:
		return true;
	default:
		return false;
	}
}

static void note_activity(struct fc_link *link, uint64_t now)
{
	if (link->pm_inactive) {
		link->pm_inactive = false;
		fc_timing_link_active(link, now);
	}
}

static void apply_pm(struct fc_model *m, struct fc_link *link,
                     const struct packet *pkt)
{
	switch (pkt->u.dllp.type) {
	case DLLP_PM_ENTER_L1:
	case DLLP_PM_ENTER_L23:
		link->pm_inactive = true;
		break;
	case DLLP_PM_REQUEST_ACK:
		/* It answers a PM_Active_State_Request_L1 (ASPM L1 entry), a
		 * PM_Enter_L1 or a PM_Enter_L23: after each the link leaves L0,
		 * so also when the request came before the capture. */
		link->pm_inactive = true;
		break;
	default:
		break;
	}
	dl_apply_pm(m, link, pkt);
}

/* A DLLP the capture saw damaged (bad CRC, cut short, or PHY_ERROR
 * without a CRC to prove its bytes): what it said is unknown. */
static bool dllp_damaged(const struct packet *pkt)
{
	const struct dllp *d = &pkt->u.dllp;
	return pkt->truncated || d->crc == CRC_BAD ||
	       ((pkt->rec->flags & REC_F_PHY_ERROR) && d->crc != CRC_GOOD);
}

static void apply_dllp(struct fc_model *m, struct fc_link *link,
                       const struct packet *pkt, bool fit)
{
	if (dllp_damaged(pkt)) {
		fc_damaged_dllp(m, link, pkt->rec->dir);
		return;
	}
	if (!fit)
		return; /* a reserved type: discarded by the receiver [1.1] */
	if (pm_dllp(pkt)) {
		apply_pm(m, link, pkt);
		return;
	}
	note_activity(link, pkt->rec->time_ps);
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
	default:
		break;
	}
}

void fc_model_apply(struct fc_model *m, const struct packet *pkt, bool fit)
{
	const struct record *rec = pkt->rec;
	struct fc_link *link = link_get(m, rec->link);
	link->active = true;
	check_time(m, link, pkt);
	link->last_rec = *rec;
	link->last_rec.bytes = NULL;
	link->last_rec.len = 0;
	link->last_rec_seen = true;

	switch (rec->kind) {
	case REC_EVENT:
		apply_event(m, link, pkt);
		break;
	case REC_DLLP:
		apply_dllp(m, link, pkt, fit);
		break;
	case REC_TLP:
		note_activity(link, rec->time_ps);
		fc_apply_tlp(m, link, pkt, fit);
		break;
	}
}

void fc_model_damaged(struct fc_model *m, int link_index, int dir, int kind)
{
	for (unsigned i = 0; i < FC_LINK_COUNT; i++) {
		struct fc_link *link = m->links[i];
		if (!link || (link_index >= 0 && (unsigned)link_index != i))
			continue;
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			if (dir >= 0 && (unsigned)dir != p)
				continue;
			if (kind == 0 || kind == REC_DLLP)
				fc_damaged_dllp(m, link, (enum link_dir)p);
			if (kind == 0 || kind == REC_TLP)
				fc_damaged_tlp(m, link, (enum link_dir)p);
		}
	}
}

void fc_model_finish(struct fc_model *m)
{
	for (unsigned i = 0; i < FC_LINK_COUNT; i++) {
		struct fc_link *link = m->links[i];
		if (link && link->last_rec_seen && !link->pm_inactive)
			fc_timing_finish(m, link);
	}
}
