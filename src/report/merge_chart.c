/* merge_chart.c: the lines --with-charts adds to a JSON Lines report,
 * read back (merge_read.h): an input's "charts" line, then one "chart"
 * line per chart, between its findings and its summary.  Each is the
 * inverse of report_jsonl_charts() (report_html.c) and html_charts_write()
 * (html_chart.c), key for key and number for number, and a part is
 * untrusted: every count and index is checked against the bounds the
 * writer keeps (HTML_CHARTS_MAX charts of at most HTML_BUCKETS points a
 * series, markers of the input's first HTML_FINDINGS_MAX findings), so no
 * number in a part sizes an allocation; a chart line is held one at a
 * time, in a struct html_chart_copy of fixed size. */
#include "autoconfig.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "report/merge_read.h"
#include "report/merge_read_internal.h"

/* A marker's series: link, VC, type and port in one number. */
static uint32_t series_key(unsigned link, unsigned vc, unsigned ct, unsigned port)
{
	return (uint32_t)link << 16 | vc << 8 | ct << 4 | port;
}

#define NO_SERIES UINT32_MAX

void merge_chart_finding(struct merge_reader *m, const struct finding *f)
{
	uint64_t n = m->input_findings++;
	if (n >= HTML_FINDINGS_MAX)
		return;
	if (!m->mark_key) {
		m->mark_key = malloc(HTML_FINDINGS_MAX * sizeof(*m->mark_key));
		if (!m->mark_key) {
			merge_fail(m, "out of memory");
			return;
		}
	}
	struct html_mark mk;
	m->mark_key[n] =
	        html_mark_of(f, 0, 0, &mk) ? series_key(mk.link, mk.vc, mk.ct, mk.port) : NO_SERIES;
}

/* ---- the input's "charts" line ------------------------------------------ */

void merge_read_charts(struct merge_reader *m, struct jo *j)
{
	struct merge_charts *c = &m->charts;
	merge_check_version(m, j);
	const char *file = jo_str(j, "file");
	struct html_input_times *t = &c->times;
	memset(t, 0, sizeof(*t));
	t->start_ps = jo_num(j, "time_start_ps", INT64_MAX, true, &t->has_start);
	t->end_ps = jo_num(j, "time_end_ps", INT64_MAX, true, &t->has_end);
	t->origin_ps = jo_num(j, "origin_ps", INT64_MAX, true, &t->has_origin);
	unsigned count = (unsigned)jo_num(j, "charts", HTML_CHARTS_MAX, false, NULL);
	t->dropped = (unsigned)jo_num(j, "charts_dropped", FC_LINK_COUNT * FC_VC_COUNT * CT_COUNT,
	                              false, NULL);
	jo_end(j);
	if (m->failed || !file)
		return;
	/* the end is told only after a start, never before it */
	if (t->has_end != t->has_start || (t->has_end && t->end_ps < t->start_ps))
		merge_fail(m, "time_end_ps is not a time at or after time_start_ps");
	else if (count && !t->has_origin)
		merge_fail(m, "charts with no origin_ps");
	else if (m->in_input && c->seen)
		merge_fail(m, "a second charts line of \"%.200s\" (from line %" PRIu64 ")", file,
		           m->input_line);
	if (m->failed || !merge_same_file(m, file))
		return;
	c->seen = true;
	c->count = count;
	c->read = 0;
	c->last_key = -1;
}

/* ---- a "chart" line ------------------------------------------------------ */

/* Item i of the tuple t (t->o an array), a number 0..max (null when
 * nullable: *has false). */
static uint64_t item_num(struct jo *t, size_t i, uint64_t max, bool nullable, bool *has)
{
	json_t *v = json_array_get(t->o, i);
	if (has)
		*has = false;
	if (nullable && json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < 0 ||
	    (uint64_t)json_integer_value(v) > max) {
		merge_fail(t->m, "%s[%zu] is not a number from 0 to %" PRIu64 "%s", jo_path(t), i,
		           max, nullable ? " or null" : "");
		return 0;
	}
	if (has)
		*has = true;
	return (uint64_t)json_integer_value(v);
}

/* t: item k of the array key of j, an array of n items. */
static bool tuple(struct jo *j, const char *key, json_t *list, size_t k, size_t n, struct jo *t)
{
	jo_place(t, j->m, j, key, k);
	t->o = json_array_get(list, k);
	if (!json_is_array(t->o) || json_array_size(t->o) != n) {
		merge_fail(j->m, "%s is not an array of %zu numbers", jo_path(t), n);
		return false;
	}
	return true;
}

/* "points": [[t, min, max, last, flags], ...], buckets in order. */
static void read_points(struct jo *j, struct html_series *s)
{
	json_t *list = jo_array(j, "points", HTML_BUCKETS, true);
	struct jo p;
	for (size_t k = 0; list && k < json_array_size(list) && !j->m->failed; k++) {
		if (!tuple(j, "points", list, k, 5, &p))
			return;
		struct html_bucket b = { 0 };
		bool has_min, has_max;
		uint64_t t = item_num(&p, 0, INT64_MAX, false, NULL);
		b.min = (uint32_t)item_num(&p, 1, UINT32_MAX, true, &has_min);
		b.max = (uint32_t)item_num(&p, 2, UINT32_MAX, true, &has_max);
		b.last = (uint32_t)item_num(&p, 3, UINT32_MAX, true, &b.last_known);
		b.flags = (uint8_t)item_num(
		        &p, 4, HTML_F_UNKNOWN | HTML_F_INFINITE | HTML_F_UNCERTAIN, false, NULL);
		b.any_known = has_min;
		if (j->m->failed)
			return;
		/* a known last value is one of the known ones, between min and max */
		if (has_min != has_max || (b.last_known && !has_min) || b.min > b.max ||
		    (b.last_known && (b.last < b.min || b.last > b.max)))
			merge_fail(j->m, "%s: min, max and last do not fit together", jo_path(&p));
		else if (!html_series_put_point(s, t, &b))
			merge_fail(j->m,
			           "%s: time %" PRIu64 " is not the start of a bucket after the "
			           "last one",
			           jo_path(&p), t);
	}
}

/* "updates": [[t, n], ...], of buckets with points, in order. */
static void read_updates(struct jo *j, struct html_series *s)
{
	json_t *list = jo_array(j, "updates", HTML_BUCKETS, true);
	struct jo u;
	unsigned after = 0;
	for (size_t k = 0; list && k < json_array_size(list) && !j->m->failed; k++) {
		if (!tuple(j, "updates", list, k, 2, &u))
			return;
		uint64_t t = item_num(&u, 0, INT64_MAX, false, NULL);
		uint32_t n = (uint32_t)item_num(&u, 1, UINT32_MAX, false, NULL);
		if (!j->m->failed && !html_series_put_update(s, t, n, &after))
			merge_fail(
			        j->m,
			        "%s: not a count from 1 of a bucket with a point, after the last "
			        "one",
			        jo_path(&u));
	}
}

/* "findings": [[t, index], ...]: the markers of the input's findings of
 * this series (key), in the order of the findings. */
static void read_marks(struct jo *j, struct html_chart_copy *c, uint32_t key)
{
	struct merge_reader *m = j->m;
	json_t *list = jo_array(j, "findings", HTML_FINDINGS_MAX, true);
	struct jo f;
	uint64_t shown =
	        m->input_findings < HTML_FINDINGS_MAX ? m->input_findings : HTML_FINDINGS_MAX;
	int64_t last = -1;
	for (size_t k = 0; list && k < json_array_size(list) && !m->failed; k++) {
		if (!tuple(j, "findings", list, k, 2, &f))
			return;
		uint64_t t = item_num(&f, 0, INT64_MAX, false, NULL);
		uint64_t i = item_num(&f, 1, HTML_FINDINGS_MAX - 1, false, NULL);
		if (m->failed)
			return;
		/* each finding marks the one series it is about: no more
		 * markers than findings, whatever the part says */
		if (i >= shown || (int64_t)i <= last || m->mark_key[i] != key ||
		    c->mark_count >= HTML_FINDINGS_MAX) {
			merge_fail(m,
			           "%s: finding %" PRIu64
			           " is not one of the input's findings before it about this "
			           "series, after the last marked",
			           jo_path(&f), i);
			return;
		}
		last = (int64_t)i;
		c->marks[c->mark_count++] =
		        (struct html_mark){ t,     (uint32_t)i, c->link,
			                    c->vc, c->ct,       (uint8_t)(key & 15) };
	}
}

static void read_series(struct jo *j, struct html_chart_copy *c, uint64_t origin, int *last_port)
{
	int port = jo_name(j, "port", merge_dir_name, DIR_COUNT);
	uint64_t width = jo_num(j, "width", 32, false, NULL);
	uint64_t bucket = jo_num(j, "bucket_ps", UINT64_C(1) << 53, false, NULL);
	if (j->m->failed)
		return;
	if (port <= *last_port) {
		merge_fail(j->m, "%s: port %s after port %s (they are written in order)",
		           jo_path(j), link_dir_name((enum link_dir)port),
		           link_dir_name((enum link_dir) * last_port));
		return;
	}
	/* the buckets start at 1 ps and double */
	if (bucket == 0 || (bucket & (bucket - 1)) != 0) {
		merge_fail(j->m, "%s.bucket_ps is not a power of two", jo_path(j));
		return;
	}
	*last_port = port;
	struct html_series *s = &c->series[port];
	html_series_init(s, origin);
	s->bucket_ps = bucket;
	c->has[port] = true;
	c->width[port] = (uint8_t)width;
	read_points(j, s);
	read_updates(j, s);
	if (!j->m->failed)
		read_marks(j, c, series_key(c->link, c->vc, c->ct, (unsigned)port));
	jo_end(j);
}

void merge_read_chart(struct merge_reader *m, struct jo *j)
{
	struct merge_charts *cs = &m->charts;
	const char *file = jo_str(j, "file");
	struct jo cj;
	bool has_chart = jo_child(j, "chart", &cj);
	jo_end(j);
	if (m->failed || !file || !has_chart)
		return;
	if (!m->in_input || !cs->seen || strcmp(m->file, file) != 0) {
		merge_fail(m,
		           "a chart line of \"%.200s\" with no charts line of its input before it",
		           file);
		return;
	}
	if (cs->read >= cs->count) {
		merge_fail(m, "a chart line of \"%.200s\" past the %u its charts line counts", file,
		           cs->count);
		return;
	}
	if (!m->chart) {
		/* not zeroed: html_chart_copy_clear() below, for every chart */
		m->chart = malloc(sizeof(*m->chart));
		if (m->chart)
			m->chart->marks = malloc(HTML_FINDINGS_MAX * sizeof(*m->chart->marks));
		if (!m->chart || !m->chart->marks) {
			merge_fail(m, "out of memory");
			return;
		}
	}
	struct html_chart_copy *c = m->chart;
	html_chart_copy_clear(c);
	c->link = (uint8_t)jo_num(&cj, "link", FC_LINK_COUNT - 1, false, NULL);
	c->vc = (uint8_t)jo_num(&cj, "vc", FC_VC_COUNT - 1, false, NULL);
	int ct = jo_name(&cj, "type", merge_ct_name, CT_COUNT);
	json_t *series = jo_array(&cj, "series", DIR_COUNT, true);
	if (m->failed)
		return;
	c->ct = (uint8_t)ct;
	int64_t key = (int64_t)series_key(c->link, c->vc, c->ct, 0);
	if (key <= cs->last_key) {
		merge_fail(m,
		           "chart: link %u VC %u %s after a chart at or after it (they are "
		           "written in order)",
		           c->link, c->vc, credit_type_name((enum credit_type)c->ct));
		return;
	}
	cs->last_key = key;
	int last_port = -1;
	for (size_t i = 0; i < json_array_size(series) && !m->failed; i++) {
		struct jo sj;
		if (jo_open_item(&cj, &sj, json_array_get(series, i), "series", i))
			read_series(&sj, c, cs->times.origin_ps, &last_port);
	}
	jo_end(&cj);
	if (!m->failed)
		cs->read++;
}

/* The summary line: every chart its charts line counted was read. */
void merge_charts_end(struct merge_reader *m)
{
	if (m->charts.seen && m->charts.read != m->charts.count)
		merge_fail(m,
		           "the summary of \"%.200s\" follows %u of the %u chart lines its charts "
		           "line counts",
		           m->file ? m->file : "", m->charts.read, m->charts.count);
}
