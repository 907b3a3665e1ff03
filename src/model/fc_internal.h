/* fc_internal.h: what fc_model.c, fc_dllp.c and fc_tlp.c share.  Not for
 * use outside the model. */
#ifndef DLLPCHECK_FC_INTERNAL_H
#define DLLPCHECK_FC_INTERNAL_H

#include "model/fc_model.h"
#include "wire/fc_arith.h"

/* Starts a finding about pkt for the model's rules. vc/ct may be
 * FINDING_NO_VC / FINDING_NO_CREDIT. */
static inline void fc_finding_begin(struct finding *f, enum rule_id rule, const struct packet *pkt,
                                    int vc, int ct)
{
	finding_init(f, rule, pkt->rec);
	f->vc = vc;
	f->credit_type = ct;
}

static inline void fc_raise(struct fc_model *m, const struct finding *f)
{
	rules_raise(m->sink, f);
}

/* A new link of index, on its first record (NULL when out of memory:
 * m->out_of_memory). */
struct fc_link *fc_link_new(struct fc_model *m, unsigned index);
/* Every VC of link unknown, the plain way (vc_unknown() on each), for the
 * unit test of fc_link_new()'s shortcut on a link of zeroes. */
void fc_link_vcs_unknown_plain(struct fc_link *link);

/* The link of index (inline: once a record). */
static inline struct fc_link *fc_link_get(struct fc_model *m, unsigned index)
{
	struct fc_link *link = m->links[index];
	return link ? link : fc_link_new(m, index);
}

/* A new initialisation epoch for one VC (both ports) or the whole link
 * [rules.md "Init evidence"]. */
void fc_vc_epoch_start(struct fc_link *link, unsigned vc);
void fc_link_epoch_start(struct fc_link *link, bool by_event);
/* A joined epoch: inferred from the first InitFC1 on an unknown VC
 * [rules.md "Seen and joined epochs"]. */
void fc_vc_epoch_join(struct fc_link *link, unsigned vc, uint64_t record_no);
void fc_link_epoch_join(struct fc_link *link, uint64_t record_no);
void fc_joined_port_started(struct fc_link *link, unsigned vc, enum link_dir p);

/* What the capture saw damaged (fc_damage.c): a DLLP or TLP from port
 * sender whose content is unknown. */
void fc_damaged_dllp(struct fc_model *m, struct fc_link *link, enum link_dir sender);
void fc_damaged_tlp(struct fc_model *m, struct fc_link *link, enum link_dir sender);

/* Port pv may have FI1: it has it, or the damaged DLLPs from its partner
 * may have carried the InitFCs of every class it lacks. */
static inline bool fc_possible_fi1(const struct fc_port_vc *pv)
{
	unsigned missing = (unsigned)__builtin_popcount(7u & ~(unsigned)pv->got_init_mask);
	return pv->fi1 || missing <= pv->maybe_init_count;
}

/* Port pv may be complete. */
static inline bool fc_possible_complete(const struct fc_port_vc *pv)
{
	return pv->complete || pv->maybe_complete;
}

/* Consumed of port tx's transmitter may lag its own count: a TLP it sent
 * was never seen intact [rules.md "What the capture saw damaged"]. */
static inline bool fc_consumed_may_lag(const struct fc_link *link, enum link_dir tx)
{
	return link->cc_holes[tx] || link->cc_damaged[tx] || link->cc_lag_for_epoch[tx];
}

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
void fc_apply_fc_dllp(struct fc_model *m, struct fc_link *link, const struct packet *pkt);
void fc_apply_feature(struct fc_link *link, const struct packet *pkt);
void fc_apply_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt, bool fit);

/* The data link layer half (dl_model.c). */
void dl_reset(struct fc_link *link);
/* Sequence state unknown (a mid-stream capture, a joined epoch). */
void dl_forget(struct fc_link *link);
/* Port p's transmit state and its partner's receive state restart
 * (NEXT_TRANSMIT_SEQ 0, ACKD_SEQ FFFh, NEXT_RCV_SEQ 0) [6.1]. */
void dl_restart_port(struct fc_link *link, enum link_dir p);
/* A TLP from tx_dir the capture saw damaged: its number is unknown. */
void dl_damaged_tlp(struct fc_link *link, enum link_dir tx_dir);
/* A DLLP from sender the capture saw damaged: it may have been an
 * Ack/Nak for the partner's TLPs. */
void dl_damaged_dllp(struct fc_link *link, enum link_dir sender);
void dl_apply_acknak(struct fc_model *m, struct fc_link *link, const struct packet *pkt);
void dl_apply_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt);
void dl_after_tlp(struct fc_link *link, enum link_dir tx_dir);
/* True when seq is the first appearance of that sequence number from tx
 * with a good LCRC: a new TLP, to be charged [rules.md "Credits
 * consumed"].  The data link layer is the one owner of sequence numbers. */
/* *may_repeat (set when new): the TLP may still be a later copy of one its
 * receiver already had, the capture having seen the first copy damaged
 * (it fills a hole, or comes after damaged TLPs seen since the newest),
 * or the sequence state was not known. */
bool dl_tlp_is_new(struct fc_link *link, enum link_dir tx, unsigned seq, bool *may_repeat);
void dl_apply_pm(struct fc_model *m, struct fc_link *link, const struct packet *pkt);

/* The transaction layer (tl_*.c, model/tl_internal.h). */
/* The per-packet rules of a new, fit TLP (tl_rules.c); false when its
 * header cannot be trusted for pairing (a bad ECRC). */
bool tl_rules_packet(struct fc_model *m, const struct packet *pkt);
/* A new, fit, non-posted request or completion from pkt->rec->dir,
 * paired (tl_model.c; tlp.cpl.status too); may_repeat: the TLP may be a
 * later copy of one the receiver already had (dl_tlp_is_new). */
void tl_apply(struct fc_model *m, struct fc_link *link, const struct packet *pkt, bool may_repeat);
/* A TLP with a good LCRC that is not fit (malformed), or one its receiver
 * discards: what it asked or answered is unknown. */
void tl_discarded_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt);

/* A new, fit TLP: its own rules, then its request or completion paired;
 * accepted: false for a TLP its receiver discards (sent before
 * initialisation, on a VC not enabled, with stale credits), which is not
 * paired.  Inline: once a TLP, and posted ones stop here. */
/* A TLP none of tl_rules_packet()'s rules can fire on, told cheaply: the
 * common case (a completion, or a memory request whose DWs stay in one
 * page and, for a read, whose 4 x Length is within MRRS), with no EP, no
 * bad ECRC and a payload within MPS.  Only a shortcut: every other TLP
 * goes through tl_rules_packet() (the scenarios of every rule exercise
 * both ways). */
/* A memory read or write (MRd, MRdLk, MWr, DMWr): whether its DWs cross
 * a 4 KB page and, for a read, whether 4 x Length exceeds MRRS, the only
 * cases in which tlp.4k-cross or tlp.read.over-mrrs can fire (the bytes
 * lie within the DWs).  False for the other kinds. */
static inline bool tl_memory_request(const struct fc_model *m, const struct tlp *t, bool *may_cross,
                                     bool *may_exceed)
{
	bool read = t->kind == TLP_MRD || t->kind == TLP_MRDLK;
	if (!read && t->kind != TLP_MWR && t->kind != TLP_DMWR)
		return false;
	uint64_t span = 4u * (uint64_t)t->length_dw;
	*may_cross = t->address >> 12 != (t->address + span - 1) >> 12;
	*may_exceed = read && m->opts->mrrs && span > m->opts->mrrs;
	return true;
}

static inline bool tl_rules_quiet(const struct fc_model *m, const struct tlp *t)
{
	if (t->ep || t->ecrc == CRC_BAD || (m->opts->mps && 4u * t->payload_dw > m->opts->mps))
		return false;
	if (tlp_kind_is_completion(t->kind))
		return true;
	bool may_cross, may_exceed;
	return tl_memory_request(m, t, &may_cross, &may_exceed) && !may_cross && !may_exceed;
}

static inline void tl_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt,
                          bool may_repeat, bool accepted)
{
	if (!(tl_rules_quiet(m, &pkt->u.tlp) || tl_rules_packet(m, pkt)) || !accepted) {
		tl_discarded_tlp(m, link, pkt);
		return;
	}
	enum tlp_kind kind = pkt->u.tlp.kind;
	/* posted requests (writes, messages) pair with nothing */
	if (tlp_kind_is_completion(kind) || tlp_kind_is_nonposted(kind))
		tl_apply(m, link, pkt, may_repeat);
}
/* Every request ends (a new epoch); known: the epoch's start was seen. */
void tl_epoch_start(struct fc_link *link, bool known);
/* A TLP from sender the capture saw damaged: it may have been a
 * completion. */
void tl_damaged_tlp(struct fc_link *link, enum link_dir sender);
/* tlp.cpl.timeout at a record of the link (link->tl set). */
void tl_expire(struct fc_model *m, struct fc_link *link, const struct record *rec);
/* At every record of a link: tl_expire when one of its requests may
 * have passed the limit (one comparison otherwise). */
static inline void tl_check_timeouts(struct fc_model *m, struct fc_link *link,
                                     const struct record *rec)
{
	if (rec->time_ps > link->tl_deadline_ps)
		tl_expire(m, link, rec);
}
/* The end of the capture at end_ps: tlp.cpl.timeout at the link's last
 * record for what was outstanding longer than the limit by then. */
void tl_finish(struct fc_model *m, struct fc_link *link, uint64_t end_ps);
void tl_link_free(struct fc_link *link);

/* Timing (fc_timing.c). */
void fc_timing_link_inactive(struct fc_link *link);
/* The link is active again at now: the UpdateFC gaps count from here. */
void fc_timing_link_active(struct fc_link *link, uint64_t now);
/* The end of the capture: UpdateFC gaps still open at the last record. */
void fc_timing_finish(struct fc_model *m, struct fc_link *link);
void fc_timing_update(struct fc_model *m, const struct packet *pkt, struct fc_port_vc *sender,
                      const struct fc_port_vc *rx);
void fc_timing_init(struct fc_model *m, const struct packet *pkt, struct fc_port_vc *sender,
                    int phase);
void fc_timing_starved(struct fc_model *m, const struct packet *pkt, unsigned vc,
                       enum credit_type ct, struct fc_credit *c, uint32_t need);
void fc_timing_after_update(struct fc_credit *c, uint64_t now);
void fc_intervals_note(struct fc_intervals *iv, uint64_t now);
/* One duration into the histogram (a latency, not an interval between
 * events noted). */
void fc_intervals_add(struct fc_intervals *iv, uint64_t duration_ps);
/* Frees the histograms of the link's statistics (not the link). */
void fc_link_stats_free(struct fc_link *link);

/* Before a TLP is charged to a tracked counter: if the last charge left
 * fewer credits than this one needs, how long the transmitter waited. */
static inline void fc_timing_before_charge(struct fc_model *m, const struct packet *pkt,
                                           unsigned vc, enum credit_type ct, struct fc_credit *c,
                                           uint32_t need)
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

/* The VC a TLP's traffic class maps to (--tc-map; every TC on VC0 by
 * default) [4.3]. */
static inline unsigned fc_vc_of_tc(const struct fc_model *m, unsigned tc)
{
	return m->opts->tc_to_vc[tc & 7u] & 7u;
}

static inline enum link_dir partner_of(enum link_dir dir)
{
	return dir == DIR_DOWN ? DIR_UP : DIR_DOWN;
}

#endif
