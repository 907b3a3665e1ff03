/* fc_timing.c: the rules that need time: the UpdateFC period [5.8], the
 * InitFC repeat interval [6.2], and the credit-starvation view (how long a
 * transmitter had fewer credits than its next TLP needed).  The --stats
 * numbers are in fc_stats.c.
 *
 * Only what the timestamps prove is reported: UpdateFC gaps count only
 * while the link is active (not from an L1/L2/3 entry until the next TLP
 * or DLLP of another kind), InitFC sets restart after Recovery, whose time
 * does not count; a wait is measured from the charge that left too few
 * credits to the UpdateFC that gave enough, never longer. */
#include <stdio.h>

#include "model/fc_internal.h"

void fc_timing_link_inactive(struct fc_link *link)
{
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			struct fc_port_vc *pv = &link->vc[vc].port[p];
			for (unsigned c = 0; c < FC_CLASS_COUNT; c++)
				pv->update_seen[c] = false;
			pv->init_set_seen[0] = pv->init_set_seen[1] = false;
		}
}

/* Leaving L1 (or a state a damaged DLLP may have put the link in): the
 * UpdateFC gaps count from the moment the link is active again [rules.md
 * fc.update.period]; an InitFC set interrupted by it is not measured. */
void fc_timing_link_active(struct fc_link *link, uint64_t now)
{
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			struct fc_port_vc *pv = &link->vc[vc].port[p];
			for (unsigned c = 0; c < FC_CLASS_COUNT; c++)
				if (pv->update_seen[c] && pv->last_update_ps[c] < now)
					pv->last_update_ps[c] = now;
			pv->init_set_seen[0] = pv->init_set_seen[1] = false;
		}
}

static void raise_late(struct fc_model *m, const struct packet *pkt, enum rule_id rule,
                       uint64_t gap_ps, uint64_t limit_ps, const char *since)
{
	struct finding f;
	fc_finding_begin(&f, rule, pkt, pkt->u.dllp.vc, FINDING_NO_CREDIT);
	finding_message(m->sink, &f, "%s %llu.%03llu us after %s: more than %llu.%03llu us",
	                dllp_name(&pkt->u.dllp), (unsigned long long)(gap_ps / 1000000),
	                (unsigned long long)(gap_ps / 1000 % 1000), since,
	                (unsigned long long)(limit_ps / 1000000),
	                (unsigned long long)(limit_ps / 1000 % 1000));
	finding_add_evidence(&f, "gap_ps", (int64_t)gap_ps);
	finding_add_evidence(&f, "limit_ps", (int64_t)limit_ps);
	fc_raise(m, &f);
}

/* A class needs UpdateFCs when it has a finite field [5.8]. */
static bool class_needs_updates(const struct fc_port_vc *rx, unsigned cls)
{
	const struct fc_credit *hdr = &rx->credit[ct_hdr((enum fc_class)cls)];
	const struct fc_credit *data = &rx->credit[ct_data((enum fc_class)cls)];
	return (hdr->infinite_known && !hdr->infinite) || (data->infinite_known && !data->infinite);
}

void fc_timing_update(struct fc_model *m, const struct packet *pkt, struct fc_port_vc *sender,
                      const struct fc_port_vc *rx)
{
	const struct dllp *d = &pkt->u.dllp;
	uint64_t now = pkt->rec->time_ps;
	uint64_t last = sender->last_update_ps[d->fc_class];
	if (class_needs_updates(rx, d->fc_class) && sender->update_seen[d->fc_class] &&
	    now > last && now - last > m->opts->update_period_ps)
		raise_late(m, pkt, R_FC_UPDATE_PERIOD, now - last, m->opts->update_period_ps,
		           "the previous UpdateFC of the class");
	sender->update_seen[d->fc_class] = true;
	sender->last_update_ps[d->fc_class] = now;
}

static const char *const timing_class_names[FC_CLASS_COUNT] = { "P", "NP", "Cpl" };

static COLD_PATH void raise_update_gap_open(struct fc_model *m, const struct fc_link *link,
                                            unsigned vc, enum link_dir sender, unsigned cls,
                                            uint64_t gap_ps)
{
	uint64_t limit_ps = m->opts->update_period_ps;
	struct finding f;
	finding_init(&f, R_FC_UPDATE_PERIOD, &link->last_rec);
	f.port = (int)sender;
	f.vc = (int)vc;
	finding_message(m->sink, &f,
	                "no UpdateFC-%s from port %s on VC%u for %llu.%03llu us up to the link's "
	                "last record: more than %llu.%03llu us",
	                timing_class_names[cls], link_dir_name(sender), vc,
	                (unsigned long long)(gap_ps / 1000000),
	                (unsigned long long)(gap_ps / 1000 % 1000),
	                (unsigned long long)(limit_ps / 1000000),
	                (unsigned long long)(limit_ps / 1000 % 1000));
	finding_add_evidence(&f, "gap_ps", (int64_t)gap_ps);
	finding_add_evidence(&f, "limit_ps", (int64_t)limit_ps);
	finding_add_evidence(&f, "class", cls);
	fc_raise(m, &f);
}

/* fc.update.period at the end of the capture: a port that stopped sending
 * UpdateFCs for good, once per sender, class and VC. */
void fc_timing_finish(struct fc_model *m, struct fc_link *link)
{
	uint64_t now = link->last_rec.time_ps;
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		const struct fc_vc *v = &link->vc[vc];
		if (v->state != VC_INIT && v->state != VC_GIVEN)
			continue;
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			const struct fc_port_vc *sender = &v->port[p];
			const struct fc_port_vc *rx = &v->port[partner_of((enum link_dir)p)];
			for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++) {
				uint64_t last = sender->last_update_ps[cls];
				if (sender->update_seen[cls] && class_needs_updates(rx, cls) &&
				    now > last && now - last > m->opts->update_period_ps)
					raise_update_gap_open(m, link, vc, (enum link_dir)p, cls,
					                      now - last);
			}
		}
	}
}

/* fc.init.repeat-interval [6.2]: measured at the InitFC-P that starts a
 * set, from the start of the sender's previous set of the phase, and only
 * while the sender is still in that phase (FC_INIT1 until it has FI1,
 * FC_INIT2 until it is complete). */
void fc_timing_init(struct fc_model *m, const struct packet *pkt, struct fc_port_vc *sender,
                    int phase)
{
	const struct dllp *d = &pkt->u.dllp;
	if (d->fc_class != FC_P)
		return;
	uint64_t now = pkt->rec->time_ps;
	uint64_t start = sender->init_set_start_ps[phase];
	bool in_phase = phase == 0 ? !fc_possible_fi1(sender) : !fc_possible_complete(sender);
	if (in_phase && sender->init_set_seen[phase] && now > start &&
	    now - start > m->opts->init_repeat_ps)
		raise_late(m, pkt, R_FC_INIT_REPEAT_INTERVAL, now - start, m->opts->init_repeat_ps,
		           "the start of the sender's previous set");
	sender->init_set_seen[phase] = in_phase;
	sender->init_set_start_ps[phase] = now;
}

void fc_timing_starved(struct fc_model *m, const struct packet *pkt, unsigned vc,
                       enum credit_type ct, struct fc_credit *c, uint32_t need)
{
	/* The transmitter had too few credits from the last charge until the
	 * first UpdateFC that gave enough. */
	uint64_t end = 0;
	bool found = false;
	for (unsigned i = 0; i < c->rise_count && !found; i++) {
		end = c->rise_ps[i];
		found = c->rise_available[i] >= need;
	}
	/* With more rises than kept, the last kept one is a lower bound of
	 * the end; with none, the TLP overran (fc.credit.overrun). */
	if (!(found || c->rise_count == 4) || end <= c->charge_ps)
		return;
	uint64_t wait = end - c->charge_ps;
	if (wait > c->longest_wait_ps)
		c->longest_wait_ps = wait;
	if (wait <= m->opts->starve_ps)
		return;
	struct finding f;
	fc_finding_begin(&f, R_FC_CREDIT_STARVED, pkt, (int)vc, (int)ct);
	finding_message(
	        m->sink, &f,
	        "%u %s credits needed; %u were available from t=%llu ps until an UpdateFC at "
	        "t=%llu ps: waited %llu ps > %llu ps",
	        need, credit_type_name(ct), c->available_after_charge,
	        (unsigned long long)c->charge_ps, (unsigned long long)end, (unsigned long long)wait,
	        (unsigned long long)m->opts->starve_ps);
	finding_add_evidence(&f, "need", need);
	finding_add_evidence(&f, "available", c->available_after_charge);
	finding_add_evidence(&f, "wait_ps", (int64_t)wait);
	finding_add_evidence(&f, "threshold_ps", (int64_t)m->opts->starve_ps);
	fc_raise(m, &f);
}

void fc_timing_after_update(struct fc_credit *c, uint64_t now)
{
	fc_credit_note_zero(c, now);
	if (!c->charge_seen || !c->consumed_known || c->infinite)
		return;
	uint32_t a = fc_credit_available(c);
	uint32_t before =
	        c->rise_count ? c->rise_available[c->rise_count - 1] : c->available_after_charge;
	/* Keep the first rises only: a later one could make a wait look
	 * longer than it was, an earlier one only shorter. */
	if (a > before && c->rise_count < 4) {
		c->rise_ps[c->rise_count] = now;
		c->rise_available[c->rise_count] = a;
		c->rise_count++;
	}
}
