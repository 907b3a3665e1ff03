/* check_packet_build.c: unit tests of read/packet_build.c: every kind of
 * symbolic packet into record bytes that wire/'s decoders read back with
 * the fields given; the CRC-16 and LCRC correct, absent (REC_F_NO_CRC) or
 * forced; the sequence number absent (REC_F_NO_SEQ); link events. */
#include <check.h>
#include <string.h>

#include "core/record.h"
#include "read/packet_build.h"
#include "suites.h"
#include "wire/dllp.h"
#include "wire/tlp.h"

/* Builds b, checks the length and flags, and decodes it into *d. */
static void build_dllp(const struct packet_dllp *b, uint32_t want_len, uint8_t want_flags,
                       uint8_t out[6], struct dllp *d)
{
	uint8_t flags = 0;
	uint32_t len = packet_build_dllp(b, out, &flags);

	ck_assert_uint_eq(len, want_len);
	ck_assert_uint_eq(flags, want_flags);
	ck_assert_int_eq(dllp_decode(out, len, len == DLLP_WIRE_LEN, d), DLLP_DECODE_OK);
}

START_TEST(test_dllp_fc)
{
	struct packet_dllp b = {
		.type = DLLP_UPDATEFC,
		.cls = FC_NP,
		.vc = 3,
		.hdr_fc = 200,
		.data_fc = 4095,
		.hdr_scale = 1,
		.data_scale = 2,
		.seq = 77, /* not an FC field: ignored */
		.vendor_data = 0xFFFFFF,
	};
	uint8_t out[6];
	struct dllp d;

	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_int_eq(d.type, DLLP_UPDATEFC);
	ck_assert_int_eq(d.fc_class, FC_NP);
	ck_assert_uint_eq(d.vc, 3);
	ck_assert_uint_eq(d.hdr_fc, 200);
	ck_assert_uint_eq(d.data_fc, 4095);
	ck_assert_uint_eq(d.hdr_scale, 1);
	ck_assert_uint_eq(d.data_scale, 2);
	ck_assert_int_eq(d.crc, CRC_GOOD);
	ck_assert_uint_eq(out[0], 0x93); /* UpdateFC-NP, VC3 [1.2] */

	b.type = DLLP_INITFC1;
	b.cls = FC_CPL;
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_uint_eq(out[0], 0x63);
	ck_assert_int_eq(d.type, DLLP_INITFC1);
	ck_assert_int_eq(d.fc_class, FC_CPL);
}
END_TEST

/* No CRC: the 4 content bytes, flagged; a forced CRC: bytes 4 and 5 as
 * given, which the decoder then finds bad. */
START_TEST(test_dllp_crc)
{
	struct packet_dllp b = { .type = DLLP_ACK, .seq = 4095 };
	uint8_t good[6], out[6];
	struct dllp d;

	build_dllp(&b, DLLP_WIRE_LEN, 0, good, &d);
	ck_assert_int_eq(d.type, DLLP_ACK);
	ck_assert_uint_eq(d.acknak_seq, 4095);
	ck_assert_int_eq(d.crc, CRC_GOOD);

	b.crc = PACKET_CRC_NONE;
	build_dllp(&b, DLLP_CONTENT_LEN, REC_F_NO_CRC, out, &d);
	ck_assert_mem_eq(out, good, DLLP_CONTENT_LEN);
	ck_assert_int_eq(d.crc, CRC_ABSENT);

	b.crc = PACKET_CRC_FORCED;
	b.crc_field = (uint16_t)((good[4] << 8 | good[5]) ^ 0x0100);
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_uint_eq(out[4], good[4] ^ 0x01);
	ck_assert_uint_eq(out[5], good[5]);
	ck_assert_int_eq(d.crc, CRC_BAD);
}
END_TEST

/* Each kind takes its own fields only: Nak its sequence number, Feature
 * its bits, Vendor its content, PM and NOP nothing, a reserved kind its
 * type byte, an MR-IOV FC kind no FC field (its payload is opaque). */
START_TEST(test_dllp_other_kinds)
{
	struct packet_dllp b;
	uint8_t out[6];
	struct dllp d;

	memset(&b, 0, sizeof(b));
	b.type = DLLP_NAK;
	b.seq = 1234;
	b.vc = 7;
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_int_eq(d.type, DLLP_NAK);
	ck_assert_uint_eq(d.acknak_seq, 1234);

	memset(&b, 0, sizeof(b));
	b.type = DLLP_FEATURE;
	b.feature_ack = true;
	b.feature_bits = 0x7FFFFF;
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert(d.feature_ack);
	ck_assert_uint_eq(d.feature_support, 0x7FFFFF);

	memset(&b, 0, sizeof(b));
	b.type = DLLP_VENDOR;
	b.vendor_data = 0xABCDEF;
	b.data_fc = 12;
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_int_eq(d.type, DLLP_VENDOR);
	ck_assert_uint_eq(d.content, 0xABCDEF);

	memset(&b, 0, sizeof(b));
	b.type = DLLP_PM_ENTER_L23;
	b.vendor_data = 0xABCDEF;
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_int_eq(d.type, DLLP_PM_ENTER_L23);
	ck_assert_uint_eq(d.content, 0);

	memset(&b, 0, sizeof(b));
	b.type = DLLP_RESERVED;
	b.type_byte = 0x05;
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_uint_eq(out[0], 0x05);
	ck_assert_int_eq(d.type, DLLP_RESERVED);

	memset(&b, 0, sizeof(b));
	b.type = DLLP_MRUPDATEFC;
	b.type_byte = 0xB3;
	b.vc = 3;
	b.hdr_fc = 9;
	build_dllp(&b, DLLP_WIRE_LEN, 0, out, &d);
	ck_assert_uint_eq(out[0], 0xB0);
	ck_assert_uint_eq(d.content, 0);
}
END_TEST

/* Builds b into out (cap bytes), checks length and flags. */
static uint32_t build_tlp(const struct packet_tlp *b, uint8_t *out, uint8_t want_flags)
{
	uint8_t flags = 0;
	uint32_t len = packet_build_tlp(b, out, TLP_MAX_RECORD_LEN, &flags);

	ck_assert_uint_gt(len, 0);
	ck_assert_uint_eq(flags, want_flags);
	return len;
}

START_TEST(test_tlp)
{
	static uint8_t out[TLP_MAX_RECORD_LEN], good[TLP_MAX_RECORD_LEN];
	struct packet_tlp b = {
		.kind = TLP_MWR,
		.has_seq = true,
		.seq = 4000,
		.has_length = true,
		.length_dw = 4,
		.tc = 5,
	};
	struct tlp t;
	uint32_t len, n;

	len = build_tlp(&b, good, 0);
	ck_assert_uint_eq(len, 2 + 12 + 16 + 4); /* seq, 3 DW header, data, LCRC */
	ck_assert_int_eq(tlp_decode(good, len, len, true, true, &t), TLP_OK);
	ck_assert_int_eq(t.kind, TLP_MWR);
	ck_assert_uint_eq(t.hdr_dw, 3);
	ck_assert_uint_eq(t.seq, 4000);
	ck_assert_uint_eq(t.length_dw, 4);
	ck_assert_uint_eq(t.tc, 5);
	ck_assert_msg(t.msg_routing == 0, "not a message");
	ck_assert_int_eq(t.lcrc, CRC_GOOD);

	/* no LCRC, no sequence number: the same TLP between */
	b.lcrc = PACKET_CRC_NONE;
	b.has_seq = false;
	n = build_tlp(&b, out, REC_F_NO_CRC | REC_F_NO_SEQ);
	ck_assert_uint_eq(n, len - 6);
	ck_assert_mem_eq(out, good + 2, n);

	/* forced and nullified LCRCs */
	b.has_seq = true;
	b.lcrc = PACKET_CRC_FORCED;
	b.lcrc_field = 0x01020304;
	n = build_tlp(&b, out, 0);
	ck_assert_uint_eq(out[n - 4], 0x01);
	ck_assert_uint_eq(out[n - 1], 0x04);
	b.lcrc = PACKET_CRC_GOOD;
	b.nullified = true;
	n = build_tlp(&b, out, 0);
	ck_assert_int_eq(tlp_decode(out, n, n, true, true, &t), TLP_OK);
	ck_assert_int_eq(t.lcrc, CRC_NULLIFIED);

	/* 64-bit address, ECRC */
	memset(&b, 0, sizeof(b));
	b.kind = TLP_MRD;
	b.addr64 = true;
	b.has_seq = true;
	b.has_length = true;
	b.length_dw = 1024;
	b.td = true;
	n = build_tlp(&b, out, 0);
	ck_assert_int_eq(tlp_decode(out, n, n, true, true, &t), TLP_OK);
	ck_assert_uint_eq(t.hdr_dw, 4);
	ck_assert(t.td);
	ck_assert_uint_eq(t.length_dw, 1024);

	/* a message is routed to the receiver (100b) */
	memset(&b, 0, sizeof(b));
	b.kind = TLP_MSG;
	b.has_seq = true;
	n = build_tlp(&b, out, 0);
	ck_assert_int_eq(tlp_decode(out, n, n, true, true, &t), TLP_OK);
	ck_assert_uint_eq(t.msg_routing, 4);
}
END_TEST

/* A message's routing: given, else its code's (tlp_msg_code_routing()),
 * else 100b; the configuration target the readers assume is the
 * encoder's own. */
START_TEST(test_tlp_routing_and_target)
{
	static uint8_t out[TLP_MAX_RECORD_LEN];
	struct packet_tlp b = { .kind = TLP_MSG, .has_seq = true };
	struct tlp t;
	uint32_t n;

	b.hdr.msg_code_given = true;
	b.hdr.msg_code = 0x19; /* PME_Turn_Off: broadcast */
	n = build_tlp(&b, out, 0);
	ck_assert_int_eq(tlp_decode(out, n, n, true, true, &t), TLP_OK);
	ck_assert_uint_eq(t.msg_routing, 3);
	ck_assert_uint_eq(t.msg_code, 0x19);
	b.routing_given = true;
	b.msg_routing = 2;
	n = build_tlp(&b, out, 0);
	ck_assert_int_eq(tlp_decode(out, n, n, true, true, &t), TLP_OK);
	ck_assert_uint_eq(t.msg_routing, 2);
	b.hdr.msg_code_given = false;
	b.msg_routing = 0;
	n = build_tlp(&b, out, 0);
	ck_assert_int_eq(tlp_decode(out, n, n, true, true, &t), TLP_OK);
	ck_assert_uint_eq(t.msg_routing, 0);

	memset(&b, 0, sizeof(b));
	b.kind = TLP_CFGRD0;
	b.has_seq = true;
	n = build_tlp(&b, out, 0);
	ck_assert_int_eq(tlp_decode(out, n, n, true, true, &t), TLP_OK);
	ck_assert_uint_eq(t.target_id, PACKET_CFG_TARGET_DEFAULT);
	ck_assert_uint_eq(t.cfg_register, 0);
}
END_TEST

/* What cannot be encoded gives 0 and leaves the flags alone; the kinds
 * whose Length is reserved. */
START_TEST(test_tlp_limits)
{
	static uint8_t out[TLP_MAX_RECORD_LEN];
	struct packet_tlp b = { .kind = TLP_MWR, .has_length = true, .length_dw = 1025 };
	uint8_t flags = 0x80;

	ck_assert_uint_eq(packet_build_tlp(&b, out, sizeof(out), &flags), 0);
	ck_assert_uint_eq(flags, 0x80);
	b.length_dw = 16;
	ck_assert_uint_eq(packet_build_tlp(&b, out, 20, &flags), 0);
	ck_assert_uint_eq(flags, 0x80);

	ck_assert(packet_tlp_length_optional(TLP_CPL));
	ck_assert(packet_tlp_length_optional(TLP_CPLLK));
	ck_assert(packet_tlp_length_optional(TLP_MSG));
	ck_assert(!packet_tlp_length_optional(TLP_CPLD));
	ck_assert(!packet_tlp_length_optional(TLP_MSGD));
	ck_assert(!packet_tlp_length_optional(TLP_MRD));
}
END_TEST

START_TEST(test_event)
{
	uint8_t out[EVENT_LEN];

	memset(out, 0xAA, sizeof(out));
	ck_assert_uint_eq(packet_build_event(EV_VC_ENABLE, 3, out), EVENT_LEN);
	ck_assert_uint_eq(out[0], EV_VC_ENABLE);
	ck_assert_uint_eq(out[1], 3);
	ck_assert_uint_eq(out[2], 0);
	ck_assert_uint_eq(out[3], 0);
	ck_assert_uint_eq(packet_build_event(EV_LINK_UP, 3, out), EVENT_LEN);
	ck_assert_uint_eq(out[0], EV_LINK_UP);
	ck_assert_uint_eq(out[1], 0); /* only vc-enable has a VC */
}
END_TEST

Suite *suite_packet_build(void)
{
	Suite *s = suite_create("packet_build");
	TCase *tc = tcase_create("dllp");

	tcase_add_test(tc, test_dllp_fc);
	tcase_add_test(tc, test_dllp_crc);
	tcase_add_test(tc, test_dllp_other_kinds);
	suite_add_tcase(s, tc);
	tc = tcase_create("tlp");
	tcase_add_test(tc, test_tlp);
	tcase_add_test(tc, test_tlp_limits);
	tcase_add_test(tc, test_tlp_routing_and_target);
	suite_add_tcase(s, tc);
	tc = tcase_create("event");
	tcase_add_test(tc, test_event);
	suite_add_tcase(s, tc);
	return s;
}
