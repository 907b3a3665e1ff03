/* fc_model.c: the shadow model's entry points: link events, power
 * management, and the dispatch of each packet to the DLLP or TLP half
 * (fc_dllp.c, fc_tlp.c), the data link layer (dl_model.c) and what the
 * capture saw damaged (fc_damage.c).  Links and epochs: fc_link.c.
 * Semantics: rules.md "How the model reads a trace"; capture-format.md
 * section 1 (link events); spec-digest.md 6.3 (resets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fc_internal.h"

static const char *const role_names[] = {
	[ROLE_UNKNOWN] = "unknown",
	[ROLE_ROOT_PORT] = "root-port",
	[ROLE_ROOT_PORT_P2P] = "root-port-p2p",
	[ROLE_SWITCH] = "switch",
	[ROLE_ENDPOINT] = "endpoint",
};

const char *port_role_name(enum port_role role)
{
	return role <= ROLE_ENDPOINT ? role_names[role] : "?";
}

void fc_options_init(struct fc_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->update_period_ps = FC_UPDATE_PERIOD_PS;
	opts->init_repeat_ps = FC_INIT_REPEAT_PS;
	opts->starve_ps = FC_STARVE_PS;
	opts->cpl_timeout_ps = TL_CPL_TIMEOUT_PS;
	opts->tag_reuse_window_ps = TL_CPL_TIMEOUT_MIN_PS;
}

void fc_model_init(struct fc_model *m, const struct fc_options *opts, struct finding_sink *sink)
{
	memset(m, 0, sizeof(*m));
	m->opts = opts;
	m->sink = sink;
}

void fc_model_free(struct fc_model *m)
{
	/* only the links made: under ASan (the fuzzers, the sanitizer
	 * suite) even free(NULL) takes a stack trace, 256 of them a run */
	for (unsigned i = fc_model_next_link(m, 0); i < FC_LINK_COUNT;
	     i = fc_model_next_link(m, i + 1)) {
		tl_link_free(m->links[i]);
		fc_link_stats_free(m->links[i]);
		free(m->links[i]);
		m->links[i] = NULL;
	}
	memset(m->made, 0, sizeof(m->made));
	m->tl_slots = 0;
}

static void apply_event(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	(void)m;
	switch (pkt->u.event.code) {
	case EV_LINK_UP:
	case EV_LINK_DOWN:
	case EV_HOT_RESET:
		link->down = pkt->u.event.code != EV_LINK_UP;
		/* All flow-control and sequence state of both ports is
		 * discarded; the Data Link Feature exchange starts again. */
		link->dlf_seen[DIR_DOWN] = link->dlf_seen[DIR_UP] = false;
		link->dlf_scaled[DIR_DOWN] = link->dlf_scaled[DIR_UP] = false;
		link->dlf_uncertain[DIR_DOWN] = link->dlf_uncertain[DIR_UP] = false;
		fc_link_epoch_start(link, true);
		break;
	case EV_PORT_RESET:
		/* One side's credit logic restarted, the other's did not: until
		 * the link re-initialises, every TLP uses stale credits [6.3].
		 * The reset port forgot its requests: what is outstanding is
		 * unknown until the next epoch. */
		link->port_reset_pending = true;
		tl_epoch_start(link, false);
		break;
	case EV_VC_ENABLE:
		fc_vc_epoch_start(link, pkt->u.event.arg & 7u);
		break;
	case EV_RECOVERY:
		/* flow-control state is kept; time in Recovery does not count
		 * for the UpdateFC and InitFC intervals [5.8, 6.2] */
		fc_timing_link_inactive(link);
		break;
	default:
		break;
	}
}

static COLD_PATH void raise_time_backwards(struct fc_model *m, const struct fc_link *link,
                                           const struct packet *pkt)
{
	const struct record *rec = pkt->rec;
	struct finding f;
	fc_finding_begin(&f, R_CAPTURE_TIME_BACKWARDS, pkt, FINDING_NO_VC, FINDING_NO_CREDIT);
	uint64_t back = link->last_time_ps - rec->time_ps;
	finding_message(m->sink, &f, "time goes back %llu ps from the previous record on link %u",
	                (unsigned long long)back, rec->link);
	finding_add_evidence(&f, "previous_time_ps", (int64_t)link->last_time_ps);
	finding_add_evidence(&f, "time_ps", (int64_t)rec->time_ps);
	fc_raise(m, &f);
}

static void check_time(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct record *rec = pkt->rec;
	if (link->has_time && rec->time_ps < link->last_time_ps)
		raise_time_backwards(m, link, pkt);
	link->has_time = true;
	link->last_time_ps = rec->time_ps;
}

/* Power management and the UpdateFC period [5.8, rules.md]: the link is
 * not active from PM_Enter_L1/L23, or from a PM_Request_Ack answering a
 * PM_Active_State_Request_L1, until the next TLP or DLLP of another kind;
 * a DLLP the capture saw damaged may have been such an entry.  Returns
 * false for the PM DLLPs, which do not wake the link. */
static bool pm_dllp(const struct packet *pkt)
{
	switch (pkt->u.dllp.type) {
	case DLLP_PM_ENTER_L1:
	case DLLP_PM_ENTER_L23:
	case DLLP_PM_AS_REQUEST_L1:
	case DLLP_PM_REQUEST_ACK:
		return true;
	default:
		return false;
	}
}

static void note_activity(struct fc_link *link, uint64_t now)
{
	if (link->pm_inactive) {
		link->pm_inactive = false;
		fc_timing_link_active(link, now);
	}
}

static void apply_pm(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	switch (pkt->u.dllp.type) {
	case DLLP_PM_ENTER_L1:
	case DLLP_PM_ENTER_L23:
		link->pm_inactive = true;
		break;
	case DLLP_PM_REQUEST_ACK:
		/* It answers a PM_Active_State_Request_L1 (ASPM L1 entry), a
		 * PM_Enter_L1 or a PM_Enter_L23: after each the link leaves L0,
		 * so also when the request came before the capture. */
		link->pm_inactive = true;
		break;
	default:
		break;
	}
	dl_apply_pm(m, link, pkt);
}

static void apply_dllp(struct fc_model *m, struct fc_link *link, const struct packet *pkt, bool fit)
{
	if (packet_damaged(pkt)) {
		fc_damaged_dllp(m, link, pkt->rec->dir);
		return;
	}
	if (!fit)
		return; /* a reserved type: discarded by the receiver [1.1] */
	if (pm_dllp(pkt)) {
		apply_pm(m, link, pkt);
		return;
	}
	note_activity(link, pkt->rec->time_ps);
	switch (pkt->u.dllp.type) {
	case DLLP_INITFC1:
	case DLLP_INITFC2:
	case DLLP_UPDATEFC:
		fc_apply_fc_dllp(m, link, pkt);
		break;
	case DLLP_FEATURE:
		fc_apply_feature(link, pkt);
		break;
	case DLLP_ACK:
	case DLLP_NAK:
		dl_apply_acknak(m, link, pkt);
		break;
	default:
		break;
	}
}

void fc_model_apply(struct fc_model *m, const struct packet *pkt, bool fit)
{
	const struct record *rec = pkt->rec;
	struct fc_link *link = fc_link_get(m, rec->link);
	if (!link)
		return; /* out of memory: fc_model_failed() */
	link->active = true;
	check_time(m, link, pkt);
	tl_check_timeouts(m, link, rec);
	link->last_rec = *rec;
	link->last_rec.bytes = NULL;
	link->last_rec.len = 0;
	link->last_rec_seen = true;

	switch (rec->kind) {
	case REC_EVENT:
		apply_event(m, link, pkt);
		break;
	case REC_DLLP:
		link->down = false;
		apply_dllp(m, link, pkt, fit);
		break;
	case REC_TLP:
		link->down = false;
		note_activity(link, rec->time_ps);
		fc_apply_tlp(m, link, pkt, fit);
		break;
	}
}

void fc_model_damaged(struct fc_model *m, int link_index, int dir, int kind, unsigned packets)
{
	if (link_index >= FC_LINK_COUNT)
		return; /* no such link */
	/* every link made, or the one given if made */
	unsigned first = link_index >= 0 ? (unsigned)link_index : 0;
	unsigned last = link_index >= 0 ? (unsigned)link_index : FC_LINK_COUNT - 1;
	for (unsigned n = 0; n < packets; n++)
		for (unsigned i = fc_model_next_link(m, first); i <= last;
		     i = fc_model_next_link(m, i + 1)) {
			struct fc_link *link = m->links[i];
			for (unsigned p = 0; p < DIR_COUNT; p++) {
				if (dir >= 0 && (unsigned)dir != p)
					continue;
				if (kind == 0 || kind == REC_DLLP)
					fc_damaged_dllp(m, link, (enum link_dir)p);
				if (kind == 0 || kind == REC_TLP)
					fc_damaged_tlp(m, link, (enum link_dir)p);
			}
		}
}

void fc_model_finish(struct fc_model *m)
{
	uint64_t end_ps = 0;
	for (unsigned i = fc_model_next_link(m, 0); i < FC_LINK_COUNT;
	     i = fc_model_next_link(m, i + 1)) {
		const struct fc_link *link = m->links[i];
		if (link->last_rec_seen && link->last_rec.time_ps > end_ps)
			end_ps = link->last_rec.time_ps;
	}
	for (unsigned i = fc_model_next_link(m, 0); i < FC_LINK_COUNT;
	     i = fc_model_next_link(m, i + 1)) {
		struct fc_link *link = m->links[i];
		if (link->last_rec_seen && !link->pm_inactive)
			fc_timing_finish(m, link);
		/* requests still outstanding when the capture ended, later
		 * than the link's last record [rules.md tlp.cpl.timeout] */
		if (link->last_rec_seen && link->tl)
			tl_finish(m, link, end_ps);
	}
}
