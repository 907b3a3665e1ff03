/* report_html.c: PLACEHOLDER on the integration branch issue16 (helper h-html replaces it). */
#include "report/report_html.h"

void report_html_begin(FILE *out, int inputs)
{
	(void)inputs;
	fprintf(out, "<!-- --format=html is not built yet -->\n");
}

struct html_input *report_html_input_begin(FILE *out, const char *file)
{
	(void)out, (void)file;
	return NULL;
}

void report_html_sink(struct html_input *hi, struct timeline_sink *out)
{
	(void)hi, (void)out;
}

void report_html_input_end(struct html_input *hi, const struct input_report *r)
{
	(void)hi, (void)r;
}

void report_html_input_error(FILE *out, const char *file, const char *error)
{
	(void)out, (void)file, (void)error;
}

void report_html_end(FILE *out, char *const *files, const struct input_result *results, int count,
                     int exit_status)
{
	(void)out, (void)files, (void)results, (void)count, (void)exit_status;
}
