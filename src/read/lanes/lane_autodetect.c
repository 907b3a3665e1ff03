/* lane_autodetect.c: the lanes and the clock found by their common names
 * when no --lanes (or no --lane-clock) is given.
 * specification: capture-format.md section 4 "Mapping" (autodetection);
 * lane_map.h; the shared internals are lane_map_internal.h.
 *
 * Autodetection (no --lanes) looks at the last part of each name, case
 * ignored, for the PIPE names (TxData<N>/TxDataK<N>/RxData<N>/RxDataK<N>,
 * or TxData etc. with the lane number in a scope above it: "lane3",
 * "genblk1[3]"; TxSyncHeader, TxStartBlock, TxDataValid), Intel's
 * txdata<N>/txdatak<N> (and, at 8 GT/s and above, txsynchd<N>/
 * txblkst<N>/txdatavalid<N>), Xilinx's pipe_tx<N>_data/
 * pipe_tx<N>_char_is_k (and rx), and 10-bit (code) or 9-bit (sym)
 * *lane<N> signals whose name or scope says down, up, tx or rx.  A PIPE
 * Tx is --lanes-dir's direction (default down), an Rx the other.  More
 * than one candidate for a direction is an error listing them: the user
 * picks with --lanes.  The patterns chosen are then checked as given ones
 * are (lane_resolve_dir), and what was chosen is said in words.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/lane_map.h"
#include "read/lanes/lane_map_internal.h"

enum role { ROLE_TX, ROLE_RX, ROLE_DOWN, ROLE_UP };

struct tpl {
	const char *name; /* lower case; '*' = the lane number; none: in a scope */
	unsigned char role;
	unsigned char key;
};

/* The names, per role and key.  Intel's 128b/130b PIPE names with the
 * lane number as a suffix, txsynchd<N>[1:0] (the sync header), txblkst<N>
 * (start of block) and rxsynchd<N>/rxblkst<N>, are those of the PIPE
 * interface signals of Intel's Hard IP for PCI Express user guides (e.g.
 * 683667, L-/H-tile Stratix 10, table "PIPE Interface": txsynchd[1:0],
 * txblkst[3:0], txdataskip; 683524, Cyclone V, "PIPE Interface Signals":
 * txdata0, txdatak0, txdataskip0, the lane number a suffix).  The PHY
 * user guide 683171 (V-Series Transceiver PHY, sections 9.6 and 9.7)
 * names them differently, pipe_txdata / tx_sync_hdr[1:0] /
 * tx_blk_start[3:0] and the rx ones: those are not taken, since there the
 * start of block is one bit per byte of the 32-bit word, which the start
 * key (one bit) does not read.  A txblkst of 4 bits is refused by the
 * width check like any other, naming it.  Intel's data-valid signal is
 * txdataskip, whose name says skip but whose encoding says 1 = valid: it
 * is not taken by name (a valid of the wrong sense would drop every
 * word); give it with --lanes valid= when it is 1 for valid.  txdatavalid
 * <N> is taken by the PIPE name below. */
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
	{ "txsynchd*", ROLE_TX, LANE_KEY_SYNC }, /* Intel Hard IP (comment above) */
	{ "txstartblock*", ROLE_TX, LANE_KEY_START },
	{ "pipe_tx*_start_block", ROLE_TX, LANE_KEY_START },
	{ "txstartblock", ROLE_TX, LANE_KEY_START },
	{ "txblkst*", ROLE_TX, LANE_KEY_START },
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
	{ "rxsynchd*", ROLE_RX, LANE_KEY_SYNC },
	{ "rxstartblock*", ROLE_RX, LANE_KEY_START },
	{ "pipe_rx*_start_block", ROLE_RX, LANE_KEY_START },
	{ "rxstartblock", ROLE_RX, LANE_KEY_START },
	{ "rxblkst*", ROLE_RX, LANE_KEY_START },
	{ "rxdatavalid*", ROLE_RX, LANE_KEY_VALID },
	{ "pipe_rx*_data_valid", ROLE_RX, LANE_KEY_VALID },
	{ "rxdatavalid", ROLE_RX, LANE_KEY_VALID },
};

#define CAND_MAX 16

/* The distinct patterns found for one role and key.  Each pattern is
 * allocated as it is found: the 28 sets of 16 patterns of 256 bytes as
 * arrays were 115 KB to clear for every VCD read (fuzz_vcd's page faults),
 * where a file names a few. */
struct cands {
	char *pat[CAND_MAX];
	size_t first_var[CAND_MAX]; /* to tell aliases apart */
	unsigned n;
	bool more; /* above CAND_MAX */
};

/* False when out of memory. */
static bool cand_add(const struct vcd_parser *p, struct cands *c, const char *pat, size_t var)
{
	for (unsigned i = 0; i < c->n; i++)
		if (strcmp(c->pat[i], pat) == 0)
			return true;
	/* an alias of a pattern already found (the same signal seen in two
	 * scopes, as some simulators dump it) is not a second candidate */
	for (unsigned i = 0; i < c->n; i++)
		if (lane_same_signal(p, c->first_var[i], var))
			return true;
	if (c->n == CAND_MAX) {
		c->more = true;
		return true;
	}
	char *copy = strndup(pat, LANE_PATTERN_MAX - 1);
	if (!copy)
		return false;
	c->pat[c->n] = copy;
	c->first_var[c->n] = var;
	c->n++;
	return true;
}

/* path with s[at..at+n) (the lane digits) replaced by '*'.  False when
 * the pattern is too long, or when path ends before at + n: a NUL byte in
 * a scope's name cuts the path short of its name (fuzz_vcd). */
static bool star_at(const char *path, size_t at, size_t n, char *out)
{
	size_t len = strlen(path);
	if (at + n > len || len - n + 1 >= LANE_PATTERN_MAX)
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

bool lane_autodetect(const struct lane_options *o, const struct vcd_parser *p,
                     struct lane_mapping *m, char *err, size_t errlen)
{
	struct cands *c = calloc(4 * LANE_KEY_COUNT, sizeof(struct cands));
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
#define CANDS(role, key) (&c[(role)*LANE_KEY_COUNT + (key)])
	bool ok = false;
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
			if (!cand_add(p, CANDS(templates[t].role, templates[t].key), pat, i))
				goto oom;
			break;
		}
		if (lane10_pattern(v, pat, &role) &&
		    !cand_add(p, CANDS(role, v->width == 10 ? LANE_KEY_CODE : LANE_KEY_SYM), pat,
		              i))
			goto oom;
	}
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
		if (!lane_resolve_dir(p, dir, d, err, errlen))
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
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
out:
#undef CANDS
	for (unsigned i = 0; i < 4 * LANE_KEY_COUNT; i++)
		for (unsigned j = 0; j < c[i].n; j++)
			free(c[i].pat[j]);
	free(c);
	return ok;
}

/* ------------------------------------------------------------------ */
/* The clock */

static const char *const clock_names[] = { "pclk",   "pipe_clk", "pipe_pclk",  "pclk_in",
	                                   "symclk", "sym_clk",  "symbol_clk", "lane_clk",
	                                   "txclk",  "clk" };

/* No --lane-clock and no --symbol-period: the clock by its usual name,
 * nearest the lanes' scope. */
bool lane_autodetect_clock(const struct vcd_parser *p, struct lane_mapping *m, char *err,
                           size_t errlen)
{
	size_t n = vcd_var_count(p);
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
			} else if (l == best_l && !lane_same_signal(p, best, i)) {
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
