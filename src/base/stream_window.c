/* stream_window.c: the read-ahead window (stream_window.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/stream_window.h"

bool sw_init(struct stream_window *w, FILE *fp, size_t initial, size_t max)
{
	memset(w, 0, sizeof(*w));
	w->fp = fp;
	w->size = initial;
	w->max = max > initial ? max : initial;
	w->buf = malloc(initial);
	return w->buf != NULL;
}

void sw_free(struct stream_window *w)
{
	free(w->buf);
	w->buf = NULL;
}

/* Room for need bytes from pos: the bytes taken are dropped first, and
 * the buffer grows only when that is not enough. */
static bool sw_room(struct stream_window *w, size_t need)
{
	size_t avail = w->end - w->pos;
	if (w->pos + need <= w->size)
		return true;
	memmove(w->buf, w->buf + w->pos, avail);
	w->base += w->pos;
	w->pos = 0;
	w->end = avail;
	if (need <= w->size)
		return true;
	size_t size = w->size * 2 > need ? w->size * 2 : need;
	if (size > w->max)
		size = w->max;
	uint8_t *buf = realloc(w->buf, size);
	if (!buf) {
		w->read_errno = ENOMEM;
		return false;
	}
	w->buf = buf;
	w->size = size;
	return true;
}

size_t sw_fill(struct stream_window *w, size_t need)
{
	if (need > w->max)
		need = w->max;
	if (w->end - w->pos >= need || w->eof || w->read_errno)
		return w->end - w->pos;
	if (!sw_room(w, need))
		return w->end - w->pos;
	while (w->end - w->pos < need && !w->eof) {
		size_t want = w->size - w->end; /* > 0: pos + need fits the buffer */
		size_t n = fread(w->buf + w->end, 1, want, w->fp);
		w->end += n;
		/* fread returns less than asked only at the end or on an error */
		if (n < want) {
			w->eof = true;
			if (ferror(w->fp))
				w->read_errno = errno ? errno : EIO;
		}
	}
	return w->end - w->pos;
}

uint64_t sw_take_rest(struct stream_window *w)
{
	uint64_t n = 0;
	for (;;) {
		n += w->end - w->pos;
		w->pos = w->end;
		if (w->eof || w->read_errno)
			return n;
		sw_fill(w, w->size);
	}
}

enum sw_search_result sw_search(struct stream_window *w, size_t probe, size_t anchor_off,
                                int anchor, sw_candidate_fn candidate, void *ctx)
{
	for (;;) {
		size_t avail = sw_fill(w, probe);
		if (avail < probe && w->read_errno)
			return SW_ERROR;
		if (avail < probe) {
			sw_take(w, avail); /* nothing that is left can be a unit */
			return SW_NONE;
		}
		if (anchor >= 0) {
			const uint8_t *p = sw_data(w);
			const uint8_t *hit = memchr(p + anchor_off, anchor, avail - anchor_off);
			if (!hit) {
				sw_take(w, avail - anchor_off);
				continue;
			}
			sw_take(w, (size_t)(hit - p) - anchor_off);
			avail = sw_avail(w);
		}
		size_t len = candidate(ctx, sw_data(w), avail);
		while (len > avail) {
			avail = sw_fill(w, len);
			if (avail < len) {
				if (w->read_errno)
					return SW_ERROR;
				len = 0; /* it runs past the end */
				break;
			}
			len = candidate(ctx, sw_data(w), avail);
		}
		if (len)
			return SW_FOUND;
		sw_take(w, 1);
	}
}
