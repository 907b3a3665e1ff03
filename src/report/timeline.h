/* timeline.h: the shadow model over time, for the pictures (the VCD of
 * --vcd, the charts of --format=html).  After every record the analysis
 * hands the model to timeline_record(); the timeline reads it through
 * model/fc_probe.h, one VC at a time (only those the record may have
 * touched), compares with what it told before, and tells its sinks each
 * value that changed, with the record that changed it.  It computes
 * nothing of its own: every value is the model's.
 *
 * Memory: one copy of the probed values per link seen (at most
 * FC_LINK_COUNT), whatever the capture's length.  Time: the records'
 * times, made non-decreasing (a record whose time goes back, itself a
 * capture.time-backwards finding, is drawn at the latest time seen), as
 * waveforms need. */
#ifndef DLLPCHECK_TIMELINE_H
#define DLLPCHECK_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/bitset.h"
#include "core/rules.h"
#include "decode/packet.h"
#include "model/fc_model.h"
#include "model/fc_probe.h"

/* Where a change happened. */
struct timeline_at {
	uint64_t time_ps; /* non-decreasing over the run */
	unsigned link;
	/* the record that changed it; NULL for changes found at a damaged
	 * record the reader could not decode, or at the end of the capture */
	const struct packet *pkt;
};

/* A consumer of the changes.  A VC is told about from the first record
 * at which it is in use (its initialisation began, or a credit of it is
 * known), with every value of it; a link and its ports from its first
 * record.  Any callback may be NULL. */
struct timeline_sink {
	void (*link_state)(void *ctx, const struct timeline_at *at, uint8_t state);
	void (*port)(void *ctx, const struct timeline_at *at, enum link_dir port,
	             const struct fc_probe_port *now);
	void (*init)(void *ctx, const struct timeline_at *at, unsigned vc, enum link_dir port,
	             uint8_t state);
	void (*credit)(void *ctx, const struct timeline_at *at, unsigned vc, enum link_dir port,
	               enum credit_type ct, const struct fc_probe_credit *now);
	/* every finding reported (after its rule's filter), as it is raised */
	void (*finding)(void *ctx, const struct finding *f, uint64_t time_ps);
	/* the end of the input: last_time_ps is the latest time seen */
	void (*end)(void *ctx, uint64_t last_time_ps);
	void *ctx;
	/* only fc_probe_port.consumed_may_lag of a port, told when it changes
	 * (and at the link's first record), for a sink that needs no other
	 * value of the ports: when no sink has port, the ports are not
	 * probed at all, but for this (the HTML charts' uncertain shading) */
	void (*lag)(void *ctx, const struct timeline_at *at, enum link_dir port, bool may_lag);
};

#define TIMELINE_SINKS_MAX 2

struct timeline_link; /* timeline.c */

struct timeline {
	struct timeline_sink sinks[TIMELINE_SINKS_MAX];
	unsigned sink_count;
	bool want_ports; /* a sink has port */
	bool has_time;
	uint64_t time_ps; /* the latest time seen */
	struct timeline_link *followed[FC_LINK_COUNT]; /* a link's values as told */
	uint64_t followed_set[BITSET_WORDS(FC_LINK_COUNT)]; /* the links of followed[] made */
	bool out_of_memory; /* a link could not be followed: the pictures are incomplete */
};

void timeline_init(struct timeline *tl);
/* Adds a sink (at most TIMELINE_SINKS_MAX); false when full. */
bool timeline_add_sink(struct timeline *tl, const struct timeline_sink *sink);
static inline bool timeline_active(const struct timeline *tl)
{
	return tl->sink_count > 0;
}
/* After fc_model_apply(m, pkt, fit). */
void timeline_record(struct timeline *tl, const struct fc_model *m, const struct packet *pkt,
                     bool fit);
/* After fc_model_damaged(m, link, ...): link -1 for every link; the
 * damaged record's time when it has one (a lane-level capture's). */
void timeline_damaged(struct timeline *tl, const struct fc_model *m, int link, bool has_time,
                      uint64_t time_ps);
/* A finding as it is reported: to every sink, at its record's time (made
 * non-decreasing as the values' times are). */
void timeline_finding(struct timeline *tl, const struct finding *f);
/* After fc_model_finish(m): the last changes, then every sink's end. */
void timeline_finish(struct timeline *tl, const struct fc_model *m);
void timeline_free(struct timeline *tl);

/* Whether a VC is in the pictures: its initialisation began or a credit
 * of it is known (other than the CC = 0 every epoch start sets). */
bool timeline_vc_in_use(const struct fc_probe_vc *v);

#endif
