/* vcd_scan.c: the VCD value changes (vcd_next): time steps, scalar and
 * vector changes of the watched variables, $dumpoff and the sections.
 * specification: IEEE 1364-2005 clause 18.2; capture-format.md section 4
 * "Input"; the interface is vcd_parse.h, the shared internals
 * vcd_internal.h.
 *
 * The value changes that follow the declarations are
 *
 *   #1000          a time step, in timescale units
 *   1!  0"  x#  z$ a scalar change: the value, then the identifier code
 *   b0101x  %      a vector change: b, the bits (MSB first), a blank, the code
 *   r1.5 &  sTEXT ' a real or string change: skipped
 *   $dumpvars $dumpall $dumpon $dumpoff ... $end, $comment ... $end
 *
 * Speed: a vector's code is found in place first (peek_code), so that
 * the bits of an unwatched change are never parsed, and eight '0'/'1'
 * characters are read at a time (parse_bits, tested against the plain
 * parser by vcd_bits_agree).
 *
 * Readings of the standard chosen here (each never reports what the
 * trace cannot prove, and each is said in dllpcheck-capture(5)):
 * - A vector value and its identifier code must be on one line: a value
 *   whose code is not on its line (a file cut there, or hand editing) is
 *   VCD_BAD, and the next word is read afresh (a "#time" is not taken as
 *   the code of the value before it).
 * - A time that goes backwards is VCD_BAD and the time stays where it was:
 *   the changes after it are taken at the latest time seen, in file order
 *   (a new time step, VCD_TIME, at the same time).  The changes keep their
 *   order, and a record can never be dated before one read earlier, so no
 *   negative gap or inflated interval reaches the timing rules.  An equal
 *   time is a new step at that time, silently (some writers repeat it).
 * - A timescale below 1 ps (1, 10 or 100 fs): times are converted to whole
 *   picoseconds, fractions truncated (the record time unit is 1 ps).
 * - Bit values other than 0 1 x z: u w - (VHDL) are unknown like x; l and
 *   h are taken as 0 and 1.  A vector with fewer bits than its variable
 *   is extended as IEEE 1364 18.2.1 says (0 or 1 leftmost: zeros; x or z:
 *   x or z); more significant bits than the variable has is VCD_BAD.
 * - A change of a variable that is not watched is skipped unread: only
 *   its identifier code is looked at (and that it has one on its line).
 * - $dumpoff: every watched variable becomes x at once (its $end-closed
 *   list of x values follows in the file and is read as usual).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/vcd_internal.h"

/* The bit values, plus one: 1 = 0 (also l, L: weak 0), 2 = 1 (h, H),
 * 3 = unknown (x, z and the VHDL u, w, -); 0 = no bit value. */
static const uint8_t bit_class[256] = {
	['0'] = 1, ['l'] = 1, ['L'] = 1, ['1'] = 2, ['h'] = 2, ['H'] = 2, ['x'] = 3, ['X'] = 3,
	['z'] = 3, ['Z'] = 3, ['u'] = 3, ['U'] = 3, ['w'] = 3, ['W'] = 3, ['-'] = 3,
};

struct bits {
	uint64_t value, unknown;
	size_t digits;
	bool lost; /* a significant bit above bit 63 */
	bool first_unknown; /* the leftmost bit was x/z */
	int bad; /* index of a character that is no bit value, or -1 */
};

/* Eight '0'/'1' characters (the first the most significant) as a byte:
 * the low bit of each character gathered by one multiplication; false
 * when one of them is something else. */
static bool eight_bits(const char *s, unsigned *byte)
{
	uint64_t w;
	memcpy(&w, s, 8);
	if ((w & 0xFEFEFEFEFEFEFEFEull) != 0x3030303030303030ull)
		return false;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	*byte = (unsigned)(((w & 0x0101010101010101ull) * 0x8040201008040201ull) >> 56);
	return true;
#else
	return false;
#endif
}

/* A vector's bits, one character at a time: the reference. */
static void parse_bits_plain(const char *s, size_t n, struct bits *b)
{
	b->value = b->unknown = 0;
	b->digits = n;
	b->lost = false;
	b->bad = -1;
	b->first_unknown = n > 0 && bit_class[(unsigned char)s[0]] == 3;
	for (size_t i = 0; i < n; i++) {
		unsigned c = bit_class[(unsigned char)s[i]];
		if (c == 0) {
			b->bad = (int)i;
			return;
		}
		c--;
		if ((b->value | b->unknown) >> 63)
			b->lost = true;
		b->value = b->value << 1 | (c & 1u);
		b->unknown = b->unknown << 1 | (c >> 1);
	}
}

/* parse_bits_plain() eight characters at a time where they are all 0 or
 * 1 (the usual PIPE word); the same result, tested against it
 * (vcd_bits_agree). */
static void parse_bits(const char *s, size_t n, struct bits *b)
{
	size_t i = 0;
	b->value = b->unknown = 0;
	while (n - i >= 8) {
		unsigned byte;
		if (!eight_bits(s + i, &byte) || ((b->value | b->unknown) >> 56))
			break;
		b->value = b->value << 8 | byte;
		b->unknown <<= 8;
		i += 8;
	}
	if (i == 0) {
		parse_bits_plain(s, n, b);
		return;
	}
	/* the rest one at a time, from where the words stopped */
	struct bits rest;
	parse_bits_plain(s + i, n - i, &rest);
	b->digits = n;
	b->first_unknown = false; /* the first eight were 0/1 */
	b->bad = rest.bad < 0 ? -1 : rest.bad + (int)i;
	b->lost = rest.lost;
	size_t k = n - i;
	if (k >= 64) {
		b->lost |= (b->value | b->unknown) != 0;
		b->value = rest.value;
		b->unknown = rest.unknown;
	} else if (k > 0) {
		if ((b->value | b->unknown) >> (64 - k))
			b->lost = true;
		b->value = b->value << k | rest.value;
		b->unknown = b->unknown << k | rest.unknown;
	}
}

bool vcd_bits_agree(const char *s, size_t n)
{
	struct bits a, b;
	parse_bits(s, n, &a);
	parse_bits_plain(s, n, &b);
	if (a.bad != b.bad || a.digits != b.digits)
		return false;
	if (a.bad >= 0)
		return true; /* the value is not used */
	return a.value == b.value && a.unknown == b.unknown && a.lost == b.lost &&
	       a.first_unknown == b.first_unknown;
}

/* The bits as the width-bit variable's value (IEEE 1364 18.2.1: a
 * shorter value is extended with 0, or with x/z when its leftmost bit is
 * x/z); false when it has more significant bits than the variable. */
static bool fit_bits(struct bits *b, unsigned width)
{
	uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
	if (b->lost || ((b->value | b->unknown) & ~mask))
		return false;
	if (b->digits < width && b->first_unknown) {
		uint64_t low = b->digits >= 64 ? ~0ull : (1ull << b->digits) - 1;
		b->unknown |= mask & ~low;
	}
	return true;
}

static enum vcd_event bad(struct vcd_parser *p, const struct tok *t, struct vcd_error *err,
                          const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static enum vcd_event bad(struct vcd_parser *p, const struct tok *t, struct vcd_error *err,
                          const char *fmt, ...)
{
	va_list ap;
	p->ev_line = t->line;
	p->ev_off = t->off;
	err->line = t->line;
	err->byte_offset = t->off;
	va_start(ap, fmt);
	vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
	va_end(ap);
	return VCD_BAD;
}

/* The first slot of watch w gets the change; the others follow from
 * vcd_next's pending list. */
static enum vcd_event deliver(struct vcd_parser *p, const struct watch *w, const struct tok *t,
                              uint64_t value, uint64_t unknown, struct vcd_change *ch)
{
	p->pend.value = value;
	p->pend.unknown = unknown;
	p->pend.line = t->line;
	p->pend.byte_offset = t->off;
	p->ev_line = t->line;
	p->ev_off = t->off;
	*ch = p->pend;
	ch->slot = p->slots[w->first].slot;
	p->pend_next = p->slots[w->first].next;
	return VCD_CHANGE;
}

/* Skips to the $end of a section in the value changes; false at the end
 * of the input. */
static bool skip_section(struct vcd_parser *p)
{
	struct tok t;
	for (;;) {
		enum tok_status st = vcd_next_token(p, &t);
		if (st == TOK_EOF)
			return false;
		if (st == TOK_OK && t.len >= 4 && memcmp(t.s + t.len - 4, "$end", 4) == 0)
			return true;
	}
}

/* The code after a vector value when the buffer holds it whole on the
 * value's line (the usual case): found in place, without a refill, so
 * that the value's bits are parsed only for a watched code.  False: the
 * slow way (value_code) decides. */
static bool peek_code(struct vcd_parser *p, struct tok *code)
{
	char *c = p->cur;
	while (c < p->end && (*c == ' ' || *c == '\t'))
		c++;
	if (c >= p->end || (unsigned char)*c <= ' ')
		return false;
	char *s = c;
	while ((unsigned char)*c > ' ')
		c++;
	if (c >= p->end || !is_blank((unsigned char)*c))
		return false;
	code->s = s;
	code->len = (size_t)(c - s);
	code->line = p->line;
	code->off = p->line_off;
	p->cur = c;
	return true;
}

/* The word after a vector, real or string value: its identifier code,
 * which must be on the same line.  False (the word put back) when not. */
static bool value_code(struct vcd_parser *p, const struct tok *value, struct tok *code)
{
	enum tok_status st = vcd_next_token(p, code);
	if (st == TOK_EOF)
		return false;
	if (st == TOK_LONG || code->line != value->line) {
		if (st == TOK_OK) {
			p->pushback = *code;
			p->have_pushback = true;
		}
		return false;
	}
	return true;
}

static enum vcd_event time_step(struct vcd_parser *p, const struct tok *t, uint64_t *time_ps,
                                struct vcd_error *err)
{
	char q[48];
	uint64_t v = 0;
	if (t->len < 2)
		return bad(p, t, err, "'#' without a time");
	for (size_t i = 1; i < t->len; i++) {
		unsigned d = (unsigned)(unsigned char)t->s[i] - '0';
		if (d > 9)
			return bad(p, t, err, "'%s' is not a time step (#N)",
			           vcd_tok_text(t, q, sizeof(q)));
		if (v > (UINT64_MAX - d) / 10)
			return bad(p, t, err, "time %s does not fit 64 bits",
			           vcd_tok_text(t, q, sizeof(q)));
		v = v * 10 + d;
	}
	uint64_t ps;
	if (p->ts_fs >= 1000) {
		uint64_t unit = p->ts_fs / 1000;
		if (v > (INT64_MAX / unit))
			return bad(p, t, err, "time %s is 2^63 ps or more",
			           vcd_tok_text(t, q, sizeof(q)));
		ps = v * unit;
	} else {
		ps = v / (1000 / p->ts_fs); /* below 1 ps: fractions truncated */
	}
	p->ev_line = t->line;
	p->ev_off = t->off;
	if (ps < p->time_ps) {
		/* backwards: a new step at the latest time (file comment) */
		unsigned long long was = (unsigned long long)p->time_ps;
		p->time_pending = true;
		return bad(p, t, err,
		           "time goes backwards (%s is %llu ps, after %llu ps): the changes that "
		           "follow are taken at %llu ps",
		           vcd_tok_text(t, q, sizeof(q)), (unsigned long long)ps, was, was);
	}
	p->time_ps = ps;
	*time_ps = ps;
	return VCD_TIME;
}

/* $dumpoff: x on every watched slot, one at a time. */
static bool dumpoff_next(struct vcd_parser *p, struct vcd_change *ch)
{
	while (p->dumpoff_entry < p->wt_cap) {
		struct watch *w = &p->wt[p->dumpoff_entry];
		if (w->id == (size_t)-1) {
			p->dumpoff_entry++;
			continue;
		}
		int s = p->dumpoff_slot < 0 ? w->first : p->dumpoff_slot;
		if (s < 0) {
			p->dumpoff_entry++;
			p->dumpoff_slot = -1;
			continue;
		}
		ch->slot = p->slots[s].slot;
		ch->value = 0;
		ch->unknown = w->width >= 64 ? ~0ull : (1ull << w->width) - 1;
		ch->line = p->ev_line;
		ch->byte_offset = p->ev_off;
		p->dumpoff_slot = p->slots[s].next;
		if (p->dumpoff_slot < 0) {
			p->dumpoff_entry++;
			p->dumpoff_slot = -1;
		}
		return true;
	}
	p->dumpoff = false;
	return false;
}

enum vcd_event vcd_next(struct vcd_parser *p, uint64_t *time_ps, struct vcd_change *ch,
                        struct vcd_error *err)
{
	struct tok t, code;
	char q[48];

	if (p->pend_next >= 0) {
		*ch = p->pend;
		ch->slot = p->slots[p->pend_next].slot;
		p->pend_next = p->slots[p->pend_next].next;
		return VCD_CHANGE;
	}
	if (p->time_pending) {
		p->time_pending = false;
		*time_ps = p->time_ps;
		return VCD_TIME;
	}
	if (p->dumpoff && dumpoff_next(p, ch))
		return VCD_CHANGE;
	for (;;) {
		enum tok_status st = vcd_next_token(p, &t);
		if (st == TOK_EOF) {
			if (p->read_error) {
				vcd_set_err(err, p->line, p->line_off, "read error: %s",
				            strerror(p->read_errno));
				return VCD_FATAL;
			}
			return VCD_EOF;
		}
		if (st == TOK_LONG)
			return bad(p, &t, err, "a word longer than %u bytes: skipped", VCD_BUF);
		switch (t.s[0]) {
		case '#':
			return time_step(p, &t, time_ps, err);
		case '0':
		case '1':
		case 'x':
		case 'X':
		case 'z':
		case 'Z':
		case 'u':
		case 'U':
		case 'w':
		case 'W':
		case 'l':
		case 'L':
		case 'h':
		case 'H':
		case '-': {
			if (t.len < 2)
				return bad(p, &t, err,
				           "scalar value '%c' without an identifier code", t.s[0]);
			const struct watch *w = vcd_watched(p, t.s + 1, t.len - 1);
			if (!w)
				continue;
			struct bits b;
			parse_bits(t.s, 1, &b);
			fit_bits(&b, w->width);
			return deliver(p, w, &t, b.value, b.unknown, ch);
		}
		case 'b':
		case 'B': {
			struct bits b;
			struct tok val = t;
			if (t.len >= 2 && peek_code(p, &code)) {
				/* fast: the code first; an unwatched change is not read */
				const struct watch *w = vcd_watched(p, code.s, code.len);
				if (!w)
					continue;
				parse_bits(t.s + 1, t.len - 1, &b);
				if (b.bad < 0) {
					if (!fit_bits(&b, w->width))
						return bad(
						        p, &val, err,
						        "vector value of %zu bits does not fit the "
						        "%u-bit variable '%s'",
						        b.digits, w->width,
						        vcd_tok_text(&code, q, sizeof(q)));
					return deliver(p, w, &val, b.value, b.unknown, ch);
				}
				char vq[48];
				char badc = t.s[1 + b.bad];
				return bad(p, &val, err,
				           "vector value '%s': '%c' is not a bit value (0 1 x z)",
				           vcd_tok_text(&val, vq, sizeof(vq)),
				           (unsigned char)badc >= 0x21 && (unsigned char)badc < 0x7f
				                   ? badc
				                   : '?');
			}
			/* what a message needs of the value: reading its code may
			 * move the buffer under it */
			char vq[48];
			char badc = '?';
			vcd_tok_text(&val, vq, sizeof(vq));
			parse_bits(t.s + 1, t.len - 1, &b);
			if (b.bad >= 0 && (unsigned char)t.s[1 + b.bad] >= 0x21 &&
			    (unsigned char)t.s[1 + b.bad] < 0x7f)
				badc = t.s[1 + b.bad];
			if (!value_code(p, &val, &code))
				return bad(
				        p, &val, err,
				        "vector value '%s' without an identifier code on its line",
				        vq);
			if (val.len < 2)
				return bad(p, &val, err, "vector value 'b' without bits");
			const struct watch *w = vcd_watched(p, code.s, code.len);
			if (!w)
				continue;
			if (b.bad >= 0)
				return bad(p, &val, err,
				           "vector value '%s': '%c' is not a bit value (0 1 x z)",
				           vq, badc);
			if (!fit_bits(&b, w->width))
				return bad(p, &val, err,
				           "vector value of %zu bits does not fit the %u-bit "
				           "variable '%s'",
				           b.digits, w->width, vcd_tok_text(&code, q, sizeof(q)));
			return deliver(p, w, &val, b.value, b.unknown, ch);
		}
		case 'r':
		case 'R':
		case 's':
		case 'S': {
			struct tok val = t;
			const char *kind = t.s[0] == 'r' || t.s[0] == 'R' ? "real" : "string";
			if (!value_code(p, &val, &code))
				return bad(p, &val, err,
				           "%s value without an identifier code on its line", kind);
			continue; /* real and string values: never a lane */
		}
		case '$':
			if (tok_is(&t, "$end") || tok_is(&t, "$dumpvars") ||
			    tok_is(&t, "$dumpall") || tok_is(&t, "$dumpon"))
				continue;
			if (tok_is(&t, "$dumpoff")) {
				p->ev_line = t.line;
				p->ev_off = t.off;
				p->dumpoff = true;
				p->dumpoff_entry = 0;
				p->dumpoff_slot = -1;
				if (dumpoff_next(p, ch))
					return VCD_CHANGE;
				continue;
			}
			if (tok_is(&t, "$comment")) {
				if (!skip_section(p))
					return bad(p, &t, err, "$comment without its $end");
				continue;
			}
			vcd_tok_text(&t, q, sizeof(q));
			if (!skip_section(p))
				return bad(p, &t, err,
				           "'%s' in the value changes, without its $end", q);
			return bad(p, &t, err, "'%s' in the value changes: skipped to its $end", q);
		default:
			return bad(p, &t, err, "'%s' is not a value change",
			           vcd_tok_text(&t, q, sizeof(q)));
		}
	}
}
