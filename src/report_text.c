/* report_text.c: findings as lines a person (and grep) can read:
 *
 *   FILE:LINE[:COL]: record N: t=TIME link L PORT [VCv] [TYPE]: SEVERITY RULE: MESSAGE
 *   FILE: record N offset O: ...              (binary inputs)
 */
#include <inttypes.h>

#include "report_text.h"
#include "timefmt.h"

void report_text_finding(void *ctx, const struct finding *f)
{
	FILE *out = ctx;
	if (f->pos.line) {
		fprintf(out, "%s:%" PRIu64, f->pos.file, f->pos.line);
		if (f->column)
			fprintf(out, ":%u", f->column);
		fprintf(out, ": record %" PRIu64, f->pos.record_no);
	} else {
		fprintf(out, "%s: record %" PRIu64 " offset %" PRIu64, f->pos.file,
		        f->pos.record_no, f->pos.byte_offset);
	}
	if (f->has_time)
		fprintf(out, ": t=" TIME_PS_FMT, TIME_PS_ARGS(f->time_ps));
	if (f->link >= 0)
		fprintf(out, " link %d", f->link);
	if (f->port != FINDING_NO_PORT)
		fprintf(out, " %s", link_dir_name((enum link_dir)f->port));
	if (f->vc != FINDING_NO_VC)
		fprintf(out, " VC%d", f->vc);
	if (f->credit_type != FINDING_NO_CREDIT)
		fprintf(out, " %s", credit_type_name((enum credit_type)f->credit_type));
	fprintf(out, ": %s %s: %s\n", severity_name(f->severity),
	        rule_info(f->rule)->id, f->message);
}

void report_text_summary(FILE *out, const char *file, const char *format,
                         const struct input_stats *stats,
                         const struct finding_sink *sink)
{
	fprintf(out,
	        "== %s (%s): %" PRIu64 " records read, %" PRIu64 " decoded, %" PRIu64
	        " malformed; findings: %" PRIu64 " error, %" PRIu64 " warning, %" PRIu64
	        " info\n",
	        file, format, stats->records_read, stats->records_decoded,
	        stats->records_malformed, sink->count_by_severity[SEV_ERROR],
	        sink->count_by_severity[SEV_WARNING], sink->count_by_severity[SEV_INFO]);
	for (unsigned i = 0; i < RULE_COUNT; i++) {
		if (sink->count_by_rule[i])
			fprintf(out, "   %-32s %-8s %" PRIu64 "\n", rule_info(i)->id,
			        severity_name(rule_info(i)->severity),
			        sink->count_by_rule[i]);
	}
}
