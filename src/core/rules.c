/* rules.c: the rule catalogue table and the one function that raises a
 * finding.  The table is generated from rules.def so that nothing about a
 * rule is written twice. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/rules.h"

static const struct rule_info rule_table[RULE_COUNT] = {
#define RULE(sym, id, sev, ref, title, keys) [sym] = { id, sev, ref, title, keys },
#include "core/rules.def"
#undef RULE
};

static const char *const severity_names[SEV_COUNT] = {
	[SEV_INFO] = "info",
	[SEV_WARNING] = "warning",
	[SEV_ERROR] = "error",
};

static const char *const credit_type_names[CT_COUNT] = {
	[CT_PH] = "PH",   [CT_PD] = "PD",     [CT_NPH] = "NPH",
	[CT_NPD] = "NPD", [CT_CPLH] = "CplH", [CT_CPLD] = "CplD",
};

const struct rule_info *rule_info(enum rule_id rule)
{
	return &rule_table[rule < RULE_COUNT ? rule : 0];
}

bool evidence_key_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t k = strcspn(p, " ");
		size_t key_len = k > 0 && p[k - 1] == '?' ? k - 1 : k;
		if (key_len == n && n > 0 && memcmp(p, name, n) == 0)
			return true;
		p += k;
	}
	return false;
}

bool rule_evidence_key_listed(enum rule_id rule, const char *name)
{
	return evidence_key_in_list(rule_info(rule)->evidence_keys, name);
}

bool rule_lookup(const char *id, enum rule_id *out)
{
	for (unsigned i = 0; i < RULE_COUNT; i++) {
		if (strcmp(rule_table[i].id, id) == 0) {
			*out = (enum rule_id)i;
			return true;
		}
	}
	return false;
}

const char *severity_name(enum severity sev)
{
	return sev < SEV_COUNT ? severity_names[sev] : "?";
}

bool severity_parse(const char *name, enum severity *out)
{
	for (unsigned i = 0; i < SEV_COUNT; i++) {
		if (strcmp(severity_names[i], name) == 0) {
			*out = (enum severity)i;
			return true;
		}
	}
	return false;
}

const char *credit_type_name(enum credit_type ct)
{
	return ct < CT_COUNT ? credit_type_names[ct] : "?";
}

void finding_sink_init(struct finding_sink *sink, void (*emit)(void *ctx, const struct finding *f),
                       void *ctx)
{
	memset(sink, 0, sizeof(*sink));
	sink->emit = emit;
	sink->ctx = ctx;
	for (unsigned i = 0; i < RULE_COUNT; i++)
		sink->enabled[i] = true;
}

void finding_init(struct finding *f, enum rule_id rule, const struct record *rec)
{
	memset(f, 0, sizeof(*f));
	f->rule = rule;
	f->severity = rule_info(rule)->severity;
	f->link = -1;
	f->port = FINDING_NO_PORT;
	f->vc = FINDING_NO_VC;
	f->credit_type = FINDING_NO_CREDIT;
	f->lane = FINDING_NO_LANE;
	if (rec) {
		f->pos = rec->pos;
		f->time_ps = rec->time_ps;
		f->has_time = true;
		f->link = rec->link;
		f->port = (int)rec->dir;
	}
}

void finding_add_evidence(struct finding *f, const char *name, int64_t value)
{
	if (f->evidence_count < FINDING_MAX_EVIDENCE) {
		f->evidence[f->evidence_count].name = name;
		f->evidence[f->evidence_count].value = value;
		f->evidence_count++;
	}
}

void finding_message(const struct finding_sink *sink, struct finding *f, const char *fmt, ...)
{
	if (!sink->enabled[f->rule] || !sink->emit)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof(f->message), fmt, ap);
	va_end(ap);
}

void rules_raise(struct finding_sink *sink, const struct finding *f)
{
	if (!sink->enabled[f->rule])
		return;
	sink->count_by_rule[f->rule]++;
	sink->count_by_severity[f->severity]++;
	if (sink->emit)
		sink->emit(sink->ctx, f);
}
