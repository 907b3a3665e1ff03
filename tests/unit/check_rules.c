/* check_rules.c: the rule catalogue, its evidence keys and the finding
 * sink. */
#include <ctype.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "cli/config.h"
#include "cli/run.h"
#include "core/rules.h"
#include "scenario_walk.h"
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
		ck_assert_msg(strstr(text, want) != NULL, "man page lacks rule %s",
		              rule_info(i)->id);
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
				snprintf(path, sizeof(path), "%s/tests/scenarios/%s/%s.%s", SRCDIR,
				         rule_info(i)->id, cases[c], kinds[k]);
				FILE *fp = fopen(path, "r");
				found[k] = fp != NULL;
				if (fp)
					fclose(fp);
			}
			ck_assert_msg(found[0] || found[1], "rule %s has no %s.trace or %s.pcap",
			              rule_info(i)->id, cases[c], cases[c]);
			ck_assert_msg(found[2], "rule %s has no %s.expected", rule_info(i)->id,
			              cases[c]);
		}
	}
}
END_TEST

/* ---- evidence keys (rules.def) ------------------------------------------ */

/* The i-th key of a rule's list into out (without the optional mark '?');
 * false past the last.  *optional tells whether it had the mark. */
static bool evidence_key(enum rule_id rule, unsigned i, char *out, size_t cap, bool *optional)
{
	const char *p = rule_info(rule)->evidence_keys;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			return false;
		size_t k = strcspn(p, " ");
		if (i-- == 0) {
			*optional = p[k - 1] == '?';
			size_t n = *optional ? k - 1 : k;
			if (n >= cap)
				n = cap - 1;
			memcpy(out, p, n);
			out[n] = '\0';
			return true;
		}
		p += k;
	}
}

/* Every key is a JSON-friendly name (the schemas' propertyNames pattern),
 * with at most a trailing '?', once per rule, separated by single spaces;
 * the lookup finds each key and nothing that is only part of one. */
START_TEST(test_evidence_keys_wellformed)
{
	for (unsigned r = 0; r < RULE_COUNT; r++) {
		const char *list = rule_info(r)->evidence_keys;
		const char *id = rule_info(r)->id;
		ck_assert_ptr_nonnull(list);
		ck_assert_msg(list[0] != ' ' && strstr(list, "  ") == NULL &&
		                      (!*list || list[strlen(list) - 1] != ' '),
		              "%s: keys not separated by single spaces: \"%s\"", id, list);
		char key[64], other[64];
		bool opt, opt2;
		for (unsigned i = 0; evidence_key(r, i, key, sizeof(key), &opt); i++) {
			ck_assert_msg(isalpha((unsigned char)key[0]) || key[0] == '_',
			              "%s: key \"%s\" does not start with a letter", id, key);
			for (const char *c = key; *c; c++)
				ck_assert_msg(isalnum((unsigned char)*c) || *c == '_',
				              "%s: key \"%s\" has a character other than "
				              "letters, digits and '_'",
				              id, key);
			for (unsigned j = 0; j < i; j++) {
				ck_assert(evidence_key(r, j, other, sizeof(other), &opt2));
				ck_assert_msg(strcmp(key, other) != 0, "%s lists \"%s\" twice", id,
				              key);
			}
			ck_assert_msg(rule_evidence_key_listed(r, key), "%s: lookup of \"%s\"", id,
			              key);
		}
	}
	ck_assert(rule_evidence_key_listed(R_FC_CREDIT_OVERRUN, "CL"));
	ck_assert(rule_evidence_key_listed(R_FC_CREDIT_OVERRUN, "width"));
	ck_assert(!rule_evidence_key_listed(R_FC_CREDIT_OVERRUN, "C"));
	ck_assert(!rule_evidence_key_listed(R_FC_CREDIT_OVERRUN, "CL "));
	ck_assert(!rule_evidence_key_listed(R_FC_CREDIT_OVERRUN, ""));
	ck_assert(!rule_evidence_key_listed(R_FC_CREDIT_OVERRUN, "seq"));
	ck_assert(!rule_evidence_key_listed(R_DL_PM_DIRECTION, "seq"));
	ck_assert(rule_evidence_key_listed(R_CAPTURE_RESYNC, "bytes_unread"));
	/* the optional mark is not part of the key */
	ck_assert(evidence_key_in_list("a bb? c", "bb"));
	ck_assert(evidence_key_in_list("a bb? c", "c"));
	ck_assert(evidence_key_in_list("bb?", "bb"));
	ck_assert(!evidence_key_in_list("a bb? c", "bb?"));
	ck_assert(!evidence_key_in_list("a bb? c", "b"));
	ck_assert(!evidence_key_in_list("a bb? c", "?"));
	ck_assert(!evidence_key_in_list("", "a"));
}
END_TEST

/* A whole file into a static buffer (the man page, rules.def). */
static const char *slurp(const char *rel)
{
	static char text[2][1 << 18];
	static unsigned which;
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", SRCDIR, rel);
	FILE *fp = fopen(path, "r");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	char *buf = text[which++ % 2];
	size_t n = fread(buf, 1, sizeof(text[0]) - 1, fp);
	ck_assert_msg(!ferror(fp) && n < sizeof(text[0]) - 1, "cannot read all of %s", path);
	fclose(fp);
	buf[n] = '\0';
	return buf;
}

/* Whether the first column of one of the lines " *   KEY[, KEY]  meaning"
 * in rules.def's table of meanings names key. */
static bool in_meaning_table(const char *def, const char *key)
{
	const char *table = strstr(def, " *   key ");
	ck_assert_msg(table != NULL, "rules.def has no table of the keys' meanings");
	const char *end = strstr(table, "*/");
	size_t n = strlen(key);
	for (const char *line = table; line && line < end; line = strchr(line + 1, '\n')) {
		const char *p = line + (*line == '\n');
		if (strncmp(p, " *   ", 5) != 0 || p[5] == ' ')
			continue;
		p += 5;
		/* the first column ends at two spaces or the end of the line */
		const char *col_end = p;
		while (*col_end && *col_end != '\n' && strncmp(col_end, "  ", 2) != 0)
			col_end++;
		while (p < col_end) {
			size_t k = strcspn(p, ", \n");
			if (p + k > col_end)
				k = (size_t)(col_end - p);
			if (k == n && memcmp(p, key, n) == 0)
				return true;
			p += k;
			while (p < col_end && (*p == ',' || *p == ' '))
				p++;
		}
	}
	return false;
}

/* Whether the man page's JSON REPORTS section has a tagged paragraph for
 * key: ".B key" or ".BR key ", " other" after a ".TP". */
static bool in_man_json_section(const char *man, const char *key)
{
	const char *sec = strstr(man, "\n.SH JSON REPORTS\n");
	ck_assert_msg(sec != NULL, "man page has no JSON REPORTS section");
	const char *end = strstr(sec + 1, "\n.SH ");
	size_t n = strlen(key);
	for (const char *tp = strstr(sec, "\n.TP\n.B"); tp && tp < end;
	     tp = strstr(tp + 1, "\n.TP\n.B")) {
		const char *p = tp + 7;
		if (*p == 'R')
			p++;
		const char *eol = strchr(p, '\n');
		/* the words outside quotes of the tag line */
		bool quoted = false;
		while (p < eol) {
			if (*p == '"') {
				quoted = !quoted;
				p++;
				continue;
			}
			size_t k = strcspn(p, " \"\n");
			if (!quoted && k == n && memcmp(p, key, n) == 0)
				return true;
			p += k ? k : 1;
		}
	}
	return false;
}

/* Each key's meaning is written once: every key of every rule is in
 * rules.def's table and has its paragraph in the man page's JSON REPORTS
 * section. */
START_TEST(test_evidence_keys_documented)
{
	const char *def = slurp("src/core/rules.def");
	const char *man = slurp("man/dllpcheck.1");
	for (unsigned r = 0; r < RULE_COUNT; r++) {
		char key[64];
		bool opt;
		for (unsigned i = 0; evidence_key(r, i, key, sizeof(key), &opt); i++) {
			ck_assert_msg(in_meaning_table(def, key),
			              "%s: key %s is not in rules.def's table of meanings",
			              rule_info(r)->id, key);
			ck_assert_msg(in_man_json_section(man, key),
			              "%s: key %s has no paragraph in the man page's JSON REPORTS",
			              rule_info(r)->id, key);
		}
	}
	/* the helpers can say no */
	ck_assert(!in_meaning_table(def, "no_such_key"));
	ck_assert(!in_man_json_section(man, "no_such_key"));
	ck_assert(!in_man_json_section(man, "hdr"));
}
END_TEST

/* The man page's entry of each rule (RULES) ends with the line
 * "Evidence: K1, K2." (or "Evidence: none.") naming its keys in the
 * catalogue's order. */
START_TEST(test_man_page_evidence_lines)
{
	const char *man = slurp("man/dllpcheck.1");
	const char *sec = strstr(man, "\n.SH RULES\n");
	ck_assert_msg(sec != NULL, "man page has no RULES section");
	const char *sec_end = strstr(sec + 1, "\n.SH ");
	for (unsigned r = 0; r < RULE_COUNT; r++) {
		char tag[160], want[512];
		size_t k = (size_t)snprintf(tag, sizeof(tag), "\n.B ");
		for (const char *p = rule_info(r)->id; *p && k + 4 < sizeof(tag); p++) {
			if (*p == '-')
				tag[k++] = '\\';
			tag[k++] = *p;
		}
		tag[k++] = '\n';
		tag[k] = '\0';
		const char *entry = strstr(sec, tag);
		ck_assert_msg(entry != NULL && entry < sec_end, "RULES has no entry for %s",
		              rule_info(r)->id);
		const char *next = strstr(entry + 1, "\n.TP\n");
		if (!next || next > sec_end)
			next = sec_end;
		k = (size_t)snprintf(want, sizeof(want), "\n.br\nEvidence: ");
		char key[64];
		bool opt;
		unsigned i = 0;
		for (; evidence_key(r, i, key, sizeof(key), &opt); i++)
			k += (size_t)snprintf(want + k, sizeof(want) - k, "%s%s", i ? ", " : "",
			                      key);
		snprintf(want + k, sizeof(want) - k, "%s.", i ? "" : "none");
		size_t want_len = strlen(want);
		ck_assert_msg((size_t)(next - entry) >= want_len &&
		                      memcmp(next - want_len, want, want_len) == 0,
		              "the man page's entry for %s does not end with \"%s\"",
		              rule_info(r)->id, want + 5);
	}
}
END_TEST

/* Checks one JSONL report: every finding's evidence keys are listed for
 * its rule; counts the findings per rule. */
static void check_report_keys(FILE *report, const char *input, unsigned by_rule[RULE_COUNT])
{
	char line[8192];
	rewind(report);
	while (fgets(line, sizeof(line), report)) {
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		ck_assert_msg(o != NULL, "%s: report line is not JSON: %s", input, jerr.text);
		const char *type = json_string_value(json_object_get(o, "type"));
		if (type && strcmp(type, "finding") == 0) {
			const char *id = json_string_value(json_object_get(o, "rule"));
			enum rule_id rule;
			ck_assert_msg(id && rule_lookup(id, &rule), "%s: finding of no rule",
			              input);
			by_rule[rule]++;
			const char *key;
			json_t *value;
			json_object_foreach(json_object_get(o, "evidence"), key, value)
			{
				ck_assert_msg(rule_evidence_key_listed(rule, key),
				              "%s: %s finding with evidence key \"%s\", which "
				              "rules.def does not list for it",
				              input, id, key);
			}
		}
		json_decref(o);
	}
}

/* Every rule lists at least the keys its findings use: every scenario
 * input (tests/scenarios/RULE/CASE.{trace,pcap}, with the directory's args
 * or CASE.args instead, as tests/test-scenarios.sh runs them) is checked
 * here in-process, and every finding's keys must be listed for its rule.
 * Every rule must have fired somewhere, or the options were not applied.
 * (tests/test-evidence.sh checks the other way round: each listed key is
 * used.) */
/* One scenario input through run_one(), its report's keys checked. */
static void evidence_of_scenario(const char *path, struct config *cfg, void *ctx)
{
	unsigned *by_rule = ctx;
	char input[8192];
	snprintf(input, sizeof(input), "%s", path);
	cfg->format = OUT_JSONL;
	cfg->fail_on = SEV_INFO;
	FILE *report = tmpfile();
	ck_assert(report != NULL);
	struct input_result res;
	char *input_list[1] = { input };
	cfg->inputs = input_list;
	cfg->input_count = 1;
	run_one(cfg, 0, report, &res);
	ck_assert_msg(res.opened && res.status <= 1, "%s: status %d %s", input, res.status,
	              res.error);
	check_report_keys(report, input, by_rule);
	fclose(report);
}

START_TEST(test_evidence_listed_in_scenarios)
{
	unsigned by_rule[RULE_COUNT] = { 0 };
	unsigned inputs = scenario_each(evidence_of_scenario, by_rule);
	ck_assert_uint_gt(inputs, 0);
	for (unsigned r = 0; r < RULE_COUNT; r++)
		ck_assert_msg(by_rule[r] > 0, "no scenario fired %s here", rule_info(r)->id);
}
END_TEST

/* File names that are not UTF-8 are escaped byte by byte; valid UTF-8
 * (also multi-byte) is kept; overlongs and surrogates are not valid. */
START_TEST(test_utf8_escape)
{
	char out[64];
	ck_assert(utf8_valid("caps/\xc3\xa9t\xc3\xa9.pcap"));
	ck_assert(!utf8_valid("bad\xffname"));
	ck_assert(!utf8_valid("\xc0\xaf")); /* overlong '/' */
	ck_assert(!utf8_valid("\xed\xa0\x80")); /* surrogate */
	ck_assert(!utf8_valid("\xe2\x82")); /* cut */
	utf8_escape("a\xff"
	            "b\xc3\xa9",
	            out, sizeof(out));
	ck_assert_str_eq(out, "a\\xFFb\xc3\xa9");
	utf8_escape("\xff\xff\xff", out, 6); /* never past cap */
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
	tcase_add_test(tc, test_evidence_keys_wellformed);
	tcase_add_test(tc, test_evidence_keys_documented);
	tcase_add_test(tc, test_man_page_evidence_lines);
	tcase_add_test(tc, test_utf8_escape);
	suite_add_tcase(s, tc);
	/* every scenario input, in-process: slower under the sanitizers */
	TCase *scen = tcase_create("evidence of the scenarios");
	tcase_add_test(scen, test_evidence_listed_in_scenarios);
	tcase_set_timeout(scen, 60);
	suite_add_tcase(s, scen);
	return s;
}
