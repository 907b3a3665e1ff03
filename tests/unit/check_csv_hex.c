/* check_csv_hex.c: the raw-byte reader of export cells
 * (read/csv/csv_hex.c), which reads each token in one pass, against the
 * plain token-by-token reading it replaced (below, as it was in
 * csv_rows.c): the same status, bytes, count and token for each of many
 * random cells made of the characters that matter, and for the edge
 * cases written out. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/ascii.h"
#include "read/csv/csv_internal.h"
#include "suites.h"
#include "xorshift.h"

/* ------------------------------------------------------------------ */
/* The reference: csv_rows.c's parse_hex_bytes() before csv_hex.c */

static bool plain_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool plain_symbol(const char *s, size_t len, uint8_t *b)
{
	static const struct {
		const char *name;
		uint8_t sym;
	} syms[] = { { "SDP", 0x5C }, { "STP", 0xFB }, { "END", 0xFD }, { "EDB", 0xFE } };

	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		if (len == 3 && ascii_eq_nocase(s, len, syms[i].name)) {
			*b = syms[i].sym;
			return true;
		}
	}
	return false;
}

static enum csv_hex_status plain_hex_bytes(const char *s, size_t len, uint8_t *out, size_t cap,
                                           struct csv_hex *h)
{
	size_t n = 0, p = 0;

	while (p < len) {
		size_t t, tlen, digits;
		const char *tok;
		uint8_t sym;
		bool odd;

		if (!plain_alnum(s[p])) {
			p++;
			continue;
		}
		t = p;
		while (p < len && plain_alnum(s[p]))
			p++;
		tok = s + t;
		tlen = p - t;
		if (plain_symbol(tok, tlen, &sym)) {
			if (n < cap)
				out[n] = sym;
			n++;
			continue;
		}
		if (tlen > 2 && tok[0] == '0' && ascii_lower(tok[1]) == 'x') {
			tok += 2;
			tlen -= 2;
		} else if (tlen > 1 && tlen <= 3 && ascii_lower(tok[tlen - 1]) == 'h') {
			tlen--;
		}
		digits = tlen;
		odd = digits % 2 != 0 && !(digits == 1 && tok != s + t);
		for (size_t i = 0; i < digits; i += 2) {
			int hi = ascii_hex_value(tok[i]);
			int lo = i + 1 < digits ? ascii_hex_value(tok[i + 1]) : 0;

			if (hi < 0 || lo < 0) {
				h->tok_off = t;
				h->tok_len = p - t;
				return CSV_HEX_BAD;
			}
			if (odd)
				continue;
			if (n < cap)
				out[n] = (uint8_t)(digits == 1 ? (unsigned)hi
				                               : (unsigned)hi << 4 | (unsigned)lo);
			n++;
		}
		if (odd) {
			h->tok_off = t;
			h->tok_len = p - t;
			return CSV_HEX_ODD;
		}
	}
	h->count = n;
	return CSV_HEX_OK;
}

/* ------------------------------------------------------------------ */

#define GUARD 0xA5
#define OUT_MAX 24

/* Both readings of s[0 .. len) with room for cap bytes agree, and
 * neither writes past cap.  Asserts only on a difference: an assertion
 * that holds still costs Check a write, and this runs 200,000 times. */
static void check_same(const char *s, size_t len, size_t cap)
{
	uint8_t a[OUT_MAX + 4], b[OUT_MAX + 4];
	struct csv_hex ha = { 0 }, hb = { 0 };
	enum csv_hex_status sa, sb;
	size_t stored;

	memset(a, GUARD, sizeof(a));
	memset(b, GUARD, sizeof(b));
	sa = csv_hex_bytes(s, len, a, cap, &ha);
	sb = plain_hex_bytes(s, len, b, cap, &hb);
	if (sa != sb)
		ck_abort_msg("status %d, plain %d: '%.*s'", (int)sa, (int)sb, (int)len, s);
	stored = ha.count < cap ? ha.count : cap;
	if (sa == CSV_HEX_OK && (ha.count != hb.count || memcmp(a, b, stored) != 0))
		ck_abort_msg("count %zu, plain %zu, or the bytes differ: '%.*s'", ha.count,
		             hb.count, (int)len, s);
	if (sa != CSV_HEX_OK && (ha.tok_off != hb.tok_off || ha.tok_len != hb.tok_len))
		ck_abort_msg("token %zu+%zu, plain %zu+%zu: '%.*s'", ha.tok_off, ha.tok_len,
		             hb.tok_off, hb.tok_len, (int)len, s);
	for (size_t i = cap; i < sizeof(a); i++) {
		if (a[i] != GUARD)
			ck_abort_msg("byte %zu written, cap %zu: '%.*s'", i, cap, (int)len, s);
	}
}

START_TEST(test_hex_edge_cases)
{
	static const char *const cells[] = {
		"",
		" ",
		"5c800803",
		"5C 80 08",
		"0x5c, 0x80",
		"5Ch 80h",
		"5c:80",
		"SDP 40 END",
		"stp 00 edb",
		"EDB",
		"EDBE",
		"ED",
		"0x5",
		"0X5",
		"5h",
		"5H",
		"ABh",
		"ABCh",
		"0x",
		"0xh",
		"0xg1",
		"x5",
		"5c8",
		"5g",
		"g5 5",
		"zz",
		"0x123",
		"0x1234",
		"12 345",
		"--5c--80--",
		"\x80\xff"
		"5c",
		"hh",
		"0h",
		"00h",
		"000h",
	};

	for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		for (size_t cap = 0; cap <= 4; cap++)
			check_same(cells[i], strlen(cells[i]), cap);
		check_same(cells[i], strlen(cells[i]), OUT_MAX);
	}
}
END_TEST

/* Cells of 0 to 40 characters, mostly hex digits, separators and the
 * letters of the prefixes, suffixes and symbols, some any byte. */
static size_t random_chars(char *s, size_t size, uint32_t *state)
{
	static const char alphabet[] = "0123456789abcdefABCDEF0x0X hH,:-SDPTENBedbg";
	size_t len = next_random(state) % size;

	for (size_t i = 0; i < len; i++) {
		uint32_t r = next_random(state);

		s[i] = r % 16 == 0 ? (char)(r >> 8) : alphabet[(r >> 8) % (sizeof(alphabet) - 1)];
	}
	return len;
}

/* Cells of tokens as exports write them, and some that are not, between
 * separators: most of them read whole. */
static size_t random_tokens(char *s, size_t size, uint32_t *state)
{
	static const char *const tokens[] = { "5c",  "FD",  "0x40", "0X0", "0xAB", "7fh",
		                              "00H", "SDP", "end",  "EdB", "stp",  "0a1B2c3D",
		                              "5h",  "0x5", "abc",  "g0",  "0xz",  "" };
	static const char *const seps[] = { " ", ", ", ":", "-", "", "\t" };
	size_t len = 0;

	for (;;) {
		const char *t = tokens[next_random(state) % (sizeof(tokens) / sizeof(tokens[0]))];
		const char *sep = seps[next_random(state) % (sizeof(seps) / sizeof(seps[0]))];

		if (len + strlen(t) + strlen(sep) > size || next_random(state) % 12 == 0)
			return len;
		memcpy(s + len, t, strlen(t));
		len += strlen(t);
		memcpy(s + len, sep, strlen(sep));
		len += strlen(sep);
	}
}

/* Random cells of both kinds, with room for 0 to OUT_MAX bytes. */
START_TEST(test_hex_random_cells)
{
	uint32_t state = 0x1234ABCDu;
	unsigned outcomes[3] = { 0 };
	uint8_t out[OUT_MAX];
	struct csv_hex h;
	char s[41];

	for (int k = 0; k < 200000; k++) {
		size_t cap = next_random(&state) % (OUT_MAX + 1);
		size_t len = k % 2 == 0 ? random_chars(s, sizeof(s), &state)
		                        : random_tokens(s, sizeof(s), &state);

		check_same(s, len, cap);
		outcomes[csv_hex_bytes(s, len, out, cap, &h)]++;
	}
	/* the cells reach every outcome, often */
	ck_assert_uint_gt(outcomes[CSV_HEX_OK], 20000);
	ck_assert_uint_gt(outcomes[CSV_HEX_BAD], 20000);
	ck_assert_uint_gt(outcomes[CSV_HEX_ODD], 20000);
}
END_TEST

Suite *suite_csv_hex(void)
{
	Suite *s = suite_create("csv_hex");
	TCase *tc = tcase_create("hex");

	tcase_add_test(tc, test_hex_edge_cases);
	tcase_add_test(tc, test_hex_random_cells);
	suite_add_tcase(s, tc);
	return s;
}
