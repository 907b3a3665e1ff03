/* text_parse_tlp.c: the TLP part of the text trace grammar
 * (text_parse.c has the line and the grammar's description): "TLP"
 * followed by its keywords and a mnemonic with keys, or hex bytes; the
 * header fields of a symbolic TLP and the kinds each belongs to.
 * specification: capture-format.md section 2; spec-digest.md 4.1 (the
 * header fields' widths). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/ascii.h"
#include "base/number.h"
#include "base/text_quote.h"
#include "core/record.h"
#include "read/packet_build.h"
#include "read/text_lex.h"
#include "read/text_parse_internal.h"
#include "wire/tlp.h"

static bool cpl_status_value(const char *s, size_t len, uint64_t *out);
static bool msg_code_value(const char *s, size_t len, uint64_t *out);
static bool msg_routing_value(const char *s, size_t len, uint64_t *out);

/* The header fields' limits are those of their bits [spec-digest 4.1]:
 * IDs 16 bits, the tag 10, byte enables 4, the register byte offset 12,
 * Lower Address 7, status and routing 3; Byte Count 1..4096 (000h is
 * 4096).  addr= is held to 32 bits for the 3 DW header kinds in
 * check_tlp_header. */
static const struct key_rule tlp_rules[] = {
	RULE_LINK,
	{ KEY_SEQ, false, 0, DL_SEQ_MAX },
	{ KEY_LEN, false, 1, TLP_MAX_LENGTH_DW },
	{ KEY_TC, false, 0, 7 },
	{ KEY_TD, false, 0, 1 },
	{ KEY_LCRC, true, 0, 0xFFFFFFFF },
	{ KEY_REQ, true, 0, 0xFFFF },
	{ KEY_TAG, false, 0, 1023 },
	{ KEY_ADDR, true, 0, UINT64_MAX },
	{ KEY_FBE, true, 0, 0xF },
	{ KEY_LBE, true, 0, 0xF },
	{ KEY_TARGET, true, 0, 0xFFFF },
	{ KEY_REG, false, 0, 0xFFC },
	{ KEY_COMPLETER, true, 0, 0xFFFF },
	{ KEY_STATUS, false, 0, 7, cpl_status_value, "a completion status (SC UR CRS CA)" },
	{ KEY_BC, false, 1, 4096 },
	{ KEY_LA, false, 0, 127 },
	{ KEY_CODE, false, 0, 255, msg_code_value, "a message code name" },
	{ KEY_ROUTE, false, 0, 7, msg_routing_value,
	  "a routing (to-rc by-address by-id broadcast local gathered)" },
	{ KEY_EP, false, 0, 1 },
};

/* seq and len are required case by case (noseq, kind): see parse_tlp_sym. */
static const struct form form_tlp =
        FORM(tlp_rules, 0, BIT(WORD_NOCRC) | BIT(WORD_NOSEQ) | BIT(WORD_NULLIFIED));

static bool parse_tlp_hex(struct parse *p, const struct token *first)
{
	size_t n;

	if (has_word(&p->f, WORD_NULLIFIED))
		return text_fail(p, p->f.word_col[WORD_NULLIFIED],
		                 "'nullified' needs a symbolic TLP: "
		                 "write the LCRC bytes instead");
	if (!text_parse_hex(p, "TLP", first, TLP_MAX_RECORD_LEN, &n))
		return false;
	if (n > TLP_MAX_RECORD_LEN)
		return text_fail(p, first->col,
		                 "hex byte count %zu: a TLP record is at most %u bytes", n,
		                 (unsigned)TLP_MAX_RECORD_LEN);
	p->kind = REC_TLP;
	p->len = (uint32_t)n;
	p->flags |= (has_word(&p->f, WORD_NOCRC) ? REC_F_NO_CRC : 0) |
	            (has_word(&p->f, WORD_NOSEQ) ? REC_F_NO_SEQ : 0);
	return true;
}

/* ---- TLP: keywords, then a mnemonic or hex ---- */

static bool check_tlp_fields(struct parse *p, enum tlp_kind kind, const char *what, unsigned col)
{
	const struct fields *f = &p->f;
	unsigned nocrc = f->word_col[WORD_NOCRC];
	unsigned nullified = f->word_col[WORD_NULLIFIED];
	unsigned lcrc = f->col[KEY_LCRC];

	if (!text_conflict(p, f->col[KEY_SEQ], "seq=", f->word_col[WORD_NOSEQ], "noseq") ||
	    !text_conflict(p, lcrc, "lcrc=", nocrc, "nocrc") ||
	    !text_conflict(p, lcrc, "lcrc=", nullified, "nullified") ||
	    !text_conflict(p, nocrc, "nocrc", nullified, "nullified"))
		return false;
	if (!has(f, KEY_SEQ) && !has_word(f, WORD_NOSEQ))
		return text_fail(p, col, "missing key 'seq' for %s", what);
	if (!has(f, KEY_LEN) && !packet_tlp_length_optional(kind))
		return text_fail(p, col, "missing key 'len' for %s", what);
	return true;
}

/* ---- TLP header fields ---- */

/* Completion Status [spec-digest 4.1; tl-facts.md section 5]: 010b is
 * CRS (Configuration Request Retry Status), RRS since PCIe 6. */
static bool cpl_status_value(const char *s, size_t len, uint64_t *out)
{
	static const struct {
		struct name name;
		uint8_t value;
	} names[] = {
		{ NAME("SC"), TLP_CPL_SC },   { NAME("UR"), TLP_CPL_UR },
		{ NAME("CRS"), TLP_CPL_CRS }, { NAME("RRS"), TLP_CPL_CRS },
		{ NAME("CA"), TLP_CPL_CA },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (name_eq(s, len, &names[i].name)) {
			*out = names[i].value;
			return true;
		}
	}
	return false;
}

/* tlp_msg_code_parse()'s names, with '-' for '_' as in DLLP mnemonics. */
static bool msg_code_value(const char *s, size_t len, uint64_t *out)
{
	char name[32];
	uint8_t code;

	if (len >= sizeof(name))
		return false;
	for (size_t i = 0; i < len; i++)
		name[i] = s[i] == '-' ? '_' : s[i];
	if (!tlp_msg_code_parse(name, len, &code))
		return false;
	*out = code;
	return true;
}

/* tlp_msg_routing_name()'s names of r[2:0] 000b..101b (110b and 111b
 * are reserved: written as numbers). */
static bool msg_routing_value(const char *s, size_t len, uint64_t *out)
{
	for (uint8_t r = 0; r < 6; r++) {
		if (word_eq(s, len, tlp_msg_routing_name(r))) {
			*out = r;
			return true;
		}
	}
	return false;
}

#define KEYS_ANY_TLP                                                                               \
	(BIT(KEY_LINK) | BIT(KEY_SEQ) | BIT(KEY_LEN) | BIT(KEY_TC) | BIT(KEY_TD) | BIT(KEY_LCRC) | \
	 BIT(KEY_REQ) | BIT(KEY_TAG) | BIT(KEY_EP))
#define KEYS_BE (BIT(KEY_FBE) | BIT(KEY_LBE))
#define KEYS_CPL (BIT(KEY_COMPLETER) | BIT(KEY_STATUS) | BIT(KEY_BC) | BIT(KEY_LA))

/* The keys a kind takes: each header field only where the header has it
 * [spec-digest 4.1].  Every TLP has a Requester ID and a Tag (requests,
 * messages, completions) and EP; the byte enables are reserved in
 * AtomicOps [tl-facts.md section 3] and byte 7 of a message is its code. */
static unsigned tlp_kind_keys(enum tlp_kind kind)
{
	switch (kind) {
	case TLP_MRD:
	case TLP_MRDLK:
	case TLP_MWR:
	case TLP_IORD:
	case TLP_IOWR:
	case TLP_DMWR:
		return KEYS_ANY_TLP | BIT(KEY_ADDR) | KEYS_BE;
	case TLP_FETCHADD:
	case TLP_SWAP:
	case TLP_CAS:
		return KEYS_ANY_TLP | BIT(KEY_ADDR);
	case TLP_CFGRD0:
	case TLP_CFGWR0:
	case TLP_CFGRD1:
	case TLP_CFGWR1:
		return KEYS_ANY_TLP | BIT(KEY_TARGET) | BIT(KEY_REG) | KEYS_BE;
	case TLP_MSG:
	case TLP_MSGD:
		return KEYS_ANY_TLP | BIT(KEY_CODE) | BIT(KEY_ROUTE);
	case TLP_CPL:
	case TLP_CPLD:
	case TLP_CPLLK:
	case TLP_CPLDLK:
		return KEYS_ANY_TLP | KEYS_CPL;
	default:
		return KEYS_ANY_TLP;
	}
}

/* Where a header key belongs, for the message of one given elsewhere. */
static const char *key_where(enum key_id k)
{
	switch (k) {
	case KEY_ADDR:
		return "memory, I/O and AtomicOp requests";
	case KEY_FBE:
	case KEY_LBE:
		return "memory, I/O and configuration requests (reserved in AtomicOps)";
	case KEY_TARGET:
	case KEY_REG:
		return "configuration requests";
	case KEY_CODE:
	case KEY_ROUTE:
		return "messages";
	default:
		return "completions";
	}
}

/* The header keys against the kind and each other (the ranges of each
 * are parse_key's). */
static bool check_tlp_header(struct parse *p, enum tlp_kind kind, bool addr64, const char *what)
{
	const struct fields *f = &p->f;
	unsigned stray = f->given & ~tlp_kind_keys(kind);

	if (stray != 0) {
		/* the first written, as a reader fixes the line left to right */
		enum key_id first = KEY_COUNT;

		for (unsigned k = 0; k < KEY_COUNT; k++)
			if ((stray & BIT(k)) && (first == KEY_COUNT || f->col[k] < f->col[first]))
				first = (enum key_id)k;
		return text_fail(p, f->col[first], "'%s=' is for %s, not %s",
		                 text_key_names[first].s, key_where(first), what);
	}
	if (has(f, KEY_LBE) && !has(f, KEY_FBE))
		return text_fail(p, f->col[KEY_LBE],
		                 "'lbe=' needs 'fbe=' (give both, or fbe= alone)");
	/* A 3 DW header holds a 32-bit address [spec-digest 4.1]. */
	if (has(f, KEY_ADDR) && !addr64 && f->addr > 0xFFFFFFFFu)
		return text_fail(p, f->col[KEY_ADDR],
		                 "addr=0x%" PRIX64
		                 " out of range 0x0..0xffffffff: %s has a 32-bit address",
		                 f->addr, what);
	/* Address[1:0] are not in the header: the byte enables say which
	 * bytes of the first DW.  An address that is not a DW's is refused
	 * rather than rounded, so a line means what it says. */
	if (has(f, KEY_ADDR) && (f->addr & 3u) != 0)
		return text_fail(p, f->col[KEY_ADDR],
		                 "addr=0x%" PRIX64 ": bits 1:0 must be 0 (a DW address; fbe= gives "
		                 "the bytes)",
		                 f->addr);
	if (has(f, KEY_REG) && (f->val[KEY_REG] & 3u) != 0)
		return text_fail(p, f->col[KEY_REG],
		                 "reg=%u: not a multiple of 4 (a register is a DW; fbe= gives "
		                 "the bytes)",
		                 (unsigned)f->val[KEY_REG]);
	return true;
}

/* The header keys into the builder's tlp_fields; absent ones keep the
 * encoder's defaults (every old line builds the same bytes). */
static void tlp_header_fields(const struct fields *f, struct packet_tlp *b)
{
	struct tlp_fields *h = &b->hdr;

	h->requester_given = has(f, KEY_REQ);
	h->requester_id = (uint16_t)f->val[KEY_REQ];
	h->tag_given = has(f, KEY_TAG);
	h->tag = (uint16_t)f->val[KEY_TAG];
	if (has(f, KEY_ADDR)) {
		h->address_given = true;
		h->address = f->addr;
	}
	/* configuration requests: Bus/Device/Function in bits 31:16, the
	 * register offset in bits 11:0 (wire/tlp.h, struct tlp_fields) */
	if (has(f, KEY_TARGET) || has(f, KEY_REG)) {
		uint64_t target =
		        has(f, KEY_TARGET) ? f->val[KEY_TARGET] : PACKET_CFG_TARGET_DEFAULT;

		h->address_given = true;
		h->address = target << 16 | f->val[KEY_REG];
	}
	if (has(f, KEY_FBE)) {
		/* fbe= alone: the Last DW BE the encoder would give */
		bool one_dw = !b->has_length || b->length_dw == 1;

		h->be_given = true;
		h->first_be = (uint8_t)f->val[KEY_FBE];
		h->last_be = has(f, KEY_LBE) ? (uint8_t)f->val[KEY_LBE] : one_dw ? 0 : 0xF;
	}
	h->completer_given = has(f, KEY_COMPLETER);
	h->completer_id = (uint16_t)f->val[KEY_COMPLETER];
	h->cpl_status = (uint8_t)f->val[KEY_STATUS]; /* 0, SC, by default */
	h->byte_count_given = has(f, KEY_BC);
	h->byte_count = (uint16_t)f->val[KEY_BC];
	h->lower_address_given = has(f, KEY_LA);
	h->lower_address = (uint8_t)f->val[KEY_LA];
	h->msg_code_given = has(f, KEY_CODE);
	h->msg_code = (uint8_t)f->val[KEY_CODE];
	h->ep = f->val[KEY_EP] != 0;
	b->routing_given = has(f, KEY_ROUTE);
	b->msg_routing = (unsigned)f->val[KEY_ROUTE];
}

static bool parse_tlp_sym(struct parse *p, const struct token *mn, enum tlp_kind kind, bool addr64)
{
	char what[QUOTE_BUF];
	const struct fields *f = &p->f;
	struct packet_tlp b;
	memset(&b, 0, sizeof(b));

	text_quote(what, mn->s, mn->len);
	if (!text_parse_fields(p, &form_tlp, what, mn->col) ||
	    !check_tlp_fields(p, kind, what, mn->col) || !check_tlp_header(p, kind, addr64, what))
		return false;
	b.kind = kind;
	b.addr64 = addr64;
	b.has_seq = !has_word(f, WORD_NOSEQ);
	b.seq = (unsigned)f->val[KEY_SEQ];
	b.has_length = has(f, KEY_LEN);
	b.length_dw = (unsigned)f->val[KEY_LEN];
	b.tc = (unsigned)f->val[KEY_TC];
	b.td = f->val[KEY_TD] != 0;
	tlp_header_fields(f, &b);
	/* the conflicts are checked: at most one of these */
	b.lcrc = has_word(f, WORD_NOCRC) ? PACKET_CRC_NONE
	         : has(f, KEY_LCRC)      ? PACKET_CRC_FORCED
	                                 : PACKET_CRC_GOOD;
	b.lcrc_field = (uint32_t)f->val[KEY_LCRC];
	b.nullified = has_word(f, WORD_NULLIFIED);
	p->len = packet_build_tlp(&b, p->buf, TLP_MAX_RECORD_LEN, &p->flags);
	if (p->len == 0)
		return text_fail(p, mn->col, "%s cannot be encoded with these fields", what);
	p->kind = REC_TLP;
	return true;
}

static bool all_hex(const struct token *t)
{
	for (size_t i = 0; i < t->len; i++) {
		if (ascii_hex_value(t->s[i]) < 0 && t->s[i] != '_')
			return false;
	}
	return true;
}

static bool is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool text_parse_tlp(struct parse *p)
{
	/* link= only, as an event's form (text_parse.c) */
	static const struct key_rule prefix_rules[] = { RULE_LINK };
	static const struct form prefix_words =
	        FORM(prefix_rules, 0, BIT(WORD_NOCRC) | BIT(WORD_NOSEQ) | BIT(WORD_NULLIFIED));
	char q[QUOTE_BUF];
	struct token t;
	enum tlp_kind kind;
	bool addr64;

	for (;;) {
		if (!lex_next(&p->lx, &t))
			return text_fail(p, lex_end_col(&p->lx), "missing TLP bytes or mnemonic");
		if (text_word_lookup(&t) < 0)
			break;
		if (!text_parse_word(p, &prefix_words, "TLP", &t))
			return false;
	}
	/* Every mnemonic starts with a letter, and none is all hex digits:
	 * a word starting with anything else is hex bytes (parse_hex
	 * reports a bad digit itself, so the bytes are scanned once); one
	 * starting with a letter is a mnemonic, else hex bytes if it is all
	 * hex digits, else an unknown mnemonic. */
	if (!is_letter(t.s[0]))
		return parse_tlp_hex(p, &t);
	if (tlp_mnemonic_parse(t.s, t.len, &kind, &addr64))
		return parse_tlp_sym(p, &t, kind, addr64);
	if (!all_hex(&t))
		return text_fail(p, t.col, "unknown TLP mnemonic '%s'", text_quote(q, t.s, t.len));
	return parse_tlp_hex(p, &t);
}
