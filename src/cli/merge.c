/* merge.c: --merge (merge.h).  Two passes over the parts, one line held
 * at a time, as a run holds one finding at a time: the first reads every
 * part whole (report/merge_read.c checks each line) and lists the inputs,
 * so that a part that is not usable stops the merge before anything is
 * written, two parts naming one input are refused, and the report's
 * opening can say how many inputs it has (JUnit's tests="N"); the second
 * reads them again and gives each finding and summary to the report
 * formats, as the run's pipeline gives them.  What is held, as in a run
 * (run.c): per input its name and its result (struct input_result); for
 * the HTML page, as a run holds it, the block of the input being read
 * (its first findings and its charts) until its summary line.  And, so
 * that parts of a few reports are read and parsed once, not twice: the
 * lines the first pass parsed, of the parts whose text fits, together,
 * in MERGE_KEEP_BYTES (struct merge_kept); the second pass reads those
 * from memory, the others from their files again. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/merge.h"
#include "cli/pipeline.h"
#include "cli/run.h"
#include "cli/run_pool.h"
#include "report/merge_read.h"
#include "report/report.h"
#include "report/report_html.h"

/* The inputs of all parts, in order, and where each was. */
struct merge_list {
	char **files;
	int *part;
	uint64_t *line;
	int count, cap;
};

static bool list_add(struct merge_list *l, const char *file, int part, uint64_t line)
{
	if (l->count == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		char **files = realloc(l->files, (size_t)cap * sizeof(*files));
		if (files)
			l->files = files;
		int *parts = realloc(l->part, (size_t)cap * sizeof(*parts));
		if (parts)
			l->part = parts;
		uint64_t *lines = realloc(l->line, (size_t)cap * sizeof(*lines));
		if (lines)
			l->line = lines;
		if (!files || !parts || !lines)
			return false;
		l->cap = cap;
	}
	l->files[l->count] = strdup(file);
	if (!l->files[l->count])
		return false;
	l->part[l->count] = part;
	l->line[l->count++] = line;
	return true;
}

static void list_free(struct merge_list *l)
{
	for (int i = 0; i < l->count; i++)
		free(l->files[i]);
	free(l->files);
	free(l->part);
	free(l->line);
}

static FILE *open_file(const char *path, void *ctx)
{
	(void)ctx;
	FILE *fp = fopen(path, "r");
	if (!fp)
		fprintf(stderr, "dllpcheck: %s: cannot open the part: %s\n", path, strerror(errno));
	return fp;
}

/* How the parts are opened: each once per pass, so that thousands of
 * parts never hold thousands of files open. */
struct part_opener {
	FILE *(*open)(const char *name, void *ctx);
	void *ctx;
};

/* ---- the first pass ------------------------------------------------------ */

struct first_options {
	char *text; /* the first summary's "options" */
	int part;
	uint64_t line;
};

/* The parts must be of one run's options: a run has one --role, --mps,
 * --mrrs and --tc-map, and --stats for every input. */
static bool check_summary(const struct config *cfg, const struct merge_reader *m, int part,
                          struct first_options *first)
{
	const struct merge_input *in = &m->input;
	if (cfg->stats && in->stats_known && !in->stats_wanted) {
		fprintf(stderr,
		        "dllpcheck: %s: line %llu: the summary of \"%s\" has no statistics: make "
		        "the part with --stats to merge with --stats\n",
		        m->name, (unsigned long long)m->line, m->file);
		return false;
	}
	if (!first->text) {
		first->text = strdup(in->options_text ? in->options_text : "");
		first->part = part;
		first->line = m->line;
		return first->text != NULL;
	}
	if (strcmp(first->text, in->options_text ? in->options_text : "") != 0) {
		fprintf(stderr,
		        "dllpcheck: %s: line %llu: options %s differ from those of %s line %llu "
		        "(%s): the parts were made with other --role, --mps, --mrrs or --tc-map, "
		        "which one run cannot have\n",
		        m->name, (unsigned long long)m->line, in->options_text,
		        cfg->inputs[first->part], (unsigned long long)first->line, first->text);
		return false;
	}
	return true;
}

static int by_name(const void *a, const void *b, void *list)
{
	const struct merge_list *l = list;
	int i = *(const int *)a, j = *(const int *)b;
	int c = strcmp(l->files[i], l->files[j]);
	return c ? c : (i > j) - (i < j);
}

/* An input of two parts would be counted twice: refused.  (Within a part,
 * one run was given the file twice, and so is the merge.) */
static bool check_duplicates(const struct config *cfg, struct merge_list *l)
{
	int *order = malloc((size_t)(l->count ? l->count : 1) * sizeof(*order));
	if (!order) {
		fprintf(stderr, "dllpcheck: out of memory\n");
		return false;
	}
	for (int i = 0; i < l->count; i++)
		order[i] = i;
	qsort_r(order, (size_t)l->count, sizeof(*order), by_name, l);
	bool ok = true;
	for (int k = 1; k < l->count && ok; k++) {
		int a = order[k - 1], b = order[k];
		if (strcmp(l->files[a], l->files[b]) != 0 || l->part[a] == l->part[b])
			continue;
		fprintf(stderr,
		        "dllpcheck: %s: line %llu: input \"%s\" is also in %s (line %llu): an "
		        "input of two parts would be counted twice\n",
		        cfg->inputs[l->part[b]], (unsigned long long)l->line[b], l->files[b],
		        cfg->inputs[l->part[a]], (unsigned long long)l->line[a]);
		ok = false;
	}
	free(order);
	return ok;
}

/* A part that can be read only once (a pipe, a socket, a terminal): the
 * second pass reads it only from its lines kept.  (A stream of no
 * descriptor, from memory, is opened again.) */
static bool read_once(FILE *fp)
{
	int fd = fileno(fp);
	struct stat st;
	return fd >= 0 && fstat(fd, &st) == 0 &&
	       (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISCHR(st.st_mode));
}

/* The parts read, and the lines of those kept for the second pass. */
static bool first_pass(const struct config *cfg, const struct part_opener *po, struct merge_list *l,
                       struct merge_kept *kept, size_t keep_bytes)
{
	struct first_options first = { 0 };
	const size_t budget = keep_bytes;
	bool ok = true;
	for (int p = 0; p < cfg->input_count && ok; p++) {
		FILE *fp = po->open(cfg->inputs[p], po->ctx);
		if (!fp) {
			ok = false;
			break;
		}
		struct merge_reader m;
		merge_reader_init(&m, fp, cfg->inputs[p]);
		kept[p].budget = keep_bytes;
		merge_reader_keep(&m, &kept[p]);
		for (;;) {
			enum merge_item item = merge_reader_next(&m);
			if (item == MERGE_END)
				break;
			if (item == MERGE_FAIL) {
				fprintf(stderr, "dllpcheck: %s\n", m.err);
				ok = false;
				break;
			}
			if (item == MERGE_SUMMARY && !check_summary(cfg, &m, p, &first)) {
				ok = false;
				break;
			}
			if ((item == MERGE_SUMMARY || item == MERGE_ERROR) &&
			    !list_add(l, m.file, p, m.line)) {
				fprintf(stderr, "dllpcheck: out of memory\n");
				ok = false;
				break;
			}
		}
		if (ok && kept[p].over && read_once(fp)) {
			fprintf(stderr,
			        "dllpcheck: %s: a pipe whose text does not fit in what is left of "
			        "the %zu KiB the merge keeps: the report would read it again, "
			        "which a pipe cannot; write it to a file first\n",
			        cfg->inputs[p], budget >> 10);
			ok = false;
		}
		merge_reader_free(&m);
		fclose(fp);
		keep_bytes -= kept[p].bytes;
	}
	free(first.text);
	return ok && check_duplicates(cfg, l);
}

/* ---- the second pass: the report ----------------------------------------- */

/* One input's part of the report, as pipeline.c writes it. */
struct merge_out {
	const struct config *cfg; /* the run's: its inputs are the parts' inputs */
	FILE *out;
	bool begun; /* the input's part opened (JSON, JUnit) */
	struct json_input json_in;
	struct junit_input junit_in;
	uint64_t dropped_by_severity[SEV_COUNT]; /* findings of --disable'd rules */
	/* HTML: the input's block, held to its summary as a run holds it */
	struct html_input *html;
	/* per finding of the input in the part, of the first
	 * HTML_FINDINGS_MAX (the ones its markers name): its index on the page,
	 * -1 when it is not shown (--disable); one array for all the part's
	 * inputs (second_pass_part) */
	int32_t *page_index;
	uint64_t findings; /* of the input in the part */
	bool dropped_marked; /* a finding a marker may name was left out */
};

static void input_begin(struct merge_out *mo, const char *file, int index)
{
	if (mo->begun)
		return;
	mo->begun = true;
	run_report_between(mo->cfg, mo->out, index);
	if (mo->cfg->quiet)
		return;
	if (mo->cfg->format == OUT_JSON)
		report_json_input_begin(&mo->json_in, mo->out, file);
	else if (mo->cfg->format == OUT_JUNIT)
		report_junit_input_begin(mo->out, file);
}

/* The input's page block, from its first line on; false when out of
 * memory. */
static bool html_begin(struct merge_out *mo, const char *file)
{
	if (mo->cfg->format != OUT_HTML || mo->cfg->quiet || mo->html)
		return true;
	mo->html = report_html_input_begin(mo->out, file);
	if (!mo->html)
		fprintf(stderr, "dllpcheck: out of memory\n");
	return mo->html != NULL;
}

/* A finding's index on the page (its markers name it by its place in
 * the part). */
static void html_finding(struct merge_out *mo, const struct finding *f, bool shown)
{
	uint64_t n = mo->findings++;
	int at = shown ? report_html_input_finding(mo->html, f) : -1;
	if (n >= HTML_FINDINGS_MAX)
		return;
	mo->page_index[n] = at;
	if (!shown)
		mo->dropped_marked = true;
}

static void merge_finding(struct merge_out *mo, const struct finding *f, int index)
{
	input_begin(mo, f->pos.file, index);
	bool enabled = mo->cfg->rule_enabled[f->rule];
	if (mo->html)
		html_finding(mo, f, enabled);
	if (!enabled) {
		mo->dropped_by_severity[f->severity]++;
		return;
	}
	if (mo->cfg->quiet)
		return;
	switch (mo->cfg->format) {
	case OUT_TEXT:
		report_text_finding(mo->out, f);
		break;
	case OUT_JSONL:
		report_jsonl_finding(mo->out, f);
		break;
	case OUT_JSON:
		report_json_finding(&mo->json_in, f);
		break;
	case OUT_JUNIT:
		report_junit_finding(&mo->junit_in, f);
		break;
	case OUT_HTML:
		break; /* html_finding() */
	}
}

/* A chart of the part onto the page: its markers name the findings by
 * their places on the page; those not shown lose theirs. */
static bool merge_chart(struct merge_out *mo, struct html_chart_copy *c)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < c->mark_count; i++) {
		int32_t at = mo->page_index[c->marks[i].index];
		if (at < 0)
			continue;
		c->marks[kept] = c->marks[i];
		c->marks[kept++].index = (uint32_t)at;
	}
	c->mark_count = kept;
	if (report_html_input_chart(mo->html, c))
		return true;
	fprintf(stderr, "dllpcheck: out of memory\n");
	return false;
}

/* The input's block, at its summary: a part made without --with-charts
 * has no charts to give it, which the page and standard error say. */
static void merge_page_input(struct merge_out *mo, const struct merge_reader *m,
                             const struct input_report *rep, int status)
{
	if (!m->charts.seen) {
		fprintf(stderr,
		        "dllpcheck: %s: line %llu: warning: \"%s\" has no charts line: the part "
		        "was made without --with-charts, its page shows no charts\n",
		        m->name, (unsigned long long)m->line, m->file);
		report_html_input_no_charts(mo->html, "made without --with-charts: its part "
		                                      "carried no charts");
	} else if (mo->dropped_marked && mo->findings > HTML_FINDINGS_MAX) {
		/* the part marked its first findings only; the page shows
		 * later ones in the place of those --disable left out */
		fprintf(stderr,
		        "dllpcheck: %s: warning: \"%s\": the findings shown past the part's "
		        "first %d have no markers on the charts (--disable at the merge)\n",
		        m->name, m->file, HTML_FINDINGS_MAX);
	}
	report_html_input_end(mo->html, rep, status);
	mo->html = NULL;
}

static void merge_summary(struct merge_out *mo, const struct merge_reader *m, int index,
                          struct input_result *res)
{
	const struct config *cfg = mo->cfg;
	const struct merge_input *in = &m->input;
	input_begin(mo, m->file, index);
	memset(res, 0, sizeof(*res));
	res->opened = true;
	snprintf(res->format, sizeof(res->format), "%s", in->format);
	res->stats = in->stats;
	/* the counts of the findings reported */
	struct finding_sink sink;
	finding_sink_init(&sink, NULL, NULL);
	for (unsigned r = 0; r < RULE_COUNT; r++)
		sink.count_by_rule[r] = cfg->rule_enabled[r] ? in->by_rule[r] : 0;
	for (unsigned s = 0; s < SEV_COUNT; s++)
		sink.count_by_severity[s] = in->by_severity[s] - mo->dropped_by_severity[s];
	struct input_report rep = {
		.file = m->file,
		.format = in->format,
		.encapsulation = in->has_encapsulation ? in->encapsulation : NULL,
		.stats = &res->stats,
		.sink = &sink,
		.merged = true,
		.link_views = in->views,
		.link_index = in->link_index,
		.link_count = in->link_count,
		.fc_opts = &in->opts,
		.stats_wanted = cfg->stats,
	};
	pipeline_result(res, &sink, cfg->fail_on);
	if (!cfg->quiet) {
		switch (cfg->format) {
		case OUT_TEXT:
			report_text_input(mo->out, &rep);
			break;
		case OUT_JSONL:
			report_jsonl_input(mo->out, &rep);
			break;
		case OUT_JSON:
			report_json_input_end(&mo->json_in, &rep);
			break;
		case OUT_JUNIT:
			report_junit_input_end(mo->out, &rep);
			break;
		case OUT_HTML:
			merge_page_input(mo, m, &rep, res->status);
			break;
		}
	}
}

static void merge_out_init(struct merge_out *mo, const struct config *run, FILE *out,
                           int32_t *page_index)
{
	report_html_input_free(mo->html); /* (an input the part left unfinished) */
	memset(mo, 0, sizeof(*mo));
	mo->cfg = run;
	mo->out = out;
	mo->junit_in.out = out;
	mo->junit_in.fail_on = run->fail_on;
	mo->page_index = page_index;
}

/* Part p into the report, from its text fp or, when fp is NULL, from its
 * lines kept; false when it is no longer what the first pass read. */
static bool second_pass_part(const struct config *run, const char *part, FILE *fp,
                             const struct merge_kept *kept, FILE *out, struct input_result *results,
                             int *index, int *status)
{
	struct merge_reader m;
	if (fp)
		merge_reader_init(&m, fp, part);
	else
		merge_reader_init_kept(&m, kept, part);
	struct merge_out mo = { 0 };
	int32_t *page_index = NULL;
	if (run->format == OUT_HTML && !run->quiet) {
		page_index = malloc(HTML_FINDINGS_MAX * sizeof(*page_index));
		if (!page_index) {
			fprintf(stderr, "dllpcheck: out of memory\n");
			merge_reader_free(&m);
			if (fp)
				fclose(fp);
			return false;
		}
	}
	merge_out_init(&mo, run, out, page_index);
	bool ok = true;
	for (;;) {
		enum merge_item item = merge_reader_next(&m);
		if (item == MERGE_END)
			break;
		if (item == MERGE_BATCH)
			continue;
		if (item == MERGE_FAIL || *index >= run->input_count) {
			fprintf(stderr, "dllpcheck: %s\n",
			        item == MERGE_FAIL ? m.err
			                           : "the parts changed while they were merged");
			ok = false;
			break;
		}
		struct input_result *res = &results[*index];
		if (item != MERGE_ERROR && !html_begin(&mo, m.file)) {
			ok = false;
			break;
		}
		if (item == MERGE_FINDING) {
			merge_finding(&mo, &m.finding, *index);
		} else if (item == MERGE_CHARTS) {
			input_begin(&mo, m.file, *index);
			if (mo.html)
				report_html_input_times(mo.html, &m.charts.times);
		} else if (item == MERGE_CHART) {
			if (mo.html && !merge_chart(&mo, m.chart)) {
				ok = false;
				break;
			}
		} else if (item == MERGE_SUMMARY) {
			merge_summary(&mo, &m, *index, res);
		} else if (item == MERGE_ERROR) {
			run_report_between(run, out, *index);
			res->status = EXIT_ERROR;
			snprintf(res->error, sizeof(res->error), "%.500s", m.error);
			snprintf(res->format, sizeof(res->format), "%s", m.error_format);
			run_input_error(run, m.file, m.error_format[0] ? m.error_format : NULL, out,
			                stderr, m.error);
		}
		if (item == MERGE_SUMMARY || item == MERGE_ERROR) {
			if (res->status > *status)
				*status = res->status;
			(*index)++;
			merge_out_init(&mo, run, out, page_index);
		}
	}
	report_html_input_free(mo.html);
	free(page_index);
	merge_reader_free(&m);
	if (fp)
		fclose(fp);
	return ok;
}

static int second_pass(const struct config *cfg, const struct part_opener *po,
                       const struct merge_list *l, struct merge_kept *kept, FILE *out)
{
	struct config run = *cfg;
	run.inputs = l->files;
	run.input_count = l->count;
	struct input_result *results = calloc((size_t)(l->count ? l->count : 1), sizeof(*results));
	if (!results) {
		fprintf(stderr, "dllpcheck: out of memory\n");
		return EXIT_ERROR;
	}
	run_report_begin(&run, out);
	int status = EXIT_CLEAN, index = 0;
	bool ok = true;
	for (int p = 0; p < cfg->input_count && ok; p++) {
		FILE *fp = NULL;
		if (kept[p].over) {
			fp = po->open(cfg->inputs[p], po->ctx);
			if (!fp) {
				ok = false;
				break;
			}
		}
		ok = second_pass_part(&run, cfg->inputs[p], fp, &kept[p], out, results, &index,
		                      &status);
		merge_kept_free(&kept[p]); /* read: its memory to the next */
	}
	if (ok && index != l->count) {
		fprintf(stderr, "dllpcheck: the parts changed while they were merged\n");
		ok = false;
	}
	/* an incomplete report has no end */
	if (ok)
		run_report_end(&run, out, results, status);
	free(results);
	return ok ? status : EXIT_ERROR;
}

int run_merge_parts(const struct config *cfg, FILE *(*open)(const char *name, void *ctx), void *ctx,
                    size_t keep_bytes, FILE *out)
{
	struct part_opener po = { open, ctx };
	struct merge_list l = { 0 };
	struct merge_kept *kept =
	        calloc((size_t)(cfg->input_count ? cfg->input_count : 1), sizeof(*kept));
	if (!kept) {
		fprintf(stderr, "dllpcheck: out of memory\n");
		return EXIT_ERROR;
	}
	int status = first_pass(cfg, &po, &l, kept, keep_bytes)
	                     ? second_pass(cfg, &po, &l, kept, out)
	                     : EXIT_ERROR;
	for (int p = 0; p < cfg->input_count; p++)
		merge_kept_free(&kept[p]);
	free(kept);
	list_free(&l);
	return status;
}

int run_merge(const struct config *cfg, FILE *out)
{
	return run_merge_parts(cfg, open_file, NULL, MERGE_KEEP_BYTES, out);
}
