/* check_net_decap.c: net_packet_parse (read/net/net_decap.c) on
 * hand-built packets of every link type it reads, and on hostile ones:
 * every header cut at every length, lengths that lie, a bad IPv4
 * checksum, fragments, extension headers, random bytes. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "net_build.h"
#include "read/net/net_packet.h"
#include "suites.h"
#include "xorshift.h"

static const uint8_t tlp_bytes[16] = { 0, 0, 0, 0, 0x40, 0, 0, 1, 0, 0, 0, 0x0F, 0, 0, 0x10, 0 };

/* A UDP datagram to NetTLP's port over IPv4 (or IPv6). */
static void udp4(struct nb *n)
{
	nb_payload(n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(n, 0x3001, 0x3001);
	nb_ipv4(n, 17, 1, 2, 0, 0);
}

static void udp6(struct nb *n)
{
	nb_payload(n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(n, 0x4002, 0x4002);
	nb_ipv6(n, 17, 1, 2);
}

static void expect_udp(uint32_t lt, const struct nb *n, uint32_t payload_at, int family)
{
	struct net_packet np;
	char why[200];
	enum net_parse_result r = net_packet_parse(lt, n->b, n->len, &np, why, sizeof(why));
	ck_assert_msg(r == NET_PARSED, "link type %u: %d (%s)", lt, r, why);
	ck_assert_int_eq(np.transport, NET_UDP);
	ck_assert_int_eq(np.src.family, family);
	ck_assert_uint_eq(np.payload_offset, payload_at);
	ck_assert_uint_eq(np.payload_len, sizeof(tlp_bytes));
	ck_assert_uint_eq(np.wire_len, sizeof(tlp_bytes));
	ck_assert_ptr_eq(np.payload, n->b + payload_at);
	ck_assert_int_eq(memcmp(np.payload, tlp_bytes, sizeof(tlp_bytes)), 0);
}

static enum net_parse_result parse(uint32_t lt, const struct nb *n, struct net_packet *np,
                                   char *why, size_t len)
{
	return net_packet_parse(lt, n->b, n->len, np, why, len);
}

START_TEST(test_link_types)
{
	struct nb n;
	/* Ethernet, without a tag, with an 802.1Q tag, with QinQ */
	for (unsigned tags = 0; tags <= 2; tags++) {
		udp4(&n);
		nb_ether(&n, 0x0800, tags);
		expect_udp(1, &n, 14 + 4 * tags + 20 + 8, 4);
		udp6(&n);
		nb_ether(&n, 0x86DD, tags);
		expect_udp(1, &n, 14 + 4 * tags + 40 + 8, 6);
	}
	/* NULL: the family in either byte order; LOOP: network order */
	static const uint32_t v6_af[] = { 24, 28, 30 };
	for (int be = 0; be <= 1; be++) {
		udp4(&n);
		nb_loop(&n, 2, be);
		expect_udp(0, &n, 4 + 28, 4);
		for (unsigned i = 0; i < 3; i++) {
			udp6(&n);
			nb_loop(&n, v6_af[i], be);
			expect_udp(0, &n, 4 + 48, 6);
		}
	}
	udp4(&n);
	nb_loop(&n, 2, true);
	expect_udp(108, &n, 32, 4);
	udp6(&n);
	nb_loop(&n, 30, true);
	expect_udp(108, &n, 52, 6);
	/* raw IP under each of its numbers, and IPV4 / IPV6 */
	static const uint32_t raw[] = { 101, 12, 14 };
	for (unsigned i = 0; i < 3; i++) {
		udp4(&n);
		expect_udp(raw[i], &n, 28, 4);
		udp6(&n);
		expect_udp(raw[i], &n, 48, 6);
	}
	udp4(&n);
	expect_udp(228, &n, 28, 4);
	udp6(&n);
	expect_udp(229, &n, 48, 6);
	/* Linux cooked v1 and v2 */
	udp4(&n);
	nb_sll(&n, 0x0800);
	expect_udp(113, &n, 16 + 28, 4);
	udp6(&n);
	nb_sll2(&n, 0x86DD);
	expect_udp(276, &n, 20 + 48, 6);
	/* a VLAN tag after the cooked header */
	udp4(&n);
	nb_put16(nb_prepend(&n, 2), 0x0800);
	nb_put16(nb_prepend(&n, 2), 7);
	nb_sll2(&n, 0x8100);
	expect_udp(276, &n, 24 + 28, 4);
}
END_TEST

START_TEST(test_raw_version_mismatch)
{
	struct nb n;
	struct net_packet np;
	char why[200];
	udp6(&n);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "version 6"));
	udp4(&n);
	ck_assert_int_eq(parse(229, &n, &np, why, sizeof(why)), NET_DAMAGED);
	n.b[0] = 0x50;
	ck_assert_int_eq(parse(101, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "raw: IP version 5 at offset 0"));
	ck_assert_int_eq(net_packet_parse(101, NULL, 0, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_int_eq(parse(147, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert(!net_linktype_known(147));
	ck_assert(net_linktype_known(276) && net_linktype_known(0) && net_linktype_known(14));
}
END_TEST

START_TEST(test_not_ip)
{
	struct nb n;
	struct net_packet np;
	char why[200];
	/* ARP */
	udp4(&n);
	nb_ether(&n, 0x0806, 0);
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_NOT_IP);
	ck_assert_str_eq(why, "ethernet: ethertype 0x0806");
	/* 802.3 with a length field */
	udp4(&n);
	nb_ether(&n, 46, 0);
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_NOT_IP);
	ck_assert_ptr_nonnull(strstr(why, "802.3"));
	/* three tags */
	udp4(&n);
	nb_ether(&n, 0x0800, 3);
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_NOT_IP);
	ck_assert_ptr_nonnull(strstr(why, "more than 2 VLAN tags"));
	/* a loopback family that is not IP */
	udp4(&n);
	nb_loop(&n, 7, false);
	ck_assert_int_eq(parse(0, &n, &np, why, sizeof(why)), NET_NOT_IP);
	ck_assert_str_eq(why, "null: address family 7");
	/* LOOP is network order only: 2 little-endian is not AF_INET */
	udp4(&n);
	nb_loop(&n, 2, false);
	ck_assert_int_eq(parse(108, &n, &np, why, sizeof(why)), NET_NOT_IP);
	/* ICMP: parsed, no transport of ours */
	nb_payload(&n, tlp_bytes, 8);
	nb_ipv4(&n, 1, 1, 2, 0, 0);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_PARSED);
	ck_assert_int_eq(np.transport, NET_OTHER);
	ck_assert_uint_eq(np.protocol, 1);
	ck_assert_uint_eq(np.payload_len, 8);
}
END_TEST

START_TEST(test_ipv4_checksum_and_lengths)
{
	struct nb n;
	struct net_packet np;
	char why[200];
	udp4(&n);
	nb_ether(&n, 0x0800, 0);
	n.b[14 + 10] ^= 0x01; /* the checksum field */
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_msg(strstr(why, "ipv4: header checksum") && strstr(why, "at offset 24"), "%s",
	              why);
	/* a changed TTL breaks it as well */
	udp4(&n);
	n.b[8]--;
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_DAMAGED);
	/* IHL 4 */
	udp4(&n);
	n.b[0] = 0x44;
	nb_ipv4_checksum(n.b, 20);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "header length 16 (IHL 4) below 20 at offset 0"));
	/* options: IHL 6 */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(&n, 0x3001, 0x3001);
	nb_ipv4(&n, 17, 1, 2, 1, 0);
	expect_udp(228, &n, 24 + 8, 4);
	/* total length below the header */
	udp4(&n);
	nb_put16(n.b + 2, 19);
	nb_ipv4_checksum(n.b, 20);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "total length 19"));
	/* Ethernet padding after the datagram is not its payload */
	udp4(&n);
	memset(n.b + n.len, 0, 20);
	n.len += 20;
	expect_udp(228, &n, 28, 4);
	/* UDP length past the datagram, and below 8 */
	udp4(&n);
	nb_put16(n.b + 24, 8 + 17);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "udp: length 25 at offset 24 runs past"));
	nb_put16(n.b + 24, 7);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "below 8"));
	/* a UDP length shorter than the IP payload: the datagram ends there */
	nb_put16(n.b + 24, 8 + 10);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_PARSED);
	ck_assert_uint_eq(np.payload_len, 10);
	ck_assert_uint_eq(np.wire_len, 10);
}
END_TEST

START_TEST(test_tcp)
{
	struct nb n;
	struct net_packet np;
	char why[200];
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_tcp(&n, 40000, 2115, 0x01020304, 0x0A0B0C0D, 0x18, 3);
	nb_ipv4(&n, 6, 1, 2, 0, 0);
	nb_ether(&n, 0x0800, 1);
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_PARSED);
	ck_assert_int_eq(np.transport, NET_TCP);
	ck_assert_uint_eq(np.src_port, 40000);
	ck_assert_uint_eq(np.dst_port, 2115);
	ck_assert_uint_eq(np.seq, 0x01020304);
	ck_assert_uint_eq(np.ack, 0x0A0B0C0D);
	ck_assert_uint_eq(np.tcp_flags, NET_TCP_PSH | NET_TCP_ACK);
	ck_assert_uint_eq(np.payload_offset, 18 + 20 + 32);
	ck_assert_uint_eq(np.payload_len, 16);
	ck_assert_int_eq(memcmp(np.payload, tlp_bytes, 16), 0);
	/* data offset 4 */
	n.b[18 + 20 + 12] = 0x40;
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "tcp: data offset 4 (16 bytes) below 5 at offset 50"));
	/* data offset 15: 60 bytes, past the segment of 48 */
	n.b[18 + 20 + 12] = 0xF0;
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "runs past the IP datagram"));
	/* cut by the snapshot length inside the payload: wire_len stays */
	n.b[18 + 20 + 12] = 0x80;
	n.len -= 6;
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_PARSED);
	ck_assert_uint_eq(np.payload_len, 10);
	ck_assert_uint_eq(np.wire_len, 16);
	/* cut inside the TCP options: the header cannot be read */
	n.len = 18 + 20 + 24;
	ck_assert_int_eq(parse(1, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "tcp: header cut at offset 38: 24 bytes of 32"));
}
END_TEST

START_TEST(test_ipv4_fragments)
{
	struct nb n;
	struct net_packet np;
	char why[200];
	/* first fragment, more follow: the ports are there */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(&n, 0x3001, 0x3001);
	nb_ipv4(&n, 17, 1, 2, 0, 0x2000);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_FRAGMENT);
	ck_assert_int_eq(np.transport, NET_UDP);
	ck_assert_uint_eq(np.dst_port, 0x3001);
	ck_assert_ptr_nonnull(strstr(why, "fragment offset 0, more follow"));
	/* a later fragment: no ports */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_ipv4(&n, 17, 1, 2, 0, 0x0003);
	ck_assert_int_eq(parse(228, &n, &np, why, sizeof(why)), NET_FRAGMENT);
	ck_assert_int_eq(np.transport, NET_OTHER);
	ck_assert_uint_eq(np.payload_len, 16);
	ck_assert_ptr_nonnull(strstr(why, "fragment offset 24, the last"));
	/* DF alone is a whole datagram */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(&n, 0x3001, 0x3001);
	nb_ipv4(&n, 17, 1, 2, 0, 0x4000);
	expect_udp(228, &n, 28, 4);
}
END_TEST

START_TEST(test_ipv6_extensions)
{
	struct nb n;
	struct net_packet np;
	char why[200];
	/* hop-by-hop, routing, destination options, then TCP */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_tcp(&n, 2115, 50000, 7, 8, 0x10, 0);
	nb_ipv6_ext(&n, 6);
	nb_ipv6_ext(&n, 60);
	nb_ipv6_ext(&n, 43);
	nb_ipv6(&n, 0, 1, 2);
	ck_assert_int_eq(parse(229, &n, &np, why, sizeof(why)), NET_PARSED);
	ck_assert_int_eq(np.transport, NET_TCP);
	ck_assert_uint_eq(np.payload_offset, 40 + 24 + 20);
	ck_assert_uint_eq(np.payload_len, 16);
	/* an extension header whose length runs past the payload length */
	n.b[40 + 1] = 9;
	ck_assert_int_eq(parse(229, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(
	        strstr(why, "ipv6: hop-by-hop options header of 80 bytes at offset 40"));
	/* fragment header, first fragment */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(&n, 0x3001, 0x3001);
	nb_ipv6_frag(&n, 17, 0, true);
	nb_ipv6(&n, 44, 1, 2);
	ck_assert_int_eq(parse(229, &n, &np, why, sizeof(why)), NET_FRAGMENT);
	ck_assert_int_eq(np.transport, NET_UDP);
	ck_assert_ptr_nonnull(strstr(why, "ipv6: a fragment (id 0x0000cafe"));
	/* an atomic fragment (offset 0, M 0) is a whole datagram */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(&n, 0x3001, 0x3001);
	nb_ipv6_frag(&n, 17, 0, false);
	nb_ipv6(&n, 44, 1, 2);
	expect_udp(229, &n, 40 + 8 + 8, 6);
	/* a later fragment */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_ipv6_frag(&n, 17, 1448, false);
	nb_ipv6(&n, 44, 1, 2);
	ck_assert_int_eq(parse(229, &n, &np, why, sizeof(why)), NET_FRAGMENT);
	ck_assert_int_eq(np.transport, NET_OTHER);
	/* payload length 0 and a hop-by-hop header (a jumbogram): not read */
	nb_payload(&n, tlp_bytes, sizeof(tlp_bytes));
	nb_udp(&n, 0x3001, 0x3001);
	nb_ipv6_ext(&n, 17);
	nb_ipv6(&n, 0, 1, 2);
	nb_put16(n.b + 4, 0);
	ck_assert_int_eq(parse(229, &n, &np, why, sizeof(why)), NET_DAMAGED);
	ck_assert_ptr_nonnull(strstr(why, "past the payload length"));
}
END_TEST

/* The result a packet parsed whole must keep every pointer inside it. */
static void in_bounds(enum net_parse_result r, const struct net_packet *np, uint32_t caplen)
{
	if (r != NET_PARSED && r != NET_FRAGMENT)
		return;
	ck_assert_uint_le(np->payload_offset, caplen);
	ck_assert_uint_le(np->payload_len, caplen - np->payload_offset);
	ck_assert_uint_le(np->payload_len, np->wire_len);
}

/* Every prefix of every kind of packet: never a read past it (ASan),
 * a cut header is damage, a cut payload is a shorter payload. */
START_TEST(test_every_cut)
{
	struct nb n[6];
	uint32_t lt[6] = { 1, 276, 0, 229, 113, 1 };
	udp4(&n[0]);
	nb_ether(&n[0], 0x0800, 2);
	udp6(&n[1]);
	nb_sll2(&n[1], 0x86DD);
	udp4(&n[2]);
	nb_loop(&n[2], 2, false);
	nb_payload(&n[3], tlp_bytes, sizeof(tlp_bytes));
	nb_tcp(&n[3], 1, 2115, 1, 1, 0x18, 2);
	nb_ipv6_ext(&n[3], 6);
	nb_ipv6(&n[3], 60, 1, 2);
	udp4(&n[4]);
	nb_sll(&n[4], 0x0800);
	nb_payload(&n[5], tlp_bytes, sizeof(tlp_bytes));
	nb_tcp(&n[5], 1, 2115, 1, 1, 0x18, 0);
	nb_ipv4(&n[5], 6, 1, 2, 0, 0);
	nb_ether(&n[5], 0x0800, 0);
	for (unsigned k = 0; k < 6; k++) {
		for (uint32_t cut = 0; cut <= n[k].len; cut++) {
			static uint8_t copy[NB_MAX];
			struct net_packet np;
			char why[200];
			/* a copy of exactly cut bytes, so ASan sees any read past */
			uint8_t *p = copy + NB_MAX - cut;
			memcpy(p, n[k].b, cut);
			enum net_parse_result r =
			        net_packet_parse(lt[k], p, cut, &np, why, sizeof(why));
			in_bounds(r, &np, cut);
			if (cut < n[k].len - sizeof(tlp_bytes))
				ck_assert_msg(r == NET_DAMAGED, "case %u cut %u: %d", k, cut, r);
			else
				ck_assert_msg(r == NET_PARSED &&
				                      np.payload_len ==
				                              cut - (n[k].len - sizeof(tlp_bytes)),
				              "case %u cut %u: %d %s", k, cut, r, why);
			if (r == NET_DAMAGED)
				ck_assert_msg(strstr(why, "offset") != NULL, "no offset: %s", why);
		}
	}
}
END_TEST

/* Random bytes and random changes of good packets, under every link
 * type: any result, always in bounds (and ASan/UBSan quiet). */
START_TEST(test_random)
{
	static const uint32_t lts[] = { 0, 1, 12, 14, 101, 108, 113, 228, 229, 276 };
	uint32_t rng = 17;
	for (unsigned i = 0; i < 20000; i++) {
		struct nb n;
		if (i & 1) {
			udp6(&n);
			nb_ether(&n, 0x86DD, i % 3);
			for (unsigned f = 0; f < 3; f++)
				n.b[next_random(&rng) % n.len] = (uint8_t)next_random(&rng);
		} else {
			n.len = next_random(&rng) % 120;
			for (uint32_t b = 0; b < n.len; b++)
				n.b[b] = (uint8_t)next_random(&rng);
			if (n.len > 14 && (i & 2))
				n.b[12] = 0x08, n.b[13] = 0, n.b[14] = 0x45;
		}
		struct net_packet np;
		char why[200];
		uint32_t lt = lts[next_random(&rng) % 10];
		in_bounds(net_packet_parse(lt, n.b, n.len, &np, why, sizeof(why)), &np, n.len);
	}
}
END_TEST

Suite *suite_net_decap(void)
{
	Suite *s = suite_create("net_decap");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_link_types);
	tcase_add_test(tc, test_raw_version_mismatch);
	tcase_add_test(tc, test_not_ip);
	tcase_add_test(tc, test_ipv4_checksum_and_lengths);
	tcase_add_test(tc, test_tcp);
	tcase_add_test(tc, test_ipv4_fragments);
	tcase_add_test(tc, test_ipv6_extensions);
	tcase_add_test(tc, test_every_cut);
	tcase_add_test(tc, test_random);
	suite_add_tcase(s, tc);
	return s;
}
