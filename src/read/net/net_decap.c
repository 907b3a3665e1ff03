/* net_decap.c: the network layers of a captured packet undone, every
 * length checked before it is used (net_packet.h).
 *
 * Link layers (the LINKTYPE_* registry, tcpdump.org/linktypes.html):
 *
 *   ETHERNET (1)     dst(6) src(6) type(2), type 0x8100 / 0x88a8 / 0x9100
 *                    a VLAN tag: TCI(2) type(2), at most two (802.1Q, 802.1ad)
 *   NULL (0)         family(4) in the byte order of the capturing host
 *   LOOP (108)       family(4) in network byte order
 *                    AF_INET 2; AF_INET6 24 (NetBSD, OpenBSD), 28 (FreeBSD),
 *                    30 (Darwin): the values differ by system, so all are taken
 *   RAW (101; 12, 14 as some systems wrote DLT_RAW), IPV4 (228), IPV6 (229)
 *                    the IP header at once, its version nibble says which
 *   LINUX_SLL (113)  pkttype(2) hatype(2) halen(2) addr(8) protocol(2)
 *   LINUX_SLL2 (276) protocol(2) reserved(2) ifindex(4) hatype(2) pkttype(1)
 *                    halen(1) addr(8)
 *
 * Network layer:
 *
 *   IPv4 (RFC 791)   IHL >= 5, the header whole, total length >= IHL * 4,
 *                    the header checksum verified (RFC 1071: it is computed in
 *                    software even where the transport's is offloaded, so a
 *                    bad one is damage, not the capturing host's shortcut);
 *                    MF or a fragment offset: NET_FRAGMENT
 *   IPv6 (RFC 8200)  40 bytes, then hop-by-hop (0), routing (43), destination
 *                    options (60) and authentication (51, RFC 4302) headers
 *                    skipped by their own lengths; a fragment header (44)
 *                    other than an atomic one (offset 0, M 0, RFC 6946):
 *                    NET_FRAGMENT
 *
 * Transport: TCP (RFC 9293 section 3.1: data offset >= 5, options inside
 * the segment) and UDP (RFC 768: length >= 8, inside the IP payload).  The
 * TCP and UDP checksums are not verified: a capture on the sending host
 * holds them before the NIC fills them in (checksum offload).
 *
 * Bytes after the IP datagram (Ethernet padding of short frames) are not
 * part of it.  A datagram longer than what was captured (the snapshot
 * length cut it) is parsed with payload_len < wire_len; a header cut by
 * the capture is NET_DAMAGED, as the layer above cannot be read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/attrs.h"
#include "read/net/net_packet.h"

/* LINKTYPE_* values (tcpdump.org/linktypes.html) */
enum {
	LT_NULL = 0,
	LT_ETHERNET = 1,
	LT_RAW_12 = 12, /* DLT_RAW on most BSDs */
	LT_RAW_14 = 14, /* DLT_RAW on OpenBSD */
	LT_RAW = 101,
	LT_LOOP = 108,
	LT_LINUX_SLL = 113,
	LT_IPV4 = 228,
	LT_IPV6 = 229,
	LT_LINUX_SLL2 = 276,
};

#define ETH_HDR_LEN 14u
#define VLAN_TAG_LEN 4u
#define VLAN_MAX_TAGS 2u
#define SLL_HDR_LEN 16u
#define SLL2_HDR_LEN 20u
#define LOOP_HDR_LEN 4u
#define IPV4_MIN_HDR 20u
#define IPV6_HDR_LEN 40u
#define IPV6_FRAG_LEN 8u
#define TCP_MIN_HDR 20u
#define UDP_HDR_LEN 8u

#define ETHERTYPE_IPV4 0x0800u
#define ETHERTYPE_IPV6 0x86DDu
#define ETHERTYPE_VLAN 0x8100u
#define ETHERTYPE_QINQ 0x88A8u
#define ETHERTYPE_QINQ_OLD 0x9100u
#define ETHERTYPE_MIN 0x0600u /* below: an 802.3 length field */

#define IPPROTO_HOPOPTS_ 0u
#define IPPROTO_TCP_ 6u
#define IPPROTO_UDP_ 17u
#define IPPROTO_ROUTING_ 43u
#define IPPROTO_FRAGMENT_ 44u
#define IPPROTO_AH_ 51u
#define IPPROTO_DSTOPTS_ 60u

enum l3 { L3_IPV4, L3_IPV6 };

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

PRINTF_LIKE(4, 5)
static enum net_parse_result say(enum net_parse_result res, char *why, size_t why_len,
                                 const char *fmt, ...)
{
	if (why != NULL && why_len > 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, why_len, fmt, ap);
		va_end(ap);
	}
	return res;
}

bool net_linktype_known(uint32_t linktype)
{
	switch (linktype) {
	case LT_NULL:
	case LT_ETHERNET:
	case LT_RAW_12:
	case LT_RAW_14:
	case LT_RAW:
	case LT_LOOP:
	case LT_LINUX_SLL:
	case LT_IPV4:
	case LT_IPV6:
	case LT_LINUX_SLL2:
		return true;
	default:
		return false;
	}
}

/* A link layer's protocol field: an ethertype, VLAN tags followed.  *off
 * is the first byte after the link header, where a tag's TCI and the
 * next type are (in Ethernet the tag's TPID is the type field; Linux
 * cooked captures put the tag after their header likewise). */
static enum net_parse_result ethertype(const char *layer, const uint8_t *d, uint32_t caplen,
                                       uint16_t type, uint32_t *off, enum l3 *l3, char *why,
                                       size_t why_len)
{
	unsigned tags = 0;

	while (type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ || type == ETHERTYPE_QINQ_OLD) {
		if (tags == VLAN_MAX_TAGS)
			return say(
			        NET_NOT_IP, why, why_len,
			        "%s: a frame with more than %u VLAN tags (the next at offset %u)",
			        layer, VLAN_MAX_TAGS, *off);
		if (caplen - *off < VLAN_TAG_LEN)
			return say(NET_DAMAGED, why, why_len,
			           "%s: VLAN tag cut at offset %u: %u bytes of %u", layer, *off,
			           caplen - *off, VLAN_TAG_LEN);
		type = be16(d + *off + 2);
		*off += VLAN_TAG_LEN;
		tags++;
	}
	if (type == ETHERTYPE_IPV4) {
		*l3 = L3_IPV4;
		return NET_PARSED;
	}
	if (type == ETHERTYPE_IPV6) {
		*l3 = L3_IPV6;
		return NET_PARSED;
	}
	if (type < ETHERTYPE_MIN)
		return say(NET_NOT_IP, why, why_len, "%s: an 802.3 frame (length field %u)", layer,
		           type);
	return say(NET_NOT_IP, why, why_len, "%s: ethertype 0x%04x", layer, type);
}

/* The BSD loopback's address family: AF_INET is 2 everywhere, AF_INET6
 * is 24, 28 or 30 depending on the system that wrote the capture. */
static bool af_l3(uint32_t af, enum l3 *l3)
{
	if (af == 2) {
		*l3 = L3_IPV4;
		return true;
	}
	if (af == 24 || af == 28 || af == 30) {
		*l3 = L3_IPV6;
		return true;
	}
	return false;
}

/* The raw IP link types: the version nibble says which. */
static enum net_parse_result raw_ip(const char *layer, const uint8_t *d, uint32_t caplen, int want,
                                    enum l3 *l3, char *why, size_t why_len)
{
	if (caplen < 1)
		return say(NET_DAMAGED, why, why_len, "%s: empty packet (at offset 0)", layer);
	unsigned v = d[0] >> 4;
	if ((v == 4 && want != 6) || (v == 6 && want != 4)) {
		*l3 = v == 4 ? L3_IPV4 : L3_IPV6;
		return NET_PARSED;
	}
	return say(NET_DAMAGED, why, why_len, "%s: IP version %u at offset 0", layer, v);
}

/* The link layer: *off and *l3 say where and which IP header follows. */
static enum net_parse_result link_layer(uint32_t lt, const uint8_t *d, uint32_t caplen,
                                        uint32_t *off, enum l3 *l3, char *why, size_t why_len)
{
	uint32_t af;

	*off = 0;
	switch (lt) {
	case LT_ETHERNET:
		if (caplen < ETH_HDR_LEN)
			return say(NET_DAMAGED, why, why_len,
			           "ethernet: header cut at offset 0: %u bytes of %u", caplen,
			           ETH_HDR_LEN);
		*off = ETH_HDR_LEN;
		return ethertype("ethernet", d, caplen, be16(d + 12), off, l3, why, why_len);
	case LT_LINUX_SLL:
		if (caplen < SLL_HDR_LEN)
			return say(NET_DAMAGED, why, why_len,
			           "linux-sll: header cut at offset 0: %u bytes of %u", caplen,
			           SLL_HDR_LEN);
		*off = SLL_HDR_LEN;
		return ethertype("linux-sll", d, caplen, be16(d + 14), off, l3, why, why_len);
	case LT_LINUX_SLL2:
		if (caplen < SLL2_HDR_LEN)
			return say(NET_DAMAGED, why, why_len,
			           "linux-sll2: header cut at offset 0: %u bytes of %u", caplen,
			           SLL2_HDR_LEN);
		*off = SLL2_HDR_LEN;
		return ethertype("linux-sll2", d, caplen, be16(d), off, l3, why, why_len);
	case LT_NULL:
	case LT_LOOP:
		if (caplen < LOOP_HDR_LEN)
			return say(NET_DAMAGED, why, why_len,
			           "%s: header cut at offset 0: %u bytes of %u",
			           lt == LT_NULL ? "null" : "loop", caplen, LOOP_HDR_LEN);
		*off = LOOP_HDR_LEN;
		af = be32(d);
		if (af_l3(af, l3) || (lt == LT_NULL && af_l3(af = le32(d), l3)))
			return NET_PARSED;
		return say(NET_NOT_IP, why, why_len, "%s: address family %u",
		           lt == LT_NULL ? "null" : "loop", le32(d));
	case LT_RAW:
	case LT_RAW_12:
	case LT_RAW_14:
		return raw_ip("raw", d, caplen, 0, l3, why, why_len);
	case LT_IPV4:
		return raw_ip("ipv4", d, caplen, 4, l3, why, why_len);
	case LT_IPV6:
		return raw_ip("ipv6", d, caplen, 6, l3, why, why_len);
	default:
		return say(NET_DAMAGED, why, why_len, "link type %u is not a network link type",
		           lt);
	}
}

/* The ones' complement sum of the IPv4 header (RFC 1071): 0xFFFF when the
 * checksum field agrees with the rest. */
static uint16_t ipv4_sum(const uint8_t *h, uint32_t len)
{
	uint32_t sum = 0;
	for (uint32_t i = 0; i + 1 < len; i += 2)
		sum += be16(h + i);
	while (sum >> 16)
		sum = (sum & 0xFFFFu) + (sum >> 16);
	return (uint16_t)sum;
}

/* What the IP layer found, for the transport. */
struct ip_span {
	uint32_t pos; /* the transport header */
	uint32_t wire_end; /* the datagram's end by its own length */
	uint32_t cap_end; /* the captured part's end: <= wire_end */
	uint8_t proto;
	bool fragment; /* not a whole datagram */
	bool first; /* a fragment of offset 0 */
	char frag_why[120];
};

static enum net_parse_result ipv4(const uint8_t *d, uint32_t caplen, uint32_t off,
                                  struct net_packet *np, struct ip_span *s, char *why,
                                  size_t why_len)
{
	const uint8_t *h = d + off;
	uint32_t avail = caplen - off;

	if (avail < IPV4_MIN_HDR)
		return say(NET_DAMAGED, why, why_len,
		           "ipv4: header cut at offset %u: %u bytes of %u", off, avail,
		           IPV4_MIN_HDR);
	if (h[0] >> 4 != 4)
		return say(NET_DAMAGED, why, why_len, "ipv4: version %u at offset %u", h[0] >> 4,
		           off);
	uint32_t ihl = (h[0] & 0x0Fu) * 4u;
	if (ihl < IPV4_MIN_HDR)
		return say(NET_DAMAGED, why, why_len,
		           "ipv4: header length %u (IHL %u) below 20 at offset %u", ihl, ihl / 4,
		           off);
	if (ihl > avail)
		return say(NET_DAMAGED, why, why_len,
		           "ipv4: header cut at offset %u: %u bytes of its %u", off, avail, ihl);
	uint32_t total = be16(h + 2);
	if (total < ihl)
		return say(NET_DAMAGED, why, why_len,
		           "ipv4: total length %u below its header's %u at offset %u", total, ihl,
		           off + 2);
	if (ipv4_sum(h, ihl) != 0xFFFFu) {
		uint8_t copy[60];
		memcpy(copy, h, ihl);
		copy[10] = copy[11] = 0;
		return say(
		        NET_DAMAGED, why, why_len,
		        "ipv4: header checksum 0x%04x is wrong (the header's bytes give 0x%04x) at "
		        "offset %u",
		        be16(h + 10), (uint16_t)~ipv4_sum(copy, ihl), off + 10);
	}
	np->src.family = np->dst.family = 4;
	memcpy(np->src.bytes, h + 12, 4);
	memcpy(np->dst.bytes, h + 16, 4);
	s->pos = off + ihl;
	s->wire_end = off + total;
	s->cap_end = caplen < s->wire_end ? caplen : s->wire_end;
	s->proto = h[9];
	uint16_t ff = be16(h + 6);
	uint32_t frag_off = (ff & 0x1FFFu) * 8u;
	if ((ff & 0x2000u) || frag_off) {
		s->fragment = true;
		s->first = frag_off == 0;
		snprintf(s->frag_why, sizeof(s->frag_why),
		         "ipv4: a fragment (id 0x%04x, fragment offset %u%s) at offset %u: not "
		         "reassembled",
		         be16(h + 4), frag_off, (ff & 0x2000u) ? ", more follow" : ", the last",
		         off + 6);
	}
	return NET_PARSED;
}

static enum net_parse_result ipv6(const uint8_t *d, uint32_t caplen, uint32_t off,
                                  struct net_packet *np, struct ip_span *s, char *why,
                                  size_t why_len)
{
	const uint8_t *h = d + off;
	uint32_t avail = caplen - off;

	if (avail < IPV6_HDR_LEN)
		return say(NET_DAMAGED, why, why_len,
		           "ipv6: header cut at offset %u: %u bytes of %u", off, avail,
		           IPV6_HDR_LEN);
	if (h[0] >> 4 != 6)
		return say(NET_DAMAGED, why, why_len, "ipv6: version %u at offset %u", h[0] >> 4,
		           off);
	np->src.family = np->dst.family = 6;
	memcpy(np->src.bytes, h + 8, 16);
	memcpy(np->dst.bytes, h + 24, 16);
	s->wire_end = off + IPV6_HDR_LEN + be16(h + 4);
	s->cap_end = caplen < s->wire_end ? caplen : s->wire_end;
	uint32_t pos = off + IPV6_HDR_LEN;
	uint8_t nh = h[6];
	/* each header moves pos by 8 bytes at least: the loop ends */
	for (;;) {
		uint32_t hlen;
		const char *name;
		switch (nh) {
		case IPPROTO_HOPOPTS_:
			name = "hop-by-hop options";
			break;
		case IPPROTO_ROUTING_:
			name = "routing";
			break;
		case IPPROTO_DSTOPTS_:
			name = "destination options";
			break;
		case IPPROTO_AH_:
			name = "authentication";
			break;
		case IPPROTO_FRAGMENT_:
			name = "fragment";
			break;
		default:
			s->pos = pos;
			s->proto = nh;
			return NET_PARSED;
		}
		if (s->wire_end - pos < 2 || s->cap_end - pos < 2) {
			bool cut = s->cap_end - pos < 2 && s->wire_end - pos >= 2;
			return say(NET_DAMAGED, why, why_len,
			           "ipv6: %s header %s at offset %u (payload length %u)", name,
			           cut ? "cut by the capture" : "past the payload length", pos,
			           be16(h + 4));
		}
		if (nh == IPPROTO_FRAGMENT_)
			hlen = IPV6_FRAG_LEN;
		else if (nh == IPPROTO_AH_)
			hlen = (d[pos + 1] + 2u) * 4u;
		else
			hlen = (d[pos + 1] + 1u) * 8u;
		if (hlen > s->wire_end - pos)
			return say(NET_DAMAGED, why, why_len,
			           "ipv6: %s header of %u bytes at offset %u runs past the payload "
			           "length %u",
			           name, hlen, pos, be16(h + 4));
		if (hlen > s->cap_end - pos)
			return say(NET_DAMAGED, why, why_len,
			           "ipv6: %s header cut at offset %u: %u bytes of %u", name, pos,
			           s->cap_end - pos, hlen);
		if (nh == IPPROTO_FRAGMENT_) {
			uint16_t fo = be16(d + pos + 2);
			uint32_t frag_off = fo & 0xFFF8u;
			/* offset 0 and M 0: an atomic fragment, a whole datagram */
			if (frag_off || (fo & 1u)) {
				s->fragment = true;
				s->first = frag_off == 0;
				snprintf(s->frag_why, sizeof(s->frag_why),
				         "ipv6: a fragment (id 0x%08x, fragment offset %u%s) at "
				         "offset %u: not reassembled",
				         be32(d + pos + 4), frag_off,
				         (fo & 1u) ? ", more follow" : ", the last", pos);
				if (frag_off) {
					s->pos = pos + hlen;
					s->proto = d[pos];
					return NET_PARSED;
				}
			}
		}
		nh = d[pos];
		pos += hlen;
	}
}

/* The transport of a fragment of offset 0: the ports when its header is
 * whole in it; no length is checked against the fragment. */
static void fragment_transport(const uint8_t *d, const struct ip_span *s, struct net_packet *np)
{
	uint32_t room = s->cap_end - s->pos;
	uint32_t hdr;

	if (s->proto == IPPROTO_TCP_) {
		if (room < TCP_MIN_HDR)
			return;
		hdr = (d[s->pos + 12] >> 4) * 4u;
		if (hdr < TCP_MIN_HDR || hdr > room)
			return;
		np->transport = NET_TCP;
		np->seq = be32(d + s->pos + 4);
		np->ack = be32(d + s->pos + 8);
		np->tcp_flags = d[s->pos + 13];
	} else if (s->proto == IPPROTO_UDP_) {
		if (room < UDP_HDR_LEN)
			return;
		hdr = UDP_HDR_LEN;
		np->transport = NET_UDP;
	} else {
		return;
	}
	np->src_port = be16(d + s->pos);
	np->dst_port = be16(d + s->pos + 2);
	np->payload_offset = s->pos + hdr;
	np->payload = d + np->payload_offset;
	np->payload_len = np->wire_len = s->cap_end - np->payload_offset;
}

/* A header of hdr bytes at s->pos: within the datagram and captured. */
static enum net_parse_result need(const char *layer, const struct ip_span *s, uint32_t hdr,
                                  char *why, size_t why_len)
{
	if (hdr > s->wire_end - s->pos)
		return say(
		        NET_DAMAGED, why, why_len,
		        "%s: header of %u bytes at offset %u runs past the IP datagram (%u bytes "
		        "left)",
		        layer, hdr, s->pos, s->wire_end - s->pos);
	if (hdr > s->cap_end - s->pos)
		return say(NET_DAMAGED, why, why_len, "%s: header cut at offset %u: %u bytes of %u",
		           layer, s->pos, s->cap_end - s->pos, hdr);
	return NET_PARSED;
}

static enum net_parse_result transport(const uint8_t *d, const struct ip_span *s,
                                       struct net_packet *np, char *why, size_t why_len)
{
	enum net_parse_result r;
	uint32_t hdr, end;

	if (s->proto == IPPROTO_TCP_) {
		if ((r = need("tcp", s, TCP_MIN_HDR, why, why_len)) != NET_PARSED)
			return r;
		hdr = (d[s->pos + 12] >> 4) * 4u;
		if (hdr < TCP_MIN_HDR)
			return say(NET_DAMAGED, why, why_len,
			           "tcp: data offset %u (%u bytes) below 5 at offset %u", hdr / 4,
			           hdr, s->pos + 12);
		if ((r = need("tcp", s, hdr, why, why_len)) != NET_PARSED)
			return r;
		np->transport = NET_TCP;
		np->seq = be32(d + s->pos + 4);
		np->ack = be32(d + s->pos + 8);
		np->tcp_flags = d[s->pos + 13];
		end = s->wire_end;
	} else if (s->proto == IPPROTO_UDP_) {
		if ((r = need("udp", s, UDP_HDR_LEN, why, why_len)) != NET_PARSED)
			return r;
		uint32_t ulen = be16(d + s->pos + 4);
		if (ulen < UDP_HDR_LEN)
			return say(NET_DAMAGED, why, why_len, "udp: length %u below 8 at offset %u",
			           ulen, s->pos + 4);
		if (ulen > s->wire_end - s->pos)
			return say(
			        NET_DAMAGED, why, why_len,
			        "udp: length %u at offset %u runs past the IP datagram (%u bytes "
			        "left)",
			        ulen, s->pos + 4, s->wire_end - s->pos);
		hdr = UDP_HDR_LEN;
		np->transport = NET_UDP;
		end = s->pos + ulen;
	} else {
		/* ICMP and the rest: no ports, the payload is what follows */
		np->transport = NET_OTHER;
		np->payload_offset = s->pos;
		np->payload = d + s->pos;
		np->wire_len = s->wire_end - s->pos;
		np->payload_len = s->cap_end - s->pos;
		return NET_PARSED;
	}
	np->src_port = be16(d + s->pos);
	np->dst_port = be16(d + s->pos + 2);
	np->payload_offset = s->pos + hdr;
	np->payload = d + np->payload_offset;
	np->wire_len = end - np->payload_offset;
	np->payload_len = s->cap_end >= end ? np->wire_len : s->cap_end - np->payload_offset;
	return NET_PARSED;
}

enum net_parse_result net_packet_parse(uint32_t linktype, const uint8_t *data, uint32_t caplen,
                                       struct net_packet *np, char *why, size_t why_len)
{
	struct ip_span s;
	uint32_t off;
	enum l3 l3;
	enum net_parse_result r;

	memset(np, 0, sizeof(*np));
	memset(&s, 0, sizeof(s));
	if (why != NULL && why_len > 0)
		why[0] = '\0';
	if (data == NULL)
		caplen = 0;
	r = link_layer(linktype, data, caplen, &off, &l3, why, why_len);
	if (r != NET_PARSED)
		return r;
	if (l3 == L3_IPV4)
		r = ipv4(data, caplen, off, np, &s, why, why_len);
	else
		r = ipv6(data, caplen, off, np, &s, why, why_len);
	if (r != NET_PARSED)
		return r;
	np->protocol = s.proto;
	if (s.fragment) {
		if (s.first)
			fragment_transport(data, &s, np);
		if (np->transport == NET_OTHER) {
			np->payload_offset = s.pos;
			np->payload = data + s.pos;
			np->payload_len = np->wire_len = s.cap_end - s.pos;
		}
		return say(NET_FRAGMENT, why, why_len, "%s", s.frag_why);
	}
	return transport(data, &s, np, why, why_len);
}
