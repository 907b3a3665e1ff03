/* stream_window.c: the read-ahead window (stream_window.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/stream_window.h"

bool sw_known_size(FILE *fp, uint64_t *left)
{
	int fd = fileno(fp);
	if (fd >= 0) {
		/* nothing asked of the stream: it may not have been read yet */
		struct stat st;
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0)
			return false;
		*left = (uint64_t)st.st_size;
		return true;
	}
	/* a stream without a descriptor: one in memory seeks to its end and
	 * back; a cookie that cannot (a pipe's replay, a decompressing layer)
	 * refuses and is left as it was */
	off_t at = ftello(fp);
	if (at < 0 || fseeko(fp, 0, SEEK_END) != 0)
		return false;
	off_t end = ftello(fp);
	if (fseeko(fp, at, SEEK_SET) != 0) {
		/* cannot happen for a stream that seeked to its end; its reader
		 * meets the error at its first read */
		return false;
	}
	if (end < at)
		return false;
	*left = (uint64_t)(end - at);
	return true;
}

size_t sw_size_for(FILE *fp, size_t most)
{
	uint64_t left;
	if (!sw_known_size(fp, &left))
		return most;
	return left < most ? (size_t)left + 1 : most;
}

int sw_direct_fd(FILE *fp)
{
	int fd = fileno(fp);
	if (fd < 0)
		return -1;
	/* ftell counts the bytes stdio has given; the descriptor's offset is
	 * past those it read ahead as well: equal, nothing is buffered */
	struct stat st;
	long at = ftell(fp);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || at < 0 ||
	    (off_t)at != lseek(fd, 0, SEEK_CUR))
		return -1;
	return fd;
}

bool sw_init(struct stream_window *w, FILE *fp, size_t initial, size_t max)
{
	memset(w, 0, sizeof(*w));
	w->fp = fp;
	w->fd = sw_direct_fd(fp);
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

/* When need bytes from pos do not fit the buffer, the bytes taken are
 * dropped. */
static void sw_compact(struct stream_window *w, size_t need)
{
	size_t avail = w->end - w->pos;
	if (w->pos + need <= w->size)
		return;
	memmove(w->buf, w->buf + w->pos, avail);
	w->base += w->pos;
	w->pos = 0;
	w->end = avail;
}

/* The buffer is full (after sw_compact: pos 0) and need bytes (more than
 * it holds) are wanted: it grows, to at most max.  Only a full buffer
 * grows, so a window sized to a small input (sw_size_for) stays that
 * size whatever a reader asks for. */
static bool sw_grow(struct stream_window *w, size_t need)
{
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

/* One read(2) of up to want bytes into the free end of the buffer: a
 * short count is not the end (the caller reads on), 0 is. */
static void sw_read_fd(struct stream_window *w, size_t want)
{
	ssize_t n;
	do
		n = read(w->fd, w->buf + w->end, want);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		w->eof = true;
		w->read_errno = errno ? errno : EIO;
	} else if (n == 0) {
		w->eof = true;
	} else {
		w->end += (size_t)n;
	}
}

size_t sw_fill_more(struct stream_window *w, size_t need)
{
	if (need > w->max)
		need = w->max;
	if (w->end - w->pos >= need || w->eof || w->read_errno)
		return w->end - w->pos;
	sw_compact(w, need);
	while (w->end - w->pos < need && !w->eof) {
		/* full only when need is more than the buffer (then pos is 0) */
		if (w->end == w->size && !sw_grow(w, need))
			break;
		size_t want = w->size - w->end;
		if (w->fd >= 0) {
			sw_read_fd(w, want);
			continue;
		}
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
