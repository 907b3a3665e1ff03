/* fc_view.c: the read-only snapshot of a link for the reports
 * (fc_view.h), copied field by field from the model's state. */
#include <string.h>

#include "model/fc_internal.h"
#include "model/fc_view.h"

static void credit_view(const struct fc_credit *c, uint64_t now_ps, struct fc_credit_view *v)
{
	v->advertised_seen = c->advertised_seen;
	v->advertised_infinite = c->advertised_infinite;
	v->advertised = c->advertised;
	v->infinite = c->infinite;
	v->limit_known = c->limit_known;
	v->consumed_known = c->consumed_known;
	v->limit = c->limit;
	v->consumed = c->consumed;
	v->width = c->width;
	v->min_available_seen = c->min_available_seen;
	v->min_available = c->min_available;
	v->tlps_charged = c->tlps_charged;
	v->credits_charged = c->credits_charged;
	v->longest_wait_ps = c->longest_wait_ps;
	v->time_at_zero_ps = fc_credit_time_at_zero(c, now_ps);
}

static void intervals_view(const struct fc_intervals *iv, struct fc_intervals_view *v)
{
	v->events = iv->events;
	v->has_median = fc_intervals_median(iv, &v->median_ps);
	v->min_ps = iv->min_ps;
	v->max_ps = iv->max_ps;
}

bool fc_model_view_link(const struct fc_model *m, unsigned index, struct fc_link_view *out)
{
	const struct fc_link *link = index < FC_LINK_COUNT ? m->links[index] : NULL;
	if (!link || !link->active)
		return false;
	memset(out, 0, sizeof(*out));
	out->scaling_known = fc_link_scaling_known(link, &out->scaling_active);
	out->last_time_ps = link->last_time_ps;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		const struct dl_port *d = &link->dl[p];
		struct fc_dl_view *dv = &out->dl[p];
		out->tlps_not_charged[p] = link->tlps_not_charged[p];
		out->damaged_dllps[p] = link->damaged_dllps[p];
		out->damaged_tlps[p] = link->damaged_tlps[p];
		dv->tlps_new = d->tlps_new;
		dv->tlps_replayed = d->tlps_replayed;
		dv->tlps_nullified = d->tlps_nullified;
		dv->tlps_unreadable = d->tlps_unreadable;
		dv->acks_received = d->acks_received;
		dv->naks_received = d->naks_received;
		dv->outstanding_high_water = d->outstanding_high_water;
		memcpy(dv->tlps_by_kind, d->tlps_by_kind, sizeof(dv->tlps_by_kind));
	}
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		const struct fc_vc *v = &link->vc[vc];
		struct fc_vc_view *vv = &out->vc[vc];
		vv->state = v->state;
		vv->epochs_joined = v->epochs_joined;
		vv->joined_record = v->joined_record;
		vv->tlps_while_unknown = v->tlps_while_unknown;
		vv->fc_dllps_while_unknown = v->fc_dllps_while_unknown;
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			const struct fc_port_vc *pv = &v->port[p];
			vv->port[p].fi1 = pv->fi1;
			vv->port[p].complete = pv->complete;
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				credit_view(&pv->credit[ct], link->last_time_ps,
				            &vv->port[p].credit[ct]);
			for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++)
				intervals_view(&pv->updates[cls], &vv->port[p].updates[cls]);
		}
	}
	return true;
}
