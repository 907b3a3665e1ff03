/* reader_vcd.c: the lane-level reader: a VCD of lanes into records.
 * specification: capture-format.md section 4; the pieces are vcd_parse.c
 * (the file), lane_map.c (which variables), lane_sample.c (when), and the
 * decoders rx8b10b.h / rx128b.h (symbols to packets), one per direction.
 *
 * Records come out in the order of their first symbol's edge time, down
 * before up at equal times (lanes-common.md): a packet completed in one
 * direction is held while the other direction has a packet open that
 * began earlier (rx8b10b_open / rx128b_open), in a queue sorted by time.
 * The queue is bounded (VCD_QUEUE_MAX): a direction stuck inside a packet
 * cannot make memory grow; past the bound the oldest record goes out
 * even if it is early, which only changes the order of reporting.
 *
 * What becomes what:
 *   LANE_DLLP / LANE_TLP  a REC_DLLP / REC_TLP record, the bytes as
 *                         received, REC_F_PHY_ERROR when phy_error
 *   LANE_FRAMING, VCD_BAD READER_MALFORMED (capture.malformed) naming the
 *                         time, direction and lane, or the VCD line
 *   LANE_TRAINED          link-up once every mapped direction has sent
 *                         it (at the later one), then recovery after a
 *                         LANE_RETRAIN, once per retrain (when both
 *                         directions retrain, at the later resume), or
 *                         link-up again when port D's training went
 *                         through Polling (lane_packet.h polling); an
 *                         event of the link, written as down (as the
 *                         text traces and samples write them).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "read/lanes/lane_map.h"
#include "read/lanes/lane_sample.h"
#include "read/lanes/reader_vcd.h"
#include "read/lanes/rx128b.h"
#include "read/lanes/rx8b10b.h"
#include "read/lanes/vcd_parse.h"
#include "read/reader.h"
#include "wire/tlp.h"

#define VCD_QUEUE_MAX 8192u
/* the most bytes of a record kept */
#define VCD_RECORD_MAX (TLP_MAX_RECORD_LEN > 4096 ? TLP_MAX_RECORD_LEN : 4096)
#define NO_SLOT 0xFFFFu /* a signal not mapped: never changes, all x */

/* One record (or malformed report) waiting for its turn. */
struct qent {
	bool malformed;
	enum rec_kind kind;
	enum link_dir dir;
	bool has_dir, has_lane;
	bool lost_span; /* see reader_malformed.lost_span */
	unsigned lane;
	uint8_t flags;
	struct lane_pos pos;
	uint8_t *bytes;
	size_t len, cap;
	char reason[200];
};

struct vcd_dir {
	const struct lane_dir_map *map;
	struct rx8b10b *rx8;
	struct rx128b *rx128;
	bool trained, retraining;
	/* what the last sample gave the decoder: a repeat of it gives the
	 * same (on_repeat), without reading the values again */
	unsigned steps; /* 8b/10b: symbol times (0: valid low on every lane) */
	struct lane_sym syms[4][LANE_MAX];
	struct lane_word words[LANE_MAX]; /* 128b/130b */
};

struct vcd_reader {
	FILE *fp;
	const char *name;
	struct vcd_parser *p;
	struct lane_mapping map;
	struct lane_sampler *smp;
	/* the sampler's slot of each mapped signal, numbered from 0 as they
	 * are watched (the sampler's arrays as long as the signals), then
	 * the clock's */
	uint16_t slot[DIR_COUNT][LANE_KEY_COUNT][LANE_MAX];
	unsigned nslots, clock_slot;
	struct vcd_dir dir[DIR_COUNT];
	enum link_dir stepping; /* the direction whose decoder is called */
	bool link_up;
	uint64_t now; /* the time reached in the file */

	struct qent *q; /* a ring of q_cap entries, sorted by (time, dir) */
	size_t q_cap, q_head, q_len;

	uint64_t record_no;
	bool ended; /* the input is read to its end */
	bool fatal;
	struct vcd_error fatal_err;

	void (*observe)(void *ctx, enum link_dir dir, unsigned lane, const struct lane_pos *pos,
	                uint8_t raw, uint8_t descrambled, unsigned flags);
	void *observe_ctx;

	/* repeats of one sample that change nothing (on_repeat) */
	uint64_t reports; /* calls of on_packet so far */
	void *snap[DIR_COUNT]; /* a copy of each decoder's state, made on first use */
	bool plain; /* vcd_reader_plain(): every sample stepped */
};

/* ------------------------------------------------------------------ */
/* The queue */

static struct qent *q_at(struct vcd_reader *vr, size_t i)
{
	return &vr->q[(vr->q_head + i) % vr->q_cap];
}

static bool q_before(const struct qent *a, const struct qent *b)
{
	if (a->pos.time_ps != b->pos.time_ps)
		return a->pos.time_ps < b->pos.time_ps;
	return a->dir < b->dir;
}

/* A free entry at the sorted place of (time, dir); NULL when out of memory. */
static struct qent *q_insert(struct vcd_reader *vr, const struct lane_pos *pos, enum link_dir dir)
{
	if (vr->q_len == vr->q_cap) {
		size_t cap = vr->q_cap ? vr->q_cap * 2 : 16;
		struct qent *nq = calloc(cap, sizeof(*nq));
		if (!nq)
			return NULL;
		for (size_t i = 0; i < vr->q_len; i++)
			nq[i] = *q_at(vr, i);
		/* the unused entries keep their buffers */
		for (size_t i = vr->q_len; i < vr->q_cap; i++)
			nq[i] = *q_at(vr, i);
		free(vr->q);
		vr->q = nq;
		vr->q_cap = cap;
		vr->q_head = 0;
	}
	struct qent key = { .pos = *pos, .dir = dir };
	size_t at = vr->q_len;
	while (at > 0 && q_before(&key, q_at(vr, at - 1)))
		at--;
	/* the free entry at the end, moved to at */
	struct qent spare = *q_at(vr, vr->q_len);
	for (size_t i = vr->q_len; i > at; i--)
		*q_at(vr, i) = *q_at(vr, i - 1);
	struct qent *e = q_at(vr, at);
	*e = spare;
	vr->q_len++;
	e->malformed = false;
	e->has_dir = true;
	e->has_lane = false;
	e->dir = dir;
	e->pos = *pos;
	e->flags = 0;
	e->len = 0;
	e->reason[0] = '\0';
	return e;
}

static bool q_bytes(struct qent *e, const uint8_t *b, size_t n)
{
	if (n > e->cap) {
		uint8_t *nb = realloc(e->bytes, n);
		if (!nb)
			return false;
		e->bytes = nb;
		e->cap = n;
	}
	if (n)
		memcpy(e->bytes, b, n);
	e->len = n;
	return true;
}

/* Whether the other direction may still report a packet that began
 * before e (then e waits). */
static bool q_held(const struct vcd_reader *vr, const struct qent *e)
{
	if (vr->ended || vr->q_len >= VCD_QUEUE_MAX)
		return false;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct vcd_dir *vd = &vr->dir[d];
		struct lane_pos since;
		bool open;
		if (!vd->map->mapped)
			continue;
		open = vd->rx8 ? rx8b10b_open(vd->rx8, &since) : rx128b_open(vd->rx128, &since);
		if (!open)
			continue;
		if (since.time_ps < e->pos.time_ps ||
		    (since.time_ps == e->pos.time_ps && (enum link_dir)d <= e->dir))
			return true;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* From the decoders */

static struct qent *add_malformed(struct vcd_reader *vr, const struct lane_pos *pos, bool has_dir,
                                  enum link_dir dir, bool has_lane, unsigned lane, const char *fmt,
                                  ...) __attribute__((format(printf, 7, 8)));
static struct qent *add_malformed(struct vcd_reader *vr, const struct lane_pos *pos, bool has_dir,
                                  enum link_dir dir, bool has_lane, unsigned lane, const char *fmt,
                                  ...)
{
	struct qent *e = q_insert(vr, pos, has_dir ? dir : DIR_DOWN);
	if (!e)
		return NULL;
	va_list ap;
	e->malformed = true;
	e->lost_span = false;
	e->has_dir = has_dir;
	e->has_lane = has_lane;
	e->lane = lane;
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
	e->kind = 0;
	return e;
}

/* A decoder's reason without its "lane N: " (the reader says it once). */
static const char *lane_reason(const char *why, unsigned lane, const char *none)
{
	char head[16];
	if (!why)
		return none;
	int n = snprintf(head, sizeof(head), "lane %u: ", lane);
	if (n > 0 && strncmp(why, head, (size_t)n) == 0)
		why += n;
	return why;
}

static void add_event(struct vcd_reader *vr, const struct lane_pos *pos, enum link_dir dir,
                      unsigned code)
{
	struct qent *e = q_insert(vr, pos, dir);
	const uint8_t ev[EVENT_LEN] = { (uint8_t)code, 0, 0, 0 };
	if (!e)
		return;
	e->kind = REC_EVENT;
	q_bytes(e, ev, sizeof(ev));
}

static bool all_trained(const struct vcd_reader *vr)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (vr->dir[d].map->mapped && !vr->dir[d].trained)
			return false;
	return true;
}

static bool any_retraining(const struct vcd_reader *vr)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (vr->dir[d].map->mapped && vr->dir[d].retraining)
			return true;
	return false;
}

static void on_packet(void *ctx, const struct lane_packet *pkt)
{
	struct vcd_reader *vr = ctx;
	enum link_dir dir = vr->stepping;
	struct vcd_dir *vd = &vr->dir[dir];
	struct qent *e;

	vr->reports++;

	switch (pkt->kind) {
	case LANE_DLLP:
	case LANE_TLP: {
		/* a packet damaged on the lanes that is no record of its kind
		 * (cut by the end of the capture, an END lost): the decoder's
		 * reason, which says why, rather than the size check's alone */
		struct record r = {
			.kind = pkt->kind == LANE_DLLP ? REC_DLLP : REC_TLP,
			.dir = dir,
			.bytes = pkt->bytes,
			.len = (uint32_t)(pkt->len > UINT32_MAX ? UINT32_MAX : pkt->len),
			.wire_len = (uint32_t)(pkt->len > UINT32_MAX ? UINT32_MAX : pkt->len)
		};
		char why[120];
		if (!record_check(&r, why, sizeof(why))) {
			e = add_malformed(
			        vr, &pkt->pos, true, dir, true, pkt->lane,
			        "%s lane %u, t=" TIME_PS_FMT "s: %s: %s", link_dir_name(dir),
			        pkt->lane, TIME_PS_ARGS(pkt->pos.time_ps),
			        lane_reason(pkt->reason, pkt->lane, "a damaged packet"), why);
			if (e)
				e->kind = r.kind;
			break;
		}
	}
		e = q_insert(vr, &pkt->pos, dir);
		if (!e)
			return;
		e->kind = pkt->kind == LANE_DLLP ? REC_DLLP : REC_TLP;
		e->flags =
		        pkt->phy_error || lane_packet_ending_disagrees(pkt) ? REC_F_PHY_ERROR : 0;
		e->has_lane = true;
		e->lane = pkt->lane;
		if (!q_bytes(e, pkt->bytes, pkt->len > VCD_RECORD_MAX ? VCD_RECORD_MAX : pkt->len))
			e->len = 0;
		break;
	case LANE_TRAINED:
		if (pkt->polling && dir == DIR_DOWN && (vr->link_up || vd->retraining)) {
			/* port D trained from Polling (Link number PAD): Polling
			 * is entered only from Detect, where LinkUp is 0, so the
			 * data link layer went down and initialises again: a
			 * link-up, not a recovery, once every direction trained.
			 * Only port D's TS tell it: an upstream port also sends a
			 * PAD Link number in Configuration, which Recovery may
			 * enter with LinkUp 1 (PCIe Base 4.2.6.3.1) */
			vr->link_up = false;
			for (unsigned d = 0; d < DIR_COUNT; d++) {
				vr->dir[d].trained = !vr->dir[d].retraining;
				vr->dir[d].retraining = false;
			}
		}
		if (vd->retraining) {
			/* a retrain resumed: recovery, once when every direction
			 * that retrained has resumed; also in a capture that began
			 * in the middle of a data stream (no link-up seen), where
			 * the first training is a retrain: the flow-control state
			 * is kept, since nothing shows the link went down */
			vd->retraining = false;
			if (!any_retraining(vr))
				add_event(vr, &pkt->pos, DIR_DOWN, EV_RECOVERY);
		} else if (!vr->link_up) {
			vd->trained = true;
			if (all_trained(vr)) {
				vr->link_up = true;
				add_event(vr, &pkt->pos, DIR_DOWN, EV_LINK_UP);
			}
		}
		break;
	case LANE_RETRAIN:
		/* also when the stream ended in electrical idle (EIOS) first: a
		 * speed change or an L1 exit goes through Recovery that way,
		 * and a link that went down cannot be told from them on the
		 * lanes; recovery keeps the flow-control state, where a link-up
		 * would make every later TLP a TLP before initialisation */
		vd->retraining = true;
		break;
	case LANE_FRAMING: {
		/* "down lane 2, t=...s: why": the decoders' reasons begin
		 * with "lane N: ", said here once */
		const char *why = lane_reason(pkt->reason, pkt->lane, "framing error");
		e = add_malformed(vr, &pkt->pos, true, dir, true, pkt->lane,
		                  "%s lane %u, t=" TIME_PS_FMT "s: %s", link_dir_name(dir),
		                  pkt->lane, TIME_PS_ARGS(pkt->pos.time_ps), why);
		if (e)
			e->lost_span = pkt->lost_span;
		break;
	}
	}
}

static void on_symbol(void *ctx, unsigned lane, const struct lane_pos *pos, uint8_t raw,
                      uint8_t descrambled, unsigned flags)
{
	struct vcd_reader *vr = ctx;
	if (vr->observe)
		vr->observe(vr->observe_ctx, vr->stepping, lane, pos, raw, descrambled, flags);
}

/* ------------------------------------------------------------------ */
/* From the sampler */

static void value_of(const struct vcd_reader *vr, enum link_dir dir, enum lane_key key,
                     unsigned lane, uint64_t *v, uint64_t *u)
{
	lane_sampler_value(vr->smp, vr->slot[dir][key][lane], v, u);
}

/* valid on this lane: 1 when the form has no valid signal; x/z is 0 */
static bool lane_valid(const struct vcd_reader *vr, enum link_dir dir, unsigned lane)
{
	uint64_t v, u;
	if (vr->dir[dir].map->var[LANE_KEY_VALID][lane] == LANE_VAR_NONE)
		return true;
	value_of(vr, dir, LANE_KEY_VALID, lane, &v, &u);
	return !(u & 1) && (v & 1);
}

/* The symbols of the sample into vd->syms, one set per symbol time. */
static void take_8b10b(struct vcd_reader *vr, enum link_dir dir)
{
	struct vcd_dir *vd = &vr->dir[dir];
	const struct lane_dir_map *m = vd->map;
	unsigned nbytes = m->form == LANE_FORM_DATA_K ? m->data_bits / 8 : 1;
	uint64_t dv[LANE_MAX], du[LANE_MAX], kv[LANE_MAX], ku[LANE_MAX];
	bool valid[LANE_MAX];
	bool any_valid = false;
	enum lane_key main = m->form == LANE_FORM_CODE  ? LANE_KEY_CODE
	                     : m->form == LANE_FORM_SYM ? LANE_KEY_SYM
	                                                : LANE_KEY_DATA;
	for (unsigned l = 0; l < m->lanes; l++) {
		value_of(vr, dir, main, l, &dv[l], &du[l]);
		kv[l] = ku[l] = 0;
		if (m->form == LANE_FORM_DATA_K)
			value_of(vr, dir, LANE_KEY_K, l, &kv[l], &ku[l]);
		valid[l] = lane_valid(vr, dir, l);
		any_valid |= valid[l];
	}
	/* valid = 0 on every lane: this edge is no symbol time (a PCLK
	 * faster than the symbols, a stall), not electrical idle, which is
	 * what x/z on a lane says */
	vd->steps = any_valid ? nbytes : 0;
	/* a PIPE word of 16 or 32 bits: 2 or 4 symbol times, byte [7:0]
	 * first, all at the edge's position */
	for (unsigned b = 0; b < vd->steps; b++) {
		for (unsigned l = 0; l < m->lanes; l++) {
			struct lane_sym *s = &vd->syms[b][l];
			s->value = 0;
			s->input = LANE_IN_NONE;
			if (!valid[l])
				continue;
			switch (m->form) {
			case LANE_FORM_CODE:
				if (!(du[l] & 0x3ffu)) {
					s->input = LANE_IN_CODE10;
					s->value = (uint16_t)(dv[l] & 0x3ffu);
				}
				break;
			case LANE_FORM_SYM:
				if (!(du[l] & 0x1ffu)) {
					s->input = LANE_IN_SYMBOL;
					s->value = (uint16_t)(dv[l] & 0x1ffu);
				}
				break;
			default:
				if (!((du[l] >> (8 * b)) & 0xffu) && !((ku[l] >> b) & 1u)) {
					s->input = LANE_IN_SYMBOL;
					s->value = (uint16_t)(((dv[l] >> (8 * b)) & 0xffu) |
					                      (((kv[l] >> b) & 1u) << 8));
				}
				break;
			}
		}
	}
}

/* The words of the sample into vd->words. */
static void take_128b(struct vcd_reader *vr, enum link_dir dir)
{
	struct vcd_dir *vd = &vr->dir[dir];
	const struct lane_dir_map *m = vd->map;
	unsigned nbytes = m->data_bits / 8;
	for (unsigned l = 0; l < m->lanes; l++) {
		uint64_t v, u, sv, su, bv, bu;
		struct lane_word *w = &vd->words[l];
		value_of(vr, dir, LANE_KEY_DATA, l, &v, &u);
		value_of(vr, dir, LANE_KEY_SYNC, l, &sv, &su);
		value_of(vr, dir, LANE_KEY_START, l, &bv, &bu);
		memset(w, 0, sizeof(*w));
		w->nbytes = (uint8_t)nbytes;
		for (unsigned b = 0; b < nbytes; b++)
			w->bytes[b] = (uint8_t)(v >> (8 * b));
		/* x/z in a sync header or start flag: no header, no start */
		w->sync = (su & 3u) ? 0 : (uint8_t)(sv & 3u);
		w->start = !(bu & 1u) && (bv & 1u);
		w->valid = lane_valid(vr, dir, l);
		uint64_t mask = nbytes >= 8 ? ~0ull : (1ull << (8 * nbytes)) - 1;
		w->none = (u & mask) != 0;
	}
}

/* Direction d's decoder, with what take_*() gave it. */
static void feed(struct vcd_reader *vr, enum link_dir d, const struct lane_pos *pos)
{
	struct vcd_dir *vd = &vr->dir[d];
	vr->stepping = d;
	if (vd->rx8) {
		for (unsigned b = 0; b < vd->steps; b++)
			rx8b10b_step(vd->rx8, pos, vd->syms[b]);
	} else {
		rx128b_step(vd->rx128, pos, vd->words);
	}
}

static void on_edge(void *ctx, const struct lane_pos *pos)
{
	struct vcd_reader *vr = ctx;
	for (int d = 0; d < DIR_COUNT; d++) {
		if (!vr->dir[d].map->mapped)
			continue;
		if (vr->dir[d].rx8)
			take_8b10b(vr, (enum link_dir)d);
		else
			take_128b(vr, (enum link_dir)d);
		feed(vr, (enum link_dir)d, pos);
	}
}

/* A sample with the values of the one before: what it gave again. */
static void again(struct vcd_reader *vr, const struct lane_pos *pos)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (vr->dir[d].map->mapped)
			feed(vr, (enum link_dir)d, pos);
}

/* The decoder of vd, whichever it is: its state's size, a copy of it,
 * and whether it is still that copy (rx8b10b.h, rx128b.h). */
static size_t state_size(const struct vcd_dir *vd)
{
	return vd->rx8 ? rx8b10b_state_size(vd->rx8) : rx128b_state_size(vd->rx128);
}

static void state_save(const struct vcd_dir *vd, void *copy)
{
	if (vd->rx8)
		rx8b10b_state_save(vd->rx8, copy);
	else
		rx128b_state_save(vd->rx128, copy);
}

static bool state_same(const struct vcd_dir *vd, const void *copy)
{
	return vd->rx8 ? rx8b10b_state_same(vd->rx8, copy) : rx128b_state_same(vd->rx128, copy);
}

/* The nth repeat of the sample before it (lane_sample.h repeat_fn): the
 * decoders get again what they got (again(), the values are the same).
 * They are pure functions of their state and the symbols (a position is
 * only stored and reported), so a step that reported nothing and left
 * every decoder's state byte for byte as it was is a fixed point, and so
 * is every later repeat.  Checked at the 1st, 2nd, 4th, 8th ... repeat
 * only: a stream that never stands still (a running scrambler) pays for
 * a copy and a compare of the state a logarithmic number of times.  With
 * an observer every symbol is seen, and each step is made. */
static bool on_repeat(void *ctx, const struct lane_pos *pos, uint64_t nth)
{
	struct vcd_reader *vr = ctx;
	if (vr->plain) {
		on_edge(ctx, pos);
		return false;
	}
	if (vr->observe || (nth & (nth - 1)) != 0) {
		again(vr, pos);
		return false;
	}
	for (int d = 0; d < DIR_COUNT; d++) {
		struct vcd_dir *vd = &vr->dir[d];
		if (!vd->map->mapped)
			continue;
		if (!vr->snap[d] && !(vr->snap[d] = malloc(state_size(vd)))) {
			again(vr, pos); /* no memory for the copy: stepped each */
			return false;
		}
		state_save(vd, vr->snap[d]);
	}
	uint64_t reports = vr->reports;
	again(vr, pos);
	if (vr->reports != reports)
		return false;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct vcd_dir *vd = &vr->dir[d];
		if (vd->map->mapped && !state_same(vd, vr->snap[d]))
			return false;
	}
	return true;
}

/* No lane of any direction carries a symbol (a stretch to skip). */
static bool on_idle(void *ctx)
{
	struct vcd_reader *vr = ctx;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct lane_dir_map *m = vr->dir[d].map;
		if (!m->mapped)
			continue;
		enum lane_key main = m->form == LANE_FORM_CODE  ? LANE_KEY_CODE
		                     : m->form == LANE_FORM_SYM ? LANE_KEY_SYM
		                                                : LANE_KEY_DATA;
		for (unsigned l = 0; l < m->lanes; l++) {
			uint64_t v, u;
			value_of(vr, (enum link_dir)d, main, l, &v, &u);
			if (lane_valid(vr, (enum link_dir)d, l) && u == 0)
				return false;
		}
	}
	return true;
}

static uint64_t on_bytes(void *ctx)
{
	return vcd_bytes_read(((struct vcd_reader *)ctx)->p);
}

static void on_gap(void *ctx, const struct lane_pos *pos, uint64_t skipped)
{
	struct vcd_reader *vr = ctx;
	add_malformed(vr, pos, false, DIR_DOWN, false, 0,
	              "t=" TIME_PS_FMT "s: %" PRIu64
	              " more symbol times with nothing changing on the lanes: not decoded "
	              "(at most %u in a row, %u per byte of the file)",
	              TIME_PS_ARGS(pos->time_ps), skipped, LANE_SAMPLE_REPEAT_MAX,
	              LANE_SAMPLE_PER_BYTE);
}

/* ------------------------------------------------------------------ */
/* The reader */

/* Reads on until the queue's head may go, or the input ends. */
static void pump(struct vcd_reader *vr)
{
	uint64_t t;
	struct vcd_change ch;
	struct vcd_error err;
	uint64_t line, off;

	while (!vr->ended && (vr->q_len == 0 || q_held(vr, q_at(vr, 0)))) {
		enum vcd_event ev = vcd_next(vr->p, &t, &ch, &err);
		switch (ev) {
		case VCD_TIME:
			vcd_position(vr->p, &line, &off);
			vr->now = t;
			lane_sampler_time(vr->smp, t, line, off);
			break;
		case VCD_CHANGE:
			lane_sampler_change(vr->smp, &ch);
			break;
		case VCD_BAD: {
			/* at the time reached, so that it comes out in its place */
			struct lane_pos pos = { vr->now, err.line, err.byte_offset };
			add_malformed(vr, &pos, false, DIR_DOWN, false, 0,
			              "VCD line %" PRIu64 ": %s", err.line, err.reason);
			break;
		}
		case VCD_EOF:
		case VCD_FATAL:
			if (ev == VCD_FATAL) {
				vr->fatal = true;
				vr->fatal_err = err;
			}
			lane_sampler_finish(vr->smp);
			for (int d = 0; d < DIR_COUNT; d++) {
				if (!vr->dir[d].map->mapped)
					continue;
				vr->stepping = (enum link_dir)d;
				if (vr->dir[d].rx8)
					rx8b10b_finish(vr->dir[d].rx8);
				else
					rx128b_finish(vr->dir[d].rx128);
			}
			vr->ended = true;
			break;
		}
	}
}

static enum reader_result vcd_reader_next(void *state, struct record *rec,
                                          struct reader_malformed *bad)
{
	struct vcd_reader *vr = state;
	pump(vr);
	if (vr->q_len == 0) {
		if (vr->fatal) {
			vr->fatal = false;
			vr->record_no++;
			memset(&bad->pos, 0, sizeof(bad->pos));
			bad->pos.file = vr->name;
			bad->pos.record_no = vr->record_no;
			bad->pos.line = vr->fatal_err.line;
			bad->pos.byte_offset = vr->fatal_err.byte_offset;
			bad->column = 0;
			snprintf(bad->reason, sizeof(bad->reason), "%.60s: %.130s", vr->name,
			         vr->fatal_err.reason);
			return READER_FATAL;
		}
		return READER_EOF;
	}
	struct qent *e = q_at(vr, 0);
	vr->record_no++;
	struct srcpos pos = { vr->name, vr->record_no, e->pos.byte_offset, e->pos.line, 0, false };
	/* the entry leaves the ring; its buffer stays with the slot */
	vr->q_head = (vr->q_head + 1) % vr->q_cap;
	vr->q_len--;
	if (e->malformed) {
		bad->pos = pos;
		bad->column = 0;
		snprintf(bad->reason, sizeof(bad->reason), "%s", e->reason);
		bad->has_dir = e->has_dir;
		bad->dir = e->dir;
		bad->kind = (uint8_t)e->kind;
		bad->has_lane = e->has_lane;
		bad->lane = e->lane;
		bad->has_time = true;
		bad->time_ps = e->pos.time_ps;
		bad->lost_span = e->lost_span;
		return READER_MALFORMED;
	}
	/* the bytes in the entry's buffer, which stays with its slot of the
	 * ring until an entry is inserted there again: not before the next
	 * call (struct record: "valid until the reader's next call") */
	static const uint8_t no_bytes[1];
	rec->time_ps = e->pos.time_ps;
	rec->time_base_s = 0;
	rec->kind = e->kind;
	rec->dir = e->dir;
	rec->link = 0;
	rec->flags = e->flags;
	rec->bytes = e->len ? e->bytes : no_bytes;
	rec->len = rec->wire_len = (uint32_t)e->len;
	rec->pos = pos;
	return READER_RECORD;
}

static void vcd_reader_close(void *state)
{
	struct vcd_reader *vr = state;
	if (!vr)
		return;
	for (int d = 0; d < DIR_COUNT; d++) {
		rx8b10b_free(vr->dir[d].rx8);
		rx128b_free(vr->dir[d].rx128);
		free(vr->snap[d]);
	}
	lane_sampler_free(vr->smp);
	vcd_free(vr->p);
	for (size_t i = 0; i < vr->q_cap; i++)
		free(vr->q[i].bytes);
	free(vr->q);
	if (vr->fp)
		fclose(vr->fp);
	free(vr);
}

static void vcd_reader_bytes(void *state, uint64_t *read, uint64_t *skipped)
{
	const struct vcd_reader *vr = state;
	*read = vcd_bytes_read(vr->p);
	*skipped = 0;
}

const struct reader_ops vcd_reader_ops = {
	.format_name = "vcd",
	.next = vcd_reader_next,
	.close = vcd_reader_close,
	.bytes = vcd_reader_bytes,
};

static bool watch_all(struct vcd_reader *vr)
{
	unsigned n = 0;
	for (int d = 0; d < DIR_COUNT; d++) {
		const struct lane_dir_map *m = &vr->map.dir[d];
		for (int k = 0; k < LANE_KEY_COUNT; k++)
			for (unsigned l = 0; l < LANE_MAX; l++) {
				vr->slot[d][k][l] = NO_SLOT;
				if (!m->mapped || l >= m->lanes || m->var[k][l] == LANE_VAR_NONE)
					continue;
				vr->slot[d][k][l] = (uint16_t)n;
				if (!vcd_watch(vr->p, m->var[k][l], n++))
					return false;
			}
	}
	vr->clock_slot = LANE_SAMPLE_NO_CLOCK;
	if (vr->map.clock != LANE_VAR_NONE) {
		vr->clock_slot = n;
		if (!vcd_watch(vr->p, vr->map.clock, n++))
			return false;
	}
	vr->nslots = n;
	return true;
}

static bool make_decoders(struct vcd_reader *vr, const struct lane_options *o)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		struct vcd_dir *vd = &vr->dir[d];
		vd->map = &vr->map.dir[d];
		if (!vd->map->mapped)
			continue;
		if (vd->map->form == LANE_FORM_128B) {
			struct rx128b_config c = { vd->map->lanes, on_packet, on_symbol, vr };
			vd->rx128 = rx128b_new(&c);
			if (!vd->rx128)
				return false;
		} else {
			struct rx8b10b_config c = { vd->map->lanes, o->scrambling, on_packet,
				                    on_symbol, vr };
			vd->rx8 = rx8b10b_new(&c);
			if (!vd->rx8)
				return false;
		}
	}
	return true;
}

void *vcd_reader_new(FILE *fp, const char *name, const struct lane_options *opts, char *err,
                     size_t errlen)
{
	struct lane_options defaults;
	struct vcd_error verr;
	if (!opts) {
		lane_options_init(&defaults);
		opts = &defaults;
	}
	struct vcd_reader *vr = calloc(1, sizeof(*vr));
	if (!vr) {
		snprintf(err, errlen, "%s: out of memory", name);
		fclose(fp);
		return NULL;
	}
	vr->fp = fp;
	vr->name = name;
	vr->p = vcd_new(fp, name);
	if (!vr->p) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto fail;
	}
	if (!vcd_read_header(vr->p, &verr)) {
		snprintf(err, errlen, "%s:%" PRIu64 ": VCD header: %s", name, verr.line,
		         verr.reason);
		goto fail;
	}
	char merr[400];
	if (!lane_map_build(opts, vr->p, &vr->map, merr, sizeof(merr))) {
		snprintf(err, errlen, "%s: %s", name, merr);
		goto fail;
	}
	if (!make_decoders(vr, opts) || !watch_all(vr)) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto fail;
	}
	struct lane_sampler_config sc = {
		.slots = vr->nslots ? vr->nslots : 1,
		.clock_slot = vr->clock_slot,
		.edge = vr->map.edge,
		.period_ps = vr->map.period_ps,
		.edge_fn = on_edge,
		.idle_fn = on_idle,
		.gap_fn = on_gap,
		.bytes_fn = on_bytes,
		.repeat_fn = on_repeat,
		.ctx = vr,
	};
	vr->smp = lane_sampler_new(&sc);
	if (!vr->smp) {
		snprintf(err, errlen, "%s: out of memory", name);
		goto fail;
	}
	return vr;
fail:
	vcd_reader_close(vr);
	return NULL;
}

const struct lane_mapping *vcd_reader_mapping(const void *state)
{
	return &((const struct vcd_reader *)state)->map;
}

const struct vcd_parser *vcd_reader_parser(const void *state)
{
	return ((const struct vcd_reader *)state)->p;
}

void vcd_reader_observe(void *state,
                        void (*fn)(void *ctx, enum link_dir dir, unsigned lane,
                                   const struct lane_pos *pos, uint8_t raw, uint8_t descrambled,
                                   unsigned flags),
                        void *ctx)
{
	struct vcd_reader *vr = state;
	vr->observe = fn;
	vr->observe_ctx = ctx;
}

void vcd_reader_plain(void *state)
{
	((struct vcd_reader *)state)->plain = true;
}

uint64_t vcd_reader_skipped(const void *state)
{
	return lane_sampler_skipped(((const struct vcd_reader *)state)->smp);
}
