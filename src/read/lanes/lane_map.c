/* lane_map.c: the --lanes options, and the variables they name.
 * specification: capture-format.md section 4 "Mapping"; lane_map.h.
 *
 * A pattern is matched against each variable's full dotted path, then
 * its last part; '*' matches the lane number (decimal digits).  Every
 * per-lane key must give lanes 0 .. n-1 with n a link width (1, 2, 4, 8,
 * 12, 16 or 32), and the widths of the signals must be those of the form
 * (code 10 bits, sym 9, data 8/16/32 with data/8 bits of k, sync 2, start
 * and valid 1); anything else is an error naming what was found, since a
 * mapping guessed wrong would rebuild packets the link never carried.
 * sync, start and valid may also be one signal for all lanes (a pattern
 * without '*').  Variables that share an identifier code are one signal:
 * two of them matching for one lane are not ambiguous.
 *
 * Autodetection (no --lanes) looks at the last part of each name, case
 * ignored, for the PIPE names (TxData<N>/TxDataK<N>/RxData<N>/RxDataK<N>,
 * or TxData etc. with the lane number in a scope above it: "lane3",
 * "genblk1[3]"; TxSyncHeader, TxStartBlock, TxDataValid), Intel's
 * txdata<N>/txdatak<N>, Xilinx's pipe_tx<N>_data/pipe_tx<N>_char_is_k
 * (and rx), and 10-bit (code) or 9-bit (sym) *lane<N> signals whose name
 * or scope says down, up, tx or rx.  A PIPE Tx is --lanes-dir's direction (default down), an
 * Rx the other.  More than one candidate for a direction is an error
 * listing them: the user picks with --lanes.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/time_unit.h"
#include "read/lanes/lane_map.h"

static const char *const key_names[LANE_KEY_COUNT] = { "code", "sym",   "data", "k",
	                                               "sync", "start", "valid" };

const char *lane_key_name(enum lane_key k)
{
	return k < LANE_KEY_COUNT ? key_names[k] : "?";
}

const char *lane_form_name(enum lane_form f)
{
	switch (f) {
	case LANE_FORM_CODE:
		return "code (10-bit 8b/10b code groups)";
	case LANE_FORM_SYM:
		return "sym (9-bit symbols, bit 8 = K)";
	case LANE_FORM_DATA_K:
		return "data+k (PIPE, 8b/10b)";
	case LANE_FORM_128B:
		return "data+sync+start (PIPE, 128b/130b)";
	case LANE_FORM_NONE:
		break;
	}
	return "none";
}

void lane_options_init(struct lane_options *o)
{
	memset(o, 0, sizeof(*o));
	o->edge = LANE_EDGE_RISING;
	o->scrambling = LANE_SCRAMBLE_AUTO;
	o->tx_dir = DIR_DOWN;
}

/* ------------------------------------------------------------------ */
/* Options */

bool lane_options_add_spec(struct lane_options *o, const char *arg, char *err, size_t errlen)
{
	const char *colon = strchr(arg, ':');
	enum link_dir dir;
	if (colon && (size_t)(colon - arg) == 4 && memcmp(arg, "down", 4) == 0)
		dir = DIR_DOWN;
	else if (colon && (size_t)(colon - arg) == 2 && memcmp(arg, "up", 2) == 0)
		dir = DIR_UP;
	else {
		snprintf(err, errlen, "--lanes '%s': begins with down: or up:", arg);
		return false;
	}
	struct lane_spec *spec = &o->spec[dir];
	if (spec->given) {
		snprintf(err, errlen,
		         "--lanes '%s': %s is mapped twice (one --lanes per direction)", arg,
		         link_dir_name(dir));
		return false;
	}
	memset(spec, 0, sizeof(*spec));
	const char *s = colon + 1;
	while (*s) {
		const char *comma = strchr(s, ',');
		size_t n = comma ? (size_t)(comma - s) : strlen(s);
		const char *eq = memchr(s, '=', n);
		if (!eq || eq == s || eq + 1 == s + n) {
			snprintf(err, errlen, "--lanes '%s': '%.*s' is not key=pattern", arg,
			         (int)n, s);
			return false;
		}
		size_t klen = (size_t)(eq - s);
		int key = -1;
		for (int k = 0; k < LANE_KEY_COUNT; k++)
			if (strlen(key_names[k]) == klen && memcmp(key_names[k], s, klen) == 0)
				key = k;
		if (key < 0) {
			snprintf(err, errlen,
			         "--lanes '%s': unknown key '%.*s' (code, sym, data, k, sync, "
			         "start, "
			         "valid)",
			         arg, (int)klen, s);
			return false;
		}
		size_t plen = n - klen - 1;
		if (plen >= LANE_PATTERN_MAX) {
			snprintf(err, errlen, "--lanes '%s': pattern of %s longer than %u bytes",
			         arg, key_names[key], LANE_PATTERN_MAX - 1);
			return false;
		}
		const char *pat = eq + 1;
		const char *star = memchr(pat, '*', plen);
		if (star && memchr(star + 1, '*', plen - (size_t)(star + 1 - pat))) {
			snprintf(err, errlen, "--lanes '%s': '%.*s' has more than one '*'", arg,
			         (int)plen, pat);
			return false;
		}
		if (spec->pattern[key][0]) {
			snprintf(err, errlen, "--lanes '%s': %s given twice", arg, key_names[key]);
			return false;
		}
		memcpy(spec->pattern[key], pat, plen);
		spec->pattern[key][plen] = '\0';
		s += n;
		if (*s == ',')
			s++;
	}
	spec->given = true;
	return true;
}

bool lane_options_set_clock(struct lane_options *o, const char *arg, char *err, size_t errlen)
{
	const char *colon = strrchr(arg, ':');
	size_t n = strlen(arg);
	o->edge = LANE_EDGE_RISING;
	if (colon && strcmp(colon + 1, "rising") == 0) {
		n = (size_t)(colon - arg);
	} else if (colon && strcmp(colon + 1, "falling") == 0) {
		o->edge = LANE_EDGE_FALLING;
		n = (size_t)(colon - arg);
	} else if (colon) {
		snprintf(err, errlen, "--lane-clock '%s': the edge is rising or falling, not '%s'",
		         arg, colon + 1);
		return false;
	}
	if (n == 0 || n >= LANE_PATTERN_MAX) {
		snprintf(err, errlen, "--lane-clock '%s': a signal name is needed", arg);
		return false;
	}
	memcpy(o->clock, arg, n);
	o->clock[n] = '\0';
	return true;
}

bool lane_options_set_period(struct lane_options *o, const char *arg, char *err, size_t errlen)
{
	size_t int_len = strspn(arg, "0123456789"), frac_len = 0;
	const char *frac = arg + int_len;
	if (*frac == '.') {
		frac++;
		frac_len = strspn(frac, "0123456789");
	}
	const char *unit_s = frac + frac_len;
	const struct time_unit *u = time_unit_find(unit_s, strlen(unit_s));
	uint64_t ps;
	if (int_len + frac_len == 0 || !u ||
	    time_unit_to_ps(arg, int_len, frac, frac_len, u, &ps) != TIME_OK || ps == 0) {
		snprintf(err, errlen,
		         "--symbol-period '%s' is not a time above 0 with a unit (ps, ns, us, ms, "
		         "s), e.g. 4ns",
		         arg);
		return false;
	}
	o->period_ps = ps;
	return true;
}

bool lane_options_set_scrambled(struct lane_options *o, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, "yes") == 0)
		o->scrambling = LANE_SCRAMBLE_YES;
	else if (strcmp(arg, "no") == 0)
		o->scrambling = LANE_SCRAMBLE_NO;
	else if (strcmp(arg, "auto") == 0)
		o->scrambling = LANE_SCRAMBLE_AUTO;
	else {
		snprintf(err, errlen, "--scrambled takes yes, no or auto, not '%s'", arg);
		return false;
	}
	return true;
}

bool lane_options_set_dir(struct lane_options *o, const char *arg, char *err, size_t errlen)
{
	if (strcmp(arg, "tx=down") == 0)
		o->tx_dir = DIR_DOWN;
	else if (strcmp(arg, "tx=up") == 0)
		o->tx_dir = DIR_UP;
	else {
		snprintf(err, errlen, "--lanes-dir takes tx=down or tx=up, not '%s'", arg);
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Matching */

static bool ch_eq(char a, char b, bool nocase)
{
	if (nocase)
		return tolower((unsigned char)a) == tolower((unsigned char)b);
	return a == b;
}

bool lane_pattern_match(const char *pattern, const char *s, bool nocase, unsigned *lane)
{
	*lane = 0;
	for (;;) {
		if (*pattern == '*') {
			size_t n = strspn(s, "0123456789");
			if (n == 0 || n > 4)
				return false;
			unsigned v = 0;
			for (size_t i = 0; i < n; i++)
				v = v * 10 + (unsigned)(s[i] - '0');
			/* the digits must be all of the number the pattern means:
			 * "txdata*" does not take "txdata12" as lane 1 then "2" */
			*lane = v;
			pattern++;
			s += n;
			continue;
		}
		if (*pattern == '\0')
			return *s == '\0';
		if (!ch_eq(*pattern, *s, nocase))
			return false;
		pattern++;
		s++;
	}
}

static bool var_matches(const struct vcd_var *v, const char *pattern, bool nocase, unsigned *lane)
{
	return lane_pattern_match(pattern, v->path, nocase, lane) ||
	       lane_pattern_match(pattern, v->name, nocase, lane);
}

static bool same_signal(const struct vcd_parser *p, size_t a, size_t b)
{
	return strcmp(vcd_var_at(p, a)->id, vcd_var_at(p, b)->id) == 0;
}

static bool lane_width_ok(unsigned n)
{
	return n == 1 || n == 2 || n == 4 || n == 8 || n == 12 || n == 16 || n == 32;
}

/* The variables of one key: var[lane], *lanes the count (1 for a pattern
 * without '*': a shared signal).  False with err for none found, two
 * signals for one lane, a gap or a count that is no link width. */
static bool resolve_key(const struct vcd_parser *p, const char *what, const char *pattern,
                        size_t var[LANE_MAX], unsigned *lanes, char *err, size_t errlen)
{
	size_t n = vcd_var_count(p);
	bool seen[64] = { false };
	unsigned max = 0;
	bool any = false;
	bool star = strchr(pattern, '*') != NULL;
	for (unsigned i = 0; i < LANE_MAX; i++)
		var[i] = LANE_VAR_NONE;
	for (size_t i = 0; i < n; i++) {
		const struct vcd_var *v = vcd_var_at(p, i);
		unsigned lane;
		if (!var_matches(v, pattern, false, &lane))
			continue;
		if (lane >= 64) {
			snprintf(err, errlen, "%s '%s' matches '%s' as lane %u: at most %u lanes",
			         what, pattern, v->path, lane, LANE_MAX);
			return false;
		}
		if (seen[lane]) {
			if (lane < LANE_MAX && var[lane] != LANE_VAR_NONE &&
			    same_signal(p, var[lane], i))
				continue; /* an alias of the same signal */
			char lane_s[24] = "";
			if (star)
				snprintf(lane_s, sizeof(lane_s), " for lane %u", lane);
			snprintf(err, errlen,
			         "%s '%s' is ambiguous: '%s' and '%s' both match%s; give more of "
			         "the "
			         "path",
			         what, pattern,
			         lane < LANE_MAX ? vcd_var_at(p, var[lane])->path : "?", v->path,
			         lane_s);
			return false;
		}
		seen[lane] = true;
		any = true;
		if (lane + 1 > max)
			max = lane + 1;
		if (lane < LANE_MAX)
			var[lane] = i;
	}
	if (!any) {
		snprintf(err, errlen, "%s '%s' matches no variable of the VCD", what, pattern);
		return false;
	}
	if (max > LANE_MAX) {
		snprintf(err, errlen, "%s '%s' matches lanes up to %u: at most %u lanes", what,
		         pattern, max - 1, LANE_MAX);
		return false;
	}
	char found[200] = "";
	size_t fl = 0;
	unsigned count = 0;
	for (unsigned i = 0; i < max; i++) {
		if (!seen[i])
			continue;
		count++;
		if (fl < sizeof(found) - 8)
			fl += (size_t)snprintf(found + fl, sizeof(found) - fl, "%s%u",
			                       fl ? "," : "", i);
	}
	for (unsigned i = 0; i < max; i++) {
		if (!seen[i]) {
			snprintf(err, errlen,
			         "%s '%s' matches lanes %s: lane %u is missing (lanes are numbered "
			         "from 0 without a gap)",
			         what, pattern, found, i);
			return false;
		}
	}
	if (!lane_width_ok(count)) {
		snprintf(err, errlen,
		         "%s '%s' matches %u lanes (%s): a link has 1, 2, 4, 8, 12, 16 or 32", what,
		         pattern, count, found);
		return false;
	}
	*lanes = count;
	return true;
}

/* The form the keys give, and the widths checked. */
static bool check_form(const struct vcd_parser *p, const char *dirname, struct lane_dir_map *d,
                       const bool has[LANE_KEY_COUNT], char *err, size_t errlen)
{
	if (has[LANE_KEY_CODE] && !has[LANE_KEY_SYM] && !has[LANE_KEY_DATA] && !has[LANE_KEY_K] &&
	    !has[LANE_KEY_SYNC] && !has[LANE_KEY_START])
		d->form = LANE_FORM_CODE;
	else if (has[LANE_KEY_SYM] && !has[LANE_KEY_CODE] && !has[LANE_KEY_DATA] &&
	         !has[LANE_KEY_K] && !has[LANE_KEY_SYNC] && !has[LANE_KEY_START])
		d->form = LANE_FORM_SYM;
	else if (has[LANE_KEY_DATA] && has[LANE_KEY_K] && !has[LANE_KEY_CODE] &&
	         !has[LANE_KEY_SYM] && !has[LANE_KEY_SYNC] && !has[LANE_KEY_START])
		d->form = LANE_FORM_DATA_K;
	else if (has[LANE_KEY_DATA] && has[LANE_KEY_SYNC] && has[LANE_KEY_START] &&
	         !has[LANE_KEY_CODE] && !has[LANE_KEY_SYM] && !has[LANE_KEY_K])
		d->form = LANE_FORM_128B;
	else {
		snprintf(err, errlen,
		         "%s: the keys give no form: code, sym, data+k or data+sync+start "
		         "(each +valid)",
		         dirname);
		return false;
	}
	enum lane_key main = d->form == LANE_FORM_CODE  ? LANE_KEY_CODE
	                     : d->form == LANE_FORM_SYM ? LANE_KEY_SYM
	                                                : LANE_KEY_DATA;
	unsigned w0 = vcd_var_at(p, d->var[main][0])->width;
	for (unsigned l = 0; l < d->lanes; l++) {
		for (int k = 0; k < LANE_KEY_COUNT; k++) {
			if (!has[k])
				continue;
			const struct vcd_var *v = vcd_var_at(p, d->var[k][l]);
			unsigned want = 0;
			const char *want_s = "";
			switch ((enum lane_key)k) {
			case LANE_KEY_CODE:
				want = 10;
				break;
			case LANE_KEY_SYM:
				want = 9;
				break;
			case LANE_KEY_DATA:
				if (v->width != 8 && v->width != 16 && v->width != 32) {
					want_s = "8, 16 or 32";
					break;
				}
				want = w0;
				break;
			case LANE_KEY_K:
				want = w0 / 8;
				break;
			case LANE_KEY_SYNC:
				want = 2;
				break;
			case LANE_KEY_START:
			case LANE_KEY_VALID:
				want = 1;
				break;
			case LANE_KEY_COUNT:
				break;
			}
			if (want_s[0] || v->width != want) {
				char w[16];
				snprintf(w, sizeof(w), "%u", want);
				snprintf(err, errlen,
				         "%s: %s of lane %u is '%s', %u bits wide: %s wants %s",
				         dirname, key_names[k], l, v->path, v->width, key_names[k],
				         want_s[0] ? want_s : w);
				return false;
			}
		}
	}
	d->data_bits = d->form == LANE_FORM_CODE ? 10 : d->form == LANE_FORM_SYM ? 9 : w0;
	return true;
}

/* One direction from its patterns (given or chosen). */
static bool resolve_dir(const struct vcd_parser *p, enum link_dir dir, struct lane_dir_map *d,
                        char *err, size_t errlen)
{
	bool has[LANE_KEY_COUNT] = { false };
	unsigned lanes = 0;
	char what[64];
	char dirname[16];
	snprintf(dirname, sizeof(dirname), "--lanes %s", link_dir_name(dir));
	for (int k = 0; k < LANE_KEY_COUNT; k++) {
		for (unsigned l = 0; l < LANE_MAX; l++)
			d->var[k][l] = LANE_VAR_NONE;
		if (!d->pattern[k][0])
			continue;
		has[k] = true;
		unsigned n = 0;
		snprintf(what, sizeof(what), "%s %s", dirname, key_names[k]);
		if (!resolve_key(p, what, d->pattern[k], d->var[k], &n, err, errlen))
			return false;
		bool shared = !strchr(d->pattern[k], '*');
		bool may_share = k == LANE_KEY_SYNC || k == LANE_KEY_START || k == LANE_KEY_VALID;
		if (shared && may_share && n == 1)
			continue; /* one signal for every lane: filled below */
		if (lanes && n != lanes) {
			snprintf(err, errlen, "%s: %s gives %u lanes, the keys before it %u",
			         dirname, key_names[k], n, lanes);
			return false;
		}
		lanes = n;
	}
	if (lanes == 0) {
		snprintf(err, errlen, "%s: no code, sym or data key", dirname);
		return false;
	}
	d->lanes = lanes;
	for (int k = LANE_KEY_SYNC; k < LANE_KEY_COUNT; k++)
		if (has[k] && d->var[k][1] == LANE_VAR_NONE)
			for (unsigned l = 1; l < lanes; l++)
				d->var[k][l] = d->var[k][0];
	if (!check_form(p, dirname, d, has, err, errlen))
		return false;
	d->mapped = true;
	return true;
}

/* ------------------------------------------------------------------ */
/* Autodetection */

enum role { ROLE_TX, ROLE_RX, ROLE_DOWN, ROLE_UP };

struct tpl {
	const char *name; /* lower case; '*' = the lane number; none: in a scope */
	unsigned char role;
	unsigned char key;
};

static const struct tpl templates[] = {
	{ "txdata*", ROLE_TX, LANE_KEY_DATA },
	{ "tx_data*", ROLE_TX, LANE_KEY_DATA },
	{ "pipe_tx*_data", ROLE_TX, LANE_KEY_DATA },
	{ "txdata", ROLE_TX, LANE_KEY_DATA },
	{ "txdatak*", ROLE_TX, LANE_KEY_K },
	{ "tx_datak*", ROLE_TX, LANE_KEY_K },
	{ "pipe_tx*_char_is_k", ROLE_TX, LANE_KEY_K },
	{ "txdatak", ROLE_TX, LANE_KEY_K },
	{ "txsyncheader*", ROLE_TX, LANE_KEY_SYNC },
	{ "pipe_tx*_sync_header", ROLE_TX, LANE_KEY_SYNC },
	{ "txsyncheader", ROLE_TX, LANE_KEY_SYNC },
	{ "txstartblock*", ROLE_TX, LANE_KEY_START },
	{ "pipe_tx*_start_block", ROLE_TX, LANE_KEY_START },
	{ "txstartblock", ROLE_TX, LANE_KEY_START },
	{ "txdatavalid*", ROLE_TX, LANE_KEY_VALID },
	{ "pipe_tx*_data_valid", ROLE_TX, LANE_KEY_VALID },
	{ "txdatavalid", ROLE_TX, LANE_KEY_VALID },
	{ "rxdata*", ROLE_RX, LANE_KEY_DATA },
	{ "rx_data*", ROLE_RX, LANE_KEY_DATA },
	{ "pipe_rx*_data", ROLE_RX, LANE_KEY_DATA },
	{ "rxdata", ROLE_RX, LANE_KEY_DATA },
	{ "rxdatak*", ROLE_RX, LANE_KEY_K },
	{ "rx_datak*", ROLE_RX, LANE_KEY_K },
	{ "pipe_rx*_char_is_k", ROLE_RX, LANE_KEY_K },
	{ "rxdatak", ROLE_RX, LANE_KEY_K },
	{ "rxsyncheader*", ROLE_RX, LANE_KEY_SYNC },
	{ "pipe_rx*_sync_header", ROLE_RX, LANE_KEY_SYNC },
	{ "rxsyncheader", ROLE_RX, LANE_KEY_SYNC },
	{ "rxstartblock*", ROLE_RX, LANE_KEY_START },
	{ "pipe_rx*_start_block", ROLE_RX, LANE_KEY_START },
	{ "rxstartblock", ROLE_RX, LANE_KEY_START },
	{ "rxdatavalid*", ROLE_RX, LANE_KEY_VALID },
	{ "pipe_rx*_data_valid", ROLE_RX, LANE_KEY_VALID },
	{ "rxdatavalid", ROLE_RX, LANE_KEY_VALID },
};

#define CAND_MAX 16

/* The distinct patterns found for one role and key. */
struct cands {
	char pat[CAND_MAX][LANE_PATTERN_MAX];
	size_t first_var[CAND_MAX]; /* to tell aliases apart */
	unsigned n;
	bool more; /* above CAND_MAX */
};

static void cand_add(const struct vcd_parser *p, struct cands *c, const char *pat, size_t var)
{
	for (unsigned i = 0; i < c->n; i++)
		if (strcmp(c->pat[i], pat) == 0)
			return;
	/* an alias of a pattern already found (the same signal seen in two
	 * scopes, as some simulators dump it) is not a second candidate */
	for (unsigned i = 0; i < c->n; i++)
		if (same_signal(p, c->first_var[i], var))
			return;
	if (c->n == CAND_MAX) {
		c->more = true;
		return;
	}
	snprintf(c->pat[c->n], LANE_PATTERN_MAX, "%s", pat);
	c->first_var[c->n] = var;
	c->n++;
}

/* path with s[at..at+n) (the lane digits) replaced by '*'. */
static bool star_at(const char *path, size_t at, size_t n, char *out)
{
	size_t len = strlen(path);
	if (len - n + 1 >= LANE_PATTERN_MAX)
		return false;
	memcpy(out, path, at);
	out[at] = '*';
	memcpy(out + at + 1, path + at + n, len - at - n + 1);
	return true;
}

/* The pattern of a variable that a template matches, or false. */
static bool tpl_pattern(const struct vcd_var *v, const struct tpl *t, char *out)
{
	unsigned lane;
	size_t name_at = (size_t)(v->name - v->path);
	if (strchr(t->name, '*')) {
		if (!lane_pattern_match(t->name, v->name, true, &lane))
			return false;
		/* the digits: where the template's '*' fell in the name */
		size_t pre = (size_t)(strchr(t->name, '*') - t->name);
		size_t n = strspn(v->name + pre, "0123456789");
		return star_at(v->path, name_at + pre, n, out);
	}
	if (strlen(t->name) != strlen(v->name) ||
	    !lane_pattern_match(t->name, v->name, true, &lane))
		return false;
	/* the lane in a scope above: the nearest part ending in a number,
	 * "lane3" or "genblk1[3]"; none: one lane */
	for (size_t end = name_at; end > 1;) {
		size_t e = end - 1; /* the '.' before the part after */
		size_t last = e; /* one past the part's last character */
		if (last > 0 && v->path[last - 1] == ']')
			last--;
		size_t d = last;
		while (d > 0 && isdigit((unsigned char)v->path[d - 1]))
			d--;
		if (d < last && d > 0 && v->path[d - 1] != '.')
			return star_at(v->path, d, last - d, out);
		while (e > 0 && v->path[e - 1] != '.')
			e--;
		end = e;
	}
	snprintf(out, LANE_PATTERN_MAX, "%s", v->path);
	return strlen(v->path) < LANE_PATTERN_MAX;
}

/* The direction words in s: down/dn, up, tx, rx, as whole words. */
static int dir_word(const char *s, size_t n)
{
	int found = -1;
	size_t i = 0;
	while (i < n) {
		while (i < n && !isalnum((unsigned char)s[i]))
			i++;
		size_t b = i;
		while (i < n && isalpha((unsigned char)s[i]))
			i++;
		size_t wl = i - b;
		while (i < n && isalnum((unsigned char)s[i]))
			i++;
		if (wl == 0)
			continue;
		if ((wl == 4 && strncasecmp(s + b, "down", 4) == 0) ||
		    (wl == 2 && strncasecmp(s + b, "dn", 2) == 0))
			found = ROLE_DOWN;
		else if (wl == 2 && strncasecmp(s + b, "up", 2) == 0)
			found = ROLE_UP;
		else if (wl == 2 && strncasecmp(s + b, "tx", 2) == 0)
			found = ROLE_TX;
		else if (wl == 2 && strncasecmp(s + b, "rx", 2) == 0)
			found = ROLE_RX;
	}
	return found;
}

/* A 10-bit (code) or 9-bit (sym) "...lane<N>" signal: its pattern and
 * role from the words of its name and scope (none: a Tx). */
static bool lane10_pattern(const struct vcd_var *v, char *out, int *role)
{
	if (v->width != 10 && v->width != 9)
		return false;
	size_t len = strlen(v->name);
	size_t d = len;
	while (d > 0 && isdigit((unsigned char)v->name[d - 1]))
		d--;
	if (d == len || d < 4 || strncasecmp(v->name + d - 4, "lane", 4) != 0 || len - d > 2)
		return false;
	size_t name_at = (size_t)(v->name - v->path);
	int r = dir_word(v->name, d - 4);
	if (r < 0)
		r = dir_word(v->path, name_at);
	*role = r < 0 ? ROLE_TX : r;
	return star_at(v->path, name_at + d, len - d, out);
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0;
	while (a[n] && a[n] == b[n])
		n++;
	return n;
}

static void list_cands(const struct cands *c, char *out, size_t size)
{
	size_t l = 0;
	out[0] = '\0';
	for (unsigned i = 0; i < c->n && l + 4 < size; i++)
		l += (size_t)snprintf(out + l, size - l, "%s'%s'", i ? ", " : "", c->pat[i]);
	if (c->more && l + 6 < size)
		snprintf(out + l, size - l, ", ...");
}

static bool autodetect(const struct lane_options *o, const struct vcd_parser *p,
                       struct lane_mapping *m, char *err, size_t errlen)
{
	static struct cands zero;
	struct cands *c = malloc(sizeof(struct cands) * 4 * LANE_KEY_COUNT);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	for (unsigned i = 0; i < 4 * LANE_KEY_COUNT; i++)
		c[i] = zero;
#define CANDS(role, key) (&c[(role)*LANE_KEY_COUNT + (key)])
	char pat[LANE_PATTERN_MAX];
	for (size_t i = 0; i < vcd_var_count(p); i++) {
		const struct vcd_var *v = vcd_var_at(p, i);
		int role;
		for (size_t t = 0; t < sizeof(templates) / sizeof(templates[0]); t++) {
			if (!tpl_pattern(v, &templates[t], pat))
				continue;
			/* data of PIPE width only, K one bit per byte or so */
			if (templates[t].key == LANE_KEY_DATA && v->width != 8 && v->width != 16 &&
			    v->width != 32)
				continue;
			cand_add(p, CANDS(templates[t].role, templates[t].key), pat, i);
			break;
		}
		if (lane10_pattern(v, pat, &role))
			cand_add(p, CANDS(role, v->width == 10 ? LANE_KEY_CODE : LANE_KEY_SYM), pat,
			         i);
	}
	bool ok = false;
	char list[400];
	size_t cl = 0;
	m->chose[0] = '\0';
	/* per role, its data (or code) pattern, and the other keys from the
	 * same scope (the longest common prefix with the data pattern) */
	for (int role = ROLE_TX; role <= ROLE_UP; role++) {
		enum link_dir dir = role == ROLE_TX     ? o->tx_dir
		                    : role == ROLE_RX   ? (enum link_dir) !o->tx_dir
		                    : role == ROLE_DOWN ? DIR_DOWN
		                                        : DIR_UP;
		static const char *const role_names[] = { "PIPE Tx", "PIPE Rx", "down lanes",
			                                  "up lanes" };
		struct cands *data = CANDS(role, LANE_KEY_DATA);
		struct cands *code = CANDS(role, LANE_KEY_CODE);
		struct cands *sym = CANDS(role, LANE_KEY_SYM);
		enum lane_key lane_key = sym->n && !code->n ? LANE_KEY_SYM : LANE_KEY_CODE;
		if (lane_key == LANE_KEY_SYM)
			code = sym;
		if (data->n == 0 && code->n == 0)
			continue;
		if (data->n + code->n + (lane_key == LANE_KEY_CODE ? sym->n : 0) > 1) {
			struct cands *many = data->n > 1 ? data : code->n > 1 ? code : sym;
			list_cands(many, list, sizeof(list));
			snprintf(err, errlen,
			         "several %s signals found (%s): name the lanes with --lanes",
			         role_names[role],
			         data->n && code->n  ? "code and data"
			         : code->n && sym->n ? "10-bit and 9-bit"
			                             : list);
			goto out;
		}
		struct lane_dir_map *d = &m->dir[dir];
		if (d->mapped || d->pattern[LANE_KEY_DATA][0] || d->pattern[LANE_KEY_CODE][0] ||
		    d->pattern[LANE_KEY_SYM][0]) {
			snprintf(err, errlen,
			         "two sets of lane signals for the %s direction (%s and %s): name "
			         "the "
			         "lanes with --lanes",
			         link_dir_name(dir),
			         d->pattern[LANE_KEY_DATA][0]   ? d->pattern[LANE_KEY_DATA]
			         : d->pattern[LANE_KEY_CODE][0] ? d->pattern[LANE_KEY_CODE]
			                                        : d->pattern[LANE_KEY_SYM],
			         data->n ? data->pat[0] : code->pat[0]);
			goto out;
		}
		if (code->n) {
			snprintf(d->pattern[lane_key], LANE_PATTERN_MAX, "%s", code->pat[0]);
		} else {
			snprintf(d->pattern[LANE_KEY_DATA], LANE_PATTERN_MAX, "%s", data->pat[0]);
			int best[LANE_KEY_COUNT];
			for (int k = LANE_KEY_K; k < LANE_KEY_COUNT; k++) {
				struct cands *ck = CANDS(role, k);
				best[k] = -1;
				size_t bl = 0;
				for (unsigned i = 0; i < ck->n; i++) {
					size_t l = common_prefix(ck->pat[i], data->pat[0]);
					if (best[k] < 0 || l > bl)
						best[k] = (int)i, bl = l;
				}
			}
			bool k_ok = best[LANE_KEY_K] >= 0;
			bool b128 = best[LANE_KEY_SYNC] >= 0 && best[LANE_KEY_START] >= 0;
			if (!k_ok && !b128) {
				snprintf(err, errlen,
				         "%s data '%s' found, but no K signal (TxDataK) nor sync "
				         "header "
				         "and start-of-block signals: name them with --lanes",
				         role_names[role], data->pat[0]);
				goto out;
			}
			if (k_ok) {
				snprintf(d->pattern[LANE_KEY_K], LANE_PATTERN_MAX, "%s",
				         CANDS(role, LANE_KEY_K)->pat[best[LANE_KEY_K]]);
			} else {
				for (int k = LANE_KEY_SYNC; k <= LANE_KEY_VALID; k++)
					if (best[k] >= 0)
						snprintf(d->pattern[k], LANE_PATTERN_MAX, "%s",
						         CANDS(role, k)->pat[best[k]]);
			}
			if (k_ok && b128 && cl < sizeof(m->chose))
				cl += (size_t)snprintf(
				        m->chose + cl, sizeof(m->chose) - cl,
				        "%s%s: sync header and start-of-block signals too: read as "
				        "8b/10b (data+k); for 8 GT/s give --lanes with sync= and "
				        "start=",
				        cl ? "; " : "", role_names[role]);
		}
		if (!resolve_dir(p, dir, d, err, errlen))
			goto out;
		if (cl < sizeof(m->chose)) {
			cl += (size_t)snprintf(m->chose + cl, sizeof(m->chose) - cl,
			                       "%s%s as %s: '%s'", cl ? "; " : "", role_names[role],
			                       link_dir_name(dir),
			                       code->n ? code->pat[0] : data->pat[0]);
		}
	}
	if (!m->dir[DIR_DOWN].mapped && !m->dir[DIR_UP].mapped) {
		snprintf(
		        err, errlen,
		        "no lane signals found by name (PIPE TxData/RxData + K, Intel "
		        "txdata<N>/txdatak<N>, Xilinx pipe_tx<N>_data, 10-bit *lane<N>): name them "
		        "with --lanes");
		goto out;
	}
	m->autodetected = true;
	ok = true;
out:
#undef CANDS
	free(c);
	return ok;
}

/* ------------------------------------------------------------------ */
/* The clock */

static const char *const clock_names[] = { "pclk",   "pipe_clk", "pipe_pclk",  "pclk_in",
	                                   "symclk", "sym_clk",  "symbol_clk", "lane_clk",
	                                   "txclk",  "clk" };

static bool find_clock(const struct lane_options *o, const struct vcd_parser *p,
                       struct lane_mapping *m, char *err, size_t errlen)
{
	size_t n = vcd_var_count(p);
	m->clock = LANE_VAR_NONE;
	if (o->clock[0]) {
		for (size_t i = 0; i < n; i++) {
			const struct vcd_var *v = vcd_var_at(p, i);
			if (strcmp(v->path, o->clock) != 0 && strcmp(v->name, o->clock) != 0)
				continue;
			if (m->clock != LANE_VAR_NONE && !same_signal(p, m->clock, i)) {
				snprintf(err, errlen,
				         "--lane-clock '%s' is ambiguous: '%s' and '%s'; give more "
				         "of the "
				         "path",
				         o->clock, vcd_var_at(p, m->clock)->path, v->path);
				return false;
			}
			if (m->clock == LANE_VAR_NONE)
				m->clock = i;
		}
		if (m->clock == LANE_VAR_NONE) {
			snprintf(err, errlen, "--lane-clock '%s' matches no variable of the VCD",
			         o->clock);
			return false;
		}
		if (vcd_var_at(p, m->clock)->width != 1) {
			snprintf(err, errlen, "--lane-clock '%s' is %u bits wide: a clock is 1 bit",
			         vcd_var_at(p, m->clock)->path, vcd_var_at(p, m->clock)->width);
			return false;
		}
		return true;
	}
	if (o->period_ps)
		return true;
	/* neither: a clock by its usual name, nearest the lanes' scope */
	const struct lane_dir_map *d =
	        m->dir[DIR_DOWN].mapped ? &m->dir[DIR_DOWN] : &m->dir[DIR_UP];
	enum lane_key main = d->form == LANE_FORM_CODE  ? LANE_KEY_CODE
	                     : d->form == LANE_FORM_SYM ? LANE_KEY_SYM
	                                                : LANE_KEY_DATA;
	const char *lane0 = vcd_var_at(p, d->var[main][0])->path;
	for (size_t c = 0; c < sizeof(clock_names) / sizeof(clock_names[0]); c++) {
		size_t best = LANE_VAR_NONE, best_l = 0;
		bool tie = false;
		for (size_t i = 0; i < n; i++) {
			const struct vcd_var *v = vcd_var_at(p, i);
			unsigned lane;
			if (v->width != 1 || strlen(v->name) != strlen(clock_names[c]) ||
			    !lane_pattern_match(clock_names[c], v->name, true, &lane))
				continue;
			size_t l = common_prefix(v->path, lane0);
			if (best == LANE_VAR_NONE || l > best_l) {
				best = i, best_l = l, tie = false;
			} else if (l == best_l && !same_signal(p, best, i)) {
				tie = true;
			}
		}
		if (best == LANE_VAR_NONE)
			continue;
		if (tie) {
			snprintf(err, errlen,
			         "several clocks named '%s': give --lane-clock NAME or "
			         "--symbol-period",
			         clock_names[c]);
			return false;
		}
		m->clock = best;
		m->clock_autodetected = true;
		return true;
	}
	snprintf(err, errlen,
	         "no --lane-clock and no --symbol-period, and no clock found by name (pclk, "
	         "symclk, clk, ...): give one");
	return false;
}

bool lane_map_build(const struct lane_options *o, const struct vcd_parser *p,
                    struct lane_mapping *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->clock = LANE_VAR_NONE;
	m->edge = o->edge;
	m->period_ps = o->period_ps;
	if (o->clock[0] && o->period_ps) {
		snprintf(err, errlen, "--lane-clock and --symbol-period: give one of them");
		return false;
	}
	if (o->spec[DIR_DOWN].given || o->spec[DIR_UP].given) {
		for (int dir = 0; dir < DIR_COUNT; dir++) {
			if (!o->spec[dir].given)
				continue;
			memcpy(m->dir[dir].pattern, o->spec[dir].pattern,
			       sizeof(m->dir[dir].pattern));
			if (!resolve_dir(p, (enum link_dir)dir, &m->dir[dir], err, errlen))
				return false;
		}
	} else if (!autodetect(o, p, m, err, errlen)) {
		return false;
	}
	if (!find_clock(o, p, m, err, errlen))
		return false;
	if (m->clock_autodetected) {
		size_t l = strlen(m->chose);
		snprintf(m->chose + l, sizeof(m->chose) - l, "%sclock '%s' (%s edge)",
		         l ? "; " : "", vcd_var_at(p, m->clock)->path,
		         m->edge == LANE_EDGE_RISING ? "rising" : "falling");
	}
	return true;
}
