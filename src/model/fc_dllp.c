/* fc_dllp.c: InitFC1, InitFC2, UpdateFC and Data Link Feature DLLPs in the
 * shadow model, and the rules they can break.
 *
 * A DLLP sent by port P carries P's receive-buffer credits: it sets the
 * limits of the partner's transmitter (capture-format.md "Terms").
 * specification: spec-digest.md 1.4-1.6 (fields, scaling), 5.2-5.6
 * (limits, infinite credits, maxima, minima), 6.2 (FC_INIT1/FC_INIT2). */
#include <stdio.h>
#include <string.h>

#include "model/fc_internal.h"

enum { PHASE_INIT1 = 0, PHASE_INIT2 = 1 };

static const char *const class_names[FC_CLASS_COUNT] = { "P", "NP", "Cpl" };

/* One advertised field: hdr or data of the DLLP's class. */
struct fc_field {
	enum credit_type ct;
	unsigned field; /* as on the wire */
	unsigned scale;
	unsigned width; /* counter width for this scale */
	uint32_t credits; /* field << shift */
	uint32_t max; /* most credits outstanding [5.5] */
};

static void dllp_fields(const struct dllp *d, struct fc_field out[2])
{
	out[0].ct = ct_hdr(d->fc_class);
	out[0].field = d->hdr_fc;
	out[0].scale = d->hdr_scale;
	out[0].width = fc_hdr_width(d->hdr_scale);
	out[0].credits = (uint32_t)d->hdr_fc << fc_scale_shift(d->hdr_scale);
	out[0].max = fc_hdr_max(d->hdr_scale);
	out[1].ct = ct_data(d->fc_class);
	out[1].field = d->data_fc;
	out[1].scale = d->data_scale;
	out[1].width = fc_data_width(d->data_scale);
	out[1].credits = (uint32_t)d->data_fc << fc_scale_shift(d->data_scale);
	out[1].max = fc_data_max(d->data_scale);
}

/* ---- rules about the advertising port's own DLLPs ---------------------- */

/* fc.init.order: P, then NP, then Cpl, then P again [6.2]. */
static void check_order(struct fc_model *m, struct fc_port_vc *sender, const struct packet *pkt,
                        int phase)
{
	const struct dllp *d = &pkt->u.dllp;
	int prev = sender->last_init_class[phase];
	sender->last_init_class[phase] = (int8_t)d->fc_class;
	if (prev < 0 || (int)d->fc_class == (prev + 1) % FC_CLASS_COUNT)
		return;
	struct finding f;
	fc_finding_begin(&f, R_FC_INIT_ORDER, pkt, d->vc, FINDING_NO_CREDIT);
	finding_message(m->sink, &f, "%s follows InitFC%d-%s: the set goes P, NP, Cpl",
	                dllp_name(d), phase + 1, class_names[prev]);
	finding_add_evidence(&f, "previous_class", prev);
	finding_add_evidence(&f, "class", d->fc_class);
	fc_raise(m, &f);
}

/* fc.init.value-changed: repeats advertise what the first one did. */
static void check_value_changed(struct fc_model *m, struct fc_port_vc *sender,
                                const struct packet *pkt, int phase)
{
	const struct dllp *d = &pkt->u.dllp;
	struct fc_adv *first = &sender->first_adv[phase][d->fc_class];
	if (!first->seen) {
		first->seen = true;
		first->hdr_fc = d->hdr_fc;
		first->data_fc = d->data_fc;
		first->hdr_scale = d->hdr_scale;
		first->data_scale = d->data_scale;
		return;
	}
	if (first->hdr_fc == d->hdr_fc && first->data_fc == d->data_fc &&
	    first->hdr_scale == d->hdr_scale && first->data_scale == d->data_scale)
		return;
	struct finding f;
	fc_finding_begin(&f, R_FC_INIT_VALUE_CHANGED, pkt, d->vc, FINDING_NO_CREDIT);
	finding_message(m->sink, &f,
	                "%s advertises hdr=%u data=%u scales %u/%u; the first of the epoch "
	                "advertised hdr=%u data=%u scales %u/%u",
	                dllp_name(d), d->hdr_fc, d->data_fc, d->hdr_scale, d->data_scale,
	                first->hdr_fc, first->data_fc, first->hdr_scale, first->data_scale);
	finding_add_evidence(&f, "hdr_fc", d->hdr_fc);
	finding_add_evidence(&f, "data_fc", d->data_fc);
	finding_add_evidence(&f, "first_hdr_fc", first->hdr_fc);
	finding_add_evidence(&f, "first_data_fc", first->data_fc);
	fc_raise(m, &f);
}

/* fc.adv.scale-mismatch [1.5]: scales must be non-zero exactly when scaled
 * flow control was negotiated, and must repeat those of initialisation.
 * init is the advertisement to compare with (NULL: none). */
static COLD_PATH void raise_scale_mismatch(struct fc_model *m, const struct packet *pkt,
                                           const struct fc_adv *init, const char *why)
{
	const struct dllp *d = &pkt->u.dllp;
	struct finding f;
	fc_finding_begin(&f, R_FC_ADV_SCALE_MISMATCH, pkt, d->vc, FINDING_NO_CREDIT);
	if (init && init->seen && !why)
		finding_message(
		        m->sink, &f,
		        "%s HdrScale=%u DataScale=%u: initialisation advertised scales %u/%u",
		        dllp_name(d), d->hdr_scale, d->data_scale, init->hdr_scale,
		        init->data_scale);
	else
		finding_message(m->sink, &f, "%s HdrScale=%u DataScale=%u: %s", dllp_name(d),
		                d->hdr_scale, d->data_scale, why);
	finding_add_evidence(&f, "hdr_scale", d->hdr_scale);
	finding_add_evidence(&f, "data_scale", d->data_scale);
	if (init && init->seen) {
		finding_add_evidence(&f, "init_hdr_scale", init->hdr_scale);
		finding_add_evidence(&f, "init_data_scale", init->data_scale);
	}
	fc_raise(m, &f);
}

static void check_scale(struct fc_model *m, const struct fc_link *link, const struct packet *pkt,
                        const struct fc_adv *init)
{
	const struct dllp *d = &pkt->u.dllp;
	const char *why = NULL;
	bool active;
	if (fc_link_scaling_known(link, &active)) {
		if (!active && (d->hdr_scale || d->data_scale))
			why = "non-zero scale while scaled flow control was not negotiated";
		else if (active && (!d->hdr_scale || !d->data_scale))
			why = "a zero scale while scaled flow control is active";
	}
	if (why || (init && init->seen &&
	            (init->hdr_scale != d->hdr_scale || init->data_scale != d->data_scale)))
		raise_scale_mismatch(m, pkt, init, why);
}

/* fc.adv.over-max (bound: the maximum) or fc.update.over-grant (bound:
 * the largest initial advertisement). */
static COLD_PATH void raise_outstanding(struct fc_model *m, const struct packet *pkt,
                                        const struct fc_credit *c, const struct fc_field *fld,
                                        enum rule_id rule, uint32_t outstanding, uint32_t bound)
{
	bool over_max = rule == R_FC_ADV_OVER_MAX;
	struct finding f;
	fc_finding_begin(&f, rule, pkt, pkt->u.dllp.vc, fld->ct);
	finding_message(m->sink, &f, "CL=0x%X CC=0x%X: outstanding (CL-CC) mod %u = %u %s %u%s",
	                c->limit, c->consumed, 1u << c->width, outstanding,
	                over_max ? ">" : "exceeds the", bound,
	                over_max ? "" : " advertised at initialisation");
	finding_add_evidence(&f, "CL", c->limit);
	finding_add_evidence(&f, "CC", c->consumed);
	finding_add_evidence(&f, "outstanding", outstanding);
	finding_add_evidence(&f, over_max ? "max" : "init_max", bound);
	finding_add_evidence(&f, "width", c->width);
	fc_raise(m, &f);
}

/* fc.adv.over-max [5.5] for one credit type of the partner's transmitter:
 * outstanding = (CL - CC) mod 2^N must not exceed the maximum.  A value
 * past 2^N/2 after an overrun or a regress means CC is past CL, not that
 * too much was granted: that is not proven and not reported. */
static void check_outstanding(struct fc_model *m, const struct fc_link *link,
                              const struct packet *pkt, struct fc_credit *c,
                              const struct fc_field *fld, bool limit_regressed,
                              bool check_over_grant)
{
	if (!c->consumed_known || !c->limit_known || c->infinite || !c->infinite_known)
		return;
	/* A TLP the capture saw damaged may have been new: the transmitter
	 * may have consumed more than charged here, and the outstanding
	 * credits be fewer [rules.md "What the capture saw damaged"]. */
	if (fc_consumed_may_lag(link, partner_of(pkt->rec->dir)))
		return;
	uint32_t outstanding = fc_sub(c->limit, c->consumed, c->width);
	if (outstanding > fc_half(c->width) && (c->overran || limit_regressed))
		return;
	uint32_t max = ct_is_data(fld->ct) ? fc_data_max(c->scale) : fc_hdr_max(c->scale);
	if (outstanding > max)
		raise_outstanding(m, pkt, c, fld, R_FC_ADV_OVER_MAX, outstanding, max);
	if (check_over_grant && outstanding > c->init_max)
		raise_outstanding(m, pkt, c, fld, R_FC_UPDATE_OVER_GRANT, outstanding, c->init_max);
}

/* The smallest finite field of a credit type at a scale [5.6 table];
 * 0 when it cannot be known (the data minima need --mps; CplH/CplD of an
 * Endpoint or a Root Port without peer-to-peer must be infinite, which is
 * fc.adv.cpl-finite).  A header field is at least 01h at every scale; NPD
 * at least the 16-byte baseline Rx_NP_MPS_Limit: 01h unscaled or at scale
 * 1, ceil(16/64) + 1 = ceil(16/256) + 1 = 02h at scale 4 and 16. */
static uint32_t below_min_field(enum credit_type ct, unsigned scale, uint32_t mps,
                                enum port_role role)
{
	bool cpl_infinite = role == ROLE_ENDPOINT || role == ROLE_ROOT_PORT;
	switch (ct) {
	case CT_PH:
	case CT_NPH:
		return 1;
	case CT_CPLH:
		return cpl_infinite ? 0 : 1;
	case CT_NPD:
		return scale <= 1 ? 1 : 2;
	case CT_PD:
	case CT_CPLD:
		if (!mps || (ct == CT_CPLD && cpl_infinite))
			return 0;
		return scale <= 1   ? mps / 16
		       : scale == 2 ? (mps + 63) / 64 + 1
		                    : (mps + 255) / 256 + 1;
	default:
		return 0;
	}
}

/* fc.adv.below-min [5.6]: a finite field below the minimum for its type
 * at its scale, for all six types. */
static void check_below_min(struct fc_model *m, const struct packet *pkt, enum link_dir sender,
                            const struct fc_field *fld)
{
	uint32_t mps = m->opts->mps;
	if (fld->field == 0)
		return; /* infinite */
	uint32_t min_field = below_min_field(fld->ct, fld->scale, mps, m->opts->role[sender]);
	if (fld->field >= min_field)
		return;
	struct finding f;
	fc_finding_begin(&f, R_FC_ADV_BELOW_MIN, pkt, pkt->u.dllp.vc, fld->ct);
	if (ct_is_data(fld->ct) && fld->ct != CT_NPD)
		finding_message(
		        m->sink, &f,
		        "%s field %u (scale %u) is below the minimum %u for Rx_MPS_Limit %u bytes",
		        credit_type_name(fld->ct), fld->field, fld->scale, min_field, mps);
	else
		finding_message(m->sink, &f, "%s field %u (scale %u) is below the minimum %u%s",
		                credit_type_name(fld->ct), fld->field, fld->scale, min_field,
		                fld->ct == CT_NPD ? " for the 16-byte baseline Rx_NP_MPS_Limit"
		                                  : "");
	finding_add_evidence(&f, "field", fld->field);
	finding_add_evidence(&f, "minimum", min_field);
	if (mps && ct_is_data(fld->ct) && fld->ct != CT_NPD)
		finding_add_evidence(&f, "mps", mps);
	fc_raise(m, &f);
}

/* fc.adv.cpl-finite [5.6]: Endpoints and Root Complexes without
 * peer-to-peer advertise infinite completion credits. */
static void check_cpl_finite(struct fc_model *m, const struct packet *pkt, enum link_dir sender)
{
	const struct dllp *d = &pkt->u.dllp;
	enum port_role role = m->opts->role[sender];
	if (d->fc_class != FC_CPL || (role != ROLE_ENDPOINT && role != ROLE_ROOT_PORT))
		return;
	if (d->hdr_fc == 0 && d->data_fc == 0)
		return;
	struct finding f;
	fc_finding_begin(&f, R_FC_ADV_CPL_FINITE, pkt, d->vc, d->hdr_fc ? CT_CPLH : CT_CPLD);
	finding_message(
	        m->sink, &f,
	        "port %s is %s by --role and advertises CplH=%u CplD=%u: both must be 0 (infinite)",
	        link_dir_name(sender),
	        role == ROLE_ENDPOINT ? "an endpoint" : "a root port without peer-to-peer",
	        d->hdr_fc, d->data_fc);
	finding_add_evidence(&f, "hdr_fc", d->hdr_fc);
	finding_add_evidence(&f, "data_fc", d->data_fc);
	fc_raise(m, &f);
}

/* An initial advertisement sets the partner's limits: 0 is infinite
 * [5.4]; CC is whatever this epoch consumed (0 at its start). */
static void set_limits_from_init(struct fc_model *m, const struct fc_link *link,
                                 const struct packet *pkt, struct fc_port_vc *tx, bool from_init1)
{
	struct fc_field fields[2];
	dllp_fields(&pkt->u.dllp, fields);
	for (unsigned i = 0; i < 2; i++) {
		struct fc_credit *c = &tx->credit[fields[i].ct];
		c->scale = (uint8_t)fields[i].scale;
		c->scale_known = true;
		c->width = (uint8_t)fields[i].width;
		c->limit_uncertain = false;
		c->infinite = fields[i].field == 0;
		c->infinite_known = true;
		c->limit = c->infinite ? 0 : fields[i].credits & fc_mask(c->width);
		c->limit_known = true;
		c->limit_from_init1 = from_init1;
		c->consumed &= fc_mask(c->width);
		if (!c->infinite && fields[i].credits > c->init_max)
			c->init_max = fields[i].credits;
		c->advertised_seen = true;
		c->advertised_infinite = c->infinite;
		c->advertised = fields[i].credits;
		if (!c->infinite && fields[i].credits > fields[i].max) {
			/* outstanding at init is the advertisement itself */
			struct finding f;
			fc_finding_begin(&f, R_FC_ADV_OVER_MAX, pkt, pkt->u.dllp.vc, fields[i].ct);
			finding_message(m->sink, &f,
			                "%s advertises %u %s credits, more than the %u that may be "
			                "outstanding",
			                dllp_name(&pkt->u.dllp), fields[i].credits,
			                credit_type_name(fields[i].ct), fields[i].max);
			finding_add_evidence(&f, "advertised", fields[i].credits);
			finding_add_evidence(&f, "max", fields[i].max);
			fc_raise(m, &f);
		} else {
			check_outstanding(m, link, pkt, c, &fields[i], false, false);
		}
		fc_credit_note_available(c);
	}
}

/* The partner (the receiver of an InitFC/UpdateFC/TLP) makes progress
 * [rules.md]: FI1 once P, NP and Cpl were all advertised to it; complete
 * once, after FI1, an InitFC2, UpdateFC or TLP arrives. */
static void receiver_progress(struct fc_port_vc *rx, int fc_class, bool completes)
{
	bool had_fi1 = rx->fi1;
	if (fc_class >= 0) {
		rx->got_init_mask |= (uint8_t)(1u << fc_class);
		if (rx->got_init_mask == 7)
			rx->fi1 = true;
	}
	if (completes && had_fi1)
		rx->complete = true;
}

static void apply_initfc1(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct dllp *d = &pkt->u.dllp;
	enum link_dir sender_dir = pkt->rec->dir;
	struct fc_vc *v = &link->vc[d->vc];
	struct fc_port_vc *sender = &v->port[sender_dir];

	/* A port returns to FC_INIT1 only through DL_Inactive: an InitFC1
	 * from a port that had left it starts a new epoch, as does the first
	 * InitFC1 of a VC not yet initialised [rules.md "Init evidence"].  On
	 * a VC that was unknown (the capture began mid-stream) the epoch is
	 * joined, not seen [rules.md "Seen and joined epochs"]. */
	bool known = v->state == VC_INIT || v->state == VC_GIVEN;
	if (!known || sender->sent_init2 || sender->complete) {
		if (d->vc == 0 && known && sender->complete && !link->port_reset_pending) {
			struct finding f;
			fc_finding_begin(&f, R_FC_INIT_REINIT, pkt, 0, FINDING_NO_CREDIT);
			finding_message(
			        m->sink, &f,
			        "port %s was complete on VC0 and sends %s with no link-down, "
			        "hot-reset, link-up or port-reset event: flow control restarts",
			        link_dir_name(sender_dir), dllp_name(d));
			fc_raise(m, &f);
		}
		bool join = v->state == VC_UNKNOWN;
		/* an idle VC whose InitFC1 may have come in a damaged DLLP */
		bool idle_uncertain = v->state == VC_IDLE && v->idle_uncertain;
		if (d->vc == 0 && join)
			fc_link_epoch_join(link, pkt->rec->pos.record_no);
		else if (d->vc == 0)
			fc_link_epoch_start(link, false);
		else if (join)
			fc_vc_epoch_join(link, d->vc, pkt->rec->pos.record_no);
		else
			fc_vc_epoch_start(link, d->vc);
		if (idle_uncertain)
			v->port[DIR_DOWN].maybe_init_count = v->port[DIR_UP].maybe_init_count =
			        FC_CLASS_COUNT;
	}
	if (!sender->sent_init1) {
		sender->sent_init1 = true;
		if (v->joined)
			fc_joined_port_started(link, d->vc, sender_dir);
	}
	fc_timing_init(m, pkt, sender, PHASE_INIT1);
	check_order(m, sender, pkt, PHASE_INIT1);
	check_value_changed(m, sender, pkt, PHASE_INIT1);
	check_scale(m, link, pkt, NULL);
	check_cpl_finite(m, pkt, sender_dir);
	struct fc_field fields[2];
	dllp_fields(d, fields);
	for (unsigned i = 0; i < 2; i++)
		check_below_min(m, pkt, sender_dir, &fields[i]);

	struct fc_port_vc *rx = &v->port[partner_of(sender_dir)];
	set_limits_from_init(m, link, pkt, rx, true);
	receiver_progress(rx, (int)d->fc_class, false);
}

static void apply_initfc2(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct dllp *d = &pkt->u.dllp;
	enum link_dir sender_dir = pkt->rec->dir;
	struct fc_vc *v = &link->vc[d->vc];
	struct fc_port_vc *sender = &v->port[sender_dir];
	struct fc_port_vc *rx = &v->port[partner_of(sender_dir)];

	if (v->state == VC_UNKNOWN) {
		v->fc_dllps_while_unknown++;
		return;
	}
	if (v->state == VC_INIT && !v->joined && !fc_possible_fi1(sender)) {
		struct finding f;
		fc_finding_begin(&f, R_FC_INIT_INIT2_EARLY, pkt, d->vc, FINDING_NO_CREDIT);
		char got[16] = "";
		for (unsigned c = 0; c < FC_CLASS_COUNT; c++)
			if (sender->got_init_mask & (1u << c))
				snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
				         got[0] ? "," : "", class_names[c]);
		finding_message(
		        m->sink, &f,
		        "port %s sends %s before it has FI1: it has received InitFC of %s only",
		        link_dir_name(sender_dir), dllp_name(d), got[0] ? got : "no class");
		finding_add_evidence(&f, "classes_received_mask", sender->got_init_mask);
		fc_raise(m, &f);
	}
	sender->sent_init2 = true;
	fc_timing_init(m, pkt, sender, PHASE_INIT2);
	check_order(m, sender, pkt, PHASE_INIT2);
	check_value_changed(m, sender, pkt, PHASE_INIT2);
	check_scale(m, link, pkt, &sender->first_adv[PHASE_INIT1][d->fc_class]);

	/* InitFC2 values matter only where no InitFC1 of the type was seen. */
	if (!rx->credit[ct_hdr(d->fc_class)].limit_from_init1 && v->state != VC_GIVEN)
		set_limits_from_init(m, link, pkt, rx, false);
	receiver_progress(rx, (int)d->fc_class, true);
}

static void raise_update_early(struct fc_model *m, const struct packet *pkt, const struct fc_vc *v,
                               enum link_dir sender_dir)
{
	const struct dllp *d = &pkt->u.dllp;
	struct finding f;
	fc_finding_begin(&f, R_FC_INIT_UPDATE_EARLY, pkt, d->vc, FINDING_NO_CREDIT);
	finding_message(m->sink, &f,
	                "port %s sends %s before its flow-control initialisation of VC%u "
	                "is complete (%s)",
	                link_dir_name(sender_dir), dllp_name(d), d->vc,
	                v->state == VC_IDLE       ? "the VC never started initialisation"
	                : v->port[sender_dir].fi1 ? "it has FI1"
	                                          : "it has no FI1");
	fc_raise(m, &f);
}

static COLD_PATH void raise_infinite_nonzero(struct fc_model *m, const struct packet *pkt,
                                             const struct fc_field *fld)
{
	const struct dllp *d = &pkt->u.dllp;
	struct finding f;
	fc_finding_begin(&f, R_FC_UPDATE_INFINITE_NONZERO, pkt, d->vc, fld->ct);
	finding_message(m->sink, &f, "%s was advertised infinite; %s carries %u in its field",
	                credit_type_name(fld->ct), dllp_name(d), fld->field);
	finding_add_evidence(&f, "field", fld->field);
	fc_raise(m, &f);
}

static COLD_PATH void raise_limit_regress(struct fc_model *m, const struct packet *pkt,
                                          const struct fc_credit *c, const struct fc_field *fld,
                                          uint32_t value)
{
	struct finding f;
	fc_finding_begin(&f, R_FC_UPDATE_LIMIT_REGRESS, pkt, pkt->u.dllp.vc, fld->ct);
	finding_message(m->sink, &f,
	                "CL 0x%X -> 0x%X: (new-old) mod %u = %u > %u: credits taken back", c->limit,
	                value, 1u << c->width, fc_sub(value, c->limit, c->width),
	                fc_half(c->width));
	finding_add_evidence(&f, "old_CL", c->limit);
	finding_add_evidence(&f, "new_CL", value);
	finding_add_evidence(&f, "width", c->width);
	fc_raise(m, &f);
}

/* One field of an UpdateFC: the new CREDIT_LIMIT of the partner. */
static void update_field(struct fc_model *m, const struct fc_link *link, const struct packet *pkt,
                         struct fc_credit *c, const struct fc_field *fld)
{
	if (c->infinite_known && c->infinite) {
		/* An infinite field must be 0 in every UpdateFC [5.4]. */
		if (fld->field != 0)
			raise_infinite_nonzero(m, pkt, fld);
		return;
	}
	if (!c->limit_known || !c->scale_known) {
		/* learned from the wire (a mid-stream capture, or the scale of
		 * credits given by --initial-credits [rules.md]) */
		c->scale = (uint8_t)fld->scale;
		c->scale_known = true;
		c->width = (uint8_t)fld->width;
		c->limit &= fc_mask(c->width);
		c->consumed &= fc_mask(c->width);
		c->init_max &= fc_mask(c->width);
	}
	uint32_t value = fld->credits & fc_mask(c->width);
	bool regressed = false;
	if (c->limit_known && c->infinite_known && fc_regresses(c->limit, value, c->width)) {
		regressed = true;
		raise_limit_regress(m, pkt, c, fld, value);
	}
	/* The transmitter takes the latest value, reported or not; it is
	 * absolute, so it settles what a damaged DLLP may have said. */
	c->limit = value;
	c->limit_known = true;
	c->limit_uncertain = false;
	check_outstanding(m, link, pkt, c, fld, regressed, true);
	fc_credit_note_available(c);
	fc_timing_after_update(c, pkt->rec->time_ps);
}

static void apply_updatefc(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct dllp *d = &pkt->u.dllp;
	enum link_dir sender_dir = pkt->rec->dir;
	struct fc_vc *v = &link->vc[d->vc];
	struct fc_port_vc *sender = &v->port[sender_dir];
	struct fc_port_vc *rx = &v->port[partner_of(sender_dir)];

	if (v->state == VC_UNKNOWN) {
		v->fc_dllps_while_unknown++;
	} else {
		if ((v->state == VC_IDLE && !v->idle_uncertain) ||
		    (v->state != VC_IDLE && !v->joined && !fc_possible_complete(sender)))
			raise_update_early(m, pkt, v, sender_dir);
		const struct fc_adv *init = &sender->first_adv[PHASE_INIT1][d->fc_class];
		if (!init->seen)
			init = &sender->first_adv[PHASE_INIT2][d->fc_class];
		check_scale(m, link, pkt, init);
		fc_timing_update(m, pkt, sender, rx);
		receiver_progress(rx, -1, true);
	}
	fc_intervals_note(&sender->updates[d->fc_class], pkt->rec->time_ps);
	struct fc_field fields[2];
	dllp_fields(d, fields);
	for (unsigned i = 0; i < 2; i++)
		update_field(m, link, pkt, &rx->credit[fields[i].ct], &fields[i]);
}

void fc_apply_fc_dllp(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	switch (pkt->u.dllp.type) {
	case DLLP_INITFC1:
		apply_initfc1(m, link, pkt);
		break;
	case DLLP_INITFC2:
		apply_initfc2(m, link, pkt);
		break;
	case DLLP_UPDATEFC:
		apply_updatefc(m, link, pkt);
		break;
	default:
		break;
	}
}

void fc_apply_feature(struct fc_link *link, const struct packet *pkt)
{
	enum link_dir sender = pkt->rec->dir;
	link->dlf_seen[sender] = true;
	link->dlf_scaled[sender] = (pkt->u.dllp.feature_support & 1u) != 0;
}
