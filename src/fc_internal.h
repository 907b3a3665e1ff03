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

/* Tracks the minimum of (CL - CC) mod 2^N for the report. */
void fc_credit_note_available(struct fc_credit *c);

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
void fc_timing_before_charge(struct fc_model *m, const struct packet *pkt,
                             unsigned vc, enum credit_type ct,
                             struct fc_credit *c, uint32_t need);
void fc_timing_after_charge(struct fc_credit *c, uint64_t now);
void fc_timing_after_update(struct fc_credit *c, uint64_t now);
void fc_intervals_note(struct fc_intervals *iv, uint64_t now);
void fc_credit_note_zero(struct fc_credit *c, uint64_t now);

static inline enum link_dir partner_of(enum link_dir dir)
{
	return dir == DIR_DOWN ? DIR_UP : DIR_DOWN;
}

#endif
