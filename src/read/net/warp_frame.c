/* warp_frame.c: Warp Pipe frames from one direction's byte stream
 * (warp_frame.h; the framing is drawn in warp_pipe.h and sourced in
 * warp_pipe.c).
 *
 * The TLP's length from its header [Base 2.2.1, 2.2.1.1]: any number of
 * 1-DW prefixes (Fmt 100b; at most TLP_MAX_PREFIX_DW taken), then the
 * header, whose Fmt says 3 or 4 DW (bit 0) and whether Length DW of data
 * follow (bit 1), Length 0 meaning 1024, then the ECRC DW when TD is set.
 * warp-pipe's own tlp_total_length() (src/proto.c) counts Fmt and Length
 * alone: it sends no prefix and no ECRC DW, even for a TLP whose TD bit
 * its user set.  So in step a TD=1 TLP whose LCRC fails at the length with
 * the ECRC but checks at the length without it is the shorter frame (the
 * way warp-pipe sent it; the 32-bit LCRC proves it): taken when the longer
 * one's bytes are there and fail, or cannot come (a break), or the
 * segment ends exactly at the shorter one (one frame a send()).  Out of
 * step, such a TLP is a candidate at the shorter length when the longer
 * one does not verify (or its bytes are not there).
 */
#include "read/net/warp_frame.h"

#include <stdio.h>
#include <string.h>

#include "core/record.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

enum len_status { LEN_NEED, LEN_OK, LEN_BAD };

/* The length of the frame at p (avail bytes there), its kind; why for
 * LEN_BAD (why_len bytes). */
static enum len_status frame_len(const uint8_t *p, size_t avail, uint32_t *len, uint8_t *kind,
                                 char *why, size_t why_len, uint32_t *no_ecrc_len)
{
	*no_ecrc_len = 0;
	if (avail < 1)
		return LEN_NEED;
	if (p[0] == WARP_PIPE_PROTO_DLLP) {
		*kind = REC_DLLP;
		*len = 1 + DLLP_WIRE_LEN;
		return LEN_OK;
	}
	if (p[0] != WARP_PIPE_PROTO_TLP) {
		snprintf(why, why_len, "protocol byte 0x%02X is neither 2 (DLLP) nor 3 (TLP)",
		         p[0]);
		return LEN_BAD;
	}
	*kind = REC_TLP;
	size_t at = 3; /* protocol byte, sequence field */
	for (unsigned prefixes = 0;; prefixes++) {
		if (avail < at + 4)
			return LEN_NEED;
		unsigned fmt = p[at] >> 5;
		if (fmt == 4) {
			if (prefixes == TLP_MAX_PREFIX_DW) {
				snprintf(why, why_len, "a TLP with more than %u prefixes",
				         TLP_MAX_PREFIX_DW);
				return LEN_BAD;
			}
			at += 4;
			continue;
		}
		if (fmt > 4) {
			snprintf(why, why_len, "a TLP header with the reserved Fmt %u%u%ub",
			         fmt >> 2, (fmt >> 1) & 1, fmt & 1);
			return LEN_BAD;
		}
		uint32_t hdr_dw = fmt & 1 ? 4 : 3;
		uint32_t length = ((uint32_t)(p[at + 2] & 3) << 8) | p[at + 3];
		uint32_t data_dw = fmt & 2 ? (length ? length : TLP_MAX_LENGTH_DW) : 0;
		uint32_t td = p[at + 2] & 0x80 ? 1 : 0;
		*len = (uint32_t)at + 4 * (hdr_dw + data_dw + td) + 4;
		if (td)
			*no_ecrc_len = *len - 4;
		return LEN_OK;
	}
}

/* Whether the frame at p of len bytes checks: its CRC-16, or its LCRC
 * (also inverted: a nullified TLP is a frame too). */
static bool frame_verifies(const uint8_t *p, uint32_t len, uint8_t kind)
{
	if (kind == REC_DLLP) {
		uint8_t crc[2];
		dllp_crc16_bytes(p + 1, crc);
		return crc[0] == p[5] && crc[1] == p[6];
	}
	uint8_t lcrc[4];
	tlp_lcrc_bytes(p + 1, len - 5, lcrc);
	const uint8_t *f = p + len - 4;
	if (memcmp(lcrc, f, 4) == 0)
		return true;
	for (unsigned i = 0; i < 4; i++)
		if ((lcrc[i] ^ f[i]) != 0xFFu)
			return false;
	return true;
}

static struct warp_mark *mark(struct warp_frame *f, unsigned i)
{
	return &f->marks[(f->mark_first + i) % WARP_FRAME_MARKS];
}

enum cand { CAND_OK, CAND_WAIT, CAND_NO };

/* Out of step, a DLLP candidate at the window's head (len bytes, its
 * CRC-16 checks) is taken only when its type is defined (wire/dllp.h) and
 * it ends where its segment's bytes end, or the bytes after it start a
 * frame that verifies (warp_frame.h): CAND_WAIT while those bytes are to
 * come. */
static enum cand dllp_candidate(struct warp_frame *f, const uint8_t *p, size_t avail, uint32_t len)
{
	struct dllp d;
	if (dllp_decode(p + 1, DLLP_WIRE_LEN, true, &d) != DLLP_DECODE_OK ||
	    d.type == DLLP_RESERVED)
		return CAND_NO;
	uint64_t end = f->win_off + f->head + len;
	if (avail == len && f->tail_seg_end)
		return CAND_OK;
	for (unsigned i = 0; i < f->nmarks; i++) {
		const struct warp_mark *m = mark(f, i);
		if (m->off == end && m->seg_start)
			return CAND_OK;
	}
	if (avail == len)
		return CAND_WAIT;
	uint32_t next_len = 0;
	uint8_t next_kind = 0;
	char why[80];
	uint32_t no_ecrc;
	enum len_status s =
	        frame_len(p + len, avail - len, &next_len, &next_kind, why, sizeof(why), &no_ecrc);
	if (s == LEN_BAD)
		return CAND_NO;
	if (s == LEN_NEED || avail - len < next_len)
		return CAND_WAIT;
	if (!frame_verifies(p + len, next_len, next_kind))
		return CAND_NO;
	if (next_kind == REC_DLLP &&
	    (dllp_decode(p + len + 1, DLLP_WIRE_LEN, true, &d) != DLLP_DECODE_OK ||
	     d.type == DLLP_RESERVED))
		return CAND_NO;
	return CAND_OK;
}

void warp_frame_init(struct warp_frame *f, bool sync, const char *why)
{
	memset(f, 0, offsetof(struct warp_frame, marks));
	f->sync = sync;
	f->why = why;
}

void warp_frame_lose_step(struct warp_frame *f, const char *why)
{
	f->sync = false;
	f->have_len = false;
	f->why = why;
}

/* The capture position of the window's byte at i. */
static struct tcp_pos pos_at(struct warp_frame *f, size_t i)
{
	uint64_t off = f->win_off + i;
	unsigned k = f->nmarks;
	while (k > 1 && mark(f, k - 1)->off > off)
		k--;
	struct tcp_pos p = { 0 };
	if (k) {
		const struct warp_mark *m = mark(f, k - 1);
		p = m->pos;
		p.byte_offset += off - m->off;
	}
	return p;
}

/* Marks for bytes before the head are no longer needed. */
static void prune(struct warp_frame *f)
{
	uint64_t head = f->win_off + f->head;
	while (f->nmarks > 1 && mark(f, 1)->off <= head) {
		f->mark_first = (f->mark_first + 1) % WARP_FRAME_MARKS;
		f->nmarks--;
	}
}

static void compact(struct warp_frame *f)
{
	if (f->head == 0)
		return;
	memmove(f->win, f->win + f->head, f->tail - f->head);
	f->win_off += f->head;
	f->tail -= f->head;
	f->head = 0;
}

size_t warp_frame_feed(struct warp_frame *f, const uint8_t *data, size_t len, uint64_t off,
                       const struct tcp_pos *pos)
{
	prune(f);
	if (f->head == f->tail) {
		/* empty: the window starts at this chunk */
		f->win_off = off;
		f->head = f->tail = 0;
	} else if (WARP_FRAME_WINDOW - f->tail < len) {
		compact(f);
	}
	size_t n = WARP_FRAME_WINDOW - f->tail;
	if (n > len)
		n = len;
	if (n == 0)
		return 0;
	/* where the chunk needs a mark: not inside the head frame when its
	 * length is known */
	uint64_t need = off;
	if (f->sync && f->have_len) {
		uint64_t end = f->win_off + f->head + f->frame_len;
		need = end > off ? end : off;
	}
	if (need < off + n) {
		struct tcp_pos p = *pos;
		p.byte_offset += need - off;
		const struct warp_mark *last = f->nmarks ? mark(f, f->nmarks - 1) : NULL;
		bool contiguous = last && last->pos.packet_no == p.packet_no &&
		                  last->pos.byte_offset + (need - last->off) == p.byte_offset;
		if (!contiguous) {
			if (f->nmarks == WARP_FRAME_MARKS) {
				f->blocked = true;
				return 0;
			}
			struct warp_mark *m = mark(f, f->nmarks++);
			m->off = need;
			m->pos = p;
			m->seg_start = need == off;
		}
	}
	memcpy(f->win + f->tail, data, n);
	f->tail += n;
	f->tail_seg_end = n == len;
	return n;
}

void warp_frame_break(struct warp_frame *f, const char *why)
{
	f->broken = true;
	f->break_why = why;
}

/* The kind a frame's first byte says (0: neither). */
static uint8_t kind_of(uint8_t b)
{
	return b == WARP_PIPE_PROTO_DLLP ? REC_DLLP : b == WARP_PIPE_PROTO_TLP ? REC_TLP : 0;
}

/* The break is worked: the stream goes on out of step. */
static void break_done(struct warp_frame *f)
{
	f->broken = false;
	f->blocked = false;
	f->sync = false;
	f->have_len = false;
	f->skip_bytes = 0;
	f->why = f->break_why;
	prune(f);
}

/* In step at a break: the head frame, not all there, is cut. */
static enum warp_frame_result cut(struct warp_frame *f, struct warp_frame_out *out)
{
	size_t avail = f->tail - f->head;
	out->kind = kind_of(f->win[f->head]);
	out->have = avail;
	out->need = f->have_len ? f->frame_len : 0;
	out->pos = pos_at(f, f->head);
	out->off = f->win_off + f->head;
	out->why = f->break_why;
	f->skipped += avail;
	f->head = f->tail;
	break_done(f);
	return WARP_FRAME_CUT;
}

enum warp_frame_result warp_frame_step(struct warp_frame *f, struct warp_frame_out *out)
{
	memset(out, 0, sizeof(*out));
	prune(f);
	if (f->head > WARP_FRAME_WINDOW / 2)
		compact(f);
	for (;;) {
		const uint8_t *p = f->win + f->head;
		size_t avail = f->tail - f->head;
		uint32_t len = 0;
		uint8_t kind = 0;
		if (f->sync) {
			if (avail == 0 && f->broken) {
				break_done(f);
				return WARP_FRAME_MORE;
			}
			if (!f->have_len) {
				enum len_status s = frame_len(p, avail, &len, &kind, f->why_buf,
				                              sizeof(f->why_buf), &f->no_ecrc_len);
				if (s == LEN_NEED && f->broken)
					return cut(f, out);
				if (s == LEN_NEED && !f->blocked)
					return WARP_FRAME_MORE;
				if (s != LEN_OK) {
					/* damaged, or (never in practice) a header over
					 * more chunks than there are marks */
					if (s == LEN_NEED)
						snprintf(
						        f->why_buf, sizeof(f->why_buf),
						        "a frame header over more than %u segments",
						        WARP_FRAME_MARKS);
					warp_frame_lose_step(f, f->why_buf);
					continue;
				}
				f->have_len = true;
				f->frame_len = len;
			}
			if (f->no_ecrc_len && avail >= f->no_ecrc_len &&
			    frame_verifies(p, f->no_ecrc_len, REC_TLP)) {
				/* a TD=1 TLP sent without its ECRC DW (see above) */
				bool shorter = avail >= f->frame_len
				                       ? !frame_verifies(p, f->frame_len, REC_TLP)
				                       : f->broken || f->blocked ||
				                                 (avail == f->no_ecrc_len &&
				                                  f->tail_seg_end);
				if (shorter) {
					f->frame_len = f->no_ecrc_len;
					f->no_ecrc_len = 0;
				}
			}
			if (avail < f->frame_len && f->broken)
				return cut(f, out);
			if (avail < f->frame_len && !f->blocked)
				return WARP_FRAME_MORE;
			if (avail < f->frame_len) {
				/* never in practice (a frame of known length needs
				 * no mark): out of step rather than stuck */
				snprintf(f->why_buf, sizeof(f->why_buf),
				         "a frame over more than %u segments", WARP_FRAME_MARKS);
				warp_frame_lose_step(f, f->why_buf);
				continue;
			}
			out->kind = kind_of(p[0]);
			out->bytes = p + 1;
			out->len = f->frame_len - 1;
			out->pos = pos_at(f, f->head);
			out->off = f->win_off + f->head;
			f->decoded += f->frame_len;
			f->head += f->frame_len;
			f->have_len = false;
			return WARP_FRAME_RECORD;
		}
		if (avail == 0) {
			if (!f->broken)
				return WARP_FRAME_MORE;
			/* the break: what was skipped up to it */
			enum warp_frame_result r = WARP_FRAME_MORE;
			if (f->skip_bytes) {
				r = WARP_FRAME_SKIPPED;
				out->skipped = f->skip_bytes;
				out->pos = f->skip_pos;
				out->off = f->skip_off;
				out->resumed = false;
				out->why = f->why;
				out->until = f->break_why;
			}
			break_done(f);
			return r;
		}
		if (f->skip_bytes == 0) {
			f->skip_pos = pos_at(f, f->head);
			f->skip_off = f->win_off + f->head;
		}
		char why[80];
		uint32_t no_ecrc;
		enum len_status s = frame_len(p, avail, &len, &kind, why, sizeof(why), &no_ecrc);
		if (s == LEN_OK && no_ecrc && avail >= no_ecrc &&
		    (avail < len || !frame_verifies(p, len, kind)) &&
		    frame_verifies(p, no_ecrc, kind))
			len = no_ecrc; /* a TD=1 TLP sent without its ECRC DW (see above) */
		enum cand c = CAND_NO;
		if (s == LEN_OK && avail >= len && frame_verifies(p, len, kind))
			c = kind == REC_DLLP ? dllp_candidate(f, p, avail, len) : CAND_OK;
		if (c == CAND_WAIT && !f->blocked && !f->broken)
			return WARP_FRAME_MORE;
		if (c == CAND_OK) {
			f->sync = true;
			f->have_len = true;
			f->frame_len = len;
			f->no_ecrc_len = 0; /* verified at its length */
			if (f->skip_bytes) {
				out->skipped = f->skip_bytes;
				out->pos = f->skip_pos;
				out->off = f->skip_off;
				out->resumed = true;
				out->resume = pos_at(f, f->head);
				out->why = f->why;
				f->skip_bytes = 0;
				return WARP_FRAME_SKIPPED;
			}
			continue;
		}
		/* a candidate that needs more bytes waits for them, unless none
		 * can come (a break) or it cannot be kept (no mark left) */
		if ((s == LEN_NEED || (s == LEN_OK && avail < len)) && !f->blocked && !f->broken)
			return WARP_FRAME_MORE;
		/* no frame starts here that can be verified */
		f->head++;
		f->skip_bytes++;
		f->skipped++;
		f->blocked = false;
		prune(f);
	}
}
