/* fc_probe.c: the model's state at a record, for the pictures over time
 * (fc_probe.h).  Copies, and the same arithmetic the rules use
 * (fc_internal.h), so a picture shows what the findings rest on. */
#include <string.h>

#include "model/fc_internal.h"
#include "model/fc_probe.h"

/* The probes fill their structs field by field and the timeline compares
 * them with memcmp: no padding may hide in them. */
_Static_assert(sizeof(struct fc_probe_credit) == 20, "struct fc_probe_credit has padding");
_Static_assert(sizeof(struct fc_probe_port) == 16, "struct fc_probe_port has padding");
_Static_assert(sizeof(struct fc_probe_link) == 4 + 2 * sizeof(struct fc_probe_port),
               "struct fc_probe_link has padding");

static inline void probe_credit(const struct fc_link *link, const struct fc_credit *c,
                                struct fc_probe_credit *out)
{
	/* after a port-reset one port's credit state restarted and the
	 * other's did not: until the link re-initialises, neither CL nor CC
	 * of the model is what both ports hold [6.3; fc.reset.stale-credits].
	 * Every field is written (no memset: this runs for a credit or two of
	 * every record of a run that draws). */
	bool stale = link->port_reset_pending;
	/* built in a local and stored at once: byte stores through out could
	 * alias the model, and the compiler would reload it after each */
	struct fc_probe_credit v;
	v.limit_known = c->limit_known && !stale;
	v.consumed_known = c->consumed_known && !stale;
	v.infinite = c->infinite && c->infinite_known && !stale;
	v.available_known = fc_credit_tracked(c) && !stale;
	v.limit_uncertain = c->limit_uncertain;
	v.width = c->width;
	v.zero[0] = v.zero[1] = 0;
	v.limit = v.limit_known ? c->limit : 0;
	v.consumed = v.consumed_known ? c->consumed : 0;
	v.available = v.available_known ? fc_credit_available(c) : 0;
	*out = v;
}

/* A port's progress through FC_INIT1 and FC_INIT2 [6.2]: pv->fi1 and
 * pv->complete are its FI1 and FI2 flags (the partner's InitFCs seen). */
static uint8_t probe_init(const struct fc_vc *v, const struct fc_port_vc *pv)
{
	switch (v->state) {
	case VC_UNKNOWN:
		return PROBE_INIT_UNKNOWN;
	case VC_IDLE:
		return v->idle_uncertain ? PROBE_INIT_UNKNOWN : PROBE_INIT_IDLE;
	case VC_INIT:
	case VC_GIVEN:
		break;
	}
	if (pv->complete)
		return PROBE_INIT_COMPLETE;
	return pv->fi1 ? PROBE_INIT_FC_INIT2 : PROBE_INIT_FC_INIT1;
}

void fc_probe_credit(const struct fc_model *m, unsigned index, unsigned vc, enum link_dir port,
                     enum credit_type ct, struct fc_probe_credit *out)
{
	const struct fc_link *link = m->links[index];
	if (link && vc < FC_VC_COUNT)
		probe_credit(link, &link->vc[vc].port[port].credit[ct], out);
	else
		memset(out, 0, sizeof(*out));
}

void fc_probe_init(const struct fc_model *m, unsigned index, unsigned vc, uint8_t init[DIR_COUNT])
{
	const struct fc_link *link = m->links[index];
	for (unsigned p = 0; p < DIR_COUNT; p++)
		init[p] = link && vc < FC_VC_COUNT
		                  ? probe_init(&link->vc[vc], &link->vc[vc].port[p])
		                  : PROBE_INIT_UNKNOWN;
}

void fc_probe_vc(const struct fc_model *m, unsigned index, unsigned vc, struct fc_probe_vc *out)
{
	memset(out, 0, sizeof(*out));
	const struct fc_link *link = m->links[index];
	if (!link || vc >= FC_VC_COUNT)
		return;
	const struct fc_vc *v = &link->vc[vc];
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		out->init[p] = probe_init(v, &v->port[p]);
		for (unsigned ct = 0; ct < CT_COUNT; ct++)
			probe_credit(link, &v->port[p].credit[ct], &out->credit[p][ct]);
	}
}

static uint8_t link_state(const struct fc_link *link)
{
	if (link->down)
		return PROBE_LINK_DOWN;
	if (link->port_reset_pending)
		return PROBE_LINK_UNKNOWN; /* a port restarted: its state is not seen */
	if (link->pm_inactive)
		return PROBE_LINK_L1;
	const struct fc_vc *v0 = &link->vc[0];
	switch (v0->state) {
	case VC_UNKNOWN:
		/* a capture begun mid-stream: what it carries is DL_Active
		 * traffic, or an InitFC1 that joins an epoch (VC_INIT) */
		return link->active ? PROBE_LINK_ACTIVE : PROBE_LINK_UNKNOWN;
	case VC_IDLE:
		return v0->idle_uncertain ? PROBE_LINK_UNKNOWN : PROBE_LINK_INIT;
	case VC_INIT:
	case VC_GIVEN:
		break;
	}
	return v0->port[DIR_DOWN].complete && v0->port[DIR_UP].complete ? PROBE_LINK_ACTIVE
	                                                                : PROBE_LINK_INIT;
}

uint8_t fc_probe_link_state(const struct fc_model *m, unsigned index)
{
	const struct fc_link *link = index < FC_LINK_COUNT ? m->links[index] : NULL;
	return link ? link_state(link) : PROBE_LINK_UNKNOWN;
}

bool fc_probe_link_lag(const struct fc_model *m, unsigned index, uint8_t *state,
                       bool lag[DIR_COUNT])
{
	const struct fc_link *link = index < FC_LINK_COUNT ? m->links[index] : NULL;
	if (!link)
		return false;
	*state = link_state(link);
	for (unsigned p = 0; p < DIR_COUNT; p++)
		lag[p] = fc_consumed_may_lag(link, (enum link_dir)p);
	return true;
}

bool fc_probe_link(const struct fc_model *m, unsigned index, struct fc_probe_link *out)
{
	const struct fc_link *link = index < FC_LINK_COUNT ? m->links[index] : NULL;
	if (!link) {
		memset(out, 0, sizeof(*out));
		return false;
	}
	/* every field written, no memset: this runs at most records of a run
	 * that draws */
	out->state = link_state(link);
	out->zero[0] = out->zero[1] = out->zero[2] = 0;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		/* built in a local (see probe_credit) */
		struct fc_probe_port v;
		const struct dl_port *dl = &link->dl[p];
		bool no_seq = link->tap_no_seq[p];
		/* NEXT_TRANSMIT_SEQ is one past the newest number seen [7] */
		v.seq_known = link->seq_known[p] && !no_seq;
		v.next_transmit_seq =
		        v.seq_known ? (uint16_t)((link->seq_high[p] + 1u) & 0xFFFu) : 0;
		v.ackd_known = dl->ackd_known && !no_seq;
		v.ackd_seq = v.ackd_known ? dl->ackd_seq : 0;
		unsigned out_count = (link->seq_high[p] - (unsigned)dl->ackd_seq) & 0xFFFu;
		v.tlps_outstanding_known = v.seq_known && v.ackd_known && out_count < 2048;
		v.tlps_outstanding = v.tlps_outstanding_known ? (uint16_t)out_count : 0;
		v.consumed_may_lag = fc_consumed_may_lag(link, (enum link_dir)p);
		v.requests_known = link->tl_known;
		v.zero = 0;
		v.requests_outstanding = link->tl_known ? link->tl_stats[p].outstanding : 0;
		out->port[p] = v;
	}
	return true;
}

static uint16_t class_credits(enum link_dir port, enum fc_class cls)
{
	return (uint16_t)((1u << (port * CT_COUNT + ct_hdr(cls))) |
	                  (1u << (port * CT_COUNT + ct_data(cls))));
}

void fc_probe_touched(const struct fc_model *m, const struct packet *pkt, bool fit,
                      struct fc_probe_touch *out)
{
	const struct record *rec = pkt->rec;
	out->ports = true;
	out->vcs = 0;
	out->one_vc = false;
	if (rec->kind == REC_EVENT || packet_damaged(pkt)) {
		out->vcs = 0xFFu;
		return;
	}
	if (rec->kind == REC_TLP) {
		/* a nullified TLP changes nothing; a malformed one (its TC and
		 * class may not be read) is taken as touching every VC */
		const struct tlp *t = &pkt->u.tlp;
		if (t->lcrc == CRC_NULLIFIED)
			return;
		if (!fit) {
			out->vcs = 0xFFu;
			return;
		}
		out->one_vc = true;
		out->vc = (uint8_t)fc_vc_of_tc(m, t->tc);
		out->credits = class_credits(rec->dir, t->fc_class);
		return;
	}
	const struct dllp *d = &pkt->u.dllp;
	switch (d->type) {
	case DLLP_UPDATEFC:
		out->ports = false;
		out->one_vc = true;
		out->vc = d->vc & 7u;
		out->credits = class_credits(partner_of(rec->dir), d->fc_class);
		return;
	case DLLP_ACK:
	case DLLP_NAK:
		return;
	case DLLP_PM_ENTER_L1:
	case DLLP_PM_ENTER_L23:
	case DLLP_PM_AS_REQUEST_L1:
	case DLLP_PM_REQUEST_ACK:
		out->ports = false;
		return;
	default:
		out->vcs = 0xFFu; /* InitFCs (which may join or start an epoch), the rest */
		return;
	}
}
