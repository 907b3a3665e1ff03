/* frame8b10b.c: de-striped framing of an 8b/10b link (frame8b10b.h;
 * phy-digest.md sections 3.1-3.4). */
#include "read/lanes/frame8b10b.h"

#include <stdarg.h>
#include <stdio.h>

#include "read/lanes/code8b10b.h"
#include "read/lanes/rx8b10b.h"

/* At least 18 symbols between STP and END/EDB (digest 3.1: sequence 2 +
 * the smallest header 12 + LCRC 4). */
#define TLP_MIN_SYMBOLS 18u

void frame8b10b_init(struct frame8b10b *f, unsigned lanes, struct scramble_detect *det,
                     lane_packet_fn packet, void *ctx)
{
	f->lanes = lanes;
	f->det = det;
	f->packet = packet;
	f->ctx = ctx;
	f->state = FRAME_IDLE;
	f->stp_seen = f->sdp_seen = f->pad_ok = f->after_idle = false;
	f->phy_error = false;
	f->quiet = f->gone = f->active = 0;
	f->len = 0;
	f->start_lane = 0;
	f->start_pos = (struct lane_pos){ 0 };
	f->reason[0] = '\0';
}

/* The name of a symbol for a message: STP, D21.5, ... */
static const char *sym_name(uint8_t byte, bool k, char *buf)
{
	if (k) {
		switch (byte) {
		case K_COM:
			return "COM";
		case K_STP:
			return "STP";
		case K_SDP:
			return "SDP";
		case K_END:
			return "END";
		case K_EDB:
			return "EDB";
		case K_PAD:
			return "PAD";
		case K_SKP:
			return "SKP";
		case K_FTS:
			return "FTS";
		case K_IDL:
			return "IDL";
		case K_EIE:
			return "EIE";
		default:
			break;
		}
	}
	return code8b10b_name(byte, k, buf);
}

/* "invalid 8b/10b code 1A3h" / "disparity error in D21.5" */
static void err_text(char *out, size_t n, uint8_t byte, bool k, unsigned err, unsigned code,
                     unsigned input)
{
	char nb[8];
	if (err == CODE8B10B_DISPARITY)
		snprintf(out, n, "disparity error in %s", sym_name(byte, k, nb));
	else if (input == LANE_IN_CODE10)
		snprintf(out, n, "invalid 8b/10b code %03Xh", code & 0xFFFFu);
	else
		snprintf(out, n,
		         "symbol %03Xh is no 8b/10b symbol (K flag on a byte that is no "
		         "PCIe K symbol)",
		         code & 0xFFFFu);
}

/* A framing error outside any packet, once per lane until it is good again. */
static void framing(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane,
                    const char *fmt, ...)
{
	uint32_t bit = 1u << (lane & 31u);
	if (f->quiet & bit)
		return;
	f->quiet |= bit;
	char msg[160];
	int n = snprintf(msg, sizeof msg, "lane %u: ", lane);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
	va_end(ap);
	struct lane_packet p = {
		.kind = LANE_FRAMING,
		.pos = *pos,
		.lane = lane,
		.reason = msg,
	};
	f->packet(f->ctx, &p);
}

/* The first problem of the open packet. */
static void note(struct frame8b10b *f, unsigned lane, const char *fmt, ...)
{
	if (f->phy_error)
		return;
	f->phy_error = true;
	int n = snprintf(f->reason, sizeof f->reason, "lane %u: ", lane);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->reason + n, sizeof f->reason - (size_t)n, fmt, ap);
	va_end(ap);
}

static void emit(struct frame8b10b *f, bool nullified)
{
	enum lane_packet_kind kind = f->state == FRAME_DLLP ? LANE_DLLP : LANE_TLP;
	if (!f->phy_error)
		scramble_packet_vote(f->det, kind, nullified, f->buf, f->keys, f->len);
	if (scramble_on(f->det))
		for (size_t i = 0; i < f->len; i++)
			f->buf[i] ^= f->keys[i];
	struct lane_packet p = {
		.kind = kind,
		.pos = f->start_pos,
		.lane = f->start_lane,
		.phy_error = f->phy_error,
		.nullified = nullified,
		.bytes = f->buf,
		.len = f->len,
		.reason = f->phy_error ? f->reason : NULL,
	};
	f->state = FRAME_IDLE;
	f->packet(f->ctx, &p);
}

static bool in_packet(const struct frame8b10b *f)
{
	return f->state == FRAME_TLP || f->state == FRAME_DLLP;
}

static void append(struct frame8b10b *f, unsigned lane, uint8_t byte, uint8_t key)
{
	if (f->len == sizeof f->buf) {
		/* bounded: cut, report, and skip to the next END or start */
		note(f, lane, "no END within %zu bytes, the largest TLP record: cut", f->len);
		emit(f, false);
		f->state = FRAME_SKIP;
		return;
	}
	f->keys[f->len] = key;
	f->buf[f->len++] = byte;
}

static void start(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane, uint8_t byte,
                  unsigned err, const char *etext)
{
	const char *name = byte == K_STP ? "STP" : "SDP";
	if (in_packet(f)) {
		note(f, lane, "%s before the END of the packet", name);
		emit(f, false);
	}
	f->state = FRAME_IDLE;
	/* STP/SDP in lane 0, or lane 4k on links wider than x4 (digest 3.2,
	 * p.358).  x12 and x32 follow the generic "Lane 4*N" sentence only:
	 * digest UNVERIFIED item 4.  From logical idle the start must be in
	 * lane 0. */
	if (lane != 0 && (f->lanes <= 4 || lane % 4u != 0)) {
		framing(f, pos, lane, "%s not in lane 0%s", name, f->lanes > 4 ? " or 4k" : "");
		f->state = FRAME_SKIP;
		return;
	}
	if (lane != 0 && f->after_idle) {
		framing(f, pos, lane, "%s after logical idle not in lane 0", name);
		f->state = FRAME_SKIP;
		return;
	}
	bool *seen = byte == K_STP ? &f->stp_seen : &f->sdp_seen;
	if (*seen) {
		framing(f, pos, lane, "a second %s in one symbol time", name);
		f->state = FRAME_SKIP;
		return;
	}
	*seen = true;
	f->state = byte == K_STP ? FRAME_TLP : FRAME_DLLP;
	f->start_pos = *pos;
	f->start_lane = lane;
	f->len = 0;
	f->phy_error = false;
	if (err)
		note(f, lane, "%s", etext);
}

static void end(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane, uint8_t byte)
{
	const char *name = byte == K_END ? "END" : "EDB";
	f->pad_ok = true;
	if (f->state == FRAME_SKIP) {
		f->state = FRAME_IDLE;
		return;
	}
	if (f->state == FRAME_IDLE) {
		framing(f, pos, lane, "%s with no packet open", name);
		return;
	}
	if (f->state == FRAME_TLP && f->len < TLP_MIN_SYMBOLS)
		note(f, lane, "TLP of %zu symbols between STP and %s, fewer than %u", f->len, name,
		     TLP_MIN_SYMBOLS);
	if (f->state == FRAME_DLLP && byte == K_EDB)
		note(f, lane, "DLLP ended by EDB");
	else if (f->state == FRAME_DLLP && f->len != DLLP_WIRE_LEN)
		note(f, lane, "DLLP of %zu bytes between SDP and END, not %u", f->len,
		     DLLP_WIRE_LEN);
	/* only a TLP is nullified; a DLLP ended by EDB is just damaged */
	emit(f, byte == K_EDB && f->state == FRAME_TLP);
}

void frame8b10b_symbol(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane,
                       uint8_t byte, uint8_t key, bool k, unsigned err, unsigned code,
                       unsigned input)
{
	uint32_t bit = 1u << (lane & 31u);
	char etext[120];
	f->gone &= ~bit;
	if (err)
		err_text(etext, sizeof etext, byte, k, err, code, input);
	else
		f->quiet &= ~bit;
	bool was_idle = f->after_idle;
	f->after_idle = false;
	if (!k) {
		if (in_packet(f)) {
			if (err)
				note(f, lane, "%s", etext);
			append(f, lane, byte, key);
		} else if (f->state == FRAME_IDLE) {
			f->after_idle = true;
			if (err)
				framing(f, pos, lane, "%s in logical idle", etext);
			else
				scramble_idle_vote(f->det, byte, key);
		}
		return;
	}
	switch (byte) {
	case K_STP:
	case K_SDP:
		f->after_idle = was_idle;
		start(f, pos, lane, byte, err, etext);
		f->after_idle = false;
		return;
	case K_END:
	case K_EDB:
		if (err && in_packet(f))
			note(f, lane, "%s", etext);
		else if (err && f->state == FRAME_IDLE) {
			framing(f, pos, lane, "%s", etext);
			f->pad_ok = true;
			return;
		}
		end(f, pos, lane, byte);
		return;
	case K_PAD:
		if (f->state == FRAME_IDLE && f->pad_ok && !err) {
			return;
		}
		break;
	default:
		break;
	}
	char nb[8];
	if (in_packet(f)) {
		note(f, lane, "%s%s%s inside the packet", err ? etext : "", err ? ": " : "",
		     sym_name(byte, k, nb));
		append(f, lane, byte, 0);
	} else if (f->state == FRAME_IDLE) {
		if (err)
			framing(f, pos, lane, "%s", etext);
		else
			framing(f, pos, lane, "%s where a packet start or logical idle is expected",
			        sym_name(byte, k, nb));
	}
}

void frame8b10b_gap(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane, bool os)
{
	uint32_t bit = 1u << (lane & 31u);
	if (!os && !(f->active & bit))
		return;
	bool was_gone = (f->gone & bit) != 0;
	/* one dropout, one report: in the packet it falls into, or once in
	 * idle, until the lane carries a stream symbol again */
	f->gone |= bit;
	f->after_idle = false;
	if (in_packet(f)) {
		note(f, lane,
		     os ? "an ordered set inside the packet while other lanes carry it "
		          "(lanes skewed?)"
		        : "no symbol inside the packet (the lane dropped out)");
		return;
	}
	if (f->state != FRAME_IDLE || was_gone)
		return;
	framing(f, pos, lane,
	        os ? "an ordered set while the other lanes carry data (lanes skewed?)"
	           : "no symbol while the other lanes carry data (the lane dropped out)");
}

void frame8b10b_break(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane, bool os)
{
	(void)pos;
	f->after_idle = false;
	if (in_packet(f)) {
		note(f, lane,
		     os ? "an ordered set before the END of the packet"
		        : "no symbol on any lane before the END of the packet");
		emit(f, false);
	}
	f->state = FRAME_IDLE;
}

void frame8b10b_os_error(struct frame8b10b *f, const struct lane_pos *pos, unsigned lane,
                         uint8_t byte, bool k, unsigned err, unsigned code, unsigned input)
{
	char etext[120];
	err_text(etext, sizeof etext, byte, k, err, code, input);
	/* an ordered set beside a packet's symbols (lanes skewed): the packet's */
	if (in_packet(f))
		note(f, lane, "%s in an ordered set", etext);
	else
		framing(f, pos, lane, "%s in an ordered set", etext);
}

void frame8b10b_finish(struct frame8b10b *f)
{
	if (in_packet(f)) {
		note(f, f->start_lane, "the capture ends inside the packet");
		emit(f, false);
	}
	f->state = FRAME_IDLE;
}

bool frame8b10b_open(const struct frame8b10b *f, struct lane_pos *since)
{
	if (!in_packet(f))
		return false;
	if (since)
		*since = f->start_pos;
	return true;
}
