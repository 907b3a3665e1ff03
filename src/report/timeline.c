/* timeline.c: the shadow model's values over time, as changes
 * (timeline.h). */
#include <stdlib.h>
#include <string.h>

#include "report/timeline.h"

struct timeline_link {
	bool told; /* the link's values were told once */
	uint8_t vc_in_use; /* a bit per VC told about */
	struct fc_probe_link link;
	struct fc_probe_vc vc[FC_VC_COUNT];
};

void timeline_init(struct timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
}

bool timeline_add_sink(struct timeline *tl, const struct timeline_sink *sink)
{
	if (tl->sink_count >= TIMELINE_SINKS_MAX)
		return false;
	tl->sinks[tl->sink_count++] = *sink;
	if (sink->port)
		tl->want_ports = true;
	return true;
}

void timeline_free(struct timeline *tl)
{
	/* only the links followed (free(NULL) under ASan: a stack trace
	 * each, and a timeline is freed after every input, drawn or not) */
	enum { WORDS = BITSET_WORDS(FC_LINK_COUNT) };
	for (unsigned i = bitset_next(tl->followed_set, WORDS, 0); i < FC_LINK_COUNT;
	     i = bitset_next(tl->followed_set, WORDS, i + 1)) {
		free(tl->followed[i]);
		tl->followed[i] = NULL;
	}
	memset(tl->followed_set, 0, sizeof(tl->followed_set));
}

static uint64_t timeline_time(struct timeline *tl, uint64_t time_ps)
{
	if (!tl->has_time || time_ps > tl->time_ps)
		tl->time_ps = time_ps;
	tl->has_time = true;
	return tl->time_ps;
}

/* ---- telling the sinks ---------------------------------------------------- */

static void tell_link_state(struct timeline *tl, const struct timeline_at *at, uint8_t state)
{
	for (unsigned s = 0; s < tl->sink_count; s++)
		if (tl->sinks[s].link_state)
			tl->sinks[s].link_state(tl->sinks[s].ctx, at, state);
}

static void tell_port(struct timeline *tl, const struct timeline_at *at, enum link_dir p,
                      const struct fc_probe_port *now)
{
	for (unsigned s = 0; s < tl->sink_count; s++)
		if (tl->sinks[s].port)
			tl->sinks[s].port(tl->sinks[s].ctx, at, p, now);
}

static void tell_lag(struct timeline *tl, const struct timeline_at *at, enum link_dir p,
                     bool may_lag)
{
	for (unsigned s = 0; s < tl->sink_count; s++)
		if (tl->sinks[s].lag)
			tl->sinks[s].lag(tl->sinks[s].ctx, at, p, may_lag);
}

static void tell_init(struct timeline *tl, const struct timeline_at *at, unsigned vc,
                      enum link_dir p, uint8_t state)
{
	for (unsigned s = 0; s < tl->sink_count; s++)
		if (tl->sinks[s].init)
			tl->sinks[s].init(tl->sinks[s].ctx, at, vc, p, state);
}

static void tell_credit(struct timeline *tl, const struct timeline_at *at, unsigned vc,
                        enum link_dir p, enum credit_type ct, const struct fc_probe_credit *now)
{
	for (unsigned s = 0; s < tl->sink_count; s++)
		if (tl->sinks[s].credit)
			tl->sinks[s].credit(tl->sinks[s].ctx, at, vc, p, ct, now);
}

/* ---- the differences ------------------------------------------------------ */

static struct timeline_link *timeline_link_get(struct timeline *tl, unsigned index)
{
	struct timeline_link *l = tl->followed[index];
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l)
			tl->out_of_memory = true;
		else
			bitset_add(tl->followed_set, index);
		tl->followed[index] = l;
	}
	return l;
}

static void diff_link(struct timeline *tl, struct timeline_link *l, const struct fc_model *m,
                      const struct timeline_at *at)
{
	struct fc_probe_link now;
	if (!fc_probe_link(m, at->link, &now))
		return;
	bool first = !l->told;
	if (!first && memcmp(&now, &l->link, sizeof(now)) == 0)
		return;
	if (first || now.state != l->link.state)
		tell_link_state(tl, at, now.state);
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		if (!first && memcmp(&now.port[p], &l->link.port[p], sizeof(now.port[p])) == 0)
			continue;
		tell_port(tl, at, (enum link_dir)p, &now.port[p]);
		if (first || now.port[p].consumed_may_lag != l->link.port[p].consumed_may_lag)
			tell_lag(tl, at, (enum link_dir)p, now.port[p].consumed_may_lag);
	}
	l->link = now;
	l->told = true;
}

/* diff_link for sinks that want of the ports only whether CC may lag:
 * the state and two flags probed, not the ports (most records change a
 * port's sequence numbers, which no such sink draws). */
static void diff_link_lag(struct timeline *tl, struct timeline_link *l, const struct fc_model *m,
                          const struct timeline_at *at)
{
	uint8_t state;
	bool lag[DIR_COUNT];
	if (!fc_probe_link_lag(m, at->link, &state, lag))
		return;
	bool first = !l->told;
	if (first || state != l->link.state)
		tell_link_state(tl, at, state);
	l->link.state = state;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		if (first || lag[p] != l->link.port[p].consumed_may_lag)
			tell_lag(tl, at, (enum link_dir)p, lag[p]);
		l->link.port[p].consumed_may_lag = lag[p];
	}
	l->told = true;
}

/* A VC is in use once its initialisation began or a credit is known:
 * VCs a capture never uses stay out of the pictures.  An epoch's start
 * makes every VC's CC known (0) without the VC being used: a consumed
 * count makes it in use only once something was charged. */
bool timeline_vc_in_use(const struct fc_probe_vc *v)
{
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		if (v->init[p] != PROBE_INIT_UNKNOWN && v->init[p] != PROBE_INIT_IDLE)
			return true;
		for (unsigned ct = 0; ct < CT_COUNT; ct++) {
			const struct fc_probe_credit *c = &v->credit[p][ct];
			if (c->limit_known || (c->consumed_known && c->consumed != 0))
				return true;
		}
	}
	return false;
}

static void diff_vc(struct timeline *tl, struct timeline_link *l, const struct fc_model *m,
                    const struct timeline_at *at, unsigned vc)
{
	struct fc_probe_vc now;
	fc_probe_vc(m, at->link, vc, &now);
	bool first = !(l->vc_in_use & (1u << vc));
	if (first) {
		if (!timeline_vc_in_use(&now))
			return;
		l->vc_in_use |= (uint8_t)(1u << vc);
	} else if (memcmp(&now, &l->vc[vc], sizeof(now)) == 0) {
		return;
	}
	const struct fc_probe_vc *was = &l->vc[vc];
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		if (first || now.init[p] != was->init[p])
			tell_init(tl, at, vc, (enum link_dir)p, now.init[p]);
		for (unsigned ct = 0; ct < CT_COUNT; ct++)
			if (first || memcmp(&now.credit[p][ct], &was->credit[p][ct],
			                    sizeof(now.credit[p][ct])) != 0)
				tell_credit(tl, at, vc, (enum link_dir)p, (enum credit_type)ct,
				            &now.credit[p][ct]);
	}
	l->vc[vc] = now;
}

/* A record that touched only some credits of one VC (fc_probe_touched):
 * those and the VC's init states are probed, not the whole VC (an intact
 * TLP or an UpdateFC, most records, change two credits).  Until the VC is
 * in use the whole of it is looked at, to tell when it comes in use. */
static void diff_vc_part(struct timeline *tl, struct timeline_link *l, const struct fc_model *m,
                         const struct timeline_at *at, unsigned vc, unsigned credits)
{
	if (!(l->vc_in_use & (1u << vc))) {
		diff_vc(tl, l, m, at, vc);
		return;
	}
	struct fc_probe_vc *was = &l->vc[vc];
	/* complete stays complete until an epoch starts or a damaged packet
	 * is seen, and those touch every VC */
	if (was->init[DIR_DOWN] != PROBE_INIT_COMPLETE ||
	    was->init[DIR_UP] != PROBE_INIT_COMPLETE) {
		uint8_t init[DIR_COUNT];
		fc_probe_init(m, at->link, vc, init);
		for (unsigned p = 0; p < DIR_COUNT; p++)
			if (init[p] != was->init[p]) {
				was->init[p] = init[p];
				tell_init(tl, at, vc, (enum link_dir)p, init[p]);
			}
	}
	for (; credits; credits &= credits - 1) {
		unsigned bit = (unsigned)__builtin_ctz(credits);
		enum link_dir p = (enum link_dir)(bit / CT_COUNT);
		enum credit_type ct = (enum credit_type)(bit % CT_COUNT);
		struct fc_probe_credit now;
		fc_probe_credit(m, at->link, vc, p, ct, &now);
		if (memcmp(&now, &was->credit[p][ct], sizeof(now)) != 0) {
			memcpy(&was->credit[p][ct], &now, sizeof(now));
			tell_credit(tl, at, vc, p, ct, &now);
		}
	}
}

static const struct fc_probe_touch every_vc = { .ports = true, .vcs = 0xFFu };

static void diff(struct timeline *tl, const struct fc_model *m, const struct timeline_at *at,
                 const struct fc_probe_touch *touch)
{
	struct timeline_link *l = timeline_link_get(tl, at->link);
	if (!l)
		return;
	/* a link's first record: every VC, as some may be known already
	 * (--initial-credits) */
	if (!l->told)
		touch = &every_vc;
	if (touch->ports || !l->told) {
		if (tl->want_ports)
			diff_link(tl, l, m, at);
		else
			diff_link_lag(tl, l, m, at);
	} else {
		uint8_t state = fc_probe_link_state(m, at->link);
		if (state != l->link.state) {
			l->link.state = state;
			tell_link_state(tl, at, state);
		}
	}
	for (unsigned vcs = touch->vcs; vcs; vcs &= vcs - 1)
		diff_vc(tl, l, m, at, (unsigned)__builtin_ctz(vcs));
	if (touch->one_vc && !(touch->vcs & (1u << touch->vc)))
		diff_vc_part(tl, l, m, at, touch->vc, touch->credits);
}

void timeline_record(struct timeline *tl, const struct fc_model *m, const struct packet *pkt,
                     bool fit)
{
	if (!tl->sink_count)
		return;
	struct timeline_at at = { timeline_time(tl, pkt->rec->time_ps), pkt->rec->link, pkt };
	struct fc_probe_touch touch;
	fc_probe_touched(m, pkt, fit, &touch);
	diff(tl, m, &at, &touch);
}

void timeline_damaged(struct timeline *tl, const struct fc_model *m, int link, bool has_time,
                      uint64_t time_ps)
{
	if (!tl->sink_count)
		return;
	if (has_time)
		timeline_time(tl, time_ps);
	/* the links the model made (fc_model_next_link), each asked of the
	 * probe, not read from the model's structures */
	for (unsigned i = fc_model_next_link(m, 0); i < FC_LINK_COUNT;
	     i = fc_model_next_link(m, i + 1)) {
		struct fc_probe_link exists;
		if ((link >= 0 && (unsigned)link != i) || !fc_probe_link(m, i, &exists))
			continue;
		struct timeline_at at = { tl->time_ps, i, NULL };
		diff(tl, m, &at, &every_vc);
	}
}

void timeline_finding(struct timeline *tl, const struct finding *f)
{
	if (!tl->sink_count)
		return;
	/* a finding's time ahead of the records' (a malformed record's) moves
	 * the timeline on: the changes after it are drawn no earlier */
	uint64_t t = f->has_time ? timeline_time(tl, f->time_ps) : tl->time_ps;
	for (unsigned s = 0; s < tl->sink_count; s++)
		if (tl->sinks[s].finding)
			tl->sinks[s].finding(tl->sinks[s].ctx, f, t);
}

void timeline_finish(struct timeline *tl, const struct fc_model *m)
{
	if (!tl->sink_count)
		return;
	timeline_damaged(tl, m, -1, false, 0); /* what the end of the capture changed */
	for (unsigned s = 0; s < tl->sink_count; s++)
		if (tl->sinks[s].end)
			tl->sinks[s].end(tl->sinks[s].ctx, tl->time_ps);
}
