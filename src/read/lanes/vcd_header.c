/* vcd_header.c: the VCD declarations, up to $enddefinitions: the
 * timescale, the scopes and every $var with its full dotted path.
 * specification: IEEE 1364-2005 clause 18.2; capture-format.md section 4
 * "Input"; the interface is vcd_parse.h (vcd_read_header), the shared
 * internals vcd_internal.h.
 *
 * The header is
 *
 *   $timescale 1ns $end              ("1 ns" too; 1, 10 or 100 of s..fs)
 *   $scope module tb $end            (any scope kind; nested)
 *   $var wire 8 # txdata0 [7:0] $end (any kind; the reference optional)
 *   $upscope $end
 *   $comment / $date / $version / any other $word ... $end: skipped
 *   $enddefinitions $end
 *
 * Reading of the standard chosen here (it never reports what the trace
 * cannot prove, and is said in dllpcheck-capture(5)): a malformed $var,
 * $scope or $timescale makes the header unreadable (vcd_read_header
 * false, the line named): every later change depends on the
 * declarations.
 *
 * Also vcd_sniff() (read/reader.h): a VCD told by its first header
 * keyword.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/vcd_internal.h"
#include "read/reader.h"

/* Copies s[0..n) and a NUL into the arena; its offset, or (size_t)-1. */
static size_t arena_put(struct vcd_parser *p, const char *s, size_t n)
{
	if (p->alen + n + 1 > p->acap) {
		/* from 1 KiB: a small file's names are a few hundred bytes, and
		 * every VCD read pays for the pages it touches (fuzz_vcd) */
		size_t cap = p->acap ? p->acap : 1024;
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
		enum tok_status st = vcd_next_token(p, &t);
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
		vcd_set_err(
		        err, line, off,
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
		vcd_set_err(err, line, off, "$var size '%.40s' is not a number of bits", size_s);
		return false;
	}
	if (p->nvars == p->vars_cap) {
		size_t cap = p->vars_cap ? p->vars_cap * 2 : 16;
		if (cap > VCD_VARS_MAX) {
			vcd_set_err(err, line, off, "more than %u $var declarations", VCD_VARS_MAX);
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
			vcd_set_err(err, line, off, "$var range '%.40s' is not [msb:lsb] or [bit]",
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
		vcd_set_err(err, line, off, "the declarations are larger than %u MiB",
		            VCD_ARENA_MAX >> 20);
		return false;
	}
	o->name = o->path + at;
	p->nvars++;
	return true;
oom:
	vcd_set_err(err, line, off, "out of memory reading the declarations");
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
		vcd_set_err(err, p->line, p->line_off, "read error: %s", strerror(p->read_errno));
	else
		vcd_set_err(err, line, off,
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
		enum tok_status st = vcd_next_token(p, &t);
		if (st == TOK_EOF) {
			if (p->read_error)
				return header_eof(p, "", 0, 0, err);
			vcd_set_err(
			        err, last_line, last_off,
			        p->nvars ? "the file ends in the header: no $enddefinitions"
			                 : "no VCD declarations: no $var and no $enddefinitions");
			return false;
		}
		uint64_t line = t.line, off = t.off;
		last_line = line;
		last_off = off;
		if (st == TOK_LONG) {
			vcd_set_err(err, line, off, "a word longer than %u bytes in the header",
			            VCD_BUF);
			return false;
		}
		if (t.s[0] != '$') {
			vcd_set_err(err, line, off,
			            t.s[0] == '#' ? "value changes ('%s') before $enddefinitions"
			                          : "'%s' is not a declaration ($var, $scope, ...)",
			            vcd_tok_text(&t, q, sizeof(q)));
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
				vcd_set_err(
				        err, line, off,
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
				vcd_set_err(err, line, off, "$scope needs a kind and a name");
				return false;
			}
			scopes++;
		} else if (tok_is(&t, "$upscope")) {
			if (!read_decl(p, &d, false, &full))
				return header_eof(p, "$upscope", line, off, err);
			if (scopes == 0 || !pop_scope(p)) {
				vcd_set_err(err, line, off, "$upscope without a $scope");
				return false;
			}
			scopes--;
		} else if (tok_is(&t, "$var")) {
			if (!read_decl(p, &d, true, &full))
				return header_eof(p, "$var", line, off, err);
			if (full) {
				vcd_set_err(err, line, off,
				            "the declarations are larger than %u MiB",
				            VCD_ARENA_MAX >> 20);
				return false;
			}
			if (!add_var(p, &d, line, off, err))
				return false;
		} else if (tok_is(&t, "$dumpvars") || tok_is(&t, "$dumpall") ||
		           tok_is(&t, "$dumpon") || tok_is(&t, "$dumpoff")) {
			vcd_set_err(err, line, off, "value changes ('%s') before $enddefinitions",
			            vcd_tok_text(&t, q, sizeof(q)));
			return false;
		} else {
			/* $comment, $date, $version and any other section */
			char what[48];
			vcd_tok_text(&t, what, sizeof(what));
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

/* capture-format.md section 4 "Input": recognised by its content.  A
 * VCD's first word is one of its header keywords (a text trace's first
 * word is a time, an export's a column name). */
bool vcd_sniff(const unsigned char *head, size_t len)
{
	static const char *const words[] = { "$date", "$version", "$timescale",     "$scope",
		                             "$var",  "$comment", "$enddefinitions" };
	size_t i = 0;
	/* a UTF-8 byte order mark, then blanks */
	if (len >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF)
		i = 3;
	while (i < len && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r'))
		i++;
	size_t b = i;
	while (i < len && head[i] > ' ')
		i++;
	for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++)
		if (strlen(words[w]) == i - b && memcmp(head + b, words[w], i - b) == 0)
			return true;
	return false;
}
