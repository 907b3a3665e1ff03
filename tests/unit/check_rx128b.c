/* check_rx128b.c: unit tests of the 128b/130b decoder (read/lanes/rx128b.h
 * and its parts: lfsr23, token128b, block128b, stream128b).
 *
 * The scrambler's first keys and the token equations are the numbers of
 * phy-digest.md section 4.2 and 4.4.  The packets are rebuilt from PIPE
 * word streams that a small transmitter model below builds (blocks, sync
 * headers, start flags, the per-lane scrambler, ordered sets, striping,
 * tokens): a round trip through an independent encoder written from the
 * same digest, with each framing error of digest 4.6 injected on purpose.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "read/lanes/block128b.h"
#include "read/lanes/lfsr23.h"
#include "read/lanes/rx128b.h"
#include "read/lanes/token128b.h"
#include "suites.h"

/* ------------------------------------------------------------ scrambler */

/* The digest computed these (8 lanes x 256 bytes against [SCOPE]); they
 * were not compared with the spec's Appendix C.2 example (UNVERIFIED,
 * phy-digest.md section 8 item 2). */
START_TEST(test_lfsr_first_keys)
{
	static const uint8_t lane0[8] = { 0x6C, 0xBD, 0x94, 0x98, 0x53, 0xC6, 0xD8, 0xCE };
	static const uint8_t lane1[8] = { 0xF0, 0x57, 0x4C, 0x91, 0x4C, 0xA1, 0xAC, 0x56 };
	uint32_t l0 = lfsr23_seed(0), l1 = lfsr23_seed(1);

	for (unsigned i = 0; i < 8; i++) {
		ck_assert_uint_eq(lfsr23_key(&l0), lane0[i]);
		ck_assert_uint_eq(lfsr23_key(&l1), lane1[i]);
	}
	ck_assert_uint_eq(lfsr23_seed(8), lfsr23_seed(0));
	ck_assert_uint_eq(lfsr23_seed(13), 0x19CFC9u);
}
END_TEST

/* The byte tables agree with the LFSR shifted one bit at a time. */
START_TEST(test_lfsr_table_bitwise)
{
	for (unsigned lane = 0; lane < 8; lane++) {
		uint32_t a = lfsr23_seed(lane), b = a;

		for (unsigned i = 0; i < 4096; i++) {
			ck_assert_uint_eq(lfsr23_key(&a), lfsr23_key_bitwise(&b));
			ck_assert_uint_eq(a, b);
		}
	}
}
END_TEST

/* ------------------------------------------------------------ tokens */

START_TEST(test_frame_crc_poly)
{
	for (unsigned l = 0; l < 2048; l++) {
		unsigned p;
		unsigned c = tok128_frame_crc(l, &p);
		unsigned b[11];

		for (unsigned i = 0; i < 11; i++)
			b[i] = l >> i & 1u;
		ck_assert_msg(c == tok128_frame_crc_poly(l), "length %u", l);
		/* the reduced parity of digest 4.4 */
		ck_assert_uint_eq(p, b[10] ^ b[9] ^ b[8] ^ b[6] ^ b[5] ^ b[2] ^ b[0]);
	}
}
END_TEST

START_TEST(test_eds_is_stp_length_1)
{
	static const uint8_t eds[4] = { 0x1F, 0x80, 0x90, 0x00 };
	uint8_t t[4];
	unsigned len, seq;

	tok128_stp_pack(1, 0, t);
	ck_assert_mem_eq(t, eds, 4);
	ck_assert(tok128_is_eds(t));
	ck_assert(tok128_stp_unpack(t, &len, &seq));
	ck_assert_uint_eq(len, 1);
	ck_assert_uint_eq(seq, 0);
}
END_TEST

START_TEST(test_tlp_length_example)
{
	ck_assert_uint_eq(tok128_tlp_length(3, 1, false), 6);
	ck_assert_uint_eq(tok128_tlp_length(3, 1, true), 7);
}
END_TEST

/* Round trip, and every single-bit flip of Length, FP or FCRC caught. */
START_TEST(test_stp_round_trip_flips)
{
	for (unsigned l = 0; l < 2048; l++) {
		uint8_t t[4];
		unsigned len, seq;
		unsigned s = (l * 37u) & 0xFFFu;

		tok128_stp_pack(l, s, t);
		ck_assert(tok128_stp_unpack(t, &len, &seq));
		ck_assert_uint_eq(len, l);
		ck_assert_uint_eq(seq, s);
		for (unsigned bitno = 4; bitno < 24; bitno++) {
			uint8_t f[4];

			memcpy(f, t, 4);
			f[bitno / 8] ^= (uint8_t)(1u << (bitno % 8));
			if (bitno >= 16 && bitno < 20)
				continue; /* Seq[11:8] is not covered */
			ck_assert_msg(!tok128_stp_unpack(f, &len, &seq), "length %u bit %u", l,
			              bitno);
		}
	}
}
END_TEST

/* ------------------------------------------------------------ transmitter model */

#define MAX_LANES 16
#define MAX_STEPS 20000

struct tx {
	unsigned lanes, width; /* bytes per word */
	unsigned stall; /* a valid=0 edge after every stall-th edge (0: none) */
	uint32_t lfsr[MAX_LANES];
	uint8_t blk[16 * MAX_LANES]; /* the current Data Block's stream bytes */
	unsigned n;
	uint8_t bad_sync_lane; /* 1 + lane: the next data block has sync 00b there */
	int drop_lane; /* >= 0: that lane is x/z from the next block on */
	struct lane_word (*steps)[MAX_LANES];
	size_t nsteps, edges;
};

static void tx_init(struct tx *t, unsigned lanes, unsigned width, unsigned stall)
{
	memset(t, 0, sizeof(*t));
	t->lanes = lanes;
	t->width = width;
	t->stall = stall;
	t->drop_lane = -1;
	for (unsigned l = 0; l < lanes; l++)
		t->lfsr[l] = lfsr23_seed(l);
	t->steps = calloc(MAX_STEPS, sizeof(*t->steps));
	ck_assert_ptr_nonnull(t->steps);
}

static void tx_free(struct tx *t)
{
	free(t->steps);
}

static struct lane_word *tx_edge(struct tx *t)
{
	ck_assert_uint_lt(t->nsteps, MAX_STEPS);
	memset(t->steps[t->nsteps], 0, sizeof(t->steps[0]));
	return t->steps[t->nsteps++];
}

/* One block per lane (already scrambled), as PIPE words of width bytes. */
static void tx_words(struct tx *t, uint8_t sync[MAX_LANES], uint8_t sym[][24], unsigned len)
{
	for (unsigned k = 0; k < len; k += t->width) {
		struct lane_word *w;

		if (t->stall && t->edges && t->edges % t->stall == 0) {
			w = tx_edge(t);
			for (unsigned l = 0; l < t->lanes; l++)
				w[l].valid = false;
		}
		t->edges++;
		w = tx_edge(t);
		for (unsigned l = 0; l < t->lanes; l++) {
			w[l].nbytes = (uint8_t)t->width;
			memcpy(w[l].bytes, &sym[l][k], t->width);
			w[l].sync = sync[l];
			w[l].start = k == 0;
			w[l].valid = true;
			w[l].none = t->drop_lane == (int)l;
		}
	}
}

/* The current Data Block, scrambled. */
static void tx_data_block(struct tx *t)
{
	uint8_t sync[MAX_LANES], sym[MAX_LANES][24];

	ck_assert_uint_eq(t->n, 16 * t->lanes);
	for (unsigned l = 0; l < t->lanes; l++) {
		sync[l] = SYNC128B_DATA;
		for (unsigned s = 0; s < 16; s++)
			sym[l][s] = t->blk[s * t->lanes + l] ^ lfsr23_key(&t->lfsr[l]);
	}
	if (t->bad_sync_lane)
		sync[t->bad_sync_lane - 1] = 0;
	t->bad_sync_lane = 0;
	tx_words(t, sync, sym, 16);
	t->n = 0;
}

static void tx_byte(struct tx *t, uint8_t b)
{
	t->blk[t->n++] = b;
	if (t->n == 16 * t->lanes)
		tx_data_block(t);
}

static void tx_bytes(struct tx *t, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tx_byte(t, b[i]);
}

/* IDL, then IDL up to where the next token may start (digest 4.5, 4.6
 * rule 6). */
static void tx_idl(struct tx *t, unsigned count)
{
	for (unsigned i = 0; i < count; i++) {
		tx_byte(t, 0x00);
		while (t->n % (t->lanes <= 4 ? t->lanes : 4u))
			tx_byte(t, 0x00);
	}
}

/* IDL to the last DW of the block, then EDS. */
static void tx_eds(struct tx *t)
{
	static const uint8_t eds[4] = { 0x1F, 0x80, 0x90, 0x00 };

	while (t->n != 16 * t->lanes - 4)
		tx_byte(t, 0x00);
	tx_bytes(t, eds, 4);
}

enum os_k { K_TS1, K_TS2, K_SKP, K_EIOS, K_EIEOS, K_SDS };

static void tx_os(struct tx *t, enum os_k k)
{
	uint8_t sync[MAX_LANES], sym[MAX_LANES][24];
	unsigned len = 16;

	ck_assert_uint_eq(t->n, 0);
	for (unsigned l = 0; l < t->lanes; l++) {
		uint8_t *s = sym[l];

		sync[l] = SYNC128B_OS;
		switch (k) {
		case K_TS1:
		case K_TS2:
			s[0] = k == K_TS1 ? 0x1E : 0x2D;
			for (unsigned i = 1; i < 16; i++)
				s[i] = i >= 10 ? (k == K_TS1 ? 0x4A : 0x45) : (uint8_t)i;
			s[6] = (uint8_t)l; /* lane number */
			(void)lfsr23_key(&t->lfsr[l]);
			for (unsigned i = 1; i < 16; i++)
				s[i] ^= lfsr23_key(&t->lfsr[l]);
			if (k == K_TS1) {
				/* DC balance: unscrambled */
				s[14] = 0xDF;
				s[15] = 0x08;
			}
			break;
		case K_SKP:
			memset(s, 0xAA, 12);
			s[12] = 0xE1;
			s[13] = (uint8_t)(t->lfsr[l] >> 16 & 0x7F); /* UNVERIFIED state */
			s[14] = (uint8_t)(t->lfsr[l] >> 8);
			s[15] = (uint8_t)t->lfsr[l];
			break;
		case K_EIOS:
			memset(s, 0x66, 16);
			break;
		case K_EIEOS:
			for (unsigned i = 0; i < 16; i++)
				s[i] = i & 1 ? 0xFF : 0x00;
			break;
		case K_SDS:
			s[0] = 0xE1;
			memset(s + 1, 0x55, 15);
			break;
		}
		if (k != K_SKP && k != K_TS1 && k != K_TS2)
			for (unsigned i = 0; i < 16; i++)
				(void)lfsr23_key(&t->lfsr[l]);
		if (k == K_EIEOS)
			t->lfsr[l] = lfsr23_seed(l);
	}
	tx_words(t, sync, sym, len);
}

/* An SKP OS of nskp SKP symbols (a receiver may see 4 to 20). */
static void tx_skp(struct tx *t, unsigned nskp)
{
	uint8_t sync[MAX_LANES], sym[MAX_LANES][24];

	ck_assert_uint_eq(t->n, 0);
	for (unsigned l = 0; l < t->lanes; l++) {
		sync[l] = SYNC128B_OS;
		memset(sym[l], 0xAA, nskp);
		sym[l][nskp] = 0xE1;
		sym[l][nskp + 1] = (uint8_t)(0x80 | (t->lfsr[l] >> 16 & 0x7F)); /* parity bit */
		sym[l][nskp + 2] = (uint8_t)(t->lfsr[l] >> 8);
		sym[l][nskp + 3] = (uint8_t)t->lfsr[l];
	}
	tx_words(t, sync, sym, nskp + 4);
}

static void tx_training(struct tx *t)
{
	tx_os(t, K_EIEOS);
	tx_os(t, K_TS1);
	tx_os(t, K_TS1);
	tx_os(t, K_TS2);
	tx_os(t, K_TS2);
	tx_os(t, K_SDS);
}

/* A TLP record (seq field, TLP, LCRC) and its STP token: dw TLP DW plus
 * the LCRC. */
static size_t make_tlp(uint8_t *rec, unsigned seq, unsigned tlp_dw, uint8_t fill)
{
	size_t n = 2;

	rec[0] = (uint8_t)(seq >> 8 & 0x0F);
	rec[1] = (uint8_t)seq;
	for (unsigned i = 0; i < tlp_dw * 4 + 4; i++)
		rec[n++] = (uint8_t)(fill + i * 7);
	return n;
}

/* The STP token of a record of len bytes, then its bytes up to upto. */
static void tx_tlp_part(struct tx *t, const uint8_t *rec, size_t len, size_t upto)
{
	uint8_t stp[4];
	unsigned seq = (unsigned)(rec[0] & 0x0F) << 8 | rec[1];

	tok128_stp_pack((unsigned)(len - 2) / 4 + 1, seq, stp);
	tx_bytes(t, stp, 4);
	tx_bytes(t, rec + 2, upto - 2);
}

static void tx_tlp(struct tx *t, const uint8_t *rec, size_t len)
{
	tx_tlp_part(t, rec, len, len);
}

static void tx_dllp(struct tx *t, const uint8_t d[6])
{
	tx_byte(t, 0xF0);
	tx_byte(t, 0xAC);
	tx_bytes(t, d, 6);
}

/* ------------------------------------------------------------ receiver side */

struct got {
	enum lane_packet_kind kind;
	unsigned lane;
	uint64_t time;
	bool phy_error, nullified;
	size_t len;
	uint8_t bytes[TLP_MAX_RECORD_LEN];
	char reason[160];
};

struct sink {
	struct got *p;
	size_t n;
	size_t symbols;
	uint8_t sym0[64]; /* the first descrambled symbols of lane 0 */
	unsigned flags0[64];
	size_t n0;
	/* the "not decoded from here" reports (lost_span), counted apart so
	 * the packet lists stay those of the stream */
	size_t lost;
	uint64_t lost_time;
};

#define MAX_GOT 64

static void on_packet(void *ctx, const struct lane_packet *pkt)
{
	struct sink *s = ctx;
	struct got *g;

	if (pkt->lost_span) {
		ck_assert_int_eq(pkt->kind, LANE_FRAMING);
		ck_assert_ptr_nonnull(strstr(pkt->reason, "not decoded from here"));
		if (!s->lost++)
			s->lost_time = pkt->pos.time_ps;
		return;
	}
	ck_assert_uint_lt(s->n, MAX_GOT);
	g = &s->p[s->n++];
	g->kind = pkt->kind;
	g->lane = pkt->lane;
	g->time = pkt->pos.time_ps;
	g->phy_error = pkt->phy_error;
	g->nullified = pkt->nullified;
	g->len = pkt->len;
	ck_assert_uint_le(pkt->len, TLP_MAX_RECORD_LEN);
	if (pkt->len)
		memcpy(g->bytes, pkt->bytes, pkt->len);
	snprintf(g->reason, sizeof(g->reason), "%s", pkt->reason ? pkt->reason : "");
	if (pkt->kind == LANE_FRAMING || pkt->phy_error)
		ck_assert_msg(pkt->reason && pkt->reason[0], "a framing error names its reason");
}

static void on_symbol(void *ctx, unsigned lane, const struct lane_pos *pos, uint8_t raw,
                      uint8_t descrambled, unsigned flags)
{
	struct sink *s = ctx;

	(void)pos, (void)raw;
	s->symbols++;
	if (lane == 0 && s->n0 < sizeof(s->sym0)) {
		s->flags0[s->n0] = flags;
		s->sym0[s->n0++] = descrambled;
	}
}

static void run_rx(struct tx *t, struct sink *s, bool finish)
{
	struct rx128b_config cfg = {
		.lanes = t->lanes, .packet = on_packet, .symbol = on_symbol, .ctx = s
	};
	struct rx128b *rx = rx128b_new(&cfg);

	ck_assert_ptr_nonnull(rx);
	memset(s, 0, sizeof(*s));
	s->p = calloc(MAX_GOT, sizeof(*s->p));
	ck_assert_ptr_nonnull(s->p);
	for (size_t i = 0; i < t->nsteps; i++) {
		struct lane_pos pos = { .time_ps = i * 1000, .line = i + 1, .byte_offset = i * 10 };

		rx128b_step(rx, &pos, t->steps[i]);
	}
	if (finish)
		rx128b_finish(rx);
	rx128b_free(rx);
}

/* rx128b_state_same() against a copy: edges without data (valid low,
 * x/z) leave the state as it was, at whatever time; a word of a block
 * does not. */
START_TEST(test_state_same)
{
	struct sink s;
	memset(&s, 0, sizeof(s));
	s.p = calloc(MAX_GOT, sizeof(*s.p));
	ck_assert_ptr_nonnull(s.p);
	struct rx128b_config cfg = {
		.lanes = 2, .packet = on_packet, .symbol = on_symbol, .ctx = &s
	};
	struct rx128b *rx = rx128b_new(&cfg);
	ck_assert_ptr_nonnull(rx);
	void *copy = malloc(rx128b_state_size(rx));
	ck_assert_ptr_nonnull(copy);
	struct lane_word stall[2] = { { .nbytes = 1, .valid = false },
		                      { .nbytes = 1, .valid = false } };
	struct lane_word none[2] = { { .nbytes = 1, .valid = true, .none = true },
		                     { .nbytes = 1, .valid = true, .none = true } };
	struct lane_word word[2] = {
		{ .bytes = { 0xAA }, .nbytes = 1, .sync = 2, .start = true, .valid = true },
		{ .bytes = { 0xAA }, .nbytes = 1, .sync = 2, .start = true, .valid = true }
	};
	struct lane_pos pos = { 1000, 1, 0 };
	rx128b_step(rx, &pos, none);
	rx128b_state_save(rx, copy);
	pos.time_ps += 1000;
	rx128b_step(rx, &pos, none);
	ck_assert(rx128b_state_same(rx, copy));
	pos.time_ps += 1000;
	rx128b_step(rx, &pos, stall);
	ck_assert(rx128b_state_same(rx, copy));
	pos.time_ps += 1000;
	rx128b_step(rx, &pos, word); /* a block begins */
	ck_assert(!rx128b_state_same(rx, copy));
	rx128b_state_save(rx, copy);
	word[0].start = word[1].start = false;
	pos.time_ps += 1000;
	rx128b_step(rx, &pos, word); /* its second symbol */
	ck_assert(!rx128b_state_same(rx, copy));
	ck_assert_uint_eq(s.n, 0);
	free(copy);
	free(s.p);
	rx128b_free(rx);
}
END_TEST

static void expect(const struct sink *s, size_t i, enum lane_packet_kind kind, const uint8_t *b,
                   size_t len, bool nullified, bool phy_error)
{
	ck_assert_msg(i < s->n, "packet %zu of %zu missing", i, s->n);
	const struct got *g = &s->p[i];
	ck_assert_msg(g->kind == kind, "packet %zu: kind %d, want %d (%s)", i, g->kind, kind,
	              g->reason);
	ck_assert_msg(g->nullified == nullified, "packet %zu: nullified %d", i, g->nullified);
	ck_assert_msg(g->phy_error == phy_error, "packet %zu: phy_error %d (%s)", i, g->phy_error,
	              g->reason);
	if (b) {
		ck_assert_uint_eq(g->len, len);
		ck_assert_mem_eq(g->bytes, b, len);
	}
}

/* ------------------------------------------------------------ round trips */

static const uint8_t dllp_ack[6] = { 0x00, 0x00, 0x00, 0x05, 0x12, 0x34 };
static const uint8_t dllp_fc[6] = { 0x40, 0x08, 0x01, 0x10, 0xAB, 0xCD };

/* Training, then traffic: TLPs of several sizes (one crossing a block
 * boundary), DLLPs, IDL fill, EDS + SKP in the middle with the stream
 * resuming, an EDB-nullified TLP, EDS + EIOS at the end. */
static void traffic(unsigned lanes, unsigned width, unsigned stall)
{
	struct tx t;
	struct sink s;
	uint8_t r1[64], r2[TLP_MAX_RECORD_LEN], r3[64], r4[64];
	size_t n1 = make_tlp(r1, 0x123, 3, 0x10);
	size_t n2 = make_tlp(r2, 0xFFF, 4 + 64, 0x40); /* 4 DW hdr + 256 bytes */
	size_t n3 = make_tlp(r3, 0x001, 4, 0x90);
	size_t n4 = make_tlp(r4, 0x002, 3 + 1, 0xC0);
	size_t i = 0;

	tx_init(&t, lanes, width, stall);
	tx_training(&t);
	size_t first_data = t.nsteps + (stall && t.edges % stall == 0 ? 1 : 0);
	tx_idl(&t, 1);
	tx_tlp(&t, r1, n1);
	tx_dllp(&t, dllp_ack);
	tx_idl(&t, 3);
	tx_tlp(&t, r2, n2); /* crosses block boundaries at every width */
	tx_dllp(&t, dllp_fc);
	tx_eds(&t);
	tx_os(&t, K_SKP);
	tx_tlp(&t, r3, n3);
	tx_byte(&t, 0xC0), tx_byte(&t, 0xC0), tx_byte(&t, 0xC0), tx_byte(&t, 0xC0);
	tx_tlp(&t, r4, n4);
	tx_idl(&t, 2);
	tx_eds(&t);
	tx_os(&t, K_EIOS);
	run_rx(&t, &s, true);

	expect(&s, i, LANE_TRAINED, NULL, 0, false, false);
	ck_assert_uint_eq(s.p[i].time, first_data * 1000);
	ck_assert_uint_eq(s.p[i++].lane, 0);
	expect(&s, i++, LANE_TLP, r1, n1, false, false);
	expect(&s, i++, LANE_DLLP, dllp_ack, 6, false, false);
	expect(&s, i++, LANE_TLP, r2, n2, false, false);
	expect(&s, i++, LANE_DLLP, dllp_fc, 6, false, false);
	expect(&s, i++, LANE_TLP, r3, n3, true, false);
	expect(&s, i++, LANE_TLP, r4, n4, false, false);
	ck_assert_uint_eq(s.n, i);
	ck_assert_uint_gt(s.symbols, 0);
	free(s.p);
	tx_free(&t);
}

START_TEST(test_traffic_x1)
{
	traffic(1, 1, 0);
	traffic(1, 2, 0);
	traffic(1, 4, 0);
}
END_TEST

START_TEST(test_traffic_x2_x4)
{
	for (unsigned w = 1; w <= 4; w *= 2) {
		traffic(2, w, 0);
		traffic(4, w, 0);
	}
}
END_TEST

START_TEST(test_traffic_x8_x16)
{
	for (unsigned w = 1; w <= 4; w *= 2) {
		traffic(8, w, 0);
		traffic(16, w, 0);
	}
}
END_TEST

/* valid = 0 edges (the PIPE stall) carry nothing. */
START_TEST(test_traffic_stalls)
{
	traffic(1, 4, 3);
	traffic(4, 4, 16);
	traffic(8, 2, 5);
	traffic(16, 1, 7);
}
END_TEST

/* The first symbol's edge is the packet's position: at x4, 8-bit words,
 * an STP at stream byte 8 is in symbol 2, the block's third edge. */
START_TEST(test_positions)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 7, 3, 0);

	tx_init(&t, 4, 1, 0);
	tx_training(&t);
	size_t data = t.nsteps;
	tx_idl(&t, 1); /* symbol 0 */
	tx_idl(&t, 1); /* symbol 1 */
	tx_tlp(&t, r, n); /* symbol 2.. */
	tx_idl(&t, 60);
	run_rx(&t, &s, true);
	expect(&s, 0, LANE_TRAINED, NULL, 0, false, false);
	expect(&s, 1, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.p[1].time, (data + 2) * 1000);
	ck_assert_uint_eq(s.n, 2);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* ------------------------------------------------------------ framing errors */

static void start_link(struct tx *t, unsigned lanes, unsigned width)
{
	tx_init(t, lanes, width, 0);
	tx_training(t);
	tx_idl(t, 1);
}

/* Resynchronisation after a framing error: EDS-less SKP, then a TLP. */
static void tx_resync(struct tx *t, const uint8_t *r, size_t n)
{
	while (t->n)
		tx_byte(t, 0x00);
	tx_os(t, K_SKP);
	tx_tlp(t, r, n);
	tx_idl(t, 1);
	tx_eds(t);
	tx_os(t, K_EIOS);
}

START_TEST(test_bad_fcrc)
{
	for (unsigned lanes = 1; lanes <= 16; lanes *= 4) {
		struct tx t;
		struct sink s;
		uint8_t r[64];
		size_t n = make_tlp(r, 5, 3, 0x22);
		uint8_t stp[4];

		start_link(&t, lanes, 4);
		tok128_stp_pack(6, 5, stp);
		stp[2] ^= 0x10; /* one FCRC bit */
		tx_bytes(&t, stp, 4);
		tx_bytes(&t, r + 2, n - 2);
		tx_resync(&t, r, n);
		run_rx(&t, &s, true);
		expect(&s, 0, LANE_TRAINED, NULL, 0, false, false);
		expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
		ck_assert_ptr_nonnull(strstr(s.p[1].reason, "Frame CRC"));
		expect(&s, 2, LANE_TLP, r, n, false, false); /* after the SKP */
		ck_assert_uint_eq(s.n, 3);
		/* the data blocks after the error's block up to the SKP (x1:
		 * the TLP runs on into the next block): said once, after it */
		ck_assert_uint_eq(s.lost, lanes == 1 ? 1 : 0);
		if (s.lost) {
			ck_assert_uint_gt(s.lost_time, s.p[1].time);
			ck_assert_uint_lt(s.lost_time, s.p[2].time);
		}
		free(s.p);
		tx_free(&t);
	}
}
END_TEST

/* A bad sync header inside a TLP: the TLP, cut short, is a phy_error
 * packet with the bytes received before that block. */
START_TEST(test_bad_sync_header)
{
	struct tx t;
	struct sink s;
	uint8_t r[TLP_MAX_RECORD_LEN];
	size_t n = make_tlp(r, 9, 40, 0x33);

	start_link(&t, 4, 4);
	/* 4 bytes of the first block are IDL: 60 left, the STP and 56 */
	tx_tlp_part(&t, r, n, 2 + 56); /* the rest is in the bad block */
	ck_assert_uint_eq(t.n, 0);
	t.bad_sync_lane = 3;
	tx_bytes(&t, r + 58, n - 58);
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 0, LANE_TRAINED, NULL, 0, false, false);
	expect(&s, 1, LANE_TLP, r, 58, false, true);
	ck_assert_ptr_nonnull(strstr(s.p[1].reason, "lane 2: invalid sync header 00b"));
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* A bad sync header between packets: LANE_FRAMING on that lane. */
START_TEST(test_bad_sync_idle)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	start_link(&t, 8, 2);
	tx_idl(&t, 40);
	while (t.n)
		tx_byte(&t, 0);
	t.bad_sync_lane = 6;
	tx_idl(&t, 40);
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_uint_eq(s.p[1].lane, 5);
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);
}
END_TEST

START_TEST(test_unknown_token)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	start_link(&t, 4, 4);
	tx_tlp(&t, r, n);
	tx_byte(&t, 0x5A); /* lane 0 of a symbol time */
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_TLP, r, n, false, false);
	expect(&s, 2, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_ptr_nonnull(strstr(s.p[2].reason, "5Ah where a token was expected"));
	expect(&s, 3, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 4);
	free(s.p);
	tx_free(&t);
}
END_TEST

START_TEST(test_data_after_eds)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	start_link(&t, 2, 2);
	tx_eds(&t);
	tx_idl(&t, 40); /* a Data Block where an OS block must be */
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_ptr_nonnull(strstr(s.p[1].reason, "data block after EDS"));
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* An SKP OS without EDS cuts a TLP short. */
START_TEST(test_os_without_eds)
{
	struct tx t;
	struct sink s;
	uint8_t r[TLP_MAX_RECORD_LEN];
	size_t n = make_tlp(r, 9, 40, 0x33);

	start_link(&t, 1, 1);
	tx_tlp_part(&t, r, n, 2 + 11); /* IDL, STP, 11 bytes: the block is full */
	ck_assert_uint_eq(t.n, 0);
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_TLP, r, 13, false, true);
	ck_assert_ptr_nonnull(strstr(s.p[1].reason, "SKP block without EDS"));
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* A lane that drops out (x/z) in a data stream. */
START_TEST(test_lane_drops_out)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	start_link(&t, 4, 4);
	tx_idl(&t, 20);
	while (t.n)
		tx_byte(&t, 0);
	t.drop_lane = 1;
	tx_idl(&t, 16);
	t.drop_lane = -1;
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_uint_eq(s.p[1].lane, 1);
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* An EDB without a TLP before it, and a token after IDL on x4. */
START_TEST(test_edb_and_idl_rules)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	start_link(&t, 1, 1);
	tx_byte(&t, 0xC0), tx_byte(&t, 0xC0), tx_byte(&t, 0xC0), tx_byte(&t, 0xC0);
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_ptr_nonnull(strstr(s.p[1].reason, "EDB token not immediately after a TLP"));
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);

	start_link(&t, 4, 1); /* stream byte 4: lane 0 */
	tx_byte(&t, 0x00);
	tx_dllp(&t, dllp_ack); /* on lanes 1..: not allowed after IDL */
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_uint_eq(s.p[1].lane, 1);
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* The other rules of digest 4.6: each case gives the one framing error
 * named, and the stream comes back at the next SKP. */
START_TEST(test_more_framing_rules)
{
	static const uint8_t eds[4] = { 0x1F, 0x80, 0x90, 0x00 };
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	for (unsigned c = 0; c < 6; c++) {
		struct tx t;
		struct sink s;
		uint8_t stp[4];
		const char *want = NULL;
		bool tlp_err = false;

		start_link(&t, 4, 4);
		switch (c) {
		case 0: /* EDS not in the last DW */
			tx_bytes(&t, eds, 4);
			want = "EDS token not in the last DW";
			break;
		case 1: /* EDS, SKP, then another OS */
			tx_eds(&t);
			tx_os(&t, K_SKP);
			tx_os(&t, K_EIOS);
			want = "EIOS block without EDS";
			break;
		case 2: /* a TLP Length no TLP has */
			tok128_stp_pack(3, 1, stp);
			tx_bytes(&t, stp, 4);
			want = "TLP Length 3 DW";
			break;
		case 3: /* EDB not all C0h after a TLP: that TLP's error */
			tx_tlp(&t, r, n);
			tx_byte(&t, 0xC0), tx_byte(&t, 0xC0), tx_byte(&t, 0x00), tx_byte(&t, 0xC0);
			want = "EDB token not all C0h";
			tlp_err = true;
			break;
		case 4: /* SDP not followed by ACh */
			tx_byte(&t, 0xF0), tx_byte(&t, 0xAD);
			want = "SDP token F0h followed by ADh";
			break;
		case 5: /* EDS, then TS1: only SKP, EIOS, EIEOS may follow */
			tx_eds(&t);
			tx_os(&t, K_TS1);
			want = "TS1 block after EDS";
			break;
		}
		tx_resync(&t, r, n);
		run_rx(&t, &s, true);
		expect(&s, 0, LANE_TRAINED, NULL, 0, false, false);
		if (tlp_err)
			expect(&s, 1, LANE_TLP, r, n, false, true);
		else
			expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
		ck_assert_msg(strstr(s.p[1].reason, want), "case %u: %s", c, s.p[1].reason);
		/* a TS1 after the stream ran: a retrain */
		size_t i = 2;
		if (c == 5)
			expect(&s, i++, LANE_RETRAIN, NULL, 0, false, false);
		expect(&s, i++, LANE_TLP, r, n, false, false);
		ck_assert_uint_eq(s.n, i);
		free(s.p);
		tx_free(&t);
	}
}
END_TEST

/* SKP OS of 8 to 24 symbols (digest 4.1) in a stream; the LFSR loaded
 * from each (the transmitter's differs from the seeds). */
START_TEST(test_skp_lengths)
{
	for (unsigned w = 1; w <= 4; w *= 2) {
		struct tx t;
		struct sink s;
		uint8_t r[64];
		size_t n = make_tlp(r, 9, 3, 0x33);

		start_link(&t, 4, w);
		for (unsigned nskp = 4; nskp <= 20; nskp += 4) {
			if (w == 4 && nskp % 4)
				continue;
			tx_eds(&t);
			for (unsigned l = 0; l < 4; l++)
				t.lfsr[l] ^= 0x10203u * (nskp + l);
			tx_skp(&t, nskp);
			tx_tlp(&t, r, n);
		}
		tx_idl(&t, 1);
		tx_eds(&t);
		tx_os(&t, K_EIOS);
		run_rx(&t, &s, true);
		expect(&s, 0, LANE_TRAINED, NULL, 0, false, false);
		for (size_t i = 1; i <= 5; i++)
			expect(&s, i, LANE_TLP, r, n, false, false);
		ck_assert_uint_eq(s.n, 6);
		free(s.p);
		tx_free(&t);
	}
}
END_TEST

/* Every lane in electrical idle inside a TLP: the TLP is cut short. */
START_TEST(test_all_lanes_idle)
{
	struct tx t;
	struct sink s;
	uint8_t r[TLP_MAX_RECORD_LEN];
	size_t n = make_tlp(r, 9, 100, 0x33);

	start_link(&t, 2, 2);
	tx_tlp_part(&t, r, n, 2 + 26); /* one block: 2 IDL, STP, 26 bytes */
	ck_assert_uint_eq(t.n, 0);
	struct lane_word *w = tx_edge(&t);
	for (unsigned l = 0; l < 2; l++)
		w[l].none = true;
	run_rx(&t, &s, false);
	expect(&s, 1, LANE_TLP, r, 28, false, true);
	ck_assert_ptr_nonnull(strstr(s.p[1].reason, "electrical idle inside the data stream"));
	ck_assert_uint_eq(s.n, 2);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* A start flag that cuts a block short in a stream. */
START_TEST(test_block_cut_short)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	start_link(&t, 2, 4);
	tx_idl(&t, 15); /* the first block full */
	ck_assert_uint_eq(t.n, 0);
	tx_idl(&t, 16);
	/* lane 1 of the block's third word: a start flag */
	t.steps[t.nsteps - 2][1].start = true;
	tx_resync(&t, r, n);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_uint_eq(s.p[1].lane, 1);
	ck_assert_ptr_nonnull(strstr(s.p[1].reason, "a start flag cut its block short"));
	expect(&s, 2, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 3);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* An OS block right after SDS (outside a stream: LANE_FRAMING). */
START_TEST(test_os_after_sds)
{
	struct tx t;
	struct sink s;

	tx_init(&t, 1, 2, 0);
	tx_training(&t);
	tx_os(&t, K_EIOS);
	run_rx(&t, &s, true);
	expect(&s, 0, LANE_FRAMING, NULL, 0, false, false);
	ck_assert_ptr_nonnull(strstr(s.p[0].reason, "EIOS block right after SDS"));
	ck_assert_uint_eq(s.n, 1);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* The capture ends inside a TLP. */
START_TEST(test_finish_inside_tlp)
{
	struct tx t;
	struct sink s;
	uint8_t r[TLP_MAX_RECORD_LEN];
	size_t n = make_tlp(r, 9, 100, 0x33);

	start_link(&t, 8, 4);
	tx_tlp_part(&t, r, n, 2 + 120); /* a block: 128 bytes, 4 IDL, the STP */
	run_rx(&t, &s, false);
	ck_assert_uint_eq(s.n, 1);
	free(s.p);
	run_rx(&t, &s, true);
	expect(&s, 1, LANE_TLP, r, 122, false, true);
	ck_assert_ptr_nonnull(strstr(s.p[1].reason, "capture ends inside the TLP"));
	ck_assert_uint_eq(s.n, 2);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* EDS + EIEOS + TS1: a retrain; then TS2, SDS and a data block: trained
 * again. */
START_TEST(test_retrain)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	start_link(&t, 4, 2);
	tx_tlp(&t, r, n);
	tx_eds(&t);
	size_t retrain = t.nsteps + 16 / 2; /* the TS1 after the EIEOS */
	tx_training(&t); /* EIEOS TS1 TS1 TS2 TS2 SDS */
	size_t again = t.nsteps;
	tx_tlp(&t, r, n);
	tx_idl(&t, 1);
	tx_eds(&t);
	tx_os(&t, K_EIOS);
	run_rx(&t, &s, true);
	expect(&s, 0, LANE_TRAINED, NULL, 0, false, false);
	expect(&s, 1, LANE_TLP, r, n, false, false);
	expect(&s, 2, LANE_RETRAIN, NULL, 0, false, false);
	ck_assert_uint_eq(s.p[2].time, retrain * 1000);
	expect(&s, 3, LANE_TRAINED, NULL, 0, false, false);
	ck_assert_uint_eq(s.p[3].time, again * 1000);
	expect(&s, 4, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 5);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* No SDS and no SKP: the Data Blocks of a capture that begins in L0 give
 * nothing (where the tokens are is not known) until an SKP OS. */
START_TEST(test_mid_stream_start)
{
	struct tx t;
	struct sink s;
	uint8_t r[64];
	size_t n = make_tlp(r, 9, 3, 0x33);

	tx_init(&t, 4, 4, 0);
	/* a receiver whose lane numbers differ: only the SKP loads its LFSR */
	for (unsigned l = 0; l < 4; l++)
		t.lfsr[l] ^= 0x5A5A5u;
	tx_tlp(&t, r, n);
	tx_idl(&t, 40);
	tx_eds(&t);
	tx_os(&t, K_SKP);
	tx_tlp(&t, r, n);
	tx_idl(&t, 1);
	tx_eds(&t);
	tx_os(&t, K_EIOS);
	run_rx(&t, &s, true);
	expect(&s, 0, LANE_TLP, r, n, false, false);
	ck_assert_uint_eq(s.n, 1);
	free(s.p);
	tx_free(&t);
}
END_TEST

/* The observer sees the ordered sets as sent: TS1/TS2 symbols 1-13
 * descrambled, 14-15 too when they are the identifier and as they are
 * when they are DC-balance symbols; the EIEOS as it is (the LFSR
 * re-seeded after it, so the TS2 after it descrambles). */
START_TEST(test_os_descrambled)
{
	struct tx t;
	struct sink s;

	tx_init(&t, 2, 4, 0);
	tx_os(&t, K_TS1);
	tx_os(&t, K_EIEOS);
	tx_os(&t, K_TS2);
	run_rx(&t, &s, true);
	ck_assert_uint_eq(s.n0, 48);
	for (unsigned b = 0; b < 3; b++) {
		for (unsigned i = 0; i < 16; i++) {
			uint8_t want = (uint8_t)i;

			if (b == 1)
				want = i & 1 ? 0xFF : 0x00;
			else if (i == 0)
				want = b ? 0x2D : 0x1E;
			else if (b == 0 && i == 14)
				want = 0xDF;
			else if (b == 0 && i == 15)
				want = 0x08;
			else if (i >= 10)
				want = b ? 0x45 : 0x4A;
			else if (i == 6)
				want = 0; /* lane 0 */
			ck_assert_msg(s.sym0[b * 16 + i] == want, "block %u symbol %u: %02X", b, i,
			              s.sym0[b * 16 + i]);
			ck_assert_uint_eq(s.flags0[b * 16 + i], LANE_SYM_OS);
		}
	}
	ck_assert_uint_eq(s.n, 0);
	free(s.p);
	tx_free(&t);
}
END_TEST

Suite *suite_rx128b(void)
{
	Suite *s = suite_create("rx128b");
	TCase *tc = tcase_create("parts");

	tcase_add_test(tc, test_lfsr_first_keys);
	tcase_add_test(tc, test_lfsr_table_bitwise);
	tcase_add_test(tc, test_frame_crc_poly);
	tcase_add_test(tc, test_eds_is_stp_length_1);
	tcase_add_test(tc, test_tlp_length_example);
	tcase_add_test(tc, test_stp_round_trip_flips);
	tcase_add_test(tc, test_state_same);
	suite_add_tcase(s, tc);
	tc = tcase_create("traffic");
	tcase_add_test(tc, test_traffic_x1);
	tcase_add_test(tc, test_traffic_x2_x4);
	tcase_add_test(tc, test_traffic_x8_x16);
	tcase_add_test(tc, test_traffic_stalls);
	tcase_add_test(tc, test_positions);
	tcase_add_test(tc, test_retrain);
	tcase_add_test(tc, test_mid_stream_start);
	tcase_add_test(tc, test_os_descrambled);
	suite_add_tcase(s, tc);
	tc = tcase_create("framing");
	tcase_add_test(tc, test_bad_fcrc);
	tcase_add_test(tc, test_bad_sync_header);
	tcase_add_test(tc, test_bad_sync_idle);
	tcase_add_test(tc, test_unknown_token);
	tcase_add_test(tc, test_data_after_eds);
	tcase_add_test(tc, test_os_without_eds);
	tcase_add_test(tc, test_lane_drops_out);
	tcase_add_test(tc, test_edb_and_idl_rules);
	tcase_add_test(tc, test_finish_inside_tlp);
	tcase_add_test(tc, test_more_framing_rules);
	tcase_add_test(tc, test_os_after_sds);
	tcase_add_test(tc, test_skp_lengths);
	tcase_add_test(tc, test_all_lanes_idle);
	tcase_add_test(tc, test_block_cut_short);
	suite_add_tcase(s, tc);
	return s;
}
