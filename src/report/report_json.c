/* report_json.c: findings and summaries as JSON (one document per run)
 * and JSON Lines (one object per line), built with Jansson.  The keys are
 * those rules.md "What the JSON reports must carry" lists; they are
 * stable.  The document is streamed, so memory does not grow with the
 * number of findings. */
#include "autoconfig.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "model/fc_view.h"
#include "report/report.h"

static const size_t json_flags = JSON_COMPACT | JSON_PRESERVE_ORDER;

/* A finding, with "type" first for JSON Lines (typed). */
static json_t *finding_json(const struct finding *f, bool typed)
{
	json_t *o = json_object();
	if (typed)
		json_object_set_new(o, "type", json_string("finding"));
	json_object_set_new(o, "file", json_string_outside(f->pos.file ? f->pos.file : ""));
	json_object_set_new(o, "record", json_integer((json_int_t)f->pos.record_no));
	if (f->pos.line)
		json_object_set_new(o, "line", json_integer((json_int_t)f->pos.line));
	if (f->column)
		json_object_set_new(o, "column", json_integer(f->column));
	json_object_set_new(o, "byte_offset", json_integer((json_int_t)f->pos.byte_offset));
	/* the analyzer's own packet number: only when the export has one */
	if (f->pos.has_source_packet)
		json_object_set_new(o, "source_packet",
		                    json_integer((json_int_t)f->pos.source_packet));
	json_object_set_new(o, "rule", json_string(rule_info(f->rule)->id));
	json_object_set_new(o, "severity", json_string(severity_name(f->severity)));
	json_object_set_new(o, "time_ps",
	                    f->has_time ? json_integer((json_int_t)f->time_ps) : json_null());
	json_object_set_new(o, "link", f->link >= 0 ? json_integer(f->link) : json_null());
	json_object_set_new(o, "port",
	                    f->port != FINDING_NO_PORT
	                            ? json_string(link_dir_name((enum link_dir)f->port))
	                            : json_null());
	if (f->vc != FINDING_NO_VC)
		json_object_set_new(o, "vc", json_integer(f->vc));
	if (f->credit_type != FINDING_NO_CREDIT)
		json_object_set_new(
		        o, "credit_type",
		        json_string(credit_type_name((enum credit_type)f->credit_type)));
	if (f->lane != FINDING_NO_LANE)
		json_object_set_new(o, "lane", json_integer(f->lane));
	json_object_set_new(o, "message", json_string_outside(f->message));
	json_t *ev = json_object();
	for (unsigned i = 0; i < f->evidence_count; i++)
		json_object_set_new(ev, f->evidence[i].name, json_integer(f->evidence[i].value));
	json_object_set_new(o, "evidence", ev);
	char signature[96];
	json_object_set_new(o, "signature",
	                    json_string(report_finding_signature(f, signature, sizeof(signature))));
	return o;
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

static json_t *records_json(const struct input_stats *st)
{
	json_t *o = json_object();
	json_object_set_new(o, "read", json_integer((json_int_t)st->records_read));
	json_object_set_new(o, "decoded", json_integer((json_int_t)st->records_decoded));
	json_object_set_new(o, "malformed", json_integer((json_int_t)st->records_malformed));
	json_object_set_new(o, "truncated", json_integer((json_int_t)st->records_truncated));
	json_object_set_new(o, "dllps", json_integer((json_int_t)st->dllps));
	json_object_set_new(o, "tlps", json_integer((json_int_t)st->tlps));
	json_object_set_new(o, "events", json_integer((json_int_t)st->events));
	json_object_set_new(o, "time_base_s", json_integer((json_int_t)st->time_base_s));
	/* formats whose reader counts its bytes (pcap): every byte accounted for */
	if (st->bytes_counted) {
		json_object_set_new(o, "bytes_read", json_integer((json_int_t)st->bytes_read));
		json_object_set_new(o, "bytes_skipped",
		                    json_integer((json_int_t)st->bytes_skipped));
	}
	return o;
}

static json_t *credit_json(const struct fc_credit_view *c)
{
	json_t *o = json_object();
	if (!c->advertised_seen)
		json_object_set_new(o, "advertised", json_null());
	else if (c->advertised_infinite)
		json_object_set_new(o, "advertised", json_string("inf"));
	else
		json_object_set_new(o, "advertised", json_integer(c->advertised));
	json_object_set_new(o, "limit",
	                    c->limit_known && !c->infinite ? json_integer(c->limit) : json_null());
	json_object_set_new(o, "consumed",
	                    c->consumed_known ? json_integer(c->consumed) : json_null());
	json_object_set_new(o, "width", json_integer(c->width));
	json_object_set_new(o, "min_available",
	                    c->min_available_seen ? json_integer(c->min_available) : json_null());
	json_object_set_new(o, "tlps_charged", json_integer((json_int_t)c->tlps_charged));
	json_object_set_new(o, "credits_charged", json_integer((json_int_t)c->credits_charged));
	json_object_set_new(o, "longest_wait_ps", json_integer((json_int_t)c->longest_wait_ps));
	/* only when so: "limit" is null both for an infinite limit and an
	 * unknown one (the text report tells them apart, and --merge) */
	if (c->infinite)
		json_object_set_new(o, "infinite", json_true());
	return o;
}

/* Per link: per VC that saw anything, per transmitting port and credit
 * type, the credit state and statistics. */
static json_t *intervals_json(const struct fc_intervals_view *iv)
{
	json_t *o = json_object();
	json_object_set_new(o, "count", json_integer((json_int_t)iv->events));
	bool has = iv->has_median;
	uint64_t median = iv->median_ps;
	json_object_set_new(o, "interval_min_ps",
	                    has ? json_integer((json_int_t)iv->min_ps) : json_null());
	json_object_set_new(o, "interval_median_ps",
	                    has ? json_integer((json_int_t)median) : json_null());
	json_object_set_new(o, "interval_max_ps",
	                    has ? json_integer((json_int_t)iv->max_ps) : json_null());
	return o;
}

/* --stats: per link, per port TLPs by type; per VC and port, the time at
 * zero available credits per type and the UpdateFCs per class. */
static json_t *stats_json(const struct fc_link_view *link)
{
	json_t *o = json_object();
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		json_t *po = json_object(), *kinds = json_object();
		for (unsigned k = 0; k < TLP_KIND_COUNT; k++)
			if (link->dl[p].tlps_by_kind[k])
				json_object_set_new(
				        kinds, tlp_kind_name(k),
				        json_integer((json_int_t)link->dl[p].tlps_by_kind[k]));
		json_object_set_new(po, "tlps_by_type", kinds);
		json_t *vcs = json_array();
		for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
			const struct fc_port_view *pv = &link->vc[vc].port[p];
			json_t *vo = json_object(), *zero = json_object(), *upd = json_object();
			bool any = false;
			for (unsigned ct = 0; ct < CT_COUNT; ct++) {
				uint64_t z = pv->credit[ct].time_at_zero_ps;
				json_object_set_new(zero, credit_type_name(ct),
				                    json_integer((json_int_t)z));
				any |= z != 0 || pv->credit[ct].tlps_charged != 0;
			}
			for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++) {
				json_object_set_new(upd, fc_class_name(cls),
				                    intervals_json(&pv->updates[cls]));
				any |= pv->updates[cls].events != 0;
			}
			if (!any) {
				json_decref(vo);
				json_decref(zero);
				json_decref(upd);
				continue;
			}
			json_object_set_new(vo, "vc", json_integer(vc));
			json_object_set_new(vo, "time_at_zero_ps", zero);
			json_object_set_new(vo, "updatefc", upd);
			json_array_append_new(vcs, vo);
		}
		json_object_set_new(po, "vcs", vcs);
		json_object_set_new(o, link_dir_name(p), po);
	}
	return o;
}

/* --stats, the transaction layer per direction (the port that sent the
 * requests): requests by kind (kinds not sent left out), how they ended,
 * the latencies (null without a completed request), the completions sent
 * back for them and their statuses. */
static json_t *latency_json(const struct tl_latency_view *l)
{
	json_t *o = json_object();
	json_object_set_new(o, "count", json_integer((json_int_t)l->count));
	bool has = l->has_median;
	json_object_set_new(o, "min", has ? json_integer((json_int_t)l->min_ps) : json_null());
	json_object_set_new(o, "median",
	                    has ? json_integer((json_int_t)l->median_ps) : json_null());
	json_object_set_new(o, "max", has ? json_integer((json_int_t)l->max_ps) : json_null());
	return o;
}

static json_t *tl_json(const struct tl_stats_view *t)
{
	json_t *o = json_object(), *kinds = json_object(), *status = json_object();
	for (unsigned k = 0; k < TLP_KIND_COUNT; k++)
		if (t->requests[k])
			json_object_set_new(kinds, tlp_kind_name(k),
			                    json_integer((json_int_t)t->requests[k]));
	json_object_set_new(o, "requests", kinds);
	json_object_set_new(o, "requests_total", json_integer((json_int_t)t->requests_total));
	json_object_set_new(o, "completed", json_integer((json_int_t)t->completed));
	json_object_set_new(o, "ended_by_epoch", json_integer((json_int_t)t->ended_by_epoch));
	json_object_set_new(o, "timed_out", json_integer((json_int_t)t->timed_out));
	json_object_set_new(o, "outstanding", json_integer(t->outstanding));
	json_object_set_new(o, "outstanding_max", json_integer(t->outstanding_high_water));
	json_object_set_new(o, "latency_first_ps", latency_json(&t->latency_first));
	json_object_set_new(o, "latency_last_ps", latency_json(&t->latency_last));
	json_object_set_new(o, "completions", json_integer((json_int_t)t->completions));
	json_object_set_new(o, "unmatched", json_integer((json_int_t)t->completions_unmatched));
	for (unsigned st = 0; st < TL_STATUS_VIEW_COUNT; st++)
		json_object_set_new(status, tl_status_view_name((enum tl_status_view)st),
		                    json_integer((json_int_t)t->status[st]));
	json_object_set_new(o, "status", status);
	json_object_set_new(o, "requesters_untracked",
	                    json_integer((json_int_t)t->requesters_untracked));
	json_object_set_new(o, "while_unknown", json_integer((json_int_t)t->while_unknown));
	return o;
}

static json_t *transactions_json(const struct fc_link_view *link)
{
	json_t *o = json_object();
	for (unsigned p = 0; p < DIR_COUNT; p++)
		json_object_set_new(o, link_dir_name(p), tl_json(&link->tl_stats[p]));
	return o;
}

static json_t *links_json(const struct input_report *r)
{
	json_t *links = json_array();
	for (unsigned i = 0; (r->model || r->merged) && i < FC_LINK_COUNT; i++) {
		struct fc_link_view view;
		if (!report_input_link(r, i, &view))
			continue;
		const struct fc_link_view *link = &view;
		json_t *lo = json_object();
		json_object_set_new(lo, "link", json_integer(i));
		json_object_set_new(lo, "scaled_fc",
		                    link->scaling_known ? json_boolean(link->scaling_active)
		                                        : json_null());
		json_t *replays = json_object();
		for (unsigned p = 0; p < DIR_COUNT; p++)
			json_object_set_new(replays, link_dir_name(p),
			                    json_integer((json_int_t)link->tlps_not_charged[p]));
		json_object_set_new(lo, "tlps_not_charged", replays);
		json_t *dl = json_object();
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			const struct fc_dl_view *d = &link->dl[p];
			json_t *po = json_object();
			json_object_set_new(po, "tlps_new", json_integer((json_int_t)d->tlps_new));
			json_object_set_new(po, "tlps_replayed",
			                    json_integer((json_int_t)d->tlps_replayed));
			json_object_set_new(po, "tlps_nullified",
			                    json_integer((json_int_t)d->tlps_nullified));
			json_object_set_new(po, "tlps_unreadable",
			                    json_integer((json_int_t)d->tlps_unreadable));
			json_object_set_new(po, "acks_received",
			                    json_integer((json_int_t)d->acks_received));
			json_object_set_new(po, "naks_received",
			                    json_integer((json_int_t)d->naks_received));
			json_object_set_new(po, "outstanding_high_water",
			                    json_integer(d->outstanding_high_water));
			/* only when so: what could not be checked (NetTLP) */
			if (d->no_seq)
				json_object_set_new(po, "no_sequence_numbers", json_true());
			if (d->no_lcrc)
				json_object_set_new(po, "no_lcrc", json_true());
			json_object_set_new(dl, link_dir_name(p), po);
		}
		json_object_set_new(lo, "data_link", dl);
		json_t *damaged = json_object();
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			json_t *po = json_object();
			json_object_set_new(po, "dllps",
			                    json_integer((json_int_t)link->damaged_dllps[p]));
			json_object_set_new(po, "tlps",
			                    json_integer((json_int_t)link->damaged_tlps[p]));
			json_object_set_new(damaged, link_dir_name(p), po);
		}
		json_object_set_new(lo, "damaged", damaged);
		json_t *vcs = json_array();
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
			json_t *vo = json_object();
			json_object_set_new(vo, "vc", json_integer(vc));
			json_object_set_new(vo, "state",
			                    json_string(report_vc_state_name(v->state)));
			json_object_set_new(vo, "epochs_joined",
			                    json_integer((json_int_t)v->epochs_joined));
			json_object_set_new(vo, "tlps_while_unknown",
			                    json_integer((json_int_t)v->tlps_while_unknown));
			json_object_set_new(vo, "fc_dllps_while_unknown",
			                    json_integer((json_int_t)v->fc_dllps_while_unknown));
			/* only when joined: the record the text report names */
			if (v->epochs_joined)
				json_object_set_new(vo, "joined_record",
				                    json_integer((json_int_t)v->joined_record));
			for (unsigned p = 0; p < DIR_COUNT; p++) {
				json_t *po = json_object();
				json_object_set_new(po, "fi1", json_boolean(v->port[p].fi1));
				json_object_set_new(po, "complete",
				                    json_boolean(v->port[p].complete));
				json_t *credits = json_object();
				for (unsigned ct = 0; ct < CT_COUNT; ct++)
					json_object_set_new(credits, credit_type_name(ct),
					                    credit_json(&v->port[p].credit[ct]));
				json_object_set_new(po, "credits", credits);
				json_object_set_new(vo, link_dir_name(p), po);
			}
			json_array_append_new(vcs, vo);
		}
		json_object_set_new(lo, "vcs", vcs);
		if (r->stats_wanted) {
			json_object_set_new(lo, "stats", stats_json(link));
			json_object_set_new(lo, "transactions", transactions_json(link));
		}
		json_array_append_new(links, lo);
	}
	return links;
}

static json_t *options_json(const struct fc_options *o)
{
	json_t *obj = json_object();
	if (!o)
		return obj;
	json_object_set_new(obj, "role_down", json_string(port_role_name(o->role[DIR_DOWN])));
	json_object_set_new(obj, "role_up", json_string(port_role_name(o->role[DIR_UP])));
	json_object_set_new(obj, "mps", o->mps ? json_integer(o->mps) : json_null());
	json_t *map = json_array();
	for (unsigned tc = 0; tc < 8; tc++)
		json_array_append_new(map, json_integer(o->tc_to_vc[tc]));
	json_object_set_new(obj, "tc_to_vc", map);
	/* only when given (the text report says when it was not) */
	if (o->mrrs)
		json_object_set_new(obj, "mrrs", json_integer(o->mrrs));
	return obj;
}

/* The fields an input's summary carries in both JSON forms. */
static void input_summary_fields(json_t *o, const struct input_report *r)
{
	json_object_set_new(o, "file", json_string_outside(r->file));
	json_object_set_new(o, "format", json_string(r->format));
	/* only for another tool's encapsulation: "format" keeps naming the
	 * container, as for every pcap before (issue 17) */
	if (r->encapsulation)
		json_object_set_new(o, "encapsulation", json_string(r->encapsulation));
	json_object_set_new(o, "records", records_json(r->stats));
	json_object_set_new(o, "summary",
	                    counts_json(r->sink->count_by_severity, r->sink->count_by_rule));
	json_object_set_new(o, "options", options_json(r->fc_opts));
	json_object_set_new(o, "links", links_json(r));
}

json_t *report_json_finding_object(const struct finding *f)
{
	return finding_json(f, false);
}

json_t *report_json_input_object(const struct input_report *r)
{
	json_t *o = json_object();
	input_summary_fields(o, r);
	return o;
}

void report_jsonl_finding(void *ctx, const struct finding *f)
{
	dump_line(ctx, finding_json(f, true));
}

void report_jsonl_input(FILE *out, const struct input_report *r)
{
	json_t *o = json_object();
	json_object_set_new(o, "type", json_string("summary"));
	input_summary_fields(o, r);
	/* the line read back alone (--merge) names its maker */
	json_object_set_new(o, "version", json_string(PACKAGE_VERSION));
	dump_line(out, o);
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
	json_t *o = report_json_finding_object(f);
	fputs(ji->findings++ ? ",\n" : "\n", ji->out);
	json_dumpf(o, ji->out, json_flags);
	json_decref(o);
}

void report_json_input_end(struct json_input *ji, const struct input_report *r)
{
	json_t *o = report_json_input_object(r);
	json_object_del(o, "file");
	char *body = json_dumps(o, json_flags);
	json_decref(o);
	/* body is {...}: its members go on after the findings array */
	fprintf(ji->out, "],%s", body ? body + 1 : "}");
	free(body);
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
static json_t *totals_json(const struct input_result *results, int count)
{
	uint64_t by_severity[SEV_COUNT] = { 0 };
	uint64_t by_rule[RULE_COUNT] = { 0 };
	for (int i = 0; i < count; i++) {
		for (unsigned s = 0; s < SEV_COUNT; s++)
			by_severity[s] += results[i].by_severity[s];
		for (unsigned r = 0; r < RULE_COUNT; r++)
			by_rule[r] += results[i].by_rule[r];
	}
	return counts_json(by_severity, by_rule);
}

void report_json_end(FILE *out, const struct input_result *results, int count, int exit_status)
{
	json_t *o = totals_json(results, count);
	json_object_set_new(o, "inputs", json_integer(count));
	json_object_set_new(o, "exit_status", json_integer(exit_status));
	fputs("\n],\"summary\":", out);
	json_dumpf(o, out, json_flags);
	json_decref(o);
	fputs("}\n", out);
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
