/* fuzz_merge: the input is a part of --merge (a run's JSON Lines report,
 * report/merge_read.c), read from memory through the whole merge
 * (cli/merge.c): every line checked, the findings and summaries given to
 * one report format, and for the HTML page the charts of --with-charts.
 *
 * One format an execution, chosen by the sum of the input's bytes
 * (modulo 6), so that almost any mutation moves the input to another
 * one (the seeds spread over all six):
 *   0  JSON Lines without --stats, then its round trip (below)
 *   1  JSON Lines with --stats
 *   2  text, 3  JSON, 4  JUnit, 5  HTML: with --stats (refused when the
 *      part has none)
 * (Each execution used to merge in all of them, seven merges each
 * reading the part twice: 70 executions a second on the seeds.)
 *
 * Invariants: the status is one of the merge's; a JSON Lines merge that
 * refuses the part writes nothing (an input's error line is the run's
 * report); a part accepted merges to a JSON Lines report that is itself
 * a part the merge accepts, with the same status, and whose merge is
 * that report again, byte for byte (what the merge reads back it writes
 * as it read it).
 *
 * jansson, which parses every line of the part (once, or twice: the
 * merge's two passes when the part is not kept) and builds the report's
 * JSON, allocates from fuzz_common.h's arena during the execution (its
 * blocks keep ASan's checks: overflow, use after free, double free, and a
 * leak traps at the execution's end);
 * the report's code frees no text of jansson's allocator with free()
 * (report_json_text()). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/config.h"
#include "cli/merge.h"
#include "core/input_stats.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct mem_part {
	const char *data;
	size_t size;
};

static FILE *open_mem(const char *name, void *ctx)
{
	(void)name;
	struct mem_part *p = ctx;
	return fuzz_memfile((const uint8_t *)p->data, p->size);
}

/* The merge of part in format, its output in *out (malloc'd); keep_bytes:
 * run_merge_parts()'s. */
static int merge(struct mem_part *part, enum out_format format, bool stats, size_t keep_bytes,
                 char **out, size_t *len)
{
	static struct config cfg;
	static char name[] = "fuzz";
	static char *inputs[] = { name };
	config_init(&cfg);
	cfg.merge = true;
	cfg.format = format;
	cfg.inputs = inputs;
	cfg.input_count = 1;
	cfg.stats = stats;
	*out = NULL;
	*len = 0;
	FILE *fp = open_memstream(out, len);
	if (!fp)
		return -1;
	FILE *saved = stderr;
	stderr = fuzz_devnull(); /* the messages: checked by the tests */
	int status = run_merge_parts(&cfg, open_mem, part, keep_bytes, fp);
	stderr = saved;
	fclose(fp);
	return status;
}

/* The JSON Lines merge, and its round trip when without --stats: the one
 * with a budget of half the part's text (the part is read twice, its
 * lines kept until they outgrow the budget), the other as run_merge(). */
static void merge_jsonl(struct mem_part *part, bool stats)
{
	char *out = NULL;
	size_t len = 0;
	int status = merge(part, OUT_JSONL, stats, stats ? MERGE_KEEP_BYTES : part->size / 2, &out,
	                   &len);
	FUZZ_ASSERT(status >= -1 && status <= EXIT_ERROR);
	if (status == EXIT_ERROR) {
		/* refused before anything was written (an unreadable input's
		 * error line is written: the run's report) */
		FUZZ_ASSERT(len == 0 || memmem(out, len, "\"type\":\"error\"", 14));
	}
	bool same = len == part->size && memcmp(out, part->data, len) == 0;
	if (!stats && status >= 0 && len > 0 && !same) {
		/* the merge's report read back: the same report (not run
		 * when the report is the part itself, a run's report as the
		 * seeds are: its merge would be this one again, but for the
		 * budget, whose every use gives one report: tests/unit's
		 * check_merge_keep.c) */
		struct mem_part again = { out, len };
		char *out2 = NULL;
		size_t len2 = 0;
		int status2 = merge(&again, OUT_JSONL, false, MERGE_KEEP_BYTES, &out2, &len2);
		FUZZ_ASSERT(status2 == status);
		FUZZ_ASSERT(len2 == len && memcmp(out, out2, len) == 0);
		free(out2);
	}
	free(out);
}

/* The format of the execution: the sum of the bytes, modulo 6 (not the
 * code under test: no coverage, and not inlined into the code that is,
 * where each byte's loop test was traced: 4% of the time). */
__attribute__((no_sanitize("coverage"), noinline)) static unsigned mode_of(const uint8_t *data,
                                                                           size_t size)
{
	size_t sum = 0;
	for (size_t i = 0; i < size; i++)
		sum += data[i];
	return (unsigned)(sum % 6);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum out_format formats[6] = { OUT_JSONL, OUT_JSONL, OUT_TEXT,
		                                    OUT_JSON,  OUT_JUNIT, OUT_HTML };
	struct mem_part part = { (const char *)data, size };
	unsigned mode = mode_of(data, size);
	enum out_format format = formats[mode];
	fuzz_arena_begin();
	json_set_alloc_funcs(fuzz_arena_malloc, fuzz_arena_free);
	if (format == OUT_JSONL) {
		merge_jsonl(&part, mode == 1);
	} else {
		char *out = NULL;
		size_t len = 0;
		int status = merge(&part, format, true, MERGE_KEEP_BYTES, &out, &len);
		FUZZ_ASSERT(status >= -1 && status <= EXIT_ERROR);
		free(out);
	}
	json_set_alloc_funcs(malloc, free);
	fuzz_arena_end(); /* traps on a block not freed */
	return 0;
}
