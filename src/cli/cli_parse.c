/* cli_parse.c: option values with a syntax of their own. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/number.h"
#include "base/time_unit.h"
#include "cli/cli_parse.h"
#include "wire/fc_arith.h"

/* Calls item(s, len) for each comma-separated item of s. */
#define FOR_EACH_ITEM(s, p, len)                                              \
	for (const char *p = (s), *next_; p; p = next_)                       \
		for (size_t len = (next_ = strchr(p, ','),                    \
		                  next_ ? (size_t)(next_++ - p) : strlen(p)), \
		            once_ = 1;                                        \
		     once_; once_ = 0)

bool parse_tc_map(const char *s, uint8_t tc_to_vc[8], char *err, size_t errlen)
{
	FOR_EACH_ITEM(s, item, len)
	{
		const char *eq = memchr(item, '=', len);
		uint64_t tc, vc;
		if (!eq || !number_parse_max(item, (size_t)(eq - item), 7, &tc) ||
		    !number_parse_max(eq + 1, len - (size_t)(eq + 1 - item), 7, &vc)) {
			snprintf(err, errlen, "--tc-map: '%.*s' is not TC=VC with TC and VC 0-7",
			         (int)len, item);
			return false;
		}
		if (tc == 0 && vc != 0) {
			snprintf(err, errlen, "--tc-map: TC0 always maps to VC0 (spec-digest 4.3)");
			return false;
		}
		tc_to_vc[tc] = (uint8_t)vc;
	}
	return true;
}

static bool role_from(const char *s, size_t len, enum port_role *out)
{
	for (unsigned r = ROLE_ROOT_PORT; r <= ROLE_ENDPOINT; r++) {
		if (strlen(port_role_name((enum port_role)r)) == len &&
		    strncmp(port_role_name((enum port_role)r), s, len) == 0) {
			*out = (enum port_role)r;
			return true;
		}
	}
	return false;
}

bool parse_roles(const char *s, enum port_role role[DIR_COUNT], char *err, size_t errlen)
{
	FOR_EACH_ITEM(s, item, len)
	{
		const char *eq = memchr(item, '=', len);
		enum port_role r;
		enum link_dir dir;
		size_t klen = eq ? (size_t)(eq - item) : 0;
		if (eq && klen == 4 && strncmp(item, "down", 4) == 0)
			dir = DIR_DOWN;
		else if (eq && klen == 2 && strncmp(item, "up", 2) == 0)
			dir = DIR_UP;
		else {
			snprintf(err, errlen, "--role: '%.*s' is not down=ROLE or up=ROLE",
			         (int)len, item);
			return false;
		}
		if (!role_from(eq + 1, len - klen - 1, &r)) {
			snprintf(err, errlen,
			         "--role: unknown role '%.*s' (root-port, root-port-p2p, switch, "
			         "endpoint)",
			         (int)(len - klen - 1), eq + 1);
			return false;
		}
		if (dir == DIR_DOWN && r == ROLE_ENDPOINT) {
			snprintf(err, errlen,
			         "--role: port D (down) is a downstream port: it cannot be an "
			         "endpoint");
			return false;
		}
		if (dir == DIR_UP && (r == ROLE_ROOT_PORT || r == ROLE_ROOT_PORT_P2P)) {
			snprintf(err, errlen,
			         "--role: port U (up) is an upstream port: it cannot be a root "
			         "port");
			return false;
		}
		role[dir] = r;
	}
	return true;
}

/* The sizes Device Control encodes for Max_Payload_Size and
 * Max_Read_Request_Size: 128 to 4096 bytes, powers of two. */
static bool parse_size_128_4096(const char *option, const char *s, uint32_t *bytes, char *err,
                                size_t errlen)
{
	uint64_t v;
	if (!number_parse_max(s, strlen(s), 4096, &v) || v < 128 || (v & (v - 1)) != 0) {
		snprintf(err, errlen,
		         "%s takes 128, 256, 512, 1024, 2048 or 4096 (bytes), not '%s'", option, s);
		return false;
	}
	*bytes = (uint32_t)v;
	return true;
}

bool parse_mps(const char *s, uint32_t *mps, char *err, size_t errlen)
{
	return parse_size_128_4096("--mps", s, mps, err, errlen);
}

bool parse_mrrs(const char *s, uint32_t *mrrs, char *err, size_t errlen)
{
	return parse_size_128_4096("--mrrs", s, mrrs, err, errlen);
}

static bool credit_type_from(const char *s, size_t len, enum credit_type *out)
{
	for (unsigned ct = 0; ct < CT_COUNT; ct++) {
		const char *name = credit_type_name((enum credit_type)ct);
		if (strlen(name) == len && strncasecmp(name, s, len) == 0) {
			*out = (enum credit_type)ct;
			return true;
		}
	}
	return false;
}

bool parse_initial_credits(const char *s,
                           struct initial_credit initial[DIR_COUNT][FC_VC_COUNT][CT_COUNT],
                           char *err, size_t errlen)
{
	enum link_dir adv;
	uint64_t vc;
	const char *rest;
	if (strncmp(s, "down:", 5) == 0) {
		adv = DIR_DOWN;
		rest = s + 5;
	} else if (strncmp(s, "up:", 3) == 0) {
		adv = DIR_UP;
		rest = s + 3;
	} else {
		snprintf(err, errlen,
		         "--initial-credits: '%s' does not start with down: or up:", s);
		return false;
	}
	const char *colon = strchr(rest, ':');
	if (!colon || !number_parse_max(rest, (size_t)(colon - rest), 7, &vc)) {
		snprintf(err, errlen,
		         "--initial-credits: '%s': expected PORT:VC:TYPE=N,... with VC 0-7", s);
		return false;
	}
	FOR_EACH_ITEM(colon + 1, item, len)
	{
		const char *eq = memchr(item, '=', len);
		enum credit_type ct;
		if (!eq || !credit_type_from(item, (size_t)(eq - item), &ct)) {
			snprintf(err, errlen,
			         "--initial-credits: '%.*s' is not TYPE=N with TYPE one of PH PD "
			         "NPH NPD CplH CplD",
			         (int)len, item);
			return false;
		}
		const char *val = eq + 1;
		size_t vlen = len - (size_t)(val - item);
		struct initial_credit *ic = &initial[adv][vc][ct];
		uint64_t n;
		/* the most a receiver may advertise: the field's largest
		 * value at the largest scale, x16 [5.5] */
		unsigned long max =
		        ct_is_data(ct) ? fc_data_max(FC_SCALE_MAX) : fc_hdr_max(FC_SCALE_MAX);
		if (vlen == 3 && strncasecmp(val, "inf", 3) == 0) {
			ic->given = true;
			ic->infinite = true;
			ic->credits = 0;
		} else if (number_parse_max(val, vlen, max, &n) && n > 0) {
			ic->given = true;
			ic->infinite = false;
			ic->credits = (uint32_t)n;
		} else {
			snprintf(err, errlen,
			         "--initial-credits: %s=%.*s: a credit count from 1 to %lu, or inf",
			         credit_type_name(ct), (int)vlen, val, max);
			return false;
		}
	}
	return true;
}

bool parse_microseconds(const char *s, uint64_t *ps, char *err, size_t errlen)
{
	const struct time_unit *us = &time_units[TIME_UNIT_US];
	size_t int_len = strspn(s, "0123456789"), frac_len = 0;
	const char *frac = s + int_len;

	if (*frac == '.') {
		frac++;
		frac_len = strspn(frac, "0123456789");
	}
	/* at least one digit, nothing else, and at most the six decimals of
	 * a microsecond down to 1 ps (man page: "up to six decimals") */
	if (int_len + frac_len == 0 || frac[frac_len] != '\0' || frac_len > us->frac_digits ||
	    time_unit_to_ps(s, int_len, frac, frac_len, us, ps) != TIME_OK || *ps == 0) {
		snprintf(err, errlen, "'%s' is not a time in microseconds (e.g. 45 or 17.5)", s);
		return false;
	}
	return true;
}

bool parse_net_dir_map(const char *s, struct reader_opts *o, char *rest, size_t restlen, char *err,
                       size_t errlen)
{
	static const char *const keys[] = { "server", "client", "adapter", "libtlp" };
	size_t used = 0;
	const char *p = s;

	if (restlen == 0)
		return false;
	rest[0] = '\0';
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t plen = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', plen);
		unsigned k = 4;
		for (unsigned i = 0; eq != NULL && i < 4; i++)
			if ((size_t)(eq - p) == strlen(keys[i]) &&
			    strncasecmp(p, keys[i], strlen(keys[i])) == 0)
				k = i;
		if (k < 4) {
			const char *v = eq + 1;
			size_t vlen = plen - (size_t)(v - p);
			enum link_dir dir;
			if (vlen == 4 && strncasecmp(v, "down", 4) == 0)
				dir = DIR_DOWN;
			else if (vlen == 2 && strncasecmp(v, "up", 2) == 0)
				dir = DIR_UP;
			else {
				snprintf(err, errlen, "--dir-map '%s': %s maps to down or up", s,
				         keys[k]);
				return false;
			}
			/* client and libtlp name the other side */
			if (k == 1 || k == 3)
				dir = (enum link_dir) !dir;
			if (k < 2)
				o->net_server_dir = dir;
			else
				o->net_adapter_dir = dir;
		} else if (plen > 0) {
			if (used + plen + 2 > restlen) {
				snprintf(err, errlen, "--dir-map '%s': too long", s);
				return false;
			}
			if (used)
				rest[used++] = ',';
			memcpy(rest + used, p, plen);
			used += plen;
			rest[used] = '\0';
		}
		if (comma == NULL)
			return true;
		p = comma + 1;
	}
}

bool parse_tcp_port(const char *s, uint16_t *port, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || v < 1 || v > 65535) {
		snprintf(err, errlen, "--warp-pipe-port takes a TCP port from 1 to 65535, not '%s'",
		         s);
		return false;
	}
	*port = (uint16_t)v;
	return true;
}
