/* csv_types.c: direction cells and packet-type cells ("UpdateFC-P (VC0)",
 * "0x80", "MWr32", "Link-Up", "SKP", ...).  specification:
 * capture-format.md section 3. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ascii.h"
#include "read/csv/csv_internal.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

bool csv_parse_dir(const char *s, size_t len, const struct csv_options *o, enum link_dir *dir)
{
	static const char *const downs[] = { "down", "downstream", "ds", "dn" };
	static const char *const ups[] = { "up", "upstream", "us" };
	char w[16];

	csv_trim(&s, &len);
	for (unsigned i = 0; o != NULL && i < o->dir_map_count; i++) {
		if (ascii_eq_nocase(s, len, o->dir_map[i].value)) {
			*dir = o->dir_map[i].dir;
			return true;
		}
	}
	if (ascii_eq_nocase(s, len, "->")) {
		*dir = DIR_DOWN;
		return true;
	}
	if (ascii_eq_nocase(s, len, "<-")) {
		*dir = DIR_UP;
		return true;
	}
	if (!csv_squeeze(s, len, w, sizeof(w)))
		return false;
	for (size_t i = 0; i < ARRAY_LEN(downs); i++) {
		if (strcmp(w, downs[i]) == 0) {
			*dir = DIR_DOWN;
			return true;
		}
	}
	for (size_t i = 0; i < ARRAY_LEN(ups); i++) {
		if (strcmp(w, ups[i]) == 0) {
			*dir = DIR_UP;
			return true;
		}
	}
	return false;
}

struct type_name {
	const char *name; /* squeezed */
	enum csv_type_kind kind;
	unsigned code; /* dllp_type, or link_event */
};

static const struct type_name type_names[] = {
	{ "dllp", CSV_T_DLLP_ANY, 0 },
	{ "datalink", CSV_T_DLLP_ANY, 0 },
	{ "datalinklayer", CSV_T_DLLP_ANY, 0 },
	{ "dll", CSV_T_DLLP_ANY, 0 },
	{ "link", CSV_T_DLLP_ANY, 0 },
	{ "tlp", CSV_T_TLP_ANY, 0 },
	{ "transaction", CSV_T_TLP_ANY, 0 },
	{ "transactionlayer", CSV_T_TLP_ANY, 0 },
	{ "tl", CSV_T_TLP_ANY, 0 },
	{ "event", CSV_T_EVENT_ANY, 0 },
	{ "linkevent", CSV_T_EVENT_ANY, 0 },

	{ "skp", CSV_T_SKIP, 0 },
	{ "skip", CSV_T_SKIP, 0 },
	{ "skpos", CSV_T_SKIP, 0 },
	{ "ts1", CSV_T_SKIP, 0 },
	{ "ts2", CSV_T_SKIP, 0 },
	{ "fts", CSV_T_SKIP, 0 },
	{ "eios", CSV_T_SKIP, 0 },
	{ "eieos", CSV_T_SKIP, 0 },
	{ "sds", CSV_T_SKIP, 0 },
	{ "idle", CSV_T_SKIP, 0 },
	{ "logicalidle", CSV_T_SKIP, 0 },
	{ "electricalidle", CSV_T_SKIP, 0 },
	{ "eidle", CSV_T_SKIP, 0 },
	{ "orderedset", CSV_T_SKIP, 0 },
	{ "physical", CSV_T_SKIP, 0 },
	{ "physicallayer", CSV_T_SKIP, 0 },
	{ "phy", CSV_T_SKIP, 0 },

	{ "linkup", CSV_T_EVENT, EV_LINK_UP },
	{ "linkdown", CSV_T_EVENT, EV_LINK_DOWN },
	{ "hotreset", CSV_T_EVENT, EV_HOT_RESET },
	{ "recovery", CSV_T_EVENT, EV_RECOVERY },
	{ "portreset", CSV_T_EVENT, EV_PORT_RESET },
	{ "vcenable", CSV_T_EVENT, EV_VC_ENABLE },

	{ "ack", CSV_T_DLLP, DLLP_ACK },
	{ "nak", CSV_T_DLLP, DLLP_NAK },
	{ "pmenterl1", CSV_T_DLLP, DLLP_PM_ENTER_L1 },
	{ "pmenterl23", CSV_T_DLLP, DLLP_PM_ENTER_L23 },
	{ "pmactivestaterequestl1", CSV_T_DLLP, DLLP_PM_AS_REQUEST_L1 },
	{ "pmasrequestl1", CSV_T_DLLP, DLLP_PM_AS_REQUEST_L1 },
	{ "pmrequestack", CSV_T_DLLP, DLLP_PM_REQUEST_ACK },
	{ "nop", CSV_T_DLLP, DLLP_NOP },
	{ "feature", CSV_T_DLLP, DLLP_FEATURE },
	{ "datalinkfeature", CSV_T_DLLP, DLLP_FEATURE },
	{ "vendor", CSV_T_DLLP, DLLP_VENDOR },
	{ "vendorspecific", CSV_T_DLLP, DLLP_VENDOR },
};

struct fc_prefix {
	const char *name;
	enum dllp_type type;
};

static const struct fc_prefix fc_prefixes[] = {
	{ "initfc1", DLLP_INITFC1 },
	{ "initfc2", DLLP_INITFC2 },
	{ "updatefc", DLLP_UPDATEFC },
	{ "updfc", DLLP_UPDATEFC },
};

struct fc_suffix {
	const char *name;
	enum fc_class cls;
};

static const struct fc_suffix fc_suffixes[] = {
	{ "p", FC_P },     { "posted", FC_P },       { "np", FC_NP },    { "nonposted", FC_NP },
	{ "cpl", FC_CPL }, { "completion", FC_CPL }, { "cmpl", FC_CPL },
};

static bool parse_fc_name(const char *w, struct csv_type *t)
{
	for (size_t i = 0; i < ARRAY_LEN(fc_prefixes); i++) {
		size_t pl = strlen(fc_prefixes[i].name);

		if (strncmp(w, fc_prefixes[i].name, pl) != 0)
			continue;
		for (size_t k = 0; k < ARRAY_LEN(fc_suffixes); k++) {
			if (strcmp(w + pl, fc_suffixes[k].name) == 0) {
				t->kind = CSV_T_DLLP;
				t->dllp_type = fc_prefixes[i].type;
				t->fc_class = fc_suffixes[k].cls;
				return true;
			}
		}
	}
	return false;
}

/* TLP mnemonics as tlp_mnemonic_parse() knows them, also "MemWr",
 * "MWr" (3 DW header assumed) and "MWr 64". */
static bool parse_tlp_name(const char *w, struct csv_type *t)
{
	char buf[40];
	size_t len = strlen(w);

	if (len + 3 > sizeof(buf))
		return false;
	if (strncmp(w, "mem", 3) == 0 && len > 3) {
		buf[0] = 'm';
		memcpy(buf + 1, w + 3, len - 2);
	} else {
		memcpy(buf, w, len + 1);
	}
	len = strlen(buf);
	if (tlp_mnemonic_parse(buf, len, &t->tlp_kind, &t->addr64)) {
		t->kind = CSV_T_TLP;
		return true;
	}
	memcpy(buf + len, "32", 3);
	if (tlp_mnemonic_parse(buf, len + 2, &t->tlp_kind, &t->addr64)) {
		t->kind = CSV_T_TLP;
		return true;
	}
	return false;
}

/* "0x80" or "80h": a DLLP type byte. */
static bool parse_type_byte(const char *s, size_t len, struct csv_type *t)
{
	unsigned v = 0;
	uint8_t content[4] = { 0 };
	struct dllp d;

	if (len == 4 && s[0] == '0' && ascii_lower(s[1]) == 'x') {
		s += 2;
		len = 2;
	} else if (len == 3 && ascii_lower(s[2]) == 'h') {
		len = 2;
	} else {
		return false;
	}
	for (size_t i = 0; i < len; i++) {
		int h = ascii_hex_value(s[i]);

		if (h < 0)
			return false;
		v = v << 4 | (unsigned)h;
	}
	content[0] = (uint8_t)v;
	if (dllp_decode(content, 4, false, &d) != DLLP_DECODE_OK)
		return false;
	t->kind = CSV_T_DLLP;
	t->by_byte = true;
	t->type_byte = (uint8_t)v;
	t->dllp_type = d.type;
	t->fc_class = d.fc_class;
	if (dllp_is_fc(d.type))
		t->vc = d.vc;
	return true;
}

/* A trailing "vcN" ("UpdateFC-P (VC0)" squeezed): cut off into t->vc. */
static void cut_vc_suffix(char *w, struct csv_type *t)
{
	size_t len = strlen(w), d = len;

	while (d > 0 && is_digit(w[d - 1]))
		d--;
	if (d == len || d < 3 || len - d > 2 || w[d - 2] != 'v' || w[d - 1] != 'c')
		return;
	t->vc = atoi(w + d);
	w[d - 2] = '\0';
}

void csv_parse_type(const char *s, size_t len, struct csv_type *t)
{
	char w[48];
	const char *base;

	memset(t, 0, sizeof(*t));
	t->kind = CSV_T_UNKNOWN;
	t->vc = -1;
	csv_trim(&s, &len);
	if (len == 0 || parse_type_byte(s, len, t))
		return;
	if (!csv_squeeze(s, len, w, sizeof(w)) || w[0] == '\0')
		return;
	cut_vc_suffix(w, t);
	if (t->vc > 7)
		return;
	base = w;
	/* "TLP MWr32", "DLLP UpdateFC-P": the layer word adds nothing. */
	if (strncmp(base, "dllp", 4) == 0 && base[4] != '\0')
		base += 4;
	else if (strncmp(base, "tlp", 3) == 0 && base[3] != '\0')
		base += 3;
	for (size_t i = 0; i < ARRAY_LEN(type_names); i++) {
		if (strcmp(base, type_names[i].name) != 0)
			continue;
		t->kind = type_names[i].kind;
		if (t->kind == CSV_T_DLLP)
			t->dllp_type = (enum dllp_type)type_names[i].code;
		else if (t->kind == CSV_T_EVENT)
			t->event = type_names[i].code;
		return;
	}
	if (parse_fc_name(base, t) || parse_tlp_name(base, t))
		return;
	t->kind = CSV_T_UNKNOWN;
}
