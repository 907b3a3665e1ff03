/* fc_timing.c: the rules that need time: the UpdateFC period [5.8], the
 * InitFC repeat interval [6.2], and the credit-starvation view (how long a
 * transmitter had fewer credits than its next TLP needed).
 *
 * Only what the timestamps prove is reported: periods restart after a
 * PM_Enter_L1/L23 (the link leaves L0) and after Recovery, whose time does
 * not count; a wait is measured from the charge that left too few
 * credits to the UpdateFC that gave enough, never longer. */
#include <stdio.h>

#include "fc_internal.h"

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

static void raise_late(struct fc_model *m, const struct packet *pkt,
                       enum rule_id rule, uint64_t gap_ps, uint64_t limit_ps,
                       const char *since)
{
	struct finding f;
	fc_finding_begin(&f, rule, pkt, pkt->u.dllp.vc, FINDING_NO_CREDIT);
	finding_message(m->sink, &f,
	         "%s %llu.%03llu us after %s: more than %llu.%03llu us",
	         dllp_name(&pkt->u.dllp),
	         (unsigned long long)(gap_ps / 1000000), (unsigned long long)(gap_ps / 1000 % 1000),
	         since,
	         (unsigned long long)(limit_ps / 1000000), (unsigned long long)(limit_ps / 1000 % 1000));
	finding_add_evidence(&f, "gap_ps", (int64_t)gap_ps);
	finding_add_evidence(&f, "limit_ps", (int64_t)limit_ps);
	fc_raise(m, &f);
}

void fc_timing_update(struct fc_model *m, const struct packet *pkt,
                      struct fc_port_vc *sender, const struct fc_port_vc *rx)
{
	const struct dllp *d = &pkt->u.dllp;
	uint64_t now = pkt->rec->time_ps;
	const struct fc_credit *hdr = &rx->credit[ct_hdr(d->fc_class)];
	const struct fc_credit *data = &rx->credit[ct_data(d->fc_class)];
	/* only a class with a finite field needs updates [5.8] */
	bool finite = (hdr->infinite_known && !hdr->infinite) ||
	              (data->infinite_known && !data->infinite);
	uint64_t last = sender->last_update_ps[d->fc_class];
	if (finite && sender->update_seen[d->fc_class] && now > last &&
	    now - last > m->opts->update_period_ps)
		raise_late(m, pkt, R_FC_UPDATE_PERIOD, now - last, m->opts->update_period_ps,
		           "the previous UpdateFC of the class");
	sender->update_seen[d->fc_class] = true;
	sender->last_update_ps[d->fc_class] = now;
}

void fc_timing_init(struct fc_model *m, const struct packet *pkt,
                    struct fc_port_vc *sender, int phase)
{
	const struct dllp *d = &pkt->u.dllp;
	uint64_t now = pkt->rec->time_ps;
	uint64_t start = sender->init_set_start_ps[phase];
	if (sender->init_set_seen[phase] && now > start &&
	    now - start > m->opts->init_repeat_ps)
		raise_late(m, pkt, R_FC_INIT_REPEAT_INTERVAL, now - start,
		           m->opts->init_repeat_ps, "the start of the sender's previous set");
	if (d->fc_class == FC_P) {
		/* a set starts with P [6.2] */
		sender->init_set_seen[phase] = true;
		sender->init_set_start_ps[phase] = now;
	}
}

void fc_timing_starved(struct fc_model *m, const struct packet *pkt,
                       unsigned vc, enum credit_type ct,
                       struct fc_credit *c, uint32_t need)
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
	finding_message(m->sink, &f,
	         "%u %s credits needed; %u were available from t=%llu ps until an UpdateFC at "
	         "t=%llu ps: waited %llu ps > %llu ps",
	         need, credit_type_name(ct), c->available_after_charge,
	         (unsigned long long)c->charge_ps, (unsigned long long)end,
	         (unsigned long long)wait, (unsigned long long)m->opts->starve_ps);
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
	uint32_t before = c->rise_count ? c->rise_available[c->rise_count - 1]
	                                : c->available_after_charge;
	/* Keep the first rises only: a later one could make a wait look
	 * longer than it was, an earlier one only shorter. */
	if (a > before && c->rise_count < 4) {
		c->rise_ps[c->rise_count] = now;
		c->rise_available[c->rise_count] = a;
		c->rise_count++;
	}
}

/* ---- statistics (--stats) ------------------------------------------------ */

static unsigned interval_bucket(uint64_t ps)
{
	if (ps < 8)
		return (unsigned)ps;
	unsigned octave = 63u - (unsigned)__builtin_clzll(ps);
	unsigned sub = (unsigned)(ps >> (octave - 3)) & 7u;
	unsigned b = octave * 8u + sub - 16u; /* octave 3 starts at bucket 8 */
	return b < FC_HIST_BUCKETS ? b : FC_HIST_BUCKETS - 1;
}

static uint64_t bucket_low(unsigned b)
{
	if (b < 8)
		return b;
	unsigned octave = (b + 16u) / 8u, sub = (b + 16u) % 8u;
	return (uint64_t)(8u + sub) << (octave - 3);
}

void fc_intervals_note(struct fc_intervals *iv, uint64_t now)
{
	iv->events++;
	if (iv->last_seen && now >= iv->last_ps) {
		uint64_t d = now - iv->last_ps;
		if (!iv->count || d < iv->min_ps)
			iv->min_ps = d;
		if (d > iv->max_ps)
			iv->max_ps = d;
		iv->count++;
		iv->bucket[interval_bucket(d)]++;
	}
	iv->last_seen = true;
	iv->last_ps = now;
}

bool fc_intervals_median(const struct fc_intervals *iv, uint64_t *median_ps)
{
	if (!iv->count)
		return false;
	uint64_t half = (iv->count + 1) / 2, seen = 0;
	for (unsigned b = 0; b < FC_HIST_BUCKETS; b++) {
		seen += iv->bucket[b];
		if (seen >= half) {
			uint64_t lo = bucket_low(b);
			uint64_t hi = b + 1 < FC_HIST_BUCKETS ? bucket_low(b + 1) : lo;
			uint64_t mid = lo + (hi - lo) / 2;
			/* never outside what was seen */
			*median_ps = mid < iv->min_ps ? iv->min_ps : mid > iv->max_ps ? iv->max_ps : mid;
			return true;
		}
	}
	return false;
}

uint64_t fc_credit_time_at_zero(const struct fc_credit *c, uint64_t now_ps)
{
	uint64_t t = c->time_at_zero_ps;
	if (c->at_zero && now_ps > c->zero_since_ps)
		t += now_ps - c->zero_since_ps;
	return t;
}
