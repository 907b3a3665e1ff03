/* fuzz_pipeline: one input through the whole program, as main.c runs it:
 * config_init(), the reader on an in-memory stream with format detection
 * (INPUT_AUTO: gzip/zstd, pcap/pcapng magic, binary data refused, export
 * or text), run_reader() as run_one() calls it: pipeline_check() (decode,
 * packet rules, the flow-control shadow model, findings) or the decode
 * listing, behind the report hold, and a report; an input of which no
 * record decodes must come out as an input error and nothing else.
 *
 *   byte 0   options
 *            bits 1:0  report: 0 text, 1 json, 2 jsonl, 3 other:
 *                      with bit 5 junit (html with bit 6 too), else
 *                      --decode (bit 4: with --format=jsonl)
 *            bits 3:2  --role: none, down=root-port,up=endpoint,
 *                      down=switch,up=switch, down=root-port-p2p,up=switch
 *            bit 4     --mps=256
 *            bit 5     --tc-map=1=1,2=2,...,7=7 (one VC per TC)
 *            bit 6     --initial-credits for VC0 of both ports
 *            bit 7     read the input as a pipe (not seekable): the
 *                      format detection bytes are replayed
 *   rest     the capture file
 *
 * Text and --decode text output go to /dev/null (opened once and kept).
 * JSON and JSON Lines are written to memory and checked with jansson: the
 * document parses, every finding has rule/severity/message strings, the
 * findings listed add up to the summary counts, records read = decoded +
 * malformed, and the exit status in the document is the one returned;
 * --decode --format=jsonl: every line is a JSON object.  JUnit XML is
 * written to memory and checked for the frame, no control characters and
 * only the five XML entities after '&'.  The HTML page is written to
 * memory and its JSON blocks checked: run, input, batch, each parsing,
 * none holding < > & or U+2028/U+2029; the input's block an error block
 * exactly for an input error, else its summary as the JSON document's,
 * its findings counted by it, at most 10000 kept, 2048 points a series.
 * A violated invariant traps (__builtin_trap). */
#include <jansson.h>
#include <sanitizer/asan_interface.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "cli/analysis.h"
#include "cli/cli_parse.h"
#include "cli/config.h"
#include "cli/pipeline.h"
#include "cli/run.h"
#include "fuzz_common.h"
#include "report/html_chart.h"
#include "report/report.h"
#include "report/report_html.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void options_from(uint8_t o, struct config *cfg)
{
	static const char *const roles[4] = {
		NULL,
		"down=root-port,up=endpoint",
		"down=switch,up=switch",
		"down=root-port-p2p,up=switch",
	};
	char err[256];

	config_init(cfg);
	switch (o & 3) {
	case 0:
		cfg->format = OUT_TEXT;
		break;
	case 1:
		cfg->format = OUT_JSON;
		break;
	case 2:
		cfg->format = OUT_JSONL;
		break;
	case 3:
		if (o & 0x20) {
			cfg->format = o & 0x40 ? OUT_HTML : OUT_JUNIT;
		} else {
			cfg->mode = MODE_DECODE;
			cfg->format = o & 0x10 ? OUT_JSONL : OUT_TEXT;
		}
		break;
	}
	if (roles[o >> 2 & 3])
		FUZZ_ASSERT(parse_roles(roles[o >> 2 & 3], cfg->fc.role, err, sizeof(err)));
	if (o & 0x10)
		FUZZ_ASSERT(parse_mps("256", &cfg->fc.mps, err, sizeof(err)));
	if (o & 0x20)
		FUZZ_ASSERT(parse_tc_map("1=1,2=2,3=3,4=4,5=5,6=6,7=7", cfg->fc.tc_to_vc, err,
		                         sizeof(err)));
	if (o & 0x40) {
		FUZZ_ASSERT(
		        parse_initial_credits("down:0:PH=32,PD=256,NPH=16,NPD=16,CplH=16,CplD=128",
		                              cfg->fc.initial, err, sizeof(err)));
		FUZZ_ASSERT(parse_initial_credits("up:0:PH=8,PD=64,NPH=8,NPD=8,CplH=inf,CplD=inf",
		                                  cfg->fc.initial, err, sizeof(err)));
	}
}

/* --- the checks' memory ------------------------------------------------- */

/* The checks parse every report back with jansson: hundreds of small
 * allocations an execution, each one through ASan's allocator, were a
 * fifth of the target's time.  While the checks run (checks_begin ..
 * checks_end), jansson allocates from fuzz_common.h's arena (which keeps
 * what ASan checks of its blocks: overflow, use after free, double free,
 * leaks), emptied after them.  The reports are built with jansson too,
 * but before checks_begin: the product's allocations stay ASan's. */
static void checks_begin(void)
{
	fuzz_arena_begin();
	json_set_alloc_funcs(fuzz_arena_malloc, fuzz_arena_free);
}

static void checks_end(void)
{
	json_set_alloc_funcs(malloc, free);
	fuzz_arena_end();
}

/* --- the streams ------------------------------------------------------- */

/* The reports are written to memory to be checked.  open_memstream()
 * made a new buffer every execution, grew it by realloc (an HTML page of
 * some 55 KiB: a dozen times, each one a fresh ASan allocation and a
 * copy) and trimmed it at fclose with one more.  This stream's buffer is
 * kept from one execution to the next and only grows; what lies past the
 * report (a NUL ends it, as open_memstream's does) is poisoned, so that
 * ASan still sees a check read beyond it.  The stdio buffers of the
 * report and of the input are static: each execution's streams are
 * closed before the next one's are made. */
struct report_mem {
	char *buf;
	size_t len; /* the report; buf[len] is a NUL */
	size_t size;
};

static struct report_mem report_mem;
static char report_stdio[BUFSIZ], input_stdio[BUFSIZ];

static ssize_t report_mem_write(void *cookie, const char *p, size_t n)
{
	struct report_mem *m = cookie;
	if (n >= m->size - m->len) {
		/* a report is far below the bound (the input is at most
		 * -max_len bytes) */
		char *buf = grow_to(m->buf, &m->size, m->len + n + 1, 1, 64u * 1024u, SIZE_MAX / 4);
		if (!buf || n >= m->size - m->len)
			return -1;
		m->buf = buf;
		ASAN_POISON_MEMORY_REGION(buf + m->len, m->size - m->len);
	}
	ASAN_UNPOISON_MEMORY_REGION(m->buf + m->len, n + 1);
	memcpy(m->buf + m->len, p, n);
	m->len += n;
	m->buf[m->len] = '\0';
	return (ssize_t)n;
}

/* A stream writing to report_mem, emptied (what it held poisoned). */
static FILE *report_mem_open(void)
{
	if (report_mem.buf)
		ASAN_POISON_MEMORY_REGION(report_mem.buf, report_mem.size);
	report_mem.len = 0;
	if (report_mem_write(&report_mem, "", 0) != 0)
		return NULL;
	cookie_io_functions_t io = { .write = report_mem_write };
	FILE *fp = fopencookie(&report_mem, "w", io);
	if (fp && setvbuf(fp, report_stdio, _IOFBF, sizeof(report_stdio)) != 0) {
		fclose(fp);
		return NULL;
	}
	return fp;
}

/* --- checking the JSON reports ------------------------------------------ */

static json_int_t int_member(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	FUZZ_ASSERT(json_is_integer(v));
	return json_integer_value(v);
}

static void check_finding(const json_t *f)
{
	FUZZ_ASSERT(json_is_object(f));
	FUZZ_ASSERT(json_is_string(json_object_get(f, "rule")));
	FUZZ_ASSERT(json_is_string(json_object_get(f, "severity")));
	FUZZ_ASSERT(json_is_string(json_object_get(f, "message")));
	FUZZ_ASSERT(json_is_object(json_object_get(f, "evidence")));
}

/* The summary fields of one input; returns the number of findings the
 * summary counts. */
static json_int_t check_summary(const json_t *o)
{
	const json_t *rec = json_object_get(o, "records");
	FUZZ_ASSERT(json_is_object(rec));
	FUZZ_ASSERT(int_member(rec, "read") ==
	            int_member(rec, "decoded") + int_member(rec, "malformed"));
	FUZZ_ASSERT(int_member(rec, "decoded") ==
	            int_member(rec, "dllps") + int_member(rec, "tlps") + int_member(rec, "events"));
	const json_t *sum = json_object_get(o, "summary");
	FUZZ_ASSERT(json_is_object(sum));
	json_t *sev = json_object_get(sum, "by_severity");
	FUZZ_ASSERT(json_is_object(sev));
	json_int_t total = 0, by_rule = 0;
	const char *k;
	json_t *v;
	json_object_foreach(sev, k, v)
	{
		FUZZ_ASSERT(json_is_integer(v));
		total += json_integer_value(v);
	}
	json_object_foreach(json_object_get(sum, "by_rule"), k, v)
	{
		FUZZ_ASSERT(json_is_integer(v));
		by_rule += json_integer_value(v);
	}
	FUZZ_ASSERT(by_rule == total);
	FUZZ_ASSERT(json_is_array(json_object_get(o, "links")));
	FUZZ_ASSERT(json_is_object(json_object_get(o, "options")));
	return total;
}

static void check_json_doc(const char *buf, size_t len, bool opened, int status)
{
	json_error_t jerr;
	json_t *doc = json_loadb(buf, len, 0, &jerr);
	FUZZ_ASSERT(doc != NULL);
	FUZZ_ASSERT(json_is_object(doc));
	const json_t *inputs = json_object_get(doc, "inputs");
	FUZZ_ASSERT(json_is_array(inputs));
	FUZZ_ASSERT(json_array_size(inputs) == (opened ? 1u : 0u));
	json_int_t listed = 0;
	size_t i;
	json_t *in;
	json_array_foreach(inputs, i, in)
	{
		FUZZ_ASSERT(json_is_string(json_object_get(in, "file")));
		if (json_object_get(in, "error")) {
			/* an input with no record: the error alone, no finding */
			FUZZ_ASSERT(json_is_string(json_object_get(in, "error")));
			FUZZ_ASSERT(!json_object_get(in, "findings"));
			FUZZ_ASSERT(status == EXIT_ERROR);
			continue;
		}
		const json_t *findings = json_object_get(in, "findings");
		FUZZ_ASSERT(json_is_array(findings));
		size_t j;
		json_t *f;
		json_array_foreach(findings, j, f) check_finding(f);
		json_int_t counted = check_summary(in);
		FUZZ_ASSERT((json_int_t)json_array_size(findings) == counted);
		listed += counted;
	}
	const json_t *sum = json_object_get(doc, "summary");
	FUZZ_ASSERT(json_is_object(sum));
	FUZZ_ASSERT(int_member(sum, "inputs") == (opened ? 1 : 0));
	FUZZ_ASSERT(int_member(sum, "exit_status") == status);
	json_int_t total = 0;
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(sum, "by_severity"), k, v) total +=
	        json_integer_value(v);
	FUZZ_ASSERT(total == listed);
	json_decref(doc);
}

/* A line is byte for byte Jansson's compact dump of what it parses to:
 * findings and summaries are written as text (report_json.c, struct
 * text_out), to be what Jansson wrote when it built them (escapes, numbers,
 * member order). */
static void check_as_jansson_dumps(const json_t *o, const char *line, size_t len)
{
	static char dump[1u << 18];
	size_t n = json_dumpb(o, dump, sizeof(dump), JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (n > sizeof(dump))
		return; /* a line of charts, too long to compare here */
	FUZZ_ASSERT(n == len && memcmp(dump, line, len) == 0);
}

static void check_jsonl(const char *buf, size_t len, int status)
{
	json_int_t findings = 0;
	bool summary = false;
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		FUZZ_ASSERT(nl != NULL); /* every line ends */
		size_t n = (size_t)(nl - (buf + pos));
		json_error_t jerr;
		json_t *o = json_loadb(buf + pos, n, 0, &jerr);
		FUZZ_ASSERT(o != NULL && json_is_object(o));
		check_as_jansson_dumps(o, buf + pos, n);
		FUZZ_ASSERT(!summary); /* the summary is the last line */
		const char *type = json_string_value(json_object_get(o, "type"));
		FUZZ_ASSERT(type != NULL);
		if (strcmp(type, "finding") == 0) {
			check_finding(o);
			findings++;
		} else if (strcmp(type, "error") == 0) {
			/* an input with no record: its only line */
			FUZZ_ASSERT(status == EXIT_ERROR && findings == 0 && pos == 0);
			FUZZ_ASSERT(json_is_string(json_object_get(o, "error")));
			summary = true;
		} else {
			FUZZ_ASSERT(strcmp(type, "summary") == 0);
			FUZZ_ASSERT(check_summary(o) == findings);
			summary = true;
		}
		json_decref(o);
		pos += n + 1;
	}
	FUZZ_ASSERT(summary);
}

/* --decode --format=jsonl: one JSON object per line. */
static void check_decode_jsonl(const char *buf, size_t len)
{
	size_t pos = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		FUZZ_ASSERT(nl != NULL);
		size_t n = (size_t)(nl - (buf + pos));
		json_error_t jerr;
		json_t *o = json_loadb(buf + pos, n, 0, &jerr);
		FUZZ_ASSERT(o != NULL && json_is_object(o));
		json_decref(o);
		pos += n + 1;
	}
}

/* --- checking the JUnit report ------------------------------------------ */

static bool starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

static size_t count(const char *buf, size_t len, const char *s)
{
	size_t c = 0;
	for (const char *p = buf; p < buf + len; p++)
		c += starts(p, buf + len, s);
	return c;
}

static void check_junit(const char *buf, size_t len)
{
	static const char *const entities[] = {
		"&amp;", "&lt;", "&gt;", "&quot;", "&apos;",
	};
	const char *end = buf + len;
	FUZZ_ASSERT(starts(buf, end, "<?xml version=\"1.0\""));
	FUZZ_ASSERT(len >= 14 && memcmp(end - 14, "</testsuites>\n", 14) == 0);
	FUZZ_ASSERT(count(buf, len, "<testcase ") == 1);
	FUZZ_ASSERT(count(buf, len, "</testcase>") == 1);
	FUZZ_ASSERT(count(buf, len, "<failure ") == count(buf, len, "</failure>"));
	for (const char *p = buf; p < end; p++) {
		unsigned char c = (unsigned char)*p;
		FUZZ_ASSERT(c >= 0x20 || c == '\t' || c == '\n');
		if (c == '&') {
			bool ok = false;
			for (size_t i = 0; i < sizeof(entities) / sizeof(entities[0]); i++)
				ok |= starts(p, end, entities[i]);
			FUZZ_ASSERT(ok);
		}
	}
}

/* --- the run ------------------------------------------------------------ */

/* --- checking the HTML page ------------------------------------------------ */

/* The input's block: an error block exactly for an input error. */
static void check_html_input(const json_t *in, int status)
{
	FUZZ_ASSERT(json_is_object(in));
	if (json_object_get(in, "error")) {
		FUZZ_ASSERT(status == EXIT_ERROR);
		FUZZ_ASSERT(json_is_string(json_object_get(in, "error")));
		return;
	}
	FUZZ_ASSERT(int_member(in, "exit_status") == status);
	json_int_t total = check_summary(json_object_get(in, "summary"));
	FUZZ_ASSERT(int_member(in, "findings_total") == total);
	const json_t *findings = json_object_get(in, "findings");
	FUZZ_ASSERT(json_is_array(findings));
	json_int_t shown = total < HTML_FINDINGS_MAX ? total : HTML_FINDINGS_MAX;
	FUZZ_ASSERT(int_member(in, "findings_shown") == shown);
	FUZZ_ASSERT((json_int_t)json_array_size(findings) == shown);
	size_t i;
	json_t *v;
	json_array_foreach(findings, i, v) check_finding(v);
	const json_t *charts = json_object_get(in, "charts");
	FUZZ_ASSERT(json_is_array(charts) && json_array_size(charts) <= HTML_CHARTS_MAX);
	json_array_foreach(charts, i, v)
	{
		size_t k;
		json_t *series;
		json_array_foreach(json_object_get(v, "series"), k, series)
		{
			const json_t *points = json_object_get(series, "points");
			FUZZ_ASSERT(json_is_array(points) && json_array_size(points) >= 1 &&
			            json_array_size(points) <= HTML_BUCKETS);
		}
	}
}

static void check_html(const char *buf, size_t len, int status)
{
	static const char tag[] = "<script type=\"application/json\" ";
	const char *p = buf, *end = buf + len;
	unsigned blocks = 0;
	while ((p = memmem(p, (size_t)(end - p), tag, sizeof(tag) - 1)) != NULL) {
		const char *body = memchr(p, '>', (size_t)(end - p));
		FUZZ_ASSERT(body != NULL);
		body++;
		const char *close = memmem(body, (size_t)(end - body), "</script>", 9);
		FUZZ_ASSERT(close != NULL);
		/* every byte looked at once in a table: only those that may
		 * start what a block must not hold are tested further */
		static const bool suspect[256] = {
			['<'] = true, ['>'] = true, ['&'] = true, [0xe2] = true
		};
		for (const char *c = body; c < close; c++) {
			if (!suspect[(unsigned char)*c])
				continue;
			FUZZ_ASSERT(*c != '<' && *c != '>' && *c != '&');
			FUZZ_ASSERT(!(c + 2 < close && c[0] == '\xe2' && c[1] == '\x80' &&
			              (c[2] == '\xa8' || c[2] == '\xa9')));
		}
		json_t *v = json_loadb(body, (size_t)(close - body), 0, NULL);
		FUZZ_ASSERT(v != NULL);
		if (blocks == 1)
			check_html_input(v, status);
		if (blocks == 2)
			FUZZ_ASSERT(int_member(v, "exit_status") == status);
		json_decref(v);
		blocks++;
		p = close;
	}
	FUZZ_ASSERT(blocks == 3); /* run, the input, batch */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	struct config cfg;
	options_from(data[0], &cfg);
	bool seekable = !(data[0] & 0x80);
	FILE *devnull = fuzz_devnull();
	if (!devnull)
		return 0;

	FILE *fp = fuzz_memfile(data + 1, size - 1);
	if (!fp)
		return 0;
	FUZZ_ASSERT(setvbuf(fp, input_stdio, _IOFBF, sizeof(input_stdio)) == 0);
	char err[512];
	struct reader *r = reader_open_stream(fp, "fuzz", seekable, &cfg.reader, err, sizeof(err));
	bool opened = r != NULL;

	if (cfg.mode == MODE_DECODE) {
		if (!r)
			return 0;
		struct input_result dres;
		bool json = cfg.format == OUT_JSONL;
		FILE *dout = json ? report_mem_open() : devnull;
		FUZZ_ASSERT(dout != NULL);
		run_reader(&cfg, r, "fuzz", 0, dout, NULL, &dres);
		FUZZ_ASSERT(dres.stats.records_read ==
		            dres.stats.records_decoded + dres.stats.records_malformed);
		/* no record: an input error, and nothing listed */
		FUZZ_ASSERT((dres.status == EXIT_ERROR) == (dres.stats.records_decoded == 0));
		reader_close(r);
		if (json) {
			FUZZ_ASSERT(fclose(dout) == 0);
			FUZZ_ASSERT(dres.status != EXIT_ERROR || report_mem.len == 0);
			checks_begin();
			check_decode_jsonl(report_mem.buf, report_mem.len);
			checks_end();
		}
		return 0;
	}

	FILE *out = devnull;
	if (cfg.format != OUT_TEXT) {
		out = report_mem_open();
		FUZZ_ASSERT(out != NULL);
	}
	struct input_result res;
	memset(&res, 0, sizeof(res));
	if (cfg.format == OUT_JSON)
		report_json_begin(out);
	if (cfg.format == OUT_JUNIT) {
		report_junit_begin(out, 1);
		if (!opened)
			report_junit_input_error(out, "fuzz", err);
	}
	if (cfg.format == OUT_HTML) {
		report_html_begin(out, 1);
		if (!opened)
			report_html_input_error(out, "fuzz", NULL, err);
	}
	int status = EXIT_CLEAN;
	if (opened) {
		run_reader(&cfg, r, "fuzz", 0, out, NULL, &res);
		status = res.status;
		/* an input error exactly when no record decoded (rules.md) */
		FUZZ_ASSERT((status == EXIT_ERROR) == (res.stats.records_decoded == 0));
		FUZZ_ASSERT(status != EXIT_ERROR ||
		            (res.by_severity[SEV_ERROR] == 0 && res.by_severity[SEV_WARNING] == 0 &&
		             res.by_severity[SEV_INFO] == 0));
		FUZZ_ASSERT(res.stats.records_read ==
		            res.stats.records_decoded + res.stats.records_malformed);
		reader_close(r);
	}
	if (cfg.format == OUT_JSON)
		report_json_end(out, &res, opened ? 1 : 0, status);
	if (cfg.format == OUT_JUNIT)
		report_junit_end(out);
	if (cfg.format == OUT_HTML) {
		static char fuzz_name[] = "fuzz";
		char *files[] = { fuzz_name };
		if (!opened)
			res.status = status = EXIT_ERROR;
		report_html_end(out, files, &res, 1, status);
	}
	if (out != devnull) {
		FUZZ_ASSERT(fclose(out) == 0);
		const char *buf = report_mem.buf;
		size_t len = report_mem.len;
		checks_begin();
		if (cfg.format == OUT_JSON)
			check_json_doc(buf, len, opened, status);
		else if (cfg.format == OUT_JUNIT)
			check_junit(buf, len);
		else if (cfg.format == OUT_HTML)
			check_html(buf, len, status);
		else if (opened)
			check_jsonl(buf, len, status);
		else
			FUZZ_ASSERT(len == 0); /* nothing is reported without an input */
		checks_end();
	}
	return 0;
}
