/* check_merge_keep.c: unit tests of cli/merge.c's kept lines: the parts
 * whose text fits the budget are read once (their lines kept from the
 * first pass for the second), the others twice, and the report is the
 * same, byte for byte and status, whatever the budget. */
#include "autoconfig.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/config.h"
#include "cli/merge.h"
#include "core/input_stats.h"
#include "suites.h"

#define PARTS 4

static const char *const part_names[PARTS] = { "crc-errors", "clean-init", "lost-completion",
	                                       "overrun" };

/* The parts (tests/golden-reports' JSON Lines reports), by name, and how
 * many times each was opened. */
struct parts {
	char *name[PARTS];
	char *text[PARTS];
	size_t size[PARTS];
	unsigned opens[PARTS];
};

/* text (size bytes) with its "VERSION" (the golden reports' stand-in)
 * made this build's version, in place: the version is not longer */
static size_t put_version(char *text, size_t size)
{
	static const char key[] = "\"version\":\"VERSION\"";
	static const char ours[] = "\"version\":\"" PACKAGE_VERSION "\"";
	_Static_assert(sizeof(ours) <= sizeof(key), "a version longer than VERSION");
	size_t out = 0;
	for (size_t in = 0; in < size;) {
		if (size - in >= sizeof(key) - 1 && memcmp(text + in, key, sizeof(key) - 1) == 0) {
			memcpy(text + out, ours, sizeof(ours) - 1);
			out += sizeof(ours) - 1;
			in += sizeof(key) - 1;
		} else {
			text[out++] = text[in++];
		}
	}
	return out;
}

static void parts_load(struct parts *ps)
{
	memset(ps, 0, sizeof(*ps));
	for (unsigned i = 0; i < PARTS; i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/tests/golden-reports/%s.jsonl", SRCDIR,
		         part_names[i]);
		FILE *fp = fopen(path, "rb");
		ck_assert_msg(fp != NULL, "%s", path);
		ck_assert_int_eq(fseek(fp, 0, SEEK_END), 0);
		long size = ftell(fp);
		ck_assert_int_gt(size, 0);
		rewind(fp);
		/* room for a line added by a test */
		ps->text[i] = malloc((size_t)size + 64);
		ck_assert_ptr_nonnull(ps->text[i]);
		ck_assert_uint_eq(fread(ps->text[i], 1, (size_t)size, fp), (size_t)size);
		fclose(fp);
		ps->size[i] = put_version(ps->text[i], (size_t)size);
		ps->name[i] = strdup(part_names[i]);
		ck_assert_ptr_nonnull(ps->name[i]);
	}
}

static void parts_free(struct parts *ps)
{
	for (unsigned i = 0; i < PARTS; i++) {
		free(ps->name[i]);
		free(ps->text[i]);
	}
}

static FILE *open_part(const char *name, void *ctx)
{
	struct parts *ps = ctx;
	for (unsigned i = 0; i < PARTS; i++)
		if (strcmp(name, ps->name[i]) == 0) {
			ps->opens[i]++;
			return fmemopen(ps->text[i], ps->size[i], "r");
		}
	return NULL;
}

/* The merge of the parts in format with keep_bytes; its report in *out
 * (malloc'd), its status returned, the opens counted afresh. */
static int merge(struct parts *ps, enum out_format format, size_t keep_bytes, char **out)
{
	struct config cfg;
	config_init(&cfg);
	cfg.merge = true;
	cfg.format = format;
	cfg.inputs = ps->name;
	cfg.input_count = PARTS;
	memset(ps->opens, 0, sizeof(ps->opens));
	size_t len = 0;
	*out = NULL;
	FILE *fp = open_memstream(out, &len);
	ck_assert_ptr_nonnull(fp);
	FILE *saved = stderr;
	stderr = fopen("/dev/null", "w"); /* the HTML page's warnings: no charts */
	ck_assert_ptr_nonnull(stderr);
	int status = run_merge_parts(&cfg, open_part, ps, keep_bytes, fp);
	fclose(stderr);
	stderr = saved;
	fclose(fp);
	return status;
}

START_TEST(test_budgets_give_one_report)
{
	static const enum out_format formats[] = { OUT_JSONL, OUT_TEXT, OUT_JSON, OUT_JUNIT,
		                                   OUT_HTML };
	struct parts ps;
	parts_load(&ps);
	for (unsigned f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		/* every part read twice: the reference */
		char *twice = NULL;
		int status = merge(&ps, formats[f], 0, &twice);
		ck_assert_int_ge(status, 0);
		ck_assert_uint_gt(strlen(twice), 0);
		for (unsigned i = 0; i < PARTS; i++)
			ck_assert_uint_eq(ps.opens[i], 2);
		/* budgets: all kept; the first two; the first outgrows it on
		 * its last line, the second (smaller) is kept.  A part is kept
		 * when its text fits what the parts before it left of the
		 * budget. */
		size_t budgets[] = { MERGE_KEEP_BYTES, ps.size[0] + ps.size[1], ps.size[0] - 1 };
		for (unsigned b = 0; b < 3; b++) {
			char *out = NULL;
			ck_assert_int_eq(merge(&ps, formats[f], budgets[b], &out), status);
			ck_assert_msg(strcmp(out, twice) == 0, "format %u budget %zu", f,
			              budgets[b]);
			size_t left = budgets[b];
			for (unsigned i = 0; i < PARTS; i++) {
				unsigned opens = ps.size[i] <= left ? 1 : 2;
				if (opens == 1)
					left -= ps.size[i];
				ck_assert_msg(ps.opens[i] == opens,
				              "format %u budget %zu: part %u opened %u times", f,
				              budgets[b], i, ps.opens[i]);
			}
			free(out);
		}
		free(twice);
	}
	parts_free(&ps);
}
END_TEST

/* A part refused on its last line, after lines kept: nothing written,
 * the lines kept freed (the sanitizers' run checks for the leak). */
START_TEST(test_refused_after_kept)
{
	struct parts ps;
	parts_load(&ps);
	static const char bad[] = "{\"type\":\"nothing\"}\n";
	memcpy(ps.text[2] + ps.size[2], bad, sizeof(bad) - 1);
	ps.size[2] += sizeof(bad) - 1;
	char *out = NULL;
	ck_assert_int_eq(merge(&ps, OUT_JSONL, MERGE_KEEP_BYTES, &out), EXIT_ERROR);
	ck_assert_uint_eq(strlen(out), 0);
	/* the first pass stopped at part 2: part 3 never opened */
	ck_assert_uint_eq(ps.opens[0], 1);
	ck_assert_uint_eq(ps.opens[2], 1);
	ck_assert_uint_eq(ps.opens[3], 0);
	free(out);
	parts_free(&ps);
}
END_TEST

Suite *suite_merge_keep(void)
{
	Suite *s = suite_create("merge_keep");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_budgets_give_one_report);
	tcase_add_test(tc, test_refused_after_kept);
	suite_add_tcase(s, tc);
	return s;
}
