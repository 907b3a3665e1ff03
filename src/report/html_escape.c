/* html_escape.c: JSON text made safe inside a <script> element of the
 * HTML report (html_escape.h, html-contract.md). */
#include <string.h>

#include "report/html_escape.h"

void html_escape_init(struct html_escape *e, FILE *out)
{
	memset(e, 0, sizeof(*e));
	e->out = out;
}

static void put(struct html_escape *e, const void *p, size_t n)
{
	if (n && !e->failed && fwrite(p, 1, n, e->out) != n)
		e->failed = true;
}

/* The bytes held back as a possible start of U+2028/U+2029 turned out
 * to be something else: they go out as they were. */
static void flush_pending(struct html_escape *e)
{
	put(e, e->pending, e->npending);
	e->npending = 0;
}

/* The bytes the loop below acts on: < > & and E2, the first byte of
 * U+2028 and U+2029; any other byte goes out as it is. */
static const bool acted_on[256] = { ['<'] = true, ['>'] = true, ['&'] = true, [0xE2] = true };

int html_escape_write(const char *buf, size_t size, void *data)
{
	struct html_escape *e = data;
	const unsigned char *s = (const unsigned char *)buf;
	size_t run = 0; /* s[run..i) is written as it is */
	for (size_t i = 0; i < size; i++) {
		if (!e->npending) {
			/* most of a block is bytes that go out as they are */
			while (i < size && !acted_on[s[i]])
				i++;
			if (i == size)
				break;
		}
		unsigned char c = s[i];
		if (e->npending) {
			/* a sequence begun in an earlier write, or earlier in this one */
			if (e->npending == 1 && c == 0x80) {
				e->pending[e->npending++] = c;
				run = i + 1;
				continue;
			}
			if (e->npending == 2 && (c == 0xA8 || c == 0xA9)) {
				put(e, c == 0xA8 ? "\\u2028" : "\\u2029", 6);
				e->npending = 0;
				run = i + 1;
				continue;
			}
			flush_pending(e);
			run = i;
		}
		const char *esc = c == '<'   ? "\\u003c"
		                  : c == '>' ? "\\u003e"
		                  : c == '&' ? "\\u0026"
		                             : NULL;
		if (esc || c == 0xE2) {
			put(e, s + run, i - run);
			run = i + 1;
			if (esc)
				put(e, esc, 6);
			else
				e->pending[e->npending++] = c;
		}
	}
	if (!e->npending)
		put(e, s + run, size - run);
	return e->failed ? -1 : 0;
}

void html_escape_puts(struct html_escape *e, const char *s)
{
	html_escape_write(s, strlen(s), e);
}

void html_escape_json(struct html_escape *e, const json_t *v, size_t flags)
{
	if (json_dump_callback(v, html_escape_write, e, flags | JSON_ENCODE_ANY) != 0)
		e->failed = true;
}

bool html_escape_finish(struct html_escape *e)
{
	flush_pending(e);
	return !e->failed;
}
