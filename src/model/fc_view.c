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

/* Latencies are single durations (fc_intervals_add), so the samples are
 * count, not events. */
static void latency_view(const struct fc_intervals *iv, struct tl_latency_view *v)
{
	v->count = iv->count;
	v->has_median = fc_intervals_median(iv, &v->median_ps);
	v->min_ps = v->has_median ? iv->min_ps : 0;
	v->max_ps = v->has_median ? iv->max_ps : 0;
}

const char *tl_status_view_name(enum tl_status_view s)
{
	static const char *const names[TL_STATUS_VIEW_COUNT] = {
		[TL_STATUS_SC] = "SC", [TL_STATUS_UR] = "UR",       [TL_STATUS_CRS] = "CRS",
		[TL_STATUS_CA] = "CA", [TL_STATUS_OTHER] = "other",
	};
	return (unsigned)s < TL_STATUS_VIEW_COUNT ? names[s] : "other";
}

static void tl_view(const struct tl_stats *t, struct tl_stats_view *v)
{
	for (unsigned k = 0; k < TLP_KIND_COUNT; k++) {
		v->requests[k] = t->requests[k];
		v->requests_total += t->requests[k];
	}
	v->completed = t->completed;
	v->ended_by_epoch = t->ended_by_epoch;
	v->timed_out = t->timed_out;
	v->outstanding = t->outstanding;
	v->outstanding_high_water = t->outstanding_high_water;
	latency_view(&t->latency_first, &v->latency_first);
	latency_view(&t->latency_last, &v->latency_last);
	v->completions = t->completions;
	v->completions_unmatched = t->completions_unmatched;
	/* Completion Status values [S62-2 2.2.9]: 000b SC, 001b UR, 010b CRS,
	 * 100b CA; the others are reserved */
	for (unsigned st = 0; st < 8; st++) {
		enum tl_status_view g = st == TLP_CPL_SC    ? TL_STATUS_SC
		                        : st == TLP_CPL_UR  ? TL_STATUS_UR
		                        : st == TLP_CPL_CRS ? TL_STATUS_CRS
		                        : st == TLP_CPL_CA  ? TL_STATUS_CA
		                                            : TL_STATUS_OTHER;
		v->status[g] += t->cpl_status[st];
	}
	v->requesters_untracked = t->requesters_untracked;
	v->while_unknown = t->while_unknown;
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
		dv->no_seq = link->tap_no_seq[p];
		dv->no_lcrc = link->tap_no_crc[p];
		memcpy(dv->tlps_by_kind, d->tlps_by_kind, sizeof(dv->tlps_by_kind));
		tl_view(&link->tl_stats[p], &out->tl_stats[p]);
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
