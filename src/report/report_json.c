/* report_json.c: findings and summaries as JSON (one document per run)
 * and JSON Lines (one object per line).  The keys are those rules.md
 * "What the JSON reports must carry" lists; they are stable.  The
 * document is streamed, so memory does not grow with the number of
 * findings.
 *
 * A finding and an input's summary, written for every input, are written
 * as text (struct text_out), byte for byte what Jansson's compact dump of
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
#include "report/text_out.h"

static const size_t json_flags = JSON_COMPACT | JSON_PRESERVE_ORDER;

/* ---- JSON text ------------------------------------------------------------ */

/* a number as Jansson writes a json_int_t ("%lld"), not through printf */
static void jt_int(struct text_out *t, json_int_t v)
{
	char buf[1 + NUMBER_U64_DIGITS], *p = buf;
	uint64_t u = (uint64_t)v;
	if (v < 0) {
		*p++ = '-';
		u = 0 - u;
	}
	p = number_put_u64(p, u);
	text_out_mem(t, buf, (size_t)(p - buf));
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

static void jt_str(struct text_out *t, const char *s)
{
	text_out_mem(t, "\"", 1);
	const char *run = s;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (!jt_escaped[c])
			continue;
		text_out_mem(t, run, (size_t)(s - run));
		run = s + 1;
		char esc[8];
		switch (c) {
		case '"':
			text_out_mem(t, "\\\"", 2);
			break;
		case '\\':
			text_out_mem(t, "\\\\", 2);
			break;
		case '\b':
			text_out_mem(t, "\\b", 2);
			break;
		case '\f':
			text_out_mem(t, "\\f", 2);
			break;
		case '\n':
			text_out_mem(t, "\\n", 2);
			break;
		case '\r':
			text_out_mem(t, "\\r", 2);
			break;
		case '\t':
			text_out_mem(t, "\\t", 2);
			break;
		default:
			snprintf(esc, sizeof(esc), "\\u%04X", c);
			text_out_mem(t, esc, 6);
			break;
		}
	}
	text_out_mem(t, run, (size_t)(s - run));
	text_out_mem(t, "\"", 1);
}

/* A string from outside, as json_string_outside() makes it. */
static void jt_str_outside(struct text_out *t, const char *s)
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
static void jt_key_int(struct text_out *t, const char *key, json_int_t v)
{
	text_out_str(t, key);
	jt_int(t, v);
}

static void jt_int_or_null(struct text_out *t, bool known, json_int_t v)
{
	if (known)
		jt_int(t, v);
	else
		text_out_mem(t, "null", 4);
}

static void jt_bool(struct text_out *t, bool v)
{
	if (v)
		text_out_mem(t, "true", 4);
	else
		text_out_mem(t, "false", 5);
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
static void finding_write(struct text_out *t, const struct finding *f, bool typed)
{
	text_out_str(t, typed ? "{\"type\":\"finding\",\"file\":" : "{\"file\":");
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
	text_out_str(t, ",\"rule\":");
	jt_str(t, rule_info(f->rule)->id);
	text_out_str(t, ",\"severity\":");
	jt_str(t, severity_name(f->severity));
	text_out_str(t, ",\"time_ps\":");
	jt_int_or_null(t, f->has_time, (json_int_t)f->time_ps);
	text_out_str(t, ",\"link\":");
	jt_int_or_null(t, f->link >= 0, f->link);
	text_out_str(t, ",\"port\":");
	if (f->port != FINDING_NO_PORT)
		jt_str(t, link_dir_name((enum link_dir)f->port));
	else
		text_out_str(t, "null");
	if (f->vc != FINDING_NO_VC)
		jt_key_int(t, ",\"vc\":", f->vc);
	if (f->credit_type != FINDING_NO_CREDIT) {
		text_out_str(t, ",\"credit_type\":");
		jt_str(t, credit_type_name((enum credit_type)f->credit_type));
	}
	if (f->lane != FINDING_NO_LANE)
		jt_key_int(t, ",\"lane\":", f->lane);
	text_out_str(t, ",\"message\":");
	jt_str_outside(t, f->message);
	/* a name given twice is one member, where it was first, of the last
	 * value (as a Jansson object set twice) */
	text_out_str(t, ",\"evidence\":{");
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
		text_out_str(t, sep);
		sep = ",";
		jt_str(t, name);
		text_out_mem(t, ":", 1);
		jt_int(t, v);
	}
	char signature[96];
	text_out_str(t, "},\"signature\":");
	jt_str(t, report_finding_signature(f, signature, sizeof(signature)));
	text_out_mem(t, "}", 1);
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
static void severities_write(struct text_out *t, const uint64_t by_severity[SEV_COUNT])
{
	const char *sep = "{";
	for (unsigned s = 0; s < SEV_COUNT; s++) {
		text_out_str(t, sep);
		sep = ",";
		jt_str(t, severity_name(s));
		text_out_mem(t, ":", 1);
		jt_int(t, (json_int_t)by_severity[s]);
	}
	text_out_str(t, *sep == '{' ? "{}" : "}");
}

/* {"by_severity":{...},"by_rule":{...} without its closing brace */
static void counts_open(struct text_out *t, const uint64_t by_severity[SEV_COUNT],
                        const uint64_t by_rule[RULE_COUNT])
{
	text_out_str(t, "{\"by_severity\":");
	severities_write(t, by_severity);
	text_out_str(t, ",\"by_rule\":{");
	const char *sep = "";
	for (unsigned r = 0; r < RULE_COUNT; r++)
		if (by_rule[r]) {
			text_out_str(t, sep);
			sep = ",";
			jt_str(t, rule_info(r)->id);
			text_out_mem(t, ":", 1);
			jt_int(t, (json_int_t)by_rule[r]);
		}
	text_out_mem(t, "}", 1);
}

static void counts_write(struct text_out *t, const uint64_t by_severity[SEV_COUNT],
                         const uint64_t by_rule[RULE_COUNT])
{
	counts_open(t, by_severity, by_rule);
	text_out_mem(t, "}", 1);
}

static void records_write(struct text_out *t, const struct input_stats *st)
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
	text_out_mem(t, "}", 1);
}

static void credit_write(struct text_out *t, const struct fc_credit_view *c)
{
	text_out_str(t, "{\"advertised\":");
	if (!c->advertised_seen)
		text_out_str(t, "null");
	else if (c->advertised_infinite)
		text_out_str(t, "\"inf\"");
	else
		jt_int(t, c->advertised);
	text_out_str(t, ",\"limit\":");
	jt_int_or_null(t, c->limit_known && !c->infinite, c->limit);
	text_out_str(t, ",\"consumed\":");
	jt_int_or_null(t, c->consumed_known, c->consumed);
	jt_key_int(t, ",\"width\":", c->width);
	text_out_str(t, ",\"min_available\":");
	jt_int_or_null(t, c->min_available_seen, c->min_available);
	jt_key_int(t, ",\"tlps_charged\":", (json_int_t)c->tlps_charged);
	jt_key_int(t, ",\"credits_charged\":", (json_int_t)c->credits_charged);
	jt_key_int(t, ",\"longest_wait_ps\":", (json_int_t)c->longest_wait_ps);
	/* only when so: "limit" is null both for an infinite limit and an
	 * unknown one (the text report tells them apart, and --merge) */
	if (c->infinite)
		text_out_str(t, ",\"infinite\":true");
	text_out_mem(t, "}", 1);
}

/* Per link: per VC that saw anything, per transmitting port and credit
 * type, the credit state and statistics. */
static void intervals_write(struct text_out *t, const struct fc_intervals_view *iv)
{
	jt_key_int(t, "{\"count\":", (json_int_t)iv->events);
	bool has = iv->has_median;
	text_out_str(t, ",\"interval_min_ps\":");
	jt_int_or_null(t, has, (json_int_t)iv->min_ps);
	text_out_str(t, ",\"interval_median_ps\":");
	jt_int_or_null(t, has, (json_int_t)iv->median_ps);
	text_out_str(t, ",\"interval_max_ps\":");
	jt_int_or_null(t, has, (json_int_t)iv->max_ps);
	text_out_mem(t, "}", 1);
}

/* --stats: per link, per port TLPs by type; per VC and port, the time at
 * zero available credits per type and the UpdateFCs per class. */
static void stats_write(struct text_out *t, const struct fc_link_view *link)
{
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		text_out_str(t, p ? "," : "{");
		jt_str(t, link_dir_name(p));
		text_out_str(t, ":{\"tlps_by_type\":{");
		const char *sep = "";
		for (unsigned k = 0; k < TLP_KIND_COUNT; k++)
			if (link->dl[p].tlps_by_kind[k]) {
				text_out_str(t, sep);
				sep = ",";
				jt_str(t, tlp_kind_name(k));
				text_out_mem(t, ":", 1);
				jt_int(t, (json_int_t)link->dl[p].tlps_by_kind[k]);
			}
		text_out_str(t, "},\"vcs\":[");
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
			text_out_str(t, sep);
			sep = ",";
			jt_key_int(t, "{\"vc\":", vc);
			text_out_str(t, ",\"time_at_zero_ps\":");
			for (unsigned ct = 0; ct < CT_COUNT; ct++) {
				text_out_str(t, ct ? "," : "{");
				jt_str(t, credit_type_name(ct));
				text_out_mem(t, ":", 1);
				jt_int(t, (json_int_t)pv->credit[ct].time_at_zero_ps);
			}
			text_out_str(t, CT_COUNT ? "}" : "{}");
			text_out_str(t, ",\"updatefc\":");
			for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++) {
				text_out_str(t, cls ? "," : "{");
				jt_str(t, fc_class_name(cls));
				text_out_mem(t, ":", 1);
				intervals_write(t, &pv->updates[cls]);
			}
			text_out_str(t, FC_CLASS_COUNT ? "}}" : "{}}");
		}
		text_out_str(t, "]}");
	}
	text_out_str(t, DIR_COUNT ? "}" : "{}");
}

/* --stats, the transaction layer per direction (the port that sent the
 * requests): requests by kind (kinds not sent left out), how they ended,
 * the latencies (null without a completed request), the completions sent
 * back for them and their statuses. */
static void latency_write(struct text_out *t, const struct tl_latency_view *l)
{
	jt_key_int(t, "{\"count\":", (json_int_t)l->count);
	bool has = l->has_median;
	text_out_str(t, ",\"min\":");
	jt_int_or_null(t, has, (json_int_t)l->min_ps);
	text_out_str(t, ",\"median\":");
	jt_int_or_null(t, has, (json_int_t)l->median_ps);
	text_out_str(t, ",\"max\":");
	jt_int_or_null(t, has, (json_int_t)l->max_ps);
	text_out_mem(t, "}", 1);
}

static void tl_write(struct text_out *t, const struct tl_stats_view *s)
{
	text_out_str(t, "{\"requests\":{");
	const char *sep = "";
	for (unsigned k = 0; k < TLP_KIND_COUNT; k++)
		if (s->requests[k]) {
			text_out_str(t, sep);
			sep = ",";
			jt_str(t, tlp_kind_name(k));
			text_out_mem(t, ":", 1);
			jt_int(t, (json_int_t)s->requests[k]);
		}
	jt_key_int(t, "},\"requests_total\":", (json_int_t)s->requests_total);
	jt_key_int(t, ",\"completed\":", (json_int_t)s->completed);
	jt_key_int(t, ",\"ended_by_epoch\":", (json_int_t)s->ended_by_epoch);
	jt_key_int(t, ",\"timed_out\":", (json_int_t)s->timed_out);
	jt_key_int(t, ",\"outstanding\":", s->outstanding);
	jt_key_int(t, ",\"outstanding_max\":", s->outstanding_high_water);
	text_out_str(t, ",\"latency_first_ps\":");
	latency_write(t, &s->latency_first);
	text_out_str(t, ",\"latency_last_ps\":");
	latency_write(t, &s->latency_last);
	jt_key_int(t, ",\"completions\":", (json_int_t)s->completions);
	jt_key_int(t, ",\"unmatched\":", (json_int_t)s->completions_unmatched);
	text_out_str(t, ",\"status\":");
	for (unsigned st = 0; st < TL_STATUS_VIEW_COUNT; st++) {
		text_out_str(t, st ? "," : "{");
		jt_str(t, tl_status_view_name((enum tl_status_view)st));
		text_out_mem(t, ":", 1);
		jt_int(t, (json_int_t)s->status[st]);
	}
	text_out_str(t, TL_STATUS_VIEW_COUNT ? "}" : "{}");
	jt_key_int(t, ",\"requesters_untracked\":", (json_int_t)s->requesters_untracked);
	jt_key_int(t, ",\"while_unknown\":", (json_int_t)s->while_unknown);
	text_out_mem(t, "}", 1);
}

static void transactions_write(struct text_out *t, const struct fc_link_view *link)
{
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		text_out_str(t, p ? "," : "{");
		jt_str(t, link_dir_name(p));
		text_out_mem(t, ":", 1);
		tl_write(t, &link->tl_stats[p]);
	}
	text_out_str(t, DIR_COUNT ? "}" : "{}");
}

static void links_write(struct text_out *t, const struct input_report *r)
{
	text_out_mem(t, "[", 1);
	const char *lsep = "";
	for (unsigned i = report_input_next_link(r, 0); i < FC_LINK_COUNT;
	     i = report_input_next_link(r, i + 1)) {
		struct fc_link_view view;
		if (!report_input_link(r, i, &view))
			continue;
		const struct fc_link_view *link = &view;
		text_out_str(t, lsep);
		lsep = ",";
		jt_key_int(t, "{\"link\":", i);
		text_out_str(t, ",\"scaled_fc\":");
		if (link->scaling_known)
			jt_bool(t, link->scaling_active);
		else
			text_out_str(t, "null");
		text_out_str(t, ",\"tlps_not_charged\":");
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			text_out_str(t, p ? "," : "{");
			jt_str(t, link_dir_name(p));
			text_out_mem(t, ":", 1);
			jt_int(t, (json_int_t)link->tlps_not_charged[p]);
		}
		text_out_str(t, "},\"data_link\":");
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			const struct fc_dl_view *d = &link->dl[p];
			text_out_str(t, p ? "," : "{");
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
				text_out_str(t, ",\"no_sequence_numbers\":true");
			if (d->no_lcrc)
				text_out_str(t, ",\"no_lcrc\":true");
			text_out_mem(t, "}", 1);
		}
		text_out_str(t, "},\"damaged\":");
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			text_out_str(t, p ? "," : "{");
			jt_str(t, link_dir_name(p));
			jt_key_int(t, ":{\"dllps\":", (json_int_t)link->damaged_dllps[p]);
			jt_key_int(t, ",\"tlps\":", (json_int_t)link->damaged_tlps[p]);
			text_out_mem(t, "}", 1);
		}
		text_out_str(t, "},\"vcs\":[");
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
			text_out_str(t, vsep);
			vsep = ",";
			jt_key_int(t, "{\"vc\":", vc);
			text_out_str(t, ",\"state\":");
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
				text_out_mem(t, ",", 1);
				jt_str(t, link_dir_name(p));
				text_out_str(t, ":{\"fi1\":");
				jt_bool(t, v->port[p].fi1);
				text_out_str(t, ",\"complete\":");
				jt_bool(t, v->port[p].complete);
				text_out_str(t, ",\"credits\":");
				for (unsigned ct = 0; ct < CT_COUNT; ct++) {
					text_out_str(t, ct ? "," : "{");
					jt_str(t, credit_type_name(ct));
					text_out_mem(t, ":", 1);
					credit_write(t, &v->port[p].credit[ct]);
				}
				text_out_str(t, CT_COUNT ? "}}" : "{}}");
			}
			text_out_mem(t, "}", 1);
		}
		text_out_mem(t, "]", 1);
		if (r->stats_wanted) {
			text_out_str(t, ",\"stats\":");
			stats_write(t, link);
			text_out_str(t, ",\"transactions\":");
			transactions_write(t, link);
		}
		text_out_mem(t, "}", 1);
	}
	text_out_mem(t, "]", 1);
}

static void options_write(struct text_out *t, const struct fc_options *o)
{
	if (!o) {
		text_out_str(t, "{}");
		return;
	}
	text_out_str(t, "{\"role_down\":");
	jt_str(t, port_role_name(o->role[DIR_DOWN]));
	text_out_str(t, ",\"role_up\":");
	jt_str(t, port_role_name(o->role[DIR_UP]));
	text_out_str(t, ",\"mps\":");
	jt_int_or_null(t, o->mps != 0, o->mps);
	text_out_str(t, ",\"tc_to_vc\":");
	for (unsigned tc = 0; tc < 8; tc++) {
		text_out_str(t, tc ? "," : "[");
		jt_int(t, o->tc_to_vc[tc]);
	}
	text_out_mem(t, "]", 1);
	/* only when given (the text report says when it was not) */
	if (o->mrrs)
		jt_key_int(t, ",\"mrrs\":", o->mrrs);
	text_out_mem(t, "}", 1);
}

/* The members an input's summary carries in both JSON forms, from
 * "format" on (its "file" before them is the caller's), no braces. */
static void input_summary_members(struct text_out *t, const struct input_report *r)
{
	text_out_str(t, "\"format\":");
	jt_str(t, r->format);
	/* only for another tool's encapsulation: "format" keeps naming the
	 * container, as for every pcap before (issue 17) */
	if (r->encapsulation) {
		text_out_str(t, ",\"encapsulation\":");
		jt_str(t, r->encapsulation);
	}
	text_out_str(t, ",\"records\":");
	records_write(t, r->stats);
	text_out_str(t, ",\"summary\":");
	counts_write(t, r->sink->count_by_severity, r->sink->count_by_rule);
	text_out_str(t, ",\"options\":");
	options_write(t, r->fc_opts);
	text_out_str(t, ",\"links\":");
	links_write(t, r);
}

char *report_json_finding_text(const struct finding *f)
{
	struct jt_string str = { 0 };
	struct text_out t = { .put = put_string, .data = &str };
	finding_write(&t, f, false);
	text_out_flush(&t);
	if (str.failed) {
		free(str.s);
		return NULL;
	}
	return str.s;
}

void report_json_input_write(const struct input_report *r, int (*put)(const char *, size_t, void *),
                             void *data)
{
	struct text_out t = { .put = put, .data = data };
	text_out_str(&t, "{\"file\":");
	jt_str_outside(&t, r->file);
	text_out_mem(&t, ",", 1);
	input_summary_members(&t, r);
	text_out_mem(&t, "}", 1);
	text_out_flush(&t);
}

void report_jsonl_finding(void *ctx, const struct finding *f)
{
	struct text_out t = { .put = put_file, .data = ctx };
	finding_write(&t, f, true);
	text_out_mem(&t, "\n", 1);
	text_out_flush(&t);
}

void report_jsonl_input(FILE *out, const struct input_report *r)
{
	struct text_out t = { .put = put_file, .data = out };
	text_out_str(&t, "{\"type\":\"summary\",\"file\":");
	jt_str_outside(&t, r->file);
	text_out_mem(&t, ",", 1);
	input_summary_members(&t, r);
	/* the line read back alone (--merge) names its maker */
	text_out_str(&t, ",\"version\":");
	jt_str(&t, PACKAGE_VERSION);
	text_out_str(&t, "}\n");
	text_out_flush(&t);
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
	struct text_out t = { .put = put_file, .data = ji->out };
	text_out_str(&t, ji->findings++ ? ",\n" : "\n");
	finding_write(&t, f, false);
	text_out_flush(&t);
}

void report_json_input_end(struct json_input *ji, const struct input_report *r)
{
	/* the members from "format" on go on after the findings array */
	struct text_out t = { .put = put_file, .data = ji->out };
	text_out_str(&t, "],");
	input_summary_members(&t, r);
	text_out_mem(&t, "}", 1);
	text_out_flush(&t);
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
	struct text_out t = { .put = put_file, .data = out };
	text_out_str(&t, "\n],\"summary\":");
	counts_open(&t, by_severity, by_rule);
	jt_key_int(&t, ",\"inputs\":", count);
	jt_key_int(&t, ",\"exit_status\":", exit_status);
	text_out_str(&t, "}}\n");
	text_out_flush(&t);
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
