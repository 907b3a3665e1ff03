/* fuzz_merge: the input is a part of --merge (a run's JSON Lines report,
 * report/merge_read.c), read from memory through the whole merge
 * (cli/merge.c): every line checked, the findings and summaries given to
 * the report formats (text, json, junit and jsonl), and the charts of
 * --with-charts to the HTML page.  Invariants: a part
 * refused is refused with "PART: line N: ..." and nothing written; a part
 * accepted merges to a JSON Lines report that is itself a part the merge
 * accepts, and whose merge is that report again, byte for byte (what the
 * merge reads back it writes as it read it). */
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

/* The merge of part in format, its output in *out (malloc'd). */
static int merge(struct mem_part *part, enum out_format format, bool stats, char **out, size_t *len)
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
	int status = run_merge_parts(&cfg, open_mem, part, fp);
	stderr = saved;
	fclose(fp);
	return status;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mem_part part = { (const char *)data, size };
	char *out = NULL;
	size_t len = 0;
	int status = merge(&part, OUT_JSONL, false, &out, &len);
	FUZZ_ASSERT(status >= -1 && status <= EXIT_ERROR);
	if (status == EXIT_ERROR) {
		/* refused before anything was written (an unreadable input's
		 * error line is written: the run's report) */
		FUZZ_ASSERT(len == 0 || memmem(out, len, "\"type\":\"error\"", 14));
	}
	if (status >= 0 && len > 0) {
		/* the merge's report read back: the same report */
		struct mem_part again = { out, len };
		char *out2 = NULL;
		size_t len2 = 0;
		int status2 = merge(&again, OUT_JSONL, false, &out2, &len2);
		FUZZ_ASSERT(status2 == status);
		FUZZ_ASSERT(len2 == len && memcmp(out, out2, len) == 0);
		free(out2);
		/* the other formats, with the statistics (refused when the
		 * part has none); the HTML page of the part's charts */
		for (enum out_format f = OUT_TEXT; f <= OUT_HTML; f++) {
			char *o = NULL;
			size_t l = 0;
			int st = merge(&part, f, true, &o, &l);
			FUZZ_ASSERT(st == status || st == EXIT_ERROR);
			free(o);
		}
	}
	free(out);
	return 0;
}
