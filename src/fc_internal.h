/* fc_internal.h: what fc_model.c, fc_dllp.c and fc_tlp.c share.  Not for
 * use outside the model. */
#ifndef DLLPCHECK_FC_INTERNAL_H
#define DLLPCHECK_FC_INTERNAL_H

#include "fc_arith.h"
#include "fc_model.h"

/* Starts a finding about pkt for the model's rules. vc/ct may be
 * FINDING_NO_VC / FINDING_NO_CREDIT. */
void fc_finding_begin(struct finding *f, enum rule_id rule,
                      const struct packet *pkt, int vc, int ct);
void fc_raise(struct fc_model *m, const struct finding *f);

/* A new initialisation epoch for one VC (both ports) or the whole link
 * [rules.md "Init evidence"]. */
void fc_vc_epoch_start(struct fc_link *link, unsigned vc);
void fc_link_epoch_start(struct fc_link *link, bool by_event);

/* CL and CC both known and the type finite: the only state in which the
 * credits available to the transmitter mean anything. */
static inline bool fc_credit_tracked(const struct fc_credit *c)
{
	return c->limit_known && c->consumed_known && !c->infinite;
}

/* (CL - CC) mod 2^N of a tracked counter [5.2].  Past an overrun the gap
 * wrapped and would say "a lot available": none is what is true. */
static inline uint32_t fc_credit_available(const struct fc_credit *c)
{
	uint32_t available = fc_sub(c->limit, c->consumed, c->width);
	return available > fc_half(c->width) ? 0 : available;
}

/* The minimum of the available credits, for the report. */
static inline void fc_credit_note_min(struct fc_credit *c, uint32_t available)
{
	if (!c->min_available_seen || available < c->min_available) {
		c->min_available = available;
		c->min_available_seen = true;
	}
}

static inline void fc_credit_note_available(struct fc_credit *c)
{
	if (fc_credit_tracked(c))
		fc_credit_note_min(c, fc_credit_available(c));
}

/* Time at zero available credits (--stats): starts when a tracked
 * counter reaches zero, ends when it leaves zero or stops being tracked. */
static inline void fc_credit_zero_is(struct fc_credit *c, bool zero, uint64_t now)
{
	if (zero && !c->at_zero) {
		c->at_zero = true;
		c->zero_since_ps = now;
	} else if (!zero && c->at_zero) {
		c->at_zero = false;
		if (now > c->zero_since_ps)
			c->time_at_zero_ps += now - c->zero_since_ps;
	}
}

static inline void fc_credit_note_zero(struct fc_credit *c, uint64_t now)
{
	fc_credit_zero_is(c, fc_credit_tracked(c) && fc_credit_available(c) == 0, now);
}

/* The DLLP and TLP halves of the model. */
void fc_apply_fc_dllp(struct fc_model *m, struct fc_link *link,
                      const struct packet *pkt);
void fc_apply_feature(struct fc_link *link, const struct packet *pkt);
void fc_apply_tlp(struct fc_model *m, struct fc_link *link,
                  const struct packet *pkt, bool fit);

/* The data link layer half (dl_model.c). */
void dl_reset(struct fc_link *link);
void dl_apply_acknak(struct fc_model *m, struct fc_link *link,
                     const struct packet *pkt);
void dl_apply_tlp(struct fc_model *m, struct fc_link *link,
                  const struct packet *pkt);
void dl_after_tlp(struct fc_link *link, enum link_dir tx_dir);
void dl_apply_pm(struct fc_model *m, struct fc_link *link,
                 const struct packet *pkt);

/* Timing (fc_timing.c). */
void fc_timing_link_inactive(struct fc_link *link);
void fc_timing_update(struct fc_model *m, const struct packet *pkt,
                      struct fc_port_vc *sender, const struct fc_port_vc *rx);
void fc_timing_init(struct fc_model *m, const struct packet *pkt,
                    struct fc_port_vc *sender, int phase);
void fc_timing_starved(struct fc_model *m, const struct packet *pkt,
                       unsigned vc, enum credit_type ct,
                       struct fc_credit *c, uint32_t need);
void fc_timing_after_update(struct fc_credit *c, uint64_t now);
void fc_intervals_note(struct fc_intervals *iv, uint64_t now);

/* Before a TLP is charged to a tracked counter: if the last charge left
 * fewer credits than this one needs, how long the transmitter waited. */
static inline void fc_timing_before_charge(struct fc_model *m,
                                           const struct packet *pkt,
                                           unsigned vc, enum credit_type ct,
                                           struct fc_credit *c, uint32_t need)
{
	if (c->charge_seen && c->available_after_charge < need)
		fc_timing_starved(m, pkt, vc, ct, c, need);
}

/* After a charge: the minimum, the time at zero, and the credits it left,
 * which start the next wait if any.  The counters are read once: the
 * stores to the flags in between could alias them. */
static inline void fc_timing_after_charge(struct fc_credit *c, uint64_t now)
{
	if (!fc_credit_tracked(c)) {
		fc_credit_zero_is(c, false, now);
		c->charge_seen = false;
		return;
	}
	uint32_t available = fc_credit_available(c);
	fc_credit_note_min(c, available);
	fc_credit_zero_is(c, available == 0, now);
	c->charge_seen = true;
	c->charge_ps = now;
	c->available_after_charge = available;
	c->rise_count = 0;
}

static inline enum link_dir partner_of(enum link_dir dir)
{
	return dir == DIR_DOWN ? DIR_UP : DIR_DOWN;
}

#endif
