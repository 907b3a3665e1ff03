/* dllp.c: decode and encode Data Link Layer Packets, and their CRC-16.
 * specification: spec-digest.md sections 1 (formats) and 2 (CRC-16).
 *
 * Non-Flit-Mode DLLP as captured (framing stripped), W = b0<<24|b1<<16|b2<<8|b3:
 *
 *   byte 0   type (table below)
 *   byte 1-3 type-specific content:
 *            Ack/Nak   W[11:0] AckNak_Seq_Num                      [1.3]
 *            FC        HdrScale b1[7:6], HdrFC b1[5:0]b2[7:6],
 *                      DataScale b2[5:4], DataFC b2[3:0]b3         [1.4]
 *            DLF       Feature Ack W[23], Feature Supported W[22:0] [1.6]
 *   byte 4-5 CRC-16 field bits 15:8, 7:0 (absent in the 4-byte form)  [2]
 *
 * Everything is read with shifts and masks, never through a struct cast.
 */
#include "wire/dllp.h"

#include <string.h>

#include "base/ascii.h"
#include "core/record.h" /* DLLP_CONTENT_LEN, DLLP_WIRE_LEN */

/* Byte-at-a-time table for the reflected CRC-16 (polynomial 100Bh mirrored
 * to D008h) [2.2]: entry i is the register after shifting i through 8
 * times.  A literal so that there is no start-up code and no mutable
 * state; check_dllp.c compares it against the bit-serial form. */
static const uint16_t crc16_table[256] = {
	0x0000, 0x1ba1, 0x3742, 0x2ce3, 0x6e84, 0x7525, 0x59c6, 0x4267, 0xdd08, 0xc6a9, 0xea4a,
	0xf1eb, 0xb38c, 0xa82d, 0x84ce, 0x9f6f, 0x1a01, 0x01a0, 0x2d43, 0x36e2, 0x7485, 0x6f24,
	0x43c7, 0x5866, 0xc709, 0xdca8, 0xf04b, 0xebea, 0xa98d, 0xb22c, 0x9ecf, 0x856e, 0x3402,
	0x2fa3, 0x0340, 0x18e1, 0x5a86, 0x4127, 0x6dc4, 0x7665, 0xe90a, 0xf2ab, 0xde48, 0xc5e9,
	0x878e, 0x9c2f, 0xb0cc, 0xab6d, 0x2e03, 0x35a2, 0x1941, 0x02e0, 0x4087, 0x5b26, 0x77c5,
	0x6c64, 0xf30b, 0xe8aa, 0xc449, 0xdfe8, 0x9d8f, 0x862e, 0xaacd, 0xb16c, 0x6804, 0x73a5,
	0x5f46, 0x44e7, 0x0680, 0x1d21, 0x31c2, 0x2a63, 0xb50c, 0xaead, 0x824e, 0x99ef, 0xdb88,
	0xc029, 0xecca, 0xf76b, 0x7205, 0x69a4, 0x4547, 0x5ee6, 0x1c81, 0x0720, 0x2bc3, 0x3062,
	0xaf0d, 0xb4ac, 0x984f, 0x83ee, 0xc189, 0xda28, 0xf6cb, 0xed6a, 0x5c06, 0x47a7, 0x6b44,
	0x70e5, 0x3282, 0x2923, 0x05c0, 0x1e61, 0x810e, 0x9aaf, 0xb64c, 0xaded, 0xef8a, 0xf42b,
	0xd8c8, 0xc369, 0x4607, 0x5da6, 0x7145, 0x6ae4, 0x2883, 0x3322, 0x1fc1, 0x0460, 0x9b0f,
	0x80ae, 0xac4d, 0xb7ec, 0xf58b, 0xee2a, 0xc2c9, 0xd968, 0xd008, 0xcba9, 0xe74a, 0xfceb,
	0xbe8c, 0xa52d, 0x89ce, 0x926f, 0x0d00, 0x16a1, 0x3a42, 0x21e3, 0x6384, 0x7825, 0x54c6,
	0x4f67, 0xca09, 0xd1a8, 0xfd4b, 0xe6ea, 0xa48d, 0xbf2c, 0x93cf, 0x886e, 0x1701, 0x0ca0,
	0x2043, 0x3be2, 0x7985, 0x6224, 0x4ec7, 0x5566, 0xe40a, 0xffab, 0xd348, 0xc8e9, 0x8a8e,
	0x912f, 0xbdcc, 0xa66d, 0x3902, 0x22a3, 0x0e40, 0x15e1, 0x5786, 0x4c27, 0x60c4, 0x7b65,
	0xfe0b, 0xe5aa, 0xc949, 0xd2e8, 0x908f, 0x8b2e, 0xa7cd, 0xbc6c, 0x2303, 0x38a2, 0x1441,
	0x0fe0, 0x4d87, 0x5626, 0x7ac5, 0x6164, 0xb80c, 0xa3ad, 0x8f4e, 0x94ef, 0xd688, 0xcd29,
	0xe1ca, 0xfa6b, 0x6504, 0x7ea5, 0x5246, 0x49e7, 0x0b80, 0x1021, 0x3cc2, 0x2763, 0xa20d,
	0xb9ac, 0x954f, 0x8eee, 0xcc89, 0xd728, 0xfbcb, 0xe06a, 0x7f05, 0x64a4, 0x4847, 0x53e6,
	0x1181, 0x0a20, 0x26c3, 0x3d62, 0x8c0e, 0x97af, 0xbb4c, 0xa0ed, 0xe28a, 0xf92b, 0xd5c8,
	0xce69, 0x5106, 0x4aa7, 0x6644, 0x7de5, 0x3f82, 0x2423, 0x08c0, 0x1361, 0x960f, 0x8dae,
	0xa14d, 0xbaec, 0xf88b, 0xe32a, 0xcfc9, 0xd468, 0x4b07, 0x50a6, 0x7c45, 0x67e4, 0x2583,
	0x3e22, 0x12c1, 0x0960,
};

/* The register over the 4 content bytes, seed FFFFh, a byte at a time;
 * the caller complements it [2.1].  (Slicing-by-4 saved 9 instructions
 * a DLLP, 0.3% of reading a capture: not worth a second table.) */
static uint16_t crc16_content(const uint8_t content[4])
{
	uint16_t reg = 0xFFFFu;

	for (unsigned i = 0; i < DLLP_CONTENT_LEN; i++)
		reg = (uint16_t)((reg >> 8) ^ crc16_table[(reg ^ content[i]) & 0xFFu]);
	return reg;
}

/* The complemented register goes out low byte first: byte 4 = crc & FFh,
 * byte 5 = crc >> 8.  That is the spec's per-byte bit reversal of the
 * field, folded into the reflected algorithm [2.2]. */
void dllp_crc16_bytes(const uint8_t content[4], uint8_t out[2])
{
	uint16_t crc = (uint16_t)~crc16_content(content);

	out[0] = (uint8_t)(crc & 0xFFu);
	out[1] = (uint8_t)(crc >> 8);
}

/* Type byte -> kind [1.2].  Rows are tried in order; FC rows match the
 * kind and class nibble (bits 7:4) with bit 3 required to be 0, which is
 * the only NFM encoding: FC bytes with bit 3 set fall through to
 * Reserved.  The VC ID (bits 2:0) is left out of the mask so it need not
 * be enumerated. */
struct dllp_type_row {
	uint8_t mask;
	uint8_t value;
	enum dllp_type type;
};

/* No byte matches two rows (the fixed codes all have bits 7:6 = 00), so
 * the order only decides how soon a byte is found: the kinds a link
 * sends most come first. */
static const struct dllp_type_row dllp_type_rows[] = {
	/* bits 7:6 = 10 UpdateFC, 01 InitFC1, 11 InitFC2; bits 5:4 = 11 is
	 * the MR-IOV variant of each, 00/01/10 the P/NP/Cpl class */
	{ 0xC8, 0x80, DLLP_UPDATEFC },
	{ 0xC8, 0x40, DLLP_INITFC1 },
	{ 0xC8, 0xC0, DLLP_INITFC2 },
	{ 0xFF, 0x00, DLLP_ACK },
	{ 0xFF, 0x01, DLLP_MRINIT },
	{ 0xFF, 0x02, DLLP_FEATURE },
	{ 0xFF, 0x03, DLLP_ALT_PROTO_1 },
	{ 0xFF, 0x04, DLLP_ALT_PROTO_2 },
	{ 0xFF, 0x10, DLLP_NAK },
	{ 0xFF, 0x20, DLLP_PM_ENTER_L1 },
	{ 0xFF, 0x21, DLLP_PM_ENTER_L23 },
	{ 0xFF, 0x23, DLLP_PM_AS_REQUEST_L1 },
	{ 0xFF, 0x24, DLLP_PM_REQUEST_ACK },
	{ 0xFF, 0x28, DLLP_LINK_MGMT },
	{ 0xFF, 0x30, DLLP_VENDOR },
	{ 0xFF, 0x31, DLLP_NOP },
};

/* Bits 7:6 of an FC type byte, by kind. */
enum { FC_KIND_INIT1 = 1, FC_KIND_UPDATE = 2, FC_KIND_INIT2 = 3 };
#define FC_CLASS_MRIOV 3u /* bits 5:4 = 11b */

static enum dllp_type mriov_variant(enum dllp_type type)
{
	switch (type) {
	case DLLP_INITFC1:
		return DLLP_MRINITFC1;
	case DLLP_INITFC2:
		return DLLP_MRINITFC2;
	default:
		return DLLP_MRUPDATEFC;
	}
}

static enum dllp_type type_from_byte(uint8_t b0)
{
	size_t n = sizeof(dllp_type_rows) / sizeof(dllp_type_rows[0]);

	for (size_t i = 0; i < n; i++) {
		const struct dllp_type_row *row = &dllp_type_rows[i];

		if ((b0 & row->mask) != row->value)
			continue;
		if (dllp_is_fc(row->type) && ((b0 >> 4) & 3u) == FC_CLASS_MRIOV)
			return mriov_variant(row->type);
		return row->type;
	}
	return DLLP_RESERVED;
}

static bool is_fc_or_mriov_fc(enum dllp_type t)
{
	return dllp_is_fc(t) || t == DLLP_MRINITFC1 || t == DLLP_MRINITFC2 || t == DLLP_MRUPDATEFC;
}

/* FC field layout [1.4]. */
static void decode_fc_fields(uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3, struct dllp *d)
{
	unsigned cls = (b0 >> 4) & 3u;

	/* The MR-IOV kinds have no P/NP/Cpl class; report them as P so the
	 * enum stays in range (their payload is opaque anyway). */
	d->fc_class = cls == FC_CLASS_MRIOV ? FC_P : (enum fc_class)cls;
	d->vc = b0 & 7u;
	d->hdr_scale = (uint8_t)(b1 >> 6);
	d->hdr_fc = (uint8_t)((b1 & 0x3Fu) << 2 | b2 >> 6);
	d->data_scale = (uint8_t)((b2 >> 4) & 3u);
	d->data_fc = (uint16_t)((b2 & 0x0Fu) << 8 | b3);
}

static void decode_content(const uint8_t *b, struct dllp *d)
{
	d->type_byte = b[0];
	d->type = type_from_byte(b[0]);
	d->content = (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];

	if (d->type == DLLP_ACK || d->type == DLLP_NAK)
		d->acknak_seq = (uint16_t)(d->content & 0xFFFu);
	else if (is_fc_or_mriov_fc(d->type))
		decode_fc_fields(b[0], b[1], b[2], b[3], d);
	else if (d->type == DLLP_FEATURE) {
		d->feature_ack = (d->content >> 23) & 1u;
		d->feature_support = d->content & 0x7FFFFFu;
	}
}

enum dllp_decode_status dllp_decode(const uint8_t *bytes, size_t len, bool has_crc,
                                    struct dllp *out)
{
	size_t want = has_crc ? DLLP_WIRE_LEN : DLLP_CONTENT_LEN;
	uint8_t crc[2];

	memset(out, 0, sizeof(*out));
	if (len < want)
		return DLLP_DECODE_SHORT;
	if (len > want)
		return DLLP_DECODE_LONG;

	decode_content(bytes, out);
	dllp_crc16_bytes(bytes, crc);
	out->crc_expected = (uint16_t)(crc[0] << 8 | crc[1]);
	if (!has_crc) {
		out->crc = CRC_ABSENT;
		return DLLP_DECODE_OK;
	}
	out->crc_field = (uint16_t)(bytes[4] << 8 | bytes[5]);
	out->crc = out->crc_field == out->crc_expected ? CRC_GOOD : CRC_BAD;
	return DLLP_DECODE_OK;
}

uint8_t dllp_fc_type_byte(enum dllp_type type, enum fc_class cls, unsigned vc)
{
	unsigned kind, class_bits = (unsigned)cls & 3u;

	switch (type) {
	case DLLP_INITFC1:
		kind = FC_KIND_INIT1;
		break;
	case DLLP_INITFC2:
		kind = FC_KIND_INIT2;
		break;
	case DLLP_UPDATEFC:
		kind = FC_KIND_UPDATE;
		break;
	case DLLP_MRINITFC1:
		kind = FC_KIND_INIT1;
		class_bits = FC_CLASS_MRIOV;
		break;
	case DLLP_MRINITFC2:
		kind = FC_KIND_INIT2;
		class_bits = FC_CLASS_MRIOV;
		break;
	case DLLP_MRUPDATEFC:
		kind = FC_KIND_UPDATE;
		class_bits = FC_CLASS_MRIOV;
		break;
	default:
		/* Not an FC kind: FFh is a reserved code in every mode, so
		 * a misuse cannot masquerade as a real DLLP. */
		return 0xFF;
	}
	return (uint8_t)(kind << 6 | class_bits << 4 | (vc & 7u));
}

/* Type byte for the kinds with a single fixed code. */
static uint8_t fixed_type_byte(enum dllp_type type, uint8_t fallback)
{
	size_t n = sizeof(dllp_type_rows) / sizeof(dllp_type_rows[0]);

	for (size_t i = 0; i < n; i++)
		if (dllp_type_rows[i].type == type && dllp_type_rows[i].mask == 0xFF)
			return dllp_type_rows[i].value;
	return fallback;
}

static uint32_t fc_content(const struct dllp *d)
{
	return (uint32_t)(d->hdr_scale & 3u) << 22 | (uint32_t)d->hdr_fc << 14 |
	       (uint32_t)(d->data_scale & 3u) << 12 | (d->data_fc & 0xFFFu);
}

void dllp_encode(const struct dllp *dllp, uint8_t out[6])
{
	uint8_t b0;
	uint32_t content;

	switch (dllp->type) {
	case DLLP_ACK:
	case DLLP_NAK:
		b0 = fixed_type_byte(dllp->type, 0);
		content = dllp->acknak_seq & 0xFFFu;
		break;
	case DLLP_INITFC1:
	case DLLP_INITFC2:
	case DLLP_UPDATEFC:
	case DLLP_MRINITFC1:
	case DLLP_MRINITFC2:
	case DLLP_MRUPDATEFC:
		/* The MR-IOV kinds are opaque [1.2], but decode fills the FC
		 * fields for them too and those cover all 24 content bits, so
		 * the fields are the one representation for every FC-shaped
		 * DLLP (dllp_fc_type_byte() ignores the class for them). */
		b0 = dllp_fc_type_byte(dllp->type, dllp->fc_class, dllp->vc);
		content = fc_content(dllp);
		break;
	case DLLP_FEATURE:
		b0 = fixed_type_byte(dllp->type, 0);
		content = (dllp->feature_ack ? 1u << 23 : 0u) | (dllp->feature_support & 0x7FFFFFu);
		break;
	default:
		/* PM, Vendor, NOP, MRInit, Alt protocol, Link Management:
		 * fixed code and content as given; Reserved: the captured
		 * type byte. */
		b0 = fixed_type_byte(dllp->type, dllp->type_byte);
		content = dllp->content;
		break;
	}
	out[0] = b0;
	out[1] = (uint8_t)(content >> 16);
	out[2] = (uint8_t)(content >> 8);
	out[3] = (uint8_t)content;
	dllp_crc16_bytes(out, out + 4);
}

/* ---- names ------------------------------------------------------------ */

/* Every name of a DLLP kind, once [1.2]: the names dllp_name() and
 * dllp_type_name() print (NAME_PRINTED), the mnemonics of the symbolic
 * text form (capture-format.md section 2) that dllp_mnemonic_lookup()
 * reads (NAME_READ), and the other spellings of analyzer exports
 * (capture-format.md section 3) that dllp_squeezed_lookup() reads besides
 * the mnemonics (NAME_SQUEEZED; at the end, as no trace holds them).  The FC kinds have a row per class and one for the
 * bare kind (NO_CLASS).  Data_Link_Feature is both printed and read, so
 * that a --decode listing reads back; Vendor_Specific is printed only, as
 * the contract's mnemonic is Vendor.  The mnemonics come first, the kinds
 * a trace holds most at the top, since the text reader looks one up per
 * symbolic DLLP. */
enum { NAME_PRINTED = 1u, NAME_READ = 2u, NAME_BOTH = 3u, NAME_SQUEEZED = 4u };
#define NO_CLASS FC_CLASS_COUNT

struct dllp_name_row {
	const char *name;
	uint8_t len; /* strlen(name): compared first */
	uint8_t use; /* NAME_PRINTED | NAME_READ */
	enum dllp_type type;
	enum fc_class cls; /* NO_CLASS but for the FC kinds by class */
};

#define NAME_ROW(str, use, type, cls)                \
	{                                            \
		str, sizeof(str) - 1, use, type, cls \
	}

static const struct dllp_name_row dllp_names[] = {
	NAME_ROW("UpdateFC-P", NAME_BOTH, DLLP_UPDATEFC, FC_P),
	NAME_ROW("UpdateFC-NP", NAME_BOTH, DLLP_UPDATEFC, FC_NP),
	NAME_ROW("UpdateFC-Cpl", NAME_BOTH, DLLP_UPDATEFC, FC_CPL),
	NAME_ROW("Ack", NAME_BOTH, DLLP_ACK, NO_CLASS),
	NAME_ROW("Nak", NAME_BOTH, DLLP_NAK, NO_CLASS),
	NAME_ROW("InitFC1-P", NAME_BOTH, DLLP_INITFC1, FC_P),
	NAME_ROW("InitFC1-NP", NAME_BOTH, DLLP_INITFC1, FC_NP),
	NAME_ROW("InitFC1-Cpl", NAME_BOTH, DLLP_INITFC1, FC_CPL),
	NAME_ROW("InitFC2-P", NAME_BOTH, DLLP_INITFC2, FC_P),
	NAME_ROW("InitFC2-NP", NAME_BOTH, DLLP_INITFC2, FC_NP),
	NAME_ROW("InitFC2-Cpl", NAME_BOTH, DLLP_INITFC2, FC_CPL),
	NAME_ROW("PM_Enter_L1", NAME_BOTH, DLLP_PM_ENTER_L1, NO_CLASS),
	NAME_ROW("PM_Enter_L23", NAME_BOTH, DLLP_PM_ENTER_L23, NO_CLASS),
	NAME_ROW("PM_Active_State_Request_L1", NAME_BOTH, DLLP_PM_AS_REQUEST_L1, NO_CLASS),
	NAME_ROW("PM_Request_Ack", NAME_BOTH, DLLP_PM_REQUEST_ACK, NO_CLASS),
	NAME_ROW("NOP", NAME_BOTH, DLLP_NOP, NO_CLASS),
	NAME_ROW("Feature", NAME_READ, DLLP_FEATURE, NO_CLASS),
	NAME_ROW("Data_Link_Feature", NAME_BOTH, DLLP_FEATURE, NO_CLASS),
	NAME_ROW("Vendor", NAME_READ, DLLP_VENDOR, NO_CLASS),
	NAME_ROW("Vendor_Specific", NAME_PRINTED | NAME_SQUEEZED, DLLP_VENDOR, NO_CLASS),
	NAME_ROW("MRInit", NAME_PRINTED, DLLP_MRINIT, NO_CLASS),
	NAME_ROW("Alt_Protocol_1", NAME_PRINTED, DLLP_ALT_PROTO_1, NO_CLASS),
	NAME_ROW("Alt_Protocol_2", NAME_PRINTED, DLLP_ALT_PROTO_2, NO_CLASS),
	NAME_ROW("Link_Management", NAME_PRINTED, DLLP_LINK_MGMT, NO_CLASS),
	NAME_ROW("InitFC1", NAME_PRINTED, DLLP_INITFC1, NO_CLASS),
	NAME_ROW("InitFC2", NAME_PRINTED, DLLP_INITFC2, NO_CLASS),
	NAME_ROW("UpdateFC", NAME_PRINTED, DLLP_UPDATEFC, NO_CLASS),
	NAME_ROW("MRInitFC1", NAME_PRINTED, DLLP_MRINITFC1, NO_CLASS),
	NAME_ROW("MRInitFC2", NAME_PRINTED, DLLP_MRINITFC2, NO_CLASS),
	NAME_ROW("MRUpdateFC", NAME_PRINTED, DLLP_MRUPDATEFC, NO_CLASS),
	NAME_ROW("Reserved", NAME_PRINTED, DLLP_RESERVED, NO_CLASS),
	NAME_ROW("PM_AS_Request_L1", NAME_SQUEEZED, DLLP_PM_AS_REQUEST_L1, NO_CLASS),
	/* a bare FC kind is read only before a class (fc_class_names[]) */
	NAME_ROW("UpdFC", NAME_SQUEEZED, DLLP_UPDATEFC, NO_CLASS),
};

#define DLLP_NAME_COUNT (sizeof(dllp_names) / sizeof(dllp_names[0]))

/* The printed name of a kind and class (NO_CLASS: the bare kind). */
static const char *printed_name(enum dllp_type type, enum fc_class cls)
{
	for (size_t i = 0; i < DLLP_NAME_COUNT; i++) {
		const struct dllp_name_row *row = &dllp_names[i];

		if ((row->use & NAME_PRINTED) && row->type == type && row->cls == cls)
			return row->name;
	}
	return NULL;
}

/* Mnemonics are read letters without case, '_' and '-' alike. */
static char mnemonic_fold(char c)
{
	return c == '_' ? '-' : ascii_lower(c);
}

const char *dllp_mnemonic_lookup(const char *s, size_t len, enum dllp_type *type,
                                 enum fc_class *cls)
{
	for (size_t i = 0; i < DLLP_NAME_COUNT; i++) {
		const struct dllp_name_row *row = &dllp_names[i];
		size_t k = 0;

		if (!(row->use & NAME_READ) || row->len != len)
			continue;
		while (k < len && mnemonic_fold(s[k]) == mnemonic_fold(row->name[k]))
			k++;
		if (k == len) {
			*type = row->type;
			*cls = row->cls == NO_CLASS ? FC_P : row->cls;
			return row->name;
		}
	}
	return NULL;
}

/* ---- squeezed names (exports) ---- */

/* The names of the FC classes: the printed ones first, by class (the
 * suffix of "UpdateFC-P"), then the spellings of exports. */
static const struct {
	const char *name;
	enum fc_class cls;
} fc_class_names[] = {
	{ "P", FC_P },          { "NP", FC_NP },          { "Cpl", FC_CPL },  { "Posted", FC_P },
	{ "NonPosted", FC_NP }, { "Completion", FC_CPL }, { "Cmpl", FC_CPL },
};

#define SQUEEZED_MAX 48 /* longer than any name squeezed */

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* s[0..len) as lower-case letters and digits into out; false when it
 * does not fit (then it is no name). */
static bool squeeze(const char *s, size_t len, char *out, size_t *out_len)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i++) {
		if (!is_alnum(s[i]))
			continue;
		if (o == SQUEEZED_MAX)
			return false;
		out[o++] = ascii_lower(s[i]);
	}
	*out_len = o;
	return true;
}

/* name, squeezed, is the start of w[0..wlen): its squeezed length in
 * *used. */
static bool squeezed_prefix(const char *w, size_t wlen, const char *name, size_t *used)
{
	size_t k = 0;

	/* every name starts with a letter: most rows end here */
	if (wlen > 0 && w[0] != ascii_lower(name[0]))
		return false;
	for (const char *p = name; *p != '\0'; p++) {
		if (!is_alnum(*p))
			continue;
		if (k == wlen || w[k] != ascii_lower(*p))
			return false;
		k++;
	}
	*used = k;
	return true;
}

static bool is_bare_fc_kind(const struct dllp_name_row *row)
{
	return dllp_is_fc(row->type) && row->cls == NO_CLASS;
}

/* An FC kind then a class: "updatefcp", "initfc1nonposted", "updfccmpl". */
static const char *squeezed_fc(const char *w, size_t wlen, enum dllp_type *type, enum fc_class *cls)
{
	for (size_t i = 0; i < DLLP_NAME_COUNT; i++) {
		const struct dllp_name_row *row = &dllp_names[i];
		size_t used, cused;

		if (!is_bare_fc_kind(row) || !squeezed_prefix(w, wlen, row->name, &used))
			continue;
		for (size_t k = 0; k < sizeof(fc_class_names) / sizeof(fc_class_names[0]); k++) {
			if (squeezed_prefix(w + used, wlen - used, fc_class_names[k].name,
			                    &cused) &&
			    used + cused == wlen) {
				*type = row->type;
				*cls = fc_class_names[k].cls;
				return printed_name(row->type, *cls);
			}
		}
	}
	return NULL;
}

const char *dllp_squeezed_lookup(const char *s, size_t len, enum dllp_type *type,
                                 enum fc_class *cls)
{
	char w[SQUEEZED_MAX];
	size_t wlen, used;

	if (!squeeze(s, len, w, &wlen) || wlen == 0)
		return NULL;
	for (size_t i = 0; i < DLLP_NAME_COUNT; i++) {
		const struct dllp_name_row *row = &dllp_names[i];

		if (!(row->use & (NAME_READ | NAME_SQUEEZED)) || is_bare_fc_kind(row))
			continue;
		if (squeezed_prefix(w, wlen, row->name, &used) && used == wlen) {
			*type = row->type;
			*cls = row->cls == NO_CLASS ? FC_P : row->cls;
			return row->name;
		}
	}
	return squeezed_fc(w, wlen, type, cls);
}

const char *dllp_type_name(enum dllp_type type)
{
	const char *name = printed_name(type, NO_CLASS);

	return name ? name : "Reserved";
}

const char *dllp_name(const struct dllp *dllp)
{
	const char *name = NULL;

	if (dllp_is_fc(dllp->type) && (unsigned)dllp->fc_class < FC_CLASS_COUNT)
		name = printed_name(dllp->type, dllp->fc_class);
	return name ? name : dllp_type_name(dllp->type);
}

const char *fc_class_name(enum fc_class cls)
{
	if ((unsigned)cls >= FC_CLASS_COUNT)
		return "?";
	return fc_class_names[cls].name;
}
