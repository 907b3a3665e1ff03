/* net_build.h: hand-built network packets for the read/net suites: a
 * transport header and payload wrapped in IPv4 or IPv6, then in a link
 * layer, each field written where its RFC puts it. */
#ifndef DLLPCHECK_TESTS_NET_BUILD_H
#define DLLPCHECK_TESTS_NET_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define NB_MAX 2048u

struct nb {
	uint8_t b[NB_MAX];
	uint32_t len;
};

static inline void nb_put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void nb_put32(uint8_t *p, uint32_t v)
{
	nb_put16(p, v >> 16);
	nb_put16(p + 2, v & 0xFFFFu);
}

/* Puts n bytes in front of what is built. */
static inline uint8_t *nb_prepend(struct nb *n, uint32_t k)
{
	memmove(n->b + k, n->b, n->len);
	n->len += k;
	memset(n->b, 0, k);
	return n->b;
}

static inline void nb_payload(struct nb *n, const uint8_t *data, uint32_t len)
{
	memcpy(n->b, data, len);
	n->len = len;
}

/* UDP header (RFC 768), checksum 0 (none) */
static inline void nb_udp(struct nb *n, unsigned sport, unsigned dport)
{
	uint8_t *h = nb_prepend(n, 8);
	nb_put16(h, sport);
	nb_put16(h + 2, dport);
	nb_put16(h + 4, n->len);
}

/* TCP header (RFC 9293 3.1) with opt_words 32-bit option words (NOPs) */
static inline void nb_tcp(struct nb *n, unsigned sport, unsigned dport, uint32_t seq, uint32_t ack,
                          uint8_t flags, unsigned opt_words)
{
	uint32_t hl = 20 + 4 * opt_words;
	uint8_t *h = nb_prepend(n, hl);
	nb_put16(h, sport);
	nb_put16(h + 2, dport);
	nb_put32(h + 4, seq);
	nb_put32(h + 8, ack);
	h[12] = (uint8_t)((hl / 4) << 4);
	h[13] = flags;
	nb_put16(h + 14, 65535);
	memset(h + 20, 1, 4 * opt_words); /* NOP */
}

static inline void nb_ipv4_checksum(uint8_t *h, uint32_t ihl)
{
	uint32_t sum = 0;
	h[10] = h[11] = 0;
	for (uint32_t i = 0; i < ihl; i += 2)
		sum += (uint32_t)h[i] << 8 | h[i + 1];
	while (sum >> 16)
		sum = (sum & 0xFFFFu) + (sum >> 16);
	nb_put16(h + 10, ~sum & 0xFFFFu);
}

/* IPv4 header (RFC 791) of 20 + 4 * opt_words bytes, 10.0.0.src ->
 * 10.0.0.dst, the checksum right */
static inline void nb_ipv4(struct nb *n, uint8_t proto, uint8_t src, uint8_t dst,
                           unsigned opt_words, unsigned frag_field)
{
	uint32_t ihl = 20 + 4 * opt_words;
	uint8_t *h = nb_prepend(n, ihl);
	h[0] = (uint8_t)(0x40 | (ihl / 4));
	nb_put16(h + 2, n->len);
	nb_put16(h + 4, 0x1234);
	nb_put16(h + 6, frag_field);
	h[8] = 64;
	h[9] = proto;
	h[12] = 10, h[15] = src;
	h[16] = 10, h[19] = dst;
	nb_ipv4_checksum(h, ihl);
}

/* An IPv6 extension header of 8 bytes (hop-by-hop, routing, destination
 * options: length field 0) that says next comes next */
static inline void nb_ipv6_ext(struct nb *n, uint8_t next)
{
	uint8_t *h = nb_prepend(n, 8);
	h[0] = next;
	h[1] = 0;
}

/* IPv6 fragment header (RFC 8200 4.5) */
static inline void nb_ipv6_frag(struct nb *n, uint8_t next, unsigned offset_bytes, bool more)
{
	uint8_t *h = nb_prepend(n, 8);
	h[0] = next;
	nb_put16(h + 2, (offset_bytes & 0xFFF8u) | (more ? 1u : 0u));
	nb_put32(h + 4, 0xCAFE);
}

/* IPv6 header (RFC 8200 3): fd00::src -> fd00::dst */
static inline void nb_ipv6(struct nb *n, uint8_t next, uint8_t src, uint8_t dst)
{
	uint8_t *h = nb_prepend(n, 40);
	h[0] = 0x60;
	nb_put16(h + 4, n->len - 40);
	h[6] = next;
	h[7] = 64;
	h[8] = 0xFD, h[23] = src;
	h[24] = 0xFD, h[39] = dst;
}

/* Ethernet II with vlan_tags tags: on the wire dst src [TPID TCI]... type,
 * the outer tag 802.1ad (0x88A8) and the inner 802.1Q (0x8100) */
static inline void nb_ether(struct nb *n, unsigned type, unsigned vlan_tags)
{
	nb_put16(nb_prepend(n, 2), type);
	for (unsigned i = 0; i < vlan_tags; i++) {
		uint8_t *h = nb_prepend(n, 4);
		nb_put16(h, i == 0 ? 0x8100 : 0x88A8);
		nb_put16(h + 2, 100 + i); /* TCI: VLAN 100 + i */
	}
	uint8_t *h = nb_prepend(n, 12);
	memset(h, 0x02, 6);
	memset(h + 6, 0x04, 6);
}

/* BSD loopback: the family in little-endian (NULL as written on x86) or
 * big-endian */
static inline void nb_loop(struct nb *n, uint32_t af, bool big_endian)
{
	uint8_t *h = nb_prepend(n, 4);
	if (big_endian) {
		nb_put32(h, af);
	} else {
		h[0] = (uint8_t)af, h[1] = (uint8_t)(af >> 8);
		h[2] = (uint8_t)(af >> 16), h[3] = (uint8_t)(af >> 24);
	}
}

/* Linux cooked v1 (16 bytes) and v2 (20 bytes) */
static inline void nb_sll(struct nb *n, unsigned proto)
{
	uint8_t *h = nb_prepend(n, 16);
	nb_put16(h, 4); /* sent by us */
	nb_put16(h + 2, 772); /* ARPHRD_LOOPBACK */
	nb_put16(h + 4, 6);
	nb_put16(h + 14, proto);
}

static inline void nb_sll2(struct nb *n, unsigned proto)
{
	uint8_t *h = nb_prepend(n, 20);
	nb_put16(h, proto);
	nb_put32(h + 4, 1); /* ifindex */
	nb_put16(h + 8, 772);
	h[10] = 4;
	h[11] = 6;
}

#endif
