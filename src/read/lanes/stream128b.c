/* stream128b.c: the 128b/130b token parser (stream128b.h; phy-digest.md
 * sections 4.4-4.6).
 */
#include "read/lanes/stream128b.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "read/lanes/token128b.h"

/* The longest TLP Length a record can hold: the STP token DW gives the 2
 * sequence bytes, the other Length - 1 DW are the TLP and the LCRC. */
#define MAX_TLP_LENGTH_DW ((TLP_MAX_RECORD_LEN - 2u) / 4u + 1u)

void stream128b_init(struct stream128b *s, unsigned lanes, lane_packet_fn packet, void *ctx)
{
	memset(s, 0, sizeof(*s));
	s->lanes = lanes;
	s->packet = packet;
	s->ctx = ctx;
	s->st = S128_STOPPED;
}

void stream128b_start(struct stream128b *s)
{
	s->st = S128_TOKEN;
	s->open = false;
	s->held = false;
	s->idl_rule = false;
	s->tok_n = 0;
}

static void emit(struct stream128b *s, bool phy_error, bool nullified, const char *reason)
{
	struct lane_packet p = {
		.kind = s->kind,
		.pos = s->pkt_pos,
		.lane = s->pkt_lane,
		.phy_error = phy_error,
		.nullified = nullified,
		.bytes = s->buf,
		.len = s->len,
		.reason = reason,
	};

	s->open = false;
	s->held = false;
	s->packet(s->ctx, &p);
}

static void release_held(struct stream128b *s)
{
	if (s->held)
		emit(s, false, false, NULL);
}

static void stop(struct stream128b *s)
{
	s->st = S128_STOPPED;
	s->open = false;
	s->held = false;
	s->idl_rule = false;
	s->tok_n = 0;
}

/* A framing error: the packet it cuts short keeps it (phy_error, the
 * bytes received), else it belongs to no packet (LANE_FRAMING). */
static void report(struct stream128b *s, unsigned lane, const struct lane_pos *pos)
{
	release_held(s);
	if (s->open) {
		emit(s, true, false, s->reason);
	} else {
		struct lane_packet p = {
			.kind = LANE_FRAMING, .pos = *pos, .lane = lane, .reason = s->reason
		};
		s->packet(s->ctx, &p);
	}
	stop(s);
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void
framing(struct stream128b *s, unsigned lane, const struct lane_pos *pos, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(s->reason, sizeof(s->reason), "lane %u: ", lane);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(s->reason))
		vsnprintf(s->reason + n, sizeof(s->reason) - (size_t)n, fmt, ap);
	va_end(ap);
	report(s, lane, pos);
}

void stream128b_error(struct stream128b *s, unsigned lane, const struct lane_pos *pos,
                      const char *reason)
{
	if (s->st == S128_STOPPED)
		return;
	framing(s, lane, pos, "%s", reason);
}

void stream128b_stop(struct stream128b *s)
{
	release_held(s);
	if (s->open) {
		snprintf(s->reason, sizeof(s->reason),
		         "lane %u: the data stream ends inside the %s", s->pkt_lane,
		         s->kind == LANE_TLP ? "TLP" : "DLLP");
		emit(s, true, false, s->reason);
	}
	stop(s);
}

void stream128b_finish(struct stream128b *s)
{
	release_held(s);
	if (s->open) {
		snprintf(s->reason, sizeof(s->reason),
		         "lane %u: the capture ends inside the %s (%zu of %zu bytes)", s->pkt_lane,
		         s->kind == LANE_TLP ? "TLP" : "DLLP", s->len, s->len + s->need);
		emit(s, true, false, s->reason);
	}
	stop(s);
}

bool stream128b_open(const struct stream128b *s, struct lane_pos *since)
{
	if (s->open || s->held) {
		*since = s->pkt_pos;
		return true;
	}
	if (s->st == S128_TOKBYTES) {
		*since = s->tok_pos;
		return true;
	}
	return false;
}

static void open_packet(struct stream128b *s, enum lane_packet_kind kind, size_t need)
{
	s->kind = kind;
	s->open = true;
	s->len = 0;
	s->need = need;
	s->pkt_pos = s->tok_pos;
	s->pkt_lane = s->tok_lane;
}

/* The first byte where a token is expected (digest 4.4, 4.6 rules 1, 6). */
static void token_start(struct stream128b *s, uint8_t b, unsigned idx, unsigned lane,
                        stream128b_pos_fn pos_of, void *ctx)
{
	const struct lane_pos *pos;

	if (s->idl_rule) {
		if (s->sym == s->idl_sym && lane < s->idl_end) {
			if (b != TOK128_IDL && b != 0x1Fu) {
				framing(s, lane, pos_of(ctx, idx),
				        "%02Xh after IDL in the same symbol time (only IDL or EDS "
				        "before lane %u)",
				        b, s->idl_end);
				return;
			}
		} else {
			s->idl_rule = false;
		}
	}
	if (b != TOK128_EDB)
		release_held(s);
	if (b == TOK128_IDL) {
		if (!s->idl_rule) {
			s->idl_rule = true;
			s->idl_sym = s->sym;
			s->idl_end = s->lanes <= 4 ? s->lanes : (lane / 4u + 1u) * 4u;
		}
		return;
	}
	pos = pos_of(ctx, idx); /* the edge of a token's first byte */
	if (b != TOK128_SDP0 && b != TOK128_EDB && !tok128_is_stp(b)) {
		framing(s, lane, pos, "%02Xh where a token was expected", b);
		return;
	}
	s->tok[0] = b;
	s->tok_n = 1;
	s->tok_want = b == TOK128_SDP0 ? TOK128_SDP_LEN : TOK128_LEN;
	s->tok_pos = *pos;
	s->tok_lane = lane;
	s->tok_idx = idx;
	s->st = S128_TOKBYTES;
}

static void stp_done(struct stream128b *s)
{
	unsigned len, seq;
	const struct lane_pos *pos = &s->tok_pos;
	unsigned lane = s->tok_lane;

	if (tok128_is_eds(s->tok)) {
		/* digest 4.5: the last DW of the block */
		if (s->tok_idx != BLOCK_STREAM_BYTES(s->lanes) - 4u) {
			framing(s, lane, pos, "EDS token not in the last DW of the data block");
			return;
		}
		s->st = S128_EDS;
		return;
	}
	if (!tok128_stp_unpack(s->tok, &len, &seq)) {
		framing(s, lane, pos,
		        "STP token %02X %02X %02X %02X: Frame CRC or parity does not match "
		        "Length %u",
		        s->tok[0], s->tok[1], s->tok[2], s->tok[3], len);
		return;
	}
	/* digest 4.6 rule 3: Lengths no TLP has (1 is EDS only) */
	if (len < 5u || len > MAX_TLP_LENGTH_DW) {
		framing(s, lane, pos, "STP token with TLP Length %u DW, which no TLP has", len);
		return;
	}
	open_packet(s, LANE_TLP, (size_t)len * 4u - 4u);
	s->buf[0] = s->tok[2] & 0x0Fu; /* the reserved bits, taken as 0000b */
	s->buf[1] = s->tok[3];
	s->len = 2;
	s->st = S128_TLP;
}

/* A byte inside a token. */
static void token_more(struct stream128b *s, uint8_t b)
{
	s->tok[s->tok_n++] = b;
	if (s->tok[0] == TOK128_SDP0) {
		if (b != TOK128_SDP1) {
			framing(s, s->tok_lane, &s->tok_pos,
			        "SDP token F0h followed by %02Xh, not ACh", b);
			return;
		}
		open_packet(s, LANE_DLLP, DLLP_WIRE_LEN);
		s->st = S128_DLLP;
		return;
	}
	if (s->tok[0] == TOK128_EDB) {
		/* digest 4.6 rule 4; a bad EDB after a TLP is that TLP's error */
		if (b != TOK128_EDB) {
			if (s->held) {
				s->held = false;
				s->open = true;
			}
			framing(s, s->tok_lane, &s->tok_pos, "EDB token not all C0h (%02Xh)", b);
			return;
		}
		if (s->tok_n < TOK128_LEN)
			return;
		s->tok_n = 0;
		if (!s->held) {
			framing(s, s->tok_lane, &s->tok_pos,
			        "EDB token not immediately after a TLP");
			return;
		}
		emit(s, false, true, NULL);
		s->st = S128_TOKEN;
		return;
	}
	if (s->tok_n < TOK128_LEN)
		return;
	s->tok_n = 0;
	s->st = S128_TOKEN;
	stp_done(s);
}

/* A packet body's bytes: as many as it needs of the n there are. */
static unsigned body(struct stream128b *s, const uint8_t *p, unsigned n)
{
	unsigned take = s->need < n ? (unsigned)s->need : n;

	memcpy(s->buf + s->len, p, take);
	s->len += take;
	s->need -= take;
	if (s->need)
		return take;
	s->st = S128_TOKEN;
	if (s->kind == LANE_TLP) {
		s->open = false;
		s->held = true; /* an EDB may follow */
	} else {
		emit(s, false, false, NULL);
	}
	return take;
}

void stream128b_block(struct stream128b *s, const uint8_t *bytes, uint64_t sym0,
                      stream128b_pos_fn pos_of, void *ctx)
{
	unsigned n = BLOCK_STREAM_BYTES(s->lanes);

	for (unsigned i = 0; i < n;) {
		unsigned lane = i % s->lanes;

		s->sym = sym0 + i / s->lanes;
		switch (s->st) {
		case S128_STOPPED:
			return;
		case S128_TLP:
		case S128_DLLP:
			i += body(s, bytes + i, n - i);
			continue;
		case S128_TOKEN:
			token_start(s, bytes[i], i, lane, pos_of, ctx);
			break;
		case S128_TOKBYTES:
			token_more(s, bytes[i]);
			break;
		case S128_EDS:
			framing(s, lane, pos_of(ctx, i), "data after the EDS token");
			return;
		}
		i++;
	}
}
