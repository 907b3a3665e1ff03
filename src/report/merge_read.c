/* merge_read.c: a JSON Lines report read back (merge_read.h).  Each
 * reader below is the inverse of a writer of report_json.c, key for key:
 * a key that writer writes is required (or optional where it writes it
 * only sometimes), and a key it never writes is a fault. */
#include "autoconfig.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report/merge_read.h"
#include "report/merge_read_internal.h"
#include "report/report.h"

/* A line longer than this is not one of a report (a summary of all 256
 * links with --stats is under 4 MB). */
#define MERGE_LINE_MAX (64u << 20)

/* ---- a finding (report_json.c finding_json) ------------------------------ */

bool merge_same_file(struct merge_reader *m, const char *file)
{
	if (!m->in_input) {
		free(m->file);
		m->file = strdup(file);
		if (!m->file) {
			merge_fail(m, "out of memory");
			return false;
		}
		m->input_line = m->line;
		m->in_input = true;
		return true;
	}
	if (strcmp(m->file, file) != 0) {
		merge_fail(
		        m,
		        "a line of \"%.200s\" while the findings of \"%.200s\" (from line %" PRIu64
		        ") have had no summary line",
		        file, m->file, m->input_line);
		return false;
	}
	return true;
}

static void read_finding(struct merge_reader *m, struct jo *j)
{
	struct finding *f = &m->finding;
	memset(f, 0, sizeof(*f));
	const char *file = jo_str(j, "file");
	bool has;
	f->pos.record_no = jo_u64(j, "record");
	if (jo_get(j, "line", true))
		f->pos.line = jo_u64(j, "line");
	if (jo_get(j, "column", true))
		f->column = jo_u32(j, "column");
	f->pos.byte_offset = jo_u64(j, "byte_offset");
	if (jo_get(j, "source_packet", true)) {
		f->pos.source_packet = jo_u64(j, "source_packet");
		f->pos.has_source_packet = true;
	}
	const char *rule = jo_str(j, "rule");
	enum rule_id id = 0;
	if (rule && !rule_lookup(rule, &id))
		merge_fail(m, "rule \"%.60s\" is not in the catalogue (dllpcheck --list-rules)",
		           rule);
	f->rule = id;
	f->severity = (enum severity)jo_name(j, "severity", merge_sev_name, SEV_COUNT);
	f->time_ps = jo_num(j, "time_ps", INT64_MAX, true, &has);
	f->has_time = has;
	f->link = (int)jo_num(j, "link", FC_LINK_COUNT - 1, true, &has);
	if (!has)
		f->link = -1;
	json_t *port = jo_get(j, "port", false);
	f->port = FINDING_NO_PORT;
	if (port && !json_is_null(port)) {
		f->port = jo_name(j, "port", merge_dir_name, DIR_COUNT);
	}
	f->vc = FINDING_NO_VC;
	if (jo_get(j, "vc", true))
		f->vc = (int)jo_num(j, "vc", FC_VC_COUNT - 1, false, NULL);
	f->credit_type = FINDING_NO_CREDIT;
	if (jo_get(j, "credit_type", true))
		f->credit_type = jo_name(j, "credit_type", merge_ct_name, CT_COUNT);
	f->lane = FINDING_NO_LANE;
	if (jo_get(j, "lane", true))
		f->lane = (int)jo_num(j, "lane", INT32_MAX, false, NULL);
	const char *msg = jo_str(j, "message");
	if (msg && strlen(msg) >= sizeof(f->message))
		merge_fail(m, "message longer than %zu bytes", sizeof(f->message) - 1);
	else if (msg)
		memcpy(f->message, msg, strlen(msg) + 1);
	struct jo ev;
	if (jo_child(j, "evidence", &ev)) {
		const char *k;
		json_t *v;
		json_object_foreach(ev.o, k, v)
		{
			if (f->evidence_count == FINDING_MAX_EVIDENCE) {
				merge_fail(m, "evidence: more than %d values",
				           FINDING_MAX_EVIDENCE);
				break;
			}
			if (!m->failed && !rule_evidence_key_listed(id, k)) {
				merge_fail(m, "evidence: \"%.60s\" is not an evidence key of %s", k,
				           rule_info(id)->id);
				break;
			}
			if (!json_is_integer(v)) {
				merge_fail(m, "evidence.%.60s is not an integer", k);
				break;
			}
			char *name = m->evidence_names[f->evidence_count];
			snprintf(name, sizeof(m->evidence_names[0]), "%s", k);
			f->evidence[f->evidence_count].name = name;
			f->evidence[f->evidence_count++].value = json_integer_value(v);
		}
	}
	const char *signature = jo_str(j, "signature");
	jo_end(j);
	if (m->failed || !file)
		return;
	char want[96];
	report_finding_signature(f, want, sizeof(want));
	if (signature && strcmp(signature, want) != 0) {
		merge_fail(m, "signature \"%.96s\" is not the finding's (%s)", signature, want);
		return;
	}
	if (m->in_input && m->charts.seen) {
		merge_fail(m,
		           "a finding of \"%.200s\" after its charts line (the findings come "
		           "first)",
		           file);
		return;
	}
	if (!merge_same_file(m, file))
		return;
	merge_chart_finding(m, f);
	f->pos.file = m->file;
	m->seen_by_rule[f->rule]++;
	m->seen_by_severity[f->severity]++;
}

/* ---- a summary (report_json.c input_summary_fields) ---------------------- */

static void read_records(struct merge_reader *m, struct jo *parent)
{
	struct jo j;
	struct input_stats *st = &m->input.stats;
	if (!jo_child(parent, "records", &j))
		return;
	st->records_read = jo_u64(&j, "read");
	st->records_decoded = jo_u64(&j, "decoded");
	st->records_malformed = jo_u64(&j, "malformed");
	st->records_truncated = jo_u64(&j, "truncated");
	st->dllps = jo_u64(&j, "dllps");
	st->tlps = jo_u64(&j, "tlps");
	st->events = jo_u64(&j, "events");
	st->time_base_s = jo_u64(&j, "time_base_s");
	if (jo_get(&j, "bytes_read", true)) {
		st->bytes_counted = true;
		st->bytes_read = jo_u64(&j, "bytes_read");
		st->bytes_skipped = jo_u64(&j, "bytes_skipped");
	}
	jo_end(&j);
}

static void read_counts(struct merge_reader *m, struct jo *parent)
{
	struct jo j;
	if (!jo_child(parent, "summary", &j))
		return;
	jo_counts(&j, "by_severity", merge_sev_name, SEV_COUNT, m->input.by_severity);
	struct jo rules;
	if (jo_child(&j, "by_rule", &rules)) {
		const char *k;
		json_t *v;
		json_object_foreach(rules.o, k, v)
		{
			enum rule_id id;
			if (!rule_lookup(k, &id)) {
				merge_fail(
				        m,
				        "summary.by_rule: rule \"%.60s\" is not in the catalogue",
				        k);
				break;
			}
			jo_value_u64(&rules, k, v, INT64_MAX, &m->input.by_rule[id]);
			if (!m->failed && m->input.by_rule[id] == 0)
				merge_fail(
				        m,
				        "summary.by_rule.%s is 0 (rules without findings are left "
				        "out)",
				        k);
		}
	}
	/* the writer leaves nothing out of by_severity */
	struct jo sev;
	if (jo_open(m, &sev, json_object_get(j.o, "by_severity"), "summary.by_severity"))
		for (unsigned s = 0; s < SEV_COUNT; s++)
			jo_get(&sev, severity_name(s), false);
	jo_end(&j);
}

static void read_options(struct merge_reader *m, struct jo *parent)
{
	struct jo j;
	struct fc_options *o = &m->input.opts;
	fc_options_init(o);
	if (!jo_child(parent, "options", &j))
		return;
	free(m->input.options_text);
	m->input.options_text = report_json_text(j.o, JSON_COMPACT | JSON_SORT_KEYS);
	int down = jo_name(&j, "role_down", merge_role_name, ROLE_ENDPOINT + 1);
	int up = jo_name(&j, "role_up", merge_role_name, ROLE_ENDPOINT + 1);
	o->role[DIR_DOWN] = down < 0 ? ROLE_UNKNOWN : (enum port_role)down;
	o->role[DIR_UP] = up < 0 ? ROLE_UNKNOWN : (enum port_role)up;
	bool has;
	o->mps = (uint32_t)jo_num(&j, "mps", 4096, true, &has);
	if (has && o->mps == 0)
		merge_fail(m, "options.mps is 0 (written null when not given)");
	json_t *map = jo_array(&j, "tc_to_vc", 8, false);
	for (size_t tc = 0; map && tc < 8; tc++) {
		json_t *v = json_array_get(map, tc);
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) >= FC_VC_COUNT) {
			merge_fail(m, "options.tc_to_vc[%zu] is not a VC from 0 to 7", tc);
			break;
		}
		o->tc_to_vc[tc] = (uint8_t)json_integer_value(v);
	}
	if (jo_get(&j, "mrrs", true)) {
		o->mrrs = (uint32_t)jo_num(&j, "mrrs", 4096, false, NULL);
		if (o->mrrs == 0)
			merge_fail(m, "options.mrrs is 0 (left out when not given)");
	}
	jo_end(&j);
}

static void read_credit(struct jo *parent, const char *key, struct fc_credit_view *c)
{
	struct jo j;
	if (!jo_child(parent, key, &j))
		return;
	json_t *adv = jo_get(&j, "advertised", false);
	if (adv && json_is_string(adv) && strcmp(json_string_value(adv), "inf") == 0) {
		c->advertised_seen = c->advertised_infinite = true;
	} else if (adv && !json_is_null(adv)) {
		uint64_t v = 0;
		c->advertised_seen = jo_value_u64(&j, "advertised", adv, UINT32_MAX, &v);
		c->advertised = (uint32_t)v;
	}
	bool has;
	c->limit = (uint32_t)jo_num(&j, "limit", UINT32_MAX, true, &has);
	c->limit_known = has;
	c->consumed = (uint32_t)jo_num(&j, "consumed", UINT32_MAX, true, &has);
	c->consumed_known = has;
	c->width = (uint8_t)jo_num(&j, "width", 32, false, NULL);
	c->min_available = (uint32_t)jo_num(&j, "min_available", UINT32_MAX, true, &has);
	c->min_available_seen = has;
	c->tlps_charged = jo_u64(&j, "tlps_charged");
	c->credits_charged = jo_u64(&j, "credits_charged");
	c->longest_wait_ps = jo_u64(&j, "longest_wait_ps");
	if (jo_flag(&j, "infinite")) {
		/* an infinite limit is known, and written null */
		if (c->limit_known)
			merge_fail(j.m, "%s: an infinite limit with a value", jo_path(&j));
		c->infinite = c->limit_known = true;
	}
	jo_end(&j);
}

static void read_vc(struct jo *j, struct fc_link_view *link)
{
	unsigned vc = (unsigned)jo_num(j, "vc", FC_VC_COUNT - 1, false, NULL);
	struct fc_vc_view *v = &link->vc[vc];
	int state = jo_name(j, "state", report_vc_state_name, VC_GIVEN + 1);
	v->state = state < 0 ? VC_IDLE : (enum vc_state)state;
	v->epochs_joined = jo_u64(j, "epochs_joined");
	v->tlps_while_unknown = jo_u64(j, "tlps_while_unknown");
	v->fc_dllps_while_unknown = jo_u64(j, "fc_dllps_while_unknown");
	if (v->epochs_joined)
		v->joined_record = jo_u64(j, "joined_record");
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		struct jo pj, cj;
		if (!jo_child(j, link_dir_name(p), &pj))
			continue;
		v->port[p].fi1 = jo_bool(&pj, "fi1");
		v->port[p].complete = jo_bool(&pj, "complete");
		if (jo_child(&pj, "credits", &cj)) {
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				read_credit(&cj, credit_type_name(ct), &v->port[p].credit[ct]);
			jo_end(&cj);
		}
		jo_end(&pj);
	}
	jo_end(j);
}

/* Three numbers of a distribution, all null when there was nothing to
 * measure; true when they are numbers. */
static bool read_spread(struct jo *j, const char *const keys[3], uint64_t *min, uint64_t *median,
                        uint64_t *max)
{
	bool has_min, has_median, has_max;
	*min = jo_num(j, keys[0], INT64_MAX, true, &has_min);
	*median = jo_num(j, keys[1], INT64_MAX, true, &has_median);
	*max = jo_num(j, keys[2], INT64_MAX, true, &has_max);
	if (has_min != has_median || has_min != has_max)
		merge_fail(j->m, "%s: min, median and max not all null or all numbers", jo_path(j));
	return has_median;
}

static void read_intervals(struct jo *parent, const char *key, struct fc_intervals_view *iv)
{
	static const char *const keys[3] = { "interval_min_ps", "interval_median_ps",
		                             "interval_max_ps" };
	struct jo j;
	if (!jo_child(parent, key, &j))
		return;
	iv->events = jo_u64(&j, "count");
	iv->has_median = read_spread(&j, keys, &iv->min_ps, &iv->median_ps, &iv->max_ps);
	jo_end(&j);
}

static void read_latency(struct jo *parent, const char *key, struct tl_latency_view *l)
{
	static const char *const keys[3] = { "min", "median", "max" };
	struct jo j;
	if (!jo_child(parent, key, &j))
		return;
	l->count = jo_u64(&j, "count");
	l->has_median = read_spread(&j, keys, &l->min_ps, &l->median_ps, &l->max_ps);
	jo_end(&j);
}

static void read_stats(struct jo *lj, struct fc_link_view *link)
{
	struct jo sj;
	if (!jo_child(lj, "stats", &sj))
		return;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		struct jo pj;
		if (!jo_child(&sj, link_dir_name(p), &pj))
			continue;
		jo_counts(&pj, "tlps_by_type", merge_kind_name, TLP_KIND_COUNT,
		          link->dl[p].tlps_by_kind);
		json_t *vcs = jo_array(&pj, "vcs", FC_VC_COUNT, true);
		size_t i;
		json_t *v;
		json_array_foreach(vcs, i, v)
		{
			struct jo vj, zj, uj;
			if (!jo_open_item(&pj, &vj, v, "vcs", i))
				break;
			unsigned vc = (unsigned)jo_num(&vj, "vc", FC_VC_COUNT - 1, false, NULL);
			struct fc_port_view *pv = &link->vc[vc].port[p];
			if (jo_child(&vj, "time_at_zero_ps", &zj)) {
				for (unsigned ct = 0; ct < CT_COUNT; ct++)
					pv->credit[ct].time_at_zero_ps =
					        jo_u64(&zj, credit_type_name(ct));
				jo_end(&zj);
			}
			if (jo_child(&vj, "updatefc", &uj)) {
				for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++)
					read_intervals(&uj, fc_class_name(cls), &pv->updates[cls]);
				jo_end(&uj);
			}
			jo_end(&vj);
		}
		jo_end(&pj);
	}
	jo_end(&sj);
}

static void read_tl(struct jo *parent, const char *key, struct tl_stats_view *t)
{
	struct jo j;
	if (!jo_child(parent, key, &j))
		return;
	jo_counts(&j, "requests", merge_kind_name, TLP_KIND_COUNT, t->requests);
	t->requests_total = jo_u64(&j, "requests_total");
	t->completed = jo_u64(&j, "completed");
	t->ended_by_epoch = jo_u64(&j, "ended_by_epoch");
	t->timed_out = jo_u64(&j, "timed_out");
	t->outstanding = jo_u32(&j, "outstanding");
	t->outstanding_high_water = jo_u32(&j, "outstanding_max");
	read_latency(&j, "latency_first_ps", &t->latency_first);
	read_latency(&j, "latency_last_ps", &t->latency_last);
	t->completions = jo_u64(&j, "completions");
	t->completions_unmatched = jo_u64(&j, "unmatched");
	jo_counts(&j, "status", merge_status_name, TL_STATUS_VIEW_COUNT, t->status);
	t->requesters_untracked = jo_u64(&j, "requesters_untracked");
	t->while_unknown = jo_u64(&j, "while_unknown");
	jo_end(&j);
}

static void read_link(struct merge_reader *m, struct jo *lj, struct fc_link_view *link,
                      unsigned *index)
{
	memset(link, 0, sizeof(*link));
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		link->vc[vc].state = VC_IDLE; /* not listed: not used */
	*index = (unsigned)jo_num(lj, "link", FC_LINK_COUNT - 1, false, NULL);
	json_t *scaled = jo_get(lj, "scaled_fc", false);
	if (scaled && !json_is_null(scaled) && !json_is_boolean(scaled))
		merge_fail(m, "%s.scaled_fc is not null, true or false", jo_path(lj));
	link->scaling_known = json_is_boolean(scaled);
	link->scaling_active = json_is_true(scaled);
	struct jo j, pj;
	if (jo_child(lj, "tlps_not_charged", &j)) {
		for (unsigned p = 0; p < DIR_COUNT; p++)
			link->tlps_not_charged[p] = jo_u64(&j, link_dir_name(p));
		jo_end(&j);
	}
	if (jo_child(lj, "data_link", &j)) {
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			struct fc_dl_view *d = &link->dl[p];
			if (!jo_child(&j, link_dir_name(p), &pj))
				continue;
			d->tlps_new = jo_u64(&pj, "tlps_new");
			d->tlps_replayed = jo_u64(&pj, "tlps_replayed");
			d->tlps_nullified = jo_u64(&pj, "tlps_nullified");
			d->tlps_unreadable = jo_u64(&pj, "tlps_unreadable");
			d->acks_received = jo_u64(&pj, "acks_received");
			d->naks_received = jo_u64(&pj, "naks_received");
			d->outstanding_high_water = jo_u32(&pj, "outstanding_high_water");
			d->no_seq = jo_flag(&pj, "no_sequence_numbers");
			d->no_lcrc = jo_flag(&pj, "no_lcrc");
			jo_end(&pj);
		}
		jo_end(&j);
	}
	if (jo_child(lj, "damaged", &j)) {
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			if (!jo_child(&j, link_dir_name(p), &pj))
				continue;
			link->damaged_dllps[p] = jo_u64(&pj, "dllps");
			link->damaged_tlps[p] = jo_u64(&pj, "tlps");
			jo_end(&pj);
		}
		jo_end(&j);
	}
	json_t *vcs = jo_array(lj, "vcs", FC_VC_COUNT, true);
	size_t i;
	json_t *v;
	json_array_foreach(vcs, i, v)
	{
		struct jo vj;
		if (!jo_open_item(lj, &vj, v, "vcs", i))
			break;
		read_vc(&vj, link);
	}
	bool stats = jo_get(lj, "stats", true) != NULL;
	if (stats) {
		read_stats(lj, link);
		struct jo tj;
		if (jo_child(lj, "transactions", &tj)) {
			for (unsigned p = 0; p < DIR_COUNT; p++)
				read_tl(&tj, link_dir_name(p), &link->tl_stats[p]);
			jo_end(&tj);
		}
	}
	if (m->input.stats_known && stats != m->input.stats_wanted)
		merge_fail(m, "%s: statistics (--stats) on some links only", jo_path(lj));
	m->input.stats_known = true;
	m->input.stats_wanted = stats;
	jo_end(lj);
}

static void read_links(struct merge_reader *m, struct jo *j)
{
	struct merge_input *in = &m->input;
	json_t *links = jo_array(j, "links", FC_LINK_COUNT, true);
	size_t i;
	json_t *v;
	json_array_foreach(links, i, v)
	{
		if (in->link_count == in->views_cap) {
			unsigned cap = in->views_cap ? in->views_cap * 2 : 4;
			struct fc_link_view *grown = realloc(in->views, cap * sizeof(*grown));
			if (!grown) {
				merge_fail(m, "out of memory");
				return;
			}
			in->views = grown;
			in->views_cap = cap;
		}
		struct jo lj;
		if (!jo_open_item(j, &lj, v, "links", i))
			return;
		unsigned index = 0;
		read_link(m, &lj, &in->views[in->link_count], &index);
		if (m->failed)
			return;
		if (in->link_count && index <= in->link_index[in->link_count - 1]) {
			merge_fail(m,
			           "links[%zu]: link %u after link %u (they are written in order)",
			           i, index, in->link_index[in->link_count - 1]);
			return;
		}
		in->link_index[in->link_count++] = index;
	}
}

/* The line's version: this dllpcheck's only (another's summary may mean
 * something else by the same keys). */
void merge_check_version(struct merge_reader *m, struct jo *j)
{
	json_t *v = jo_get(j, "version", true);
	if (!v)
		merge_fail(m,
		           "no \"version\": written by a dllpcheck older than --merge, or not by "
		           "dllpcheck; make the part again with this one (" PACKAGE_VERSION ")");
	else if (!json_is_string(v) || strcmp(json_string_value(v), PACKAGE_VERSION) != 0)
		merge_fail(m,
		           "written by dllpcheck %.40s, not by this one (" PACKAGE_VERSION
		           "): make the part again with this version",
		           json_is_string(v) ? json_string_value(v) : "(not a string)");
}

static void read_summary(struct merge_reader *m, struct jo *j)
{
	struct merge_input *in = &m->input;
	char *keep_text = in->options_text;
	struct fc_link_view *keep_views = in->views;
	unsigned keep_cap = in->views_cap;
	memset(in, 0, sizeof(*in));
	in->options_text = keep_text;
	in->views = keep_views;
	in->views_cap = keep_cap;
	merge_check_version(m, j);
	const char *file = jo_str(j, "file");
	const char *format = jo_str(j, "format");
	if (format && strlen(format) >= sizeof(in->format))
		merge_fail(m, "format \"%.40s\" is not one of a reader", format);
	else if (format)
		snprintf(in->format, sizeof(in->format), "%s", format);
	if (jo_get(j, "encapsulation", true)) {
		const char *e = jo_str(j, "encapsulation");
		if (e && strlen(e) >= sizeof(in->encapsulation))
			merge_fail(m, "encapsulation \"%.40s\" is not one dllpcheck reads", e);
		else if (e)
			snprintf(in->encapsulation, sizeof(in->encapsulation), "%s", e);
		in->has_encapsulation = true;
	}
	read_records(m, j);
	read_counts(m, j);
	read_options(m, j);
	read_links(m, j);
	jo_end(j);
	if (m->failed || !file)
		return;
	if (m->in_input && strcmp(m->file, file) != 0) {
		merge_fail(m,
		           "the summary of \"%.200s\" follows findings of \"%.200s\" (from line "
		           "%" PRIu64 "), which have no summary line",
		           file, m->file, m->input_line);
		return;
	}
	if (!merge_same_file(m, file))
		return;
	merge_charts_end(m);
	/* the findings before it are the ones it counts */
	for (unsigned r = 0; r < RULE_COUNT; r++) {
		if (in->by_rule[r] != m->seen_by_rule[r]) {
			merge_fail(m,
			           "the summary of \"%.200s\" counts %" PRIu64
			           " %s findings, the part has %" PRIu64
			           " before it (from line %" PRIu64 ")",
			           file, in->by_rule[r], rule_info(r)->id, m->seen_by_rule[r],
			           m->input_line);
			return;
		}
	}
	for (unsigned s = 0; s < SEV_COUNT; s++) {
		if (in->by_severity[s] != m->seen_by_severity[s]) {
			merge_fail(m,
			           "the summary of \"%.200s\" counts %" PRIu64
			           " %s findings, the part has %" PRIu64,
			           file, in->by_severity[s], severity_name(s),
			           m->seen_by_severity[s]);
			return;
		}
	}
}

static void read_error(struct merge_reader *m, struct jo *j)
{
	merge_check_version(m, j);
	const char *file = jo_str(j, "file");
	const char *error = jo_str(j, "error");
	m->error_format[0] = '\0';
	if (jo_get(j, "format", true)) {
		const char *format = jo_str(j, "format");
		if (format && (!format[0] || strlen(format) >= sizeof(m->error_format)))
			merge_fail(m, "format \"%.40s\" is not one of a reader", format);
		else if (format)
			snprintf(m->error_format, sizeof(m->error_format), "%s", format);
	}
	jo_end(j);
	if (m->failed || !file || !error)
		return;
	if (m->in_input) {
		merge_fail(m,
		           "an error line of \"%.200s\" after findings of \"%.200s\" (from line "
		           "%" PRIu64 "), which have no summary line",
		           file, m->file, m->input_line);
		return;
	}
	snprintf(m->error, sizeof(m->error), "%s", error);
	merge_same_file(m, file);
}

/* The batch line: the part's inputs, in order (report_jsonl_batch). */
static void read_batch(struct merge_reader *m, struct jo *j)
{
	json_t *inputs = jo_get(j, "inputs", false);
	jo_get(j, "by_severity", false);
	jo_get(j, "by_rule", false);
	jo_get(j, "exit_status", false);
	jo_end(j);
	if (m->failed)
		return;
	if (m->in_input) {
		merge_fail(m,
		           "the batch line follows findings of \"%.200s\" (from line %" PRIu64
		           "), which have no summary line",
		           m->file, m->input_line);
		return;
	}
	/* its run's inputs are the last ones read (a run of one input before
	 * it, in a part of several runs, wrote no batch line) */
	size_t n = json_is_array(inputs) ? json_array_size(inputs) : 0;
	if (!json_is_array(inputs) || n > m->input_count) {
		merge_fail(m, "the batch line lists %zu inputs, the part has %u before it", n,
		           m->input_count);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const char *want = m->inputs[m->input_count - n + i];
		const char *f =
		        json_string_value(json_object_get(json_array_get(inputs, i), "file"));
		if (!f || strcmp(f, want) != 0) {
			merge_fail(m, "the batch line's input %zu is not its run's (\"%.200s\")",
			           i + 1, want);
			return;
		}
	}
	/* the reports of several runs may follow one another in a part
	 * (parallel -k ... > part): the next batch line is of the next run */
	for (unsigned i = 0; i < m->input_count; i++)
		free(m->inputs[i]);
	m->input_count = 0;
}

/* The input just ended joins the part's list. */
static void input_done(struct merge_reader *m)
{
	if (m->input_count == m->inputs_cap) {
		unsigned cap = m->inputs_cap ? m->inputs_cap * 2 : 16;
		char **grown = realloc(m->inputs, cap * sizeof(*grown));
		if (!grown) {
			merge_fail(m, "out of memory");
			return;
		}
		m->inputs = grown;
		m->inputs_cap = cap;
	}
	m->inputs[m->input_count] = m->file;
	m->input_count++;
	m->file = NULL;
	m->in_input = false;
	memset(m->seen_by_rule, 0, sizeof(m->seen_by_rule));
	memset(m->seen_by_severity, 0, sizeof(m->seen_by_severity));
	memset(&m->charts, 0, sizeof(m->charts));
	m->input_findings = 0;
}

void merge_reader_init(struct merge_reader *m, FILE *fp, const char *name)
{
	memset(m, 0, sizeof(*m));
	m->fp = fp;
	m->name = name;
}

void merge_reader_init_kept(struct merge_reader *m, const struct merge_kept *kept, const char *name)
{
	merge_reader_init(m, NULL, name);
	m->replay = kept;
}

void merge_reader_keep(struct merge_reader *m, struct merge_kept *kept)
{
	m->keep = kept;
}

void merge_kept_free(struct merge_kept *kept)
{
	for (size_t i = 0; i < kept->count; i++)
		json_decref(kept->lines[i]);
	free(kept->lines);
	kept->lines = NULL;
	kept->count = kept->cap = 0;
	kept->bytes = 0;
}

/* Line o, of len bytes of text, joins the lines kept; past the budget
 * (or out of memory) none is. */
static void keep_line(struct merge_kept *kept, json_t *o, size_t len)
{
	if (kept->over)
		return;
	if (len > kept->budget - kept->bytes) {
		merge_kept_free(kept);
		kept->over = true;
		return;
	}
	if (kept->count == kept->cap) {
		size_t cap = kept->cap ? kept->cap * 2 : 64;
		json_t **grown = realloc(kept->lines, cap * sizeof(*grown));
		if (!grown) {
			merge_kept_free(kept);
			kept->over = true;
			return;
		}
		kept->lines = grown;
		kept->cap = cap;
	}
	kept->lines[kept->count++] = json_incref(o);
	kept->bytes += len;
}

static enum merge_item at_end(struct merge_reader *m)
{
	if (m->fp && ferror(m->fp))
		merge_fail(m, "read error");
	else if (m->in_input)
		merge_fail(m,
		           "the part ends in the findings of \"%.200s\" (from line %" PRIu64
		           ") without their summary line: it was cut short",
		           m->file, m->input_line);
	else if (m->line == 0)
		merge_fail(m,
		           "an empty part: no input's summary (was it made with -q, or did its run "
		           "fail?)");
	return m->failed ? MERGE_FAIL : MERGE_END;
}

/* The next line of the part's text, parsed (and kept); NULL at its end or
 * on a fault. */
static json_t *parse_line(struct merge_reader *m)
{
	ssize_t n = getline(&m->buf, &m->cap, m->fp);
	if (n < 0)
		return NULL;
	m->line++;
	if ((size_t)n > MERGE_LINE_MAX) {
		merge_fail(m, "a line of %zd bytes: not a report's", n);
		return NULL;
	}
	if (m->buf[n - 1] != '\n') {
		merge_fail(m, "the last line has no end of line: the part was cut short");
		return NULL;
	}
	json_error_t jerr;
	json_t *o = json_loadb(m->buf, (size_t)n, JSON_REJECT_DUPLICATES, &jerr);
	if (!o) {
		merge_fail(m, "not JSON: %s (column %d)", jerr.text, jerr.column);
		return NULL;
	}
	if (m->keep)
		keep_line(m->keep, o, (size_t)n);
	return o;
}

/* The next line kept; NULL at their end. */
static json_t *replay_line(struct merge_reader *m)
{
	if (m->replayed == m->replay->count)
		return NULL;
	m->line++;
	return json_incref(m->replay->lines[m->replayed++]);
}

enum merge_item merge_reader_next(struct merge_reader *m)
{
	if (m->failed)
		return MERGE_FAIL;
	/* what the previous item ended */
	if (!m->in_input && m->file)
		input_done(m);
	json_t *o = m->replay ? replay_line(m) : parse_line(m);
	if (!o)
		return m->failed ? MERGE_FAIL : at_end(m);
	enum merge_item item = MERGE_FAIL;
	struct jo j;
	if (jo_open(m, &j, o, "")) {
		const char *type = jo_str(&j, "type");
		if (!type)
			; /* failed */
		else if (strcmp(type, "finding") == 0)
			read_finding(m, &j), item = MERGE_FINDING;
		else if (strcmp(type, "summary") == 0)
			read_summary(m, &j), item = MERGE_SUMMARY;
		else if (strcmp(type, "error") == 0)
			read_error(m, &j), item = MERGE_ERROR;
		else if (strcmp(type, "batch") == 0)
			read_batch(m, &j), item = MERGE_BATCH;
		else if (strcmp(type, "charts") == 0)
			merge_read_charts(m, &j), item = MERGE_CHARTS;
		else if (strcmp(type, "chart") == 0)
			merge_read_chart(m, &j), item = MERGE_CHART;
		else if (strcmp(type, "record") == 0 || strcmp(type, "malformed") == 0)
			merge_fail(m,
			           "a line of --decode (type \"%s\"): --merge reads the JSON Lines "
			           "reports of checks (--format=jsonl without --decode)",
			           type);
		else
			merge_fail(m,
			           "type \"%.60s\" is none of a report's lines (finding, charts, "
			           "chart, summary, error, batch)",
			           type);
	}
	json_decref(o);
	if (m->failed)
		return MERGE_FAIL;
	if (item == MERGE_SUMMARY || item == MERGE_ERROR)
		m->in_input = false; /* input_done() at the next call */
	return item;
}

void merge_reader_free(struct merge_reader *m)
{
	free(m->buf);
	free(m->file);
	for (unsigned i = 0; i < m->input_count; i++)
		free(m->inputs[i]);
	free(m->inputs);
	free(m->input.views);
	free(m->input.options_text);
	if (m->chart)
		free(m->chart->marks);
	free(m->chart);
	free(m->mark_key);
	memset(m, 0, sizeof(*m));
}
