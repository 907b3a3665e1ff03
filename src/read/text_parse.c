/* text_parse.c: the grammar of one text trace line (the reader of lines
 * is reader_text.c).
 * specification: capture-format.md section 2 (grammar), section 1 (event
 * table, record payloads).
 *
 * One line is one record:
 *
 *     TIME DIR [link=N] KIND FIELDS...        # comment
 *
 *   TIME   non-negative decimal, optional fraction, optional unit ps ns us
 *          ms s (attached "1.5us" or as the next word "1.5 us"; none = ns).
 *          Converted to picoseconds exactly with integers: a value finer
 *          than 1 ps ("1.0001ps"; "1.0ps" is exact) or above 2^63-1 ps is
 *          malformed.  Units are SI symbols and so case-sensitive; every
 *          other word (direction, kind, mnemonic, key, keyword, event) is
 *          not.
 *   DIR    down | up
 *   KIND   DLLP <hex>                 6 bytes, or 4 (flag NO_CRC)
 *          TLP [nocrc] [noseq] <hex>  seq (2), TLP, LCRC (4), minus the dropped parts
 *          EVENT <name> [vc=N]        link-up link-down hot-reset recovery
 *                                     port-reset vc-enable (vc=1..7 required)
 *          <DLLP mnemonic> key=value...
 *          TLP [nocrc] [noseq] <TLP mnemonic> key=value...
 *
 *   Hex: hex digits; spaces, tabs and '_' between them are ignored; an even
 *   number of digits in all.  A TLP is at most TLP_MAX_RECORD_LEN bytes.
 *
 *   Symbolic DLLPs ('_' and '-' are interchangeable in mnemonics; the
 *   mnemonics are dllp_mnemonic_lookup()'s, wire/dllp.c, the keys below
 *   this file's, with the field limits of wire/fc_arith.h; the bytes are
 *   read/packet_build.h's, as the export reader's):
 *     InitFC1-P|NP|Cpl, InitFC2-*, UpdateFC-*  vc=0..7 hdr=0..255 data=0..4095
 *                                              [hdrscale=0..3] [datascale=0..3]
 *     Ack seq=0..4095, Nak seq=0..4095
 *     PM_Enter_L1, PM_Enter_L23, PM_Active_State_Request_L1, PM_Request_Ack, NOP
 *     Feature (or Data_Link_Feature) ack=0|1 bits=HEX (23 bits)
 *     Vendor data=HEX (24 bits)
 *   Symbolic TLPs: a mnemonic known to tlp_mnemonic_parse() (MWr32, CplD...)
 *     with seq=0..4095 len=1..1024 [tc=0..7] [td=0|1].  len may be left out
 *     only for Cpl, CplLk and Msg (no data, nothing requested).
 *     Header fields, all optional (absent: the encoder's defaults, so a
 *     line without them builds the bytes it always did; wire/tlp.h, struct
 *     tlp_fields), each only on the kinds whose header has it [spec-digest
 *     4.1]:
 *       every kind        req=HEX (Requester ID, 16 bits)  tag=0..1023 (10
 *                         bits, T9/T8 too; default: seq's low byte)
 *                         ep=0|1 (poisoned)
 *       memory, I/O and AtomicOp requests
 *                         addr=HEX: 64 bits for the 64-bit mnemonics, 32
 *                         for the others; bits 1:0 must be 0 (a DW
 *                         address: a line with them set is refused, not
 *                         rounded; fbe= gives the bytes)
 *       memory, I/O and configuration requests (reserved in AtomicOps)
 *                         fbe=HEX lbe=HEX (one digit each; fbe= alone takes
 *                         the Last DW BE the length gives: 0 for 1 DW, F)
 *       configuration     target=HEX (Bus/Device/Function; default 0100)
 *                         reg=0..0xFFC (register byte offset, a multiple
 *                         of 4)
 *       completions       completer=HEX  status=SC|UR|CRS|RRS|CA|0..7
 *                         bc=1..4096 (Byte Count; 4096 is written 000h)
 *                         la=0..127 (Lower Address)
 *       Msg, MsgD         code=NAME|0..255 (tlp_msg_code_parse()'s names,
 *                         '-' for '_' allowed)  route=NAME|0..7 (to-rc
 *                         by-address by-id broadcast local gathered;
 *                         default: the code's routing, local without code=)
 *     Values are not checked against each other or the length (fbe=0 on 2
 *     DW, bc= less than len): a trace may say what a faulty device sends.
 *
 *   Extensions beyond capture-format.md (for the man page):
 *     - link=N may also be written among the keys of a symbolic packet or
 *       an EVENT (once per line);
 *     - symbolic TLPs take the keywords nocrc, noseq (then seq= is not
 *       allowed) and nullified (LCRC sent inverted) anywhere after TLP;
 *     - symbolic DLLPs take nocrc (4-byte form, flag NO_CRC);
 *     - crc=HEX (DLLP, the field byte4 << 8 | byte5) and lcrc=HEX (TLP,
 *       32 bits big-endian as on the wire) force the CRC field; they
 *       conflict with nocrc and nullified.
 *   Numbers are decimal or 0x hex; values documented as HEX are hex with or
 *   without 0x.  Keys come in any order; unknown, duplicate or missing
 *   keys, trailing words and out-of-range values make the line malformed.
 *
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/ascii.h"
#include "base/attrs.h"
#include "base/blank.h"
#include "base/number.h"
#include "base/text_quote.h"
#include "base/time_unit.h"
#include "core/record.h"
#include "read/packet_build.h"
#include "read/reader.h"
#include "read/text_lex.h"
#include "read/text_parse.h"
#include "wire/dllp.h"
#include "wire/fc_arith.h"
#include "wire/tlp.h"

/* ------------------------------------------------------------------ */
/* Keys and the forms of symbolic packets */

enum key_id {
	KEY_LINK,
	KEY_VC,
	KEY_HDR,
	KEY_DATA,
	KEY_HDRSCALE,
	KEY_DATASCALE,
	KEY_SEQ,
	KEY_ACK,
	KEY_BITS,
	KEY_LEN,
	KEY_TC,
	KEY_TD,
	KEY_CRC,
	KEY_LCRC,
	/* the header fields of a symbolic TLP (struct tlp_fields) */
	KEY_REQ,
	KEY_TAG,
	KEY_ADDR,
	KEY_FBE,
	KEY_LBE,
	KEY_TARGET,
	KEY_REG,
	KEY_COMPLETER,
	KEY_STATUS,
	KEY_BC,
	KEY_LA,
	KEY_CODE,
	KEY_ROUTE,
	KEY_EP,
	KEY_COUNT
};

/* A name with its length, so lookups compare lengths before bytes. */
struct name {
	const char *s;
	size_t len;
};
#define NAME(str)                    \
	{                            \
		str, sizeof(str) - 1 \
	}

/* The length and the first character reject most names before word_eq
 * (no name is empty, so s[0] exists when the lengths match). */
static bool name_eq(const char *s, size_t len, const struct name *n)
{
	return len == n->len && fold(s[0]) == fold(n->s[0]) && word_eq(s, len, n->s);
}

static const struct name key_names[KEY_COUNT] = {
	[KEY_LINK] = NAME("link"),
	[KEY_VC] = NAME("vc"),
	[KEY_HDR] = NAME("hdr"),
	[KEY_DATA] = NAME("data"),
	[KEY_HDRSCALE] = NAME("hdrscale"),
	[KEY_DATASCALE] = NAME("datascale"),
	[KEY_SEQ] = NAME("seq"),
	[KEY_ACK] = NAME("ack"),
	[KEY_BITS] = NAME("bits"),
	[KEY_LEN] = NAME("len"),
	[KEY_TC] = NAME("tc"),
	[KEY_TD] = NAME("td"),
	[KEY_CRC] = NAME("crc"),
	[KEY_LCRC] = NAME("lcrc"),
	[KEY_REQ] = NAME("req"),
	[KEY_TAG] = NAME("tag"),
	[KEY_ADDR] = NAME("addr"),
	[KEY_FBE] = NAME("fbe"),
	[KEY_LBE] = NAME("lbe"),
	[KEY_TARGET] = NAME("target"),
	[KEY_REG] = NAME("reg"),
	[KEY_COMPLETER] = NAME("completer"),
	[KEY_STATUS] = NAME("status"),
	[KEY_BC] = NAME("bc"),
	[KEY_LA] = NAME("la"),
	[KEY_CODE] = NAME("code"),
	[KEY_ROUTE] = NAME("route"),
	[KEY_EP] = NAME("ep"),
};

/* Keywords without a value. */
enum word_id { WORD_NOCRC, WORD_NOSEQ, WORD_NULLIFIED, WORD_COUNT };

static const struct name word_names[WORD_COUNT] = {
	[WORD_NOCRC] = NAME("nocrc"),
	[WORD_NOSEQ] = NAME("noseq"),
	[WORD_NULLIFIED] = NAME("nullified"),
};

#define BIT(n) (1u << (n))

/* A value that may be written as a name (status=UR, code=PME_Turn_Off,
 * route=by-id): true with *out set when s[0..len) is one. */
typedef bool (*value_name_fn)(const char *s, size_t len, uint64_t *out);

/* How one key is written for one form: hex keys take bare hex digits;
 * keys with names take one of them or a number.  64-bit limits for
 * addr= (a 64-bit address); every other key's fit 32 bits. */
struct key_rule {
	uint8_t key;
	bool hex;
	uint64_t min, max;
	value_name_fn names; /* NULL: numbers only */
	const char *names_what; /* what the names are, for messages */
};

struct form {
	const struct key_rule *rules;
	unsigned nrules;
	unsigned required; /* BIT(key) */
	unsigned words; /* BIT(word) allowed */
};

#define RULE_LINK                       \
	{                               \
		KEY_LINK, false, 0, 255 \
	}
#define RULE_CRC                         \
	{                                \
		KEY_CRC, true, 0, 0xFFFF \
	}
#define FORM(rules, req, words)                                     \
	{                                                           \
		rules, sizeof(rules) / sizeof(rules[0]), req, words \
	}

static const struct key_rule fc_rules[] = {
	RULE_LINK,
	RULE_CRC,
	{ KEY_VC, false, 0, 7 },
	{ KEY_HDR, false, 0, FC_HDR_FIELD_MAX },
	{ KEY_DATA, false, 0, FC_DATA_FIELD_MAX },
	{ KEY_HDRSCALE, false, 0, FC_SCALE_MAX },
	{ KEY_DATASCALE, false, 0, FC_SCALE_MAX },
};
static const struct key_rule acknak_rules[] = {
	RULE_LINK,
	RULE_CRC,
	{ KEY_SEQ, false, 0, DL_SEQ_MAX },
};
static const struct key_rule bare_rules[] = { RULE_LINK, RULE_CRC };
static const struct key_rule feature_rules[] = {
	RULE_LINK,
	RULE_CRC,
	{ KEY_ACK, false, 0, 1 },
	{ KEY_BITS, true, 0, 0x7FFFFF },
};
static const struct key_rule vendor_rules[] = {
	RULE_LINK,
	RULE_CRC,
	{ KEY_DATA, true, 0, 0xFFFFFF },
};
static bool cpl_status_value(const char *s, size_t len, uint64_t *out);
static bool msg_code_value(const char *s, size_t len, uint64_t *out);
static bool msg_routing_value(const char *s, size_t len, uint64_t *out);

/* The header fields' limits are those of their bits [spec-digest 4.1;
 * notes in tl-common.md]: IDs 16 bits, the tag 10, byte enables 4, the
 * register byte offset 12, Lower Address 7, status and routing 3.  addr=
 * is limited to 32 bits for the 3 DW header kinds in check_tlp_header. */
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
static const struct key_rule event_rules[] = { RULE_LINK };
static const struct key_rule event_vc_rules[] = {
	RULE_LINK,
	{ KEY_VC, false, 1, 7 },
};

static const struct form form_fc =
        FORM(fc_rules, BIT(KEY_VC) | BIT(KEY_HDR) | BIT(KEY_DATA), BIT(WORD_NOCRC));
static const struct form form_acknak = FORM(acknak_rules, BIT(KEY_SEQ), BIT(WORD_NOCRC));
static const struct form form_bare = FORM(bare_rules, 0, BIT(WORD_NOCRC));
static const struct form form_feature =
        FORM(feature_rules, BIT(KEY_ACK) | BIT(KEY_BITS), BIT(WORD_NOCRC));
static const struct form form_vendor = FORM(vendor_rules, BIT(KEY_DATA), BIT(WORD_NOCRC));
/* seq and len are required case by case (noseq, kind): see parse_tlp_sym. */
static const struct form form_tlp =
        FORM(tlp_rules, 0, BIT(WORD_NOCRC) | BIT(WORD_NOSEQ) | BIT(WORD_NULLIFIED));
/* Events take link= only; also the form of link= before KIND. */
static const struct form form_event = FORM(event_rules, 0, 0);
static const struct form form_event_vc = FORM(event_vc_rules, BIT(KEY_VC), 0);

/* The form of a symbolic DLLP by kind; NULL for the kinds that have
 * none.  The mnemonics themselves are dllp_mnemonic_lookup()'s. */
static const struct form *dllp_form(enum dllp_type type)
{
	switch (type) {
	case DLLP_INITFC1:
	case DLLP_INITFC2:
	case DLLP_UPDATEFC:
		return &form_fc;
	case DLLP_ACK:
	case DLLP_NAK:
		return &form_acknak;
	case DLLP_PM_ENTER_L1:
	case DLLP_PM_ENTER_L23:
	case DLLP_PM_AS_REQUEST_L1:
	case DLLP_PM_REQUEST_ACK:
	case DLLP_NOP:
		return &form_bare;
	case DLLP_FEATURE:
		return &form_feature;
	case DLLP_VENDOR:
		return &form_vendor;
	default:
		return NULL;
	}
}

/* A symbolic DLLP's mnemonic, as dllp_mnemonic_lookup() found it. */
struct dllp_mnemonic {
	const char *name; /* as the table spells it, for messages */
	enum dllp_type type;
	enum fc_class cls;
	const struct form *form;
};

/* ------------------------------------------------------------------ */
/* Parsing one line */

/* The keys and keywords of a line, with the column each came from so
 * conflicts can point at the later one. */
struct fields {
	uint64_t val[KEY_COUNT];
	unsigned col[KEY_COUNT]; /* 0: not given */
	unsigned given; /* BIT(key) of the keys given */
	unsigned word_col[WORD_COUNT];
};

struct parse {
	struct lexer lx;
	struct reader_malformed *bad;
	uint8_t *buf; /* TLP_MAX_RECORD_LEN bytes */
	uint64_t time_ps;
	enum link_dir dir;
	enum rec_kind kind;
	uint8_t flags;
	uint32_t len;
	struct fields f;
};

static bool fail(struct parse *p, unsigned col, const char *fmt, ...) PRINTF_LIKE(3, 4);

static bool fail(struct parse *p, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->bad->reason, sizeof(p->bad->reason), fmt, ap);
	va_end(ap);
	p->bad->column = col;
	return false;
}

static bool has(const struct fields *f, enum key_id k)
{
	return f->col[k] != 0;
}

static bool has_word(const struct fields *f, enum word_id w)
{
	return f->word_col[w] != 0;
}

/* The rule of form for the key named s[0..len), NULL when the form has
 * no such key: only the form's few keys are compared. */
static const struct key_rule *form_rule(const struct form *form, const char *s, size_t len)
{
	for (unsigned i = 0; i < form->nrules; i++) {
		if (name_eq(s, len, &key_names[form->rules[i].key]))
			return &form->rules[i];
	}
	return NULL;
}

static int word_lookup(const struct token *t)
{
	for (int w = 0; w < WORD_COUNT; w++) {
		if (name_eq(t->s, t->len, &word_names[w]))
			return w;
	}
	return -1;
}

/* A key=value token; what names the packet for messages. */
static bool parse_key(struct parse *p, const struct form *form, const char *what,
                      const struct token *t, const char *eq)
{
	char q1[QUOTE_BUF], q2[QUOTE_BUF];
	size_t klen = (size_t)(eq - t->s);
	const char *v = eq + 1;
	size_t vlen = t->len - klen - 1;
	const struct key_rule *rule = form_rule(form, t->s, klen);
	uint64_t val;
	bool too_big;

	if (rule == NULL)
		return fail(p, t->col, "unknown key '%s' for %s", text_quote(q1, t->s, klen), what);
	enum key_id k = (enum key_id)rule->key;
	if (p->f.col[k] != 0)
		return fail(p, t->col, "duplicate key '%s'", key_names[k].s);
	if (vlen == 0)
		return fail(p, t->col, "missing value for '%s'", key_names[k].s);
	if (rule->names && rule->names(v, vlen, &val)) {
		too_big = false; /* a name's value is in range */
	} else if (!number_parse_u64(v, vlen, rule->hex, &val, &too_big)) {
		if (rule->names)
			return fail(p, t->col, "%s='%s': not %s or a number", key_names[k].s,
			            text_quote(q2, v, vlen), rule->names_what);
		return fail(p, t->col, "%s='%s': not a %s number", key_names[k].s,
		            text_quote(q2, v, vlen), rule->hex ? "hex" : "decimal or 0x hex");
	}
	if (too_big || val < rule->min || val > rule->max) {
		if (rule->hex)
			return fail(p, t->col, "%s=%s out of range 0x%" PRIx64 "..0x%" PRIx64,
			            key_names[k].s, text_quote(q2, v, vlen), rule->min, rule->max);
		return fail(p, t->col, "%s=%s out of range %" PRIu64 "..%" PRIu64, key_names[k].s,
		            text_quote(q2, v, vlen), rule->min, rule->max);
	}
	p->f.val[k] = val;
	p->f.col[k] = t->col;
	p->f.given |= BIT(k);
	return true;
}

/* A keyword token (no '='). */
static bool parse_word(struct parse *p, const struct form *form, const char *what,
                       const struct token *t)
{
	char q[QUOTE_BUF];
	int w = word_lookup(t);

	if (w < 0 || !(form->words & BIT(w)))
		return fail(p, t->col, "unexpected '%s' after %s", text_quote(q, t->s, t->len),
		            what);
	if (p->f.word_col[w] != 0)
		return fail(p, t->col, "duplicate '%s'", word_names[w].s);
	p->f.word_col[w] = t->col;
	return true;
}

/* Reads the rest of the line as keys and keywords of form, then checks
 * the required keys; a missing one is blamed on the mnemonic at col. */
static bool parse_fields(struct parse *p, const struct form *form, const char *what, unsigned col)
{
	struct token t;

	while (lex_next(&p->lx, &t)) {
		const char *eq = memchr(t.s, '=', t.len);
		bool ok = eq ? parse_key(p, form, what, &t, eq) : parse_word(p, form, what, &t);

		if (!ok)
			return false;
	}
	unsigned missing = form->required & ~p->f.given;
	if (missing != 0) /* the first in key order, as the message names one */
		return fail(p, col, "missing key '%s' for %s", key_names[__builtin_ctz(missing)].s,
		            what);
	return true;
}

/* Two options that cannot go together: blame the one written later. */
static bool conflict(struct parse *p, unsigned col_a, const char *a, unsigned col_b, const char *b)
{
	if (col_a == 0 || col_b == 0)
		return true;
	return fail(p, col_a > col_b ? col_a : col_b, "'%s' and '%s' cannot be used together", a,
	            b);
}

/* ---- TIME ---- */

/* The digits of a time: integer part and fraction, located in the token. */
struct time_digits {
	const char *int_s;
	size_t int_len;
	const char *frac_s;
	size_t frac_len;
	size_t used; /* bytes of the token they take */
};

static bool split_time(struct parse *p, const struct token *t, struct time_digits *d)
{
	char q[QUOTE_BUF];
	size_t i = 0;

	while (i < t->len && is_digit(t->s[i]))
		i++;
	d->int_s = t->s;
	d->int_len = i;
	d->frac_s = NULL;
	d->frac_len = 0;
	if (i == 0)
		return fail(p, t->col, "time '%s': not a non-negative decimal number",
		            text_quote(q, t->s, t->len));
	if (i < t->len && t->s[i] == '.') {
		size_t f = ++i;

		while (i < t->len && is_digit(t->s[i]))
			i++;
		if (i == f)
			return fail(p, t->col, "time '%s': no digits after '.'",
			            text_quote(q, t->s, t->len));
		d->frac_s = t->s + f;
		d->frac_len = i - f;
	}
	d->used = i;
	return true;
}

/* Exact integer conversion: int * unit + fraction scaled to ps. */
static bool time_to_ps(struct parse *p, const struct token *t, const struct time_digits *d,
                       const struct time_unit *u)
{
	char q[QUOTE_BUF];

	switch (time_unit_to_ps(d->int_s, d->int_len, d->frac_s, d->frac_len, u, &p->time_ps)) {
	case TIME_OK:
		return true;
	case TIME_FINER_THAN_PS:
		return fail(p, t->col, "time '%s': finer than 1 ps", text_quote(q, t->s, t->len));
	case TIME_TOO_BIG:
		break;
	}
	return fail(p, t->col, "time '%s': over 2^63-1 ps", text_quote(q, t->s, t->len));
}

static bool parse_time(struct parse *p)
{
	char q1[QUOTE_BUF], q2[QUOTE_BUF];
	struct token t, unit_tok;
	struct time_digits d = { 0 };
	const struct time_unit *u = &time_units[TIME_UNIT_NS]; /* no unit: ns */
	const struct time_unit *word_unit;

	if (!lex_next(&p->lx, &t))
		return fail(p, 1, "missing time");
	if (!split_time(p, &t, &d))
		return false;
	if (d.used < t.len) {
		u = time_unit_find(t.s + d.used, t.len - d.used);
		if (u == NULL)
			return fail(p, t.col, "time '%s': unknown unit '%s'",
			            text_quote(q1, t.s, t.len),
			            text_quote(q2, t.s + d.used, t.len - d.used));
	} else {
		/* "10 ns": a unit word may follow; otherwise put it back. */
		size_t save = p->lx.pos;

		if (lex_next(&p->lx, &unit_tok) &&
		    (word_unit = time_unit_find(unit_tok.s, unit_tok.len)) != NULL)
			u = word_unit;
		else
			p->lx.pos = save;
	}
	return time_to_ps(p, &t, &d, u);
}

/* ---- DIR [link=N] ---- */

static bool parse_dir(struct parse *p)
{
	char q[QUOTE_BUF];
	struct token t;

	if (!lex_next(&p->lx, &t))
		return fail(p, lex_end_col(&p->lx), "missing direction");
	if (word_eq(t.s, t.len, "down"))
		p->dir = DIR_DOWN;
	else if (word_eq(t.s, t.len, "up"))
		p->dir = DIR_UP;
	else
		return fail(p, t.col, "expected direction 'down' or 'up', got '%s'",
		            text_quote(q, t.s, t.len));
	/* a line that fails later still says who sent it */
	p->bad->has_dir = true;
	p->bad->dir = p->dir;
	return true;
}

/* An optional link=N before KIND; returns the KIND token in *kind. */
static bool parse_link_and_kind(struct parse *p, struct token *kind)
{
	if (!lex_next(&p->lx, kind))
		return fail(p, lex_end_col(&p->lx), "missing record kind");
	/* A loop, so a second link= is reported as a duplicate. */
	while (kind->len >= 5 && word_eq(kind->s, 5, "link=")) {
		if (!parse_key(p, &form_event, "the direction", kind, kind->s + 4))
			return false;
		if (!lex_next(&p->lx, kind))
			return fail(p, lex_end_col(&p->lx), "missing record kind");
	}
	return true;
}

/* ---- hex bytes ---- */

/* Reads the rest of the line, from first (a token), as hex digits ('_'
 * and blanks between them ignored) into p->buf, storing at most cap bytes
 * but counting them all so the message can say how many there were. */
static bool parse_hex(struct parse *p, const char *what, const struct token *first, size_t cap,
                      size_t *count)
{
	char q[QUOTE_BUF];
	size_t n = 0, digits = 0;
	unsigned acc = 0;
	const char *line = p->lx.line;
	size_t end = p->lx.end;

	for (size_t i = first->col - 1u; i < end; i++) {
		char c = line[i];
		int v = ascii_hex_value(c);

		/* the common case: two digits that make one byte */
		if (v >= 0 && digits % 2 == 0 && i + 1 < end) {
			int lo = ascii_hex_value(line[i + 1]);

			if (lo >= 0) {
				if (n < cap)
					p->buf[n] = (uint8_t)((unsigned)v << 4 | (unsigned)lo);
				n++;
				digits += 2;
				i++;
				continue;
			}
		}
		if (v < 0) {
			if (c == '_' || is_space(c))
				continue;
			return fail(p, (unsigned)i + 1, "bad hex digit '%s' in %s bytes",
			            text_quote(q, &line[i], 1), what);
		}
		acc = acc << 4 | (unsigned)v;
		if (++digits % 2 == 0) {
			if (n < cap)
				p->buf[n] = (uint8_t)acc;
			n++;
			acc = 0;
		}
	}
	p->lx.pos = p->lx.end;
	if (digits % 2 != 0)
		return fail(p, first->col, "odd number of hex digits (%zu)", digits);
	*count = n;
	return true;
}

static bool parse_dllp_hex(struct parse *p)
{
	struct token first;
	size_t n;

	if (!lex_next(&p->lx, &first))
		return fail(p, lex_end_col(&p->lx), "missing DLLP bytes");
	if (!parse_hex(p, "DLLP", &first, DLLP_WIRE_LEN, &n))
		return false;
	if (n != DLLP_WIRE_LEN && n != DLLP_CONTENT_LEN)
		return fail(p, first.col,
		            "hex byte count %zu: a DLLP is 6 bytes (or 4 without CRC)", n);
	p->kind = REC_DLLP;
	p->len = (uint32_t)n;
	if (n == DLLP_CONTENT_LEN)
		p->flags |= REC_F_NO_CRC;
	return true;
}

static bool parse_tlp_hex(struct parse *p, const struct token *first)
{
	size_t n;

	if (has_word(&p->f, WORD_NULLIFIED))
		return fail(p, p->f.word_col[WORD_NULLIFIED],
		            "'nullified' needs a symbolic TLP: "
		            "write the LCRC bytes instead");
	if (!parse_hex(p, "TLP", first, TLP_MAX_RECORD_LEN, &n))
		return false;
	if (n > TLP_MAX_RECORD_LEN)
		return fail(p, first->col, "hex byte count %zu: a TLP record is at most %u bytes",
		            n, (unsigned)TLP_MAX_RECORD_LEN);
	p->kind = REC_TLP;
	p->len = (uint32_t)n;
	p->flags |= (has_word(&p->f, WORD_NOCRC) ? REC_F_NO_CRC : 0) |
	            (has_word(&p->f, WORD_NOSEQ) ? REC_F_NO_SEQ : 0);
	return true;
}

/* ---- symbolic DLLP ---- */

/* The keys into the builder's fields (read/packet_build.h), which takes
 * those of the kind: data= is DataFC of an FC DLLP and the content of
 * a Vendor one. */
static bool parse_dllp_sym(struct parse *p, const struct dllp_mnemonic *m, unsigned col)
{
	const struct fields *f = &p->f;
	struct packet_dllp b;

	if (!parse_fields(p, m->form, m->name, col))
		return false;
	if (!conflict(p, f->col[KEY_CRC], "crc=", f->word_col[WORD_NOCRC], "nocrc"))
		return false;
	b.type = m->type;
	b.cls = m->cls;
	b.vc = (unsigned)f->val[KEY_VC];
	b.hdr_fc = (unsigned)f->val[KEY_HDR];
	b.data_fc = (unsigned)f->val[KEY_DATA];
	b.hdr_scale = (unsigned)f->val[KEY_HDRSCALE];
	b.data_scale = (unsigned)f->val[KEY_DATASCALE];
	b.seq = (unsigned)f->val[KEY_SEQ];
	b.feature_ack = f->val[KEY_ACK] != 0;
	b.feature_bits = (uint32_t)f->val[KEY_BITS];
	b.vendor_data = (uint32_t)f->val[KEY_DATA];
	b.type_byte = 0; /* every kind of the text form has its code */
	b.crc = has_word(f, WORD_NOCRC) ? PACKET_CRC_NONE
	        : has(f, KEY_CRC)       ? PACKET_CRC_FORCED
	                                : PACKET_CRC_GOOD;
	b.crc_field = (uint16_t)f->val[KEY_CRC];
	p->kind = REC_DLLP;
	p->len = packet_build_dllp(&b, p->buf, &p->flags);
	return true;
}

/* ---- TLP: keywords, then a mnemonic or hex ---- */

static bool check_tlp_fields(struct parse *p, enum tlp_kind kind, const char *what, unsigned col)
{
	const struct fields *f = &p->f;
	unsigned nocrc = f->word_col[WORD_NOCRC];
	unsigned nullified = f->word_col[WORD_NULLIFIED];
	unsigned lcrc = f->col[KEY_LCRC];

	if (!conflict(p, f->col[KEY_SEQ], "seq=", f->word_col[WORD_NOSEQ], "noseq") ||
	    !conflict(p, lcrc, "lcrc=", nocrc, "nocrc") ||
	    !conflict(p, lcrc, "lcrc=", nullified, "nullified") ||
	    !conflict(p, nocrc, "nocrc", nullified, "nullified"))
		return false;
	if (!has(f, KEY_SEQ) && !has_word(f, WORD_NOSEQ))
		return fail(p, col, "missing key 'seq' for %s", what);
	if (!has(f, KEY_LEN) && !packet_tlp_length_optional(kind))
		return fail(p, col, "missing key 'len' for %s", what);
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
		return fail(p, f->col[first], "'%s=' is for %s, not %s", key_names[first].s,
		            key_where(first), what);
	}
	if (has(f, KEY_LBE) && !has(f, KEY_FBE))
		return fail(p, f->col[KEY_LBE], "'lbe=' needs 'fbe=' (give both, or fbe= alone)");
	/* A 3 DW header holds a 32-bit address [spec-digest 4.1]. */
	if (has(f, KEY_ADDR) && !addr64 && f->val[KEY_ADDR] > 0xFFFFFFFFu)
		return fail(p, f->col[KEY_ADDR],
		            "addr=0x%" PRIX64
		            " out of range 0x0..0xffffffff: %s has a 32-bit address",
		            f->val[KEY_ADDR], what);
	/* Address[1:0] are not in the header: the byte enables say which
	 * bytes of the first DW.  An address that is not a DW's is refused
	 * rather than rounded, so a line means what it says. */
	if (has(f, KEY_ADDR) && (f->val[KEY_ADDR] & 3u) != 0)
		return fail(p, f->col[KEY_ADDR],
		            "addr=0x%" PRIX64 ": bits 1:0 must be 0 (a DW address; fbe= gives "
		            "the bytes)",
		            f->val[KEY_ADDR]);
	if (has(f, KEY_REG) && (f->val[KEY_REG] & 3u) != 0)
		return fail(p, f->col[KEY_REG],
		            "reg=%" PRIu64 ": not a multiple of 4 (a register is a DW; fbe= gives "
		            "the bytes)",
		            f->val[KEY_REG]);
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
		h->address = f->val[KEY_ADDR];
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
	if (!parse_fields(p, &form_tlp, what, mn->col) ||
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
		return fail(p, mn->col, "%s cannot be encoded with these fields", what);
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

static bool parse_tlp(struct parse *p)
{
	static const struct form prefix_words =
	        FORM(event_rules, 0, BIT(WORD_NOCRC) | BIT(WORD_NOSEQ) | BIT(WORD_NULLIFIED));
	char q[QUOTE_BUF];
	struct token t;
	enum tlp_kind kind;
	bool addr64;

	for (;;) {
		if (!lex_next(&p->lx, &t))
			return fail(p, lex_end_col(&p->lx), "missing TLP bytes or mnemonic");
		if (word_lookup(&t) < 0)
			break;
		if (!parse_word(p, &prefix_words, "TLP", &t))
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
		return fail(p, t.col, "unknown TLP mnemonic '%s'", text_quote(q, t.s, t.len));
	return parse_tlp_hex(p, &t);
}

/* ---- EVENT ---- */

static bool parse_event(struct parse *p)
{
	char q[QUOTE_BUF], name[24];
	struct token t;
	unsigned code = 0;

	if (!lex_next(&p->lx, &t))
		return fail(p, lex_end_col(&p->lx), "missing event name");
	/* link_event_from_name() knows the canonical spelling only. */
	if (t.len < sizeof(name)) {
		for (size_t i = 0; i < t.len; i++)
			name[i] = fold(t.s[i]);
		code = link_event_from_name(name, t.len);
	}
	if (code == 0)
		return fail(p, t.col, "unknown event '%s'", text_quote(q, t.s, t.len));
	if (!parse_fields(p, code == EV_VC_ENABLE ? &form_event_vc : &form_event,
	                  link_event_name(code), t.col))
		return false;
	p->kind = REC_EVENT;
	p->len = packet_build_event(code, (unsigned)p->f.val[KEY_VC], p->buf);
	return true;
}

/* ---- the line ---- */

static bool parse_kind(struct parse *p)
{
	char q[QUOTE_BUF];
	struct token t;
	struct dllp_mnemonic m;

	if (!parse_link_and_kind(p, &t))
		return false;
	static const struct name dllp_word = NAME("DLLP"), tlp_word = NAME("TLP"),
	                         event_word = NAME("EVENT");

	if (name_eq(t.s, t.len, &tlp_word))
		return parse_tlp(p);
	if (name_eq(t.s, t.len, &dllp_word))
		return parse_dllp_hex(p);
	if (name_eq(t.s, t.len, &event_word))
		return parse_event(p);
	m.name = dllp_mnemonic_lookup(t.s, t.len, &m.type, &m.cls);
	m.form = m.name ? dllp_form(m.type) : NULL;
	if (m.form == NULL)
		return fail(p, t.col, "unknown DLLP mnemonic '%s'", text_quote(q, t.s, t.len));
	return parse_dllp_sym(p, &m, t.col);
}

static bool parse_line(struct parse *p)
{
	return parse_time(p) && parse_dir(p) && parse_kind(p);
}

/* ------------------------------------------------------------------ */
/* The entry point */

bool text_parse_line(const char *line, size_t end, uint8_t *buf, struct record *rec,
                     struct reader_malformed *bad)
{
	struct parse p;

	memset(&p, 0, sizeof(p));
	p.lx.line = line;
	p.lx.end = end;
	p.bad = bad;
	p.buf = buf;
	if (!parse_line(&p)) {
		bad->kind = (uint8_t)p.kind;
		return false;
	}
	rec->time_ps = p.time_ps;
	rec->kind = p.kind;
	rec->dir = p.dir;
	rec->link = (uint8_t)p.f.val[KEY_LINK];
	rec->flags = p.flags;
	rec->bytes = buf;
	rec->len = p.len;
	rec->wire_len = p.len;
	return true;
}
