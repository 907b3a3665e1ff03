/* check_dllp.c: unit tests of dllp.c: the golden DLLP vectors, CRC-16,
 * the type byte table, encode/decode round trips, wrong sizes.
 * specification: spec-digest.md sections 1 and 2.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/dllp.h"
#include "suites.h"
#include "vectors.h"
#include "xorshift.h"

/* ---- helpers ------------------------------------------------------------ */

/* Bit-serial CRC-16 written from spec-digest 2.2, independent of the
 * table in dllp.c. */
static void crc16_bitwise(const uint8_t content[4], uint8_t out[2])
{
	uint16_t reg = 0xFFFF;

	for (int i = 0; i < 4; i++) {
		reg ^= content[i];
		for (int k = 0; k < 8; k++)
			reg = (reg & 1) ? (uint16_t)((reg >> 1) ^ 0xD008) : (uint16_t)(reg >> 1);
	}
	reg = (uint16_t)~reg;
	out[0] = (uint8_t)reg;
	out[1] = (uint8_t)(reg >> 8);
}

/* Decodes from an exact-size heap copy so ASan sees any overread. */
static enum dllp_decode_status decode_exact(const uint8_t *bytes, size_t len,
					    bool has_crc, struct dllp *out)
{
	uint8_t *copy = malloc(len ? len : 1);
	enum dllp_decode_status st;

	ck_assert_ptr_nonnull(copy);
	if (len)
		memcpy(copy, bytes, len);
	st = dllp_decode(len ? copy : NULL, len, has_crc, out);
	free(copy);
	return st;
}

/* Credits behind an FC field: field << 0, 0, 2, 4 for scale 00..11 [1.5]. */
static unsigned scale_shift(unsigned scale)
{
	return scale >= 2 ? 2 * (scale - 1) : 0;
}

/* ---- golden vectors ------------------------------------------------------ */

/* What one vector line claims beyond its key=value fields. */
struct dllp_line_seen {
	unsigned long line_no;
	bool type, crc_status;
};

/* type=NAME: the vector names deprecated kinds "MRInit(deprecated)" and
 * reserved ones "RESERVED(0xNN)". */
static void check_type_name(const struct dllp *d, const char *v, size_t n)
{
	static const char deprecated[] = "(deprecated)";
	size_t dl = sizeof(deprecated) - 1;
	unsigned long code;

	if (n > 9 && memcmp(v, "RESERVED(", 9) == 0 && v[n - 1] == ')') {
		ck_assert_str_eq(dllp_name(d), "Reserved");
		ck_assert_int_eq(d->type, DLLP_RESERVED);
		ck_assert(vectors_parse_uint(v + 9, n - 10, &code));
		ck_assert_uint_eq(d->type_byte, code);
		return;
	}
	if (n > dl && memcmp(v + n - dl, deprecated, dl) == 0)
		n -= dl;
	ck_assert_msg(strlen(dllp_name(d)) == n &&
		      memcmp(dllp_name(d), v, n) == 0,
		      "type %.*s decoded as %s", (int)n, v, dllp_name(d));
}

/* advertised_*_credits=N|INFINITE: 0 in an InitFC field is infinite
 * [1.5], anything else is field << scale shift. */
static void check_advertised(unsigned field, unsigned scale, const char *v,
			     size_t n)
{
	unsigned long credits;

	if (vectors_tok_eq(v, n, "INFINITE")) {
		ck_assert_uint_eq(field, 0);
		return;
	}
	ck_assert(vectors_parse_uint(v, n, &credits));
	ck_assert_uint_ne(field, 0);
	ck_assert_uint_eq(credits, (unsigned long)field << scale_shift(scale));
}

/* The bare "(field<<H/D)" token: the shifts of the two scales. */
static void check_shift_note(const struct dllp *d, const char *t, size_t n)
{
	unsigned h, dsh;
	char close;
	char buf[32];

	ck_assert_uint_lt(n, sizeof(buf));
	memcpy(buf, t, n);
	buf[n] = '\0';
	ck_assert_int_eq(sscanf(buf, "(field<<%u/%u%c", &h, &dsh, &close), 3);
	ck_assert_int_eq(close, ')');
	ck_assert_uint_eq(h, scale_shift(d->hdr_scale));
	ck_assert_uint_eq(dsh, scale_shift(d->data_scale));
}

/* The decoded value a numeric vector field names; false if unknown. */
static bool dllp_field_value(const struct dllp *d, const char *k, size_t kn,
			     unsigned long *got)
{
	static const char *const keys[] = {
		"AckNak_Seq_Num", "payload", "feature_ack", "feature_support",
		"scaled_fc_supported", "vc", "hdr_scale", "hdr_fc", "data_scale",
		"data_fc", "CREDIT_LIMIT_hdr", "CREDIT_LIMIT_data", "crc",
	};
	const unsigned long values[] = {
		d->acknak_seq, d->content, d->feature_ack, d->feature_support,
		d->feature_support & 1u, d->vc, d->hdr_scale, d->hdr_fc,
		d->data_scale, d->data_fc,
		(unsigned long)d->hdr_fc << scale_shift(d->hdr_scale),
		(unsigned long)d->data_fc << scale_shift(d->data_scale),
		d->crc_field,
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (vectors_tok_eq(k, kn, keys[i])) {
			*got = values[i];
			return true;
		}
	}
	return false;
}

static void check_dllp_kv(const struct dllp *d, const char *k, size_t kn,
			  const char *v, size_t vn, struct dllp_line_seen *seen)
{
	unsigned long want, got;

	if (vectors_tok_eq(k, kn, "type")) {
		check_type_name(d, v, vn);
		seen->type = true;
	} else if (vectors_tok_eq(k, kn, "advertised_hdr_credits")) {
		check_advertised(d->hdr_fc, d->hdr_scale, v, vn);
	} else if (vectors_tok_eq(k, kn, "advertised_data_credits")) {
		check_advertised(d->data_fc, d->data_scale, v, vn);
	} else {
		ck_assert_msg(dllp_field_value(d, k, kn, &got),
			      "line %lu: unknown DLLP vector field %.*s",
			      seen->line_no, (int)kn, k);
		ck_assert_msg(vectors_parse_uint(v, vn, &want), "line %lu: %.*s=%.*s",
			      seen->line_no, (int)kn, k, (int)vn, v);
		ck_assert_msg(got == want, "line %lu: %.*s=%.*s but decoded 0x%lx",
			      seen->line_no, (int)kn, k, (int)vn, v, got);
	}
}

/* One vector line: hex bytes, then fields; prose words are skipped. */
static void check_dllp_line(const char *text, unsigned long line_no)
{
	uint8_t bytes[8];
	const char *cursor, *tok, *k, *v;
	size_t len, kn, vn, n = vectors_unhex(text, bytes, sizeof(bytes), &cursor);
	struct dllp d;
	struct dllp_line_seen seen = { line_no, false, false };

	ck_assert_msg(n == 6, "line %lu: %zu bytes", line_no, n);
	ck_assert_int_eq(decode_exact(bytes, n, true, &d), DLLP_DECODE_OK);
	while (vectors_token(&cursor, &tok, &len)) {
		if (vectors_split_kv(tok, len, &k, &kn, &v, &vn)) {
			check_dllp_kv(&d, k, kn, v, vn, &seen);
		} else if (vectors_tok_eq(tok, len, "crc_ok")) {
			ck_assert_int_eq(d.crc, CRC_GOOD);
			ck_assert_uint_eq(d.crc_field, d.crc_expected);
			seen.crc_status = true;
		} else if (vectors_tok_eq(tok, len, "CRC_BAD")) {
			ck_assert_int_eq(d.crc, CRC_BAD);
			ck_assert_uint_ne(d.crc_field, d.crc_expected);
			seen.crc_status = true;
		} else if (len > 7 && memcmp(tok, "(field<<", 8) == 0) {
			check_shift_note(&d, tok, len);
		}
	}
	ck_assert_msg(seen.type && seen.crc_status,
		      "line %lu lacks type or CRC status", line_no);
}

/* Every data line of dllp_vectors.txt decodes to the fields it prints. */
START_TEST(test_dllp_vectors)
{
	size_t expected = vectors_count_data_lines("dllp_vectors.txt");
	FILE *f = vectors_open("dllp_vectors.txt");
	struct vec_line line = { 0 };
	size_t checked = 0;

	ck_assert_msg(f != NULL, "dllp_vectors.txt not found (VECTORS_DIR)");
	while (vectors_next_line(f, &line)) {
		check_dllp_line(line.text, line.line_no);
		checked++;
	}
	vectors_line_free(&line);
	fclose(f);
	ck_assert_uint_gt(expected, 0);
	ck_assert_uint_eq(checked, expected);
}
END_TEST

/* ---- CRC-16 -------------------------------------------------------------- */

/* The table-driven CRC equals the bit-serial definition on random data. */
START_TEST(test_crc16_matches_bitwise)
{
	uint32_t state = 0x12345678;

	for (int i = 0; i < 10000; i++) {
		uint32_t r = next_random(&state);
		uint8_t content[4] = { (uint8_t)(r >> 24), (uint8_t)(r >> 16),
				       (uint8_t)(r >> 8), (uint8_t)r };
		uint8_t got[2], want[2];

		dllp_crc16_bytes(content, got);
		crc16_bitwise(content, want);
		ck_assert_mem_eq(got, want, 2);
	}
}
END_TEST

/* warp-pipe's published value: Ack of seq 0 carries CRC bytes B3 62 [2.3]. */
START_TEST(test_crc16_published_ack)
{
	static const uint8_t ack0[4] = { 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t want[2] = { 0xB3, 0x62 };
	uint8_t got[2];

	dllp_crc16_bytes(ack0, got);
	ck_assert_mem_eq(got, want, 2);
}
END_TEST

/* Any single flipped bit of a good DLLP makes its CRC bad. */
START_TEST(test_crc16_single_bit_errors)
{
	struct dllp in = { .type = DLLP_UPDATEFC, .fc_class = FC_NP, .vc = 3,
			   .hdr_fc = 0x5A, .data_fc = 0xA5C };
	uint8_t wire[6];
	struct dllp d;

	dllp_encode(&in, wire);
	for (unsigned bit = 0; bit < 48; bit++) {
		wire[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		ck_assert_int_eq(decode_exact(wire, 6, true, &d), DLLP_DECODE_OK);
		ck_assert_int_eq(d.crc, CRC_BAD);
		wire[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	ck_assert_int_eq(decode_exact(wire, 6, true, &d), DLLP_DECODE_OK);
	ck_assert_int_eq(d.crc, CRC_GOOD);
}
END_TEST

/* ---- type byte table ------------------------------------------------------ */

/* Fixed codes and the FC bit patterns map to the kinds of table 1.2. */
START_TEST(test_type_byte_table)
{
	static const struct { uint8_t b0; enum dllp_type type; } cases[] = {
		{ 0x00, DLLP_ACK }, { 0x01, DLLP_MRINIT }, { 0x02, DLLP_FEATURE },
		{ 0x03, DLLP_ALT_PROTO_1 }, { 0x04, DLLP_ALT_PROTO_2 },
		{ 0x05, DLLP_RESERVED }, { 0x10, DLLP_NAK },
		{ 0x20, DLLP_PM_ENTER_L1 }, { 0x21, DLLP_PM_ENTER_L23 },
		{ 0x22, DLLP_RESERVED }, { 0x23, DLLP_PM_AS_REQUEST_L1 },
		{ 0x24, DLLP_PM_REQUEST_ACK }, { 0x28, DLLP_LINK_MGMT },
		{ 0x30, DLLP_VENDOR }, { 0x31, DLLP_NOP }, { 0x32, DLLP_RESERVED },
		{ 0x47, DLLP_INITFC1 }, { 0x48, DLLP_RESERVED },
		{ 0x57, DLLP_INITFC1 }, { 0x67, DLLP_INITFC1 },
		{ 0x70, DLLP_MRINITFC1 }, { 0x78, DLLP_RESERVED },
		{ 0x80, DLLP_UPDATEFC }, { 0xA7, DLLP_UPDATEFC },
		{ 0xB0, DLLP_MRUPDATEFC }, { 0xC0, DLLP_INITFC2 },
		{ 0xCF, DLLP_RESERVED }, { 0xF0, DLLP_MRINITFC2 },
		{ 0xFF, DLLP_RESERVED },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t wire[6] = { cases[i].b0, 0, 0, 0 };
		struct dllp d;

		dllp_crc16_bytes(wire, wire + 4);
		ck_assert_int_eq(decode_exact(wire, 6, true, &d), DLLP_DECODE_OK);
		ck_assert_msg(d.type == cases[i].type, "byte %02x: type %d",
			      cases[i].b0, d.type);
		ck_assert_uint_eq(d.type_byte, cases[i].b0);
	}
}
END_TEST

/* Each of the 256 type bytes re-encodes from its decoded fields to the same bytes. */
START_TEST(test_every_type_byte_round_trips)
{
	uint32_t state = 0xC0FFEE;

	for (unsigned b0 = 0; b0 < 256; b0++) {
		uint32_t r = next_random(&state);
		uint8_t wire[6] = { (uint8_t)b0, (uint8_t)(r >> 16),
				    (uint8_t)(r >> 8), (uint8_t)r };
		uint8_t again[6];
		struct dllp d;

		/* The 12 reserved bits of Ack/Nak are not kept in any field. */
		if (b0 == 0x00 || b0 == 0x10) {
			wire[1] = 0;
			wire[2] &= 0x0F;
		}
		dllp_crc16_bytes(wire, wire + 4);
		ck_assert_int_eq(decode_exact(wire, 6, true, &d), DLLP_DECODE_OK);
		ck_assert_int_eq(d.crc, CRC_GOOD);
		dllp_encode(&d, again);
		ck_assert_msg(memcmp(wire, again, 6) == 0, "type byte %02x", b0);
	}
}
END_TEST

/* ---- round trips ------------------------------------------------------------ */

static const enum dllp_type fc_kinds[] = {
	DLLP_INITFC1, DLLP_INITFC2, DLLP_UPDATEFC,
	DLLP_MRINITFC1, DLLP_MRINITFC2, DLLP_MRUPDATEFC,
};
static const char *const fc_kind_names[] = {
	"InitFC1", "InitFC2", "UpdateFC", "MRInitFC1", "MRInitFC2", "MRUpdateFC",
};

/* One FC DLLP through encode and decode; n varies the scales and values. */
static void check_fc_round_trip(size_t k, enum fc_class cls, unsigned vc,
				unsigned n)
{
	bool mriov = fc_kinds[k] != DLLP_INITFC1 && fc_kinds[k] != DLLP_INITFC2 &&
		     fc_kinds[k] != DLLP_UPDATEFC;
	struct dllp in = {
		.type = fc_kinds[k], .fc_class = cls, .vc = (uint8_t)vc,
		.hdr_scale = (uint8_t)(n & 3), .hdr_fc = (uint8_t)(n * 37),
		.data_scale = (uint8_t)((n >> 2) & 3),
		.data_fc = (uint16_t)((n * 1237) & 0xFFF),
	};
	uint8_t wire[6];
	char name[32];
	struct dllp d;

	dllp_encode(&in, wire);
	ck_assert_uint_eq(wire[0], dllp_fc_type_byte(in.type, cls, vc));
	ck_assert_int_eq(decode_exact(wire, 6, true, &d), DLLP_DECODE_OK);
	ck_assert_int_eq(d.type, in.type);
	ck_assert_int_eq(d.crc, CRC_GOOD);
	ck_assert_int_eq(d.fc_class, cls);
	ck_assert_uint_eq(d.vc, vc);
	ck_assert_uint_eq(d.hdr_scale, in.hdr_scale);
	ck_assert_uint_eq(d.hdr_fc, in.hdr_fc);
	ck_assert_uint_eq(d.data_scale, in.data_scale);
	ck_assert_uint_eq(d.data_fc, in.data_fc);
	if (mriov)
		snprintf(name, sizeof(name), "%s", fc_kind_names[k]);
	else
		snprintf(name, sizeof(name), "%s-%s", fc_kind_names[k],
			 fc_class_name(cls));
	ck_assert_str_eq(dllp_name(&d), name);
	ck_assert_str_eq(dllp_type_name(d.type), fc_kind_names[k]);
}

/* Every FC and MR-IOV FC kind, class and VC 0-7 round-trips with name and good CRC. */
START_TEST(test_fc_round_trip)
{
	unsigned n = 0;

	for (size_t k = 0; k < sizeof(fc_kinds) / sizeof(fc_kinds[0]); k++) {
		unsigned classes = k < 3 ? FC_CLASS_COUNT : 1;

		for (unsigned cls = 0; cls < classes; cls++)
			for (unsigned vc = 0; vc < 8; vc++)
				check_fc_round_trip(k, (enum fc_class)cls, vc, n++);
	}
}
END_TEST

/* Each non-FC kind encodes and decodes back to its fields. */
START_TEST(test_other_kinds_round_trip)
{
	static const struct { enum dllp_type type; const char *name; } kinds[] = {
		{ DLLP_ACK, "Ack" }, { DLLP_NAK, "Nak" }, { DLLP_MRINIT, "MRInit" },
		{ DLLP_FEATURE, "Data_Link_Feature" },
		{ DLLP_ALT_PROTO_1, "Alt_Protocol_1" },
		{ DLLP_ALT_PROTO_2, "Alt_Protocol_2" },
		{ DLLP_PM_ENTER_L1, "PM_Enter_L1" }, { DLLP_PM_ENTER_L23, "PM_Enter_L23" },
		{ DLLP_PM_AS_REQUEST_L1, "PM_Active_State_Request_L1" },
		{ DLLP_PM_REQUEST_ACK, "PM_Request_Ack" },
		{ DLLP_LINK_MGMT, "Link_Management" },
		{ DLLP_VENDOR, "Vendor_Specific" }, { DLLP_NOP, "NOP" },
		{ DLLP_RESERVED, "Reserved" },
	};

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct dllp in = {
			.type = kinds[k].type, .type_byte = 0x3F, .content = 0xABCDEF,
			.acknak_seq = 0xFED, .feature_ack = true,
			.feature_support = 0x400001,
		};
		uint8_t wire[6];
		struct dllp d;

		dllp_encode(&in, wire);
		ck_assert_int_eq(decode_exact(wire, 6, true, &d), DLLP_DECODE_OK);
		ck_assert_int_eq(d.type, in.type);
		ck_assert_int_eq(d.crc, CRC_GOOD);
		ck_assert_str_eq(dllp_name(&d), kinds[k].name);
		if (in.type == DLLP_ACK || in.type == DLLP_NAK) {
			ck_assert_uint_eq(d.acknak_seq, in.acknak_seq);
		} else if (in.type == DLLP_FEATURE) {
			ck_assert(d.feature_ack);
			ck_assert_uint_eq(d.feature_support, in.feature_support);
		} else {
			ck_assert_uint_eq(d.content, in.content);
		}
		if (in.type == DLLP_RESERVED)
			ck_assert_uint_eq(d.type_byte, in.type_byte);
	}
}
END_TEST

/* Ack/Nak carry every 12-bit sequence number; the bits above stay 0. */
START_TEST(test_acknak_all_sequence_numbers)
{
	for (unsigned seq = 0; seq < 4096; seq++) {
		struct dllp in = { .type = seq & 1 ? DLLP_NAK : DLLP_ACK,
				   .acknak_seq = (uint16_t)seq };
		uint8_t wire[6];
		struct dllp d;

		dllp_encode(&in, wire);
		ck_assert_uint_eq(wire[1], 0);
		ck_assert_uint_eq(wire[2] >> 4, 0);
		ck_assert_int_eq(decode_exact(wire, 6, true, &d), DLLP_DECODE_OK);
		ck_assert_uint_eq(d.acknak_seq, seq);
	}
}
END_TEST

/* ---- sizes ----------------------------------------------------------------- */

/* DLLPs of 0, 1, 3, 5 and 7 bytes (and 6 without CRC) are rejected, *out zeroed. */
START_TEST(test_wrong_sizes)
{
	static const struct { size_t len; bool has_crc; enum dllp_decode_status st; } cases[] = {
		{ 0, true, DLLP_DECODE_SHORT }, { 1, true, DLLP_DECODE_SHORT },
		{ 3, true, DLLP_DECODE_SHORT }, { 4, true, DLLP_DECODE_SHORT },
		{ 5, true, DLLP_DECODE_SHORT }, { 7, true, DLLP_DECODE_LONG },
		{ 0, false, DLLP_DECODE_SHORT }, { 3, false, DLLP_DECODE_SHORT },
		{ 5, false, DLLP_DECODE_LONG }, { 6, false, DLLP_DECODE_LONG },
		{ 7, false, DLLP_DECODE_LONG },
	};
	static const uint8_t bytes[7] = { 0x40, 0x00, 0x40, 0x40, 0xE6, 0x5B, 0x00 };
	static const struct dllp zero;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dllp d;

		memset(&d, 0xA5, sizeof(d));
		ck_assert_int_eq(decode_exact(bytes, cases[i].len, cases[i].has_crc, &d),
				 cases[i].st);
		ck_assert_msg(memcmp(&d, &zero, sizeof(d)) == 0,
			      "len %zu: output not zeroed", cases[i].len);
	}
}
END_TEST

/* The 4-byte form (NO_CRC) decodes the content and marks the CRC absent. */
START_TEST(test_no_crc_form)
{
	static const uint8_t bytes[4] = { 0x40, 0x00, 0x40, 0x40 };
	struct dllp d;

	ck_assert_int_eq(decode_exact(bytes, 4, false, &d), DLLP_DECODE_OK);
	ck_assert_int_eq(d.type, DLLP_INITFC1);
	ck_assert_int_eq(d.crc, CRC_ABSENT);
	ck_assert_uint_eq(d.hdr_fc, 1);
	ck_assert_uint_eq(d.data_fc, 0x40);
	ck_assert_uint_eq(d.crc_expected, 0xE65B);
}
END_TEST

/* Names are never NULL, even out of range; a non-FC kind's FC type byte is FFh. */
START_TEST(test_names_and_fallbacks)
{
	struct dllp d = { .type = DLLP_TYPE_COUNT };

	ck_assert_str_eq(dllp_type_name(DLLP_TYPE_COUNT), "Reserved");
	ck_assert_str_eq(dllp_name(&d), "Reserved");
	ck_assert_str_eq(fc_class_name(FC_CPL), "Cpl");
	ck_assert_ptr_nonnull(fc_class_name(FC_CLASS_COUNT));
	ck_assert_uint_eq(dllp_fc_type_byte(DLLP_ACK, FC_P, 0), 0xFF);
	ck_assert_uint_eq(dllp_fc_type_byte(DLLP_UPDATEFC, FC_CPL, 9), 0xA1);
}
END_TEST

/* ---- mnemonics -------------------------------------------------------------- */

/* Every mnemonic of capture-format.md section 2 (and Data_Link_Feature)
 * is found, in any case and with '_' for '-', and comes back spelt as the
 * table spells it; an FC mnemonic names its class.  Where the mnemonic is
 * the printed name, dllp_name() of the kind gives it back (a --decode
 * listing reads back). */
START_TEST(test_mnemonic_lookup)
{
	static const struct {
		const char *written, *name;
		enum dllp_type type;
		enum fc_class cls;
		bool printed;
	} cases[] = {
		{ "UpdateFC-P", "UpdateFC-P", DLLP_UPDATEFC, FC_P, true },
		{ "updatefc_np", "UpdateFC-NP", DLLP_UPDATEFC, FC_NP, true },
		{ "UPDATEFC-CPL", "UpdateFC-Cpl", DLLP_UPDATEFC, FC_CPL, true },
		{ "InitFC1-P", "InitFC1-P", DLLP_INITFC1, FC_P, true },
		{ "initfc1_cpl", "InitFC1-Cpl", DLLP_INITFC1, FC_CPL, true },
		{ "InitFC2-NP", "InitFC2-NP", DLLP_INITFC2, FC_NP, true },
		{ "ack", "Ack", DLLP_ACK, FC_P, true },
		{ "NAK", "Nak", DLLP_NAK, FC_P, true },
		{ "pm-enter-l1", "PM_Enter_L1", DLLP_PM_ENTER_L1, FC_P, true },
		{ "PM_Enter_L23", "PM_Enter_L23", DLLP_PM_ENTER_L23, FC_P, true },
		{ "PM_Active_State_Request_L1", "PM_Active_State_Request_L1",
		  DLLP_PM_AS_REQUEST_L1, FC_P, true },
		{ "pm_request_ack", "PM_Request_Ack", DLLP_PM_REQUEST_ACK, FC_P, true },
		{ "nop", "NOP", DLLP_NOP, FC_P, true },
		{ "Feature", "Feature", DLLP_FEATURE, FC_P, false },
		{ "data-link-feature", "Data_Link_Feature", DLLP_FEATURE, FC_P, true },
		{ "VENDOR", "Vendor", DLLP_VENDOR, FC_P, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum dllp_type type = DLLP_RESERVED;
		enum fc_class cls = FC_CLASS_COUNT;
		const char *name = dllp_mnemonic_lookup(cases[i].written, strlen(cases[i].written),
		                                        &type, &cls);
		struct dllp d = { .type = cases[i].type, .fc_class = cases[i].cls };

		ck_assert_msg(name != NULL, "%s not found", cases[i].written);
		ck_assert_str_eq(name, cases[i].name);
		ck_assert_int_eq(type, cases[i].type);
		ck_assert_int_eq(cls, cases[i].cls);
		if (cases[i].printed)
			ck_assert_str_eq(dllp_name(&d), cases[i].name);
	}
}
END_TEST

/* Printed names that are no mnemonic of the text form, near misses and
 * words of other lengths are not found. */
START_TEST(test_mnemonic_unknown)
{
	static const char *const words[] = {
		"", "Vendor_Specific", "InitFC1", "UpdateFC", "MRInit", "MRUpdateFC",
		"Alt_Protocol_1", "Link_Management", "Reserved", "UpdateFC-", "UpdateFC-X",
		"UpdateFCP", "UpdateFC.P", "Acks", "Ac", "PM Enter L1", "DLLP", "TLP",
	};
	enum dllp_type type;
	enum fc_class cls;

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		ck_assert_msg(dllp_mnemonic_lookup(words[i], strlen(words[i]), &type, &cls) == NULL,
		              "'%s' found", words[i]);
	/* only len bytes are read */
	ck_assert_ptr_nonnull(dllp_mnemonic_lookup("Ack seq=1", 3, &type, &cls));
}
END_TEST

/* The names of exports: every FC kind with every spelling of its class,
 * the other kinds and their export spellings, in any case and with any
 * punctuation; what the table says the name is. */
START_TEST(test_squeezed_lookup)
{
	static const struct {
		const char *kind;
		enum dllp_type type;
	} kinds[] = {
		{ "InitFC1", DLLP_INITFC1 },
		{ "initfc2", DLLP_INITFC2 },
		{ "Update FC", DLLP_UPDATEFC },
		{ "UPDFC", DLLP_UPDATEFC },
	};
	static const struct {
		const char *cls;
		enum fc_class c;
	} classes[] = {
		{ "-P", FC_P },          { "_posted", FC_P }, { "NP", FC_NP },
		{ " NonPosted", FC_NP }, { "-Cpl", FC_CPL },  { "Completion", FC_CPL },
		{ "CMPL", FC_CPL },
	};
	static const struct {
		const char *written, *name;
		enum dllp_type type;
	} others[] = {
		{ "ack", "Ack", DLLP_ACK },
		{ "NAK", "Nak", DLLP_NAK },
		{ "PM Enter L1", "PM_Enter_L1", DLLP_PM_ENTER_L1 },
		{ "pmenterl23", "PM_Enter_L23", DLLP_PM_ENTER_L23 },
		{ "PM_Active_State_Request_L1", "PM_Active_State_Request_L1",
		  DLLP_PM_AS_REQUEST_L1 },
		{ "PM_AS_Request_L1", "PM_AS_Request_L1", DLLP_PM_AS_REQUEST_L1 },
		{ "pm-request-ack", "PM_Request_Ack", DLLP_PM_REQUEST_ACK },
		{ "Nop", "NOP", DLLP_NOP },
		{ "FEATURE", "Feature", DLLP_FEATURE },
		{ "Data Link Feature", "Data_Link_Feature", DLLP_FEATURE },
		{ "vendor", "Vendor", DLLP_VENDOR },
		{ "Vendor-Specific", "Vendor_Specific", DLLP_VENDOR },
	};
	enum dllp_type type;
	enum fc_class cls;

	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		for (size_t c = 0; c < sizeof(classes) / sizeof(classes[0]); c++) {
			char w[64];
			const char *name;
			struct dllp d = { .type = kinds[k].type, .fc_class = classes[c].c };

			snprintf(w, sizeof(w), "%s%s", kinds[k].kind, classes[c].cls);
			type = DLLP_RESERVED;
			cls = FC_CLASS_COUNT;
			name = dllp_squeezed_lookup(w, strlen(w), &type, &cls);
			ck_assert_msg(name != NULL, "%s not found", w);
			ck_assert_int_eq(type, kinds[k].type);
			ck_assert_int_eq(cls, classes[c].c);
			ck_assert_str_eq(name, dllp_name(&d));
		}
	}
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		const char *name = dllp_squeezed_lookup(others[i].written,
		                                        strlen(others[i].written), &type, &cls);

		ck_assert_msg(name != NULL, "%s not found", others[i].written);
		ck_assert_str_eq(name, others[i].name);
		ck_assert_int_eq(type, others[i].type);
		ck_assert_int_eq(cls, FC_P);
	}
}
END_TEST

/* A bare FC kind, the opaque and reserved kinds, near misses, names too
 * long to be one, and words of no letter are not found; the text form's
 * lookup does not take the export spellings. */
START_TEST(test_squeezed_unknown)
{
	static const char *const words[] = {
		"",
		"-",
		"UpdateFC",
		"UpdFC",
		"InitFC1",
		"InitFC",
		"InitFC3-P",
		"UpdateFC-X",
		"UpdateFC-PP",
		"MRInit",
		"MRUpdateFC-P",
		"MRInitFC1",
		"Alt_Protocol_1",
		"Link_Management",
		"Reserved",
		"Acks",
		"Ac",
		"PM_Enter",
		"DLLP",
		"TLP",
		"MWr32",
		"UpdateFC-P (VC0)",
		"Vendor_Specific_Vendor_Specific_Vendor_Specific_Vendor",
	};
	enum dllp_type type;
	enum fc_class cls;

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		ck_assert_msg(dllp_squeezed_lookup(words[i], strlen(words[i]), &type, &cls) == NULL,
		              "'%s' found", words[i]);
	ck_assert_ptr_null(dllp_mnemonic_lookup("PM_AS_Request_L1", 16, &type, &cls));
	ck_assert_ptr_null(dllp_mnemonic_lookup("UpdFC-P", 7, &type, &cls));
	ck_assert_ptr_null(dllp_mnemonic_lookup("UpdateFC-Posted", 15, &type, &cls));
	/* only len bytes are read */
	ck_assert_ptr_nonnull(dllp_squeezed_lookup("Ack seq=1", 3, &type, &cls));
}
END_TEST

Suite *suite_dllp(void)
{
	Suite *s = suite_create("dllp");
	TCase *tc = tcase_create("vectors");

	tcase_add_test(tc, test_dllp_vectors);
	suite_add_tcase(s, tc);

	tc = tcase_create("crc16");
	tcase_add_test(tc, test_crc16_matches_bitwise);
	tcase_add_test(tc, test_crc16_published_ack);
	tcase_add_test(tc, test_crc16_single_bit_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("types");
	tcase_add_test(tc, test_type_byte_table);
	tcase_add_test(tc, test_every_type_byte_round_trips);
	tcase_add_test(tc, test_names_and_fallbacks);
	suite_add_tcase(s, tc);

	tc = tcase_create("mnemonics");
	tcase_add_test(tc, test_mnemonic_lookup);
	tcase_add_test(tc, test_mnemonic_unknown);
	tcase_add_test(tc, test_squeezed_lookup);
	tcase_add_test(tc, test_squeezed_unknown);
	suite_add_tcase(s, tc);

	tc = tcase_create("round_trip");
	tcase_add_test(tc, test_fc_round_trip);
	tcase_add_test(tc, test_other_kinds_round_trip);
	tcase_add_test(tc, test_acknak_all_sequence_numbers);
	suite_add_tcase(s, tc);

	tc = tcase_create("sizes");
	tcase_add_test(tc, test_wrong_sizes);
	tcase_add_test(tc, test_no_crc_form);
	suite_add_tcase(s, tc);
	return s;
}
