/* csv_hex.c: the raw bytes of an export's cell, as hex in any common
 * spelling ("5c800803", "5C 80 08", "0x5c, 0x80", "5Ch 80h", "5c:80"),
 * with the framing symbols SDP/STP/END/EDB as words.  specification:
 * capture-format.md section 3.
 *
 * Hex cells are most of a dumped trace, so each token is read in one pass
 * that finds its end and whether it is all hex digits together: its pairs
 * of hex digits with one test of two bytes, the rest of it (most tokens
 * have none) byte by byte; walking a pointer (an index costs the fuzzer's
 * UBSan a traced comparison per byte).  A token of pairs only is made into
 * bytes at once, with no comparison per digit; any other goes through the
 * token-by-token rules of hex_token().
 * tests/unit/check_csv_hex.c compares it with the plain token-by-token
 * reading on random cells. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ascii.h"
#include "base/attrs.h"
#include "read/csv/csv_internal.h"

/* Where the bytes go: the next of room bytes left; n counts them all.
 * The two helpers that write them are inlined (HOT_INLINE), so that o is
 * known to be csv_hex_bytes()'s own: UBSan's checks of the pointer then
 * fold away, each a traced comparison per token. */
struct hex_out {
	uint8_t *next;
	size_t room;
	size_t n;
};

static HOT_INLINE void put_byte(struct hex_out *o, uint8_t b)
{
	if (o->room > 0) {
		*o->next++ = b;
		o->room--;
	}
	o->n++;
}

/* Bytes from pairs of hex digits d[0 .. 2 * pairs) (each one is_hex()). */
static HOT_INLINE void put_pairs(struct hex_out *o, const char *d, size_t pairs)
{
	size_t stored = pairs < o->room ? pairs : o->room;

	o->room -= stored;
	o->n += pairs;
	for (; stored > 0; stored--, d += 2)
		*o->next++ = (uint8_t)(ascii_hex_value(d[0]) << 4 | ascii_hex_value(d[1]));
}

static bool framing_symbol(const char *s, size_t len, uint8_t *b)
{
	static const struct {
		const char *name;
		uint8_t sym;
	} syms[] = {
		{ "SDP", 0x5C },
		{ "STP", 0xFB },
		{ "END", 0xFD },
		{ "EDB", 0xFE },
	};

	/* every symbol's name has three letters: most tokens are hex digit
	 * pairs, and this is asked of each one */
	if (len != 3)
		return false;
	for (size_t i = 0; i < ARRAY_LEN(syms); i++) {
		if (ascii_eq_nocase(s, len, syms[i].name)) {
			*b = syms[i].sym;
			return true;
		}
	}
	return false;
}

/* The end of the pairs of hex digits from c: one test of two bytes. */
static const char *hex_pairs_end(const char *c, const char *end)
{
	while (end - c >= 2 && (csv_classes(c[0]) & csv_classes(c[1]) & CSV_CC_HEX))
		c += 2;
	return c;
}

/* The end of the run of letters and digits from c, and whether every one
 * of them is a hex digit. */
static const char *token_end(const char *c, const char *end, bool *all_hex)
{
	unsigned hex = CSV_CC_HEX;

	for (; c < end && is_alnum(*c); c++)
		hex &= csv_classes(*c);
	*all_hex = hex != 0;
	return c;
}

static bool all_hex_digits(const char *d, size_t n)
{
	for (; n > 0; n--, d++) {
		if (!is_hex(*d))
			return false;
	}
	return true;
}

/* One token tok[0 .. tlen): a framing symbol, or hex digits with an
 * optional "0x" before or 'h' after.  Digits come in pairs, except a
 * single one after "0x"; a digit that is no hex is told first, as the
 * worse error.  (A single one before 'h', "5h", is told as odd: the
 * plain reading this replaced did so, and the messages stay.) */
static enum csv_hex_status hex_token(const char *tok, size_t tlen, bool all_hex, struct hex_out *o)
{
	const char *d = tok;
	size_t digits = tlen;
	uint8_t sym;

	if (framing_symbol(tok, tlen, &sym)) {
		put_byte(o, sym);
		return CSV_HEX_OK;
	}
	if (tlen > 2 && tok[0] == '0' && ascii_lower(tok[1]) == 'x') {
		d += 2;
		digits -= 2;
		all_hex = all_hex_digits(d, digits); /* the 'x' was counted */
	} else if (tlen > 1 && tlen <= 3 && ascii_lower(tok[tlen - 1]) == 'h') {
		digits--;
		all_hex = all_hex_digits(d, digits); /* the 'h' was counted */
	}
	if (!all_hex)
		return CSV_HEX_BAD;
	if (digits == 1 && d != tok) {
		put_byte(o, (uint8_t)ascii_hex_value(d[0]));
		return CSV_HEX_OK;
	}
	if (digits % 2 != 0)
		return CSV_HEX_ODD;
	put_pairs(o, d, digits / 2);
	return CSV_HEX_OK;
}

enum csv_hex_status csv_hex_bytes(const char *s, size_t len, uint8_t *out, size_t cap,
                                  struct csv_hex *h)
{
	const char *c = s, *end = s + len;
	struct hex_out o = { .next = out, .room = cap, .n = 0 };

	while (c < end) {
		const char *tok = c, *pairs_end;
		enum csv_hex_status st;
		bool all_hex;

		if (!is_alnum(*c)) {
			c++;
			continue;
		}
		pairs_end = hex_pairs_end(c, end);
		c = token_end(pairs_end, end, &all_hex); /* the pairs are hex */
		/* Most tokens are hex digits in pairs and nothing else: no
		 * symbol (three letters), no "0x" and no 'h' (no hex digits),
		 * so the bytes hex_token() would find. */
		if (c == pairs_end) {
			put_pairs(&o, tok, (size_t)(c - tok) / 2);
			continue;
		}
		st = hex_token(tok, (size_t)(c - tok), all_hex, &o);
		if (st != CSV_HEX_OK) {
			h->tok_off = (size_t)(tok - s);
			h->tok_len = (size_t)(c - tok);
			return st;
		}
	}
	h->count = o.n;
	return CSV_HEX_OK;
}
