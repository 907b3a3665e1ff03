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
#include "read/text_parse_internal.h"
#include "wire/dllp.h"
#include "wire/fc_arith.h"
#include "wire/tlp.h"

/* ------------------------------------------------------------------ */
/* Keys and the forms of symbolic packets */

const struct name text_key_names[KEY_COUNT] = {
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

static const struct name word_names[WORD_COUNT] = {
	[WORD_NOCRC] = NAME("nocrc"),
	[WORD_NOSEQ] = NAME("noseq"),
	[WORD_NULLIFIED] = NAME("nullified"),
};

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

bool text_fail(struct parse *p, unsigned col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->bad->reason, sizeof(p->bad->reason), fmt, ap);
	va_end(ap);
	p->bad->column = col;
	return false;
}

/* The rule of form for the key named s[0..len), NULL when the form has
 * no such key: only the form's few keys are compared. */
static const struct key_rule *form_rule(const struct form *form, const char *s, size_t len)
{
	for (unsigned i = 0; i < form->nrules; i++) {
		if (name_eq(s, len, &text_key_names[form->rules[i].key]))
			return &form->rules[i];
	}
	return NULL;
}

int text_word_lookup(const struct token *t)
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
		return text_fail(p, t->col, "unknown key '%s' for %s", text_quote(q1, t->s, klen),
		                 what);
	enum key_id k = (enum key_id)rule->key;
	if (p->f.col[k] != 0)
		return text_fail(p, t->col, "duplicate key '%s'", text_key_names[k].s);
	if (vlen == 0)
		return text_fail(p, t->col, "missing value for '%s'", text_key_names[k].s);
	if (rule->names && rule->names(v, vlen, &val)) {
		too_big = false; /* a name's value is in range */
	} else if (!number_parse_u64(v, vlen, rule->hex, &val, &too_big)) {
		if (rule->names)
			return text_fail(p, t->col, "%s='%s': not %s or a number",
			                 text_key_names[k].s, text_quote(q2, v, vlen),
			                 rule->names_what);
		return text_fail(p, t->col, "%s='%s': not a %s number", text_key_names[k].s,
		                 text_quote(q2, v, vlen), rule->hex ? "hex" : "decimal or 0x hex");
	}
	if (too_big || val < rule->min || val > rule->max) {
		if (rule->hex)
			return text_fail(p, t->col, "%s=%s out of range 0x%" PRIx64 "..0x%" PRIx64,
			                 text_key_names[k].s, text_quote(q2, v, vlen), rule->min,
			                 rule->max);
		return text_fail(p, t->col, "%s=%s out of range %" PRIu64 "..%" PRIu64,
		                 text_key_names[k].s, text_quote(q2, v, vlen), rule->min,
		                 rule->max);
	}
	if (k == KEY_ADDR)
		p->f.addr = val;
	else
		p->f.val[k] = (uint32_t)val; /* the other keys' max fit 32 bits */
	p->f.col[k] = t->col;
	p->f.given |= BIT(k);
	return true;
}

/* A keyword token (no '='). */
bool text_parse_word(struct parse *p, const struct form *form, const char *what,
                     const struct token *t)
{
	char q[QUOTE_BUF];
	int w = text_word_lookup(t);

	if (w < 0 || !(form->words & BIT(w)))
		return text_fail(p, t->col, "unexpected '%s' after %s", text_quote(q, t->s, t->len),
		                 what);
	if (p->f.word_col[w] != 0)
		return text_fail(p, t->col, "duplicate '%s'", word_names[w].s);
	p->f.word_col[w] = t->col;
	return true;
}

/* Reads the rest of the line as keys and keywords of form, then checks
 * the required keys; a missing one is blamed on the mnemonic at col. */
bool text_parse_fields(struct parse *p, const struct form *form, const char *what, unsigned col)
{
	struct token t;

	while (lex_next(&p->lx, &t)) {
		const char *eq = memchr(t.s, '=', t.len);
		bool ok =
		        eq ? parse_key(p, form, what, &t, eq) : text_parse_word(p, form, what, &t);

		if (!ok)
			return false;
	}
	unsigned missing = form->required & ~p->f.given;
	if (missing != 0) /* the first in key order, as the message names one */
		return text_fail(p, col, "missing key '%s' for %s",
		                 text_key_names[__builtin_ctz(missing)].s, what);
	return true;
}

/* Two options that cannot go together: blame the one written later. */
bool text_conflict(struct parse *p, unsigned col_a, const char *a, unsigned col_b, const char *b)
{
	if (col_a == 0 || col_b == 0)
		return true;
	return text_fail(p, col_a > col_b ? col_a : col_b, "'%s' and '%s' cannot be used together",
	                 a, b);
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
		return text_fail(p, t->col, "time '%s': not a non-negative decimal number",
		                 text_quote(q, t->s, t->len));
	if (i < t->len && t->s[i] == '.') {
		size_t f = ++i;

		while (i < t->len && is_digit(t->s[i]))
			i++;
		if (i == f)
			return text_fail(p, t->col, "time '%s': no digits after '.'",
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
		return text_fail(p, t->col, "time '%s': finer than 1 ps",
		                 text_quote(q, t->s, t->len));
	case TIME_TOO_BIG:
		break;
	}
	return text_fail(p, t->col, "time '%s': over 2^63-1 ps", text_quote(q, t->s, t->len));
}

static bool parse_time(struct parse *p)
{
	char q1[QUOTE_BUF], q2[QUOTE_BUF];
	struct token t, unit_tok;
	struct time_digits d = { 0 };
	const struct time_unit *u = &time_units[TIME_UNIT_NS]; /* no unit: ns */
	const struct time_unit *word_unit;

	if (!lex_next(&p->lx, &t))
		return text_fail(p, 1, "missing time");
	if (!split_time(p, &t, &d))
		return false;
	if (d.used < t.len) {
		u = time_unit_find(t.s + d.used, t.len - d.used);
		if (u == NULL)
			return text_fail(p, t.col, "time '%s': unknown unit '%s'",
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
		return text_fail(p, lex_end_col(&p->lx), "missing direction");
	if (word_eq(t.s, t.len, "down"))
		p->dir = DIR_DOWN;
	else if (word_eq(t.s, t.len, "up"))
		p->dir = DIR_UP;
	else
		return text_fail(p, t.col, "expected direction 'down' or 'up', got '%s'",
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
		return text_fail(p, lex_end_col(&p->lx), "missing record kind");
	/* A loop, so a second link= is reported as a duplicate. */
	while (kind->len >= 5 && word_eq(kind->s, 5, "link=")) {
		if (!parse_key(p, &form_event, "the direction", kind, kind->s + 4))
			return false;
		if (!lex_next(&p->lx, kind))
			return text_fail(p, lex_end_col(&p->lx), "missing record kind");
	}
	return true;
}

/* ---- hex bytes ---- */

/* Reads the rest of the line, from first (a token), as hex digits ('_'
 * and blanks between them ignored) into p->buf, storing at most cap bytes
 * but counting them all so the message can say how many there were. */
bool text_parse_hex(struct parse *p, const char *what, const struct token *first, size_t cap,
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
			return text_fail(p, (unsigned)i + 1, "bad hex digit '%s' in %s bytes",
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
		return text_fail(p, first->col, "odd number of hex digits (%zu)", digits);
	*count = n;
	return true;
}

static bool parse_dllp_hex(struct parse *p)
{
	struct token first;
	size_t n;

	if (!lex_next(&p->lx, &first))
		return text_fail(p, lex_end_col(&p->lx), "missing DLLP bytes");
	if (!text_parse_hex(p, "DLLP", &first, DLLP_WIRE_LEN, &n))
		return false;
	if (n != DLLP_WIRE_LEN && n != DLLP_CONTENT_LEN)
		return text_fail(p, first.col,
		                 "hex byte count %zu: a DLLP is 6 bytes (or 4 without CRC)", n);
	p->kind = REC_DLLP;
	p->len = (uint32_t)n;
	if (n == DLLP_CONTENT_LEN)
		p->flags |= REC_F_NO_CRC;
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

	if (!text_parse_fields(p, m->form, m->name, col))
		return false;
	if (!text_conflict(p, f->col[KEY_CRC], "crc=", f->word_col[WORD_NOCRC], "nocrc"))
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

/* ---- EVENT ---- */

static bool parse_event(struct parse *p)
{
	char q[QUOTE_BUF], name[24];
	struct token t;
	unsigned code = 0;

	if (!lex_next(&p->lx, &t))
		return text_fail(p, lex_end_col(&p->lx), "missing event name");
	/* link_event_from_name() knows the canonical spelling only. */
	if (t.len < sizeof(name)) {
		for (size_t i = 0; i < t.len; i++)
			name[i] = fold(t.s[i]);
		code = link_event_from_name(name, t.len);
	}
	if (code == 0)
		return text_fail(p, t.col, "unknown event '%s'", text_quote(q, t.s, t.len));
	if (!text_parse_fields(p, code == EV_VC_ENABLE ? &form_event_vc : &form_event,
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
		return text_parse_tlp(p);
	if (name_eq(t.s, t.len, &dllp_word))
		return parse_dllp_hex(p);
	if (name_eq(t.s, t.len, &event_word))
		return parse_event(p);
	m.name = dllp_mnemonic_lookup(t.s, t.len, &m.type, &m.cls);
	m.form = m.name ? dllp_form(m.type) : NULL;
	if (m.form == NULL)
		return text_fail(p, t.col, "unknown DLLP mnemonic '%s'", text_quote(q, t.s, t.len));
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
