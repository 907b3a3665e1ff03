/* check_reader_text.c: the text trace reader (capture-format.md section 2).
 *
 * Inputs go through fmemopen(), so every byte (NULs included) reaches the
 * reader exactly as written here.  Symbolic packets are checked by
 * decoding the bytes the reader produced with dllp_decode()/tlp_decode():
 * the fields must come back as written and the CRC must be good.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/dllp.h"
#include "read/reader.h"
#include "core/record.h"
#include "suites.h"
#include "wire/tlp.h"

/* ------------------------------------------------------------------ */
/* Helpers */

/* A reader over len bytes of text; the FILE owns a copy of the bytes. */
static void *open_text(const char *text, size_t len)
{
	FILE *fp = fmemopen(NULL, len + 1, "w+");
	void *r;

	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
	rewind(fp);
	r = text_reader_new(fp, "t.trace");
	ck_assert_ptr_nonnull(r);
	return r;
}

static void *open_str(const char *text)
{
	return open_text(text, strlen(text));
}

static enum reader_result next(void *r, struct record *rec,
			       struct reader_malformed *bad)
{
	memset(bad, 0, sizeof(*bad));
	return text_reader_ops.next(r, rec, bad);
}

static void expect_record(void *r, struct record *rec)
{
	struct reader_malformed bad;
	enum reader_result res = next(r, rec, &bad);

	ck_assert_msg(res == READER_RECORD, "result %d, column %u: %s", res,
		      bad.column, bad.reason);
}

static void expect_malformed(void *r, unsigned column, const char *reason,
			     struct reader_malformed *bad)
{
	struct record rec;
	enum reader_result res = next(r, &rec, bad);

	ck_assert_msg(res == READER_MALFORMED, "result %d, not malformed", res);
	ck_assert_msg(strstr(bad->reason, reason) != NULL,
		      "reason '%s' lacks '%s'", bad->reason, reason);
	ck_assert_uint_eq(bad->column, column);
	ck_assert_str_eq(bad->pos.file, "t.trace");
}

static void expect_eof(void *r)
{
	struct record rec;
	struct reader_malformed bad;

	ck_assert_int_eq(next(r, &rec, &bad), READER_EOF);
}

/* One record and its bytes, kept after the reader is closed. */
struct one {
	struct record rec;
	uint8_t bytes[TLP_MAX_RECORD_LEN];
};

/* Reads the only record of a one-line input. */
static void read_one(const char *line, struct one *out)
{
	void *r = open_str(line);

	expect_record(r, &out->rec);
	ck_assert_uint_le(out->rec.len, sizeof(out->bytes));
	memcpy(out->bytes, out->rec.bytes, out->rec.len);
	out->rec.bytes = out->bytes;
	expect_eof(r);
	text_reader_ops.close(r);
}

static void decode_dllp_of(const char *line, struct one *o, struct dllp *d)
{
	read_one(line, o);
	ck_assert_int_eq(o->rec.kind, REC_DLLP);
	ck_assert_int_eq(dllp_decode(o->rec.bytes, o->rec.len,
				     !(o->rec.flags & REC_F_NO_CRC), d),
			 DLLP_DECODE_OK);
}

static void decode_tlp_of(const char *line, struct one *o, struct tlp *t)
{
	read_one(line, o);
	ck_assert_int_eq(o->rec.kind, REC_TLP);
	tlp_decode(o->rec.bytes, o->rec.len, o->rec.wire_len,
		   !(o->rec.flags & REC_F_NO_SEQ),
		   !(o->rec.flags & REC_F_NO_CRC), t);
}

/* ------------------------------------------------------------------ */
/* Symbolic DLLPs */

static const struct {
	const char *name;
	enum dllp_type type;
	enum fc_class cls;
} fc_names[] = {
	{ "InitFC1-P", DLLP_INITFC1, FC_P }, { "InitFC1-NP", DLLP_INITFC1, FC_NP },
	{ "InitFC1-Cpl", DLLP_INITFC1, FC_CPL }, { "InitFC2-P", DLLP_INITFC2, FC_P },
	{ "InitFC2-NP", DLLP_INITFC2, FC_NP }, { "InitFC2-Cpl", DLLP_INITFC2, FC_CPL },
	{ "UpdateFC-P", DLLP_UPDATEFC, FC_P }, { "UpdateFC-NP", DLLP_UPDATEFC, FC_NP },
	{ "UpdateFC-Cpl", DLLP_UPDATEFC, FC_CPL },
};

/* Each FC mnemonic encodes its type, class and every field, CRC good. */
START_TEST(test_dllp_fc_mnemonics)
{
	char line[160];
	struct one o;
	struct dllp d;

	snprintf(line, sizeof(line),
		 "10ns down %s vc=%d hdr=%d data=%d hdrscale=%d datascale=%d\n",
		 fc_names[_i].name, _i % 8, 200 + _i, 4000 + _i, _i % 4, 3 - _i % 4);
	decode_dllp_of(line, &o, &d);
	ck_assert_int_eq(d.type, fc_names[_i].type);
	ck_assert_int_eq(d.fc_class, fc_names[_i].cls);
	ck_assert_uint_eq(d.vc, (unsigned)_i % 8);
	ck_assert_uint_eq(d.hdr_fc, 200u + (unsigned)_i);
	ck_assert_uint_eq(d.data_fc, 4000u + (unsigned)_i);
	ck_assert_uint_eq(d.hdr_scale, (unsigned)_i % 4);
	ck_assert_uint_eq(d.data_scale, 3u - (unsigned)_i % 4);
	ck_assert_int_eq(d.crc, CRC_GOOD);
	ck_assert_uint_eq(o.rec.len, 6);
	ck_assert_uint_eq(o.rec.wire_len, 6);
	ck_assert_uint_eq(o.rec.flags, 0);
	ck_assert_uint_eq(o.rec.time_ps, 10000);
	ck_assert_int_eq(o.rec.dir, DIR_DOWN);
}
END_TEST

/* The scales are optional and default to 0 (scaling not active). */
START_TEST(test_dllp_fc_default_scales)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 up InitFC1-P vc=0 hdr=1 data=64", &o, &d);
	/* The same bytes as dllp_vectors.txt "40004040E65B". */
	ck_assert_mem_eq(o.bytes, "\x40\x00\x40\x40\xE6\x5B", 6);
	ck_assert_uint_eq(d.hdr_scale, 0);
	ck_assert_uint_eq(d.data_scale, 0);
	ck_assert_int_eq(o.rec.dir, DIR_UP);
}
END_TEST

/* Ack and Nak carry their sequence number. */
START_TEST(test_dllp_acknak)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("1 down Ack seq=0xFFF", &o, &d);
	ck_assert_int_eq(d.type, DLLP_ACK);
	ck_assert_uint_eq(d.acknak_seq, 0xFFF);
	ck_assert_int_eq(d.crc, CRC_GOOD);
	decode_dllp_of("1 down Nak seq=2047", &o, &d);
	ck_assert_int_eq(d.type, DLLP_NAK);
	ck_assert_uint_eq(d.acknak_seq, 2047);
	ck_assert_int_eq(d.crc, CRC_GOOD);
}
END_TEST

/* The PM DLLPs and NOP take no keys and decode to their type. */
START_TEST(test_dllp_pm_nop)
{
	static const struct {
		const char *line;
		enum dllp_type type;
	} cases[] = {
		{ "0 down PM_Enter_L1", DLLP_PM_ENTER_L1 },
		{ "0 down PM_Enter_L23", DLLP_PM_ENTER_L23 },
		{ "0 down PM_Active_State_Request_L1", DLLP_PM_AS_REQUEST_L1 },
		{ "0 down PM_Request_Ack", DLLP_PM_REQUEST_ACK },
		{ "0 down NOP", DLLP_NOP },
	};
	struct one o;
	struct dllp d;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		decode_dllp_of(cases[i].line, &o, &d);
		ck_assert_int_eq(d.type, cases[i].type);
		ck_assert_int_eq(d.crc, CRC_GOOD);
	}
}
END_TEST

/* Feature takes ack and hex bits (also under its dllp_name()). */
START_TEST(test_dllp_feature)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 down Feature ack=1 bits=1", &o, &d);
	ck_assert_mem_eq(o.bytes, "\x02\x80\x00\x01\x31\x56", 6);
	ck_assert_int_eq(d.type, DLLP_FEATURE);
	ck_assert(d.feature_ack);
	ck_assert_uint_eq(d.feature_support, 1);
	decode_dllp_of("0 down Data_Link_Feature bits=0x7FFFFF ack=0", &o, &d);
	ck_assert(!d.feature_ack);
	ck_assert_uint_eq(d.feature_support, 0x7FFFFF);
	ck_assert_int_eq(d.crc, CRC_GOOD);
}
END_TEST

/* Vendor takes 24 bits of hex data. */
START_TEST(test_dllp_vendor)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 down Vendor data=ABCDEF", &o, &d);
	ck_assert_mem_eq(o.bytes, "\x30\xAB\xCD\xEF\x8A\xE2", 6);
	ck_assert_int_eq(d.type, DLLP_VENDOR);
	ck_assert_uint_eq(d.content, 0xABCDEF);
	ck_assert_int_eq(d.crc, CRC_GOOD);
}
END_TEST

/* Mnemonics, keys and keywords ignore case; '_' and '-' are the same. */
START_TEST(test_dllp_mnemonic_spelling)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 DOWN initfc1_np VC=1 Hdr=2 DATA=3", &o, &d);
	ck_assert_int_eq(d.type, DLLP_INITFC1);
	ck_assert_int_eq(d.fc_class, FC_NP);
	ck_assert_uint_eq(d.vc, 1);
	decode_dllp_of("0 down UPDATEFC_CPL vc=7 hdr=0 data=0", &o, &d);
	ck_assert_int_eq(d.type, DLLP_UPDATEFC);
	ck_assert_int_eq(d.fc_class, FC_CPL);
	decode_dllp_of("0 down pm-enter-l1", &o, &d);
	ck_assert_int_eq(d.type, DLLP_PM_ENTER_L1);
	decode_dllp_of("0 down nop", &o, &d);
	ck_assert_int_eq(d.type, DLLP_NOP);
}
END_TEST

/* Keys come in any order; numbers may be 0x hex. */
START_TEST(test_dllp_key_order)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 down InitFC2-P data=0x10 datascale=2 hdr=0x20 vc=3", &o, &d);
	ck_assert_uint_eq(d.vc, 3);
	ck_assert_uint_eq(d.hdr_fc, 0x20);
	ck_assert_uint_eq(d.data_fc, 0x10);
	ck_assert_uint_eq(d.data_scale, 2);
	ck_assert_int_eq(d.crc, CRC_GOOD);
}
END_TEST

/* crc= forces the CRC field (byte4 << 8 | byte5): decode says CRC_BAD. */
START_TEST(test_dllp_forced_crc)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 down Ack seq=5 crc=0xBEEF", &o, &d);
	ck_assert_uint_eq(o.bytes[4], 0xBE);
	ck_assert_uint_eq(o.bytes[5], 0xEF);
	ck_assert_int_eq(d.crc, CRC_BAD);
	ck_assert_uint_eq(d.crc_field, 0xBEEF);
	ck_assert_uint_eq(d.acknak_seq, 5);
	decode_dllp_of("0 down NOP crc=1", &o, &d);
	ck_assert_int_eq(d.crc, CRC_BAD);
	ck_assert_uint_eq(d.crc_field, 1);
}
END_TEST

/* nocrc on a symbolic DLLP gives the 4-byte form with NO_CRC. */
START_TEST(test_dllp_symbolic_nocrc)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 down Ack seq=9 nocrc", &o, &d);
	ck_assert_uint_eq(o.rec.len, 4);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_CRC);
	ck_assert_int_eq(d.crc, CRC_ABSENT);
	ck_assert_uint_eq(d.acknak_seq, 9);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Hex forms */

/* A 6-byte hex DLLP, with spaces and underscores between digits. */
START_TEST(test_dllp_hex)
{
	static const char *const lines[] = {
		"0 down DLLP 40004040E65B",
		"0 down DLLP 40 00 40 40 E6 5B",
		"0 down DLLP 4000_4040_e65b",
		"0 down dllp 4 0004040E6 5B",
	};
	struct one o;
	struct dllp d;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		decode_dllp_of(lines[i], &o, &d);
		ck_assert_uint_eq(o.rec.len, 6);
		ck_assert_uint_eq(o.rec.flags, 0);
		ck_assert_mem_eq(o.bytes, "\x40\x00\x40\x40\xE6\x5B", 6);
		ck_assert_int_eq(d.type, DLLP_INITFC1);
		ck_assert_int_eq(d.crc, CRC_GOOD);
	}
}
END_TEST

/* A 4-byte hex DLLP has no CRC: flag NO_CRC, decode CRC_ABSENT. */
START_TEST(test_dllp_hex_4byte)
{
	struct one o;
	struct dllp d;

	decode_dllp_of("0 down DLLP 00000123", &o, &d);
	ck_assert_uint_eq(o.rec.len, 4);
	ck_assert_uint_eq(o.rec.wire_len, 4);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_CRC);
	ck_assert_int_eq(d.type, DLLP_ACK);
	ck_assert_uint_eq(d.acknak_seq, 0x123);
	ck_assert_int_eq(d.crc, CRC_ABSENT);
}
END_TEST

/* The first tlp_vectors.txt line, as hex: decodes clean. */
#define VEC_MWR32 "0000400000010100000FF7D00000123456781EACCFE5"

START_TEST(test_tlp_hex)
{
	struct one o;
	struct tlp t;

	decode_tlp_of("5ns up TLP " VEC_MWR32, &o, &t);
	ck_assert_uint_eq(o.rec.len, 22);
	ck_assert_uint_eq(o.rec.flags, 0);
	ck_assert_int_eq(t.status, TLP_OK);
	ck_assert_int_eq(t.kind, TLP_MWR);
	ck_assert_int_eq(t.lcrc, CRC_GOOD);
	decode_tlp_of("5ns up TLP 0000_40000001 0100000F F7D00000 12345678 1EACCFE5", &o, &t);
	ck_assert_uint_eq(o.rec.len, 22);
	ck_assert_int_eq(t.lcrc, CRC_GOOD);
}
END_TEST

/* nocrc / noseq before hex TLP bytes set NO_CRC / NO_SEQ. */
START_TEST(test_tlp_hex_nocrc_noseq)
{
	struct one o;
	struct tlp t;

	decode_tlp_of("0 down TLP nocrc 0000400000010100000FF7D0000012345678", &o, &t);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_CRC);
	ck_assert_uint_eq(o.rec.len, 18);
	ck_assert_int_eq(t.lcrc, CRC_ABSENT);
	ck_assert_int_eq(t.status, TLP_OK);
	decode_tlp_of("0 down TLP noseq nocrc 400000010100000FF7D0000012345678", &o, &t);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_CRC | REC_F_NO_SEQ);
	ck_assert_uint_eq(o.rec.len, 16);
	ck_assert(!t.has_seq);
	ck_assert_int_eq(t.kind, TLP_MWR);
	decode_tlp_of("0 down TLP NOSEQ 400000010100000FF7D00000123456781EACCFE5", &o, &t);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_SEQ);
	ck_assert_uint_eq(o.rec.len, 20);
}
END_TEST

/* Builds a line of hex for n bytes. */
static char *hex_tlp_line(size_t n)
{
	static const char head[] = "0 down TLP ";
	char *line = malloc(sizeof(head) + 2 * n + 1);

	ck_assert_ptr_nonnull(line);
	memcpy(line, head, sizeof(head) - 1);
	memset(line + sizeof(head) - 1, 'a', 2 * n);
	line[sizeof(head) - 1 + 2 * n] = '\n';
	line[sizeof(head) + 2 * n] = '\0';
	return line;
}

/* Hex TLP bytes up to TLP_MAX_RECORD_LEN are kept; one more is malformed. */
START_TEST(test_tlp_hex_max_len)
{
	char *ok = hex_tlp_line(TLP_MAX_RECORD_LEN);
	char *big = hex_tlp_line(TLP_MAX_RECORD_LEN + 1);
	char reason[80];
	struct reader_malformed bad;
	struct one o;
	void *r;

	read_one(ok, &o);
	ck_assert_uint_eq(o.rec.len, TLP_MAX_RECORD_LEN);
	ck_assert_uint_eq(o.bytes[TLP_MAX_RECORD_LEN - 1], 0xAA);
	r = open_str(big);
	snprintf(reason, sizeof(reason), "hex byte count %u: a TLP record is at most %u bytes",
		 TLP_MAX_RECORD_LEN + 1, TLP_MAX_RECORD_LEN);
	expect_malformed(r, 12, reason, &bad);
	expect_eof(r);
	text_reader_ops.close(r);
	free(ok);
	free(big);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Symbolic TLPs */

static const struct {
	const char *name;
	enum tlp_kind kind;
	bool addr64;
	unsigned len;          /* a legal Length for the kind */
} tlp_names[] = {
	{ "MRd32", TLP_MRD, false, 16 },      { "MRd64", TLP_MRD, true, 1 },
	{ "MRdLk32", TLP_MRDLK, false, 1 },   { "MRdLk64", TLP_MRDLK, true, 2 },
	{ "MWr32", TLP_MWR, false, 1 },       { "MWr64", TLP_MWR, true, 1024 },
	{ "IORd", TLP_IORD, false, 1 },       { "IOWr", TLP_IOWR, false, 1 },
	{ "CfgRd0", TLP_CFGRD0, false, 1 },   { "CfgWr0", TLP_CFGWR0, false, 1 },
	{ "CfgRd1", TLP_CFGRD1, false, 1 },   { "CfgWr1", TLP_CFGWR1, false, 1 },
	{ "Msg", TLP_MSG, true, 1 },          { "MsgD", TLP_MSGD, true, 1 },
	{ "Cpl", TLP_CPL, false, 1 },         { "CplD", TLP_CPLD, false, 16 },
	{ "CplLk", TLP_CPLLK, false, 1 },     { "CplDLk", TLP_CPLDLK, false, 1 },
	{ "FetchAdd32", TLP_FETCHADD, false, 1 }, { "FetchAdd64", TLP_FETCHADD, true, 2 },
	{ "Swap32", TLP_SWAP, false, 1 },     { "Swap64", TLP_SWAP, true, 2 },
	{ "CAS32", TLP_CAS, false, 2 },       { "CAS64", TLP_CAS, true, 4 },
};

/* Each TLP mnemonic encodes a clean TLP of its kind, seq and header size. */
START_TEST(test_tlp_mnemonics)
{
	char line[120];
	struct one o;
	struct tlp t;

	snprintf(line, sizeof(line), "1.5us up TLP %s seq=%d len=%u\n",
		 tlp_names[_i].name, 100 + _i, tlp_names[_i].len);
	decode_tlp_of(line, &o, &t);
	ck_assert_msg(t.status == TLP_OK, "%s: %s", tlp_names[_i].name,
		      tlp_status_text(t.status));
	ck_assert_int_eq(t.kind, tlp_names[_i].kind);
	ck_assert_uint_eq(t.hdr_dw, tlp_names[_i].addr64 ? 4 : 3);
	ck_assert(t.has_seq);
	ck_assert_uint_eq(t.seq, 100u + (unsigned)_i);
	ck_assert_int_eq(t.lcrc, CRC_GOOD);
	if (t.has_data)
		ck_assert_uint_eq(t.payload_dw, tlp_names[_i].len);
	ck_assert_uint_eq(o.rec.flags, 0);
	ck_assert_uint_eq(o.rec.time_ps, 1500000);
}
END_TEST

/* tc and td go into the header; td adds the ECRC DW. */
START_TEST(test_tlp_tc_td)
{
	struct one o, o0;
	struct tlp t;

	decode_tlp_of("0 down TLP MWr32 seq=1 len=4 tc=5 td=1", &o, &t);
	ck_assert_int_eq(t.status, TLP_OK);
	ck_assert_uint_eq(t.tc, 5);
	ck_assert(t.td);
	ck_assert_int_eq(t.lcrc, CRC_GOOD);
	decode_tlp_of("0 down TLP MWr32 seq=1 len=4 tc=5", &o0, &t);
	ck_assert(!t.td);
	ck_assert_uint_eq(o.rec.len, o0.rec.len + 4);
}
END_TEST

/* Symbolic nocrc/noseq, before or after the mnemonic, drop those parts. */
START_TEST(test_tlp_symbolic_nocrc_noseq)
{
	struct one o;
	struct tlp t;

	decode_tlp_of("0 down TLP nocrc MWr32 seq=3 len=1", &o, &t);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_CRC);
	ck_assert_uint_eq(o.rec.len, 2 + 12 + 4);
	ck_assert_int_eq(t.lcrc, CRC_ABSENT);
	ck_assert_uint_eq(t.seq, 3);
	decode_tlp_of("0 down TLP MWr32 len=1 noseq", &o, &t);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_SEQ);
	ck_assert_uint_eq(o.rec.len, 12 + 4 + 4);
	ck_assert(!t.has_seq);
	ck_assert_int_eq(t.status, TLP_OK);
	decode_tlp_of("0 down TLP noseq MWr32 len=1 nocrc", &o, &t);
	ck_assert_uint_eq(o.rec.flags, REC_F_NO_SEQ | REC_F_NO_CRC);
	ck_assert_uint_eq(o.rec.len, 16);
}
END_TEST

/* lcrc= forces the LCRC field (big-endian): decode says CRC_BAD. */
START_TEST(test_tlp_forced_lcrc)
{
	struct one o;
	struct tlp t;

	decode_tlp_of("0 down TLP MRd32 seq=7 len=1 lcrc=DEADBEEF", &o, &t);
	ck_assert_mem_eq(o.bytes + o.rec.len - 4, "\xDE\xAD\xBE\xEF", 4);
	ck_assert_int_eq(t.lcrc, CRC_BAD);
	ck_assert_uint_eq(t.lcrc_field, 0xDEADBEEF);
}
END_TEST

/* nullified sends the LCRC inverted: decode says CRC_NULLIFIED. */
START_TEST(test_tlp_nullified)
{
	struct one o;
	struct tlp t;

	decode_tlp_of("0 down TLP MWr64 seq=4095 len=8 nullified", &o, &t);
	ck_assert_int_eq(t.lcrc, CRC_NULLIFIED);
	ck_assert_uint_eq(t.lcrc_field, ~t.lcrc_expected);
	ck_assert_uint_eq(t.seq, 4095);
}
END_TEST

/* Cpl, CplLk and Msg carry no data: len may be left out. */
START_TEST(test_tlp_len_optional)
{
	static const char *const lines[] = {
		"0 up TLP Cpl seq=0", "0 up TLP CplLk seq=0", "0 up TLP Msg seq=0",
	};
	struct one o;
	struct tlp t;

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		decode_tlp_of(lines[i], &o, &t);
		ck_assert_int_eq(t.status, TLP_OK);
		ck_assert(!t.has_data);
		ck_assert_int_eq(t.lcrc, CRC_GOOD);
	}
}
END_TEST

/* The TLP mnemonic is case-insensitive and link= may be a key. */
START_TEST(test_tlp_spelling_and_link_key)
{
	struct one o;
	struct tlp t;

	decode_tlp_of("0 down TLP cpld seq=1 len=1 link=9", &o, &t);
	ck_assert_int_eq(t.kind, TLP_CPLD);
	ck_assert_uint_eq(o.rec.link, 9);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Events */

/* Every event name gives {code, 0, 0, 0}; names fold like mnemonics. */
START_TEST(test_events)
{
	static const struct {
		const char *line;
		uint8_t code;
	} cases[] = {
		{ "0 down EVENT link-up", EV_LINK_UP },
		{ "0 down EVENT link-down", EV_LINK_DOWN },
		{ "0 down EVENT hot-reset", EV_HOT_RESET },
		{ "0 down EVENT recovery", EV_RECOVERY },
		{ "0 up event port-reset", EV_PORT_RESET },
		{ "0 down EVENT LINK_UP", EV_LINK_UP },
	};
	struct one o;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t want[4] = { cases[i].code, 0, 0, 0 };

		read_one(cases[i].line, &o);
		ck_assert_int_eq(o.rec.kind, REC_EVENT);
		ck_assert_uint_eq(o.rec.len, 4);
		ck_assert_mem_eq(o.bytes, want, 4);
	}
}
END_TEST

/* vc-enable carries its VC as the argument byte. */
START_TEST(test_event_vc_enable)
{
	struct one o;

	read_one("3 ns up EVENT vc-enable vc=3", &o);
	ck_assert_mem_eq(o.bytes, "\x06\x03\x00\x00", 4);
	ck_assert_uint_eq(o.rec.time_ps, 3000);
	ck_assert_int_eq(o.rec.dir, DIR_UP);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Time, link */

static const struct {
	const char *time;
	uint64_t ps;
} times[] = {
	{ "0", 0 },
	{ "10", 10000 },                      /* no unit: ns */
	{ "10ns", 10000 },
	{ "10 ns", 10000 },
	{ "1.5us", 1500000 },
	{ "1.5 us", 1500000 },
	{ "2 ms", 2000000000 },
	{ "2ms", 2000000000 },
	{ "7ps", 7 },
	{ "1s", 1000000000000 },
	{ "0.001", 1 },
	{ "0.000000000001s", 1 },
	{ "1.000000000001s", 1000000000001 },
	{ "1.0ps", 1 },                       /* zeros past 1 ps are exact */
	{ "2.50000ns", 2500 },
	{ "007ns", 7000 },
	{ "9223372036854775807ps", INT64_MAX },
	{ "9223372.036854775807s", INT64_MAX },
	{ "9223372036854775.807ns", INT64_MAX },
};

/* Times convert to picoseconds exactly, with or without a unit. */
START_TEST(test_time_units)
{
	char line[80];
	struct one o;

	snprintf(line, sizeof(line), "%s down NOP", times[_i].time);
	read_one(line, &o);
	ck_assert_msg(o.rec.time_ps == times[_i].ps, "%s: %llu ps", times[_i].time,
		      (unsigned long long)o.rec.time_ps);
}
END_TEST

/* link=N sets the link; it defaults to 0 and goes up to 255. */
START_TEST(test_link)
{
	struct one o;

	read_one("0 down NOP", &o);
	ck_assert_uint_eq(o.rec.link, 0);
	read_one("0 down link=255 NOP", &o);
	ck_assert_uint_eq(o.rec.link, 255);
	read_one("0 down link=0x11 DLLP 31000000FB32", &o);
	ck_assert_uint_eq(o.rec.link, 17);
	read_one("0 down Ack seq=1 link=4", &o);
	ck_assert_uint_eq(o.rec.link, 4);
	read_one("0 down EVENT link-up link=3", &o);
	ck_assert_uint_eq(o.rec.link, 3);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Lines and positions */

/* Comments, blank lines and CRLF are skipped; positions count only the
 * records but name the real line and byte offset. */
START_TEST(test_positions)
{
	static const char text[] =
		"# header comment\n"              /* line 1, offset 0 */
		"\n"                              /* line 2, offset 17 */
		"0 down EVENT link-up\r\n"        /* line 3, offset 18: record 1 */
		"   \t  # indented comment\r\n"   /* line 4, offset 40 */
		"  \r\n"                          /* line 5, offset 66 */
		"10ns up NOP # trailing\n"        /* line 6, offset 70: record 2 */
		"bogus\n"                         /* line 7, offset 93: record 3 */
		"#\n"                             /* line 8, offset 99 */
		"20ns down Ack seq=1";            /* line 9, offset 101: record 4, no newline */
	struct record rec;
	struct reader_malformed bad;
	void *r = open_str(text);

	expect_record(r, &rec);
	ck_assert_int_eq(rec.kind, REC_EVENT);
	ck_assert_uint_eq(rec.pos.record_no, 1);
	ck_assert_uint_eq(rec.pos.line, 3);
	ck_assert_uint_eq(rec.pos.byte_offset, 18);
	ck_assert_str_eq(rec.pos.file, "t.trace");
	expect_record(r, &rec);
	ck_assert_int_eq(rec.kind, REC_DLLP);
	ck_assert_uint_eq(rec.pos.record_no, 2);
	ck_assert_uint_eq(rec.pos.line, 6);
	ck_assert_uint_eq(rec.pos.byte_offset, 70);
	ck_assert_uint_eq(rec.time_ps, 10000);
	expect_malformed(r, 1, "time 'bogus'", &bad);
	ck_assert_uint_eq(bad.pos.record_no, 3);
	ck_assert_uint_eq(bad.pos.line, 7);
	ck_assert_uint_eq(bad.pos.byte_offset, 93);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.record_no, 4);
	ck_assert_uint_eq(rec.pos.line, 9);
	ck_assert_uint_eq(rec.pos.byte_offset, 101);
	ck_assert_uint_eq(rec.time_ps, 20000);
	expect_eof(r);
	expect_eof(r); /* EOF stays EOF */
	text_reader_ops.close(r);
}
END_TEST

/* An empty input and a comments-only input give EOF at once. */
START_TEST(test_empty)
{
	void *r = open_str("");

	expect_eof(r);
	text_reader_ops.close(r);
	r = open_str("# nothing\n\n   \n");
	expect_eof(r);
	text_reader_ops.close(r);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Malformed lines: each one is reported with its column and a precise
 * reason, and the next line (a NOP) is still read. */

static const struct {
	const char *line;
	unsigned column;
	const char *reason;
} bad_lines[] = {
	/* time */
	{ "12xs down NOP", 1, "time '12xs': unknown unit 'xs'" },
	{ "1.0001ps down NOP", 1, "time '1.0001ps': finer than 1 ps" },
	{ "0.0000000000001s down NOP", 1, "finer than 1 ps" },
	{ "9223372036854775808ps down NOP", 1, "over 2^63-1 ps" },
	{ "18446744073709551616ps down NOP", 1, "over 2^63-1 ps" },
	{ "9223373s down NOP", 1, "over 2^63-1 ps" },
	{ "99999999999999999999999999 down NOP", 1, "over 2^63-1 ps" },
	{ "-1 down NOP", 1, "time '-1': not a non-negative decimal number" },
	{ ".5 down NOP", 1, "not a non-negative decimal number" },
	{ "1. down NOP", 1, "time '1.': no digits after '.'" },
	{ "0x10 down NOP", 1, "unknown unit 'x10'" },
	{ "10NS down NOP", 1, "unknown unit 'NS'" },
	/* direction, link, kind */
	{ "10", 3, "missing direction" },
	{ "10 ns", 6, "missing direction" },
	{ "10 sideways NOP", 4, "expected direction 'down' or 'up', got 'sideways'" },
	{ "10 xs NOP", 4, "got 'xs'" },
	{ "10 down", 8, "missing record kind" },
	{ "10 down link=256 NOP", 9, "link=256 out of range 0..255" },
	{ "10 down link= NOP", 9, "missing value for 'link'" },
	{ "10 down link=1", 15, "missing record kind" },
	{ "10 down link=1 link=2 NOP", 16, "duplicate key 'link'" },
	{ "10 down link=1 NOP link=2", 20, "duplicate key 'link'" },
	{ "10 down InitFC3-P vc=0 hdr=1 data=1", 9, "unknown DLLP mnemonic 'InitFC3-P'" },
	{ "10 down TPL MWr32", 9, "unknown DLLP mnemonic 'TPL'" },
	/* printed names that are no mnemonic of the text form (wire/dllp.c) */
	{ "10 down Vendor_Specific data=1", 9, "unknown DLLP mnemonic 'Vendor_Specific'" },
	{ "10 down UpdateFC vc=0 hdr=1 data=1", 9, "unknown DLLP mnemonic 'UpdateFC'" },
	{ "10 down MRInit", 9, "unknown DLLP mnemonic 'MRInit'" },
	{ "10 down Reserved", 9, "unknown DLLP mnemonic 'Reserved'" },
	{ "10 down Data_Link_Feature ack=1", 9, "missing key 'bits' for Data_Link_Feature" },
	{ "10 down feature ack=1", 9, "missing key 'bits' for Feature" },
	/* symbolic DLLP keys */
	{ "10 down InitFC1-P vc=0 hdr=1", 9, "missing key 'data' for InitFC1-P" },
	{ "10 down InitFC1-P hdr=1 data=1", 9, "missing key 'vc' for InitFC1-P" },
	{ "10 down InitFC1-P vc=8 hdr=1 data=1", 19, "vc=8 out of range 0..7" },
	{ "10 down InitFC1-P vc=0 hdr=256 data=1", 24, "hdr=256 out of range 0..255" },
	{ "10 down InitFC1-P vc=0 hdr=1 data=4096", 30, "data=4096 out of range 0..4095" },
	{ "10 down InitFC1-P vc=0 hdr=1 data=1 hdrscale=4", 37, "hdrscale=4 out of range 0..3" },
	{ "10 down InitFC1-P vc=0 hdr=1 data=1 datascale=0x4", 37, "datascale=0x4 out of range" },
	{ "10 down InitFC1-P vc=0 vc=1 hdr=1 data=1", 24, "duplicate key 'vc'" },
	{ "10 down InitFC1-P vc=0 hdr=1 data=1 hdrscale", 37, "unexpected 'hdrscale' after InitFC1-P" },
	{ "10 down InitFC1-P vc=0 hdr=1 data=1 seq=1", 37, "unknown key 'seq' for InitFC1-P" },
	{ "10 down Ack seq=1 foo=2", 19, "unknown key 'foo' for Ack" },
	{ "10 down Ack", 9, "missing key 'seq' for Ack" },
	{ "10 down Ack seq=4096", 13, "seq=4096 out of range 0..4095" },
	{ "10 down Ack seq=abc", 13, "seq='abc': not a decimal or 0x hex number" },
	{ "10 down Ack seq=-1", 13, "not a decimal or 0x hex number" },
	{ "10 down Ack seq=0x", 13, "not a decimal or 0x hex number" },
	{ "10 down Ack seq=99999999999999999999999", 13, "out of range 0..4095" },
	{ "10 down Ack seq=1 nullified", 19, "unexpected 'nullified' after Ack" },
	{ "10 down NOP extra", 13, "unexpected 'extra' after NOP" },
	{ "10 down NOP vc=1", 13, "unknown key 'vc' for NOP" },
	{ "10 down NOP crc=10000", 13, "crc=10000 out of range 0x0..0xffff" },
	{ "10 down NOP crc=1 nocrc", 19, "'crc=' and 'nocrc' cannot be used together" },
	{ "10 down NOP nocrc nocrc", 19, "duplicate 'nocrc'" },
	{ "10 down Feature ack=2 bits=1", 17, "ack=2 out of range 0..1" },
	{ "10 down Feature ack=1", 9, "missing key 'bits' for Feature" },
	{ "10 down Feature ack=1 bits=800000", 23, "bits=800000 out of range 0x0..0x7fffff" },
	{ "10 down Vendor data=1000000", 16, "data=1000000 out of range 0x0..0xffffff" },
	{ "10 down Vendor data=xyz", 16, "data='xyz': not a hex number" },
	/* hex DLLP */
	{ "10 down DLLP 00 00 00 00 00", 14, "hex byte count 5: a DLLP is 6 bytes (or 4 without CRC)" },
	{ "10 down DLLP 00000000000000", 14, "hex byte count 7" },
	{ "10 down DLLP 0000000000000", 14, "odd number of hex digits (13)" },
	{ "10 down DLLP 00 0g 00 00 00 00", 18, "bad hex digit 'g' in DLLP bytes" },
	{ "10 down DLLP", 13, "missing DLLP bytes" },
	/* TLP */
	{ "10 down TLP", 12, "missing TLP bytes or mnemonic" },
	{ "10 down TLP nocrc", 18, "missing TLP bytes or mnemonic" },
	{ "10 down TLP MWr33 seq=0 len=1", 13, "unknown TLP mnemonic 'MWr33'" },
	{ "10 down TLP MWr32 len=1", 13, "missing key 'seq' for MWr32" },
	{ "10 down TLP MWr32 seq=0", 13, "missing key 'len' for MWr32" },
	{ "10 down TLP MRd32 seq=0", 13, "missing key 'len' for MRd32" },
	{ "10 down TLP CplD seq=0", 13, "missing key 'len' for CplD" },
	{ "10 down TLP MRd32 seq=0 len=1025", 25, "len=1025 out of range 1..1024" },
	{ "10 down TLP MWr32 seq=0 len=0", 25, "len=0 out of range 1..1024" },
	{ "10 down TLP MWr32 seq=4096 len=1", 19, "seq=4096 out of range 0..4095" },
	{ "10 down TLP MWr32 seq=0 len=1 tc=8", 31, "tc=8 out of range 0..7" },
	{ "10 down TLP MWr32 seq=0 len=1 td=2", 31, "td=2 out of range 0..1" },
	{ "10 down TLP MWr32 seq=0 len=1 ep=2", 31, "ep=2 out of range 0..1" },
	{ "10 down TLP MWr32 seq=0 len=1 crc=1", 31, "unknown key 'crc' for MWr32" },
	{ "10 down TLP MWr32 seq=0 len=1 lcrc=100000000", 31, "out of range 0x0..0xffffffff" },
	{ "10 down TLP noseq MWr32 seq=0 len=1", 25, "'seq=' and 'noseq' cannot be used together" },
	{ "10 down TLP MWr32 seq=0 len=1 nocrc lcrc=1", 37, "'lcrc=' and 'nocrc' cannot be used together" },
	{ "10 down TLP MWr32 seq=0 len=1 lcrc=1 nullified", 38, "'lcrc=' and 'nullified'" },
	{ "10 down TLP MWr32 seq=0 len=1 nullified nocrc", 41, "'nocrc' and 'nullified'" },
	{ "10 down TLP MWr32 seq=0 len=1 junk", 31, "unexpected 'junk' after MWr32" },
	{ "10 down TLP nocrc nocrc 00", 19, "duplicate 'nocrc'" },
	{ "10 down TLP nullified 0000", 13, "'nullified' needs a symbolic TLP" },
	{ "10 down TLP 00 0", 13, "odd number of hex digits (3)" },
	{ "10 down TLP 0000 zz", 18, "bad hex digit 'z' in TLP bytes" },
	{ "10 down TLP 0x0000", 14, "bad hex digit 'x' in TLP bytes" },
	/* EVENT */
	{ "10 down EVENT", 14, "missing event name" },
	{ "10 down EVENT link-sideways", 15, "unknown event 'link-sideways'" },
	{ "10 down EVENT vc-enable", 15, "missing key 'vc' for vc-enable" },
	{ "10 down EVENT vc-enable vc=0", 25, "vc=0 out of range 1..7" },
	{ "10 down EVENT vc-enable vc=8", 25, "vc=8 out of range 1..7" },
	{ "10 down EVENT link-up vc=1", 23, "unknown key 'vc' for link-up" },
	{ "10 down EVENT link-up extra", 23, "unexpected 'extra' after link-up" },
	/* garbage: non-printable bytes are quoted as \xNN */
	{ "\x01\x02\xff down NOP", 1, "time '\\x01\\x02\\xff'" },
	{ "10 down \x80\x81", 9, "unknown DLLP mnemonic '\\x80\\x81'" },
};

/* Each malformed line is reported with column and reason; reading goes on. */
START_TEST(test_malformed)
{
	char text[200];
	struct reader_malformed bad;
	struct record rec;
	void *r;

	snprintf(text, sizeof(text), "# a comment\n%s\n0 down NOP\n", bad_lines[_i].line);
	r = open_str(text);
	expect_malformed(r, bad_lines[_i].column, bad_lines[_i].reason, &bad);
	ck_assert_uint_eq(bad.pos.record_no, 1);
	ck_assert_uint_eq(bad.pos.line, 2);
	ck_assert_uint_eq(bad.pos.byte_offset, 12);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.record_no, 2);
	ck_assert_uint_eq(rec.pos.line, 3);
	ck_assert_int_eq(rec.kind, REC_DLLP);
	expect_eof(r);
	text_reader_ops.close(r);
}
END_TEST

/* A reason is bounded however long the offending token is. */
START_TEST(test_malformed_long_token)
{
	char text[400];
	struct reader_malformed bad;
	void *r;

	memset(text, 'Z', sizeof(text));
	memcpy(text, "0 down ", 7);
	text[sizeof(text) - 1] = '\0';
	r = open_str(text);
	expect_malformed(r, 8, "unknown DLLP mnemonic 'ZZZZ", &bad);
	ck_assert_ptr_nonnull(strstr(bad.reason, "...'"));
	expect_eof(r);
	text_reader_ops.close(r);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Hostile input */

/* A 1 MiB line is one malformed record; the line after it is read with
 * the right line number and byte offset. */
START_TEST(test_huge_line)
{
	size_t big = 1u << 20;
	static const char after[] = "\n5ns down NOP\n";
	char *text = malloc(big + sizeof(after));
	struct reader_malformed bad;
	struct record rec;
	void *r;

	ck_assert_ptr_nonnull(text);
	memset(text, '7', big);
	memcpy(text + big, after, sizeof(after));
	r = open_text(text, big + sizeof(after) - 1);
	expect_malformed(r, 65537, "line longer than 65536 bytes", &bad);
	ck_assert_uint_eq(bad.pos.record_no, 1);
	ck_assert_uint_eq(bad.pos.line, 1);
	ck_assert_uint_eq(bad.pos.byte_offset, 0);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.record_no, 2);
	ck_assert_uint_eq(rec.pos.line, 2);
	ck_assert_uint_eq(rec.pos.byte_offset, big + 1);
	ck_assert_uint_eq(rec.time_ps, 5000);
	expect_eof(r);
	text_reader_ops.close(r);
	free(text);
}
END_TEST

/* A line of exactly 65536 bytes is read; 65537 bytes is too long. */
START_TEST(test_line_limit)
{
	size_t max = 65536;
	char *text = malloc(2 * (max + 2));
	struct reader_malformed bad;
	struct record rec;
	void *r;

	ck_assert_ptr_nonnull(text);
	/* "0 down NOP #" padded with comment text to max bytes, then the
	 * same padded to max + 1 bytes. */
	memset(text, 'c', 2 * (max + 2));
	memcpy(text, "0 down NOP #", 12);
	text[max] = '\n';
	memcpy(text + max + 1, "0 down NOP #", 12);
	text[2 * max + 2] = '\n';
	r = open_text(text, 2 * max + 3);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.line, 1);
	expect_malformed(r, 65537, "line longer than 65536 bytes", &bad);
	ck_assert_uint_eq(bad.pos.line, 2);
	ck_assert_uint_eq(bad.pos.byte_offset, max + 1);
	expect_eof(r);
	text_reader_ops.close(r);
	free(text);
}
END_TEST

/* A NUL byte makes its line malformed (even inside a comment). */
START_TEST(test_nul_bytes)
{
	static const char text[] = "0 down\0 NOP\n# x\0y\n0 up NOP\n";
	struct reader_malformed bad;
	struct record rec;
	void *r = open_text(text, sizeof(text) - 1);

	expect_malformed(r, 7, "NUL byte in text line", &bad);
	ck_assert_uint_eq(bad.pos.line, 1);
	ck_assert_uint_eq(bad.pos.record_no, 1);
	expect_malformed(r, 4, "NUL byte in text line", &bad);
	ck_assert_uint_eq(bad.pos.line, 2);
	ck_assert_uint_eq(bad.pos.byte_offset, 12);
	expect_record(r, &rec);
	ck_assert_uint_eq(rec.pos.record_no, 3);
	ck_assert_int_eq(rec.dir, DIR_UP);
	expect_eof(r);
	text_reader_ops.close(r);
}
END_TEST

/* Pseudo-random binary bytes (1 MiB) give records or malformed lines,
 * never a crash, and every line is accounted for. */
START_TEST(test_binary_garbage)
{
	size_t size = 1u << 20;
	unsigned char *text = malloc(size);
	uint32_t x = 12345u + (uint32_t)_i;
	uint64_t lines = 0, last_record_no = 0;
	struct reader_malformed bad;
	struct record rec;
	enum reader_result res;
	void *r;

	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < size; i++) {
		x = x * 1103515245u + 12345u;
		text[i] = (unsigned char)(x >> 16);
		/* Variant 1: mostly printable, so parsing goes deeper. */
		if (_i == 1 && text[i] > 0x7e)
			text[i] = (unsigned char)" 0123456789abcdefdownup=TLPDLLP\n"[text[i] & 31];
		if (text[i] == '\n')
			lines++;
	}
	r = open_text((const char *)text, size);
	while ((res = next(r, &rec, &bad)) != READER_EOF) {
		const struct srcpos *pos = res == READER_RECORD ? &rec.pos : &bad.pos;

		ck_assert(res == READER_RECORD || res == READER_MALFORMED);
		ck_assert_uint_gt(pos->record_no, last_record_no);
		ck_assert_uint_le(pos->line, lines + 1);
		ck_assert_uint_lt(pos->byte_offset, size);
		ck_assert_uint_lt(strlen(bad.reason), sizeof(bad.reason));
		last_record_no = pos->record_no;
	}
	text_reader_ops.close(r);
	free(text);
}
END_TEST

/* A read error is fatal, names the file, and stays fatal. */
START_TEST(test_read_error)
{
	/* Reading a write-only stream fails with EBADF. */
	FILE *fp = fopen("/dev/null", "w");
	struct reader_malformed bad;
	struct record rec;
	void *r;

	ck_assert_ptr_nonnull(fp);
	r = text_reader_new(fp, "t.trace");
	ck_assert_ptr_nonnull(r);
	ck_assert_int_eq(next(r, &rec, &bad), READER_FATAL);
	ck_assert_ptr_nonnull(strstr(bad.reason, "t.trace"));
	ck_assert_ptr_nonnull(strstr(bad.reason, "read error"));
	ck_assert_int_eq(next(r, &rec, &bad), READER_FATAL);
	text_reader_ops.close(r);
}
END_TEST

/* The reader's ops name the format. */
START_TEST(test_ops)
{
	ck_assert_str_eq(text_reader_ops.format_name, "text");
	ck_assert_ptr_null(text_reader_new(NULL, "x"));
}
END_TEST

Suite *suite_reader_text(void)
{
	Suite *s = suite_create("reader_text");
	TCase *dllp = tcase_create("dllp");
	TCase *tlp = tcase_create("tlp");
	TCase *lines = tcase_create("lines");
	TCase *bad = tcase_create("malformed");
	TCase *hostile = tcase_create("hostile");

	tcase_add_loop_test(dllp, test_dllp_fc_mnemonics, 0,
			    sizeof(fc_names) / sizeof(fc_names[0]));
	tcase_add_test(dllp, test_dllp_fc_default_scales);
	tcase_add_test(dllp, test_dllp_acknak);
	tcase_add_test(dllp, test_dllp_pm_nop);
	tcase_add_test(dllp, test_dllp_feature);
	tcase_add_test(dllp, test_dllp_vendor);
	tcase_add_test(dllp, test_dllp_mnemonic_spelling);
	tcase_add_test(dllp, test_dllp_key_order);
	tcase_add_test(dllp, test_dllp_forced_crc);
	tcase_add_test(dllp, test_dllp_symbolic_nocrc);
	tcase_add_test(dllp, test_dllp_hex);
	tcase_add_test(dllp, test_dllp_hex_4byte);
	suite_add_tcase(s, dllp);

	tcase_add_test(tlp, test_tlp_hex);
	tcase_add_test(tlp, test_tlp_hex_nocrc_noseq);
	tcase_add_test(tlp, test_tlp_hex_max_len);
	tcase_add_loop_test(tlp, test_tlp_mnemonics, 0,
			    sizeof(tlp_names) / sizeof(tlp_names[0]));
	tcase_add_test(tlp, test_tlp_tc_td);
	tcase_add_test(tlp, test_tlp_symbolic_nocrc_noseq);
	tcase_add_test(tlp, test_tlp_forced_lcrc);
	tcase_add_test(tlp, test_tlp_nullified);
	tcase_add_test(tlp, test_tlp_len_optional);
	tcase_add_test(tlp, test_tlp_spelling_and_link_key);
	suite_add_tcase(s, tlp);

	tcase_add_test(lines, test_events);
	tcase_add_test(lines, test_event_vc_enable);
	tcase_add_loop_test(lines, test_time_units, 0,
			    sizeof(times) / sizeof(times[0]));
	tcase_add_test(lines, test_link);
	tcase_add_test(lines, test_positions);
	tcase_add_test(lines, test_empty);
	tcase_add_test(lines, test_ops);
	suite_add_tcase(s, lines);

	tcase_add_loop_test(bad, test_malformed, 0,
			    sizeof(bad_lines) / sizeof(bad_lines[0]));
	tcase_add_test(bad, test_malformed_long_token);
	suite_add_tcase(s, bad);

	tcase_add_test(hostile, test_huge_line);
	tcase_add_test(hostile, test_line_limit);
	tcase_add_test(hostile, test_nul_bytes);
	tcase_add_loop_test(hostile, test_binary_garbage, 0, 2);
	tcase_add_test(hostile, test_read_error);
	suite_add_tcase(s, hostile);
	return s;
}
