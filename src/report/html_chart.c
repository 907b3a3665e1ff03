/* html_chart.c: the charts of the HTML report: the bucket collector and
 * the charts of an input (html_chart.h, html-contract.md). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/number.h"
#include "report/html_chart.h"
#include "report/text_out.h"

/* ---- the collector -------------------------------------------------------- */

/* Out of line, to keep the common path free of calls (not COLD_PATH:
 * a value in six takes it, and cold code is made small, not fast). */
#if defined(__GNUC__) || defined(__clang__)
#define OUT_OF_LINE __attribute__((noinline))
#else
#define OUT_OF_LINE
#endif

/* A bucket nothing was told in: no known value (min and max neutral),
 * all zero but its min.  Stored a field each, not by copying a struct: in
 * a sanitizer build each copy is a call of __asan_memcpy. */
static inline void bucket_clear(struct html_bucket *b)
{
	b->min = UINT32_MAX;
	b->max = 0;
	b->last = 0;
	b->updates = 0;
	b->flags = 0;
	b->seen = false;
	b->any_known = false;
	b->last_known = false;
}

void html_series_init(struct html_series *s, uint64_t t0)
{
	/* the header only: no bucket is held yet */
	memset(s, 0, offsetof(struct html_series, at));
	s->t0 = t0;
	s->bucket_ps = 1;
}

/* The flags a value sets in every bucket it holds in. */
static uint8_t value_flags(const struct html_value *v)
{
	return (uint8_t)((v->uncertain ? HTML_F_UNCERTAIN : 0) |
	                 (v->kind == HV_KNOWN      ? 0
	                  : v->kind == HV_INFINITE ? HTML_F_INFINITE
	                                           : HTML_F_UNKNOWN));
}

/* What b held, then a value held in it (b is seen).  No test of
 * any_known: an empty bucket's min and max are neutral. */
static inline void bucket_apply(struct html_bucket *b, const struct html_value *v)
{
	b->flags |= value_flags(v);
	bool known = v->kind == HV_KNOWN;
	if (known) {
		uint32_t x = v->value;
		b->min = x < b->min ? x : b->min;
		b->max = x > b->max ? x : b->max;
		b->last = x;
		b->any_known = true;
	}
	b->last_known = known;
}

/* Two seen buckets, a before b, as one: what a bucket as wide as both
 * would have held (b's last value, a carried-in value counted in a).
 * Of buckets a and b of which one was never seen, the other alone is
 * the merge; merging is associative, so that buckets merged pairwise k
 * times are those of a run of 2^k merged in order. */
static inline void bucket_merge_into(struct html_bucket *a, const struct html_bucket *b)
{
	a->min = b->min < a->min ? b->min : a->min;
	a->max = b->max > a->max ? b->max : a->max;
	a->last = b->last;
	a->last_known = b->last_known;
	a->any_known |= b->any_known;
	a->flags |= b->flags;
	a->updates = a->updates > UINT32_MAX - b->updates ? UINT32_MAX : a->updates + b->updates;
}

/* Divides the resolution by 2^shift: buckets k 2^shift .. (k + 1)
 * 2^shift - 1 become bucket k (as shift halvings would make it). */
static void series_merge(struct html_series *s, unsigned shift)
{
	unsigned out = 0;
	for (unsigned i = 0; i < s->n; i++) {
		/* (a bucket index is below 2^11: 16 halvings or more leave 0) */
		unsigned k = shift < 16 ? (unsigned)s->at[i] >> shift : 0;
		if (out > 0 && s->at[out - 1] == k) {
			bucket_merge_into(&s->b[out - 1], &s->b[i]);
			continue;
		}
		if (out != i) {
			struct html_bucket *to = &s->b[out], *from = &s->b[i];
			to->min = from->min;
			to->max = from->max;
			to->last = from->last;
			to->updates = from->updates;
			to->flags = from->flags;
			to->seen = true;
			to->any_known = from->any_known;
			to->last_known = from->last_known;
		}
		s->at[out++] = (uint16_t)k;
	}
	s->n = out;
	s->top = out ? (unsigned)s->at[out - 1] + 1 : 0;
	s->bucket_ps <<= shift;
	s->cur = shift < 16 ? s->cur >> shift : 0;
	s->cur_width = 0;
}

/* The place in b[] of bucket k, or where it would go. */
static unsigned series_find(const struct html_series *s, unsigned k)
{
	unsigned lo = 0, hi = s->n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (s->at[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Bucket k held (not seen yet, when it was not), at place *pos. */
static struct html_bucket *series_hold(struct html_series *s, unsigned k, unsigned *pos)
{
	unsigned i = s->n;
	if (i > 0 && s->at[i - 1] >= k) {
		/* a time not after the last one's (rare: times do not go back) */
		i = series_find(s, k);
		if (s->at[i] == k) {
			*pos = i;
			return &s->b[i];
		}
		memmove(&s->at[i + 1], &s->at[i], (s->n - i) * sizeof(s->at[0]));
		memmove(&s->b[i + 1], &s->b[i], (s->n - i) * sizeof(s->b[0]));
	}
	s->n++;
	s->at[i] = (uint16_t)k;
	bucket_clear(&s->b[i]);
	*pos = i;
	return &s->b[i];
}

/* The bucket of time t when it is not the current one: widens the
 * buckets until t is in one; on first use it holds the value carried
 * in. */
static OUT_OF_LINE struct html_bucket *series_move(struct html_series *s, uint64_t t)
{
	uint64_t d = t > s->t0 ? t - s->t0 : 0;
	/* bucket_ps stays below 2^54: d / 2^53 < 2048 for any 64-bit d */
	unsigned shift = 0;
	while ((d / s->bucket_ps >> shift) >= HTML_BUCKETS)
		shift++;
	if (shift)
		series_merge(s, shift);
	s->cur = (unsigned)(d / s->bucket_ps);
	if (s->cur >= s->top)
		s->top = s->cur + 1;
	struct html_bucket *b = series_hold(s, s->cur, &s->pos);
	if (!b->seen && s->has_value)
		bucket_apply(b, &s->now);
	b->seen = true;
	/* t0 + cur * bucket_ps <= t0 + d <= t: no overflow */
	s->cur_start = s->t0 + (uint64_t)s->cur * s->bucket_ps;
	s->cur_width = s->bucket_ps;
	return b;
}

/* The bucket of time t: most values fall in the bucket of the one
 * before (a time before it wraps the difference: moved too). */
static inline struct html_bucket *series_bucket(struct html_series *s, uint64_t t)
{
	if (t - s->cur_start < s->cur_width)
		return &s->b[s->pos];
	return series_move(s, t);
}

static inline void series_set(struct html_series *s, uint64_t t, const struct html_value *v)
{
	bucket_apply(series_bucket(s, t), v);
	s->now = *v;
	s->has_value = true;
}

void html_series_set(struct html_series *s, uint64_t t, const struct html_value *v)
{
	series_set(s, t, v);
}

void html_series_update(struct html_series *s, uint64_t t)
{
	struct html_bucket *b = series_bucket(s, t);
	if (b->updates < UINT32_MAX)
		b->updates++;
}

unsigned html_series_span(const struct html_series *s)
{
	/* the last bucket held is seen */
	return s->n ? (unsigned)s->at[s->n - 1] + 1 : 0;
}

const struct html_bucket *html_series_bucket(const struct html_series *s, unsigned k)
{
	static const struct html_bucket empty = { .min = UINT32_MAX };
	unsigned i = series_find(s, k);
	return i < s->n && s->at[i] == k ? &s->b[i] : &empty;
}

void html_series_copy(struct html_series *to, const struct html_series *from)
{
	memcpy(to, from, offsetof(struct html_series, at));
	memcpy(to->at, from->at, from->n * sizeof(from->at[0]));
	memcpy(to->b, from->b, from->n * sizeof(from->b[0]));
}

/* ---- the charts of an input ---------------------------------------------- */

/* One transmitter's series of a chart, and what its next values are
 * compared with. */
struct html_trace {
	struct html_series series;
	uint8_t width; /* the largest seen */
	bool limit_known;
	bool limit_uncertain;
	uint32_t limit;
};

struct html_chart {
	uint8_t link, vc, ct;
	struct html_trace *trace[DIR_COUNT];
};

struct html_charts *html_charts_new(void)
{
	/* the marks are made as findings come (most inputs have few) */
	return calloc(1, sizeof(struct html_charts));
}

void html_charts_free(struct html_charts *cs)
{
	if (!cs)
		return;
	for (unsigned i = 0; i < cs->count; i++) {
		for (unsigned p = 0; p < DIR_COUNT; p++)
			free(cs->charts[i]->trace[p]);
		free(cs->charts[i]);
	}
	for (unsigned l = 0; l < FC_LINK_COUNT; l++)
		if (cs->per_link[l])
			free(cs->per_link[l]);
	free(cs->marks);
	free(cs);
}

void html_charts_time(struct html_charts *cs, uint64_t t_ps)
{
	if (!cs->has_t0) {
		cs->t0 = t_ps;
		cs->has_t0 = true;
	}
}

/* What the charts keep of a link, made (nothing of it yet) when it was
 * not; NULL when out of memory (out_of_memory set). */
static struct html_charts_link *link_get(struct html_charts *cs, unsigned link)
{
	struct html_charts_link *l = cs->per_link[link];
	if (!l) {
		l = calloc(1, sizeof(*l));
		if (!l)
			cs->out_of_memory = true;
		cs->per_link[link] = l;
	}
	return l;
}

/* The chart of link, vc and ct, made when make; NULL when there is none
 * (or no room: counted once as dropped). */
static struct html_chart *chart_get(struct html_charts *cs, unsigned link, unsigned vc,
                                    enum credit_type ct, bool make)
{
	struct html_charts_link *l = cs->per_link[link];
	if (!l && make)
		l = link_get(cs, link);
	if (!l)
		return NULL;
	int16_t *slot = &l->slot[vc][ct];
	if (*slot > 0)
		return cs->charts[*slot - 1];
	if (*slot < 0 || !make)
		return NULL;
	struct html_chart *c = NULL;
	if (cs->count < HTML_CHARTS_MAX) {
		c = calloc(1, sizeof(*c));
		if (!c)
			cs->out_of_memory = true;
	}
	if (!c) {
		*slot = -1;
		cs->dropped++;
		return NULL;
	}
	c->link = (uint8_t)link;
	c->vc = (uint8_t)vc;
	c->ct = (uint8_t)ct;
	cs->charts[cs->count++] = c;
	*slot = (int16_t)cs->count;
	return c;
}

static struct html_value value_of(const struct fc_probe_credit *c, bool uncertain)
{
	struct html_value v = { HV_UNKNOWN, uncertain, 0 };
	if (c->infinite)
		v.kind = HV_INFINITE;
	else if (c->available_known) {
		v.kind = HV_KNOWN;
		v.value = c->available;
	}
	return v;
}

/* The limit moved forward: (new - old) mod 2^N in 1..2^N/2, the window
 * in which an UpdateFC is not a regress [spec-digest 5.4, rules.md
 * fc.update.regress]; from unknown to known counts too. */
static bool limit_raised(const struct html_trace *tr, const struct fc_probe_credit *c)
{
	if (!c->limit_known || c->infinite)
		return false;
	if (!tr->limit_known)
		return true;
	unsigned w = c->width ? c->width : 8;
	uint32_t mask = w >= 32 ? UINT32_MAX : (1u << w) - 1;
	uint32_t d = (c->limit - tr->limit) & mask;
	return d != 0 && d <= (mask >> 1) + 1;
}

static bool fc_dllp_at(const struct timeline_at *at)
{
	return at->pkt && at->pkt->rec->kind == REC_DLLP && dllp_is_fc(at->pkt->u.dllp.type);
}

/* The series of link, vc, ct and port, made at the credit's first limit
 * (an InitFC or an UpdateFC seen): a VC never advertised has nothing to
 * draw.  NULL while there is none. */
static struct html_trace *trace_make(struct html_charts *cs, const struct timeline_at *at,
                                     unsigned vc, enum link_dir port, enum credit_type ct,
                                     const struct fc_probe_credit *c)
{
	bool has = c->limit_known || c->infinite;
	struct html_chart *ch = chart_get(cs, at->link, vc, ct, has);
	if (!ch)
		return NULL;
	struct html_trace *tr = ch->trace[port];
	if (!tr) {
		if (!has)
			return NULL;
		tr = malloc(sizeof(*tr));
		if (!tr) {
			cs->out_of_memory = true;
			return NULL;
		}
		html_series_init(&tr->series, cs->t0);
		tr->width = 0;
		tr->limit_known = false;
		ch->trace[port] = tr;
	}
	/* (the chart's link is kept: chart_get made it) */
	cs->per_link[at->link]->trace[vc][ct][port] = tr;
	return tr;
}

/* What a value told to tr changes besides its series: the width, and
 * the limit its next values are compared with; true when an InitFC or
 * UpdateFC raised the limit (an update on the chart). */
static inline bool trace_note(struct html_trace *tr, const struct timeline_at *at,
                              const struct fc_probe_credit *c)
{
	if (c->width > tr->width)
		tr->width = c->width;
	bool raised = fc_dllp_at(at) && limit_raised(tr, c);
	tr->limit_known = c->limit_known && !c->infinite;
	tr->limit = c->limit;
	tr->limit_uncertain = c->limit_uncertain;
	return raised;
}

/* A value in another bucket than the last, or with an update (the same
 * as html_series_set() and html_series_update() at t, in either order). */
static OUT_OF_LINE void trace_tell_moved(struct html_series *s, uint64_t t, struct html_value v,
                                         bool raised)
{
	series_set(s, t, &v);
	if (raised)
		html_series_update(s, t);
}

/* A value of c's to tr: most land in the bucket of the one before, and
 * take no call. */
static inline void trace_tell(struct html_trace *tr, const struct timeline_at *at,
                              const struct fc_probe_credit *c, bool lag)
{
	bool raised = trace_note(tr, at, c);
	struct html_value v = value_of(c, c->limit_uncertain || lag);
	struct html_series *s = &tr->series;
	if (at->time_ps - s->cur_start >= s->cur_width) {
		trace_tell_moved(s, at->time_ps, v, raised);
		return;
	}
	struct html_bucket *b = &s->b[s->pos];
	bucket_apply(b, &v);
	if (raised && b->updates < UINT32_MAX)
		b->updates++;
	s->now = v;
	s->has_value = true;
}

/* A value of a series not made yet (or never to be): once made, told
 * as the next ones are. */
static OUT_OF_LINE void credit_first(struct html_charts *cs, const struct timeline_at *at,
                                     unsigned vc, enum link_dir port, enum credit_type ct,
                                     const struct fc_probe_credit *c)
{
	html_charts_time(cs, at->time_ps);
	if (trace_make(cs, at, vc, port, ct, c))
		html_charts_credit(cs, at, vc, port, ct, c);
}

void html_charts_credit(struct html_charts *cs, const struct timeline_at *at, unsigned vc,
                        enum link_dir port, enum credit_type ct, const struct fc_probe_credit *c)
{
	if (at->link >= FC_LINK_COUNT || vc >= FC_VC_COUNT || ct >= CT_COUNT || port >= DIR_COUNT)
		return;
	/* (a series made means the time was told before) */
	const struct html_charts_link *l = cs->per_link[at->link];
	struct html_trace *tr = l ? l->trace[vc][ct][port] : NULL;
	if (!tr) {
		credit_first(cs, at, vc, port, ct, c);
		return;
	}
	trace_tell(tr, at, c, l->lag[port]);
}

void html_charts_lag(struct html_charts *cs, const struct timeline_at *at, enum link_dir port,
                     bool may_lag)
{
	if (at->link >= FC_LINK_COUNT || port >= DIR_COUNT)
		return;
	if (!cs->has_t0)
		html_charts_time(cs, at->time_ps);
	uint8_t lag = may_lag;
	struct html_charts_link *l = cs->per_link[at->link];
	/* (a link with nothing kept lags nowhere) */
	if (lag == (l ? l->lag[port] : 0))
		return;
	if (!l && !(l = link_get(cs, at->link)))
		return;
	l->lag[port] = lag;
	/* CC of every VC of this transmitter may lag from now (or no more) */
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		for (unsigned ct = 0; ct < CT_COUNT; ct++) {
			struct html_trace *tr = l->trace[vc][ct][port];
			if (!tr || !tr->series.has_value)
				continue;
			struct html_value v = tr->series.now;
			v.uncertain = lag || tr->limit_uncertain;
			series_set(&tr->series, at->time_ps, &v);
		}
}

/* The transmitter whose credits a finding is about: the record's sender
 * (a TLP's), except for the findings at an InitFC or UpdateFC, the rules
 * fc.adv.* and fc.update.* (rules.md): its sender is the receiver, and
 * what it advertises is its partner's transmitter's limit. */
static int credit_owner(const struct finding *f)
{
	const char *id = rule_info(f->rule)->id;
	if (strncmp(id, "fc.adv.", 7) == 0 || strncmp(id, "fc.update.", 10) == 0)
		return f->port == DIR_DOWN ? DIR_UP : DIR_DOWN;
	return f->port;
}

bool html_mark_of(const struct finding *f, uint64_t t_ps, uint32_t index, struct html_mark *out)
{
	if (f->link < 0 || f->link >= FC_LINK_COUNT || f->port == FINDING_NO_PORT || f->port < 0 ||
	    f->port >= DIR_COUNT || f->vc == FINDING_NO_VC || f->vc < 0 || f->vc >= FC_VC_COUNT ||
	    f->credit_type == FINDING_NO_CREDIT || f->credit_type < 0 || f->credit_type >= CT_COUNT)
		return false;
	*out = (struct html_mark){ t_ps,
		                   index,
		                   (uint8_t)f->link,
		                   (uint8_t)f->vc,
		                   (uint8_t)f->credit_type,
		                   (uint8_t)credit_owner(f) };
	return true;
}

/* Room for n marks more (mark_count + n at most HTML_FINDINGS_MAX): the
 * array grows, doubled from 64; false (out_of_memory set) when it cannot. */
static bool marks_room(struct html_charts *cs, unsigned n)
{
	struct html_mark *marks = grow_to(cs->marks, &cs->marks_size, (size_t)cs->mark_count + n,
	                                  sizeof(*marks), 64, HTML_FINDINGS_MAX);
	if (!marks) {
		cs->out_of_memory = true;
		return false;
	}
	cs->marks = marks;
	return true;
}

void html_charts_mark(struct html_charts *cs, const struct finding *f, uint64_t t_ps,
                      uint32_t index)
{
	struct html_mark m;
	if (cs->mark_count < HTML_FINDINGS_MAX && html_mark_of(f, t_ps, index, &m) &&
	    marks_room(cs, 1))
		cs->marks[cs->mark_count++] = m;
}

static int chart_cmp(const void *pa, const void *pb)
{
	const struct html_chart *a = *(const struct html_chart *const *)pa;
	const struct html_chart *b = *(const struct html_chart *const *)pb;
	unsigned ka = (unsigned)a->link << 16 | (unsigned)a->vc << 8 | a->ct;
	unsigned kb = (unsigned)b->link << 16 | (unsigned)b->vc << 8 | b->ct;
	return ka < kb ? -1 : ka > kb;
}

unsigned html_charts_sort(struct html_charts *cs)
{
	qsort(cs->charts, cs->count, sizeof(cs->charts[0]), chart_cmp);
	/* the slots name the new places (the series stay where they are) */
	for (unsigned i = 0; i < cs->count; i++) {
		const struct html_chart *ch = cs->charts[i];
		cs->per_link[ch->link]->slot[ch->vc][ch->ct] = (int16_t)(i + 1);
	}
	return cs->count;
}

/* ---- the charts as JSON text ------------------------------------------------
 * Written by hand, not built as Jansson values: a chart is numbers and
 * fixed names only, and up to 2 x 2048 points of five numbers each would
 * make some 25 000 values per chart to build, dump and free.  Every
 * byte still goes through the block's escaper. */

/* a number, or null when !known */
static void out_num(struct text_out *o, bool known, uint64_t v)
{
	if (o->len + NUMBER_U64_DIGITS > sizeof(o->buf))
		text_out_flush(o);
	if (!known) {
		memcpy(o->buf + o->len, "null", 4);
		o->len += 4;
		return;
	}
	o->len = (size_t)(number_put_u64(o->buf + o->len, v) - o->buf);
}

/* key and number: ",\"key\":N" */
static void out_key_num(struct text_out *o, const char *key, uint64_t v)
{
	text_out_str(o, key);
	out_num(o, true, v);
}

static void series_write(struct text_out *o, const struct html_charts *cs,
                         const struct html_chart *ch, unsigned port)
{
	const struct html_trace *tr = ch->trace[port];
	const struct html_series *s = &tr->series;
	text_out_str(o, "{\"port\":\"");
	text_out_str(o, link_dir_name((enum link_dir)port));
	out_key_num(o, "\",\"width\":", tr->width);
	out_key_num(o, ",\"bucket_ps\":", s->bucket_ps);
	for (unsigned pass = 0; pass < 2; pass++) {
		/* the points, then the updates of the same buckets (those
		 * held, every one seen) */
		text_out_str(o, pass ? "],\"updates\":[" : ",\"points\":[");
		const char *sep = "[";
		for (unsigned i = 0; i < s->n; i++) {
			const struct html_bucket *b = &s->b[i];
			if (pass && !b->updates)
				continue;
			out_key_num(o, sep, s->t0 + (uint64_t)s->at[i] * s->bucket_ps);
			sep = ",[";
			if (pass) {
				out_key_num(o, ",", b->updates);
			} else {
				text_out_str(o, ",");
				out_num(o, b->any_known, b->min);
				text_out_str(o, ",");
				out_num(o, b->any_known, b->max);
				text_out_str(o, ",");
				out_num(o, b->last_known, b->last);
				out_key_num(o, ",", b->flags);
			}
			text_out_str(o, "]");
		}
	}
	text_out_str(o, "],\"findings\":[");
	const char *sep = "[";
	for (unsigned i = 0; i < cs->mark_count; i++) {
		const struct html_mark *m = &cs->marks[i];
		if (m->link != ch->link || m->vc != ch->vc || m->ct != ch->ct || m->port != port)
			continue;
		out_key_num(o, sep, m->t_ps);
		sep = ",[";
		out_key_num(o, ",", m->index);
		text_out_str(o, "]");
	}
	text_out_str(o, "]}");
}

void html_charts_write(const struct html_charts *cs, unsigned i,
                       int (*put)(const char *, size_t, void *), void *data)
{
	if (i >= cs->count)
		return;
	const struct html_chart *ch = cs->charts[i];
	struct text_out o = { .put = put, .data = data, .len = 0 };
	out_key_num(&o, "{\"link\":", ch->link);
	out_key_num(&o, ",\"vc\":", ch->vc);
	text_out_str(&o, ",\"type\":\"");
	text_out_str(&o, credit_type_name((enum credit_type)ch->ct));
	text_out_str(&o, "\",\"series\":[");
	const char *sep = "";
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		if (!ch->trace[p])
			continue;
		text_out_str(&o, sep);
		sep = ",";
		series_write(&o, cs, ch, p);
	}
	text_out_str(&o, "]}");
	text_out_flush(&o);
}

/* ---- a chart read back ------------------------------------------------------
 * The inverse of series_write: a point's time names its bucket (t0 +
 * k * bucket_ps), its numbers the bucket's known values and flags. */

bool html_series_put_point(struct html_series *s, uint64_t t, const struct html_bucket *b)
{
	if (t < s->t0 || (t - s->t0) % s->bucket_ps != 0)
		return false;
	uint64_t k = (t - s->t0) / s->bucket_ps;
	if (k >= HTML_BUCKETS || k < s->top)
		return false;
	/* after every bucket held: the last one */
	struct html_bucket *to = &s->b[s->n];
	s->at[s->n++] = (uint16_t)k;
	*to = *b;
	to->seen = true;
	if (!to->any_known) {
		/* as a bucket with no known value holds them */
		to->min = UINT32_MAX;
		to->max = 0;
	}
	s->top = (unsigned)k + 1;
	return true;
}

bool html_series_put_update(struct html_series *s, uint64_t t, uint32_t n, unsigned *after)
{
	if (t < s->t0 || (t - s->t0) % s->bucket_ps != 0 || n == 0)
		return false;
	uint64_t k = (t - s->t0) / s->bucket_ps;
	if (k >= s->top || k < *after)
		return false;
	unsigned i = series_find(s, (unsigned)k);
	if (i >= s->n || s->at[i] != k || s->b[i].updates)
		return false;
	s->b[i].updates = n;
	*after = (unsigned)k + 1;
	return true;
}

void html_chart_copy_clear(struct html_chart_copy *c)
{
	c->link = c->vc = c->ct = 0;
	c->mark_count = 0;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		c->has[p] = false;
		c->width[p] = 0;
		html_series_init(&c->series[p], 0);
	}
}

bool html_charts_put(struct html_charts *cs, const struct html_chart_copy *c)
{
	/* (link is a uint8_t: every value is a link) */
	if (cs->count >= HTML_CHARTS_MAX || c->vc >= FC_VC_COUNT || c->ct >= CT_COUNT ||
	    cs->mark_count + c->mark_count > HTML_FINDINGS_MAX) {
		cs->out_of_memory = true;
		return false;
	}
	if (!marks_room(cs, c->mark_count))
		return false;
	struct html_charts_link *l = link_get(cs, c->link);
	if (!l)
		return false;
	struct html_chart *ch = calloc(1, sizeof(*ch));
	if (!ch) {
		cs->out_of_memory = true;
		return false;
	}
	ch->link = c->link;
	ch->vc = c->vc;
	ch->ct = c->ct;
	cs->charts[cs->count++] = ch;
	l->slot[c->vc][c->ct] = (int16_t)cs->count;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		if (!c->has[p])
			continue;
		/* (the buckets held only: a series is some 45 KiB) */
		struct html_trace *tr = malloc(sizeof(*tr));
		if (!tr) {
			cs->out_of_memory = true;
			return false;
		}
		html_series_copy(&tr->series, &c->series[p]);
		tr->width = c->width[p];
		tr->limit_known = false;
		tr->limit_uncertain = false;
		tr->limit = 0;
		ch->trace[p] = tr;
	}
	if (c->mark_count)
		memcpy(cs->marks + cs->mark_count, c->marks, c->mark_count * sizeof(*c->marks));
	cs->mark_count += c->mark_count;
	return true;
}
