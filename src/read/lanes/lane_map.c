/* lane_map.c: the variables that the lane patterns name, checked into a
 * mapping (lane_map_build), and the clock named by --lane-clock.
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
 * two of them matching for one lane are not ambiguous.  The patterns come
 * from --lanes (lane_options.c) or, without it, from the common names
 * (lane_autodetect.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/lane_map.h"
#include "read/lanes/lane_map_internal.h"

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

bool lane_same_signal(const struct vcd_parser *p, size_t a, size_t b)
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
			    lane_same_signal(p, var[lane], i))
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
				         dirname, lane_key_name(k), l, v->path, v->width,
				         lane_key_name(k), want_s[0] ? want_s : w);
				return false;
			}
		}
	}
	d->data_bits = d->form == LANE_FORM_CODE ? 10 : d->form == LANE_FORM_SYM ? 9 : w0;
	return true;
}

/* One direction from its patterns (given or chosen). */
bool lane_resolve_dir(const struct vcd_parser *p, enum link_dir dir, struct lane_dir_map *d,
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
		snprintf(what, sizeof(what), "%s %s", dirname, lane_key_name(k));
		if (!resolve_key(p, what, d->pattern[k], d->var[k], &n, err, errlen))
			return false;
		bool shared = !strchr(d->pattern[k], '*');
		bool may_share = k == LANE_KEY_SYNC || k == LANE_KEY_START || k == LANE_KEY_VALID;
		if (shared && may_share && n == 1)
			continue; /* one signal for every lane: filled below */
		if (lanes && n != lanes) {
			snprintf(err, errlen, "%s: %s gives %u lanes, the keys before it %u",
			         dirname, lane_key_name(k), n, lanes);
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
/* The clock */

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
			if (m->clock != LANE_VAR_NONE && !lane_same_signal(p, m->clock, i)) {
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
	/* neither: a clock by its usual name (lane_autodetect.c) */
	return lane_autodetect_clock(p, m, err, errlen);
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
			if (!lane_resolve_dir(p, (enum link_dir)dir, &m->dir[dir], err, errlen))
				return false;
		}
	} else if (!lane_autodetect(o, p, m, err, errlen)) {
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
