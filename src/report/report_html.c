/* report_html.c: --format=html, one self-contained page for a run
 * (report_html.h).  The layout and every key are html-contract.md's:
 * the head with its Content-Security-Policy (nothing from the network,
 * no script but the page's own inline one), then one JSON block for the
 * run, one per input in input order, one for the batch, then the script
 * that draws them.  Each block is written through the one escaper
 * (html_escape.h), so no byte of a capture or a file name reaches the
 * page but as JSON text inside a block.
 *
 * An input's block is written at its end, when its summary exists; until
 * then its findings are kept as JSON text, at most HTML_FINDINGS_MAX (the
 * first ones in capture order, the rest counted), and its charts as
 * buckets (html_chart.h): memory is bounded whatever the capture. */
#include "autoconfig.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/utf8.h"
#include "report/html_chart.h"
#include "report/html_escape.h"
#include "report/html_page.h"
#include "report/report_html.h"

static const size_t json_flags = JSON_COMPACT | JSON_PRESERVE_ORDER;

struct html_input {
	FILE *out;
	struct html_charts *charts;
	/* the JSON text of each finding shown, findings_size made (grown as
	 * they come: most inputs have few); none kept for the charts alone
	 * (--with-charts), whose markers only need the findings' places */
	bool keep_findings;
	char **findings;
	size_t findings_size;
	/* --merge of a part made without --with-charts: why there are none */
	const char *charts_missing;
	unsigned shown;
	uint64_t total;
	bool has_start, has_end;
	uint64_t start_ps, end_ps;
};

/* ---- the blocks ------------------------------------------------------------ */

static void block_open(struct html_escape *e, FILE *out, const char *attr)
{
	fprintf(out, "<script type=\"application/json\" %s>", attr);
	html_escape_init(e, out);
}

static void block_close(struct html_escape *e)
{
	html_escape_finish(e);
	fputs("</script>\n", e->out);
}

/* A block holding v (the reference is taken). */
static void block(FILE *out, const char *attr, json_t *v)
{
	struct html_escape e;
	block_open(&e, out, attr);
	html_escape_json(&e, v, json_flags);
	block_close(&e);
	json_decref(v);
}

static void put_key_json(struct html_escape *e, const char *key, json_t *v)
{
	html_escape_puts(e, key);
	html_escape_json(e, v, json_flags);
	json_decref(v);
}

static void put_u64(struct html_escape *e, const char *key, bool known, uint64_t v)
{
	char buf[64];
	if (known)
		snprintf(buf, sizeof(buf), "%s%" PRIu64, key, v);
	else
		snprintf(buf, sizeof(buf), "%snull", key);
	html_escape_puts(e, buf);
}

/* ---- the page -------------------------------------------------------------- */

void report_html_begin(FILE *out, int inputs)
{
	fputs("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>dllpcheck report</title>\n<style>\n",
	      out);
	fputs(html_page_css, out);
	fputs("</style></head>\n<body><noscript>This report draws itself with JavaScript; the same "
	      "data is in dllpcheck --format=json.</noscript>\n<div id=\"app\"></div>\n",
	      out);
	json_t *run = json_object();
	json_object_set_new(run, "tool", json_string("dllpcheck"));
	json_object_set_new(run, "version", json_string(PACKAGE_VERSION));
	json_object_set_new(run, "inputs", json_integer(inputs));
	block(out, "id=\"dllpcheck-run\"", run);
}

void report_html_end(FILE *out, char *const *files, const struct input_result *results, int count,
                     int exit_status)
{
	block(out, "id=\"dllpcheck-batch\"",
	      report_json_batch_object(files, results, count, exit_status));
	fputs("<script>\n", out);
	fputs(html_page_js, out);
	fputs("</script>\n</body></html>\n", out);
}

void report_html_input_error(FILE *out, const char *file, const char *format, const char *error)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", json_string_outside(file));
	if (format)
		json_object_set_new(o, "format", json_string(format));
	json_object_set_new(o, "error", json_string_outside(error));
	block(out, "class=\"dllpcheck-input\"", o);
}

/* ---- one input ------------------------------------------------------------- */

struct html_input *report_html_input_begin(FILE *out, const char *file)
{
	(void)file; /* the summary names it */
	struct html_input *hi = calloc(1, sizeof(*hi));
	if (!hi)
		return NULL;
	hi->out = out;
	hi->charts = html_charts_new();
	hi->keep_findings = true;
	if (!hi->charts) {
		report_html_input_free(hi);
		return NULL;
	}
	return hi;
}

struct html_input *report_html_charts_begin(void)
{
	struct html_input *hi = calloc(1, sizeof(*hi));
	if (!hi)
		return NULL;
	hi->charts = html_charts_new();
	if (!hi->charts) {
		free(hi);
		return NULL;
	}
	return hi;
}

void report_html_input_free(struct html_input *hi)
{
	if (!hi)
		return;
	for (unsigned i = 0; hi->findings && i < hi->shown; i++)
		free(hi->findings[i]);
	free(hi->findings);
	html_charts_free(hi->charts);
	free(hi);
}

/* Room for the text of one more finding shown (hi->shown below
 * HTML_FINDINGS_MAX); false when out of memory. */
static bool findings_room(struct html_input *hi)
{
	char **findings = grow_to(hi->findings, &hi->findings_size, (size_t)hi->shown + 1,
	                          sizeof(*findings), 64, HTML_FINDINGS_MAX);
	if (!findings)
		return false;
	hi->findings = findings;
	return true;
}

/* The first record's time: the first value told at a record, or the
 * first finding with a time, whichever came first. */
static void saw_time(struct html_input *hi, uint64_t t_ps)
{
	if (!hi->has_start) {
		hi->start_ps = t_ps;
		hi->has_start = true;
	}
}

static void on_link_state(void *ctx, const struct timeline_at *at, uint8_t state)
{
	(void)state;
	if (at->pkt)
		saw_time(ctx, at->time_ps);
}

static void on_lag(void *ctx, const struct timeline_at *at, enum link_dir port, bool may_lag)
{
	struct html_input *hi = ctx;
	if (at->pkt)
		saw_time(hi, at->time_ps);
	html_charts_lag(hi->charts, at, port, may_lag);
}

static void on_credit(void *ctx, const struct timeline_at *at, unsigned vc, enum link_dir port,
                      enum credit_type ct, const struct fc_probe_credit *now)
{
	struct html_input *hi = ctx;
	if (at->pkt)
		saw_time(hi, at->time_ps);
	html_charts_credit(hi->charts, at, vc, port, ct, now);
}

static void on_finding(void *ctx, const struct finding *f, uint64_t time_ps)
{
	struct html_input *hi = ctx;
	hi->total++;
	if (f->has_time)
		saw_time(hi, time_ps);
	if (hi->shown >= HTML_FINDINGS_MAX)
		return;
	if (!hi->keep_findings) {
		html_charts_mark(hi->charts, f, time_ps, hi->shown++);
		return;
	}
	char *text = report_json_finding_text(f);
	if (!text || !findings_room(hi)) {
		free(text);
		hi->charts->out_of_memory = true;
		return;
	}
	html_charts_mark(hi->charts, f, time_ps, hi->shown);
	hi->findings[hi->shown++] = text;
}

static void on_end(void *ctx, uint64_t last_time_ps)
{
	struct html_input *hi = ctx;
	if (hi->has_start) {
		hi->end_ps = last_time_ps;
		hi->has_end = true;
	}
}

void report_html_sink(struct html_input *hi, struct timeline_sink *out)
{
	*out = (struct timeline_sink){
		.link_state = on_link_state,
		.credit = on_credit,
		.finding = on_finding,
		.end = on_end,
		.lag = on_lag,
		.ctx = hi,
	};
}

bool report_html_input_failed(const struct html_input *hi)
{
	return hi->charts->out_of_memory;
}

void report_html_input_end(struct html_input *hi, const struct input_report *r, int exit_status)
{
	struct html_escape e;
	block_open(&e, hi->out, "class=\"dllpcheck-input\"");
	put_key_json(&e, "{\"file\":", json_string_outside(r->file));
	put_key_json(&e, ",\"format\":", json_string(r->format));
	put_u64(&e, ",\"exit_status\":", true, (uint64_t)exit_status);
	html_escape_puts(&e, ",\"summary\":");
	report_json_input_write(r, html_escape_write, &e);
	html_escape_puts(&e, ",\"findings\":[");
	for (unsigned i = 0; i < hi->shown; i++) {
		if (i)
			html_escape_puts(&e, ",");
		html_escape_puts(&e, hi->findings[i]);
	}
	html_escape_puts(&e, "]");
	put_u64(&e, ",\"findings_total\":", true, hi->total);
	put_u64(&e, ",\"findings_shown\":", true, hi->shown);
	put_u64(&e, ",\"time_start_ps\":", hi->has_start, hi->start_ps);
	put_u64(&e, ",\"time_end_ps\":", hi->has_end, hi->end_ps);
	html_escape_puts(&e, ",\"charts\":[");
	unsigned n = html_charts_sort(hi->charts);
	for (unsigned i = 0; i < n; i++) {
		if (i)
			html_escape_puts(&e, ",");
		html_charts_write(hi->charts, i, html_escape_write, &e);
	}
	html_escape_puts(&e, "]");
	put_u64(&e, ",\"charts_dropped\":", true, hi->charts->dropped);
	if (hi->charts_missing)
		put_key_json(&e, ",\"charts_missing\":", json_string_outside(hi->charts_missing));
	html_escape_puts(&e, "}");
	block_close(&e);
	report_html_input_free(hi);
}

/* ---- the charts in a JSON Lines report (--with-charts) --------------------- */

static int put_file(const char *buf, size_t size, void *data)
{
	return fwrite(buf, 1, size, data) == size ? 0 : -1;
}

void report_jsonl_charts(FILE *out, const char *file, struct html_input *hi)
{
	struct html_charts *cs = hi->charts;
	unsigned n = html_charts_sort(cs);
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("charts"));
	json_object_set_new(o, "file", json_string_outside(file));
	json_object_set_new(o, "time_start_ps",
	                    hi->has_start ? json_integer((json_int_t)hi->start_ps) : json_null());
	json_object_set_new(o, "time_end_ps",
	                    hi->has_end ? json_integer((json_int_t)hi->end_ps) : json_null());
	json_object_set_new(o, "origin_ps",
	                    cs->has_t0 ? json_integer((json_int_t)cs->t0) : json_null());
	json_object_set_new(o, "charts", json_integer(n));
	json_object_set_new(o, "charts_dropped", json_integer(cs->dropped));
	json_object_set_new(o, "version", json_string(PACKAGE_VERSION));
	char *name = report_json_text(json_object_get(o, "file"), json_flags | JSON_ENCODE_ANY);
	json_dumpf(o, out, json_flags);
	fputc('\n', out);
	json_decref(o);
	/* a line per chart: one of 2 x 2048 points is some 100 kB */
	for (unsigned i = 0; i < n; i++) {
		fprintf(out, "{\"type\":\"chart\",\"file\":%s,\"chart\":", name ? name : "\"\"");
		html_charts_write(cs, i, put_file, out);
		fputs("}\n", out);
	}
	free(name);
}

/* ---- one input from a merge's parts (--merge) ------------------------------ */

int report_html_input_finding(struct html_input *hi, const struct finding *f)
{
	if (!hi->keep_findings)
		return -1;
	hi->total++;
	if (hi->shown >= HTML_FINDINGS_MAX)
		return -1;
	char *text = report_json_finding_text(f);
	if (!text || !findings_room(hi)) {
		free(text);
		hi->charts->out_of_memory = true;
		return -1;
	}
	hi->findings[hi->shown] = text;
	return (int)hi->shown++;
}

void report_html_input_times(struct html_input *hi, const struct html_input_times *t)
{
	hi->has_start = t->has_start;
	hi->start_ps = t->start_ps;
	hi->has_end = t->has_end;
	hi->end_ps = t->end_ps;
	hi->charts->has_t0 = t->has_origin;
	hi->charts->t0 = t->origin_ps;
	hi->charts->dropped = t->dropped;
}

bool report_html_input_chart(struct html_input *hi, const struct html_chart_copy *c)
{
	return html_charts_put(hi->charts, c);
}

void report_html_input_no_charts(struct html_input *hi, const char *why)
{
	hi->charts_missing = why;
}
