/* html_escape.h: the one escaper of the HTML report's JSON blocks
 * (html-contract.md): a filter between Jansson's dumper and the page
 * that writes the characters < > & U+2028 U+2029 as \u003c \u003e
 * \u0026 \u2028 \u2029.  In JSON text those characters can occur only
 * inside strings, where the escapes mean the same, so the block parses to
 * the same value; and no "</script", "<!--" or line terminator of
 * JavaScript can end or confuse the <script type="application/json">
 * element holding it [HTML 4.12.1.3, restrictions for contents of script
 * elements]. */
#ifndef DLLPCHECK_HTML_ESCAPE_H
#define DLLPCHECK_HTML_ESCAPE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct html_escape {
	FILE *out;
	/* the leading bytes E2 or E2 80 of a UTF-8 sequence cut between two
	 * writes: U+2028 and U+2029 are E2 80 A8 and E2 80 A9 */
	unsigned char pending[2];
	unsigned npending;
	bool failed; /* a write to out failed */
};

void html_escape_init(struct html_escape *e, FILE *out);
/* A json_dump_callback_t: writes size bytes of JSON text, escaped; data
 * is the struct html_escape.  Returns 0, or -1 once a write failed. */
int html_escape_write(const char *buf, size_t size, void *data);
/* Text of the page's own (ASCII, no < > &) or JSON text, escaped. */
void html_escape_puts(struct html_escape *e, const char *s);
/* Dumps v (JSON_ENCODE_ANY is added) through the escaper. */
void html_escape_json(struct html_escape *e, const json_t *v, size_t flags);
/* Writes what is pending; false when any write failed. */
bool html_escape_finish(struct html_escape *e);

#endif
