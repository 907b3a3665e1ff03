/* html_chart.h: the charts of the HTML report (html-contract.md, INPUT
 * "charts"): per link, VC and credit type, for each transmitting port,
 * the credits available over time as a bounded number of time buckets.
 *
 * A series holds at most HTML_BUCKETS buckets of bucket_ps each from its
 * origin; when time outgrows them, adjacent buckets are merged pairwise
 * and bucket_ps doubles, so memory is fixed whatever the capture's
 * length.  A bucket keeps the min, max and last of the values that held
 * in it (the value carried in from before it counts), flags, and the
 * UpdateFCs that raised the limit in it.  Merging is exact: a merged
 * bucket is what a bucket of twice the width would have held.
 *
 * The charts of an input: at most HTML_CHARTS_MAX (the rest counted),
 * made at the first limit (or infinite advertisement) of a credit of
 * theirs; finding markers at most HTML_FINDINGS_MAX (the findings the
 * page shows). */
#ifndef DLLPCHECK_HTML_CHART_H
#define DLLPCHECK_HTML_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/fc_probe.h"
#include "report/html_escape.h"
#include "report/timeline.h"

#define HTML_BUCKETS 2048
#define HTML_CHARTS_MAX 256
#define HTML_FINDINGS_MAX 10000

/* The flags of a point (html-contract.md) */
#define HTML_F_UNKNOWN 1u /* some time in the bucket the value was unknown */
#define HTML_F_INFINITE 2u /* some time in it the credits were infinite */
#define HTML_F_UNCERTAIN 4u /* a damaged packet may have changed CL or CC */

enum html_value_kind { HV_UNKNOWN, HV_INFINITE, HV_KNOWN };

/* One value of a series: the credits available, or why there is none. */
struct html_value {
	uint8_t kind; /* enum html_value_kind */
	bool uncertain;
	uint32_t value; /* HV_KNOWN: (CL - CC) mod 2^N */
};

struct html_bucket {
	/* of the known values (any_known, last_known); a bucket with none
	 * holds min UINT32_MAX and max 0, so a value or a merge needs no
	 * test of any_known */
	uint32_t min, max, last;
	uint32_t updates;
	uint8_t flags; /* HTML_F_* */
	bool seen; /* a value was told in it, or an update */
	bool any_known, last_known;
};

/* One transmitter's credits of one type over time: the collector.  Only
 * the buckets seen are held, in the order of their times: b[i] is bucket
 * at[i] (the one from t0 + at[i] * bucket_ps), at[] rising, for i below
 * n.  A new series is its header only (no bucket to clear), and a merge,
 * a point written or a bucket looked up costs by the buckets seen, not
 * by HTML_BUCKETS. */
struct html_series {
	uint64_t t0; /* the origin: bucket k starts at t0 + k * bucket_ps */
	uint64_t bucket_ps;
	unsigned cur; /* the bucket of the latest time told (a cache) */
	unsigned pos; /* and its place in b[] (while cur_width > 0) */
	unsigned top; /* one past the last bucket seen (0: none yet) */
	unsigned n; /* the buckets seen */
	/* the times t with t - cur_start < cur_width are in bucket cur, which
	 * is seen: a value there needs no division; cur_width 0 after a merge
	 * or before the first time (kept by subtraction: no overflow) */
	uint64_t cur_start, cur_width;
	bool has_value; /* now holds the value in force */
	struct html_value now;
	uint16_t at[HTML_BUCKETS];
	struct html_bucket b[HTML_BUCKETS];
};

/* A series from t0 with buckets of 1 ps (they widen as time needs). */
void html_series_init(struct html_series *s, uint64_t t0);
/* The value from time t (t >= the previous call's; times before t0 count
 * as t0). */
void html_series_set(struct html_series *s, uint64_t t, const struct html_value *v);
/* An UpdateFC (or InitFC) that raised the limit, at time t. */
void html_series_update(struct html_series *s, uint64_t t);
/* The number of buckets that can hold a point: those below the last
 * one seen, plus one. */
unsigned html_series_span(const struct html_series *s);
/* Bucket k (below HTML_BUCKETS) of s: an empty one (not seen, min
 * UINT32_MAX, all else zero) when it was not seen. */
const struct html_bucket *html_series_bucket(const struct html_series *s, unsigned k);
/* *to = *from, the buckets seen only copied. */
void html_series_copy(struct html_series *to, const struct html_series *from);

/* ---- the charts of one input ------------------------------------------ */

struct html_chart; /* html_chart.c */
struct html_trace; /* html_chart.c: one series of a chart */

struct html_mark {
	uint64_t t_ps;
	uint32_t index; /* into the input's "findings" */
	uint8_t link, vc, ct, port;
};

/* What the charts of an input keep of one link, made at its first chart
 * or lag (a page's input uses a few of the FC_LINK_COUNT links). */
struct html_charts_link {
	/* per VC and type: 0 none yet, n > 0 chart n - 1, -1 dropped */
	int16_t slot[FC_VC_COUNT][CT_COUNT];
	/* per VC, type and port: its series once made (a cache of the
	 * slots, so a value needs no search) */
	struct html_trace *trace[FC_VC_COUNT][CT_COUNT][DIR_COUNT];
	/* per port: a TLP it sent was never seen intact */
	uint8_t lag[DIR_COUNT];
};

struct html_charts {
	bool has_t0;
	uint64_t t0; /* the input's first time: every series' origin */
	struct html_charts_link *per_link[FC_LINK_COUNT]; /* NULL: nothing of it yet */
	struct html_chart *charts[HTML_CHARTS_MAX];
	unsigned count, dropped;
	struct html_mark *marks; /* marks_size made, grown as they come */
	unsigned mark_count;
	size_t marks_size;
	bool out_of_memory;
};

/* NULL when out of memory. */
struct html_charts *html_charts_new(void);
void html_charts_free(struct html_charts *cs);
/* The input's first time (before any value): the series' origin. */
void html_charts_time(struct html_charts *cs, uint64_t t_ps);
/* The timeline's credit and lag callbacks (timeline.h). */
void html_charts_credit(struct html_charts *cs, const struct timeline_at *at, unsigned vc,
                        enum link_dir port, enum credit_type ct, const struct fc_probe_credit *c);
void html_charts_lag(struct html_charts *cs, const struct timeline_at *at, enum link_dir port,
                     bool may_lag);
/* A finding shown as the input's findings[index]: a marker on the series
 * of its link, VC and credit type, when it names them all, of the
 * transmitter whose credits it is about: the port that sent its record,
 * or that port's partner for a finding at an InitFC or UpdateFC. */
void html_charts_mark(struct html_charts *cs, const struct finding *f, uint64_t t_ps,
                      uint32_t index);

/* The marker a finding shown as findings[index] at time t_ps puts on a
 * series (html_charts_mark); false when it names no series. */
bool html_mark_of(const struct finding *f, uint64_t t_ps, uint32_t index, struct html_mark *out);

/* At the input's end: puts the charts in link, VC and type order and
 * returns how many there are. */
unsigned html_charts_sort(struct html_charts *cs);
/* Chart i (after html_charts_sort) as the contract's object, JSON text
 * given to put(text, size, data) (the block's escaper, html_escape_write,
 * or a JSON Lines line's writer: a chart is numbers and fixed names). */
void html_charts_write(const struct html_charts *cs, unsigned i,
                       int (*put)(const char *, size_t, void *), void *data);

/* ---- a chart read back (--merge of JSON Lines parts) -------------------- */

/* One chart as html_charts_write wrote it, its series rebuilt bucket for
 * bucket, so that writing it again gives the same text. */
struct html_chart_copy {
	uint8_t link, vc, ct;
	bool has[DIR_COUNT];
	uint8_t width[DIR_COUNT];
	struct html_series series[DIR_COUNT];
	struct html_mark *marks; /* HTML_FINDINGS_MAX, in the order written */
	unsigned mark_count;
};

/* c empty, its marks kept: no series (has[] false), no mark.  Its series'
 * buckets are left as they are (90 KiB): a series is read only where
 * has[] says, after html_series_init(). */
void html_chart_copy_clear(struct html_chart_copy *c);

/* Bucket k of s (s from html_series_init(s, t0), its bucket_ps set) as
 * a point [t, min, max, last, flags] said; false when t is not a bucket's
 * start after the last one given (k < HTML_BUCKETS). */
bool html_series_put_point(struct html_series *s, uint64_t t, const struct html_bucket *b);
/* An [t, n] update of a bucket given as a point, after the last one
 * given; false when there is none such. */
bool html_series_put_update(struct html_series *s, uint64_t t, uint32_t n, unsigned *after);
/* Adds c (after the charts there are, in order) with its marks; false
 * when out of memory or full (cs->out_of_memory set). */
bool html_charts_put(struct html_charts *cs, const struct html_chart_copy *c);

#endif
