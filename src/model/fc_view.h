/* fc_view.h: a read-only snapshot of one link of the shadow model, for
 * the reports.  Reports read these, never the model's own structures, so
 * the model can change without breaking four report formats: what a
 * report may show is what is here.  Each field means what the model's
 * field of the same name means (fc_model.h). */
#ifndef DLLPCHECK_FC_VIEW_H
#define DLLPCHECK_FC_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "model/fc_model.h"

/* One credit type of one transmitter on one VC. */
struct fc_credit_view {
	bool advertised_seen, advertised_infinite;
	uint32_t advertised; /* last initial advertisement, credits */
	bool infinite;
	bool limit_known, consumed_known;
	uint32_t limit, consumed; /* CL and CC, mod 2^width */
	uint8_t width;
	bool min_available_seen;
	uint32_t min_available;
	uint64_t tlps_charged, credits_charged;
	uint64_t longest_wait_ps;
	uint64_t time_at_zero_ps; /* up to the link's last record */
};

/* Whether the reports show the credit: something was advertised,
 * known or charged. */
static inline bool credit_has_news(const struct fc_credit_view *c)
{
	return c->advertised_seen || c->limit_known || c->tlps_charged;
}

/* Intervals between a port's UpdateFCs of one class (--stats). */
struct fc_intervals_view {
	uint64_t events;
	bool has_median; /* at least one interval */
	uint64_t min_ps, median_ps, max_ps;
};

struct fc_port_view {
	bool fi1, complete;
	struct fc_credit_view credit[CT_COUNT]; /* this port's transmitter */
	struct fc_intervals_view updates[FC_CLASS_COUNT]; /* its UpdateFCs */
};

struct fc_vc_view {
	enum vc_state state;
	uint64_t epochs_joined, joined_record;
	uint64_t tlps_while_unknown, fc_dllps_while_unknown;
	struct fc_port_view port[DIR_COUNT];
};

/* One port's data link layer as the capture saw it. */
struct fc_dl_view {
	uint64_t tlps_new, tlps_replayed, tlps_nullified, tlps_unreadable;
	uint64_t acks_received, naks_received;
	uint32_t outstanding_high_water;
	uint64_t tlps_by_kind[TLP_KIND_COUNT];
	/* the capture's TLPs from the port carried no sequence number, or no
	 * LCRC (its format: NetTLP's bare TLPs): those checks were not made */
	bool no_seq, no_lcrc;
};

/* From a request to its first or its last completion (--stats): the
 * requests measured, and the min, median (to within 1/16, as the UpdateFC
 * intervals) and max. */
struct tl_latency_view {
	uint64_t count;
	bool has_median; /* count > 0 */
	uint64_t min_ps, median_ps, max_ps;
};

/* Completion Status as the reports group it: the three named failures
 * rules.md tlp.cpl.status names, and the reserved values together. */
enum tl_status_view {
	TL_STATUS_SC,
	TL_STATUS_UR,
	TL_STATUS_CRS,
	TL_STATUS_CA,
	TL_STATUS_OTHER, /* reserved values */
	TL_STATUS_VIEW_COUNT
};
/* "SC", "UR", "CRS", "CA", "other" (JSON keys and text). */
const char *tl_status_view_name(enum tl_status_view s);

/* The transaction layer of one direction: the requests its port sent and
 * the completions that came back for them (struct tl_stats). */
struct tl_stats_view {
	uint64_t requests[TLP_KIND_COUNT];
	uint64_t requests_total; /* the sum of requests[] */
	uint64_t completed, ended_by_epoch, timed_out;
	uint32_t outstanding, outstanding_high_water;
	struct tl_latency_view latency_first, latency_last;
	uint64_t completions, completions_unmatched;
	uint64_t status[TL_STATUS_VIEW_COUNT]; /* completions by status */
	uint64_t requesters_untracked; /* requests whose requester was not tracked */
	uint64_t while_unknown; /* requests and completions not judged */
};

/* True when the direction sent a non-posted request or was sent a
 * completion: what the reports show a transaction section for. */
static inline bool tl_stats_view_any(const struct tl_stats_view *t)
{
	return t->requests_total || t->completions;
}

struct fc_link_view {
	bool scaling_known, scaling_active;
	uint64_t last_time_ps;
	uint64_t tlps_not_charged[DIR_COUNT];
	uint64_t damaged_dllps[DIR_COUNT], damaged_tlps[DIR_COUNT];
	struct fc_dl_view dl[DIR_COUNT];
	struct fc_vc_view vc[FC_VC_COUNT];
	struct tl_stats_view tl_stats[DIR_COUNT]; /* by the requests' direction */
};

/* Fills *out with link index; false when the capture had no record on
 * that link. */
bool fc_model_view_link(const struct fc_model *m, unsigned index, struct fc_link_view *out);

#endif
