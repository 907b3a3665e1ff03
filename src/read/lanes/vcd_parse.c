/* vcd_parse.c: a streaming reader of Value Change Dump files.
 * specification: IEEE 1364-2005 clause 18 (four-state VCD);
 * capture-format.md section 4 "Input"; the interface is vcd_parse.h.
 *
 * The file is a sequence of words separated by blanks.  The header is
 *
 *   $timescale 1ns $end              ("1 ns" too; 1, 10 or 100 of s..fs)
 *   $scope module tb $end            (any scope kind; nested)
 *   $var wire 8 # txdata0 [7:0] $end (any kind; the reference optional)
 *   $upscope $end
 *   $comment / $date / $version / any other $word ... $end: skipped
 *   $enddefinitions $end
 *
 * and the value changes that follow are
 *
 *   #1000          a time step, in timescale units
 *   1!  0"  x#  z$ a scalar change: the value, then the identifier code
 *   b0101x  %      a vector change: b, the bits (MSB first), a blank, the code
 *   r1.5 &  sTEXT ' a real or string change: skipped
 *   $dumpvars $dumpall $dumpon $dumpoff ... $end, $comment ... $end
 *
 * Speed: the bytes are read with fread() in blocks of VCD_BUF into one
 * buffer and scanned in place with a NUL sentinel at the end of what was
 * read; a word never leaves the buffer (the unread part moves to its
 * start before each refill).  Only watched identifier codes are looked
 * up: a 256-bit map of their first characters turns away most others
 * before any hashing, and nothing is allocated per change.  Memory is
 * the buffer, the declarations and the watch table: none of it grows
 * with the length of the file.
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
 * - A malformed $var, $scope or $timescale makes the header unreadable
 *   (vcd_read_header false, the line named): every later change depends
 *   on the declarations.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/vcd_parse.h"

#define VCD_BUF (1u << 20) /* bytes read at once; the longest word is one less */
#define VCD_VARS_MAX (1u << 22)
#define VCD_ARENA_MAX (256u << 20)
#define VCD_SLOT_MAX 65536u
#define VCD_SCOPE_MAX 65536u /* bytes of the scope path */

struct tok {
	const char *s;
	size_t len;
	uint64_t line, off;
};

/* During the header the strings live in the arena as offsets (it may
 * move); vcd_var's pointers are set once it stops growing. */
struct var_off {
	size_t path, name, kind, id;
	size_t id_len;
};

struct watch {
	size_t id; /* arena offset; (size_t)-1: empty */
	size_t id_len;
	uint32_t hash;
	unsigned width;
	int first; /* index in slots[] of its first slot */
};

struct wslot {
	unsigned slot;
	int next; /* -1: last */
};

struct vcd_parser {
	FILE *fp;
	const char *file;
	char *buf; /* VCD_BUF + 1 bytes: the sentinel after the last read */
	char *cur, *end;
	uint64_t base; /* file offset of buf[0] */
	bool eof, read_error;
	int read_errno;
	uint64_t line, line_off; /* the line the scan is in, and its start */
	struct tok pushback;
	bool have_pushback;

	struct vcd_var *vars;
	struct var_off *offs;
	size_t nvars, vars_cap;
	char *arena;
	size_t alen, acap;
	char *scope;
	size_t scope_len, scope_cap;
	uint64_t ts_fs;
	bool ts_given;

	struct watch *wt;
	size_t wt_cap, wt_n; /* wt_cap a power of 2 */
	struct wslot *slots;
	size_t nslots, slots_cap;
	uint64_t first_bits[4]; /* first characters of watched codes */

	uint64_t time_ps;
	bool time_pending; /* a VCD_TIME to return after a VCD_BAD */
	uint64_t ev_line, ev_off;
	struct vcd_change pend; /* a change still to deliver to pend_next */
	int pend_next;
	bool dumpoff; /* delivering x to every watched slot */
	size_t dumpoff_entry;
	int dumpoff_slot;
};

/* ------------------------------------------------------------------ */
/* Bytes and words */

static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* Moves buf[keep..end) to the start and reads more after it.  False when
 * nothing more came (end of file or a read error). */
static bool refill(struct vcd_parser *p, char *keep)
{
	size_t have = (size_t)(p->end - keep);
	if (p->eof)
		return false;
	memmove(p->buf, keep, have);
	p->base += (uint64_t)(keep - p->buf);
	p->cur = p->buf + (p->cur - keep);
	size_t n = fread(p->buf + have, 1, VCD_BUF - have, p->fp);
	if (n < VCD_BUF - have) {
		if (ferror(p->fp)) {
			p->read_error = true;
			p->read_errno = errno;
		}
		p->eof = true;
	}
	p->end = p->buf + have + n;
	*p->end = '\0';
	return n > 0;
}

enum tok_status { TOK_OK, TOK_EOF, TOK_LONG };

/* The next word.  TOK_LONG: a word longer than the buffer was skipped
 * (t says where it began); TOK_EOF at the end of the input or on a read
 * error (p->read_error). */
static enum tok_status next_token(struct vcd_parser *p, struct tok *t)
{
	if (p->have_pushback) {
		*t = p->pushback;
		p->have_pushback = false;
		return TOK_OK;
	}
	char *c = p->cur;
	for (;;) {
		unsigned char ch = (unsigned char)*c;
		if (ch > ' ')
			break;
		if (c == p->end) {
			p->cur = c;
			if (!refill(p, c))
				return TOK_EOF;
			c = p->cur;
			continue;
		}
		if (ch == '\n') {
			p->line++;
			p->line_off = p->base + (uint64_t)(c - p->buf) + 1;
		} else if (!is_blank(ch)) {
			break; /* a control character begins a word (a bad one) */
		}
		c++;
	}
	char *s = c;
	t->line = p->line;
	t->off = p->line_off;
	for (;;) {
		while ((unsigned char)*c > ' ')
			c++;
		if (c == p->end) {
			if (p->eof)
				break;
			size_t have = (size_t)(c - s);
			if (s == p->buf && have >= VCD_BUF) {
				/* longer than the buffer: skipped to its end */
				for (;;) {
					p->cur = p->end;
					if (!refill(p, p->end))
						return TOK_LONG;
					c = p->buf;
					while (c < p->end && !is_blank((unsigned char)*c))
						c++;
					if (c < p->end) {
						p->cur = c;
						return TOK_LONG;
					}
				}
			}
			p->cur = s;
			refill(p, s);
			s = p->buf;
			c = s + have;
			continue;
		}
		if (is_blank((unsigned char)*c))
			break;
		c++; /* a control character inside the word */
	}
	t->s = s;
	t->len = (size_t)(c - s);
	p->cur = c;
	return TOK_OK;
}

static bool tok_is(const struct tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->len == n && memcmp(t->s, word, n) == 0;
}

/* A word for a message: at most 40 bytes, the unprintable ones as '?'. */
static const char *tok_text(const struct tok *t, char *out, size_t size)
{
	size_t n = t->len < 40 ? t->len : 40;
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)t->s[i];
		out[i] = c >= 0x21 && c < 0x7f ? (char)c : '?';
	}
	out[n] = '\0';
	if (t->len > n && n >= 3)
		memcpy(out + n - 3, "...", 3);
	return out;
}

static void set_err(struct vcd_error *err, uint64_t line, uint64_t off, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static void set_err(struct vcd_error *err, uint64_t line, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	err->line = line;
	err->byte_offset = off;
	va_start(ap, fmt);
	vsnprintf(err->reason, sizeof(err->reason), fmt, ap);
	va_end(ap);
}

/* ------------------------------------------------------------------ */
/* Setup */

struct vcd_parser *vcd_new(FILE *fp, const char *file)
{
	struct vcd_parser *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->buf = malloc(VCD_BUF + 1);
	if (!p->buf) {
		free(p);
		return NULL;
	}
	p->fp = fp;
	p->file = file;
	p->cur = p->end = p->buf;
	*p->end = '\0';
	p->line = 1;
	p->ts_fs = 1000000; /* 1 ns when the file gives none */
	p->pend_next = -1;
	return p;
}

void vcd_free(struct vcd_parser *p)
{
	if (!p)
		return;
	free(p->buf);
	free(p->vars);
	free(p->offs);
	free(p->arena);
	free(p->scope);
	free(p->wt);
	free(p->slots);
	free(p);
}

/* ------------------------------------------------------------------ */
/* The header */

/* Copies s[0..n) and a NUL into the arena; its offset, or (size_t)-1. */
static size_t arena_put(struct vcd_parser *p, const char *s, size_t n)
{
	if (p->alen + n + 1 > p->acap) {
		size_t cap = p->acap ? p->acap : 65536;
		while (p->alen + n + 1 > cap)
			cap *= 2;
		if (cap > VCD_ARENA_MAX)
			return (size_t)-1;
		char *a = realloc(p->arena, cap);
		if (!a)
			return (size_t)-1;
		p->arena = a;
		p->acap = cap;
	}
	size_t at = p->alen;
	memcpy(p->arena + at, s, n);
	p->arena[at + n] = '\0';
	p->alen += n + 1;
	return at;
}

/* The words of a declaration up to its $end, copied to the arena (the
 * buffer may move under them); false at the end of the input. */
#define DECL_WORDS 8
struct decl {
	size_t off[DECL_WORDS];
	size_t len[DECL_WORDS];
	unsigned n; /* words kept (up to DECL_WORDS) */
	unsigned total; /* words before $end */
};

static bool read_decl(struct vcd_parser *p, struct decl *d, bool keep, bool *arena_full)
{
	struct tok t;
	d->n = d->total = 0;
	for (;;) {
		enum tok_status st = next_token(p, &t);
		if (st == TOK_EOF)
			return false;
		if (st == TOK_LONG)
			continue;
		if (tok_is(&t, "$end"))
			return true;
		/* "... text$end" closes a skipped section too */
		if (!keep && t.len > 4 && memcmp(t.s + t.len - 4, "$end", 4) == 0)
			return true;
		d->total++;
		if (keep && d->n < DECL_WORDS) {
			size_t at = arena_put(p, t.s, t.len);
			if (at == (size_t)-1) {
				*arena_full = true;
				return true;
			}
			d->off[d->n] = at;
			d->len[d->n] = t.len;
			d->n++;
		}
	}
}

static const char *decl_word(const struct vcd_parser *p, const struct decl *d, unsigned i)
{
	return p->arena + d->off[i];
}

/* "1ns", "1 ns", "10 ps", "100fs", ... to femtoseconds. */
static bool parse_timescale(const char *s, uint64_t *fs)
{
	static const struct {
		const char *unit;
		uint64_t fs;
	} units[] = {
		{ "s", 1000000000000000ull }, { "ms", 1000000000000ull }, { "us", 1000000000ull },
		{ "ns", 1000000ull },         { "ps", 1000ull },          { "fs", 1ull }
	};
	uint64_t mult;
	size_t n = strspn(s, "0123456789");
	if (n == 1 && s[0] == '1')
		mult = 1;
	else if (n == 2 && memcmp(s, "10", 2) == 0)
		mult = 10;
	else if (n == 3 && memcmp(s, "100", 3) == 0)
		mult = 100;
	else
		return false;
	s += n;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s, units[i].unit) == 0) {
			*fs = mult * units[i].fs;
			return true;
		}
	}
	return false;
}

/* "[7:0]" or "[3]" (also "[-1:0]") to msb and lsb. */
static bool parse_range(const char *s, size_t n, int *msb, int *lsb)
{
	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return false;
	char tmp[64];
	if (n - 2 >= sizeof(tmp))
		return false;
	memcpy(tmp, s + 1, n - 2);
	tmp[n - 2] = '\0';
	char *end;
	errno = 0;
	long a = strtol(tmp, &end, 10);
	if (end == tmp || errno || a < -1000000000L || a > 1000000000L)
		return false;
	long b = a;
	if (*end == ':') {
		char *b_s = end + 1;
		b = strtol(b_s, &end, 10);
		if (end == b_s || errno || b < -1000000000L || b > 1000000000L)
			return false;
	}
	if (*end != '\0')
		return false;
	*msb = (int)a;
	*lsb = (int)b;
	return true;
}

static unsigned range_span(int msb, int lsb)
{
	long d = (long)msb - (long)lsb;
	return (unsigned)((d < 0 ? -d : d) + 1);
}

static bool add_var(struct vcd_parser *p, const struct decl *d, uint64_t line, uint64_t off,
                    struct vcd_error *err)
{
	if (d->n < 4) {
		set_err(err, line, off,
		        "$var needs a kind, a size, an identifier code and a name (%u words given)",
		        d->total);
		return false;
	}
	const char *size_s = decl_word(p, d, 1);
	char *end;
	errno = 0;
	unsigned long width = strtoul(size_s, &end, 10);
	if (d->len[1] == 0 || *end != '\0' || errno || width == 0 || width > 1u << 24 ||
	    size_s[0] == '-' || size_s[0] == '+') {
		set_err(err, line, off, "$var size '%.40s' is not a number of bits", size_s);
		return false;
	}
	if (p->nvars == p->vars_cap) {
		size_t cap = p->vars_cap ? p->vars_cap * 2 : 256;
		if (cap > VCD_VARS_MAX) {
			set_err(err, line, off, "more than %u $var declarations", VCD_VARS_MAX);
			return false;
		}
		struct vcd_var *v = realloc(p->vars, cap * sizeof(*v));
		if (!v)
			goto oom;
		p->vars = v;
		struct var_off *o = realloc(p->offs, cap * sizeof(*o));
		if (!o)
			goto oom;
		p->offs = o;
		p->vars_cap = cap;
	}
	struct vcd_var *v = &p->vars[p->nvars];
	struct var_off *o = &p->offs[p->nvars];
	memset(v, 0, sizeof(*v));
	v->width = (unsigned)width;
	v->line = line;
	o->kind = d->off[0];
	o->id = d->off[2];
	o->id_len = d->len[2];
	/* The reference: "name", "name [7:0]", or "name[7:0]" when the
	 * bracket gives the variable's own bits; an index that does not
	 * ("mem[0]" of an 8-bit array element) stays part of the name. */
	const char *ref = decl_word(p, d, 3);
	size_t ref_len = d->len[3];
	if (d->n >= 5 && decl_word(p, d, 4)[0] == '[') {
		if (!parse_range(decl_word(p, d, 4), d->len[4], &v->msb, &v->lsb)) {
			set_err(err, line, off, "$var range '%.40s' is not [msb:lsb] or [bit]",
			        decl_word(p, d, 4));
			return false;
		}
		v->has_range = true;
	} else {
		const char *br = memchr(ref, '[', ref_len);
		int msb, lsb;
		if (br && br != ref && parse_range(br, ref_len - (size_t)(br - ref), &msb, &lsb) &&
		    range_span(msb, lsb) == v->width) {
			v->has_range = true;
			v->msb = msb;
			v->lsb = lsb;
			ref_len = (size_t)(br - ref);
		}
	}
	/* the full path: the scopes, '.', the name */
	size_t need = p->scope_len + 1 + ref_len;
	char *tmp = malloc(need + 1);
	if (!tmp)
		goto oom;
	size_t at = p->scope_len;
	if (at) {
		memcpy(tmp, p->scope, at);
		tmp[at++] = '.';
	}
	memcpy(tmp + at, ref, ref_len);
	o->path = arena_put(p, tmp, at + ref_len);
	free(tmp);
	if (o->path == (size_t)-1) {
		set_err(err, line, off, "the declarations are larger than %u MiB",
		        VCD_ARENA_MAX >> 20);
		return false;
	}
	o->name = o->path + at;
	p->nvars++;
	return true;
oom:
	set_err(err, line, off, "out of memory reading the declarations");
	return false;
}

static bool push_scope(struct vcd_parser *p, const char *name, size_t n)
{
	size_t need = p->scope_len + (p->scope_len ? 1 : 0) + n + 1;
	if (need > VCD_SCOPE_MAX)
		return false;
	if (need > p->scope_cap) {
		size_t cap = p->scope_cap ? p->scope_cap : 256;
		while (cap < need)
			cap *= 2;
		char *s = realloc(p->scope, cap);
		if (!s)
			return false;
		p->scope = s;
		p->scope_cap = cap;
	}
	if (p->scope_len)
		p->scope[p->scope_len++] = '.';
	memcpy(p->scope + p->scope_len, name, n);
	p->scope_len += n;
	p->scope[p->scope_len] = '\0';
	return true;
}

static bool pop_scope(struct vcd_parser *p)
{
	if (!p->scope)
		return false;
	char *dot = p->scope_len ? memrchr(p->scope, '.', p->scope_len) : NULL;
	p->scope_len = dot ? (size_t)(dot - p->scope) : 0;
	p->scope[p->scope_len] = '\0';
	return true;
}

static void finish_header(struct vcd_parser *p)
{
	for (size_t i = 0; i < p->nvars; i++) {
		p->vars[i].path = p->arena + p->offs[i].path;
		p->vars[i].name = p->arena + p->offs[i].name;
		p->vars[i].kind = p->arena + p->offs[i].kind;
		p->vars[i].id = p->arena + p->offs[i].id;
	}
}

static bool header_eof(struct vcd_parser *p, const char *what, uint64_t line, uint64_t off,
                       struct vcd_error *err)
{
	if (p->read_error)
		set_err(err, p->line, p->line_off, "read error: %s", strerror(p->read_errno));
	else
		set_err(err, line, off,
		        "the file ends inside %s (line %llu), before $enddefinitions", what,
		        (unsigned long long)line);
	return false;
}

bool vcd_read_header(struct vcd_parser *p, struct vcd_error *err)
{
	struct tok t;
	struct decl d;
	char q[48];
	bool full = false;
	unsigned scopes = 0;
	uint64_t last_line = 1, last_off = 0; /* of the last word */

	for (;;) {
		enum tok_status st = next_token(p, &t);
		if (st == TOK_EOF) {
			if (p->read_error)
				return header_eof(p, "", 0, 0, err);
			set_err(err, last_line, last_off,
			        p->nvars ? "the file ends in the header: no $enddefinitions"
			                 : "no VCD declarations: no $var and no $enddefinitions");
			return false;
		}
		uint64_t line = t.line, off = t.off;
		last_line = line;
		last_off = off;
		if (st == TOK_LONG) {
			set_err(err, line, off, "a word longer than %u bytes in the header",
			        VCD_BUF);
			return false;
		}
		if (t.s[0] != '$') {
			set_err(err, line, off,
			        t.s[0] == '#' ? "value changes ('%s') before $enddefinitions"
			                      : "'%s' is not a declaration ($var, $scope, ...)",
			        tok_text(&t, q, sizeof(q)));
			return false;
		}
		if (tok_is(&t, "$end"))
			continue; /* a stray $end closes nothing */
		if (tok_is(&t, "$enddefinitions")) {
			if (!read_decl(p, &d, false, &full))
				return header_eof(p, "$enddefinitions", line, off, err);
			finish_header(p);
			return true;
		}
		if (tok_is(&t, "$timescale")) {
			if (!read_decl(p, &d, true, &full))
				return header_eof(p, "$timescale", line, off, err);
			char ts[64] = "", shown[80] = "";
			for (unsigned i = 0; i < d.n; i++) {
				if (strlen(ts) + d.len[i] < sizeof(ts))
					strcat(ts, decl_word(p, &d, i));
				if (strlen(shown) + d.len[i] + 1 < sizeof(shown)) {
					if (i)
						strcat(shown, " ");
					strcat(shown, decl_word(p, &d, i));
				}
			}
			if (full || d.total > 2 || !parse_timescale(ts, &p->ts_fs)) {
				set_err(err, line, off,
				        "$timescale '%.40s' is not one: 1, 10 or 100 of s, ms, us, "
				        "ns, ps or fs",
				        shown);
				return false;
			}
			p->ts_given = true;
		} else if (tok_is(&t, "$scope")) {
			if (!read_decl(p, &d, true, &full))
				return header_eof(p, "$scope", line, off, err);
			/* "$scope module tb $end"; a scope without a kind is read too */
			if (full || d.n < 1 || d.total > 2 ||
			    !push_scope(p, decl_word(p, &d, d.n - 1), d.len[d.n - 1])) {
				set_err(err, line, off, "$scope needs a kind and a name");
				return false;
			}
			scopes++;
		} else if (tok_is(&t, "$upscope")) {
			if (!read_decl(p, &d, false, &full))
				return header_eof(p, "$upscope", line, off, err);
			if (scopes == 0 || !pop_scope(p)) {
				set_err(err, line, off, "$upscope without a $scope");
				return false;
			}
			scopes--;
		} else if (tok_is(&t, "$var")) {
			if (!read_decl(p, &d, true, &full))
				return header_eof(p, "$var", line, off, err);
			if (full) {
				set_err(err, line, off, "the declarations are larger than %u MiB",
				        VCD_ARENA_MAX >> 20);
				return false;
			}
			if (!add_var(p, &d, line, off, err))
				return false;
		} else if (tok_is(&t, "$dumpvars") || tok_is(&t, "$dumpall") ||
		           tok_is(&t, "$dumpon") || tok_is(&t, "$dumpoff")) {
			set_err(err, line, off, "value changes ('%s') before $enddefinitions",
			        tok_text(&t, q, sizeof(q)));
			return false;
		} else {
			/* $comment, $date, $version and any other section */
			char what[48];
			tok_text(&t, what, sizeof(what));
			if (!read_decl(p, &d, false, &full))
				return header_eof(p, what, line, off, err);
		}
	}
}

size_t vcd_var_count(const struct vcd_parser *p)
{
	return p->nvars;
}

const struct vcd_var *vcd_var_at(const struct vcd_parser *p, size_t index)
{
	return index < p->nvars ? &p->vars[index] : NULL;
}

uint64_t vcd_timescale_fs(const struct vcd_parser *p)
{
	return p->ts_fs;
}

bool vcd_timescale_given(const struct vcd_parser *p)
{
	return p->ts_given;
}

/* ------------------------------------------------------------------ */
/* Watched codes */

static uint32_t hash_id(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct watch *watch_find(const struct vcd_parser *p, const char *s, size_t n, uint32_t h)
{
	size_t mask = p->wt_cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct watch *w = &p->wt[i];
		if (w->id == (size_t)-1)
			return NULL;
		if (w->hash == h && w->id_len == n && memcmp(p->arena + w->id, s, n) == 0)
			return w;
	}
}

static bool watch_grow(struct vcd_parser *p)
{
	size_t cap = p->wt_cap ? p->wt_cap * 2 : 64;
	struct watch *wt = malloc(cap * sizeof(*wt));
	if (!wt)
		return false;
	for (size_t i = 0; i < cap; i++)
		wt[i].id = (size_t)-1;
	for (size_t i = 0; i < p->wt_cap; i++) {
		if (p->wt[i].id == (size_t)-1)
			continue;
		size_t j = p->wt[i].hash & (cap - 1);
		while (wt[j].id != (size_t)-1)
			j = (j + 1) & (cap - 1);
		wt[j] = p->wt[i];
	}
	free(p->wt);
	p->wt = wt;
	p->wt_cap = cap;
	return true;
}

bool vcd_watch(struct vcd_parser *p, size_t index, unsigned slot)
{
	if (index >= p->nvars || slot >= VCD_SLOT_MAX || p->vars[index].width > 64)
		return false;
	const struct var_off *o = &p->offs[index];
	const char *id = p->arena + o->id;
	uint32_t h = hash_id(id, o->id_len);
	if ((p->wt_n + 1) * 2 > p->wt_cap && !watch_grow(p))
		return false;
	struct watch *w = watch_find(p, id, o->id_len, h);
	if (!w) {
		size_t i = h & (p->wt_cap - 1);
		while (p->wt[i].id != (size_t)-1)
			i = (i + 1) & (p->wt_cap - 1);
		w = &p->wt[i];
		w->id = o->id;
		w->id_len = o->id_len;
		w->hash = h;
		w->width = p->vars[index].width;
		w->first = -1;
		p->wt_n++;
		unsigned char c0 = (unsigned char)id[0];
		p->first_bits[c0 >> 6] |= 1ull << (c0 & 63);
	}
	for (int s = w->first; s >= 0; s = p->slots[s].next)
		if (p->slots[s].slot == slot)
			return true;
	if (p->nslots == p->slots_cap) {
		size_t cap = p->slots_cap ? p->slots_cap * 2 : 64;
		struct wslot *ns = realloc(p->slots, cap * sizeof(*ns));
		if (!ns)
			return false;
		p->slots = ns;
		p->slots_cap = cap;
	}
	/* appended at the end of the list: slots come out in watch order */
	int at = (int)p->nslots++;
	p->slots[at].slot = slot;
	p->slots[at].next = -1;
	if (w->first < 0) {
		w->first = at;
	} else {
		int s = w->first;
		while (p->slots[s].next >= 0)
			s = p->slots[s].next;
		p->slots[s].next = at;
	}
	return true;
}

static struct watch *watched(const struct vcd_parser *p, const char *s, size_t n)
{
	unsigned char c0 = (unsigned char)s[0];
	if (n == 0 || !(p->first_bits[c0 >> 6] & (1ull << (c0 & 63))))
		return NULL;
	return watch_find(p, s, n, hash_id(s, n));
}

/* ------------------------------------------------------------------ */
/* Value changes */

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
		enum tok_status st = next_token(p, &t);
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
	enum tok_status st = next_token(p, code);
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
			           tok_text(t, q, sizeof(q)));
		if (v > (UINT64_MAX - d) / 10)
			return bad(p, t, err, "time %s does not fit 64 bits",
			           tok_text(t, q, sizeof(q)));
		v = v * 10 + d;
	}
	uint64_t ps;
	if (p->ts_fs >= 1000) {
		uint64_t unit = p->ts_fs / 1000;
		if (v > (INT64_MAX / unit))
			return bad(p, t, err, "time %s is 2^63 ps or more",
			           tok_text(t, q, sizeof(q)));
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
		           tok_text(t, q, sizeof(q)), (unsigned long long)ps, was, was);
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
		enum tok_status st = next_token(p, &t);
		if (st == TOK_EOF) {
			if (p->read_error) {
				set_err(err, p->line, p->line_off, "read error: %s",
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
			const struct watch *w = watched(p, t.s + 1, t.len - 1);
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
				const struct watch *w = watched(p, code.s, code.len);
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
						        tok_text(&code, q, sizeof(q)));
					return deliver(p, w, &val, b.value, b.unknown, ch);
				}
				char vq[48];
				char badc = t.s[1 + b.bad];
				return bad(p, &val, err,
				           "vector value '%s': '%c' is not a bit value (0 1 x z)",
				           tok_text(&val, vq, sizeof(vq)),
				           (unsigned char)badc >= 0x21 && (unsigned char)badc < 0x7f
				                   ? badc
				                   : '?');
			}
			/* what a message needs of the value: reading its code may
			 * move the buffer under it */
			char vq[48];
			char badc = '?';
			tok_text(&val, vq, sizeof(vq));
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
			const struct watch *w = watched(p, code.s, code.len);
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
				           b.digits, w->width, tok_text(&code, q, sizeof(q)));
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
			tok_text(&t, q, sizeof(q));
			if (!skip_section(p))
				return bad(p, &t, err,
				           "'%s' in the value changes, without its $end", q);
			return bad(p, &t, err, "'%s' in the value changes: skipped to its $end", q);
		default:
			return bad(p, &t, err, "'%s' is not a value change",
			           tok_text(&t, q, sizeof(q)));
		}
	}
}

uint64_t vcd_bytes_read(const struct vcd_parser *p)
{
	return p->base + (uint64_t)(p->cur - p->buf);
}

void vcd_position(const struct vcd_parser *p, uint64_t *line, uint64_t *byte_offset)
{
	*line = p->ev_line;
	*byte_offset = p->ev_off;
}
