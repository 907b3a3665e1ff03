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

static inline enum link_dir partner_of(enum link_dir dir)
{
	return dir == DIR_DOWN ? DIR_UP : DIR_DOWN;
}

#endif
