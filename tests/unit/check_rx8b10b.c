/* check_rx8b10b.c: unit tests of the 8b/10b lane decoder (rx8b10b.h and
 * its parts code8b10b, lfsr16, lane_os8b10b, frame8b10b): the code tables
 * against the K symbols of the digest both disparities, every code round
 * trip, disparity and code errors, the scrambler keys and the digest's
 * lane example, and packets rebuilt from lane streams built here with the
 * encoder (x1 to x32, scrambled and not, training, SKP OS, PAD, EDB) with
 * every error case giving exactly the expected report.
 * specification: phy-digest.md sections 1-3.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/record.h"
#include "read/lanes/code8b10b.h"
#include "read/lanes/lfsr16.h"
#include "read/lanes/rx8b10b.h"
#include "suites.h"
#include "wire/dllp.h"
#include "wire/tlp.h"
#include "xorshift.h"

/* ---- the code --------------------------------------------------------- */

/* phy-digest.md 1.2, Table 4-3: byte, 10-bit code (bit 0 = a) at RD- and RD+ */
static const struct {
	uint8_t byte;
	unsigned rdm, rdp;
} k_table[] = {
	{ 0xBC, 0x17C, 0x283 }, /* COM K28.5 */
	{ 0xFB, 0x05B, 0x3A4 }, /* STP K27.7 */
	{ 0x5C, 0x2BC, 0x143 }, /* SDP K28.2 */
	{ 0xFD, 0x05D, 0x3A2 }, /* END K29.7 */
	{ 0xFE, 0x05E, 0x3A1 }, /* EDB K30.7 */
	{ 0xF7, 0x057, 0x3A8 }, /* PAD K23.7 */
	{ 0x1C, 0x0BC, 0x343 }, /* SKP K28.0 */
	{ 0x3C, 0x27C, 0x183 }, /* FTS K28.1 */
	{ 0x7C, 0x33C, 0x0C3 }, /* IDL K28.3 */
	{ 0xFC, 0x07C, 0x383 }, /* EIE K28.7 */
};

START_TEST(test_k_symbols)
{
	for (size_t i = 0; i < sizeof k_table / sizeof k_table[0]; i++) {
		unsigned rd = 0;
		ck_assert_int_eq(code8b10b_encode(k_table[i].byte, true, &rd), (int)k_table[i].rdm);
		rd = 1;
		ck_assert_int_eq(code8b10b_encode(k_table[i].byte, true, &rd), (int)k_table[i].rdp);
		rd = 0;
		struct code8b10b c = code8b10b_decode(k_table[i].rdm, &rd);
		ck_assert(c.k && c.byte == k_table[i].byte && c.err == CODE8B10B_OK);
		rd = 1;
		c = code8b10b_decode(k_table[i].rdp, &rd);
		ck_assert(c.k && c.byte == k_table[i].byte && c.err == CODE8B10B_OK);
	}
	/* D10.2 = 4Ah is balanced: one code, 0101010101 (abcdei fghj) both RDs */
	unsigned rd = 0;
	ck_assert_int_eq(code8b10b_encode(0x4A, false, &rd), 0x2AA);
	ck_assert_uint_eq(rd, 0);
	/* K flag on a byte that is no PCIe K symbol */
	rd = 0;
	ck_assert_int_eq(code8b10b_encode(0x00, true, &rd), -1);
	ck_assert(!code8b10b_valid(0x00, true));
	ck_assert(code8b10b_valid(0x9C, true)); /* K28.4 is a code (reserved) */
}
END_TEST

static unsigned ones(unsigned v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* All 268 symbols at both disparities: encode, decode back, the RD after
 * (balanced codes keep it, 4 ones flip to RD-, 6 ones to RD+), and every
 * code group used at most once per column. */
START_TEST(test_roundtrip_all)
{
	unsigned count = 0;
	for (unsigned rd0 = 0; rd0 < 2; rd0++) {
		static uint8_t used[1024];
		memset(used, 0, sizeof used);
		for (unsigned v = 0; v < 512; v++) {
			bool k = v >= 256;
			unsigned rd = rd0;
			int code = code8b10b_encode((uint8_t)v, k, &rd);
			if (code < 0) {
				ck_assert(k);
				continue;
			}
			count++;
			ck_assert_int_lt(code, 1024);
			ck_assert(!used[code]);
			used[code] = 1;
			unsigned w = ones((unsigned)code);
			ck_assert(w >= 4 && w <= 6);
			if (w == 5)
				ck_assert_uint_eq(rd, rd0);
			else
				ck_assert_uint_eq(rd, w == 6 ? 1u : 0u);
			unsigned rdd = rd0;
			struct code8b10b c = code8b10b_decode((unsigned)code, &rdd);
			ck_assert_uint_eq(c.err, CODE8B10B_OK);
			ck_assert_uint_eq(c.byte, v & 255u);
			ck_assert(c.k == k);
			ck_assert_uint_eq(rdd, rd);
		}
	}
	ck_assert_uint_eq(count, 2 * 268);
}
END_TEST

/* A code of the other column is a disparity error (with its byte), a code
 * of neither column a code error; exactly 268 codes are good per column. */
START_TEST(test_decode_errors)
{
	unsigned rd = 0;
	struct code8b10b c = code8b10b_decode(0x283, &rd); /* COM in its RD+ form at RD- */
	ck_assert_uint_eq(c.err, CODE8B10B_DISPARITY);
	ck_assert(c.k && c.byte == 0xBC);
	rd = 1;
	c = code8b10b_decode(0x17C, &rd);
	ck_assert_uint_eq(c.err, CODE8B10B_DISPARITY);
	rd = 0;
	c = code8b10b_decode(0x000, &rd);
	ck_assert_uint_eq(c.err, CODE8B10B_CODE);
	rd = 0;
	c = code8b10b_decode(0x3FF, &rd);
	ck_assert_uint_eq(c.err, CODE8B10B_CODE);
	rd = 0;
	c = code8b10b_decode(0x400, &rd); /* more than 10 bits */
	ck_assert_uint_eq(c.err, CODE8B10B_CODE);
	for (unsigned r = 0; r < 2; r++) {
		unsigned good = 0, disp = 0;
		for (unsigned code = 0; code < 1024; code++) {
			unsigned rr = r;
			c = code8b10b_decode(code, &rr);
			good += c.err == CODE8B10B_OK;
			disp += c.err == CODE8B10B_DISPARITY;
		}
		ck_assert_uint_eq(good, 268);
		/* the unbalanced codes of the other column (balanced ones are in both) */
		ck_assert_uint_gt(disp, 0);
	}
}
END_TEST

/* ---- the scrambler ---------------------------------------------------- */

static uint8_t lfsr_bitwise(uint16_t *s)
{
	uint8_t k = 0;
	for (int i = 0; i < 8; i++) {
		unsigned b = *s >> 15 & 1u;
		k |= (uint8_t)(b << i);
		*s = (uint16_t)((unsigned)(*s << 1) ^ (b ? 0x39u : 0u));
	}
	return k;
}

START_TEST(test_scrambler_keys)
{
	static const uint8_t want[16] = { 0xFF, 0x17, 0xC0, 0x14, 0xB2, 0xE7, 0x02, 0x82,
		                          0x72, 0x6E, 0x28, 0xA6, 0xBE, 0x6D, 0xBF, 0x8D };
	uint16_t s = LFSR16_SEED;
	for (int i = 0; i < 16; i++)
		ck_assert_uint_eq(lfsr16_next(&s), want[i]);
	/* the byte step equals the bit-serial Fig 4-10 form from any state */
	uint32_t r = 12345;
	for (int t = 0; t < 2000; t++) {
		uint16_t a = (uint16_t)next_random(&r), b = a;
		ck_assert_uint_eq(lfsr16_next(&a), lfsr_bitwise(&b));
		ck_assert_uint_eq(a, b);
	}
}
END_TEST

/* ---- a transmitter of lane streams ------------------------------------ */

#define MAX_T 8192u

struct tx {
	unsigned lanes;
	bool scrambled;
	bool symbols; /* LANE_IN_SYMBOL instead of 10-bit codes */
	unsigned t; /* symbol times written */
	unsigned rd[LANE_MAX];
	uint16_t lfsr[LANE_MAX];
	uint8_t wire[LANE_MAX]; /* the last byte put on each lane (after scrambling) */
	unsigned q; /* stream symbols queued in this symbol time */
	uint16_t queue[LANE_MAX]; /* k << 8 | byte */
};

static struct lane_sym trace[MAX_T][LANE_MAX];
static uint8_t wire_bytes[MAX_T][LANE_MAX];

static void tx_init(struct tx *tx, unsigned lanes, bool scrambled, bool symbols)
{
	memset(tx, 0, sizeof *tx);
	tx->lanes = lanes;
	tx->scrambled = scrambled;
	tx->symbols = symbols;
	for (unsigned i = 0; i < LANE_MAX; i++) {
		tx->lfsr[i] = LFSR16_SEED;
		tx->rd[i] = i & 1u; /* the lanes start with either disparity */
	}
}

/* One symbol on one lane at the current symbol time; os: inside an
 * ordered set (D symbols advance the LFSR but are not XORed). */
static void tx_lane(struct tx *tx, unsigned lane, uint8_t byte, bool k, bool os)
{
	uint8_t v = byte;
	if (k && byte == K_COM)
		tx->lfsr[lane] = LFSR16_SEED;
	else if (!(k && byte == K_SKP)) {
		uint8_t key = lfsr16_next(&tx->lfsr[lane]);
		if (!k && !os && tx->scrambled)
			v ^= key;
	}
	ck_assert_uint_lt(tx->t, MAX_T);
	struct lane_sym *s = &trace[tx->t][lane];
	wire_bytes[tx->t][lane] = v;
	if (tx->symbols) {
		s->input = LANE_IN_SYMBOL;
		s->value = (uint16_t)((k ? 0x100u : 0u) | v);
	} else {
		int code = code8b10b_encode(v, k, &tx->rd[lane]);
		ck_assert_int_ge(code, 0);
		s->input = LANE_IN_CODE10;
		s->value = (uint16_t)code;
	}
}

/* A stream symbol: symbol n of the stream on lane n mod N. */
static void put(struct tx *tx, uint8_t byte, bool k)
{
	tx_lane(tx, tx->q, byte, k, false);
	if (++tx->q == tx->lanes) {
		tx->q = 0;
		tx->t++;
	}
}

static void idle(struct tx *tx, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		put(tx, 0x00, false);
}

/* Idle, or PAD on x8 and wider after an END (digest 3.2), to the end of the
 * symbol time. */
static void fill(struct tx *tx)
{
	while (tx->q)
		put(tx, tx->lanes >= 8 ? K_PAD : 0x00, tx->lanes >= 8);
}

/* An ordered set on every lane at once (the stream must be at a symbol time's
 * start). */
static void os(struct tx *tx, const uint16_t *syms, unsigned n)
{
	ck_assert_uint_eq(tx->q, 0);
	for (unsigned j = 0; j < n; j++) {
		for (unsigned i = 0; i < tx->lanes; i++)
			tx_lane(tx, i, (uint8_t)syms[j], syms[j] >> 8 != 0, true);
		tx->t++;
	}
}

#define K(x) (0x100u | (x))

static void skp_os(struct tx *tx, unsigned skps)
{
	uint16_t s[6] = { K(K_COM), K(K_SKP), K(K_SKP), K(K_SKP), K(K_SKP), K(K_SKP) };
	os(tx, s, 1 + skps);
}

static void ts(struct tx *tx, bool ts2)
{
	uint16_t s[16] = { K(K_COM), K(K_PAD), K(K_PAD), 0x20, 0x02, 0x00 };
	for (int i = 6; i < 16; i++)
		s[i] = ts2 ? 0x45 : 0x4A;
	os(tx, s, 16);
}

static void training(struct tx *tx)
{
	for (int i = 0; i < 4; i++)
		ts(tx, false);
	for (int i = 0; i < 4; i++)
		ts(tx, true);
}

static void dllp(struct tx *tx, const uint8_t b[6])
{
	put(tx, K_SDP, true);
	for (int i = 0; i < 6; i++)
		put(tx, b[i], false);
	put(tx, K_END, true);
}

/* STP, n bytes, END (or EDB) */
static void tlp(struct tx *tx, const uint8_t *b, size_t n, bool edb)
{
	put(tx, K_STP, true);
	for (size_t i = 0; i < n; i++)
		put(tx, b[i], false);
	put(tx, edb ? K_EDB : K_END, true);
}

/* ---- the receiver side: a log of what came out ------------------------ */

struct got {
	enum lane_packet_kind kind;
	uint64_t t;
	unsigned lane;
	bool phy_error, nullified;
	size_t len;
	uint8_t bytes[64];
	char reason[160];
};

static struct got got[256];
static unsigned ngot;

static void on_packet(void *ctx, const struct lane_packet *p)
{
	(void)ctx;
	ck_assert_uint_lt(ngot, 256);
	struct got *g = &got[ngot++];
	memset(g, 0, sizeof *g);
	g->kind = p->kind;
	g->t = p->pos.time_ps;
	g->lane = p->lane;
	g->phy_error = p->phy_error;
	g->nullified = p->nullified;
	g->len = p->len;
	if (p->len) /* link facts and LANE_FRAMING have no bytes */
		memcpy(g->bytes, p->bytes, p->len < 64 ? p->len : 64);
	if (p->reason)
		snprintf(g->reason, sizeof g->reason, "%s", p->reason);
	/* a reason exactly when something is wrong */
	ck_assert((p->reason != NULL) == (p->phy_error || p->kind == LANE_FRAMING));
}

static unsigned nsym;
static void on_symbol(void *ctx, unsigned lane, const struct lane_pos *pos, uint8_t raw,
                      uint8_t descrambled, unsigned flags)
{
	(void)ctx;
	(void)lane;
	(void)pos;
	(void)raw;
	(void)descrambled;
	(void)flags;
	nsym++;
}

/* Feeds the trace to a new receiver; returns its scrambling verdict. */
static enum lane_scrambling run(const struct tx *tx, enum lane_scrambling scr)
{
	struct rx8b10b_config cfg = {
		.lanes = tx->lanes,
		.scrambling = scr,
		.packet = on_packet,
		.symbol = on_symbol,
	};
	struct rx8b10b *rx = rx8b10b_new(&cfg);
	ck_assert_ptr_nonnull(rx);
	ngot = 0;
	nsym = 0;
	for (unsigned t = 0; t < tx->t; t++) {
		struct lane_pos pos = { .time_ps = t, .line = t + 1, .byte_offset = t * 10u };
		rx8b10b_step(rx, &pos, trace[t]);
	}
	rx8b10b_finish(rx);
	ck_assert_uint_eq(nsym, tx->t * tx->lanes);
	enum lane_scrambling s = rx8b10b_scrambling(rx);
	rx8b10b_free(rx);
	return s;
}

/* rx8b10b_state_same() against a copy: a repeat of a symbol that keeps
 * the lane where it is (unlocked, inside an SKP ordered set) leaves the
 * state as it was, at whatever time; one that locks, or advances the
 * scrambler, does not. */
START_TEST(test_state_same)
{
	struct rx8b10b_config cfg = {
		.lanes = 1, .scrambling = LANE_SCRAMBLE_NO, .packet = on_packet, .symbol = on_symbol
	};
	struct rx8b10b *rx = rx8b10b_new(&cfg);
	ck_assert_ptr_nonnull(rx);
	void *copy = malloc(rx8b10b_state_size(rx));
	ck_assert_ptr_nonnull(copy);
	ngot = 0;
	uint64_t t = 0;
	struct lane_pos pos = { 0, 1, 0 };
	const struct lane_sym none = { 0, LANE_IN_NONE }, zero = { 0x000, LANE_IN_SYMBOL },
	                      com = { 0x1BC, LANE_IN_SYMBOL }, skp = { 0x11C, LANE_IN_SYMBOL };
#define STEP(sym) (pos.time_ps = ++t, rx8b10b_step(rx, &pos, &(sym)))
	STEP(zero); /* not locked: no symbol */
	rx8b10b_state_save(rx, copy);
	STEP(zero);
	ck_assert(rx8b10b_state_same(rx, copy));
	STEP(none);
	rx8b10b_state_save(rx, copy);
	STEP(none);
	ck_assert(rx8b10b_state_same(rx, copy));
	STEP(com); /* locks, an ordered set begins */
	ck_assert(!rx8b10b_state_same(rx, copy));
	STEP(skp);
	rx8b10b_state_save(rx, copy);
	STEP(skp); /* SKP does not advance the LFSR */
	ck_assert(rx8b10b_state_same(rx, copy));
	STEP(zero); /* the stream: the LFSR advances at every symbol */
	rx8b10b_state_save(rx, copy);
	STEP(zero);
	ck_assert(!rx8b10b_state_same(rx, copy));
#undef STEP
	ck_assert_uint_eq(ngot, 0);
	free(copy);
	rx8b10b_free(rx);
}
END_TEST

static void expect(unsigned i, enum lane_packet_kind kind, bool phy_error, const char *reason)
{
	ck_assert_msg(i < ngot, "report %u missing (%u reports)", i, ngot);
	ck_assert_msg(got[i].kind == kind, "report %u: kind %d, want %d (%s)", i, got[i].kind, kind,
	              got[i].reason);
	ck_assert_msg(got[i].phy_error == phy_error, "report %u: phy_error %d (%s)", i,
	              got[i].phy_error, got[i].reason);
	if (reason)
		ck_assert_msg(strstr(got[i].reason, reason),
		              "report %u: reason \"%s\", want \"%s\"", i, got[i].reason, reason);
}

static void expect_bytes(unsigned i, const uint8_t *b, size_t n)
{
	ck_assert_uint_eq(got[i].len, n);
	ck_assert_mem_eq(got[i].bytes, b, n < 64 ? n : 64);
}

static const uint8_t initfc[6] = { 0x40, 0x08, 0x03, 0xF0, 0x12, 0x34 };
static uint8_t tlp20[20], tlp24[24];

static void fill_tlps(void)
{
	for (int i = 0; i < 20; i++)
		tlp20[i] = (uint8_t)(0x10 + i);
	for (int i = 0; i < 24; i++)
		tlp24[i] = (uint8_t)(0xA0 + i);
	tlp20[0] = 0x00;
	tlp20[1] = 0x05; /* sequence 5 */
}

/* ---- the digest's lane example ---------------------------------------- */

START_TEST(test_digest_example)
{
	struct tx tx;
	tx_init(&tx, 1, true, false);
	skp_os(&tx, 3);
	dllp(&tx, initfc);
	/* COM SKP SKP SKP SDP: the DLLP's first bytes on the wire */
	static const uint8_t want[4] = { 0x57, 0xC8, 0x17, 0x42 };
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(wire_bytes[5 + i][0], want[i]);
	idle(&tx, 16);
	ck_assert_int_eq(run(&tx, LANE_SCRAMBLE_YES), LANE_SCRAMBLE_YES);
	ck_assert_uint_eq(ngot, 1);
	expect(0, LANE_DLLP, false, NULL);
	expect_bytes(0, initfc, 6);
	ck_assert_uint_eq(got[0].t, 4);
}
END_TEST

/* ---- packets from every width, scrambled and not ---------------------- */

static const unsigned widths[] = { 1, 2, 4, 8, 12, 16, 32 };
#define NWIDTHS (sizeof widths / sizeof widths[0])

/* _i: width index, scrambled, symbol form */
START_TEST(test_packets)
{
	fill_tlps();
	unsigned w = widths[_i % NWIDTHS];
	bool scr = (_i / NWIDTHS) & 1u, sym = (_i / NWIDTHS) & 2u;
	struct tx tx;
	tx_init(&tx, w, scr, sym);
	training(&tx);
	unsigned t_trained = tx.t;
	idle(&tx, 16 * w);
	unsigned t_dllp = tx.t;
	dllp(&tx, initfc);
	/* on x8 and wider the TLP starts in lane 8 mod N (a 4k lane) right
	 * after the DLLP, with PAD after its END */
	unsigned t_tlp = tx.t, lane_tlp = tx.q;
	tlp(&tx, tlp20, 18, false);
	fill(&tx);
	skp_os(&tx, 1 + _i % 5);
	idle(&tx, w);
	unsigned t_edb = tx.t;
	tlp(&tx, tlp24, 22, true);
	fill(&tx);
	idle(&tx, 4 * w);
	skp_os(&tx, 3);
	idle(&tx, 4 * w);
	enum lane_scrambling verdict = run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_int_eq(verdict, scr ? LANE_SCRAMBLE_YES : LANE_SCRAMBLE_NO);
	ck_assert_msg(ngot == 4, "x%u: %u reports, first: %s", w, ngot, got[ngot > 1].reason);
	expect(0, LANE_TRAINED, false, NULL);
	ck_assert_uint_eq(got[0].t, t_trained);
	expect(1, LANE_DLLP, false, NULL);
	expect_bytes(1, initfc, 6);
	ck_assert_uint_eq(got[1].t, t_dllp);
	ck_assert_uint_eq(got[1].lane, 0);
	expect(2, LANE_TLP, false, NULL);
	expect_bytes(2, tlp20, 18);
	ck_assert_uint_eq(got[2].t, t_tlp);
	ck_assert_uint_eq(got[2].lane, lane_tlp);
	ck_assert(!got[2].nullified);
	expect(3, LANE_TLP, false, NULL);
	expect_bytes(3, tlp24, 22);
	ck_assert(got[3].nullified);
	ck_assert_uint_eq(got[3].t, t_edb);
	/* forced the right way, the same packets */
	run(&tx, scr ? LANE_SCRAMBLE_YES : LANE_SCRAMBLE_NO);
	ck_assert_uint_eq(ngot, 4);
	expect_bytes(2, tlp20, 18);
}
END_TEST

/* x8: the second TLP starts in lane 4 right after an END in lane 3 */
START_TEST(test_x8_lane4)
{
	fill_tlps();
	struct tx tx;
	tx_init(&tx, 8, true, false);
	training(&tx);
	idle(&tx, 64);
	tlp(&tx, tlp20, 18, false); /* 20 symbols: END in lane 3 */
	ck_assert_uint_eq(tx.q, 4);
	tlp(&tx, tlp24, 22, false);
	fill(&tx);
	idle(&tx, 16);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 3);
	expect(1, LANE_TLP, false, NULL);
	expect_bytes(1, tlp20, 18);
	expect(2, LANE_TLP, false, NULL);
	ck_assert_uint_eq(got[2].lane, 4);
	ck_assert_uint_eq(got[2].t, got[1].t + 2);
	expect_bytes(2, tlp24, 22);
}
END_TEST

/* TS1/TS2 interrupting the data stream: LANE_RETRAIN, then LANE_TRAINED */
START_TEST(test_retrain)
{
	struct tx tx;
	tx_init(&tx, 4, true, false);
	idle(&tx, 8); /* not locked yet: no COM */
	skp_os(&tx, 3);
	idle(&tx, 40); /* a data stream the capture began in */
	unsigned t_ts = tx.t;
	training(&tx);
	unsigned t_idle = tx.t;
	idle(&tx, 40);
	dllp(&tx, initfc);
	idle(&tx, 8);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 3);
	expect(0, LANE_RETRAIN, false, NULL);
	ck_assert_uint_eq(got[0].t, t_ts + 1); /* the symbol that makes it a TS */
	expect(1, LANE_TRAINED, false, NULL);
	ck_assert_uint_eq(got[1].t, t_idle);
	expect(2, LANE_DLLP, false, NULL);
	expect_bytes(2, initfc, 6);
}
END_TEST

/* EIOS: electrical idle (no symbols, x/z) until the next ordered set; FTS
 * and EIEOS removed */
START_TEST(test_eios_fts_eieos)
{
	struct tx tx;
	tx_init(&tx, 2, true, false);
	training(&tx);
	idle(&tx, 32);
	uint16_t eios[4] = { K(K_COM), K(K_IDL), K(K_IDL), K(K_IDL) };
	os(&tx, eios, 4);
	for (int i = 0; i < 20; i++, tx.t++)
		for (unsigned l = 0; l < 2; l++)
			trace[tx.t][l] = (struct lane_sym){ .input = LANE_IN_NONE };
	/* a new starting disparity after electrical idle */
	tx.rd[0] ^= 1u;
	uint16_t fts[4] = { K(K_COM), K(K_FTS), K(K_FTS), K(K_FTS) };
	for (int i = 0; i < 4; i++)
		os(&tx, fts, 4);
	uint16_t eieos[16] = { K(K_COM) };
	for (int i = 1; i < 15; i++)
		eieos[i] = K(K_EIE);
	eieos[15] = 0x4A;
	os(&tx, eieos, 16);
	skp_os(&tx, 3);
	idle(&tx, 16);
	dllp(&tx, initfc);
	idle(&tx, 16);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 2);
	expect(0, LANE_TRAINED, false, NULL);
	expect(1, LANE_DLLP, false, NULL);
	expect_bytes(1, initfc, 6);
}
END_TEST

/* A capture that begins in the data stream with a packet right after an
 * SKP OS (no idle to go by): the packet's CRC settles the scrambling. */
START_TEST(test_scrambling_from_crc)
{
	for (unsigned v = 0; v < 4; v++) {
		bool scr = v & 1u, is_tlp = v & 2u;
		struct tx tx;
		tx_init(&tx, 4, scr, false);
		skp_os(&tx, 3);
		uint8_t b[22];
		size_t n;
		if (is_tlp) {
			n = 22;
			for (size_t i = 0; i < 18; i++)
				b[i] = (uint8_t)(i * 7u);
			b[0] = 0x00;
			tlp_lcrc_bytes(b, 18, b + 18);
			tlp(&tx, b, n, false);
		} else {
			n = 6;
			memcpy(b, initfc, 4);
			dllp_crc16_bytes(b, b + 4);
			dllp(&tx, b);
		}
		skp_os(&tx, 3);
		if (is_tlp)
			tlp(&tx, b, n, false);
		else
			dllp(&tx, b);
		skp_os(&tx, 3);
		ck_assert_int_eq(run(&tx, LANE_SCRAMBLE_AUTO),
		                 scr ? LANE_SCRAMBLE_YES : LANE_SCRAMBLE_NO);
		ck_assert_uint_eq(ngot, 2);
		expect(0, is_tlp ? LANE_TLP : LANE_DLLP, false, NULL);
		expect_bytes(0, b, n);
		expect_bytes(1, b, n);
	}
}
END_TEST

/* A link that trained x4 on 8 mapped lanes (lanes 4-7 without a symbol
 * throughout): read as x4, nothing reported about lanes 4-7 */
START_TEST(test_narrower_link)
{
	fill_tlps();
	struct tx tx;
	tx_init(&tx, 4, true, false);
	training(&tx);
	idle(&tx, 32);
	dllp(&tx, initfc);
	tlp(&tx, tlp20, 18, false);
	idle(&tx, 16);
	for (unsigned t = 0; t < tx.t; t++)
		for (unsigned l = 4; l < 8; l++)
			trace[t][l] = (struct lane_sym){ .input = LANE_IN_NONE };
	tx.lanes = 8;
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 3);
	expect(0, LANE_TRAINED, false, NULL);
	expect(1, LANE_DLLP, false, NULL);
	expect_bytes(1, initfc, 6);
	expect(2, LANE_TLP, false, NULL);
	expect_bytes(2, tlp20, 18);
}
END_TEST

/* ---- errors ----------------------------------------------------------- */

/* The stream up to a clean idle on a trained link (x w). */
static void start_stream(struct tx *tx, unsigned w, bool scr)
{
	fill_tlps();
	tx_init(tx, w, scr, false);
	training(tx);
	idle(tx, 16 * w);
}

/* Replaces the good code at (t, lane) with one that decodes with the
 * error want (CODE8B10B_CODE: no code of either column; DISPARITY: a code
 * of the other column); same_rd: one that leaves the running disparity
 * where the good one did, so that only this symbol is bad. */
static void break_symbol(unsigned t, unsigned lane, int want, bool same_rd)
{
	unsigned good = trace[t][lane].value;
	for (unsigned rd = 0; rd < 2; rd++) {
		unsigned r = rd;
		struct code8b10b c = code8b10b_decode(good, &r);
		if (c.err != CODE8B10B_OK)
			continue;
		for (unsigned code = 0; code < 1024; code++) {
			unsigned r2 = rd;
			struct code8b10b b = code8b10b_decode(code, &r2);
			if ((int)b.err == want && (!same_rd || r2 == r)) {
				trace[t][lane].value = (uint16_t)code;
				return;
			}
		}
	}
	ck_abort_msg("no such code found");
}

static void break_code(unsigned t, unsigned lane, const struct tx *tx)
{
	(void)tx;
	break_symbol(t, lane, CODE8B10B_CODE, true);
}

/* TS1 while a packet is open: the packet (it began first, and lost its END)
 * comes out before LANE_RETRAIN; an error in an ordered set outside a
 * packet is one LANE_FRAMING */
START_TEST(test_ts_cuts_packet)
{
	struct tx tx;
	start_stream(&tx, 2, true);
	unsigned t0 = tx.t;
	put(&tx, K_STP, true);
	for (int i = 0; i < 9; i++)
		put(&tx, tlp20[i], false);
	unsigned t_ts = tx.t;
	training(&tx);
	idle(&tx, 8);
	break_code(t_ts + 16 + 7, 1, &tx); /* a symbol of the second TS1, lane 1 */
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 5);
	expect(1, LANE_TLP, true, "an ordered set before the END");
	ck_assert_uint_eq(got[1].t, t0);
	expect(2, LANE_RETRAIN, false, NULL);
	expect(3, LANE_FRAMING, false, "lane 1: invalid 8b/10b code");
	ck_assert_uint_eq(got[3].t, t_ts + 16 + 7);
	expect(4, LANE_TRAINED, false, NULL);
}
END_TEST

static unsigned count_kind(enum lane_packet_kind kind)
{
	unsigned n = 0;
	for (unsigned i = 0; i < ngot; i++)
		n += got[i].kind == kind;
	return n;
}

/* A disparity error in the first SKP of an SKP ordered set (x1): an error
 * in an ordered set, never the start of a training (no LANE_RETRAIN), and
 * the DLLP after it intact. */
START_TEST(test_damaged_skp_is_no_training)
{
	struct tx tx;
	start_stream(&tx, 1, true);
	unsigned t_skp = tx.t;
	skp_os(&tx, 3);
	idle(&tx, 16);
	dllp(&tx, initfc);
	idle(&tx, 8);
	break_symbol(t_skp + 1, 0, CODE8B10B_DISPARITY, false);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(count_kind(LANE_RETRAIN), 0);
	ck_assert_uint_eq(count_kind(LANE_TRAINED), 1);
	ck_assert_uint_ge(count_kind(LANE_FRAMING), 1);
	expect(ngot - 1, LANE_DLLP, false, NULL);
	expect_bytes(ngot - 1, initfc, 6);
}
END_TEST

/* A COM on one lane only inside the data stream (a bit error can make
 * one, x4): no training (ordered sets go on every lane at once), and a
 * packet before the next COM on every lane is damaged: that lane's
 * descrambler was reset alone. */
START_TEST(test_com_on_one_lane)
{
	struct tx tx;
	fill_tlps();
	tx_init(&tx, 4, true, true);
	training(&tx);
	idle(&tx, 64);
	unsigned t_com = tx.t;
	idle(&tx, 4 * 20);
	dllp(&tx, initfc);
	idle(&tx, 8);
	trace[t_com][0].value = 0x100u | K_COM;
	run(&tx, LANE_SCRAMBLE_YES);
	ck_assert_uint_eq(count_kind(LANE_RETRAIN), 0);
	ck_assert_uint_eq(count_kind(LANE_TRAINED), 1);
	expect(ngot - 1, LANE_DLLP, true, "not on every lane");
}
END_TEST

/* The COM of one TS2 damaged on one lane (x4): training goes on; the
 * data stream begins once, at the idle after the last TS2 (no LANE_RETRAIN,
 * one LANE_TRAINED), and the DLLP after it is intact. */
START_TEST(test_damaged_training_com)
{
	struct tx tx;
	fill_tlps();
	tx_init(&tx, 4, true, true);
	training(&tx);
	unsigned t_idle = tx.t;
	idle(&tx, 64);
	dllp(&tx, initfc);
	idle(&tx, 8);
	trace[4 * 16][0].value = 0x3FFu; /* the first TS2's COM: no symbol of the code */
	run(&tx, LANE_SCRAMBLE_YES);
	ck_assert_uint_eq(count_kind(LANE_RETRAIN), 0);
	ck_assert_uint_eq(count_kind(LANE_TRAINED), 1);
	for (unsigned i = 0; i < ngot; i++)
		if (got[i].kind == LANE_TRAINED)
			ck_assert_uint_eq(got[i].t, t_idle);
	expect(ngot - 1, LANE_DLLP, false, NULL);
	expect_bytes(ngot - 1, initfc, 6);
}
END_TEST

/* Any single bit flipped in one symbol of logical idle: at most one report,
 * on that lane, at that symbol or where the disparity shows it (a flip
 * may also give another good code: a byte of idle, ignored), and the
 * packet after it intact. */
START_TEST(test_bit_flips_in_idle)
{
	for (unsigned bit = 0; bit < 10; bit++)
		for (unsigned pos = 0; pos < 12; pos++) {
			struct tx tx;
			start_stream(&tx, 2, pos & 1u);
			unsigned t = tx.t + pos / 2;
			unsigned lane = pos & 1u;
			idle(&tx, 40);
			dllp(&tx, initfc);
			idle(&tx, 8);
			trace[t][lane].value ^= (uint16_t)(1u << bit);
			run(&tx, LANE_SCRAMBLE_AUTO);
			ck_assert_msg(ngot == 2 || ngot == 3, "bit %u pos %u: %u reports", bit, pos,
			              ngot);
			if (ngot == 3) {
				expect(1, LANE_FRAMING, false, NULL);
				/* at that symbol, or (a flip that made another good code
				 * of the other disparity) at the next unbalanced one */
				ck_assert_uint_ge(got[1].t, t);
				ck_assert_uint_le(got[1].t, t + 8);
				ck_assert_uint_eq(got[1].lane, lane);
			}
			expect(ngot - 1, LANE_DLLP, false, NULL);
			expect_bytes(ngot - 1, initfc, 6);
		}
}
END_TEST

/* A symbol sent in the wrong column in logical idle (a disparity error) at
 * each of 60 places of a scrambled x1 idle: exactly one report, there,
 * though the receiver's disparity is then wrong until the next unbalanced
 * code proves it again (the code of the other column it may meet first is
 * the same error, not a second one). */
START_TEST(test_disparity_sweep_in_idle)
{
	unsigned swapped = 0;
	for (unsigned pos = 0; pos < 60; pos++) {
		struct tx tx;
		start_stream(&tx, 1, true);
		unsigned t = tx.t + pos;
		idle(&tx, 80);
		dllp(&tx, initfc);
		idle(&tx, 8);
		unsigned rd = 0, rdp = 1;
		int m = code8b10b_encode(wire_bytes[t][0], false, &rd);
		int p = code8b10b_encode(wire_bytes[t][0], false, &rdp);
		if (m == p)
			continue; /* the same code in both columns */
		trace[t][0].value = (uint16_t)(trace[t][0].value == m ? p : m);
		swapped++;
		run(&tx, LANE_SCRAMBLE_AUTO);
		ck_assert_msg(ngot == 3, "pos %u: %u reports, the third: %s", pos, ngot,
		              ngot > 2 ? got[2].reason : "");
		expect(1, LANE_FRAMING, false, "lane 0: disparity error in");
		ck_assert_uint_eq(got[1].t, t);
		expect(2, LANE_DLLP, false, NULL);
		expect_bytes(2, initfc, 6);
	}
	ck_assert_uint_gt(swapped, 20);
}
END_TEST

START_TEST(test_code_error_in_tlp)
{
	struct tx tx;
	start_stream(&tx, 4, true);
	unsigned t0 = tx.t;
	tlp(&tx, tlp20, 18, false);
	fill(&tx);
	idle(&tx, 16);
	dllp(&tx, initfc);
	idle(&tx, 16);
	break_code(t0 + 2, 1, &tx);
	run(&tx, LANE_SCRAMBLE_YES);
	ck_assert_uint_eq(ngot, 3);
	expect(1, LANE_TLP, true, "lane 1: invalid 8b/10b code");
	ck_assert_uint_eq(got[1].len, 18);
	ck_assert_mem_eq(got[1].bytes, tlp20, 8); /* the others as received */
	ck_assert_mem_eq(got[1].bytes + 9, tlp20 + 9, 9);
	expect(2, LANE_DLLP, false, NULL);
}
END_TEST

START_TEST(test_disparity_error_in_dllp)
{
	struct tx tx;
	start_stream(&tx, 1, false);
	unsigned t0 = tx.t;
	dllp(&tx, initfc);
	idle(&tx, 16);
	/* 40h = D0.2: 100111 0101 at RD- is unbalanced; send the other column's */
	unsigned t = t0 + 1;
	unsigned rd = 0, rdp = 1;
	int m = code8b10b_encode(0x40, false, &rd), p = code8b10b_encode(0x40, false, &rdp);
	ck_assert_int_ne(m, p);
	ck_assert(trace[t][0].value == m || trace[t][0].value == p);
	trace[t][0].value = (uint16_t)(trace[t][0].value == m ? p : m);
	run(&tx, LANE_SCRAMBLE_NO);
	/* one bad code: the DLLP, and nothing after it (the next unbalanced
	 * code, in the column the receiver does not expect, is the same error) */
	ck_assert_uint_eq(ngot, 2);
	expect(1, LANE_DLLP, true, "lane 0: disparity error in D0.2");
	expect_bytes(1, initfc, 6);
}
END_TEST

START_TEST(test_short_tlp_and_dllp_length)
{
	struct tx tx;
	start_stream(&tx, 1, true);
	tlp(&tx, tlp20, 17, false);
	idle(&tx, 4);
	put(&tx, K_SDP, true);
	for (int i = 0; i < 5; i++)
		put(&tx, initfc[i], false);
	put(&tx, K_END, true);
	idle(&tx, 4);
	put(&tx, K_SDP, true);
	for (int i = 0; i < 7; i++)
		put(&tx, tlp20[i], false);
	put(&tx, K_END, true);
	idle(&tx, 4);
	tlp(&tx, tlp20, 18, false); /* the shortest good one */
	idle(&tx, 4);
	put(&tx, K_SDP, true);
	for (int i = 0; i < 6; i++)
		put(&tx, initfc[i], false);
	put(&tx, K_EDB, true); /* a DLLP is never nullified */
	idle(&tx, 4);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 6);
	expect(5, LANE_DLLP, true, "DLLP ended by EDB");
	ck_assert(!got[5].nullified);
	expect_bytes(5, initfc, 6);
	expect(1, LANE_TLP, true, "fewer than 18");
	ck_assert_uint_eq(got[1].len, 17);
	expect(2, LANE_DLLP, true, "DLLP of 5 bytes");
	expect(3, LANE_DLLP, true, "DLLP of 7 bytes");
	expect(4, LANE_TLP, false, NULL);
}
END_TEST

START_TEST(test_missing_end)
{
	struct tx tx;
	start_stream(&tx, 4, true);
	/* STP ... no END, then STP: 1 + 19 = 20 symbols, a whole x4 row */
	put(&tx, K_STP, true);
	for (int i = 0; i < 19; i++)
		put(&tx, tlp20[i], false);
	unsigned t2 = tx.t;
	tlp(&tx, tlp20, 18, false);
	/* a DLLP cut by an ordered set */
	put(&tx, K_SDP, true);
	for (int i = 0; i < 3; i++)
		put(&tx, initfc[i], false);
	skp_os(&tx, 3);
	idle(&tx, 16);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 4);
	expect(1, LANE_TLP, true, "STP before the END");
	ck_assert_uint_eq(got[1].len, 19);
	expect(2, LANE_TLP, false, NULL);
	ck_assert_uint_eq(got[2].t, t2);
	expect(3, LANE_DLLP, true, "ordered set before the END");
	expect_bytes(3, initfc, 3);
}
END_TEST

/* A lane that drops out inside a packet: the packet with phy_error, and
 * no second report of the same dropout in idle; back at the next OS. */
START_TEST(test_lane_dropout)
{
	struct tx tx;
	start_stream(&tx, 4, true);
	unsigned t0 = tx.t;
	tlp(&tx, tlp20, 18, false);
	idle(&tx, 32);
	unsigned t_end = tx.t;
	skp_os(&tx, 3);
	dllp(&tx, initfc);
	idle(&tx, 8);
	for (unsigned t = t0 + 2; t < t_end; t++)
		trace[t][2] = (struct lane_sym){ .input = LANE_IN_NONE };
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 3);
	expect(1, LANE_TLP, true, "lane 2: no symbol inside the packet");
	ck_assert_uint_eq(got[1].len, 18 - 3);
	expect(2, LANE_DLLP, false, NULL);
}
END_TEST

/* A lane that drops out in idle: one LANE_FRAMING */
START_TEST(test_lane_dropout_idle)
{
	struct tx tx;
	start_stream(&tx, 8, false);
	unsigned t0 = tx.t;
	idle(&tx, 64);
	skp_os(&tx, 3);
	dllp(&tx, initfc);
	fill(&tx);
	idle(&tx, 8);
	for (unsigned t = t0; t < t0 + 5; t++)
		trace[t][6] = (struct lane_sym){ .input = LANE_IN_NONE };
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 3);
	expect(1, LANE_FRAMING, false, "lane 6: no symbol while the other lanes");
	ck_assert_uint_eq(got[1].t, t0);
	ck_assert_uint_eq(got[1].lane, 6);
	expect(2, LANE_DLLP, false, NULL);
}
END_TEST

START_TEST(test_framing_outside_packets)
{
	struct tx tx;
	start_stream(&tx, 4, true);
	unsigned t_end = tx.t;
	put(&tx, K_END, true); /* END with no packet */
	idle(&tx, 7);
	unsigned t_fts = tx.t;
	idle(&tx, 1);
	put(&tx, K_FTS, true); /* a K symbol in idle */
	idle(&tx, 6);
	unsigned t_skp = tx.t;
	put(&tx, K_SKP, true); /* a stray SKP: reported, and it does not advance the LFSR */
	idle(&tx, 3);
	unsigned t_stp = tx.t;
	idle(&tx, 2);
	tlp(&tx, tlp20, 18, false); /* STP in lane 2 of x4: skipped with its END */
	idle(&tx, 2);
	unsigned t_code = tx.t;
	idle(&tx, 8);
	dllp(&tx, initfc);
	idle(&tx, 8);
	break_code(t_code, 3, &tx);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 7);
	expect(1, LANE_FRAMING, false, "lane 0: END with no packet open");
	ck_assert_uint_eq(got[1].t, t_end);
	expect(2, LANE_FRAMING, false, "lane 1: FTS where a packet start");
	ck_assert_uint_eq(got[2].t, t_fts);
	expect(3, LANE_FRAMING, false, "lane 0: SKP where a packet start");
	ck_assert_uint_eq(got[3].t, t_skp);
	expect(4, LANE_FRAMING, false, "lane 2: STP not in lane 0");
	ck_assert_uint_eq(got[4].t, t_stp);
	expect(5, LANE_FRAMING, false, "lane 3: invalid 8b/10b code");
	ck_assert_uint_eq(got[5].t, t_code);
	expect(6, LANE_DLLP, false, NULL);
	expect_bytes(6, initfc, 6);
}
END_TEST

/* x8: STP in lane 4 after idle in lanes 0-3; x16: two SDPs in one symbol
 * time (the second is the error, the first DLLP stands) */
START_TEST(test_start_rules_wide)
{
	struct tx tx;
	start_stream(&tx, 8, true);
	idle(&tx, 4);
	tlp(&tx, tlp20, 18, false);
	fill(&tx);
	idle(&tx, 16);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 2);
	expect(1, LANE_FRAMING, false, "lane 4: STP after logical idle not in lane 0");

	start_stream(&tx, 16, true);
	dllp(&tx, initfc);
	dllp(&tx, initfc);
	idle(&tx, 32);
	dllp(&tx, initfc);
	fill(&tx);
	idle(&tx, 16);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 4);
	expect(1, LANE_DLLP, false, NULL);
	expect(2, LANE_FRAMING, false, "lane 8: a second SDP in one symbol time");
	expect(3, LANE_DLLP, false, NULL);
}
END_TEST

/* A packet longer than the largest TLP record is cut and reported once. */
START_TEST(test_too_long)
{
	struct tx tx;
	start_stream(&tx, 1, false);
	put(&tx, K_STP, true);
	for (unsigned i = 0; i < TLP_MAX_RECORD_LEN + 100; i++)
		put(&tx, (uint8_t)i, false);
	put(&tx, K_END, true);
	idle(&tx, 4);
	dllp(&tx, initfc);
	idle(&tx, 4);
	run(&tx, LANE_SCRAMBLE_AUTO);
	ck_assert_uint_eq(ngot, 3);
	expect(1, LANE_TLP, true, "largest TLP record: cut");
	ck_assert_uint_eq(got[1].len, TLP_MAX_RECORD_LEN);
	expect(2, LANE_DLLP, false, NULL);
}
END_TEST

/* The capture ends inside a packet; rx8b10b_open says so before. */
START_TEST(test_finish_open)
{
	struct tx tx;
	start_stream(&tx, 2, true);
	unsigned t0 = tx.t;
	put(&tx, K_STP, true);
	for (int i = 0; i < 9; i++)
		put(&tx, tlp20[i], false);
	struct rx8b10b_config cfg = { .lanes = 2, .packet = on_packet };
	struct rx8b10b *rx = rx8b10b_new(&cfg);
	ck_assert_ptr_nonnull(rx);
	ngot = 0;
	struct lane_pos since;
	for (unsigned t = 0; t < tx.t; t++) {
		struct lane_pos pos = { .time_ps = t };
		ck_assert(!rx8b10b_open(rx, &since) || t > t0);
		rx8b10b_step(rx, &pos, trace[t]);
	}
	ck_assert(rx8b10b_open(rx, &since));
	ck_assert_uint_eq(since.time_ps, t0);
	ck_assert_int_eq(rx8b10b_scrambling(rx), LANE_SCRAMBLE_YES);
	rx8b10b_finish(rx);
	ck_assert(!rx8b10b_open(rx, NULL));
	rx8b10b_free(rx);
	ck_assert_uint_eq(ngot, 2);
	expect(1, LANE_TLP, true, "the capture ends inside the packet");
	expect_bytes(1, tlp20, 9);
}
END_TEST

START_TEST(test_bad_config)
{
	struct rx8b10b_config cfg = { .lanes = 3, .packet = on_packet };
	ck_assert_ptr_null(rx8b10b_new(&cfg));
	cfg.lanes = 64;
	ck_assert_ptr_null(rx8b10b_new(&cfg));
	cfg.lanes = 4;
	cfg.packet = NULL;
	ck_assert_ptr_null(rx8b10b_new(&cfg));
	cfg.packet = on_packet;
	cfg.scrambling = (enum lane_scrambling)7;
	ck_assert_ptr_null(rx8b10b_new(&cfg));
	cfg.scrambling = LANE_SCRAMBLE_NO;
	struct rx8b10b *rx = rx8b10b_new(&cfg);
	ck_assert_ptr_nonnull(rx);
	ck_assert_int_eq(rx8b10b_scrambling(rx), LANE_SCRAMBLE_NO);
	rx8b10b_free(rx);
}
END_TEST

Suite *suite_rx8b10b(void)
{
	Suite *s = suite_create("rx8b10b");
	TCase *tc = tcase_create("code");
	tcase_add_test(tc, test_k_symbols);
	tcase_add_test(tc, test_roundtrip_all);
	tcase_add_test(tc, test_decode_errors);
	tcase_add_test(tc, test_scrambler_keys);
	suite_add_tcase(s, tc);
	tc = tcase_create("packets");
	tcase_add_test(tc, test_digest_example);
	tcase_add_loop_test(tc, test_packets, 0, (int)NWIDTHS * 4);
	tcase_add_test(tc, test_x8_lane4);
	tcase_add_test(tc, test_retrain);
	tcase_add_test(tc, test_eios_fts_eieos);
	tcase_add_test(tc, test_scrambling_from_crc);
	tcase_add_test(tc, test_narrower_link);
	tcase_add_test(tc, test_state_same);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_code_error_in_tlp);
	tcase_add_test(tc, test_ts_cuts_packet);
	tcase_add_test(tc, test_damaged_skp_is_no_training);
	tcase_add_test(tc, test_com_on_one_lane);
	tcase_add_test(tc, test_damaged_training_com);
	tcase_add_test(tc, test_bit_flips_in_idle);
	tcase_add_test(tc, test_disparity_sweep_in_idle);
	tcase_add_test(tc, test_disparity_error_in_dllp);
	tcase_add_test(tc, test_short_tlp_and_dllp_length);
	tcase_add_test(tc, test_missing_end);
	tcase_add_test(tc, test_lane_dropout);
	tcase_add_test(tc, test_lane_dropout_idle);
	tcase_add_test(tc, test_framing_outside_packets);
	tcase_add_test(tc, test_start_rules_wide);
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_finish_open);
	tcase_add_test(tc, test_bad_config);
	suite_add_tcase(s, tc);
	return s;
}
