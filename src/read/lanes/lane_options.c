/* lane_options.c: the lane reader's options as the command line gives
 * them (--lanes, --lane-clock, --symbol-period, --scrambled,
 * --lanes-dir), parsed into struct lane_options, and the names of the
 * keys and forms.
 * specification: capture-format.md section 4 "Mapping"; dllpcheck(1);
 * the interface is lane_map.h.
 *
 * --lanes 'DIR:key=pattern[,key=pattern...]': DIR is down or up, a key
 * one of code, sym, data, k, sync, start, valid, each given once, and a
 * pattern has at most one '*' (the lane number).  What the patterns name
 * is found later, in the VCD's declarations (lane_map.c).
 */
#include <stdint.h>
#include <stdio.h>
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
