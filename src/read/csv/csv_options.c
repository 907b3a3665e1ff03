/* csv_options.c: the export options (--map, --delimiter, --header-line,
 * --time-unit, --clock-period, --dir-map) and map files (--map-file), each
 * parsed into struct csv_options with a message for a value it cannot
 * take.  specification: capture-format.md section 3; dllpcheck(1). */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/ascii.h"
#include "base/number.h"
#include "base/time_unit.h"
#include "read/csv/csv_internal.h"

void csv_options_init(struct csv_options *o)
{
	memset(o, 0, sizeof(*o));
	o->time_unit_pow = -1;
}

/* The field a --map key names: a field name or any alias. */
static int map_key_lookup(const char *s, size_t len)
{
	char norm[CSV_NAME_MAX];

	csv_trim(&s, &len);
	csv_normalise_name(s, len, norm, sizeof(norm), NULL, 0);
	for (int f = 0; f < CSV_F_COUNT; f++) {
		char fn[CSV_NAME_MAX] = "";

		csv_normalise_into(csv_field_names[f], strlen(csv_field_names[f]), fn, sizeof(fn));
		if (strcmp(fn, norm) == 0)
			return f;
	}
	return csv_field_lookup(norm, NULL);
}

static bool parse_small_uint(const char *s, size_t len, unsigned max, unsigned *out)
{
	unsigned v = 0;

	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
		if (v > max)
			return false;
	}
	*out = v;
	return true;
}

/* KEY=VALUE of arg: key and value trimmed. */
static bool split_kv(const char *arg, const char *what, const char **k, size_t *klen,
                     const char **v, size_t *vlen, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL)
		return csv_set_err(err, errlen, "%s '%s': expected KEY=VALUE", what, arg);
	*k = arg;
	*klen = (size_t)(eq - arg);
	*v = eq + 1;
	*vlen = strlen(eq + 1);
	csv_trim(k, klen);
	csv_trim(v, vlen);
	return true;
}

bool csv_options_set_map(struct csv_options *o, const char *arg, char *err, size_t errlen)
{
	const char *k = NULL, *v = NULL;
	size_t klen = 0, vlen = 0;
	int f;
	struct csv_map_entry *m;

	if (!split_kv(arg, "--map", &k, &klen, &v, &vlen, err, errlen))
		return false;
	f = map_key_lookup(k, klen);
	if (f < 0)
		return csv_set_err(err, errlen,
		                   "--map '%s': unknown key (time, dir, link, type, "
		                   "dllp-type, tlp-type, vc, hdr-fc, data-fc, hdr-scale, "
		                   "data-scale, seq, acknak-seq, length, tc, raw, packet)",
		                   arg);
	m = &o->map[f];
	memset(m, 0, sizeof(*m));
	if (vlen == 0 || ascii_eq_nocase(v, vlen, "none") || ascii_eq_nocase(v, vlen, "-")) {
		m->how = CSV_MAP_NONE;
	} else if (v[0] == '#') {
		if (!parse_small_uint(v + 1, vlen - 1, CSV_MAX_COLS, &m->index) || m->index == 0)
			return csv_set_err(err, errlen, "--map '%s': column number from #1 to #%u",
			                   arg, CSV_MAX_COLS);
		m->how = CSV_MAP_INDEX;
	} else {
		if (vlen >= sizeof(m->name))
			return csv_set_err(err, errlen, "--map '%s': column name too long", arg);
		memcpy(m->name, v, vlen);
		m->name[vlen] = '\0';
		m->how = CSV_MAP_NAME;
	}
	return true;
}

bool csv_options_set_delimiter(struct csv_options *o, const char *arg, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		char c;
	} names[] = {
		{ "auto", CSV_DELIM_AUTO },
		{ "tab", '\t' },
		{ "\\t", '\t' },
		{ "comma", ',' },
		{ "semicolon", ';' },
		{ "pipe", '|' },
		{ "space", CSV_DELIM_ALIGNED },
		{ "aligned", CSV_DELIM_ALIGNED },
		{ "whitespace", CSV_DELIM_ALIGNED },
	};

	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		if (ascii_eq_nocase(arg, strlen(arg), names[i].name)) {
			o->delimiter = names[i].c;
			return true;
		}
	}
	if (strlen(arg) == 1 && arg[0] != '"' && arg[0] != '\n' && arg[0] != '\r') {
		o->delimiter = arg[0];
		return true;
	}
	return csv_set_err(err, errlen,
	                   "--delimiter takes one character, tab, comma, semicolon, "
	                   "pipe, space (aligned columns) or auto, not '%s'",
	                   arg);
}

bool csv_options_set_header_line(struct csv_options *o, const char *arg, char *err, size_t errlen)
{
	unsigned v;

	if (!parse_small_uint(arg, strlen(arg), 1000000, &v))
		return csv_set_err(err, errlen,
		                   "--header-line takes a line number (0: no header), not '%s'",
		                   arg);
	o->header_line_given = true;
	o->header_line = v;
	return true;
}

bool csv_options_set_time_unit(struct csv_options *o, const char *arg, char *err, size_t errlen)
{
	const struct time_unit *u = time_unit_find_nocase(arg, strlen(arg));

	if (u == NULL || u->pow10 < 0)
		return csv_set_err(err, errlen, "--time-unit takes ps, ns, us, ms or s, not '%s'",
		                   arg);
	o->time_unit_pow = u->pow10;
	return true;
}

/* "250MHz": period in fs = 10^15 / f, rounded. */
static bool frequency_to_fs(const struct number_dec *n, int unit_pow, uint64_t *fs)
{
	uint64_t hz_scaled;
	int e = n->exp10 + unit_pow; /* f = digits * 10^e Hz */
	int shift = 0;
	uint64_t num = 1;
	struct number_dec m = *n;

	/* f = digits * 10^e; period = 10^(15-e) / digits */
	m.exp10 = 0;
	if (!number_dec_to_u64(&m, 0, &hz_scaled) || hz_scaled == 0)
		return false;
	shift = 15 - e;
	if (shift < 0 || shift > 19)
		return false;
	for (int i = 0; i < shift; i++)
		num *= 10;
	*fs = (num + hz_scaled / 2) / hz_scaled;
	return *fs != 0;
}

bool csv_options_set_clock_period(struct csv_options *o, const char *arg, char *err, size_t errlen)
{
	static const struct {
		const char *name; /* any case */
		int pow; /* 10^pow Hz */
	} freq_units[] = {
		{ "hz", 0 },
		{ "khz", 3 },
		{ "mhz", 6 },
		{ "ghz", 9 },
	};
	const char *s = arg, *u;
	size_t len = strlen(arg), ulen;
	struct number_dec n;
	const struct time_unit *tu;
	uint64_t fs = 0;

	csv_trim(&s, &len);
	number_scan_decimal(s, len, false, &n);
	u = s + n.used;
	ulen = len - n.used;
	csv_trim(&u, &ulen);
	if (!n.any || n.neg)
		goto bad;
	for (size_t i = 0; i < ARRAY_LEN(freq_units); i++) {
		if (ascii_eq_nocase(u, ulen, freq_units[i].name)) {
			if (!frequency_to_fs(&n, freq_units[i].pow, &fs))
				goto bad;
			o->clock_period_fs = fs;
			return true;
		}
	}
	tu = time_unit_find_nocase(u, ulen);
	if (tu == NULL || !number_dec_to_u64(&n, tu->pow10 + 3, &fs) || fs == 0)
		goto bad;
	o->clock_period_fs = fs;
	return true;
bad:
	return csv_set_err(err, errlen,
	                   "--clock-period takes a time (4ns, 2.5 ns) or a frequency "
	                   "(250MHz) greater than 0, not '%s'",
	                   arg);
}

bool csv_options_set_dir_map(struct csv_options *o, const char *arg, char *err, size_t errlen)
{
	const char *p = arg;

	while (*p != '\0') {
		const char *comma = strchr(p, ',');
		size_t plen = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', plen);
		const char *k = p, *v;
		size_t klen, vlen;
		struct csv_dir_entry *e;

		if (eq == NULL)
			return csv_set_err(err, errlen,
			                   "--dir-map '%s': expected VALUE=down|up[,...]", arg);
		klen = (size_t)(eq - p);
		v = eq + 1;
		vlen = plen - klen - 1;
		csv_trim(&k, &klen);
		csv_trim(&v, &vlen);
		if (klen == 0 || klen >= CSV_NAME_MAX)
			return csv_set_err(err, errlen, "--dir-map '%s': empty or long value", arg);
		if (o->dir_map_count >= CSV_DIR_MAP_MAX)
			return csv_set_err(err, errlen, "--dir-map: more than %u values",
			                   CSV_DIR_MAP_MAX);
		e = &o->dir_map[o->dir_map_count];
		if (ascii_eq_nocase(v, vlen, "down"))
			e->dir = DIR_DOWN;
		else if (ascii_eq_nocase(v, vlen, "up"))
			e->dir = DIR_UP;
		else
			return csv_set_err(err, errlen,
			                   "--dir-map '%s': a value maps to down or up", arg);
		memcpy(e->value, k, klen);
		e->value[klen] = '\0';
		o->dir_map_count++;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return true;
}

/* '#' starts a comment, except "#N" (a column number) right after '='. */
static void cut_comment(char *line)
{
	for (char *h = strchr(line, '#'); h != NULL; h = strchr(h + 1, '#')) {
		char *b = h;

		while (b > line && is_blank(b[-1]))
			b--;
		if (b > line && b[-1] == '=' && is_digit(h[1]))
			continue;
		*h = '\0';
		return;
	}
}

/* One line of a map file: KEY=VALUE. */
static bool map_file_line(struct csv_options *o, char *line, char *err, size_t errlen)
{
	static const struct {
		const char *key;
		bool (*set)(struct csv_options *, const char *, char *, size_t);
	} opts[] = {
		{ "delimiter", csv_options_set_delimiter },
		{ "headerline", csv_options_set_header_line },
		{ "timeunit", csv_options_set_time_unit },
		{ "clockperiod", csv_options_set_clock_period },
		{ "dirmap", csv_options_set_dir_map },
	};
	char *eq = strchr(line, '=');
	char key[CSV_NAME_MAX];
	const char *v;
	size_t vlen;

	if (eq == NULL)
		return csv_set_err(err, errlen, "expected KEY=VALUE");
	csv_normalise_name(line, (size_t)(eq - line), key, sizeof(key), NULL, 0);
	v = eq + 1;
	vlen = strlen(v);
	csv_trim(&v, &vlen);
	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		if (strcmp(key, opts[i].key) == 0) {
			char val[CSV_NAME_MAX * 4];

			if (vlen >= sizeof(val))
				return csv_set_err(err, errlen, "value too long");
			/* A delimiter may be a blank: keep "tab"/"space" words. */
			memcpy(val, v, vlen);
			val[vlen] = '\0';
			return opts[i].set(o, val, err, errlen);
		}
	}
	return csv_options_set_map(o, line, err, errlen);
}

bool csv_options_load_map_file(struct csv_options *o, const char *path, char *err, size_t errlen)
{
	char line[512], msg[300];
	unsigned no = 0;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return csv_set_err(err, errlen, "--map-file %s: cannot open: %s", path,
		                   strerror(errno));
	while (fgets(line, sizeof(line), fp) != NULL) {
		size_t len = strlen(line);
		const char *s = line;

		no++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n') {
			fclose(fp);
			return csv_set_err(err, errlen, "%s:%u: line too long", path, no);
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		cut_comment(line);
		len = strlen(line);
		csv_trim(&s, &len);
		if (len == 0)
			continue;
		memmove(line, s, len);
		line[len] = '\0';
		if (!map_file_line(o, line, msg, sizeof(msg))) {
			fclose(fp);
			return csv_set_err(err, errlen, "%s:%u: %s", path, no, msg);
		}
	}
	if (ferror(fp)) {
		fclose(fp);
		return csv_set_err(err, errlen, "--map-file %s: read error", path);
	}
	fclose(fp);
	return true;
}
