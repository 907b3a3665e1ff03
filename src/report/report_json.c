/* report_json.c: findings and summaries as JSON (one document per run)
 * and JSON Lines (one object per line).  The keys are those rules.md
 * "What the JSON reports must carry" lists; they are stable.  The
 * document is streamed, so memory does not grow with the number of
 * findings.
 *
 * A finding and an input's summary, written for every input, are written
 * as text (struct jtext), byte for byte what Jansson's compact dump of
 * the same object in insertion order gives: building them as Jansson
 * values took an allocation per member and per number, and a dump, for
 * every finding and every credit of every VC.  The run's pieces, written
 * once, are built with Jansson. */
#include "autoconfig.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "base/utf8.h"
#include "model/fc_view.h"
#include "report/report.h"

static const size_t json_flags = JSON_COMPACT | JSON_PRESERVE_ORDER;

/* ---- JSON text ------------------------------------------------------------ */

/* A writer of JSON text to put(text, size, data), buffered. */
struct jtext {
	int (*put)(const char *, size_t, void *);
	void *data;
	size_t len;
	char buf[2048];
};

static void jt_flush(struct jtext *t)
{
	if (t->len)
		t->put(t->buf, t->len, t->data);
	t->len = 0;
}

static void jt_mem(struct jtext *t, const char *s, size_t n)
{
	if (n > sizeof(t->buf) - t->len) {
		jt_flush(t);
		if (n > sizeof(t->buf)) {
			t->put(s, n, t->data);
			return;
		}
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
}

/* text of the report's own (keys, punctuation) */
static inline void jt_raw(struct jtext *t, const char *s)
{
	jt_mem(t, s, strlen(s));
}

/* a number as Jansson writes a json_int_t ("%lld"), not through printf */
static void jt_int(struct jtext *t, json_int_t v)
{
	char buf[1 + NUMBER_U64_DIGITS], *p = buf;
	uint64_t u = (uint64_t)v;
	if (v < 0) {
		*p++ = '-';
		u = 0 - u;
	}
	p = number_put_u64(p, u);
	jt_mem(t, buf, (size_t)(p - buf));
}

/* A string of valid UTF-8 as Jansson dumps it (compact, no ASCII or
 * slash escaping): '"' and '\\' escaped, control characters as \b \f \n
 * \r \t or \u00XX, every other byte as it is. */
static const bool jt_escaped[256] = {
	[0x00] = true, [0x01] = true, [0x02] = true, [0x03] = true, [0x04] = true, [0x05] = true,
	[0x06] = true, [0x07] = true, [0x08] = true, [0x09] = true, [0x0A] = true, [0x0B] = true,
	[0x0C] = true, [0x0D] = true, [0x0E] = true, [0x0F] = true, [0x10] = true, [0x11] = true,
	[0x12] = true, [0x13] = true, [0x14] = true, [0x15] = true, [0x16] = true, [0x17] = true,
	[0x18] = true, [0x19] = true, [0x1A] = true, [0x1B] = true, [0x1C] = true, [0x1D] = true,
	[0x1E] = true, [0x1F] = true, ['"'] = true,  ['\\'] = true,
};

static void jt_str(struct jtext *t, const char *s)
{
	jt_mem(t, "\"", 1);
	const char *run = s;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (!jt_escaped[c])
			continue;
		jt_mem(t, run, (size_t)(s - run));
		run = s + 1;
		char esc[8];
		switch (c) {
		case '"':
			jt_mem(t, "\\\"", 2);
			break;
		case '\\':
			jt_mem(t, "\\\\", 2);
			break;
		case '\b':
			jt_mem(t, "\\b", 2);
			break;
		case '\f':
			jt_mem(t, "\\f", 2);
			break;
		case '\n':
			jt_mem(t, "\\n", 2);
			break;
		case '\r':
			jt_mem(t, "\\r", 2);
			break;
		case '\t':
			jt_mem(t, "\\t", 2);
			break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04X", c);
			jt_mem(t, esc, 6);
			break;
		}
	}
	jt_mem(t, run, (size_t)(s - run));
	jt_mem(t, "\"", 1);
}

/* A string from outside, as json_string_outside() makes it. */
static void jt_str_outside(struct jtext *t, const char *s)
{
	if (utf8_valid(s)) {
		jt_str(t, s);
		return;
	}
	char buf[1024];
	utf8_escape(s, buf, sizeof(buf));
	jt_str(t, buf);
}

/* "key":N with the separator sep before it */
static void jt_key_int(struct jtext *t, const char *key, json_int_t v)
{
	jt_raw(t, key);
	jt_int(t, v);
}

static void jt_int_or_null(struct jtext *t, bool known, json_int_t v)
{
	if (known)
		jt_int(t, v);
	else
		jt_mem(t, "null", 4);
}

static void jt_bool(struct jtext *t, bool v)
{
	if (v)
		jt_mem(t, "true", 4);
	else
		jt_mem(t, "false", 5);
}

static int put_file(const char *buf, size_t size, void *data)
{
	return fwrite(buf, 1, size, data) == size ? 0 : -1;
}

/* A growing string (NUL-terminated), NULL once out of memory. */
struct jt_string {
	char *s;
	size_t len, size;
	bool failed;
};

static int put_string(const char *buf, size_t size, void *data)
{
	struct jt_string *str = data;
	if (str->failed)
		return -1;
	if (size >= str->size - str->len) {
		size_t want = str->size ? str->size : 256;
		while (want - str->len <= size)
			want *= 2;
		char *p = realloc(str->s, want);
		if (!p) {
			str->failed = true;
			return -1;
		}
		str->s = p;
		str->size = want;
	}
	memcpy(str->s + str->len, buf, size);
	str->len += size;
	str->s[str->len] = '\0';
	return 0;
}

char *report_json_text(const json_t *v, size_t flags)
{
	char small[256]; /* most texts asked for fit: one dump */
	size_t n = json_dumpb(v, small, sizeof(small), flags);
	char *text = n ? malloc(n + 1) : NULL;
	if (!text)
		return NULL;
	if (n <= sizeof(small)) {
		memcpy(text, small, n);
	} else if (json_dumpb(v, text, n, flags) != n) {
		free(text);
		return NULL;
	}
	text[n] = '\0';
	return text;
}

/* A finding, with "type" first for JSON Lines (typed). */
static void finding_write(struct jtext *t, const struct finding *f, bool typed)
{
	jt_raw(t, typed ? "{\"type\":\"finding\",\"file\":" : "{\"file\":");
	jt_str_outside(t, f->pos.file ? f->pos.file : "");
	jt_key_int(t, ",\"record\":", (json_int_t)f->pos.record_no);
	if (f->pos.line)
		jt_key_int(t, ",\"line\":", (json_int_t)f->pos.line);
	if (f->column)
		jt_key_int(t, ",\"column\":", f->column);
	jt_key_int(t, ",\"byte_offset\":", (json_int_t)f->pos.byte_offset);
	/* the analyzer's own packet number: only when the export has one */
	if (f->pos.has_source_packet)
		jt_key_int(t, ",\"source_packet\":", (json_int_t)f->pos.source_packet);
	jt_raw(t, ",\"rule\":");
	jt_str(t, rule_info(f->rule)->id);
	jt_raw(t, ",\"severity\":");
	jt_str(t, severity_name(f->severity));
	jt_raw(t, ",\"time_ps\":");
	jt_int_or_null(t, f->has_time, (json_int_t)f->time_ps);
	jt_raw(t, ",\"link\":");
	jt_int_or_null(t, f->link >= 0, f->link);
	jt_raw(t, ",\"port\":");
	if (f->port != FINDING_NO_PORT)
		jt_str(t, link_dir_name((enum link_dir)f->port));
	else
		jt_raw(t, "null");
	if (f->vc != FINDING_NO_VC)
		jt_key_int(t, ",\"vc\":", f->vc);
	if (f->credit_type != FINDING_NO_CREDIT) {
		jt_raw(t, ",\"credit_type\":");
		jt_str(t, credit_type_name((enum credit_type)f->credit_type));
	}
	if (f->lane != FINDING_NO_LANE)
		jt_key_int(t, ",\"lane\":", f->lane);
	jt_raw(t, ",\"message\":");
	jt_str_outside(t, f->message);
	/* a name given twice is one member, where it was first, of the last
	 * value (as a Jansson object set twice) */
	jt_raw(t, ",\"evidence\":{");
	const char *sep = "";
	for (unsigned i = 0; i < f->evidence_count; i++) {
		const char *name = f->evidence[i].name;
		bool before = false;
		for (unsigned j = 0; j < i && !before; j++)
			before = strcmp(f->evidence[j].name, name) == 0;
		if (before)
			continue;
		json_int_t v = f->evidence[i].value;
		for (unsigned j = i + 1; j < f->evidence_count; j++)
			if (strcmp(f->evidence[j].name, name) == 0)
				v = f->evidence[j].value;
		jt_raw(t, sep);
		sep = ",";
		jt_str(t, name);
		jt_mem(t, ":", 1);
		jt_int(t, v);
	}
	char signature[96];
	jt_raw(t, "},\"signature\":");
	jt_str(t, report_finding_signature(f, signature, sizeof(signature)));
	jt_mem(t, "}", 1);
}

/* The finding's signature (issue 18): what stays the same when the same
 * fault shows in another capture, for a farm to count it once: the rule,
 * link, port, VC and credit type, '-' for what the finding does not name;
 * never the record, time, offsets, message or evidence. */
const char *report_finding_signature(const struct finding *f, char *buf, size_t len)
{
	char link[16] = "-", vc[16] = "-";
	if (f->link >= 0)
		snprintf(link, sizeof(link), "%d", f->link);
	if (f->vc != FINDING_NO_VC)
		snprintf(vc, sizeof(vc), "%d", f->vc);
	snprintf(buf, len, "%s/%s/%s/%s/%s", rule_info(f->rule)->id, link,
	         f->port != FINDING_NO_PORT ? link_dir_name((enum link_dir)f->port) : "-", vc,
	         f->credit_type != FINDING_NO_CREDIT
	                 ? credit_type_name((enum credit_type)f->credit_type)
	                 : "-");
	return buf;
}

static void dump_line(FILE *out, json_t *o)
{
	json_dumpf(o, out, json_flags);
	fputc('\n', out);
	json_decref(o);
}

/* {"info":n,"warning":n,"error":n} */
static json_t *severities_json(const uint64_t by_severity[SEV_COUNT])
{
	json_t *sev = json_object();
	for (unsigned s = 0; s < SEV_COUNT; s++)
		json_object_set_new(sev, severity_name(s),
		                    json_integer((json_int_t)by_severity[s]));
	return sev;
}

static json_t *counts_json(const uint64_t by_severity[SEV_COUNT],
                           const uint64_t by_rule[RULE_COUNT])
{
	json_t *sev = severities_json(by_severity), *rules = json_object();
	for (unsigned r = 0; r < RULE_COUNT; r++)
		if (by_rule[r])
			json_object_set_new(rules, rule_info(r)->id,
			                    json_integer((json_int_t)by_rule[r]));
	json_t *o = json_object();
	json_object_set_new(o, "by_severity", sev);
	json_object_set_new(o, "by_rule", rules);
	return o;
}

/* {"info":n,"warning":n,"error":n} */
static void severities_write(struct jtext *t, const uint64_t by_severity[SEV_COUNT])
{
	const char *sep = "{";
	for (unsigned s = 0; s < SEV_COUNT; s++) {
		jt_raw(t, sep);
		sep = ",";
		jt_str(t, severity_name(s));
		jt_mem(t, ":", 1);
		jt_int(t, (json_int_t)by_severity[s]);
	}
	jt_raw(t, *sep == '{' ? "{}" : "}");
}

/* {"by_severity":{...},"by_rule":{...} without its closing brace */
static void counts_open(struct jtext *t, const uint64_t by_severity[SEV_COUNT],
                        const uint64_t by_rule[RULE_COUNT])
{
	jt_raw(t, "{\"by_severity\":");
	severities_write(t, by_severity);
	jt_raw(t, ",\"by_rule\":{");
	const char *sep = "";
	for (unsigned r = 0; r < RULE_COUNT; r++)
		if (by_rule[r]) {
			jt_raw(t, sep);
			sep = ",";
			jt_str(t, rule_info(r)->id);
			jt_mem(t, ":", 1);
			jt_int(t, (json_int_t)by_rule[r]);
		}
	jt_mem(t, "}", 1);
}

static void counts_write(struct jtext *t, const uint64_t by_severity[SEV_COUNT],
                         const uint64_t by_rule[RULE_COUNT])
{
	counts_open(t, by_severity, by_rule);
	jt_mem(t, "}", 1);
}

static void records_write(struct jtext *t, const struct input_stats *st)
{
	jt_key_int(t, "{\"read\":", (json_int_t)st->records_read);
	jt_key_int(t, ",\"decoded\":", (json_int_t)st->records_decoded);
	jt_key_int(t, ",\"malformed\":", (json_int_t)st->records_malformed);
	jt_key_int(t, ",\"truncated\":", (json_int_t)st->records_truncated);
	jt_key_int(t, ",\"dllps\":", (json_int_t)st->dllps);
	jt_key_int(t, ",\"tlps\":", (json_int_t)st->tlps);
	jt_key_int(t, ",\"events\":", (json_int_t)st->events);
	jt_key_int(t, ",\"time_base_s\":", (json_int_t)st->time_base_s);
	/* formats whose reader counts its bytes (pcap): every byte accounted for */
	if (st->bytes_counted) {
		jt_key_int(t, ",\"bytes_read\":", (json_int_t)st->bytes_read);
		jt_key_int(t, ",\"bytes_skipped\":", (json_int_t)st->bytes_skipped);
	}
	jt_mem(t, "}", 1);
}

static void credit_write(struct jtext *t, const struct fc_credit_view *c)
{
	jt_raw(t, "{\"advertised\":");
	if (!c->advertised_seen)
		jt_raw(t, "null");
	else if (c->advertised_infinite)
		jt_raw(t, "\"inf\"");
	else
		jt_int(t, c->advertised);
	jt_raw(t, ",\"limit\":");
	jt_int_or_null(t, c->limit_known && !c->infinite, c->limit);
	jt_raw(t, ",\"consumed\":");
	jt_int_or_null(t, c->consumed_known, c->consumed);
	jt_key_int(t, ",\"width\":", c->width);
	jt_raw(t, ",\"min_available\":");
	jt_int_or_null(t, c->min_available_seen, c->min_available);
	jt_key_int(t, ",\"tlps_charged\":", (json_int_t)c->tlps_charged);
	jt_key_int(t, ",\"credits_charged\":", (json_int_t)c->credits_charged);
	jt_key_int(t, ",\"longest_wait_ps\":", (json_int_t)c->longest_wait_ps);
	/* only when so: "limit" is null both for an infinite limit and an
	 * unknown one (the text report tells them apart, and --merge) */
	if (c->infinite)
		jt_raw(t, ",\"infinite\":true");
	jt_mem(t, "}", 1);
}

/* Per link: per VC that saw anything, per transmitting port and credit
 * type, the credit state and statistics. */
static void intervals_write(struct jtext *t, const struct fc_intervals_view *iv)
{
	jt_key_int(t, "{\"count\":", (json_int_t)iv->events);
	bool has = iv->has_median;
	jt_raw(t, ",\"interval_min_ps\":");
	jt_int_or_null(t, has, (json_int_t)iv->min_ps);
	jt_raw(t, ",\"interval_median_ps\":");
	jt_int_or_null(t, has, (json_int_t)iv->median_ps);
	jt_raw(t, ",\"interval_max_ps\":");
	jt_int_or_null(t, has, (json_int_t)iv->max_ps);
	jt_mem(t, "}", 1);
}

/* --stats: per link, per port TLPs by type; per VC and port, the time at
 * zero available credits per type and the UpdateFCs per class. */
static void stats_write(struct jtext *t, const struct fc_link_view *link)
{
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		jt_raw(t, p ? "," : "{");
		jt_str(t, link_dir_name(p));
		jt_raw(t, ":{\"tlps_by_type\":{");
		const char *sep = "";
		for (unsigned k = 0; k < TLP_KIND_COUNT; k++)
			if (link->dl[p].tlps_by_kind[k]) {
				jt_raw(t, sep);
				sep = ",";
				jt_str(t, tlp_kind_name(k));
				jt_mem(t, ":", 1);
				jt_int(t, (json_int_t)link->dl[p].tlps_by_kind[k]);
			}
		jt_raw(t, "},\"vcs\":[");
		sep = "";
		for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
			const struct fc_port_view *pv = &link->vc[vc].port[p];
			bool any = false;
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				any |= pv->credit[ct].time_at_zero_ps != 0 ||
				       pv->credit[ct].tlps_charged != 0;
			for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++)
				any |= pv->updates[cls].events != 0;
			if (!any)
				continue;
			jt_raw(t, sep);
			sep = ",";
			jt_key_int(t, "{\"vc\":", vc);
			jt_raw(t, ",\"time_at_zero_ps\":");
			for (unsigned ct = 0; ct < CT_COUNT; ct++) {
				jt_raw(t, ct ? "," : "{");
				jt_str(t, credit_type_name(ct));
				jt_mem(t, ":", 1);
				jt_int(t, (json_int_t)pv->credit[ct].time_at_zero_ps);
			}
			jt_raw(t, CT_COUNT ? "}" : "{}");
			jt_raw(t, ",\"updatefc\":");
			for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++) {
				jt_raw(t, cls ? "," : "{");
				jt_str(t, fc_class_name(cls));
				jt_mem(t, ":", 1);
				intervals_write(t, &pv->updates[cls]);
			}
			jt_raw(t, FC_CLASS_COUNT ? "}}" : "{}}");
		}
		jt_raw(t, "]}");
	}
	jt_raw(t, DIR_COUNT ? "}" : "{}");
}

/* --stats, the transaction layer per direction (the port that sent the
 * requests): requests by kind (kinds not sent left out), how they ended,
 * the latencies (null without a completed request), the completions sent
 * back for them and their statuses. */
static void latency_write(struct jtext *t, const struct tl_latency_view *l)
{
	jt_key_int(t, "{\"count\":", (json_int_t)l->count);
	bool has = l->has_median;
	jt_raw(t, ",\"min\":");
	jt_int_or_null(t, has, (json_int_t)l->min_ps);
	jt_raw(t, ",\"median\":");
	jt_int_or_null(t, has, (json_int_t)l->median_ps);
	jt_raw(t, ",\"max\":");
	jt_int_or_null(t, has, (json_int_t)l->max_ps);
	jt_mem(t, "}", 1);
}

static void tl_write(struct jtext *t, const struct tl_stats_view *s)
{
	jt_raw(t, "{\"requests\":{");
	const char *sep = "";
	for (unsigned k = 0; k < TLP_KIND_COUNT; k++)
		if (s->requests[k]) {
			jt_raw(t, sep);
			sep = ",";
			jt_str(t, tlp_kind_name(k));
			jt_mem(t, ":", 1);
			jt_int(t, (json_int_t)s->requests[k]);
		}
	jt_key_int(t, "},\"requests_total\":", (json_int_t)s->requests_total);
	jt_key_int(t, ",\"completed\":", (json_int_t)s->completed);
	jt_key_int(t, ",\"ended_by_epoch\":", (json_int_t)s->ended_by_epoch);
	jt_key_int(t, ",\"timed_out\":", (json_int_t)s->timed_out);
	jt_key_int(t, ",\"outstanding\":", s->outstanding);
	jt_key_int(t, ",\"outstanding_max\":", s->outstanding_high_water);
	jt_raw(t, ",\"latency_first_ps\":");
	latency_write(t, &s->latency_first);
	jt_raw(t, ",\"latency_last_ps\":");
	latency_write(t, &s->latency_last);
	jt_key_int(t, ",\"completions\":", (json_int_t)s->completions);
	jt_key_int(t, ",\"unmatched\":", (json_int_t)s->completions_unmatched);
	jt_raw(t, ",\"status\":");
	for (unsigned st = 0; st < TL_STATUS_VIEW_COUNT; st++) {
		jt_raw(t, st ? "," : "{");
		jt_str(t, tl_status_view_name((enum tl_status_view)st));
		jt_mem(t, ":", 1);
		jt_int(t, (json_int_t)s->status[st]);
	}
	jt_raw(t, TL_STATUS_VIEW_COUNT ? "}" : "{}");
	jt_key_int(t, ",\"requesters_untracked\":", (json_int_t)s->requesters_untracked);
	jt_key_int(t, ",\"while_unknown\":", (json_int_t)s->while_unknown);
	jt_mem(t, "}", 1);
}

static void transactions_write(struct jtext *t, const struct fc_link_view *link)
{
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		jt_raw(t, p ? "," : "{");
		jt_str(t, link_dir_name(p));
		jt_mem(t, ":", 1);
		tl_write(t, &link->tl_stats[p]);
	}
	jt_raw(t, DIR_COUNT ? "}" : "{}");
}

static void links_write(struct jtext *t, const struct input_report *r)
{
	jt_mem(t, "[", 1);
	const char *lsep = "";
	for (unsigned i = 0; (r->model || r->merged) && i < FC_LINK_COUNT; i++) {
		struct fc_link_view view;
		if (!report_input_link(r, i, &view))
			continue;
		const struct fc_link_view *link = &view;
		jt_raw(t, lsep);
		lsep = ",";
		jt_key_int(t, "{\"link\":", i);
		jt_raw(t, ",\"scaled_fc\":");
		if (link->scaling_known)
			jt_bool(t, link->scaling_active);
		else
			jt_raw(t, "null");
		jt_raw(t, ",\"tlps_not_charged\":");
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			jt_raw(t, p ? "," : "{");
			jt_str(t, link_dir_name(p));
			jt_mem(t, ":", 1);
			jt_int(t, (json_int_t)link->tlps_not_charged[p]);
		}
		jt_raw(t, "},\"data_link\":");
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			const struct fc_dl_view *d = &link->dl[p];
			jt_raw(t, p ? "," : "{");
			jt_str(t, link_dir_name(p));
			jt_key_int(t, ":{\"tlps_new\":", (json_int_t)d->tlps_new);
			jt_key_int(t, ",\"tlps_replayed\":", (json_int_t)d->tlps_replayed);
			jt_key_int(t, ",\"tlps_nullified\":", (json_int_t)d->tlps_nullified);
			jt_key_int(t, ",\"tlps_unreadable\":", (json_int_t)d->tlps_unreadable);
			jt_key_int(t, ",\"acks_received\":", (json_int_t)d->acks_received);
			jt_key_int(t, ",\"naks_received\":", (json_int_t)d->naks_received);
			jt_key_int(t, ",\"outstanding_high_water\":", d->outstanding_high_water);
			/* only when so: what could not be checked (NetTLP) */
			if (d->no_seq)
				jt_raw(t, ",\"no_sequence_numbers\":true");
			if (d->no_lcrc)
				jt_raw(t, ",\"no_lcrc\":true");
			jt_mem(t, "}", 1);
		}
		jt_raw(t, "},\"damaged\":");
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			jt_raw(t, p ? "," : "{");
			jt_str(t, link_dir_name(p));
			jt_key_int(t, ":{\"dllps\":", (json_int_t)link->damaged_dllps[p]);
			jt_key_int(t, ",\"tlps\":", (json_int_t)link->damaged_tlps[p]);
			jt_mem(t, "}", 1);
		}
		jt_raw(t, "},\"vcs\":[");
		const char *vsep = "";
		for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
			const struct fc_vc_view *v = &link->vc[vc];
			bool used = v->state == VC_INIT || v->state == VC_GIVEN ||
			            v->tlps_while_unknown || v->fc_dllps_while_unknown ||
			            v->epochs_joined;
			/* and every VC the text report shows credits of */
			for (unsigned p = 0; p < DIR_COUNT; p++)
				for (unsigned ct = 0; ct < CT_COUNT; ct++)
					used |= credit_has_news(&v->port[p].credit[ct]);
			if (!used)
				continue;
			jt_raw(t, vsep);
			vsep = ",";
			jt_key_int(t, "{\"vc\":", vc);
			jt_raw(t, ",\"state\":");
			jt_str(t, report_vc_state_name(v->state));
			jt_key_int(t, ",\"epochs_joined\":", (json_int_t)v->epochs_joined);
			jt_key_int(t,
			           ",\"tlps_while_unknown\":", (json_int_t)v->tlps_while_unknown);
			jt_key_int(t, ",\"fc_dllps_while_unknown\":",
			           (json_int_t)v->fc_dllps_while_unknown);
			/* only when joined: the record the text report names */
			if (v->epochs_joined)
				jt_key_int(t, ",\"joined_record\":", (json_int_t)v->joined_record);
			for (unsigned p = 0; p < DIR_COUNT; p++) {
				jt_mem(t, ",", 1);
				jt_str(t, link_dir_name(p));
				jt_raw(t, ":{\"fi1\":");
				jt_bool(t, v->port[p].fi1);
				jt_raw(t, ",\"complete\":");
				jt_bool(t, v->port[p].complete);
				jt_raw(t, ",\"credits\":");
				for (unsigned ct = 0; ct < CT_COUNT; ct++) {
					jt_raw(t, ct ? "," : "{");
					jt_str(t, credit_type_name(ct));
					jt_mem(t, ":", 1);
					credit_write(t, &v->port[p].credit[ct]);
				}
				jt_raw(t, CT_COUNT ? "}}" : "{}}");
			}
			jt_mem(t, "}", 1);
		}
		jt_mem(t, "]", 1);
		if (r->stats_wanted) {
			jt_raw(t, ",\"stats\":");
			stats_write(t, link);
			jt_raw(t, ",\"transactions\":");
			transactions_write(t, link);
		}
		jt_mem(t, "}", 1);
	}
	jt_mem(t, "]", 1);
}

static void options_write(struct jtext *t, const struct fc_options *o)
{
	if (!o) {
		jt_raw(t, "{}");
		return;
	}
	jt_raw(t, "{\"role_down\":");
	jt_str(t, port_role_name(o->role[DIR_DOWN]));
	jt_raw(t, ",\"role_up\":");
	jt_str(t, port_role_name(o->role[DIR_UP]));
	jt_raw(t, ",\"mps\":");
	jt_int_or_null(t, o->mps != 0, o->mps);
	jt_raw(t, ",\"tc_to_vc\":");
	for (unsigned tc = 0; tc < 8; tc++) {
		jt_raw(t, tc ? "," : "[");
		jt_int(t, o->tc_to_vc[tc]);
	}
	jt_mem(t, "]", 1);
	/* only when given (the text report says when it was not) */
	if (o->mrrs)
		jt_key_int(t, ",\"mrrs\":", o->mrrs);
	jt_mem(t, "}", 1);
}

/* The members an input's summary carries in both JSON forms, from
 * "format" on (its "file" before them is the caller's), no braces. */
static void input_summary_members(struct jtext *t, const struct input_report *r)
{
	jt_raw(t, "\"format\":");
	jt_str(t, r->format);
	/* only for another tool's encapsulation: "format" keeps naming the
	 * container, as for every pcap before (issue 17) */
	if (r->encapsulation) {
		jt_raw(t, ",\"encapsulation\":");
		jt_str(t, r->encapsulation);
	}
	jt_raw(t, ",\"records\":");
	records_write(t, r->stats);
	jt_raw(t, ",\"summary\":");
	counts_write(t, r->sink->count_by_severity, r->sink->count_by_rule);
	jt_raw(t, ",\"options\":");
	options_write(t, r->fc_opts);
	jt_raw(t, ",\"links\":");
	links_write(t, r);
}

char *report_json_finding_text(const struct finding *f)
{
	struct jt_string str = { 0 };
	struct jtext t = { .put = put_string, .data = &str };
	finding_write(&t, f, false);
	jt_flush(&t);
	if (str.failed) {
		free(str.s);
		return NULL;
	}
	return str.s;
}

void report_json_input_write(const struct input_report *r, int (*put)(const char *, size_t, void *),
                             void *data)
{
	struct jtext t = { .put = put, .data = data };
	jt_raw(&t, "{\"file\":");
	jt_str_outside(&t, r->file);
	jt_mem(&t, ",", 1);
	input_summary_members(&t, r);
	jt_mem(&t, "}", 1);
	jt_flush(&t);
}

void report_jsonl_finding(void *ctx, const struct finding *f)
{
	struct jtext t = { .put = put_file, .data = ctx };
	finding_write(&t, f, true);
	jt_mem(&t, "\n", 1);
	jt_flush(&t);
}

void report_jsonl_input(FILE *out, const struct input_report *r)
{
	struct jtext t = { .put = put_file, .data = out };
	jt_raw(&t, "{\"type\":\"summary\",\"file\":");
	jt_str_outside(&t, r->file);
	jt_mem(&t, ",", 1);
	input_summary_members(&t, r);
	/* the line read back alone (--merge) names its maker */
	jt_raw(&t, ",\"version\":");
	jt_str(&t, PACKAGE_VERSION);
	jt_raw(&t, "}\n");
	jt_flush(&t);
}

void report_json_begin(FILE *out)
{
	fprintf(out, "{\"tool\":\"dllpcheck\",\"version\":\"%s\",\"inputs\":[", PACKAGE_VERSION);
}

void report_json_separator(FILE *out)
{
	fputc(',', out);
}

static void dump_string(FILE *out, const char *s)
{
	json_t *v = json_string_outside(s);
	json_dumpf(v, out, json_flags | JSON_ENCODE_ANY);
	json_decref(v);
}

void report_json_input_begin(struct json_input *ji, FILE *out, const char *file)
{
	ji->out = out;
	ji->findings = 0;
	fputs("\n{\"file\":", out);
	dump_string(out, file);
	fputs(",\"findings\":[", out);
}

void report_json_finding(void *ctx, const struct finding *f)
{
	struct json_input *ji = ctx;
	struct jtext t = { .put = put_file, .data = ji->out };
	jt_raw(&t, ji->findings++ ? ",\n" : "\n");
	finding_write(&t, f, false);
	jt_flush(&t);
}

void report_json_input_end(struct json_input *ji, const struct input_report *r)
{
	/* the members from "format" on go on after the findings array */
	struct jtext t = { .put = put_file, .data = ji->out };
	jt_raw(&t, "],");
	input_summary_members(&t, r);
	jt_mem(&t, "}", 1);
	jt_flush(&t);
}

void report_json_input_error(FILE *out, const char *file, const char *error)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", json_string_outside(file));
	json_object_set_new(o, "error", json_string_outside(error));
	fputc('\n', out);
	json_dumpf(o, out, json_flags);
	json_decref(o);
}

/* The counts of a whole run. */
static void totals(const struct input_result *results, int count, uint64_t by_severity[SEV_COUNT],
                   uint64_t by_rule[RULE_COUNT])
{
	memset(by_severity, 0, SEV_COUNT * sizeof(by_severity[0]));
	memset(by_rule, 0, RULE_COUNT * sizeof(by_rule[0]));
	for (int i = 0; i < count; i++) {
		for (unsigned s = 0; s < SEV_COUNT; s++)
			by_severity[s] += results[i].by_severity[s];
		for (unsigned r = 0; r < RULE_COUNT; r++)
			by_rule[r] += results[i].by_rule[r];
	}
}

static json_t *totals_json(const struct input_result *results, int count)
{
	uint64_t by_severity[SEV_COUNT], by_rule[RULE_COUNT];
	totals(results, count, by_severity, by_rule);
	return counts_json(by_severity, by_rule);
}

void report_json_end(FILE *out, const struct input_result *results, int count, int exit_status)
{
	uint64_t by_severity[SEV_COUNT], by_rule[RULE_COUNT];
	totals(results, count, by_severity, by_rule);
	struct jtext t = { .put = put_file, .data = out };
	jt_raw(&t, "\n],\"summary\":");
	counts_open(&t, by_severity, by_rule);
	jt_key_int(&t, ",\"inputs\":", count);
	jt_key_int(&t, ",\"exit_status\":", exit_status);
	jt_raw(&t, "}}\n");
	jt_flush(&t);
}

json_t *report_json_batch_object(char *const *files, const struct input_result *results, int count,
                                 int exit_status)
{
	json_t *o = json_object(), *list = json_array();
	for (int i = 0; i < count; i++) {
		const struct input_result *r = &results[i];
		json_t *e = json_object();
		json_object_set_new(e, "file", json_string_outside(files[i]));
		json_object_set_new(e, "status", json_integer(r->status));
		json_object_set_new(e, "format",
		                    r->format[0] ? json_string(r->format) : json_null());
		/* as the text batch table: none for an input that did not open */
		json_object_set_new(e, "records",
		                    r->opened ? json_integer((json_int_t)r->stats.records_read)
		                              : json_null());
		json_object_set_new(e, "findings", severities_json(r->by_severity));
		if (r->status == EXIT_ERROR && r->error[0])
			json_object_set_new(e, "error", json_string_outside(r->error));
		json_array_append_new(list, e);
	}
	json_object_set_new(o, "inputs", list);
	json_object_set_new(o, "exit_status", json_integer(exit_status));
	return o;
}

void report_jsonl_input_error(FILE *out, const char *file, const char *format, const char *error)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("error"));
	json_object_set_new(o, "file", json_string_outside(file));
	json_object_set_new(o, "error", json_string_outside(error));
	if (format)
		json_object_set_new(o, "format", json_string(format));
	json_object_set_new(o, "version", json_string(PACKAGE_VERSION));
	dump_line(out, o);
}

void report_jsonl_batch(FILE *out, char *const *files, const struct input_result *results,
                        int count, int exit_status)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("batch"));
	json_t *totals = totals_json(results, count);
	json_object_update(o, totals);
	json_decref(totals);
	json_t *list = json_array();
	for (int i = 0; i < count; i++) {
		json_t *e = json_object();
		json_object_set_new(e, "file", json_string_outside(files[i]));
		json_object_set_new(e, "exit_status", json_integer(results[i].status));
		json_array_append_new(list, e);
	}
	json_object_set_new(o, "inputs", list);
	json_object_set_new(o, "exit_status", json_integer(exit_status));
	dump_line(out, o);
}
