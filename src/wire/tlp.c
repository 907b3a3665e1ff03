/* tlp.c: decode and encode TLPs as the data link layer carries them, with
 * the LCRC-32, the ECRC and the flow-control cost of each TLP.
 * specification: spec-digest.md sections 3 (layout, LCRC, ECRC,
 * nullified TLPs) and 4 (header, Fmt/Type, credits, prefixes).
 *
 * A TLP record (framing stripped) [3.1]:
 *
 *   +0  rrrr ssss  ssss ssss   4 reserved bits + 12-bit sequence number
 *   +2  [prefix DW]...         byte 0 Fmt=100b, Type[4] 0 Local / 1 End-End
 *       header, 3 or 4 DW      DW0: Fmt[2:0] Type[4:0] | T9 TC[2:0] T8 Attr2 R TH |
 *                                   TD EP Attr[1:0] AT[1:0] Length[9:8] | Length[7:0]
 *       [payload]              Length DW when Fmt[1] (Length 0 = 1024 DW)
 *       [ECRC DW]              when TD
 *   -4  LCRC bits 31:24 .. 7:0
 *
 * The sequence field is absent with NO_SEQ and the LCRC with NO_CRC
 * (capture-format.md section 1).  Fields are read with shifts and masks.
 */
#include "wire/tlp.h"
#include "base/ascii.h"

#include <string.h>

#include "base/crc32.h" /* the register update of the LCRC and ECRC [3.2] */

#define SEQ_BYTES 2u
#define LCRC_BYTES 4u
#define DW_BYTES 4u
#define MAX_END_END_PREFIXES 4u /* [4.4] */

#define FMT_PREFIX 4u /* 100b [4.1] */
#define FMT_4DW 1u /* Fmt[0]: 4 DW header */
#define FMT_DATA 2u /* Fmt[1]: carries data */
#define PREFIX_END_END 0x10u /* Type[4] of a prefix [4.4] */
#define MSG_ROUTING_RESERVED 6u /* rrr 110b and 111b [4.2] */

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The complemented register goes out least significant byte first: that
 * is the spec's per-byte bit reversal with field bits 31:24 sent first,
 * folded into the reflected algorithm [3.2].  Returned as be32() reads
 * the 4 field bytes, so a computed LCRC compares with a captured one. */
static uint32_t crc32_field(uint32_t reg)
{
	uint32_t crc = ~reg;

	return (crc & 0xFFu) << 24 | (crc >> 8 & 0xFFu) << 16 | (crc >> 16 & 0xFFu) << 8 |
	       crc >> 24;
}

static void crc32_put(uint32_t reg, uint8_t out[4])
{
	put_be32(out, crc32_field(reg));
}

void tlp_lcrc_bytes(const uint8_t *p, size_t n, uint8_t out[4])
{
	crc32_put(crc32_update(0xFFFFFFFFu, p, n), out);
}

static bool is_prefix(uint8_t byte0)
{
	return byte0 >> 5 == FMT_PREFIX;
}

/* ECRC [3.3]: same CRC as the LCRC, over the End-End prefixes, the header
 * and the payload.  Local prefixes are left out, and the variant bits
 * (Type[0] = byte 0 bit 0, EP = byte 2 bit 6 of the header) count as 1 so
 * that a Type 1 -> Type 0 config conversion or poisoning on the way does
 * not break the digest. */
void tlp_ecrc_bytes(const uint8_t *tlp, size_t n, uint8_t out[4])
{
	uint32_t reg = 0xFFFFFFFFu;
	size_t pos = 0;

	while (pos + DW_BYTES <= n && is_prefix(tlp[pos])) {
		if (tlp[pos] & PREFIX_END_END)
			reg = crc32_update(reg, tlp + pos, DW_BYTES);
		pos += DW_BYTES;
	}
	if (n - pos >= DW_BYTES) {
		uint8_t dw0[4] = { (uint8_t)(tlp[pos] | 0x01u), tlp[pos + 1],
			           (uint8_t)(tlp[pos + 2] | 0x40u), tlp[pos + 3] };

		reg = crc32_update(reg, dw0, DW_BYTES);
		pos += DW_BYTES;
	}
	crc32_put(crc32_update(reg, tlp + pos, n - pos), out);
}

/* Fmt/Type -> kind and flow-control class [4.2].  A row matches when
 * (fmt & fmt_mask) == fmt and (type & type_mask) == type; the masks leave
 * out Fmt[0] (32/64-bit address) where both header sizes exist and the
 * routing bits rrr of messages. */
struct tlp_type_row {
	uint8_t fmt_mask, fmt;
	uint8_t type_mask, type;
	enum tlp_kind kind;
	enum fc_class fc_class;
};

/* No Fmt/Type matches two rows, so the order only decides how soon a
 * TLP is found: memory requests and completions, most of any link, first. */
static const struct tlp_type_row tlp_type_rows[] = {
	{ 6, 2, 0x1F, 0x00, TLP_MWR, FC_P },      { 6, 0, 0x1F, 0x00, TLP_MRD, FC_NP },
	{ 7, 2, 0x1F, 0x0A, TLP_CPLD, FC_CPL },   { 7, 0, 0x1F, 0x0A, TLP_CPL, FC_CPL },
	{ 6, 0, 0x1F, 0x01, TLP_MRDLK, FC_NP },   { 7, 0, 0x1F, 0x02, TLP_IORD, FC_NP },
	{ 7, 2, 0x1F, 0x02, TLP_IOWR, FC_NP },    { 7, 0, 0x1F, 0x04, TLP_CFGRD0, FC_NP },
	{ 7, 2, 0x1F, 0x04, TLP_CFGWR0, FC_NP },  { 7, 0, 0x1F, 0x05, TLP_CFGRD1, FC_NP },
	{ 7, 2, 0x1F, 0x05, TLP_CFGWR1, FC_NP },  { 7, 1, 0x18, 0x10, TLP_MSG, FC_P },
	{ 7, 3, 0x18, 0x10, TLP_MSGD, FC_P },     { 7, 0, 0x1F, 0x0B, TLP_CPLLK, FC_CPL },
	{ 7, 2, 0x1F, 0x0B, TLP_CPLDLK, FC_CPL }, { 6, 2, 0x1F, 0x0C, TLP_FETCHADD, FC_NP },
	{ 6, 2, 0x1F, 0x0D, TLP_SWAP, FC_NP },    { 6, 2, 0x1F, 0x0E, TLP_CAS, FC_NP },
	{ 6, 2, 0x1F, 0x1B, TLP_DMWR, FC_NP },
};

#define TLP_TYPE_ROW_COUNT (sizeof(tlp_type_rows) / sizeof(tlp_type_rows[0]))

/* The first row that matches, NULL for a reserved combination. */
static const struct tlp_type_row *row_search(uint8_t fmt, uint8_t type)
{
	for (size_t i = 0; i < TLP_TYPE_ROW_COUNT; i++) {
		const struct tlp_type_row *row = &tlp_type_rows[i];

		if ((fmt & row->fmt_mask) == row->fmt && (type & row->type_mask) == row->type)
			return row;
	}
	return NULL;
}

/* The same by DW0's byte 0, Fmt << 5 | Type, from a table of the 256
 * values made on first use (row + 1, 0 for none): one load a TLP instead
 * of a search of the rows.  check_tlp tests it against row_search's
 * answers through tlp_decode for every byte 0. */
static const struct tlp_type_row *row_by_fmt_type(uint8_t fmt, uint8_t type)
{
	static uint8_t row_of_byte0[256];
	static bool made;

	if (!made) {
		for (unsigned b = 0; b < 256; b++) {
			const struct tlp_type_row *row = row_search((uint8_t)(b >> 5), b & 0x1Fu);
			row_of_byte0[b] = row ? (uint8_t)(row - tlp_type_rows + 1) : 0;
		}
		made = true;
	}
	unsigned r = row_of_byte0[(unsigned)(fmt & 7u) << 5 | (type & 0x1Fu)];
	return r ? &tlp_type_rows[r - 1] : NULL;
}

static const struct tlp_type_row *row_by_kind(enum tlp_kind kind)
{
	for (size_t i = 0; i < TLP_TYPE_ROW_COUNT; i++)
		if (tlp_type_rows[i].kind == kind)
			return &tlp_type_rows[i];
	return NULL;
}

static bool is_atomic(enum tlp_kind kind)
{
	return kind == TLP_FETCHADD || kind == TLP_SWAP || kind == TLP_CAS;
}

static bool is_memory(enum tlp_kind kind)
{
	return kind == TLP_MRD || kind == TLP_MRDLK || kind == TLP_MWR || kind == TLP_DMWR ||
	       is_atomic(kind);
}

static bool is_config(enum tlp_kind kind)
{
	return kind == TLP_CFGRD0 || kind == TLP_CFGWR0 || kind == TLP_CFGRD1 || kind == TLP_CFGWR1;
}

static bool is_request_with_address(enum tlp_kind kind)
{
	return is_memory(kind) || kind == TLP_IORD || kind == TLP_IOWR;
}

/* ---- decoding ---------------------------------------------------------- */

/* Keeps the first error: later checks must not hide the earliest cause. */
static void set_error(struct tlp *t, enum tlp_status status)
{
	if (t->status == TLP_OK)
		t->status = status;
}

/* LCRC check [3.2, 3.4].  Comparing the field with the computed value and
 * with its inverse is the same test as the receiver residue (DEBB20E3h
 * good, 0 nullified) and also yields lcrc_expected.  Without the sequence
 * field the LCRC covered bytes that are not in the record, so it cannot be
 * checked. */
static void check_lcrc(const uint8_t *bytes, size_t covered, bool has_seq, struct tlp *t)
{
	t->lcrc_field = be32(bytes + covered);
	t->lcrc_expected = crc32_field(crc32_update(0xFFFFFFFFu, bytes, covered));
	if (!has_seq)
		t->lcrc = CRC_ABSENT;
	else if (t->lcrc_field == t->lcrc_expected)
		t->lcrc = CRC_GOOD;
	else if (t->lcrc_field == ~t->lcrc_expected)
		t->lcrc = CRC_NULLIFIED;
	else
		t->lcrc = CRC_BAD;
}

/* Walks the prefix DWs at the start of tlp[0..n) [4.4] and returns the
 * offset of the first byte after them.  Stores at most TLP_PREFIX_MAX
 * prefix types but skips any number. */
static size_t parse_prefixes(const uint8_t *tlp, size_t n, struct tlp *t)
{
	size_t pos = 0;
	unsigned end_end = 0, total = 0;

	while (pos < n && is_prefix(tlp[pos])) {
		bool local = !(tlp[pos] & PREFIX_END_END);

		if (pos + DW_BYTES > n)
			break; /* a partial DW: the caller sees too few bytes */
		if (local && end_end > 0)
			set_error(t, TLP_ERR_PREFIX_ORDER);
		end_end += !local;
		total++;
		if (total > TLP_PREFIX_MAX || end_end > MAX_END_END_PREFIXES)
			set_error(t, TLP_ERR_TOO_MANY_PREFIXES);
		if (total <= TLP_PREFIX_MAX) {
			t->prefix_type[t->prefix_count++] = tlp[pos];
			t->prefix_local_count = (uint8_t)(t->prefix_local_count + local);
		}
		pos += DW_BYTES;
	}
	return pos;
}

static void decode_dw0(const uint8_t *h, struct tlp *t)
{
	t->fmt = h[0] >> 5;
	t->type = h[0] & 0x1Fu;
	t->hdr_dw = (t->fmt & FMT_4DW) ? 4 : 3;
	t->has_data = (t->fmt & FMT_DATA) != 0;
	t->tc = (h[1] >> 4) & 7u;
	t->attr = (uint8_t)((h[1] & 0x04u) | ((h[2] >> 4) & 3u));
	t->th = (h[1] & 0x01u) != 0;
	t->td = (h[2] & 0x80u) != 0;
	t->ep = (h[2] & 0x40u) != 0;
	t->length_field = (uint16_t)((h[2] & 3u) << 8 | h[3]);
	t->length_dw = t->length_field ? t->length_field : TLP_MAX_LENGTH_DW;
}

/* Kind, class and credit cost from DW0 [4.2].  A reserved combination
 * leaves the kind unknown and costs nothing: it is not charged. */
static void classify(struct tlp *t)
{
	const struct tlp_type_row *row = row_by_fmt_type(t->fmt, t->type);

	t->kind = TLP_KIND_UNKNOWN;
	if (!row) {
		set_error(t, TLP_ERR_RESERVED_TYPE);
		return;
	}
	if (tlp_kind_is_message(row->kind)) {
		t->msg_routing = t->type & 7u;
		if (t->msg_routing >= MSG_ROUTING_RESERVED) {
			set_error(t, TLP_ERR_RESERVED_TYPE);
			return;
		}
	}
	t->kind = row->kind;
	t->fc_class = row->fc_class;
	/* One header credit per TLP whatever its header size, digest or
	 * End-End prefixes; one data credit per 4 DW, the digest excluded. */
	t->payload_dw = t->has_data ? t->length_dw : 0;
	t->hdr_credits = 1;
	t->data_credits = (uint16_t)((t->payload_dw + 3) / 4);
}

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* The 10-bit tag: T9 and T8 sit in DW0 byte 1 (bits 7 and 3), Tag[7:0]
 * in the byte given [4.1]. */
static uint16_t tag10(const uint8_t *h, uint8_t tag_low)
{
	unsigned b1 = h[1];
	/* bit 7 -> tag bit 9, bit 3 -> tag bit 8 */
	return (uint16_t)((b1 & 0x80u) << 2 | (b1 & 0x08u) << 5 | tag_low);
}

/* DW1 onwards, h[0..4*hdr_dw) all in the record [4.1]: Requester ID,
 * Tag, byte enables and address of a request; Completer ID, status,
 * Byte Count, Requester ID, Tag and Lower Address of a completion; the
 * message code. */
static void decode_header_fields(const uint8_t *h, struct tlp *t)
{
	t->header_known = true;
	if (tlp_kind_is_completion(t->kind)) {
		t->completer_id = be16(h + 4);
		t->cpl_status = h[6] >> 5;
		t->bcm = (h[6] & 0x10u) != 0;
		t->byte_count_field = (uint16_t)((h[6] & 0x0Fu) << 8 | h[7]);
		t->requester_id = be16(h + 8);
		t->tag = tag10(h, h[10]);
		t->lower_address = h[11] & 0x7Fu;
		return;
	}
	t->requester_id = be16(h + 4);
	t->tag = tag10(h, h[6]);
	if (tlp_kind_is_message(t->kind)) {
		t->msg_code = h[7];
		return;
	}
	t->last_be = h[7] >> 4;
	t->first_be = h[7] & 0x0Fu;
	if (t->th && (t->kind == TLP_MRD || t->kind == TLP_DMWR)) {
		/* the byte carries ST[7:0]; the byte enables are implied:
		 * 1111b/0000b for 1 DW, 1111b/1111b for more [PCIe 6.3
		 * 2.2.5.1, notes/tl-facts.md] */
		t->steering_tag = h[7];
		t->first_be = 0x0F;
		t->last_be = t->length_dw > 1 ? 0x0F : 0;
	}
	if (is_config(t->kind)) {
		t->target_id = be16(h + 8);
		t->cfg_register = (uint16_t)(((h[10] & 0x0Fu) << 8 | h[11]) & 0xFFCu);
	} else if (is_request_with_address(t->kind)) {
		if (t->hdr_dw == 4)
			t->address = (uint64_t)be32(h + 8) << 32 | (be32(h + 12) & ~3u);
		else
			t->address = be32(h + 8) & ~3u;
	}
}

/* ECRC [3.3], TD set and the digest DW in the record: the last DW before
 * the LCRC, over tlp[0..n - 4). */
static void check_ecrc(const uint8_t *tlp, size_t n, struct tlp *t)
{
	uint8_t expected[4];

	tlp_ecrc_bytes(tlp, n - DW_BYTES, expected);
	t->ecrc_field = be32(tlp + n - DW_BYTES);
	t->ecrc_expected = be32(expected);
	t->ecrc = t->ecrc_field == t->ecrc_expected ? CRC_GOOD : CRC_BAD;
}

/* The bytes after the header must be exactly payload + digest [4.1, 3.3]. */
static void check_size(size_t after_header, struct tlp *t)
{
	size_t expected = (size_t)t->payload_dw * DW_BYTES + (t->td ? DW_BYTES : 0);

	if (after_header != expected)
		set_error(t, TLP_ERR_LENGTH);
}

/* Decodes the TLP proper, tlp[0..n), bytes after the sequence field and
 * before the LCRC.  With truncated set the missing tail is not an error. */
static void decode_tlp_body(const uint8_t *tlp, size_t n, bool truncated, struct tlp *t)
{
	size_t pos = parse_prefixes(tlp, n, t);
	size_t left = n - pos;

	if (left < DW_BYTES) {
		set_error(t, left == 0 && t->prefix_count > 0 ? TLP_ERR_PREFIX_ONLY
		                                              : TLP_ERR_TOO_SHORT);
		return;
	}
	decode_dw0(tlp + pos, t);
	classify(t);
	if (left < (size_t)t->hdr_dw * DW_BYTES) {
		set_error(t, TLP_ERR_TOO_SHORT);
		return;
	}
	if (t->kind != TLP_KIND_UNKNOWN)
		decode_header_fields(tlp + pos, t);
	if (!truncated && t->kind != TLP_KIND_UNKNOWN) {
		check_size(left - (size_t)t->hdr_dw * DW_BYTES, t);
		if (t->td && t->status == TLP_OK)
			check_ecrc(tlp, n, t);
	}
}

enum tlp_status tlp_decode(const uint8_t *bytes, size_t len, size_t wire_len, bool has_seq,
                           bool has_lcrc, struct tlp *out)
{
	bool truncated = wire_len > len;
	size_t seq_len = has_seq ? SEQ_BYTES : 0;
	/* A truncated capture lost its tail, which is where the LCRC was. */
	size_t lcrc_len = has_lcrc && !truncated ? LCRC_BYTES : 0;

	*out = (struct tlp){ 0 };
	out->has_seq = has_seq;
	out->lcrc = CRC_ABSENT;
	out->ecrc = CRC_ABSENT;
	out->kind = TLP_KIND_UNKNOWN;

	/* len 0 is tested apart so that a NULL bytes is never offset. */
	if (len == 0 || len < seq_len + lcrc_len) {
		set_error(out, TLP_ERR_TOO_SHORT);
	} else {
		if (has_seq) {
			out->seq_present = true;
			out->seq_reserved = bytes[0] >> 4;
			out->seq = (uint16_t)((bytes[0] & 0x0Fu) << 8 | bytes[1]);
		}
		/* The LCRC first: even a malformed TLP has an LCRC status. */
		if (lcrc_len)
			check_lcrc(bytes, len - LCRC_BYTES, has_seq, out);
		decode_tlp_body(bytes + seq_len, len - seq_len - lcrc_len, truncated, out);
	}
	if (truncated)
		out->status = TLP_TRUNCATED;
	return out->status;
}

/* ---- encoding ---------------------------------------------------------- */

/* Identities and addresses used in generated headers. */
#define ENC_REQUESTER_ID 0x0100u
#define ENC_COMPLETER_ID 0x0100u
#define ENC_MEM_ADDR_LO 0xF7D00000u
#define ENC_MEM_ADDR_HI 0x00000001u /* 64-bit form: above 4 GiB */
#define ENC_IO_ADDR 0x00001000u
#define ENC_CFG_BUS 0x01u
#define ENC_MSG_CODE_ASSERT_INTA 0x20u
#define ENC_MSG_CODE_VENDOR_TYPE1 0x7Fu

static void put_be16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Byte enables [4.1]: First DW BE all set, Last DW BE all set unless the
 * request is 1 DW (then it must be 0); AtomicOps have them reserved. */
static uint8_t byte_enables(const struct tlp_spec *spec)
{
	if (spec->hdr.be_given)
		return (uint8_t)((spec->hdr.last_be & 0x0Fu) << 4 | (spec->hdr.first_be & 0x0Fu));
	if (is_atomic(spec->kind))
		return 0;
	return spec->length_dw > 1 ? 0xFF : 0x0F;
}

/* The 10-bit tag: Tag[7:0] returned, T9 and T8 into DW0 byte 1 [4.1].
 * Without a tag given, the sequence number's low byte. */
static uint8_t put_tag(const struct tlp_spec *spec, uint8_t *h)
{
	if (!spec->hdr.tag_given)
		return (uint8_t)spec->seq;
	h[1] = (uint8_t)(h[1] | (spec->hdr.tag >> 9 & 1u) << 7 | (spec->hdr.tag >> 8 & 1u) << 3);
	return (uint8_t)spec->hdr.tag;
}

/* DW1 onwards for requests: Requester ID, Tag, BEs, then the address. */
static void put_request(const struct tlp_spec *spec, bool addr64, uint8_t *h)
{
	put_be16(h + 4, spec->hdr.requester_given ? spec->hdr.requester_id : ENC_REQUESTER_ID);
	h[6] = put_tag(spec, h);
	h[7] = byte_enables(spec);
	if (is_config(spec->kind)) {
		if (spec->hdr.address_given) {
			/* Bus/Device/Function in bits 31:16, the register
			 * offset in bits 11:2 */
			put_be16(h + 8, (uint32_t)(spec->hdr.address >> 16));
			h[10] = (uint8_t)(spec->hdr.address >> 8 & 0x0Fu);
			h[11] = (uint8_t)(spec->hdr.address & 0xFCu);
		} else {
			h[8] = ENC_CFG_BUS; /* device 0, function 0, register 0 */
		}
	} else if (!is_memory(spec->kind)) {
		put_be32(h + 8,
		         spec->hdr.address_given ? (uint32_t)spec->hdr.address & ~3u : ENC_IO_ADDR);
	} else if (addr64) {
		uint64_t a = spec->hdr.address_given
		                     ? spec->hdr.address
		                     : (uint64_t)ENC_MEM_ADDR_HI << 32 | ENC_MEM_ADDR_LO;
		put_be32(h + 8, (uint32_t)(a >> 32));
		put_be32(h + 12, (uint32_t)a & ~3u);
	} else {
		put_be32(h + 8, spec->hdr.address_given ? (uint32_t)spec->hdr.address & ~3u
		                                        : ENC_MEM_ADDR_LO);
	}
}

/* Completion DW1-DW2: Completer ID, status, Byte Count, Requester ID,
 * Tag, Lower Address.  By default a successful completion of the whole
 * length from Lower Address 0, to requester 0000h; Byte Count 4096 wraps
 * to 0, its encoding. */
static void put_completion(const struct tlp_spec *spec, uint8_t *h)
{
	uint32_t byte_count = (spec->hdr.byte_count_given ? spec->hdr.byte_count
	                                                  : (uint32_t)spec->length_dw * 4u) &
	                      0xFFFu;

	put_be16(h + 4, spec->hdr.completer_given ? spec->hdr.completer_id : ENC_COMPLETER_ID);
	put_be16(h + 6, (uint32_t)(spec->hdr.cpl_status & 7u) << 13 | byte_count);
	put_be16(h + 8, spec->hdr.requester_given ? spec->hdr.requester_id : 0x0000);
	h[10] = put_tag(spec, h);
	h[11] = spec->hdr.lower_address_given ? spec->hdr.lower_address & 0x7Fu : 0;
}

static void put_message(const struct tlp_spec *spec, uint8_t *h)
{
	put_be16(h + 4, spec->hdr.requester_given ? spec->hdr.requester_id : ENC_REQUESTER_ID);
	h[6] = put_tag(spec, h);
	if (spec->hdr.msg_code_given)
		h[7] = spec->hdr.msg_code;
	else
		h[7] = spec->kind == TLP_MSGD ? ENC_MSG_CODE_VENDOR_TYPE1
		                              : ENC_MSG_CODE_ASSERT_INTA;
}

/* Length field: reads carry the length requested, Cpl and Msg without
 * data have it reserved (0); 1024 encodes as 0 [4.1]. */
static uint32_t length_field_for(const struct tlp_spec *spec, bool has_data)
{
	if (!has_data && (tlp_kind_is_completion(spec->kind) || tlp_kind_is_message(spec->kind)))
		return 0;
	return spec->length_dw & 0x3FFu;
}

static void put_header(const struct tlp_spec *spec, uint8_t fmt, uint8_t type, uint8_t *h,
                       size_t hdr_bytes)
{
	uint32_t length = length_field_for(spec, (fmt & FMT_DATA) != 0);

	memset(h, 0, hdr_bytes);
	h[0] = (uint8_t)(fmt << 5 | type);
	h[1] = (uint8_t)((spec->tc & 7u) << 4);
	h[2] = (uint8_t)((spec->td ? 0x80u : 0u) | (spec->hdr.ep ? 0x40u : 0u) | length >> 8);
	h[3] = (uint8_t)length;
	if (tlp_kind_is_completion(spec->kind))
		put_completion(spec, h);
	else if (tlp_kind_is_message(spec->kind))
		put_message(spec, h);
	else
		put_request(spec, (fmt & FMT_4DW) != 0, h);
}

/* Fmt and Type for the spec: Fmt[0] from addr64 where the kind has both
 * header sizes, the routing bits for messages. */
static void fmt_type_for(const struct tlp_spec *spec, const struct tlp_type_row *row, uint8_t *fmt,
                         uint8_t *type)
{
	*fmt = row->fmt;
	if (row->fmt_mask != 7 && spec->addr64)
		*fmt |= FMT_4DW;
	*type = row->type;
	if (tlp_kind_is_message(spec->kind))
		*type |= spec->msg_routing & 7u;
}

static void put_lcrc(const struct tlp_spec *spec, const uint8_t seq[2], const uint8_t *tlp,
                     size_t n, uint8_t *out)
{
	/* The LCRC covers the sequence field even when the record leaves it
	 * out: it is the value the wire carried [3.2]. */
	uint32_t reg = crc32_update(crc32_update(0xFFFFFFFFu, seq, SEQ_BYTES), tlp, n);

	if (spec->force_lcrc) {
		put_be32(out, spec->forced_lcrc); /* as lcrc_field reads it */
		return;
	}
	if (spec->nullify)
		reg = ~reg; /* the inverse of the good LCRC [3.4] */
	crc32_put(reg, out);
}

/* The payload of a generated TLP: bytes 00h, 01h, ... FFh, 00h, ...
 * copied from one ramp in 256-byte pieces (a symbolic text trace gives
 * only the length; a byte loop here was 4% of reading one). */
#define RAMP4(n) (n), (n) + 1, (n) + 2, (n) + 3
#define RAMP16(n) RAMP4(n), RAMP4((n) + 4), RAMP4((n) + 8), RAMP4((n) + 12)
#define RAMP64(n) RAMP16(n), RAMP16((n) + 16), RAMP16((n) + 32), RAMP16((n) + 48)
static const uint8_t ramp[256] = { RAMP64(0), RAMP64(64), RAMP64(128), RAMP64(192) };

static void fill_payload(uint8_t *p, size_t n)
{
	for (size_t done = 0; done < n; done += sizeof(ramp)) {
		size_t chunk = n - done < sizeof(ramp) ? n - done : sizeof(ramp);
		memcpy(p + done, ramp, chunk);
	}
}

size_t tlp_encode(const struct tlp_spec *spec, uint8_t *out, size_t cap)
{
	const struct tlp_type_row *row = row_by_kind(spec->kind);
	uint8_t seq[SEQ_BYTES] = { (uint8_t)(spec->seq >> 8 & 0x0Fu), (uint8_t)spec->seq };
	uint8_t fmt, type;
	size_t hdr_bytes, data_bytes, tlp_bytes, total, seq_len;
	uint8_t *tlp;

	if (!row || spec->length_dw == 0 || spec->length_dw > TLP_MAX_LENGTH_DW)
		return 0;
	fmt_type_for(spec, row, &fmt, &type);
	hdr_bytes = (fmt & FMT_4DW) ? 16 : 12;
	data_bytes = (fmt & FMT_DATA) ? (size_t)spec->length_dw * DW_BYTES : 0;
	tlp_bytes = hdr_bytes + data_bytes + (spec->td ? DW_BYTES : 0);
	seq_len = spec->has_seq ? SEQ_BYTES : 0;
	total = seq_len + tlp_bytes + (spec->has_lcrc ? LCRC_BYTES : 0);
	if (total > cap)
		return 0;

	memcpy(out, seq, seq_len);
	tlp = out + seq_len;
	put_header(spec, fmt, type, tlp, hdr_bytes);
	fill_payload(tlp + hdr_bytes, data_bytes);
	if (spec->td)
		tlp_ecrc_bytes(tlp, hdr_bytes + data_bytes, tlp + hdr_bytes + data_bytes);
	if (spec->has_lcrc)
		put_lcrc(spec, seq, tlp, tlp_bytes, tlp + tlp_bytes);
	return total;
}

/* ---- names ------------------------------------------------------------- */

/* Capture-format mnemonics (capture-format.md section 2) plus DMWr. */
struct tlp_mnemonic_row {
	const char *name;
	uint8_t len; /* strlen(name): compared first */
	enum tlp_kind kind;
	bool addr64;
};

static const struct tlp_mnemonic_row tlp_mnemonics[] = {
	{ "MRd32", 5, TLP_MRD, false },
	{ "MRd64", 5, TLP_MRD, true },
	{ "MRdLk32", 7, TLP_MRDLK, false },
	{ "MRdLk64", 7, TLP_MRDLK, true },
	{ "MWr32", 5, TLP_MWR, false },
	{ "MWr64", 5, TLP_MWR, true },
	{ "IORd", 4, TLP_IORD, false },
	{ "IOWr", 4, TLP_IOWR, false },
	{ "CfgRd0", 6, TLP_CFGRD0, false },
	{ "CfgWr0", 6, TLP_CFGWR0, false },
	{ "CfgRd1", 6, TLP_CFGRD1, false },
	{ "CfgWr1", 6, TLP_CFGWR1, false },
	{ "Msg", 3, TLP_MSG, true },
	{ "MsgD", 4, TLP_MSGD, true },
	{ "Cpl", 3, TLP_CPL, false },
	{ "CplD", 4, TLP_CPLD, false },
	{ "CplLk", 5, TLP_CPLLK, false },
	{ "CplDLk", 6, TLP_CPLDLK, false },
	{ "FetchAdd32", 10, TLP_FETCHADD, false },
	{ "FetchAdd64", 10, TLP_FETCHADD, true },
	{ "Swap32", 6, TLP_SWAP, false },
	{ "Swap64", 6, TLP_SWAP, true },
	{ "CAS32", 5, TLP_CAS, false },
	{ "CAS64", 5, TLP_CAS, true },
	{ "DMWr32", 6, TLP_DMWR, false },
	{ "DMWr64", 6, TLP_DMWR, true },
};

#define TLP_MNEMONIC_COUNT (sizeof(tlp_mnemonics) / sizeof(tlp_mnemonics[0]))

bool tlp_mnemonic_parse(const char *name, size_t len, enum tlp_kind *kind, bool *addr64)
{
	for (size_t i = 0; i < TLP_MNEMONIC_COUNT; i++) {
		const struct tlp_mnemonic_row *row = &tlp_mnemonics[i];

		if (len == row->len && ascii_eq_nocase(name, len, row->name)) {
			*kind = row->kind;
			*addr64 = row->addr64;
			return true;
		}
	}
	return false;
}

const char *tlp_mnemonic(enum tlp_kind kind, bool addr64)
{
	const char *fallback = NULL;

	for (size_t i = 0; i < TLP_MNEMONIC_COUNT; i++) {
		if (tlp_mnemonics[i].kind != kind)
			continue;
		if (tlp_mnemonics[i].addr64 == addr64)
			return tlp_mnemonics[i].name;
		fallback = tlp_mnemonics[i].name; /* only one header size */
	}
	return fallback ? fallback : tlp_kind_name(kind);
}

const char *tlp_kind_name(enum tlp_kind kind)
{
	static const char *const names[TLP_KIND_COUNT] = {
		[TLP_MRD] = "MRd",       [TLP_MRDLK] = "MRdLk",
		[TLP_MWR] = "MWr",       [TLP_IORD] = "IORd",
		[TLP_IOWR] = "IOWr",     [TLP_CFGRD0] = "CfgRd0",
		[TLP_CFGWR0] = "CfgWr0", [TLP_CFGRD1] = "CfgRd1",
		[TLP_CFGWR1] = "CfgWr1", [TLP_MSG] = "Msg",
		[TLP_MSGD] = "MsgD",     [TLP_CPL] = "Cpl",
		[TLP_CPLD] = "CplD",     [TLP_CPLLK] = "CplLk",
		[TLP_CPLDLK] = "CplDLk", [TLP_FETCHADD] = "FetchAdd",
		[TLP_SWAP] = "Swap",     [TLP_CAS] = "CAS",
		[TLP_DMWR] = "DMWr",     [TLP_KIND_UNKNOWN] = "Unknown",
	};

	if ((unsigned)kind >= TLP_KIND_COUNT || !names[kind])
		return "Unknown";
	return names[kind];
}

const char *tlp_status_text(enum tlp_status status)
{
	switch (status) {
	case TLP_OK:
		return "well formed";
	case TLP_TRUNCATED:
		return "the capture holds fewer bytes than the TLP had";
	case TLP_ERR_TOO_SHORT:
		return "too short to hold a TLP header";
	case TLP_ERR_PREFIX_ONLY:
		return "TLP prefix with no header after it";
	case TLP_ERR_TOO_MANY_PREFIXES:
		return "more than 4 End-End prefixes (or too many prefixes)";
	case TLP_ERR_PREFIX_ORDER:
		return "Local TLP prefix after an End-End prefix";
	case TLP_ERR_RESERVED_TYPE:
		return "reserved Fmt/Type combination";
	case TLP_ERR_LENGTH:
		return "payload size disagrees with Length and TD";
	case TLP_ERR_TOO_LONG:
		return "longer than the largest TLP";
	}
	return "unknown TLP status";
}

/* ---- what a transaction's bytes add up to ------------------------------ */

const char *tlp_cpl_status_name(uint8_t status)
{
	switch (status) {
	case TLP_CPL_SC:
		return "SC";
	case TLP_CPL_UR:
		return "UR";
	case TLP_CPL_CRS:
		return "CRS";
	case TLP_CPL_CA:
		return "CA";
	default:
		return "reserved";
	}
}

/* Message codes [S62-2 2.2.8, Table 2-20 and the tables of 2.2.8.x;
 * INTx, PME_Turn_Off and the routing values as Linux drivers/pci/pci.h
 * spells them]. */
struct tlp_msg_code_row {
	uint8_t code;
	uint8_t routing; /* the routing the message is sent with (r[2:0]) */
	const char *name;
};

/* r[2:0] [S62-2 Table 2-20] */
#define R_RC 0u
#define R_BROADCAST 3u
#define R_LOCAL 4u
#define R_GATHER 5u

/* The codes and routings of S62-2 Tables 2-21 to 2-34 (PCIe 6.3
 * transcription, notes/tl-facts.md); PTM's (Table 2-35, an image there)
 * are the values PCIe 3.1 gives, not cross-checked. */
static const struct tlp_msg_code_row tlp_msg_codes[] = {
	{ 0x00, R_BROADCAST, "Unlock" },
	{ 0x10, R_LOCAL, "LTR" },
	{ 0x12, R_LOCAL, "OBFF" },
	{ 0x14, R_LOCAL, "PM_Active_State_Nak" },
	{ 0x18, R_RC, "PM_PME" },
	{ 0x19, R_BROADCAST, "PME_Turn_Off" },
	{ 0x1B, R_GATHER, "PME_TO_Ack" },
	{ 0x20, R_LOCAL, "Assert_INTA" },
	{ 0x21, R_LOCAL, "Assert_INTB" },
	{ 0x22, R_LOCAL, "Assert_INTC" },
	{ 0x23, R_LOCAL, "Assert_INTD" },
	{ 0x24, R_LOCAL, "Deassert_INTA" },
	{ 0x25, R_LOCAL, "Deassert_INTB" },
	{ 0x26, R_LOCAL, "Deassert_INTC" },
	{ 0x27, R_LOCAL, "Deassert_INTD" },
	{ 0x30, R_RC, "ERR_COR" },
	{ 0x31, R_RC, "ERR_NONFATAL" },
	{ 0x33, R_RC, "ERR_FATAL" },
	{ 0x50, R_LOCAL, "Set_Slot_Power_Limit" },
	{ 0x52, R_LOCAL, "PTM_Request" },
	{ 0x53, R_LOCAL, "PTM_Response" },
	{ 0x54, R_LOCAL, "IDE_Sync" },
	{ 0x55, R_LOCAL, "IDE_Fail" },
	{ 0x7E, R_LOCAL, "Vendor_Defined_Type0" },
	{ 0x7F, R_LOCAL, "Vendor_Defined_Type1" },
};

#define TLP_MSG_CODE_COUNT (sizeof(tlp_msg_codes) / sizeof(tlp_msg_codes[0]))

static const struct tlp_msg_code_row *msg_code_row(uint8_t code)
{
	for (size_t i = 0; i < TLP_MSG_CODE_COUNT; i++)
		if (tlp_msg_codes[i].code == code)
			return &tlp_msg_codes[i];
	return NULL;
}

const char *tlp_msg_code_name(uint8_t code)
{
	const struct tlp_msg_code_row *row = msg_code_row(code);
	return row ? row->name : NULL;
}

uint8_t tlp_msg_code_routing(uint8_t code)
{
	const struct tlp_msg_code_row *row = msg_code_row(code);
	return row ? row->routing : R_LOCAL;
}

bool tlp_msg_code_parse(const char *name, size_t len, uint8_t *code)
{
	for (size_t i = 0; i < TLP_MSG_CODE_COUNT; i++) {
		const char *row = tlp_msg_codes[i].name;

		if (strlen(row) == len && ascii_eq_nocase(name, len, row)) {
			*code = tlp_msg_codes[i].code;
			return true;
		}
	}
	return false;
}

const char *tlp_msg_routing_name(uint8_t routing)
{
	static const char *const names[8] = { "to-rc", "by-address", "by-id",    "broadcast",
		                              "local", "gathered",   "reserved", "reserved" };
	return names[routing & 7u];
}
