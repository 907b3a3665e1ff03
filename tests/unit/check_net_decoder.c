/* check_net_decoder.c: NetTLP datagrams made records (read/net/nettlp.c:
 * the direction by port range and request or completion, a link per
 * address pair, the limits) and the network decoder around it
 * (read/net/net_decoder.c: numbering, damage, the note of the packets of
 * other traffic, the byte accounting). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "net_build.h"
#include "read/net/net_decoder.h"
#include "read/net/net_packet.h"
#include "read/net/nettlp.h"
#include "suites.h"

/* MRd32, 1 DW, tag 5; CplD of it */
static const uint8_t mrd[12] = { 0x00, 0, 0, 1, 0x01, 0x00, 5, 0x0F, 0x10, 0, 0, 0 };
static const uint8_t cpld[16] = { 0x4A, 0, 0, 1, 0, 0, 0, 4, 0x01, 0x00, 5, 0, 1, 2, 3, 4 };
/* a TLP prefix and then the MRd */
static const uint8_t prefixed[16] = { 0x90, 0, 0, 0, 0x00, 0, 0, 1, 0x01, 0, 5, 0x0F, 0, 0, 0, 0 };

/* NetTLP datagram sent by host .src to .dst on port, over Ethernet */
static void datagram(struct nb *n, unsigned port, uint8_t src, uint8_t dst, const uint8_t *tlp,
                     uint32_t len)
{
	uint8_t buf[64] = { 0, 7, 0, 0, 0, 0 }; /* sequence 7, timestamp 0 */
	memcpy(buf + 6, tlp, len);
	nb_payload(n, buf, 6 + len);
	nb_udp(n, port, port);
	nb_ipv4(n, 17, src, dst, 0, 0);
	nb_ether(n, 0x0800, 0);
}

static enum reader_result one(struct nettlp *nt, const struct nb *n, uint64_t packet_no,
                              struct record *rec, struct reader_malformed *bad)
{
	struct net_packet np;
	char why[200];
	ck_assert_int_eq(net_packet_parse(1, n->b, n->len, &np, why, sizeof(why)), NET_PARSED);
	ck_assert(nettlp_ports(np.src_port, np.dst_port));
	struct link_packet pkt = { n->b, n->len, n->len, 1000 * packet_no, 0, packet_no, 100 };
	return nettlp_datagram(nt, &np, &pkt, rec, bad);
}

/* The sender of the first datagram of a pair is told by its range and
 * kind; the rest follow the sender's address. */
START_TEST(test_direction)
{
	static const struct {
		unsigned port;
		const uint8_t *tlp;
		uint32_t len;
		enum link_dir first; /* the direction of .3 -> .1 */
	} cases[] = {
		{ 0x3000, mrd, sizeof(mrd), DIR_UP }, /* LibTLP's request: .3 is LibTLP */
		{ 0x3005, cpld, sizeof(cpld),
		  DIR_DOWN }, /* a completion to LibTLP: .3 the adapter */
		{ 0x4001, mrd, sizeof(mrd), DIR_DOWN }, /* the host's request: .3 the adapter */
		{ 0x4FFF, cpld, sizeof(cpld), DIR_UP }, /* LibTLP completes the host's */
		{ 0x3000, prefixed, sizeof(prefixed), DIR_UP }, /* past the prefix: a request */
	};
	for (unsigned flip = 0; flip < 2; flip++) {
		for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct nettlp_opts o = { flip ? DIR_UP : DIR_DOWN };
			struct nettlp *nt = nettlp_new(&o, "x.pcap");
			struct nb n;
			struct record rec;
			struct reader_malformed bad;
			enum link_dir want =
			        flip ? (enum link_dir) !cases[i].first : cases[i].first;

			datagram(&n, cases[i].port, 3, 1, cases[i].tlp, cases[i].len);
			ck_assert_int_eq(one(nt, &n, 4, &rec, &bad), READER_RECORD);
			ck_assert_int_eq(rec.dir, want);
			ck_assert_int_eq(rec.kind, REC_TLP);
			ck_assert_uint_eq(rec.flags, REC_F_NO_SEQ | REC_F_NO_CRC);
			ck_assert_uint_eq(rec.link, 0);
			ck_assert_uint_eq(rec.len, cases[i].len);
			ck_assert_uint_eq(rec.wire_len, cases[i].len);
			ck_assert_int_eq(memcmp(rec.bytes, cases[i].tlp, cases[i].len), 0);
			ck_assert_uint_eq(rec.time_ps, 4000);
			ck_assert(rec.pos.has_source_packet);
			ck_assert_uint_eq(rec.pos.source_packet, 4);
			/* the TLP's first byte: packet data at 100, Ethernet, IPv4,
			 * UDP and the NetTLP header before it */
			ck_assert_uint_eq(rec.pos.byte_offset, 100 + 14 + 20 + 8 + 6);
			ck_assert_str_eq(rec.pos.file, "x.pcap");
			/* the answer, from the other side, whatever its kind:
			 * the other direction, the same link */
			datagram(&n, cases[i].port, 1, 3, mrd, sizeof(mrd));
			ck_assert_int_eq(one(nt, &n, 5, &rec, &bad), READER_RECORD);
			ck_assert_int_eq(rec.dir, (enum link_dir) !want);
			ck_assert_uint_eq(rec.link, 0);
			/* another pair: another link */
			datagram(&n, 0x3000, 9, 1, mrd, sizeof(mrd));
			ck_assert_int_eq(one(nt, &n, 6, &rec, &bad), READER_RECORD);
			ck_assert_uint_eq(rec.link, 1);
			nettlp_free(nt);
		}
	}
}
END_TEST

/* One port of the range at both ends, or it is some other protocol's (an
 * RTP stream between two ports of the range). */
START_TEST(test_ports)
{
	ck_assert(nettlp_ports(0x3000, 0x3000));
	ck_assert(nettlp_ports(0x4FFF, 0x4FFF));
	ck_assert(!nettlp_ports(0x4FFF, 0x3001));
	ck_assert(!nettlp_ports(16384, 16386));
	ck_assert(!nettlp_ports(0x3000, 53));
	ck_assert(!nettlp_ports(40000, 0x4002));
	ck_assert(!nettlp_ports(0x2FFF, 0x2FFF));
	ck_assert(!nettlp_ports(0x5000, 0x5000));
}
END_TEST

START_TEST(test_short_and_limits)
{
	struct nettlp_opts o = { DIR_DOWN };
	struct nettlp *nt = nettlp_new(&o, "x.pcap");
	struct nb n;
	struct record rec;
	struct reader_malformed bad;

	/* 6 bytes: a header and no TLP; 5: not even the header */
	datagram(&n, 0x3000, 3, 1, mrd, 0);
	ck_assert_int_eq(one(nt, &n, 1, &rec, &bad), READER_MALFORMED);
	ck_assert_ptr_nonnull(strstr(bad.reason, "a NetTLP header and no TLP"));
	ck_assert_uint_eq(bad.pos.source_packet, 1);
	ck_assert_uint_eq(bad.pos.byte_offset, 100 + 42);
	n.len--;
	nb_put16(n.b + 14 + 2, 20 + 8 + 5);
	nb_ipv4_checksum(n.b + 14, 20);
	nb_put16(n.b + 14 + 24, 8 + 5);
	ck_assert_int_eq(one(nt, &n, 2, &rec, &bad), READER_MALFORMED);
	ck_assert_ptr_nonnull(strstr(bad.reason, "shorter than the 6-byte NetTLP header"));
	/* prefixes only: no header byte to tell the direction by */
	datagram(&n, 0x3000, 3, 1, prefixed, 4);
	ck_assert_int_eq(one(nt, &n, 3, &rec, &bad), READER_MALFORMED);
	ck_assert_ptr_nonnull(strstr(bad.reason, "its direction is unknown"));
	/* cut by the capture inside the TLP: a truncated record */
	datagram(&n, 0x3000, 3, 1, cpld, sizeof(cpld));
	n.len -= 3;
	ck_assert_int_eq(one(nt, &n, 4, &rec, &bad), READER_RECORD);
	ck_assert_uint_eq(rec.len, sizeof(cpld) - 3);
	ck_assert_uint_eq(rec.wire_len, sizeof(cpld));
	/* inside the NetTLP header */
	n.len = 14 + 20 + 8 + 3;
	ck_assert_int_eq(one(nt, &n, 5, &rec, &bad), READER_MALFORMED);
	ck_assert_ptr_nonnull(strstr(bad.reason, "cut by the capture (3 of 6 bytes"));
	/* 256 pairs are links 0-255 (the first above took link 0); the
	 * 257th is reported, an old pair still has its link */
	for (unsigned i = 1; i < NETTLP_MAX_LINKS; i++) {
		datagram(&n, 0x3000, (uint8_t)i, 100, mrd, sizeof(mrd));
		ck_assert_int_eq(one(nt, &n, 10 + i, &rec, &bad), READER_RECORD);
		ck_assert_uint_eq(rec.link, i);
	}
	datagram(&n, 0x3000, 250, 250, mrd, sizeof(mrd));
	ck_assert_int_eq(one(nt, &n, 999, &rec, &bad), READER_MALFORMED);
	ck_assert_ptr_nonnull(strstr(bad.reason, "10.0.0.250 and 10.0.0.250, a pair beyond"));
	datagram(&n, 0x3000, 1, 3, mrd, sizeof(mrd));
	ck_assert_int_eq(one(nt, &n, 1000, &rec, &bad), READER_RECORD);
	ck_assert_uint_eq(rec.link, 0);
	nettlp_free(nt);
}
END_TEST

/* The decoder: packets in, records, reports and the note out. */
struct run {
	struct link_decoder dec;
	uint64_t packets, offset, bytes;
	unsigned records, malformed, notes, resyncs;
	struct record last;
	struct reader_malformed last_bad, note;
};

static void feed(struct run *r, const struct nb *n)
{
	struct link_packet pkt = { n->b, n->len,       n->len,        1000 * (r->packets + 1),
		                   0,    ++r->packets, r->offset + 16 };
	r->offset += 16 + n->len;
	r->bytes += n->len;
	r->dec.ops->packet(r->dec.state, &pkt);
	for (;;) {
		struct record rec;
		struct reader_malformed bad;
		enum reader_result res = r->dec.ops->next(r->dec.state, &rec, &bad);
		if (res == READER_EOF)
			break;
		if (res == READER_RECORD) {
			r->records++;
			r->last = rec;
			ck_assert_uint_eq(rec.pos.record_no, r->records + r->malformed);
		} else if (res == READER_MALFORMED) {
			r->malformed++;
			r->last_bad = bad;
			ck_assert_uint_eq(bad.pos.record_no, r->records + r->malformed);
		} else {
			ck_assert_int_eq(res, READER_NOTE);
			r->notes++;
			r->note = bad;
		}
	}
}

static void finish(struct run *r)
{
	r->dec.ops->end(r->dec.state);
	struct record rec;
	struct reader_malformed bad;
	enum reader_result res;
	/* the decoder sets all it reports: no field is left as it was (a
	 * stale column made reader_each() differ from reader_next()) */
	for (;;) {
		memset(&bad, 0xA5, sizeof(bad));
		if ((res = r->dec.ops->next(r->dec.state, &rec, &bad)) == READER_EOF)
			break;
		/* Warp Pipe's bytes with no frame verified after them are a
		 * region skipped; the note comes last */
		if (res == READER_RESYNC) {
			ck_assert_uint_eq(r->notes, 0);
			r->resyncs++;
			continue;
		}
		ck_assert_int_eq(res, READER_NOTE);
		r->notes++;
		r->note = bad;
	}
}

START_TEST(test_decoder)
{
	struct reader_opts opts;
	char err[200];
	struct run r;
	struct nb n;

	memset(&opts, 0, sizeof(opts));
	memset(&r, 0, sizeof(r));
	ck_assert(net_decoder_new(1, &opts, "x.pcap", &r.dec, err, sizeof(err)));
	ck_assert_str_eq(r.dec.ops->format_name, "network");
	/* ARP first: not PCIe */
	nb_payload(&n, mrd, 8);
	nb_ether(&n, 0x0806, 0);
	feed(&r, &n);
	datagram(&n, 0x3000, 3, 1, mrd, sizeof(mrd));
	feed(&r, &n);
	ck_assert_uint_eq(r.records, 1);
	ck_assert_uint_eq(r.last.link, 0);
	ck_assert_int_eq(r.last.dir, DIR_UP);
	/* a bad IPv4 checksum: malformed, naming the layer and offset */
	datagram(&n, 0x3000, 1, 3, cpld, sizeof(cpld));
	n.b[14 + 8]--;
	feed(&r, &n);
	ck_assert_uint_eq(r.malformed, 1);
	ck_assert_ptr_nonnull(strstr(r.last_bad.reason, "ipv4: header checksum"));
	ck_assert_uint_eq(r.last_bad.pos.source_packet, 3);
	ck_assert(!r.last_bad.has_link && !r.last_bad.has_dir);
	/* DNS: not PCIe; the completion */
	nb_payload(&n, mrd, 12);
	nb_udp(&n, 40000, 53);
	nb_ipv4(&n, 17, 3, 4, 0, 0);
	nb_ether(&n, 0x0800, 0);
	feed(&r, &n);
	datagram(&n, 0x3000, 1, 3, cpld, sizeof(cpld));
	feed(&r, &n);
	ck_assert_uint_eq(r.records, 2);
	ck_assert_int_eq(r.last.dir, DIR_DOWN);
	/* a Warp Pipe segment: no record of a lone data segment, its bytes
	 * a region skipped at the end (no verified frame) */
	nb_payload(&n, mrd, 12);
	nb_tcp(&n, 40000, 2115, 1, 1, 0x18, 0);
	nb_ipv4(&n, 6, 3, 1, 0, 0);
	nb_ether(&n, 0x0800, 0);
	feed(&r, &n);
	ck_assert_uint_eq(r.notes, 0);
	finish(&r);
	ck_assert_uint_eq(r.resyncs, 1);
	/* once, at the end: two packets, the first is packet 1 */
	ck_assert_uint_eq(r.notes, 1);
	ck_assert_uint_eq(r.note.column, 0);
	ck_assert_uint_eq(r.note.skipped, 2);
	ck_assert_uint_eq(r.note.pos.source_packet, 1);
	ck_assert_uint_eq(r.note.pos.byte_offset, 16);
	ck_assert_ptr_nonnull(strstr(r.note.reason, "2 packets of no PCIe traffic"));
	ck_assert_ptr_nonnull(
	        strstr(r.note.reason, "the first packet 1 (ethernet: ethertype 0x0806)"));
	uint64_t decoded, skipped;
	r.dec.ops->bytes(r.dec.state, &decoded, &skipped);
	ck_assert_uint_eq(decoded + skipped, r.bytes);
	r.dec.ops->free(r.dec.state);
}
END_TEST

/* The two formats in one capture never share a link: links are given in
 * the order of their first record. */
START_TEST(test_decoder_links)
{
	struct reader_opts opts;
	char err[200];
	struct run r;
	struct nb n;

	memset(&opts, 0, sizeof(opts));
	opts.net_adapter_dir = DIR_UP;
	memset(&r, 0, sizeof(r));
	ck_assert(net_decoder_new(276, &opts, "x.pcap", &r.dec, err, sizeof(err)));
	for (unsigned pair = 0; pair < 3; pair++) {
		uint8_t buf[64] = { 0 };
		memcpy(buf + 6, mrd, sizeof(mrd));
		nb_payload(&n, buf, 6 + sizeof(mrd));
		nb_udp(&n, 0x3000, 0x3000);
		nb_ipv6(&n, 17, (uint8_t)(3 + pair), 1);
		nb_sll2(&n, 0x86DD);
		feed(&r, &n);
		ck_assert_uint_eq(r.last.link, pair);
		/* adapter=up: LibTLP's request goes down */
		ck_assert_int_eq(r.last.dir, DIR_DOWN);
	}
	ck_assert_uint_eq(r.records, 3);
	finish(&r);
	ck_assert_uint_eq(r.notes, 0);
	r.dec.ops->free(r.dec.state);
}
END_TEST

Suite *suite_net_decoder(void)
{
	Suite *s = suite_create("net_decoder");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_direction);
	tcase_add_test(tc, test_ports);
	tcase_add_test(tc, test_short_and_limits);
	tcase_add_test(tc, test_decoder);
	tcase_add_test(tc, test_decoder_links);
	suite_add_tcase(s, tc);
	return s;
}
