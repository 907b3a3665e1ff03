/* vcd_write.c: --vcd FILE, the shadow model as a value change dump
 * (vcd_write.h), IEEE 1364-2005 clause 18.
 *
 * VCD declares every variable ($var) before the first value change, but
 * a capture shows its links and VCs as it goes.  So the signals met are
 * kept in a fixed table (vcd_write_internal.h), the changes are written as
 * they come, and the header is written at the end:
 *   - a body that fits the buffer (VCD_BUF_SIZE) is written after it;
 *   - a regular file (written as a temporary file, renamed into place by
 *     base/out_file.h): when the buffer first fills, room for the header
 *     is kept at the start of the file (the header of the signals so far
 *     and VCD_HEADER_SLACK more, in whole pages), the changes go straight
 *     after it, and at the end the header is written into the room, the
 *     rest of it a comment of newlines just before $enddefinitions (IEEE
 *     1364-2005 18.2.3.1: a $comment is a declaration like any other).
 *     A header that outgrew the room moves the body later instead (the
 *     file is then header and body, as below);
 *   - a device or a FIFO (written in place, it cannot be sought): the
 *     changes go to a body file (an unlinked temporary file, base/spool.h)
 *     copied after the header at the end.
 * Memory: the table, at most FC_LINK_COUNT links.
 *
 *   $date ... $version dllpcheck V ... $comment input, encodings ...
 *   $timescale 1 ps $end
 *   $scope module dllpcheck $end
 *     $scope module findings $end   rule pulses, record, link
 *     $scope module link<N> $end    state
 *       $scope module port_down $end  (and port_up: the transmitting port)
 *         next_transmit_seq ackd_seq tlps_outstanding requests_outstanding
 *         $scope module vc<N> $end  init, T_available T_CL T_CC T_uncertain
 *   $enddefinitions $end
 *   #t  value changes (only changes; no $dumpvars: a value is x until told)
 */
#include "autoconfig.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/number.h"
#include "base/spool.h"
#include "report/vcd_write.h"
#include "report/vcd_write_internal.h"

/* ---- errors --------------------------------------------------------------- */

static void vcd_fail(struct vcd_write *w, const char *what)
{
	if (w->failed)
		return;
	w->failed = true;
	snprintf(w->error, sizeof(w->error), "--vcd %s: %s", w->vcd_name, what);
}

static void vcd_fail_errno(struct vcd_write *w, const char *what)
{
	char msg[256];
	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));
	vcd_fail(w, msg);
}

/* ---- the body: bytes and identifier codes --------------------------------- */

static bool keep_header_room(struct vcd_write *w);

static void body_flush(struct vcd_write *w)
{
	if (w->buf_len && !w->failed) {
		if (w->body) {
			if (fwrite(w->buf, 1, w->buf_len, w->body) != w->buf_len)
				vcd_fail_errno(w, "cannot write the value changes (a temporary "
				                  "file beside it)");
		} else if (keep_header_room(w) &&
		           fwrite(w->buf, 1, w->buf_len, w->vcd.fp) != w->buf_len) {
			vcd_fail_errno(w, "cannot write");
		}
	}
	w->buf_len = 0;
}

/* Room for n more bytes in the body's buffer. */
static char *body_reserve(struct vcd_write *w, size_t n)
{
	if (w->buf_len + n > sizeof(w->buf))
		body_flush(w);
	return w->buf + w->buf_len;
}

unsigned vcd_code(uint32_t n, char *out)
{
	/* little-endian base 94; the last digit is never 0 unless it is the
	 * only one, so every number has its own code */
	unsigned len = 0;
	do {
		out[len++] = (char)(33 + n % 94);
		n /= 94;
	} while (n);
	out[len] = '\0';
	return len;
}

/* ---- time and the findings' pulses ---------------------------------------- */

/* The longest change: 'b', 64 digits and the 7 bytes put_bits() may write
 * past them, ' ', a code and its NUL (copied whole), '\n'. */
#define VCD_CHANGE_MAX 96

#ifdef __GNUC__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* The pulses due in the time being written fall there (written before
 * the next #time, so at this time). */
static void pulses_fall(struct vcd_write *w);

/* Makes t the time being written.  The timeline's times are
 * non-decreasing (timeline.h): nothing is clamped here. */
static void vcd_time(struct vcd_write *w, uint64_t t)
{
	if (w->has_time && t == w->time_ps)
		return;
	struct vcd_findings *fs = &w->findings;
	if (fs->pulses_high) {
		pulses_fall(w);
		/* those raised at the time left fall at this one */
		for (unsigned r = 0; r < RULE_COUNT; r++)
			if (fs->pulse[r] == PULSE_RAISED)
				fs->pulse[r] = PULSE_DUE;
	}
	char *p = body_reserve(w, 24);
	*p++ = '#';
	p = number_put_u64(p, t);
	*p++ = '\n';
	w->buf_len = (size_t)(p - w->buf);
	w->has_time = true;
	w->time_ps = t;
}

/* The bits value needs (1 for 0). */
static inline unsigned bit_length(uint64_t v)
{
	return 64u - (unsigned)__builtin_clzll(v | 1u);
}

/* A byte as 8 binary digits, the highest first; a ninth row so that the
 * last one can be read 8 bytes from any of its places (put_bits). */
#define BIT8(x, b) (char)('0' + (((x) >> (b)) & 1))
#define BITS8(x)                                                                        \
	{                                                                               \
		BIT8(x, 7), BIT8(x, 6), BIT8(x, 5), BIT8(x, 4), BIT8(x, 3), BIT8(x, 2), \
		        BIT8(x, 1), BIT8(x, 0)                                          \
	}
#define BITS8_4(x) BITS8(x), BITS8((x) + 1), BITS8((x) + 2), BITS8((x) + 3)
#define BITS8_16(x) BITS8_4(x), BITS8_4((x) + 4), BITS8_4((x) + 8), BITS8_4((x) + 12)
#define BITS8_64(x) BITS8_16(x), BITS8_16((x) + 16), BITS8_16((x) + 32), BITS8_16((x) + 48)
static const char bits8[257][8] = {
	BITS8_64(0), BITS8_64(64), BITS8_64(128), BITS8_64(192), { 0 }
};

/* Writes the len (1..64) lowest bits of v as binary digits at p, 8 at a
 * time (each copy 8 bytes: up to 7 past the digits are written, and
 * overwritten by what follows); returns the end of the digits. */
static inline char *put_bits(char *p, uint64_t v, unsigned len)
{
	unsigned head = ((len - 1) & 7) + 1; /* the digits before whole bytes */
	unsigned rest = len - head;
	/* the last head digits of a byte's row are its head lowest bits */
	memcpy(p, &bits8[(v >> rest) & 0xFF][8 - head], 8);
	p += head;
	while (rest) {
		rest -= 8;
		memcpy(p, bits8[(v >> rest) & 0xFF], 8);
		p += 8;
	}
	return p;
}

/* What the first change of a signal, or the first of a time, or one the
 * buffer has no room for, needs before it is written (out of line: most
 * changes need none, and put_change() then calls nothing). */
static NOINLINE void change_prepare(struct vcd_write *w, uint64_t t, struct vcd_sig *sig)
{
	if (!sig->code) {
		sig->code = ++w->codes;
		sig->code_len = (uint8_t)vcd_code(sig->code - 1, sig->code_str);
	}
	if (!w->has_time || t != w->time_ps)
		vcd_time(w, t);
	body_reserve(w, VCD_CHANGE_MAX);
}

/* Writes a change of sig at time t (put()). */
static void put_change(struct vcd_write *w, uint64_t t, struct vcd_sig *sig, bool x, uint64_t value)
{
	if (!sig->code || !w->has_time || t != w->time_ps ||
	    w->buf_len + VCD_CHANGE_MAX > sizeof(w->buf))
		change_prepare(w, t, sig);
	char *p = w->buf + w->buf_len;
	if (sig->width == 1) {
		*p++ = x ? 'x' : (char)('0' + (value & 1));
	} else {
		*p++ = 'b';
		if (x) {
			*p++ = 'x';
		} else {
			/* whole nibbles from the top one that is not 0 (a
			 * leading 0 is zero-extended [IEEE 1364-2005 18.2.1]),
			 * never more digits than the variable has bits */
			unsigned len = (bit_length(value) + 3) & ~3u;
			p = put_bits(p, value, len < sig->width ? len : sig->width);
		}
		*p++ = ' ';
	}
	memcpy(p, sig->code_str, sizeof(sig->code_str));
	p += sig->code_len;
	*p++ = '\n';
	w->buf_len = (size_t)(p - w->buf);
	sig->told = x ? VCD_TOLD_X : value;
}

/* Writes value (x: unknown) of sig at time t, unless it is the value
 * written last.  The hot path of --vcd: a few changes per record, more
 * values told that did not change. */
static inline void put(struct vcd_write *w, uint64_t t, struct vcd_sig *sig, bool x, uint64_t value)
{
	if ((x ? VCD_TOLD_X : value) == sig->told)
		return;
	put_change(w, t, sig, x, value);
}

/* CL or CC: put(), its variable as wide as the counters have been (width)
 * and as its value needs. */
static inline void put_counter(struct vcd_write *w, uint64_t t, struct vcd_sig *sig, uint8_t width,
                               bool x, uint32_t value)
{
	if (width > sig->width)
		sig->width = width;
	if (!x && ((uint64_t)value >> sig->width) != 0)
		sig->width = (uint8_t)bit_length(value);
	put(w, t, sig, x, value);
}

static void pulses_fall(struct vcd_write *w)
{
	struct vcd_findings *fs = &w->findings;
	for (unsigned r = 0; r < RULE_COUNT && fs->pulses_high; r++) {
		if (fs->pulse[r] != PULSE_DUE)
			continue;
		fs->pulse[r] = PULSE_LOW;
		fs->pulses_high--;
		put(w, w->time_ps, &fs->rule[r], false, 0);
	}
}

/* ---- the timeline's changes ----------------------------------------------- */

static void sig_init(struct vcd_sig *sig, uint8_t width)
{
	sig->width = width;
	sig->told = VCD_TOLD_NONE;
}

/* The signals of a link met for the first time. */
static struct vcd_link *vcd_link_new(struct vcd_write *w, unsigned index)
{
	struct vcd_link *l = calloc(1, sizeof(*l));
	if (!l) {
		vcd_fail(w, "out of memory for the waveform's signals");
		return NULL;
	}
	/* nothing written yet (told VCD_TOLD_NONE): every signal's first
	 * value is a change */
	sig_init(&l->state, 3);
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		struct vcd_port *port = &l->port[p];
		sig_init(&port->sig[VCD_NEXT_SEQ], 12);
		sig_init(&port->sig[VCD_ACKD_SEQ], 12);
		sig_init(&port->sig[VCD_TLPS], 12);
		sig_init(&port->sig[VCD_REQUESTS], 32);
		for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
			sig_init(&port->vc[vc].init, 3);
			for (unsigned ct = 0; ct < CT_COUNT; ct++) {
				struct vcd_credit *c = &port->vc[vc].ct[ct];
				sig_init(&c->sig[VCD_AVAILABLE], 32);
				sig_init(&c->sig[VCD_CL], 1); /* grows to the counters' */
				sig_init(&c->sig[VCD_CC], 1);
				sig_init(&c->sig[VCD_UNCERTAIN], 1);
			}
		}
	}
	w->link_sigs[index] = l;
	return l;
}

static inline struct vcd_link *vcd_link_get(struct vcd_write *w, unsigned index)
{
	if (index >= FC_LINK_COUNT)
		return NULL;
	struct vcd_link *l = w->link_sigs[index];
	return l ? l : vcd_link_new(w, index);
}

static void on_link_state(void *ctx, const struct timeline_at *at, uint8_t state)
{
	struct vcd_write *w = ctx;
	struct vcd_link *l = vcd_link_get(w, at->link);
	if (l)
		put(w, at->time_ps, &l->state, state == PROBE_LINK_UNKNOWN, state);
}

/* What a credit's uncertain flag shows: its limit, or the transmitter's
 * consumed count (a TLP of the port never seen intact). */
static void put_uncertain(struct vcd_write *w, uint64_t t, struct vcd_port *port,
                          struct vcd_credit *c)
{
	put(w, t, &c->sig[VCD_UNCERTAIN], false, c->limit_uncertain || port->may_lag);
}

static void on_port(void *ctx, const struct timeline_at *at, enum link_dir p,
                    const struct fc_probe_port *now)
{
	struct vcd_write *w = ctx;
	struct vcd_link *l = vcd_link_get(w, at->link);
	if (!l)
		return;
	uint64_t t = at->time_ps;
	struct vcd_port *port = &l->port[p];
	put(w, t, &port->sig[VCD_NEXT_SEQ], !now->seq_known, now->next_transmit_seq & 0xFFFu);
	put(w, t, &port->sig[VCD_ACKD_SEQ], !now->ackd_known, now->ackd_seq & 0xFFFu);
	put(w, t, &port->sig[VCD_TLPS], !now->tlps_outstanding_known,
	    now->tlps_outstanding & 0xFFFu);
	put(w, t, &port->sig[VCD_REQUESTS], !now->requests_known, now->requests_outstanding);
	if (now->consumed_may_lag != port->may_lag) {
		port->may_lag = now->consumed_may_lag;
		for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				if (port->vc[vc].ct[ct].told)
					put_uncertain(w, t, port, &port->vc[vc].ct[ct]);
	}
}

static void on_init(void *ctx, const struct timeline_at *at, unsigned vc, enum link_dir p,
                    uint8_t state)
{
	struct vcd_write *w = ctx;
	struct vcd_link *l = vcd_link_get(w, at->link);
	if (l && vc < FC_VC_COUNT)
		put(w, at->time_ps, &l->port[p].vc[vc].init, state == PROBE_INIT_UNKNOWN, state);
}

static void on_credit(void *ctx, const struct timeline_at *at, unsigned vc, enum link_dir p,
                      enum credit_type ct, const struct fc_probe_credit *now)
{
	struct vcd_write *w = ctx;
	struct vcd_link *l = vcd_link_get(w, at->link);
	if (!l || vc >= FC_VC_COUNT || ct >= CT_COUNT)
		return;
	uint64_t t = at->time_ps;
	struct vcd_port *port = &l->port[p];
	struct vcd_credit *c = &port->vc[vc].ct[ct];
	/* available: (CL - CC) mod 2^N; -1 for infinite; x when not known */
	put(w, t, &c->sig[VCD_AVAILABLE], !now->infinite && !now->available_known,
	    now->infinite ? 0xFFFFFFFFu : now->available);
	/* CL and CC at the largest width the counters had */
	put_counter(w, t, &c->sig[VCD_CL], now->width, now->infinite || !now->limit_known,
	            now->limit);
	put_counter(w, t, &c->sig[VCD_CC], now->width, now->infinite || !now->consumed_known,
	            now->consumed);
	c->told = true;
	c->limit_uncertain = now->limit_uncertain;
	put_uncertain(w, t, port, c);
}

static void on_finding(void *ctx, const struct finding *f, uint64_t time_ps)
{
	struct vcd_write *w = ctx;
	struct vcd_findings *fs = &w->findings;
	if (f->rule >= RULE_COUNT)
		return;
	/* the time first: a pulse raised earlier falls there unless this
	 * finding raises it again (it then stays 1) */
	vcd_time(w, time_ps);
	if (fs->pulse[f->rule] == PULSE_LOW) {
		fs->pulses_high++;
		put(w, time_ps, &fs->rule[f->rule], false, 1);
	}
	fs->pulse[f->rule] = PULSE_RAISED;
	if (fs->told_at_time && fs->told_time_ps == time_ps)
		return;
	fs->told_at_time = true;
	fs->told_time_ps = time_ps;
	put(w, time_ps, &fs->record, false, f->pos.record_no);
	put(w, time_ps, &fs->link, f->link < 0, (uint32_t)f->link);
}

static void on_end(void *ctx, uint64_t last_time_ps)
{
	struct vcd_write *w = ctx;
	if (!w->has_time)
		return; /* nothing was written */
	uint64_t t = last_time_ps > w->time_ps ? last_time_ps : w->time_ps;
	/* a pulse raised at the last time falls 1 ps later, so that it is
	 * seen */
	for (unsigned r = 0; r < RULE_COUNT; r++)
		if (w->findings.pulse[r] == PULSE_RAISED && t == w->time_ps)
			t = w->time_ps + 1;
	/* the waveform lasts to the capture's last record */
	vcd_time(w, t);
	pulses_fall(w);
}

void vcd_write_sink(struct vcd_write *w, struct timeline_sink *out)
{
	memset(out, 0, sizeof(*out));
	out->link_state = on_link_state;
	out->port = on_port;
	out->init = on_init;
	out->credit = on_credit;
	out->finding = on_finding;
	out->end = on_end;
	out->ctx = w;
}

/* ---- the declarations ----------------------------------------------------- */

static const char *const port_scope[DIR_COUNT] = { "port_down", "port_up" };
static const char *const port_sig_name[VCD_PORT_SIGS] = {
	[VCD_NEXT_SEQ] = "next_transmit_seq",
	[VCD_ACKD_SEQ] = "ackd_seq",
	[VCD_TLPS] = "tlps_outstanding",
	[VCD_REQUESTS] = "requests_outstanding",
};
static const char *const credit_sig_suffix[VCD_CREDIT_SIGS] = {
	[VCD_AVAILABLE] = "available",
	[VCD_CL] = "CL",
	[VCD_CC] = "CC",
	[VCD_UNCERTAIN] = "uncertain",
};

/* The walk's position: the scopes open, and those announced. */
struct walk {
	const struct vcd_walker *walker;
	char path[128];
	size_t len[8]; /* path length before each depth's name */
	const char *name[8];
	unsigned depth, announced;
};

static void walk_push(struct walk *k, const char *name)
{
	k->len[k->depth] = strlen(k->path);
	k->name[k->depth] = name;
	size_t n = k->len[k->depth];
	snprintf(k->path + n, sizeof(k->path) - n, "%s%s", n ? "." : "", name);
	k->depth++;
}

static void walk_pop(struct walk *k)
{
	k->depth--;
	if (k->announced > k->depth) {
		k->announced = k->depth;
		k->walker->scope_end(k->walker->ctx, k->name[k->depth], k->path);
	}
	k->path[k->len[k->depth]] = '\0';
}

/* A declared signal: its scopes begin first (an empty scope is never
 * written). */
static void walk_var(struct walk *k, const struct vcd_sig *sig, enum vcd_var_kind kind,
                     enum vcd_role role, const char *name)
{
	if (!sig->code)
		return;
	while (k->announced < k->depth) {
		unsigned d = k->announced;
		size_t cut = d + 1 < k->depth ? k->len[d + 1] : strlen(k->path);
		char saved = k->path[cut];
		k->path[cut] = '\0';
		k->walker->scope_begin(k->walker->ctx, k->name[d], k->path);
		k->path[cut] = saved;
		k->announced++;
	}
	struct vcd_var v = { sig, kind, role, name };
	k->walker->var(k->walker->ctx, &v, k->path);
}

void vcd_walk(const struct vcd_write *w, const struct vcd_walker *walker)
{
	struct walk k = { .walker = walker };
	char name[64];
	walk_push(&k, "dllpcheck");
	walk_push(&k, "findings");
	/* rule ids are the names, '.' and '-' as '_' (VCD identifiers) */
	for (unsigned r = 0; r < RULE_COUNT; r++) {
		snprintf(name, sizeof(name), "%s", rule_info(r)->id);
		for (char *c = name; *c; c++)
			if (*c == '.' || *c == '-')
				*c = '_';
		walk_var(&k, &w->findings.rule[r], VAR_WIRE, ROLE_PULSE, name);
	}
	walk_var(&k, &w->findings.record, VAR_WIRE, ROLE_RECORD, "record");
	walk_var(&k, &w->findings.link, VAR_INTEGER, ROLE_SIGNED, "link");
	walk_pop(&k);
	for (unsigned i = 0; i < FC_LINK_COUNT; i++) {
		const struct vcd_link *l = w->link_sigs[i];
		if (!l)
			continue;
		char link_name[16];
		snprintf(link_name, sizeof(link_name), "link%u", i);
		walk_push(&k, link_name);
		walk_var(&k, &l->state, VAR_WIRE, ROLE_ENUM, "state");
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			const struct vcd_port *port = &l->port[p];
			walk_push(&k, port_scope[p]);
			for (unsigned s = 0; s < VCD_PORT_SIGS; s++)
				walk_var(&k, &port->sig[s],
				         s == VCD_REQUESTS ? VAR_INTEGER : VAR_WIRE, ROLE_NUMBER,
				         port_sig_name[s]);
			for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
				const struct vcd_vc *v = &port->vc[vc];
				char vc_name[8];
				snprintf(vc_name, sizeof(vc_name), "vc%u", vc);
				walk_push(&k, vc_name);
				walk_var(&k, &v->init, VAR_WIRE, ROLE_ENUM, "init");
				for (unsigned ct = 0; ct < CT_COUNT; ct++) {
					for (unsigned s = 0; s < VCD_CREDIT_SIGS; s++) {
						static const enum vcd_role role[VCD_CREDIT_SIGS] = {
							ROLE_AVAILABLE, ROLE_COUNTER, ROLE_COUNTER,
							ROLE_FLAG
						};
						snprintf(name, sizeof(name), "%s_%s",
						         credit_type_name(ct),
						         credit_sig_suffix[s]);
						walk_var(&k, &v->ct[ct].sig[s],
						         s == VCD_AVAILABLE ? VAR_INTEGER
						                            : VAR_WIRE,
						         role[s], name);
					}
				}
				walk_pop(&k);
			}
			walk_pop(&k);
		}
		walk_pop(&k);
	}
	walk_pop(&k);
}

/* ---- the header ----------------------------------------------------------- */

static void header_scope_begin(void *ctx, const char *name, const char *path)
{
	(void)path;
	fprintf(ctx, "$scope module %s $end\n", name);
}

static void header_scope_end(void *ctx, const char *name, const char *path)
{
	(void)name, (void)path;
	fputs("$upscope $end\n", ctx);
}

static void header_var(void *ctx, const struct vcd_var *v, const char *path)
{
	(void)path;
	const char *code = v->sig->code_str;
	if (v->kind == VAR_INTEGER)
		fprintf(ctx, "$var integer 32 %s %s $end\n", code, v->name);
	else if (v->sig->width == 1)
		fprintf(ctx, "$var wire 1 %s %s $end\n", code, v->name);
	else
		fprintf(ctx, "$var wire %u %s %s [%u:0] $end\n", v->sig->width, code, v->name,
		        v->sig->width - 1u);
}

/* The input's name in the comment: printable ASCII as is, anything else
 * (and '$', so that no "$end" ends the comment early, and '\') as \xNN. */
static void put_name(FILE *fp, const char *s)
{
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c >= 0x20 && *c < 0x7f && *c != '$' && *c != '\\')
			fputc(*c, fp);
		else
			fprintf(fp, "\\x%02x", *c);
	}
}

/* The file's date: SOURCE_DATE_EPOCH when set (reproducible output, as
 * reproducible-builds.org specifies it), otherwise now. */
static void put_date(FILE *fp)
{
	time_t now = time(NULL);
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	if (sde && *sde) {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(sde, &end, 10);
		if (!*end && !errno && *sde != '-')
			now = (time_t)v;
	}
	struct tm tm;
	char buf[64];
	if (gmtime_r(&now, &tm) && strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S UTC", &tm))
		fprintf(fp, "$date\n\t%s\n$end\n", buf);
}

/* What the values mean (also in dllpcheck(1), THE WAVEFORM). */
static const char encodings[] =
        "\tdllpcheck's shadow model over time (dllpcheck(1), THE WAVEFORM).\n"
        "\tlink<N>.port_down/port_up: the transmitting port; vc<N>: its transmitter's\n"
        "\tcredits on that VC, per type T in PH PD NPH NPD CplH CplD:\n"
        "\tT_available integer: (CL - CC) mod 2^N; -1 infinite; x not known.\n"
        "\tT_CL, T_CC: the counters (N bits); x not known or infinite.\n"
        "\tT_uncertain: 1 when a damaged DLLP may have raised CL, or a TLP of the\n"
        "\tport never seen intact may be missing from CC.\n"
        "\tinit: 1 idle, 2 FC_INIT1, 3 FC_INIT2, 4 complete; x not known.\n"
        "\tstate: 1 down, 2 init, 3 active, 4 L1; x not known.\n"
        "\tnext_transmit_seq, ackd_seq, tlps_outstanding, requests_outstanding:\n"
        "\tx when not known.\n"
        "\tfindings: a wire per rule that fired (its id, '.' and '-' as '_'), 1 from\n"
        "\ta finding's time to the next time written; record: the record number\n"
        "\tof the first finding at that time; link: its link (x: none).\n";

/* The header but its last line ($enddefinitions). */
static void write_declarations(struct vcd_write *w, FILE *fp)
{
	put_date(fp);
	fprintf(fp, "$version\n\tdllpcheck %s\n$end\n", PACKAGE_VERSION);
	fputs("$comment\n\tinput: ", fp);
	put_name(fp, w->input);
	fprintf(fp, "\n%s$end\n", encodings);
	fputs("$timescale 1 ps $end\n", fp);
	struct vcd_walker walker = { header_scope_begin, header_scope_end, header_var, fp };
	vcd_walk(w, &walker);
}

static const char end_definitions[] = "$enddefinitions $end\n";

static void write_header(struct vcd_write *w, FILE *fp)
{
	write_declarations(w, fp);
	fputs(end_definitions, fp);
}

/* ---- the header written into the room kept for it ---------------------------- */

/* Room kept beyond the header of the signals met when the body's first
 * bytes are written (a full buffer's worth of changes: the links and VCs
 * in use have been seen by then): a link that appears later with its 8
 * VCs in use declares 409 signals, about 15 KB, and a finding's rule 40
 * bytes. */
#define VCD_HEADER_SLACK 16384
#define VCD_PAGE 4096

/* What fills the room the header leaves: a comment, then $enddefinitions
 * at the room's end. */
static const char room_open[] = "$comment\n\troom kept for the declarations above, written "
                                "after the value changes below\n";
static const char room_close[] = "$end\n";

/* The declarations in memory (NULL: out of memory, w failed). */
static char *declarations_text(struct vcd_write *w, size_t *len)
{
	char *text = NULL;
	FILE *mem = open_memstream(&text, len);
	if (mem) {
		write_declarations(w, mem);
		if (fclose(mem) == 0)
			return text;
	}
	free(text);
	vcd_fail(w, "out of memory for the header");
	return NULL;
}

/* The body's first bytes are about to be written to a regular file: the
 * room for the header goes before them.  False when w failed. */
static bool keep_header_room(struct vcd_write *w)
{
	if (w->header_room)
		return true;
	size_t len;
	char *text = declarations_text(w, &len);
	if (!text)
		return false;
	free(text);
	uint64_t room = len + sizeof(room_open) + sizeof(room_close) + sizeof(end_definitions) +
	                VCD_HEADER_SLACK;
	room = (room + VCD_PAGE - 1) / VCD_PAGE * VCD_PAGE;
	if (fseeko(w->vcd.fp, (off_t)room, SEEK_SET) != 0) {
		vcd_fail_errno(w, "cannot write");
		return false;
	}
	w->header_room = room;
	return true;
}

/* At the end of a body written after the room: the header into the room
 * (the rest of it a comment), or before the body moved later when it no
 * longer fits. */
static void write_header_in_room(struct vcd_write *w)
{
	FILE *fp = w->vcd.fp;
	if (fflush(fp) != 0) {
		vcd_fail_errno(w, "cannot write");
		return;
	}
	off_t end = ftello(fp);
	size_t len;
	char *text = declarations_text(w, &len);
	if (!text)
		return;
	int fd = fileno(fp);
	size_t fixed = len + strlen(room_open) + strlen(room_close) + strlen(end_definitions);
	uint64_t room = w->header_room;
	char *head = realloc(text, fixed > room ? fixed : room);
	if (!head) {
		free(text);
		vcd_fail(w, "out of memory for the header");
		return;
	}
	size_t head_len;
	if (fixed <= room) {
		char *p = head + len;
		memcpy(p, room_open, strlen(room_open));
		p += strlen(room_open);
		size_t fill = room - fixed;
		memset(p, '\n', fill);
		p += fill;
		memcpy(p, room_close, strlen(room_close));
		p += strlen(room_close);
		memcpy(p, end_definitions, strlen(end_definitions));
		head_len = room;
	} else {
		memcpy(head + len, end_definitions, strlen(end_definitions));
		head_len = len + strlen(end_definitions);
		if (end < (off_t)room ||
		    !spool_shift(fd, (off_t)room, (off_t)head_len, end - (off_t)room)) {
			free(head);
			vcd_fail_errno(w, "cannot move the value changes after the header");
			return;
		}
	}
	if (!spool_pwrite(fd, head, head_len, 0))
		vcd_fail_errno(w, "cannot write");
	free(head);
}

/* ---- open and close ------------------------------------------------------- */

static void vcd_free(struct vcd_write *w)
{
	for (unsigned i = 0; i < FC_LINK_COUNT; i++)
		free(w->link_sigs[i]);
	free(w->vcd_name);
	free(w->gtkw_name);
	free(w->input);
	free(w);
}

struct vcd_write *vcd_write_open(const char *path, const char *gtkw_path, const char *input,
                                 char *const *inputs, int input_count, char *err, size_t len)
{
	struct vcd_write *w = calloc(1, sizeof(*w));
	if (!w || !(w->vcd_name = strdup(path)) || !(w->input = strdup(input)) ||
	    (gtkw_path && !(w->gtkw_name = strdup(gtkw_path)))) {
		snprintf(err, len, "--vcd %s: out of memory", path);
		if (w)
			vcd_free(w);
		return NULL;
	}
	for (unsigned r = 0; r < RULE_COUNT; r++)
		sig_init(&w->findings.rule[r], 1);
	sig_init(&w->findings.record, 64);
	sig_init(&w->findings.link, 32);
	if (!out_file_open(&w->vcd, path, "--vcd", false, inputs, input_count, err, len)) {
		vcd_free(w);
		return NULL;
	}
	/* a device or a FIFO written in place (/dev/null): the changes go to
	 * tmpfile() until the header is known; a regular file's go into it */
	errno = 0;
	w->body = w->vcd.tmp ? NULL : spool_open(NULL);
	if (!w->vcd.tmp && !w->body) {
		snprintf(err, len, "--vcd %s: cannot write (a temporary file beside it): %s", path,
		         strerror(errno));
		goto fail;
	}
	if (gtkw_path) {
		if (!out_file_open(&w->gtkw, gtkw_path, "--gtkw", false, inputs, input_count, err,
		                   len))
			goto fail;
		w->gtkw_open = true;
	}
	return w;
fail:
	if (w->body)
		fclose(w->body);
	fclose(w->vcd.fp);
	char ignored[256];
	out_file_finish(&w->vcd, false, ignored, sizeof(ignored));
	vcd_free(w);
	return NULL;
}

/* Copies the body after the header. */
static void copy_body(struct vcd_write *w, FILE *out)
{
	body_flush(w);
	if (w->failed)
		return;
	enum spool_result res = spool_copy(w->body, out, NULL);
	if (res == SPOOL_READ_FAILED)
		vcd_fail_errno(w,
		               "cannot read back the value changes (a temporary file beside it)");
	else if (res == SPOOL_WRITE_FAILED)
		vcd_fail_errno(w, "cannot write");
}

bool vcd_write_close(struct vcd_write *w, bool keep, char *err, size_t len)
{
	if (keep && w->header_room) {
		body_flush(w);
		if (!w->failed)
			write_header_in_room(w);
	} else if (keep) {
		/* the body in a body file, or still in the buffer */
		write_header(w, w->vcd.fp);
		if (w->body)
			copy_body(w, w->vcd.fp);
		else if (!w->failed && w->buf_len &&
		         fwrite(w->buf, 1, w->buf_len, w->vcd.fp) != w->buf_len)
			vcd_fail_errno(w, "cannot write");
	}
	if (keep && ferror(w->vcd.fp))
		vcd_fail_errno(w, "cannot write");
	if (w->body)
		fclose(w->body);
	/* fclose flushes: its failure is a write error too */
	if (fclose(w->vcd.fp) != 0 && keep)
		vcd_fail_errno(w, "cannot write");
	if (w->gtkw_open) {
		if (keep && !w->failed)
			vcd_gtkw_write(w);
		if (fclose(w->gtkw.fp) != 0 && keep && !w->failed) {
			w->failed = true;
			snprintf(w->error, sizeof(w->error), "--gtkw %s: cannot write: %s",
			         w->gtkw_name, strerror(errno));
		}
	}
	/* both files appear, or neither */
	bool ok = keep && !w->failed;
	char msg[512];
	if (!out_file_finish(&w->vcd, ok, msg, sizeof(msg)) && ok) {
		ok = false;
		snprintf(w->error, sizeof(w->error), "--vcd %.500s", msg);
	}
	if (w->gtkw_open && !out_file_finish(&w->gtkw, ok, msg, sizeof(msg)) && ok) {
		ok = false;
		snprintf(w->error, sizeof(w->error), "--gtkw %.500s", msg);
	}
	if (keep && !ok)
		snprintf(err, len, "%s", w->error);
	vcd_free(w);
	return !keep || ok;
}
