/* check_rules.c: the rule catalogue and the finding sink. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/rules.h"
#include "base/utf8.h"
#include "suites.h"

/* Every rule has an id of the dotted form, a title and a spec reference,
 * and looking its id up gives the rule back. */
START_TEST(test_catalogue_complete)
{
	ck_assert_int_gt(RULE_COUNT, 0);
	for (unsigned i = 0; i < RULE_COUNT; i++) {
		const struct rule_info *ri = rule_info(i);
		ck_assert_ptr_nonnull(ri->id);
		ck_assert_msg(strchr(ri->id, '.') != NULL, "rule id %s is not dotted", ri->id);
		ck_assert_ptr_nonnull(ri->title);
		ck_assert_ptr_nonnull(ri->spec_ref);
		enum rule_id back;
		ck_assert(rule_lookup(ri->id, &back));
		ck_assert_uint_eq(back, i);
	}
}
END_TEST

/* Ids are unique. */
START_TEST(test_catalogue_unique)
{
	for (unsigned i = 0; i < RULE_COUNT; i++)
		for (unsigned j = i + 1; j < RULE_COUNT; j++)
			ck_assert_str_ne(rule_info(i)->id, rule_info(j)->id);
}
END_TEST

/* An unknown id is not found. */
START_TEST(test_lookup_unknown)
{
	enum rule_id r;
	ck_assert(!rule_lookup("fc.no-such-rule", &r));
	ck_assert(!rule_lookup("", &r));
}
END_TEST

static unsigned emitted;
static void count_emit(void *ctx, const struct finding *f)
{
	(void)ctx;
	(void)f;
	emitted++;
}

/* A disabled rule is neither counted nor emitted; an enabled one is both,
 * under its catalogue severity. */
START_TEST(test_sink_filters_and_counts)
{
	struct finding_sink sink;
	struct finding f;
	emitted = 0;
	finding_sink_init(&sink, count_emit, NULL);
	finding_init(&f, R_DLLP_CRC, NULL);
	rules_raise(&sink, &f);
	ck_assert_uint_eq(emitted, 1);
	ck_assert_uint_eq(sink.count_by_rule[R_DLLP_CRC], 1);
	ck_assert_uint_eq(sink.count_by_severity[SEV_ERROR], 1);
	sink.enabled[R_DLLP_CRC] = false;
	rules_raise(&sink, &f);
	ck_assert_uint_eq(emitted, 1);
	ck_assert_uint_eq(sink.count_by_rule[R_DLLP_CRC], 1);
}
END_TEST

/* The sentence is formatted only for a finding the sink will print: not
 * for a disabled rule, not when nothing is printed (-q). */
START_TEST(test_message_only_when_printed)
{
	struct finding_sink sink;
	struct finding f;
	finding_sink_init(&sink, count_emit, NULL);
	finding_init(&f, R_DLLP_CRC, NULL);
	finding_message(&sink, &f, "CRC 0x%04X", 0xBEEFu);
	ck_assert_str_eq(f.message, "CRC 0xBEEF");

	finding_init(&f, R_DLLP_CRC, NULL);
	sink.enabled[R_DLLP_CRC] = false;
	finding_message(&sink, &f, "CRC 0x%04X", 0xBEEFu);
	ck_assert_str_eq(f.message, "");

	finding_sink_init(&sink, NULL, NULL);
	finding_init(&f, R_DLLP_CRC, NULL);
	finding_message(&sink, &f, "CRC 0x%04X", 0xBEEFu);
	ck_assert_str_eq(f.message, "");
}
END_TEST

/* Severity names parse back; junk does not. */
START_TEST(test_severity_names)
{
	enum severity s;
	for (unsigned i = 0; i < SEV_COUNT; i++) {
		ck_assert(severity_parse(severity_name(i), &s));
		ck_assert_uint_eq(s, i);
	}
	ck_assert(!severity_parse("fatal", &s));
}
END_TEST

/* Evidence is capped at FINDING_MAX_EVIDENCE items, never overflowing. */
START_TEST(test_evidence_cap)
{
	struct finding f;
	finding_init(&f, R_TLP_LCRC, NULL);
	for (int i = 0; i < FINDING_MAX_EVIDENCE + 3; i++)
		finding_add_evidence(&f, "x", i);
	ck_assert_uint_eq(f.evidence_count, FINDING_MAX_EVIDENCE);
	ck_assert_int_eq(f.evidence[FINDING_MAX_EVIDENCE - 1].value, FINDING_MAX_EVIDENCE - 1);
}
END_TEST

/* The man page lists every rule of the catalogue. */
START_TEST(test_man_page_lists_rules)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/man/dllpcheck.1", SRCDIR);
	FILE *fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	static char text[1 << 18];
	size_t n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	for (unsigned i = 0; i < RULE_COUNT; i++) {
		/* groff escapes '.' at line start only; ids appear as written,
		 * with '\-' for '-' */
		char want[128];
		size_t k = 0;
		for (const char *p = rule_info(i)->id; *p && k + 3 < sizeof(want); p++) {
			if (*p == '-')
				want[k++] = '\\';
			want[k++] = *p;
		}
		want[k] = '\0';
		ck_assert_msg(strstr(text, want) != NULL, "man page lacks rule %s", rule_info(i)->id);
	}
}
END_TEST

/* Every rule of the catalogue has a scenario that fires it and a near
 * miss that must not (tests/scenarios/RULE/{fire,miss}.trace, run by
 * tests/test-scenarios.sh): no rule is listed that never fires. */
START_TEST(test_every_rule_has_scenarios)
{
	for (unsigned i = 0; i < RULE_COUNT; i++) {
		static const char *const cases[] = { "fire", "miss" };
		for (unsigned c = 0; c < 2; c++) {
			/* the input is a text trace, or a pcap where text cannot
			 * express the case; the expected findings sit beside it */
			static const char *const kinds[] = { "trace", "pcap", "expected" };
			bool found[3] = { false, false, false };
			for (unsigned k = 0; k < 3; k++) {
				char path[4096];
				snprintf(path, sizeof(path), "%s/tests/scenarios/%s/%s.%s",
				         SRCDIR, rule_info(i)->id, cases[c], kinds[k]);
				FILE *fp = fopen(path, "r");
				found[k] = fp != NULL;
				if (fp)
					fclose(fp);
			}
			ck_assert_msg(found[0] || found[1], "rule %s has no %s.trace or %s.pcap",
			              rule_info(i)->id, cases[c], cases[c]);
			ck_assert_msg(found[2], "rule %s has no %s.expected",
			              rule_info(i)->id, cases[c]);
		}
	}
}
END_TEST

/* File names that are not UTF-8 are escaped byte by byte; valid UTF-8
 * (also multi-byte) is kept; overlongs and surrogates are not valid. */
START_TEST(test_utf8_escape)
{
	char out[64];
	ck_assert(utf8_valid("caps/\xc3\xa9t\xc3\xa9.pcap"));
	ck_assert(!utf8_valid("bad\xffname"));
	ck_assert(!utf8_valid("\xc0\xaf"));          /* overlong '/' */
	ck_assert(!utf8_valid("\xed\xa0\x80"));      /* surrogate */
	ck_assert(!utf8_valid("\xe2\x82"));          /* cut */
	utf8_escape("a\xff" "b\xc3\xa9", out, sizeof(out));
	ck_assert_str_eq(out, "a\\xFFb\xc3\xa9");
	utf8_escape("\xff\xff\xff", out, 6);        /* never past cap */
	ck_assert_str_eq(out, "\\xFF");
}
END_TEST

Suite *suite_rules(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("catalogue");
	tcase_add_test(tc, test_catalogue_complete);
	tcase_add_test(tc, test_catalogue_unique);
	tcase_add_test(tc, test_lookup_unknown);
	tcase_add_test(tc, test_sink_filters_and_counts);
	tcase_add_test(tc, test_message_only_when_printed);
	tcase_add_test(tc, test_severity_names);
	tcase_add_test(tc, test_evidence_cap);
	tcase_add_test(tc, test_man_page_lists_rules);
	tcase_add_test(tc, test_every_rule_has_scenarios);
	tcase_add_test(tc, test_utf8_escape);
	suite_add_tcase(s, tc);
	return s;
}
