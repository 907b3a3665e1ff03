/* nettlp.c: a NetTLP datagram made a record (the format, its sources and
 * the reading of direction and links are in nettlp.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/net/nettlp.h"

/* Fmt 100b: a TLP prefix DW, before the header [PCIe 2.2.1] */
#define TLP_FMT_PREFIX 4u
#define TLP_TYPE_CPL 0x0Au /* Cpl, CplD */
#define TLP_TYPE_CPL_LK 0x0Bu /* CplLk, CplDLk */

struct nettlp_link {
	struct net_addr a, b; /* the pair as first seen */
	bool adapter_known;
	struct net_addr adapter;
};

struct nettlp {
	struct nettlp_opts opts;
	const char *name;
	unsigned links;
	struct nettlp_link link[NETTLP_MAX_LINKS];
};

/* One port at both ends: libtlp's nettlp_init binds and connects the same
 * port, and the adapter answers on it (reviewed against libtlp's
 * lib/libtlp.c); two different ports in the range (an RTP stream 16384 to
 * 16386) are not NetTLP; a datagram with one port in the range and
 * the other outside (a client's ephemeral port, RTP's 16384-32767 against
 * another range) is some other protocol's, and reading it as TLPs would
 * report errors the capture does not show. */
bool nettlp_ports(uint16_t src_port, uint16_t dst_port)
{
	return src_port == dst_port && src_port >= NETTLP_PORT_FIRST &&
	       src_port <= NETTLP_PORT_LAST;
}

struct nettlp *nettlp_new(const struct nettlp_opts *o, const char *name)
{
	struct nettlp *nt = calloc(1, sizeof(*nt));
	if (nt == NULL)
		return NULL;
	nt->opts = *o;
	nt->name = name;
	return nt;
}

void nettlp_free(struct nettlp *nt)
{
	free(nt);
}

static bool addr_eq(const struct net_addr *x, const struct net_addr *y)
{
	size_t n = x->family == 4 ? 4 : 16;
	return x->family == y->family && memcmp(x->bytes, y->bytes, n) == 0;
}

static void addr_text(const struct net_addr *a, char *buf, size_t len)
{
	if (a->family == 4) {
		snprintf(buf, len, "%u.%u.%u.%u", a->bytes[0], a->bytes[1], a->bytes[2],
		         a->bytes[3]);
		return;
	}
	/* the eight groups in hex, without the :: shortening: plain and
	 * unambiguous in a message */
	int n = 0;
	for (unsigned i = 0; i < 16 && n >= 0 && (size_t)n < len; i += 2)
		n += snprintf(buf + n, len - (size_t)n, "%s%x", i ? ":" : "",
		              (unsigned)a->bytes[i] << 8 | a->bytes[i + 1]);
}

/* The link of this pair, a new one when it is first seen; -1 when all
 * are taken. */
static int link_of(struct nettlp *nt, const struct net_packet *np)
{
	for (unsigned i = 0; i < nt->links; i++) {
		const struct nettlp_link *l = &nt->link[i];
		if ((addr_eq(&l->a, &np->src) && addr_eq(&l->b, &np->dst)) ||
		    (addr_eq(&l->a, &np->dst) && addr_eq(&l->b, &np->src)))
			return (int)i;
	}
	if (nt->links == NETTLP_MAX_LINKS)
		return -1;
	struct nettlp_link *l = &nt->link[nt->links];
	memset(l, 0, sizeof(*l));
	l->a = np->src;
	l->b = np->dst;
	return (int)nt->links++;
}

/* Whether the TLP is a completion, past its prefixes: 1 yes, 0 a request
 * or message, -1 no header byte to tell. */
static int tlp_is_completion(const uint8_t *tlp, uint32_t len)
{
	uint32_t at = 0;
	while (at < len && (tlp[at] >> 5) == TLP_FMT_PREFIX)
		at += 4;
	if (at >= len)
		return -1;
	unsigned type = tlp[at] & 0x1Fu;
	return type == TLP_TYPE_CPL || type == TLP_TYPE_CPL_LK;
}

static void position(const struct nettlp *nt, const struct link_packet *pkt, uint32_t offset,
                     struct srcpos *pos)
{
	memset(pos, 0, sizeof(*pos));
	pos->file = nt->name;
	pos->byte_offset = pkt->byte_offset + offset;
	pos->source_packet = pkt->packet_no;
	pos->has_source_packet = true;
}

enum reader_result nettlp_datagram(struct nettlp *nt, const struct net_packet *np,
                                   const struct link_packet *pkt, struct record *rec,
                                   struct reader_malformed *bad)
{
	/* the two ports are the same in libtlp; when they are not, the
	 * destination's range is taken */
	uint16_t port = np->dst_port;
	bool libtlp_range = port <= NETTLP_PORT_LIBTLP_LAST;

	reader_malformed_unknown(bad);
	position(nt, pkt, np->payload_offset, &bad->pos);
	bad->kind = REC_TLP;
	if (np->wire_len <= NETTLP_HDR_LEN) {
		snprintf(bad->reason, sizeof(bad->reason),
		         "nettlp: a UDP datagram of %u bytes to port 0x%04x: %s", np->wire_len,
		         port,
		         np->wire_len < NETTLP_HDR_LEN ? "shorter than the 6-byte NetTLP header"
		                                       : "a NetTLP header and no TLP");
		return READER_MALFORMED;
	}
	if (np->payload_len < NETTLP_HDR_LEN) {
		snprintf(bad->reason, sizeof(bad->reason),
		         "nettlp: the NetTLP header cut by the capture (%u of 6 bytes captured)",
		         np->payload_len);
		return READER_MALFORMED;
	}
	int li = link_of(nt, np);
	if (li < 0) {
		char s[48], d[48];
		addr_text(&np->src, s, sizeof(s));
		addr_text(&np->dst, d, sizeof(d));
		snprintf(bad->reason, sizeof(bad->reason),
		         "nettlp: a datagram between %s and %s, a pair beyond the first %u (one "
		         "link each): skipped",
		         s, d, NETTLP_MAX_LINKS);
		return READER_MALFORMED;
	}
	struct nettlp_link *l = &nt->link[li];
	const uint8_t *tlp = np->payload + NETTLP_HDR_LEN;
	uint32_t tlp_len = np->payload_len - NETTLP_HDR_LEN;
	bad->has_link = true;
	bad->link = (uint8_t)li;
	if (!l->adapter_known) {
		int cpl = tlp_is_completion(tlp, tlp_len);
		if (cpl < 0) {
			snprintf(bad->reason, sizeof(bad->reason),
			         "nettlp: a TLP of %u bytes without a header byte (prefixes only), "
			         "the first of its address pair: its direction is unknown",
			         tlp_len);
			return READER_MALFORMED;
		}
		/* a request from the range of its issuer was sent by it */
		bool from_adapter = libtlp_range ? cpl == 1 : cpl == 0;
		l->adapter = from_adapter ? np->src : np->dst;
		l->adapter_known = true;
	}
	enum link_dir dir = addr_eq(&np->src, &l->adapter) ? nt->opts.adapter_dir
	                                                   : (enum link_dir) !nt->opts.adapter_dir;

	memset(rec, 0, sizeof(*rec));
	rec->time_ps = pkt->time_ps;
	rec->time_base_s = pkt->time_base_s;
	rec->kind = REC_TLP;
	rec->dir = dir;
	rec->link = (uint8_t)li;
	rec->flags = REC_F_NO_SEQ | REC_F_NO_CRC;
	rec->bytes = tlp;
	rec->len = tlp_len;
	rec->wire_len = np->wire_len - NETTLP_HDR_LEN;
	position(nt, pkt, np->payload_offset + NETTLP_HDR_LEN, &rec->pos);
	return READER_RECORD;
}
