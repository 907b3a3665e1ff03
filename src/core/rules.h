/* rules.h: the rule catalogue (generated from rules.def) and findings.
 *
 * A finding is data: the rule, where (record, time, link, port, VC, credit
 * type) and the evidence that proves it.  Analysis code raises findings
 * through rules_raise(); only report code formats them.
 */
#ifndef DLLPCHECK_RULES_H
#define DLLPCHECK_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/attrs.h"
#include "core/record.h"

enum severity { SEV_INFO = 0, SEV_WARNING = 1, SEV_ERROR = 2, SEV_COUNT = 3 };

enum rule_id {
#define RULE(sym, id, sev, ref, title, keys) sym,
#include "core/rules.def"
#undef RULE
	RULE_COUNT
};

struct rule_info {
	const char *id; /* "fc.credit.overrun" */
	enum severity severity;
	const char *spec_ref; /* spec-digest section */
	const char *title;
	/* The evidence keys its findings may carry, space-separated; a key
	 * ending in '?' is one no scenario reaches (rules.def). */
	const char *evidence_keys;
};

const struct rule_info *rule_info(enum rule_id rule);
/* Whether name is one of the rule's evidence keys (rules.def). */
bool rule_evidence_key_listed(enum rule_id rule, const char *name);
/* The same for a list written as in rules.def ("CL CC need?"). */
bool evidence_key_in_list(const char *list, const char *name);
/* Finds a rule by its id; false when there is none. */
bool rule_lookup(const char *id, enum rule_id *out);
const char *severity_name(enum severity sev);
bool severity_parse(const char *name, enum severity *out);

/* Credit types, in the order of the spec's Table 2-48. */
enum credit_type { CT_PH, CT_PD, CT_NPH, CT_NPD, CT_CPLH, CT_CPLD, CT_COUNT };
const char *credit_type_name(enum credit_type ct);

#define FINDING_NO_PORT (-1)
#define FINDING_NO_VC (-1)
#define FINDING_NO_CREDIT (-1)
#define FINDING_NO_LANE (-1)
#define FINDING_MAX_EVIDENCE 8

/* One counter value behind a finding, e.g. {"CL", 0x05}. */
struct evidence_item {
	const char *name; /* static string */
	int64_t value;
};

struct finding {
	enum rule_id rule;
	enum severity severity;
	struct srcpos pos;
	unsigned column; /* text inputs: 1-based, 0 when none */
	uint64_t time_ps;
	bool has_time;
	int link; /* -1 when the record has none (unreadable) */
	int port; /* enum link_dir of the sending port, or FINDING_NO_PORT */
	int vc; /* 0..7 or FINDING_NO_VC */
	int credit_type; /* enum credit_type or FINDING_NO_CREDIT */
	int lane; /* a lane-level capture's lane, or FINDING_NO_LANE */
	char message[256]; /* the human sentence, with the arithmetic */
	unsigned evidence_count;
	struct evidence_item evidence[FINDING_MAX_EVIDENCE];
};

/* Where findings go: enabled-rule filtering and counting happen here, then
 * emit() is called for each finding that is reported. */
struct finding_sink {
	void (*emit)(void *ctx, const struct finding *f);
	void *ctx;
	bool enabled[RULE_COUNT];
	uint64_t count_by_rule[RULE_COUNT];
	uint64_t count_by_severity[SEV_COUNT];
};

/* All rules enabled, counts zero. */
void finding_sink_init(struct finding_sink *sink, void (*emit)(void *ctx, const struct finding *f),
                       void *ctx);

/* Starts a finding for a rule about a record (position, time, link and
 * port taken from it when rec is not NULL). */
void finding_init(struct finding *f, enum rule_id rule, const struct record *rec);
void finding_add_evidence(struct finding *f, const char *name, int64_t value);
/* Writes f's sentence (printf-style) only when the sink will print it:
 * a finding of a disabled rule, or any finding under -q, is counted (or
 * not) without being formatted.  The message is empty otherwise. */
void finding_message(const struct finding_sink *sink, struct finding *f, const char *fmt, ...)
        PRINTF_LIKE(3, 4);
/* Counts and emits f unless its rule is disabled. */
void rules_raise(struct finding_sink *sink, const struct finding *f);

#endif
