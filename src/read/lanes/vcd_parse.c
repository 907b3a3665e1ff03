/* vcd_parse.c: the VCD parser's input buffer and the words in it, and
 * the parser's life (vcd_new, vcd_free, the position reported).
 * specification: IEEE 1364-2005 clause 18 (four-state VCD);
 * capture-format.md section 4 "Input"; the interface is vcd_parse.h, the
 * internals shared with vcd_header.c (the declarations), vcd_idcodes.c
 * (the watched identifier codes) and vcd_scan.c (the value changes) are
 * in vcd_internal.h.
 *
 * The file is a sequence of words separated by blanks (vcd_header.c and
 * vcd_scan.c draw the two parts).  Speed: the bytes are read with fread()
 * in blocks of VCD_BUF (a smaller file: its size) into one buffer and
 * scanned in place with a NUL sentinel at the end of what was read; a word never leaves the buffer
 * (the unread part moves to its start before each refill).  Memory is
 * the buffer, the declarations and the watch table: none of it grows
 * with the length of the file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stream_window.h"
#include "read/lanes/vcd_internal.h"

/* ------------------------------------------------------------------ */
/* Bytes and words */

/* Moves buf[keep..end) to the start and reads more after it.  False when
 * nothing more came (end of file or a read error). */
static bool refill(struct vcd_parser *p, char *keep)
{
	size_t have = (size_t)(p->end - keep);
	if (p->eof)
		return false;
	memmove(p->buf, keep, have);
	p->base += (uint64_t)(keep - p->buf);
	p->cur = p->buf + (p->cur - keep);
	if (have == p->cap && p->cap < VCD_BUF) {
		/* a buffer of the file's size is full: the file grew */
		size_t cur = (size_t)(p->cur - p->buf);
		char *buf = realloc(p->buf, VCD_BUF + 1);
		if (!buf) {
			p->read_error = p->eof = true;
			p->read_errno = ENOMEM;
			p->end = p->buf + have;
			*p->end = '\0';
			return false;
		}
		p->buf = buf;
		p->cur = buf + cur;
		p->cap = VCD_BUF;
	}
	size_t n = fread(p->buf + have, 1, p->cap - have, p->fp);
	if (n < p->cap - have) {
		if (ferror(p->fp)) {
			p->read_error = true;
			p->read_errno = errno;
		}
		p->eof = true;
	}
	p->end = p->buf + have + n;
	*p->end = '\0';
	return n > 0;
}

/* The next word.  TOK_LONG: a word longer than the buffer was skipped
 * (t says where it began); TOK_EOF at the end of the input or on a read
 * error (p->read_error). */
enum tok_status vcd_next_token(struct vcd_parser *p, struct tok *t)
{
	if (p->have_pushback) {
		*t = p->pushback;
		p->have_pushback = false;
		return TOK_OK;
	}
	char *c = p->cur;
	for (;;) {
		unsigned char ch = (unsigned char)*c;
		if (ch > ' ')
			break;
		if (c == p->end) {
			p->cur = c;
			if (!refill(p, c))
				return TOK_EOF;
			c = p->cur;
			continue;
		}
		if (ch == '\n') {
			p->line++;
			p->line_off = p->base + (uint64_t)(c - p->buf) + 1;
		} else if (!is_blank(ch)) {
			break; /* a control character begins a word (a bad one) */
		}
		c++;
	}
	char *s = c;
	t->line = p->line;
	t->off = p->line_off;
	for (;;) {
		while ((unsigned char)*c > ' ')
			c++;
		if (c == p->end) {
			if (p->eof)
				break;
			size_t have = (size_t)(c - s);
			if (s == p->buf && have >= VCD_BUF) {
				/* longer than the buffer: skipped to its end */
				for (;;) {
					p->cur = p->end;
					if (!refill(p, p->end))
						return TOK_LONG;
					c = p->buf;
					while (c < p->end && !is_blank((unsigned char)*c))
						c++;
					if (c < p->end) {
						p->cur = c;
						return TOK_LONG;
					}
				}
			}
			p->cur = s;
			refill(p, s);
			s = p->buf;
			c = s + have;
			continue;
		}
		if (is_blank((unsigned char)*c))
			break;
		c++; /* a control character inside the word */
	}
	t->s = s;
	t->len = (size_t)(c - s);
	p->cur = c;
	return TOK_OK;
}

/* A word for a message: at most 40 bytes, the unprintable ones as '?'. */
const char *vcd_tok_text(const struct tok *t, char *out, size_t size)
{
	size_t n = t->len < 40 ? t->len : 40;
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t->s[i];
		out[i] = c >= 0x21 && c < 0x7f ? (char)c : '?';
	}
	out[n] = '\0';
	if (t->len > n && n >= 3)
		memcpy(out + n - 3, "...", 3);
	return out;
}

void vcd_set_err(struct vcd_error *err, uint64_t line, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	err->line = line;
	err->byte_offset = off;
	va_start(ap, fmt);
	vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Setup */

struct vcd_parser *vcd_new(FILE *fp, const char *file)
{
	struct vcd_parser *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	/* a small file gets a buffer of its size: the whole of it is read
	 * at once all the same */
	p->cap = sw_size_for(fp, VCD_BUF);
	p->buf = malloc(p->cap + 1);
	if (!p->buf) {
		free(p);
		return NULL;
	}
	p->fp = fp;
	p->file = file;
	p->cur = p->end = p->buf;
	*p->end = '\0';
	p->line = 1;
	p->ts_fs = 1000000; /* 1 ns when the file gives none */
	p->pend_next = -1;
	return p;
}

void vcd_free(struct vcd_parser *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p->vars);
	free(p->offs);
	free(p->arena);
	free(p->scope);
	free(p->wt);
	free(p->slots);
	free(p);
}

uint64_t vcd_bytes_read(const struct vcd_parser *p)
{
	return p->base + (uint64_t)(p->cur - p->buf);
}

void vcd_position(const struct vcd_parser *p, uint64_t *line, uint64_t *byte_offset)
{
	*line = p->ev_line;
	*byte_offset = p->ev_off;
}
