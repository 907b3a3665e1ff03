/* stream_window.h: a read-ahead window over a stream, for the own pcap and
 * pcapng readers (reader_pcapfile.c, reader_pcapngfile.c).
 *
 * The bytes of the input are read into one buffer in large blocks and
 * handed to the reader where they lie (no copy per record): a regular file
 * with read(2) straight into the buffer (sw_direct_fd), any other stream
 * with fread (stdio would copy every byte once more, from its own buffer
 * into this one); the offset of
 * every byte in the input is counted here, so nothing seeks or asks the
 * stream for its position: a pipe, standard input or a decompressing
 * stream layer read the same way.  The buffer grows only as far as one
 * block or record needs, up to a maximum set at the start, so memory does
 * not grow with the input; and it grows only when full, so a window made
 * to the size of a small input (sw_size_for) stays that small: a batch of
 * small captures does not pay for a megabyte each.
 */
#ifndef DLLPCHECK_STREAM_WINDOW_H
#define DLLPCHECK_STREAM_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct stream_window {
	FILE *fp; /* not owned */
	int fd; /* fp's descriptor, read directly (sw_direct_fd); -1: fread */
	uint8_t *buf;
	size_t size, max; /* allocated; the most it may grow to */
	size_t pos, end; /* buf[pos, end) holds the bytes not yet taken */
	uint64_t base; /* the input offset of buf[0] */
	bool eof; /* the stream has given its last byte */
	int read_errno; /* non-zero: the stream failed (or no memory) */
};

/* The size of a buffer for reading fp from where it is: most, or fewer
 * when fp is known to hold fewer bytes than most: those bytes plus one
 * (one read meets the end).  Known for a regular file (its size by fstat,
 * whatever the position: nothing is asked of the stream, so a caller may
 * still setvbuf) and for a stream without a descriptor that can seek to
 * its end and back (fmemopen); a pipe, a terminal or a stream that
 * cannot seek (a replay of a pipe's first bytes, a decompressing layer)
 * gets most.  A buffer of this size reads what one of most bytes reads
 * (the buffers grow when the input turns out longer). */
size_t sw_size_for(FILE *fp, size_t most);
/* What sw_size_for() sizes by: true with *left the file's size for a
 * regular file, what is left for a stream without a descriptor that seeks
 * to its end and back; false for a pipe, a terminal or a stream that
 * cannot seek (a block read there could wait for a whole block). */
bool sw_known_size(FILE *fp, uint64_t *left);
/* The descriptor of fp when its bytes can be read with read(2) from
 * where the stream is: a regular file, and stdio holds no byte of it
 * read ahead and not yet given (its position is the descriptor's); -1
 * otherwise (a pipe, a terminal, a stream without a descriptor, a file
 * stdio has buffered).  Once it is used, fp itself must not be read. */
int sw_direct_fd(FILE *fp);
/* False when the first buffer cannot be allocated. */
bool sw_init(struct stream_window *w, FILE *fp, size_t initial, size_t max);
void sw_free(struct stream_window *w);
/* sw_fill() when the bytes are not there yet: reads (the buffer
 * compacted, grown if need be). */
size_t sw_fill_more(struct stream_window *w, size_t need);
/* Makes need bytes (at most w->max) available from the current position
 * when the input has them; returns how many are.  Pointers into the
 * window taken before are invalid after it.  Inline: a record reader
 * asks twice a record, and the bytes are nearly always there. */
static inline size_t sw_fill(struct stream_window *w, size_t need)
{
	size_t avail = w->end - w->pos;
	return avail >= need ? avail : sw_fill_more(w, need);
}
/* Takes every byte left in the input; returns how many there were. */
uint64_t sw_take_rest(struct stream_window *w);

static inline const uint8_t *sw_data(const struct stream_window *w)
{
	return w->buf + w->pos;
}

static inline size_t sw_avail(const struct stream_window *w)
{
	return w->end - w->pos;
}

static inline uint64_t sw_offset(const struct stream_window *w)
{
	return w->base + w->pos;
}

/* Takes n bytes (n <= sw_avail). */
static inline void sw_take(struct stream_window *w, size_t n)
{
	w->pos += n;
}

/* Whether a unit (a record, a block) verifiably starts at data: 0 when
 * not; else the bytes it spans, which it starts only if they are all
 * there: a length above avail asks to be called again with at least that
 * many. */
typedef size_t (*sw_candidate_fn)(void *ctx, const uint8_t *data, size_t avail);

enum sw_search_result { SW_FOUND, SW_NONE, SW_ERROR };

/* Moves forward to the first offset where candidate() accepts a unit
 * (SW_FOUND, the window at it), or takes every byte left (SW_NONE: the
 * input ends before one; fewer than probe bytes can hold none), or stops
 * on a read error where the bytes read do not suffice (SW_ERROR).  When
 * every unit has the byte anchor at anchor_off (anchor < 0: none), only
 * the offsets that have it are tried. */
enum sw_search_result sw_search(struct stream_window *w, size_t probe, size_t anchor_off,
                                int anchor, sw_candidate_fn candidate, void *ctx);

#endif
