/* lane_sample.c: symbol times from a clock edge or a fixed period.
 * specification: capture-format.md section 4 "Mapping"; the rules are in
 * lane_sample.h.
 *
 * Two copies of the watched values are kept: before[] (as they stood
 * when the current time step began) and cur[] (with its changes so far).
 * At the end of a step (the next VCD_TIME, or the end of the input) the
 * clock's before and cur values tell whether the step held an active
 * edge; the edge samples before[]; then the slots the step changed (a
 * list, not a copy of every slot) are copied into before[].
 */
#include <stdlib.h>
#include <string.h>

#include "read/lanes/lane_sample.h"

struct lane_sampler {
	struct lane_sampler_config cfg;
	uint64_t *before_v, *before_u, *cur_v, *cur_u;
	unsigned *dirty; /* slots changed in this step */
	bool *is_dirty;
	unsigned ndirty;
	uint64_t step_time; /* time of the current step */
	uint64_t step_line, step_off; /* its #time */
	uint64_t clock_line, clock_off; /* the clock's change in it */
	bool started; /* period: t0 seen */
	uint64_t next_sample;
	uint64_t samples; /* period samples made */
	uint64_t skipped; /* ... of them passed over as fixed points */
};

struct lane_sampler *lane_sampler_new(const struct lane_sampler_config *cfg)
{
	if (cfg->slots == 0 || (cfg->clock_slot == LANE_SAMPLE_NO_CLOCK && cfg->period_ps == 0) ||
	    (cfg->clock_slot != LANE_SAMPLE_NO_CLOCK && cfg->clock_slot >= cfg->slots))
		return NULL;
	struct lane_sampler *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cfg = *cfg;
	size_t n = cfg->slots;
	s->before_v = calloc(n, sizeof(uint64_t));
	s->before_u = malloc(n * sizeof(uint64_t));
	s->cur_v = calloc(n, sizeof(uint64_t));
	s->cur_u = malloc(n * sizeof(uint64_t));
	s->dirty = malloc(n * sizeof(unsigned));
	s->is_dirty = calloc(n, sizeof(bool));
	if (!s->before_v || !s->before_u || !s->cur_v || !s->cur_u || !s->dirty || !s->is_dirty) {
		lane_sampler_free(s);
		return NULL;
	}
	/* never changed: unknown (x), the IEEE initial value */
	for (size_t i = 0; i < n; i++)
		s->before_u[i] = s->cur_u[i] = ~0ull;
	s->step_line = 1;
	return s;
}

void lane_sampler_free(struct lane_sampler *s)
{
	if (!s)
		return;
	free(s->before_v);
	free(s->before_u);
	free(s->cur_v);
	free(s->cur_u);
	free(s->dirty);
	free(s->is_dirty);
	free(s);
}

void lane_sampler_change(struct lane_sampler *s, const struct vcd_change *ch)
{
	if (ch->slot >= s->cfg.slots)
		return;
	s->cur_v[ch->slot] = ch->value;
	s->cur_u[ch->slot] = ch->unknown;
	if (ch->slot == s->cfg.clock_slot) {
		s->clock_line = ch->line;
		s->clock_off = ch->byte_offset;
	}
	if (!s->is_dirty[ch->slot]) {
		s->is_dirty[ch->slot] = true;
		s->dirty[s->ndirty++] = ch->slot;
	}
}

static void commit(struct lane_sampler *s)
{
	for (unsigned i = 0; i < s->ndirty; i++) {
		unsigned slot = s->dirty[i];
		s->before_v[slot] = s->cur_v[slot];
		s->before_u[slot] = s->cur_u[slot];
		s->is_dirty[slot] = false;
	}
	s->ndirty = 0;
}

/* The clock step: an active edge in it samples before[]. */
static void end_step_clock(struct lane_sampler *s)
{
	unsigned c = s->cfg.clock_slot;
	bool was_known = !(s->before_u[c] & 1), now_known = !(s->cur_u[c] & 1);
	if (s->is_dirty[c] && was_known && now_known) {
		unsigned from = (unsigned)(s->before_v[c] & 1), to = (unsigned)(s->cur_v[c] & 1);
		bool active = s->cfg.edge == LANE_EDGE_RISING ? from == 0 && to == 1
		                                              : from == 1 && to == 0;
		if (active) {
			struct lane_pos pos = { s->step_time, s->clock_line, s->clock_off };
			s->cfg.edge_fn(s->cfg.ctx, &pos);
		}
	}
	commit(s);
}

/* Samples at next_sample .. up to and including until, with before[]
 * (just committed) as the values. */
static void period_samples(struct lane_sampler *s, uint64_t until, uint64_t line, uint64_t off)
{
	uint64_t p = s->cfg.period_ps;
	if (!s->started || s->next_sample > until)
		return;
	uint64_t count = (until - s->next_sample) / p + 1;
	if (s->cfg.idle_fn && s->cfg.idle_fn(s->cfg.ctx)) {
		s->next_sample += count * p; /* no symbol on any lane: skipped at once */
		return;
	}
	uint64_t n = count > LANE_SAMPLE_REPEAT_MAX ? LANE_SAMPLE_REPEAT_MAX : count;
	if (s->cfg.bytes_fn) {
		uint64_t bytes = s->cfg.bytes_fn(s->cfg.ctx);
		uint64_t allowed =
		        LANE_SAMPLE_REPEAT_MAX + (bytes > UINT64_MAX / LANE_SAMPLE_PER_BYTE / 2
		                                          ? UINT64_MAX / 2
		                                          : bytes * LANE_SAMPLE_PER_BYTE);
		uint64_t left = allowed > s->samples ? allowed - s->samples : 0;
		if (n > left)
			n = left;
	}
	s->samples += n;
	for (uint64_t i = 0; i < n; i++) {
		struct lane_pos pos = { s->next_sample, line, off };
		s->next_sample += p;
		if (i == 0 || !s->cfg.repeat_fn) {
			s->cfg.edge_fn(s->cfg.ctx, &pos);
		} else if (s->cfg.repeat_fn(s->cfg.ctx, &pos, i)) {
			/* a fixed point: samples i+1 .. n-1 would change nothing */
			s->next_sample += (n - 1 - i) * p;
			s->skipped += n - 1 - i;
			break;
		}
	}
	if (count > n) {
		struct lane_pos pos = { s->next_sample, line, off };
		if (s->cfg.gap_fn)
			s->cfg.gap_fn(s->cfg.ctx, &pos, count - n);
		s->next_sample += (count - n) * p;
	}
}

void lane_sampler_time(struct lane_sampler *s, uint64_t time_ps, uint64_t line,
                       uint64_t byte_offset)
{
	if (s->cfg.clock_slot != LANE_SAMPLE_NO_CLOCK) {
		end_step_clock(s);
	} else {
		if (!s->started && s->ndirty) {
			/* t0: the first step that changed a slot */
			s->started = true;
			s->next_sample = s->step_time + s->cfg.period_ps;
			if (s->next_sample < s->step_time)
				s->started = false; /* past 2^64: never */
		}
		commit(s);
		/* the values of this step stand until time_ps: samples in
		 * (step_time, time_ps] see them */
		period_samples(s, time_ps, line, byte_offset);
	}
	s->step_time = time_ps;
	s->step_line = line;
	s->step_off = byte_offset;
}

void lane_sampler_finish(struct lane_sampler *s)
{
	if (s->cfg.clock_slot != LANE_SAMPLE_NO_CLOCK)
		end_step_clock(s);
	else
		commit(s); /* nothing sampled after the last time in the file */
}

uint64_t lane_sampler_skipped(const struct lane_sampler *s)
{
	return s->skipped;
}

void lane_sampler_value(const struct lane_sampler *s, unsigned slot, uint64_t *value,
                        uint64_t *unknown)
{
	if (slot >= s->cfg.slots) {
		*value = 0;
		*unknown = ~0ull;
		return;
	}
	*value = s->before_v[slot];
	*unknown = s->before_u[slot];
}
