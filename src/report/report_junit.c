/* report_junit.c: JUnit XML, so that CI servers (Jenkins, GitLab) show a
 * conformance run as they show tests: one testsuite per run, one testcase
 * per input file, a <failure> per finding at or above --fail-on, an
 * <error> for an input that could not be read. */
#include <inttypes.h>

#include "base/timefmt.h"
#include "base/utf8.h"
#include "report/report.h"

/* Text with the five XML special characters escaped; control characters
 * (not allowed in XML 1.0) as '?'; bytes that are not UTF-8 as \xNN. */
static void xml_text(FILE *out, const char *s)
{
	char escaped[1024];
	if (!utf8_valid(s)) {
		utf8_escape(s, escaped, sizeof(escaped));
		s = escaped;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			fputc(c < 0x20 && c != '\t' && c != '\n' ? '?' : c, out);
		}
	}
}

void report_junit_begin(FILE *out, int inputs)
{
	fprintf(out,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
	        "<testsuite name=\"dllpcheck\" tests=\"%d\">\n",
	        inputs);
}

void report_junit_input_begin(FILE *out, const char *file)
{
	fputs("<testcase classname=\"dllpcheck\" name=\"", out);
	xml_text(out, file);
	fputs("\">\n", out);
}

void report_junit_finding(void *ctx, const struct finding *f)
{
	struct junit_input *ji = ctx;
	if (f->severity < ji->fail_on)
		return;
	FILE *out = ji->out;
	fputs("<failure type=\"", out);
	xml_text(out, rule_info(f->rule)->id);
	fputs("\" message=\"", out);
	xml_text(out, f->message);
	fprintf(out, "\">%s %s: record %" PRIu64, severity_name(f->severity),
	        rule_info(f->rule)->id, f->pos.record_no);
	if (f->pos.line)
		fprintf(out, " line %" PRIu64, f->pos.line);
	if (f->has_time)
		fprintf(out, " t=" TIME_PS_FMT, TIME_PS_ARGS(f->time_ps));
	if (f->link >= 0)
		fprintf(out, " link %d", f->link);
	if (f->port >= 0)
		fprintf(out, " %s", link_dir_name((enum link_dir)f->port));
	if (f->vc >= 0)
		fprintf(out, " VC%d", f->vc);
	if (f->credit_type >= 0)
		fprintf(out, " %s", credit_type_name((enum credit_type)f->credit_type));
	fputs(": ", out);
	xml_text(out, f->message);
	fputs("</failure>\n", out);
}

void report_junit_input_end(FILE *out, const struct input_report *r)
{
	fprintf(out,
	        "<system-out>%s: %" PRIu64 " records read, %" PRIu64 " decoded, %" PRIu64
	        " malformed; findings: %" PRIu64 " error, %" PRIu64 " warning, %" PRIu64
	        " info</system-out>\n</testcase>\n",
	        r->format, r->stats->records_read, r->stats->records_decoded,
	        r->stats->records_malformed, r->sink->count_by_severity[SEV_ERROR],
	        r->sink->count_by_severity[SEV_WARNING], r->sink->count_by_severity[SEV_INFO]);
}

void report_junit_input_error(FILE *out, const char *file, const char *error)
{
	report_junit_input_begin(out, file);
	fputs("<error type=\"input\" message=\"", out);
	xml_text(out, error);
	fputs("\"/>\n</testcase>\n", out);
}

void report_junit_end(FILE *out)
{
	fputs("</testsuite>\n</testsuites>\n", out);
}
