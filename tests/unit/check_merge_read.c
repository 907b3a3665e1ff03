/* check_merge_read.c: unit tests of report/merge_read.c, the reader of a
 * --merge part: a finding and a summary written by report_json.c read back
 * to what was written; the faults of a part, each named with its line. */
#include "autoconfig.h"

#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/merge_read.h"
#include "report/report.h"
#include "suites.h"
#include "xorshift.h"

#define V "\"version\":\"" PACKAGE_VERSION "\""

/* A finding as report_jsonl_finding writes it. */
static const char finding_line[] =
        "{\"type\":\"finding\",\"file\":\"a.pcap\",\"record\":22,\"byte_offset\":1024,"
        "\"rule\":\"fc.credit.overrun\",\"severity\":\"error\",\"time_ps\":2300000,\"link\":0,"
        "\"port\":\"up\",\"vc\":0,\"credit_type\":\"PH\",\"message\":\"CL=0x06 CC=0x06\","
        "\"evidence\":{\"CL\":6,\"CC\":6,\"need\":1},"
        "\"signature\":\"fc.credit.overrun/0/up/0/PH\"}\n";

/* A summary of one link, VC0 with its down PH credit only set apart. */
static char *summary_line(const char *file, const char *extra_credit, unsigned overruns)
{
	static char buf[8192];
	char credits[2048] = "", dl[512];
	const char *types[] = { "PH", "PD", "NPH", "NPD", "CplH", "CplD" };
	for (unsigned i = 0; i < 6; i++) {
		char one[300];
		snprintf(one, sizeof(one),
		         "%s\"%s\":{\"advertised\":%s,\"limit\":%s,\"consumed\":0,\"width\":8,"
		         "\"min_available\":null,\"tlps_charged\":0,\"credits_charged\":0,"
		         "\"longest_wait_ps\":0%s}",
		         i ? "," : "", types[i], i == 0 ? "\"inf\"" : "null", "null",
		         i == 0 ? extra_credit : "");
		strcat(credits, one);
	}
	snprintf(dl, sizeof(dl),
	         "{\"tlps_new\":1,\"tlps_replayed\":0,\"tlps_nullified\":0,\"tlps_unreadable\":0,"
	         "\"acks_received\":0,\"naks_received\":0,\"outstanding_high_water\":1}");
	snprintf(
	        buf, sizeof(buf),
	        "{\"type\":\"summary\",\"file\":\"%s\",\"format\":\"pcap\",\"records\":{\"read\":"
	        "23,"
	        "\"decoded\":23,\"malformed\":0,\"truncated\":0,\"dllps\":15,\"tlps\":7,\"events\":"
	        "1,"
	        "\"time_base_s\":0,\"bytes_read\":1152,\"bytes_skipped\":0},"
	        "\"summary\":{\"by_severity\":{\"info\":0,\"warning\":0,\"error\":%u},"
	        "\"by_rule\":{%s}},\"options\":{\"role_down\":\"unknown\",\"role_up\":\"endpoint\","
	        "\"mps\":256,\"tc_to_vc\":[0,1,0,0,0,0,0,0],\"mrrs\":512},"
	        "\"links\":[{\"link\":3,\"scaled_fc\":null,\"tlps_not_charged\":{\"down\":0,\"up\":"
	        "2},"
	        "\"data_link\":{\"down\":%s,\"up\":%s},\"damaged\":{\"down\":{\"dllps\":1,\"tlps\":"
	        "0},"
	        "\"up\":{\"dllps\":0,\"tlps\":0}},\"vcs\":[{\"vc\":0,\"state\":\"initialised\","
	        "\"epochs_joined\":1,\"tlps_while_unknown\":0,\"fc_dllps_while_unknown\":0,"
	        "\"joined_record\":7,\"down\":{\"fi1\":true,\"complete\":true,\"credits\":{%s}},"
	        "\"up\":{\"fi1\":false,\"complete\":false,\"credits\":{%s}}}]}]," V "}\n",
	        file, overruns, overruns ? "\"fc.credit.overrun\":1" : "", dl, dl, credits,
	        credits);
	return buf;
}

/* The part text read to its end: the items' kinds as letters (F finding,
 * S summary, E error, B batch), then '.' at its end or '!' and the
 * message in err. */
static void read_part(const char *text, char *kinds, size_t len, char *err, size_t errlen,
                      struct merge_reader *keep)
{
	FILE *fp = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	ck_assert_ptr_nonnull(fp);
	struct merge_reader m;
	merge_reader_init(&m, fp, "part.jsonl");
	size_t n = 0;
	err[0] = '\0';
	for (;;) {
		enum merge_item item = merge_reader_next(&m);
		static const char letters[] = {
			[MERGE_END] = '.',     [MERGE_FAIL] = '!',  [MERGE_FINDING] = 'F',
			[MERGE_SUMMARY] = 'S', [MERGE_ERROR] = 'E', [MERGE_BATCH] = 'B',
			[MERGE_CHARTS] = 'K',  [MERGE_CHART] = 'C'
		};
		if (n + 1 < len)
			kinds[n++] = letters[item];
		if (item == MERGE_CHARTS && keep)
			keep->charts = m.charts;
		if (item == MERGE_CHART && keep) {
			/* the copy's marks live in the reader */
			static struct html_mark marks[4];
			static struct html_chart_copy chart;
			chart = *m.chart;
			memcpy(marks, m.chart->marks, sizeof(marks));
			chart.marks = marks;
			keep->chart = &chart;
		}
		if (item == MERGE_SUMMARY && keep) {
			ck_assert_str_eq(m.file, "a.pcap");
			keep->input = m.input;
			keep->input.views = malloc(sizeof(*m.input.views));
			memcpy(keep->input.views, m.input.views, sizeof(*m.input.views));
			keep->input.options_text = NULL;
		}
		if (item == MERGE_FINDING && keep) {
			keep->finding = m.finding;
			/* the names live in the reader */
			memcpy(keep->evidence_names, m.evidence_names, sizeof(m.evidence_names));
			for (unsigned i = 0; i < m.finding.evidence_count; i++)
				keep->finding.evidence[i].name = keep->evidence_names[i];
		}
		if (item == MERGE_END || item == MERGE_FAIL)
			break;
	}
	kinds[n] = '\0';
	snprintf(err, errlen, "%s", m.err);
	merge_reader_free(&m);
	fclose(fp);
}

static char part[32768];

START_TEST(test_finding_and_summary)
{
	char kinds[16], err[1300];
	struct merge_reader keep;
	memset(&keep, 0, sizeof(keep));
	snprintf(part, sizeof(part), "%s%s", finding_line, summary_line("a.pcap", "", 1));
	read_part(part, kinds, sizeof(kinds), err, sizeof(err), &keep);
	ck_assert_str_eq(kinds, "FS.");
	ck_assert_str_eq(err, "");
	/* the finding */
	const struct finding *f = &keep.finding;
	ck_assert_int_eq(f->rule, R_FC_CREDIT_OVERRUN);
	ck_assert_int_eq(f->severity, SEV_ERROR);
	ck_assert_uint_eq(f->pos.record_no, 22);
	ck_assert_uint_eq(f->pos.byte_offset, 1024);
	ck_assert(f->has_time);
	ck_assert_uint_eq(f->time_ps, 2300000);
	ck_assert_int_eq(f->port, DIR_UP);
	ck_assert_int_eq(f->vc, 0);
	ck_assert_int_eq(f->credit_type, CT_PH);
	ck_assert_int_eq(f->lane, FINDING_NO_LANE);
	ck_assert_uint_eq(f->evidence_count, 3);
	ck_assert_str_eq(f->evidence[2].name, "need");
	ck_assert_str_eq(f->message, "CL=0x06 CC=0x06");
	/* the summary */
	const struct merge_input *in = &keep.input;
	ck_assert_str_eq(in->format, "pcap");
	ck_assert(in->stats.bytes_counted);
	ck_assert_uint_eq(in->stats.bytes_read, 1152);
	ck_assert_uint_eq(in->by_rule[R_FC_CREDIT_OVERRUN], 1);
	ck_assert_uint_eq(in->opts.role[DIR_UP], ROLE_ENDPOINT);
	ck_assert_uint_eq(in->opts.mps, 256);
	ck_assert_uint_eq(in->opts.mrrs, 512);
	ck_assert_uint_eq(in->opts.tc_to_vc[1], 1);
	ck_assert_uint_eq(in->link_count, 1);
	ck_assert_uint_eq(in->link_index[0], 3);
	const struct fc_link_view *l = &in->views[0];
	ck_assert(!l->scaling_known);
	ck_assert_uint_eq(l->tlps_not_charged[DIR_UP], 2);
	ck_assert_uint_eq(l->damaged_dllps[DIR_DOWN], 1);
	ck_assert_int_eq(l->vc[0].state, VC_INIT);
	ck_assert_uint_eq(l->vc[0].joined_record, 7);
	ck_assert_int_eq(l->vc[1].state, VC_IDLE); /* not listed */
	ck_assert(l->vc[0].port[DIR_DOWN].credit[CT_PH].advertised_infinite);
	ck_assert(!l->vc[0].port[DIR_DOWN].credit[CT_PD].advertised_seen);
	ck_assert(!in->stats_wanted);
	free(keep.input.views);
}
END_TEST

START_TEST(test_infinite)
{
	char kinds[16], err[1300];
	struct merge_reader keep;
	memset(&keep, 0, sizeof(keep));
	snprintf(part, sizeof(part), "%s", summary_line("a.pcap", ",\"infinite\":true", 0));
	read_part(part, kinds, sizeof(kinds), err, sizeof(err), &keep);
	ck_assert_str_eq(kinds, "S.");
	const struct fc_credit_view *c = &keep.input.views[0].vc[0].port[DIR_UP].credit[CT_PH];
	ck_assert(c->infinite && c->limit_known);
	free(keep.input.views);
	/* written only as true */
	snprintf(part, sizeof(part), "%s", summary_line("a.pcap", ",\"infinite\":false", 0));
	read_part(part, kinds, sizeof(kinds), err, sizeof(err), NULL);
	ck_assert_str_eq(kinds, "!");
	ck_assert_str_eq(err, "part.jsonl: line 1: links[0].vcs[0].down.credits.PH.infinite is "
	                      "written only as true");
}
END_TEST

/* expect_fail PART MESSAGE: the part read up to its fault */
static void expect_fail(const char *text, const char *kinds_want, const char *message)
{
	char kinds[16], err[1300];
	read_part(text, kinds, sizeof(kinds), err, sizeof(err), NULL);
	ck_assert_str_eq(kinds, kinds_want);
	ck_assert_msg(strstr(err, message) != NULL, "'%s' not in '%s'", message, err);
}

START_TEST(test_faults)
{
	expect_fail("", "!", "part.jsonl: line 0: an empty part");
	expect_fail("{\"type\":\n", "!", "part.jsonl: line 1: not JSON");
	expect_fail("[1]\n", "!", "part.jsonl: line 1: the line is not an object");
	expect_fail("{\"type\":\"record\"}\n", "!", "line 1: a line of --decode");
	expect_fail("{\"type\":\"nothing\"}\n", "!", "type \"nothing\" is none");
	expect_fail("{\"type\":\"finding\",\"type\":\"finding\"}\n", "!", "not JSON: duplicate");
	/* cut at a line and mid-line */
	expect_fail(finding_line, "F!", "line 1: the part ends in the findings of \"a.pcap\"");
	snprintf(part, sizeof(part), "%s{\"type\":\"sum", finding_line);
	expect_fail(part, "F!", "line 2: the last line has no end of line");
	/* another version */
	snprintf(part, sizeof(part), "%s", summary_line("a.pcap", "", 0));
	char *v = strstr(part, PACKAGE_VERSION);
	v[0] = '9';
	expect_fail(part, "!", "not by this one");
	/* counts that are not the findings' */
	snprintf(part, sizeof(part), "%s", summary_line("a.pcap", "", 1));
	expect_fail(part, "!", "counts 1 fc.credit.overrun findings, the part has 0");
	/* a summary of another file than its findings' */
	snprintf(part, sizeof(part), "%s%s", finding_line, summary_line("b.pcap", "", 1));
	expect_fail(part, "F!", "line 2: the summary of \"b.pcap\" follows findings of \"a.pcap\"");
	/* a missing key, a key too many */
	snprintf(part, sizeof(part), "%s", finding_line);
	char *sev = strstr(part, "\"severity\":\"error\",");
	memmove(sev, sev + 19, strlen(sev + 19) + 1);
	expect_fail(part, "!", "line 1: key severity missing");
	snprintf(part, sizeof(part), "%s", summary_line("a.pcap", ",\"credit\":1", 0));
	expect_fail(part, "!", "unexpected key links[0].vcs[0].down.credits.PH.credit");
	/* a batch line of other inputs, a line after it */
	snprintf(part, sizeof(part),
	         "%s{\"type\":\"batch\",\"by_severity\":{},\"by_rule\":{},"
	         "\"inputs\":[{\"file\":\"b\"}],\"exit_status\":0}\n",
	         summary_line("a.pcap", "", 0));
	expect_fail(part, "S!", "line 2: the batch line's input 1 is not its run's");
	/* an error line */
	snprintf(part, sizeof(part),
	         "{\"type\":\"error\",\"file\":\"x\",\"error\":\"x: no records\"," V "}\n");
	expect_fail(part, "E.", "");
}
END_TEST

/* The lines of --with-charts (report_jsonl_charts): the input's charts
 * line, then a chart of two series, one finding marked. */
#define CHARTS_LINE                                                                             \
	"{\"type\":\"charts\",\"file\":\"a.pcap\",\"time_start_ps\":0,\"time_end_ps\":2400000," \
	"\"origin_ps\":1000,\"charts\":1,\"charts_dropped\":0," V "}\n"
#define CHART_LINE(down, up)                                                                      \
	"{\"type\":\"chart\",\"file\":\"a.pcap\",\"chart\":{\"link\":0,\"vc\":0,\"type\":\"PH\"," \
	"\"series\":[{\"port\":\"down\",\"width\":8,\"bucket_ps\":64,\"points\":[[1000,32,32,32," \
	"0]],"                                                                                    \
	"\"updates\":[[1000,1]],\"findings\":[" down "]},{\"port\":\"up\",\"width\":8,"           \
	"\"bucket_ps\":2048,\"points\":[[1000,4,4,4,0],[5096,null,null,null,1]],\"updates\":[],"  \
	"\"findings\":[" up "]}]}}\n"

START_TEST(test_charts)
{
	char kinds[16], err[1300];
	struct merge_reader keep;
	memset(&keep, 0, sizeof(keep));
	snprintf(part, sizeof(part), "%s%s%s%s", finding_line, CHARTS_LINE,
	         CHART_LINE("", "[2300000,0]"), summary_line("a.pcap", "", 1));
	read_part(part, kinds, sizeof(kinds), err, sizeof(err), &keep);
	ck_assert_str_eq(kinds, "FKCS.");
	ck_assert_str_eq(err, "");
	ck_assert(keep.charts.times.has_start && keep.charts.times.has_origin);
	ck_assert_uint_eq(keep.charts.times.end_ps, 2400000);
	const struct html_chart_copy *c = keep.chart;
	ck_assert_uint_eq(c->ct, CT_PH);
	ck_assert(c->has[DIR_DOWN] && c->has[DIR_UP]);
	/* the buckets as the collector held them: 5096 is bucket 2 */
	const struct html_series *up = &c->series[DIR_UP];
	ck_assert_uint_eq(up->bucket_ps, 2048);
	ck_assert_uint_eq(up->top, 3);
	ck_assert(html_series_bucket(up, 0)->seen && !html_series_bucket(up, 1)->seen && html_series_bucket(up, 2)->seen);
	ck_assert(!html_series_bucket(up, 2)->any_known && !html_series_bucket(up, 2)->last_known);
	ck_assert_uint_eq(html_series_bucket(up, 2)->flags, HTML_F_UNKNOWN);
	ck_assert_uint_eq(html_series_bucket(&c->series[DIR_DOWN], 0)->updates, 1);
	ck_assert_uint_eq(c->mark_count, 1);
	ck_assert_uint_eq(c->marks[0].port, DIR_UP);
	ck_assert_uint_eq(c->marks[0].t_ps, 2300000);
	free(keep.input.views); /* read_part's copy */

	/* the faults: a marker of the other port's series, of no finding; a
	 * point off its buckets; a chart too many; a finding after them */
	snprintf(part, sizeof(part), "%s%s%s", finding_line, CHARTS_LINE,
	         CHART_LINE("[2300000,0]", ""));
	expect_fail(part, "FK!", "line 3: chart.series[0].findings[0]: finding 0 is not one of");
	snprintf(part, sizeof(part), "%s%s%s", finding_line, CHARTS_LINE,
	         CHART_LINE("", "[2300000,1]"));
	expect_fail(part, "FK!", "finding 1 is not one of the input's findings");
	snprintf(part, sizeof(part), "%s%s%s", finding_line, CHARTS_LINE, CHART_LINE("", ""));
	char *pt = strstr(part, "5096");
	pt[3] = '7';
	expect_fail(part, "FK!",
	            "chart.series[1].points[1]: time 5097 is not the start of a bucket");
	snprintf(part, sizeof(part), "%s%s%s%s", finding_line, CHARTS_LINE, CHART_LINE("", ""),
	         CHART_LINE("", ""));
	expect_fail(part, "FKC!", "line 4: a chart line of \"a.pcap\" past the 1");
	snprintf(part, sizeof(part), "%s%s", CHARTS_LINE, finding_line);
	expect_fail(part, "K!", "line 2: a finding of \"a.pcap\" after its charts line");
	snprintf(part, sizeof(part), "%s%s", CHARTS_LINE, summary_line("a.pcap", "", 0));
	expect_fail(part, "K!", "follows 0 of the 1 chart lines");
}
END_TEST

/* report_json.c writes a finding as text (struct jtext), to be what
 * Jansson's compact dump of the object it used to build gives: random
 * findings, their texts holding every byte a C string can (controls,
 * quotes, backslashes, DEL, U+2028, invalid UTF-8), names given twice
 * among the evidence, numbers at their extremes; each text must parse and
 * be byte for byte Jansson's dump of what it parses to. */
START_TEST(test_finding_text_as_jansson)
{
	static const char *const names[] = { "CL", "CC", "need", "CL", "a\"b", "x\ny" };
	static const int64_t values[] = { 0, -1, 1, INT64_MAX, INT64_MIN, 4095, -4096 };
	static char file[64];
	uint32_t seed = 0x2028u;

	for (unsigned round = 0; round < 2000; round++) {
		struct finding f;
		memset(&f, 0, sizeof(f));
		f.rule = (enum rule_id)(next_random(&seed) % RULE_COUNT);
		f.severity = (enum severity)(next_random(&seed) % SEV_COUNT);
		f.pos.record_no = next_random(&seed);
		f.pos.line = next_random(&seed) % 3 ? 0 : next_random(&seed);
		f.pos.byte_offset = (uint64_t)next_random(&seed) << 20;
		f.column = next_random(&seed) % 4;
		f.has_time = next_random(&seed) % 2;
		f.time_ps = (uint64_t)next_random(&seed) << 31;
		f.link = (int)(next_random(&seed) % 4) - 1;
		f.port = next_random(&seed) % 3 ? (int)(next_random(&seed) % 2) : FINDING_NO_PORT;
		f.vc = next_random(&seed) % 3 ? (int)(next_random(&seed) % 8) : FINDING_NO_VC;
		f.credit_type = next_random(&seed) % 3 ? (int)(next_random(&seed) % 6)
		                                       : FINDING_NO_CREDIT;
		f.lane = next_random(&seed) % 4 ? FINDING_NO_LANE : (int)(next_random(&seed) % 32);
		/* texts of any byte but NUL, now and then a U+2028 */
		size_t mlen = next_random(&seed) % (sizeof(f.message) - 1);
		for (size_t i = 0; i < mlen; i++)
			f.message[i] = (char)(1 + next_random(&seed) % 255);
		if (mlen > 3 && round % 5 == 0)
			memcpy(f.message, "\xe2\x80\xa8", 3);
		size_t flen = next_random(&seed) % (sizeof(file) - 1);
		for (size_t i = 0; i < flen; i++)
			file[i] = (char)(1 + next_random(&seed) % 255);
		file[flen] = '\0';
		f.pos.file = round % 7 ? file : NULL;
		f.evidence_count = next_random(&seed) % (FINDING_MAX_EVIDENCE + 1);
		for (unsigned i = 0; i < f.evidence_count; i++) {
			f.evidence[i].name = names[next_random(&seed) % 6];
			f.evidence[i].value = values[next_random(&seed) % 7];
		}

		char *text = report_json_finding_text(&f);
		ck_assert_ptr_nonnull(text);
		json_error_t jerr;
		json_t *o = json_loads(text, 0, &jerr);
		ck_assert_msg(o != NULL, "round %u: %s: %s", round, jerr.text, text);
		char *dump = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
		ck_assert_ptr_nonnull(dump);
		ck_assert_msg(strcmp(dump, text) == 0, "round %u:\n%s\n%s", round, text, dump);
		free(dump);
		json_decref(o);
		free(text);
	}
}
END_TEST

Suite *suite_merge_read(void)
{
	Suite *s = suite_create("merge_read");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_finding_and_summary);
	tcase_add_test(tc, test_infinite);
	tcase_add_test(tc, test_faults);
	tcase_add_test(tc, test_charts);
	tcase_add_test(tc, test_finding_text_as_jansson);
	suite_add_tcase(s, tc);
	return s;
}
