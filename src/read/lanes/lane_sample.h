/* lane_sample.h: when the lanes are sampled, and with which values.
 * specification: capture-format.md section 4 "Mapping" (--lane-clock,
 * --symbol-period).
 *
 * The reader hands every VCD_CHANGE and VCD_TIME of the watched slots to
 * the sampler; the sampler calls edge() once per symbol time, with the
 * values of every slot as they stood just before it (lane_sampler_value):
 *
 * - with a clock slot: at each active edge (0 -> 1 rising, 1 -> 0
 *   falling; x/z never make an edge), the values before that time step.
 *   Changes at the same timestamp as the edge do not count: a VCD orders
 *   the changes of one time step arbitrarily, so the data written with
 *   the edge may be the next symbol's (IEEE 1364 18.2.1 gives no order).
 * - with a period P: at t0 + P, t0 + 2P, ... where t0 is the first time
 *   step that changed a slot, each with the values standing just before
 *   it.  Stretches in which nothing changes and idle() says no lane
 *   carries a symbol (valid = 0, x/z) are skipped without iterating each
 *   period; a stretch that carries a symbol and does not change for more
 *   than LANE_SAMPLE_REPEAT_MAX periods is cut there, and gap() is told
 *   how many symbol times were not delivered; and in all no more than
 *   LANE_SAMPLE_REPEAT_MAX + LANE_SAMPLE_PER_BYTE samples per byte of the
 *   file read (bytes_fn) are made, the rest cut the same way: the work is
 *   bounded by the file's size, not by its time span over the period (a
 *   hostile file cannot make the reader spin for 2^63 ps).
 *
 * Within one such stretch every sample has the same values.  With
 * repeat_fn, the samples after the first of a stretch go to it instead of
 * edge_fn, with their number in the stretch (1 for the second sample):
 * it steps as edge_fn would, and may return true to say that this step
 * was a fixed point (it reported nothing and left the decoders' state as
 * it was), so that the same values would change nothing at any later
 * sample either.  The rest of the stretch is then passed over as made:
 * they count towards the per-byte budget, and the gap and the times are
 * those that stepping each one would give.  Without repeat_fn every
 * sample goes to edge_fn (the plain version the unit tests compare
 * with).
 */
#ifndef DLLPCHECK_LANE_SAMPLE_H
#define DLLPCHECK_LANE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "read/lanes/lane_map.h"
#include "read/lanes/lane_packet.h"
#include "read/lanes/vcd_parse.h"

#define LANE_SAMPLE_NO_CLOCK (~0u)
/* A fuzzing build (configure --enable-fuzzing defines
 * FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, as OSS-Fuzz's builds do) runs
 * the same code with smaller bounds: a 16 KB input then makes at most
 * 69,632 samples, not 1,114,112, each stepped with the coverage hooks
 * (about 1 us: fuzz_vcd ran 175-220 inputs a second over a run, most of
 * it in inputs at the bound).  Stretches are cut, and gap() told, the
 * same way, only sooner (tests/fuzz/README.md). */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define LANE_SAMPLE_REPEAT_MAX 4096u
#define LANE_SAMPLE_PER_BYTE 4u
#else
#define LANE_SAMPLE_REPEAT_MAX 65536u
#define LANE_SAMPLE_PER_BYTE 64u
#endif

struct lane_sampler_config {
	unsigned slots; /* slots 0 .. slots-1 */
	unsigned clock_slot; /* LANE_SAMPLE_NO_CLOCK: use period_ps */
	enum lane_edge edge;
	uint64_t period_ps;
	void (*edge_fn)(void *ctx, const struct lane_pos *pos);
	bool (*idle_fn)(void *ctx); /* optional: no lane carries a symbol */
	void (*gap_fn)(void *ctx, const struct lane_pos *pos, uint64_t skipped);
	uint64_t (*bytes_fn)(void *ctx); /* optional: bytes of the file read */
	/* optional: a sample with the same values as the one before it, the
	 * nth repeat of the stretch; true: a fixed point, the rest skipped */
	bool (*repeat_fn)(void *ctx, const struct lane_pos *pos, uint64_t nth);
	void *ctx;
};

struct lane_sampler;

struct lane_sampler *lane_sampler_new(const struct lane_sampler_config *cfg);
void lane_sampler_change(struct lane_sampler *s, const struct vcd_change *ch);
/* A new time step (VCD_TIME) at time_ps, whose #time is at line/offset. */
void lane_sampler_time(struct lane_sampler *s, uint64_t time_ps, uint64_t line,
                       uint64_t byte_offset);
/* The input ended: the last time step is closed (a clock edge in it
 * counts); no period sample is made past the last time in the file. */
void lane_sampler_finish(struct lane_sampler *s);
/* During edge_fn/idle_fn: a slot's value just before the edge, and its
 * x/z bits.  A slot never changed is all x. */
void lane_sampler_value(const struct lane_sampler *s, unsigned slot, uint64_t *value,
                        uint64_t *unknown);
/* The samples passed over after repeat_fn said a fixed point. */
uint64_t lane_sampler_skipped(const struct lane_sampler *s);
void lane_sampler_free(struct lane_sampler *s);

#endif
