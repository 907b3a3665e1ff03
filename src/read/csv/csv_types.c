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

/* The words of a type cell but the DLLP names (wire/dllp.c's, read by
 * dllp_squeezed_lookup()) and the TLP mnemonics (parse_tlp_name()). */
struct type_name {
	const char *name; /* squeezed */
	enum csv_type_kind kind;
	unsigned code; /* CSV_T_EVENT: the link_event */
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
};

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
		if (t->kind == CSV_T_EVENT)
			t->event = type_names[i].code;
		return;
	}
	/* the DLLP names are wire/'s, with the export spellings */
	if (dllp_squeezed_lookup(base, strlen(base), &t->dllp_type, &t->fc_class) != NULL) {
		t->kind = CSV_T_DLLP;
		return;
	}
	if (parse_tlp_name(base, t))
		return;
	t->kind = CSV_T_UNKNOWN;
}
