/* text_out.h: text written to a put() callback through a buffer, for the
 * reports that write their JSON as text: a finding's and an input's
 * summary (report_json.c) and the HTML page's chart data (html_chart.c).
 * put() is a FILE, a growing string or the HTML escaper; a text longer
 * than the buffer goes to it whole. */
#ifndef DLLPCHECK_TEXT_OUT_H
#define DLLPCHECK_TEXT_OUT_H

#include <stddef.h>
#include <string.h>

struct text_out {
	int (*put)(const char *, size_t, void *);
	void *data;
	size_t len;
	char buf[4096];
};

static inline void text_out_flush(struct text_out *o)
{
	if (o->len)
		o->put(o->buf, o->len, o->data);
	o->len = 0;
}

/* n bytes of s */
static inline void text_out_mem(struct text_out *o, const char *s, size_t n)
{
	if (n > sizeof(o->buf) - o->len) {
		text_out_flush(o);
		if (n > sizeof(o->buf)) {
			o->put(s, n, o->data);
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

/* (inline: most are literals, whose length the compiler knows) */
static inline void text_out_str(struct text_out *o, const char *s)
{
	text_out_mem(o, s, strlen(s));
}

#endif
