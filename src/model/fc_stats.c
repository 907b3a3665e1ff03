/* fc_stats.c: the model's statistics for --stats: intervals between
 * events (UpdateFCs of a class) in a fixed-size histogram of 8 buckets per
 * octave, their median to within 1/16, and the time a transmitter spent
 * at zero credits.  Numbers for the report, no rule: the timing rules are
 * in fc_timing.c. */
#include <stdlib.h>

#include "model/fc_internal.h"

static unsigned interval_bucket(uint64_t ps)
{
	if (ps < 8)
		return (unsigned)ps;
	unsigned octave = 63u - (unsigned)__builtin_clzll(ps);
	unsigned sub = (unsigned)(ps >> (octave - 3)) & 7u;
	unsigned b = octave * 8u + sub - 16u; /* octave 3 starts at bucket 8 */
	return b < FC_HIST_BUCKETS ? b : FC_HIST_BUCKETS - 1;
}

static uint64_t bucket_low(unsigned b)
{
	if (b < 8)
		return b;
	unsigned octave = (b + 16u) / 8u, sub = (b + 16u) % 8u;
	return (uint64_t)(8u + sub) << (octave - 3);
}

void fc_intervals_add(struct fc_intervals *iv, uint64_t d)
{
	if (!iv->bucket) {
		iv->bucket = calloc(FC_HIST_BUCKETS, sizeof(*iv->bucket));
		if (!iv->bucket) {
			iv->lost = true; /* the run makes it an input error */
			return;
		}
	}
	if (!iv->count || d < iv->min_ps)
		iv->min_ps = d;
	if (d > iv->max_ps)
		iv->max_ps = d;
	iv->count++;
	iv->bucket[interval_bucket(d)]++;
}

void fc_intervals_note(struct fc_intervals *iv, uint64_t now)
{
	iv->events++;
	if (iv->last_seen && now >= iv->last_ps)
		fc_intervals_add(iv, now - iv->last_ps);
	iv->last_seen = true;
	iv->last_ps = now;
}

bool fc_intervals_median(const struct fc_intervals *iv, uint64_t *median_ps)
{
	if (!iv->count || !iv->bucket)
		return false;
	uint64_t half = (iv->count + 1) / 2, seen = 0;
	for (unsigned b = 0; b < FC_HIST_BUCKETS; b++) {
		seen += iv->bucket[b];
		if (seen >= half) {
			uint64_t lo = bucket_low(b);
			uint64_t hi = b + 1 < FC_HIST_BUCKETS ? bucket_low(b + 1) : lo;
			uint64_t mid = lo + (hi - lo) / 2;
			/* never outside what was seen */
			*median_ps = mid < iv->min_ps   ? iv->min_ps
			             : mid > iv->max_ps ? iv->max_ps
			                                : mid;
			return true;
		}
	}
	return false;
}

/* A link's statistics: each class of each port of each VC, then the
 * first and last latencies of each direction's requests. */
enum { LINK_UPDATE_INTERVALS = FC_VC_COUNT * DIR_COUNT * FC_CLASS_COUNT };
enum { LINK_INTERVALS = LINK_UPDATE_INTERVALS + 2 * DIR_COUNT };

static struct fc_intervals *link_intervals(struct fc_link *link, unsigned i)
{
	if (i < LINK_UPDATE_INTERVALS) {
		unsigned cls = i % FC_CLASS_COUNT, port = i / FC_CLASS_COUNT % DIR_COUNT;
		return &link->vc[i / (FC_CLASS_COUNT * DIR_COUNT)].port[port].updates[cls];
	}
	i -= LINK_UPDATE_INTERVALS;
	return i % 2 ? &link->tl_stats[i / 2].latency_last : &link->tl_stats[i / 2].latency_first;
}

void fc_link_stats_free(struct fc_link *link)
{
	/* most never made (free(NULL) under ASan: a stack trace each) */
	for (unsigned i = 0; i < LINK_INTERVALS; i++) {
		struct fc_intervals *iv = link_intervals(link, i);
		if (!iv->bucket)
			continue;
		free(iv->bucket);
		iv->bucket = NULL;
	}
}

bool fc_model_stats_lost(const struct fc_model *m)
{
	for (unsigned l = fc_model_next_link(m, 0); l < FC_LINK_COUNT;
	     l = fc_model_next_link(m, l + 1))
		for (unsigned i = 0; i < LINK_INTERVALS; i++)
			if (link_intervals(m->links[l], i)->lost)
				return true;
	return false;
}

uint64_t fc_credit_time_at_zero(const struct fc_credit *c, uint64_t now_ps)
{
	uint64_t t = c->time_at_zero_ps;
	if (c->at_zero && now_ps > c->zero_since_ps)
		t += now_ps - c->zero_since_ps;
	return t;
}
