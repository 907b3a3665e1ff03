/* tlp.h: Transaction Layer Packets as the data link layer sees them:
 * sequence number, prefixes, header, payload, ECRC, LCRC-32; the
 * flow-control class and credit cost of each TLP.
 * specification: spec-digest.md sections 3 (layout, LCRC, nullified) and
 * 4 (header, Fmt/Type, credits, prefixes).
 */
#ifndef DLLPCHECK_TLP_H
#define DLLPCHECK_TLP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/dllp.h" /* enum fc_class, enum crc_status */

enum tlp_kind {
	TLP_MRD,
	TLP_MRDLK,
	TLP_MWR,
	TLP_IORD,
	TLP_IOWR,
	TLP_CFGRD0,
	TLP_CFGWR0,
	TLP_CFGRD1,
	TLP_CFGWR1,
	TLP_MSG,
	TLP_MSGD,
	TLP_CPL,
	TLP_CPLD,
	TLP_CPLLK,
	TLP_CPLDLK,
	TLP_FETCHADD,
	TLP_SWAP,
	TLP_CAS,
	TLP_DMWR,
	TLP_KIND_UNKNOWN, /* reserved Fmt/Type: malformed */
	TLP_KIND_COUNT
};

/* Completion Status [S62-2 2.2.9; spec-digest 4.1]. */
enum tlp_cpl_status {
	TLP_CPL_SC = 0, /* Successful Completion */
	TLP_CPL_UR = 1, /* Unsupported Request */
	TLP_CPL_CRS = 2, /* Configuration Request Retry Status */
	TLP_CPL_CA = 4, /* Completer Abort */
};

/* Why a TLP is malformed (tlp.malformed) or truncated; TLP_OK otherwise. */
enum tlp_status {
	TLP_OK,
	TLP_TRUNCATED, /* the capture holds fewer bytes than the TLP had */
	TLP_ERR_TOO_SHORT, /* not even a header (or seq+LCRC) */
	TLP_ERR_PREFIX_ONLY, /* prefixes with no header after them */
	TLP_ERR_TOO_MANY_PREFIXES,
	TLP_ERR_PREFIX_ORDER, /* a Local prefix after an End-End one */
	TLP_ERR_RESERVED_TYPE, /* reserved Fmt/Type combination */
	TLP_ERR_LENGTH, /* payload size disagrees with Length/TD */
	TLP_ERR_TOO_LONG,
};

#define TLP_PREFIX_MAX 8
/* The most DW a Length field says: 1024, written 000h [4.1]. */
#define TLP_MAX_LENGTH_DW 1024u

struct tlp {
	/* Data link layer */
	bool has_seq; /* the record's format carries the sequence field */
	bool seq_present; /* and its 2 bytes were there: seq was read */
	uint16_t seq; /* 12 bits */
	uint8_t seq_reserved; /* the 4 bits above it */
	enum crc_status lcrc; /* GOOD, BAD, NULLIFIED or ABSENT */
	uint32_t lcrc_field; /* the 4 LCRC bytes as captured, big-endian */
	uint32_t lcrc_expected;

	/* Prefixes (1 DW each) */
	uint8_t prefix_count;
	uint8_t prefix_local_count;
	uint8_t prefix_type[TLP_PREFIX_MAX]; /* byte 0 of each prefix (Fmt=100b|Type) */

	/* Header DW0 */
	uint8_t fmt; /* 3 bits */
	uint8_t type; /* 5 bits */
	enum tlp_kind kind;
	uint8_t hdr_dw; /* 3 or 4 */
	uint8_t tc;
	bool td, ep;
	uint8_t attr;
	bool th; /* TLP Processing Hints present */
	uint16_t length_field; /* 10 bits as on the wire */
	uint16_t length_dw; /* 1..1024 (0 encodes 1024) */
	uint8_t msg_routing; /* Msg/MsgD: the rrr bits */

	/* Sizes */
	uint32_t payload_dw; /* data DW actually present (0 for no-data TLPs) */
	bool has_data; /* Fmt says the TLP carries data */

	/* Header DW1 onwards [4.1]: what a transaction is made of.  Set only
	 * when the whole header is in the record (header_known); zero else. */
	bool header_known;
	uint16_t requester_id; /* requests and messages: DW1; completions: DW2 */
	uint16_t tag; /* 10 bits: T9 (DW0 byte 1 bit 7), T8 (bit 3), Tag[7:0] */
	uint8_t first_be, last_be; /* requests (4 bits each; reserved for AtomicOps); for
	                            * an MRd or DMWr with TH the implied ones, the
	                            * byte then carrying ST[7:0] (steering_tag) */
	uint8_t steering_tag; /* MRd, DMWr with TH: ST[7:0] */
	uint64_t address; /* memory and I/O requests: the byte address (bits 1:0 zero) */
	uint16_t target_id; /* configuration requests: Bus, Device, Function */
	uint16_t cfg_register; /* configuration requests: the register's byte offset */
	uint16_t completer_id; /* completions */
	uint8_t cpl_status; /* completions: 3 bits (enum tlp_cpl_status) */
	bool bcm; /* completions: Byte Count Modified */
	uint16_t byte_count_field; /* completions: 12 bits as on the wire (000h = 4096) */
	uint8_t lower_address; /* completions: 7 bits */
	uint8_t msg_code; /* messages */

	/* ECRC (TLP Digest) [3.3], when td: GOOD or BAD (ABSENT otherwise) */
	enum crc_status ecrc;
	uint32_t ecrc_field, ecrc_expected;

	/* Flow control */
	enum fc_class fc_class;
	uint8_t hdr_credits; /* always 1 for a well-formed TLP */
	uint16_t data_credits; /* ceil(payload_dw / 4) */

	enum tlp_status status;
};

/* Decodes a TLP record: [seq (2 bytes) unless !has_seq] TLP [LCRC (4)
 * unless !has_lcrc].  wire_len is the length the packet had on the wire
 * (>= len); when it is larger the capture truncated the packet: decode
 * what is there, set status TLP_TRUNCATED and lcrc CRC_ABSENT.
 * Never reads past len.  Returns out->status. */
enum tlp_status tlp_decode(const uint8_t *bytes, size_t len, size_t wire_len, bool has_seq,
                           bool has_lcrc, struct tlp *out);

/* The 4 LCRC bytes, in wire order, for the seq+TLP bytes p[0..n) [3.2].
 * The 4 reserved bits of p[0] are taken as they are. */
void tlp_lcrc_bytes(const uint8_t *p, size_t n, uint8_t out[4]);

/* Header fields a TLP to encode is given.  Each *_given says the field
 * is the caller's; else the encoder's default (its own IDs and
 * addresses, the tag from the sequence number, all byte enables of the
 * length, a successful completion of the whole length from Lower Address
 * 0).  For a configuration request address holds Bus/Device/Function in
 * bits 31:16 and the register's byte offset in bits 11:0. */
struct tlp_fields {
	bool requester_given, tag_given, address_given, be_given, completer_given;
	bool byte_count_given, lower_address_given, msg_code_given;
	bool ep; /* poisoned */
	uint16_t requester_id;
	uint16_t tag; /* 10 bits */
	uint64_t address;
	uint8_t first_be, last_be;
	uint16_t completer_id;
	uint8_t cpl_status;
	uint16_t byte_count; /* 1..4096 */
	uint8_t lower_address;
	uint8_t msg_code;
};

/* What tlp_encode builds. */
struct tlp_spec {
	enum tlp_kind kind;
	bool addr64; /* 4 DW header for MRd/MRdLk/MWr/AtomicOps/DMWr */
	uint16_t seq;
	uint16_t length_dw; /* 1..1024; for reads the length requested */
	uint8_t tc;
	bool td; /* append an ECRC digest */
	uint8_t msg_routing; /* Msg/MsgD; default 100b (local) is up to the caller */
	bool has_seq;
	bool has_lcrc;
	bool nullify; /* send the LCRC inverted */
	struct tlp_fields hdr; /* header fields; zeroed: the defaults */
	bool force_lcrc; /* use forced_lcrc as the LCRC field */
	uint32_t forced_lcrc;
};

/* Encodes a TLP into out (at most cap bytes): a correct header for the
 * kind, payload of the right size (a deterministic byte pattern), ECRC
 * when td, then LCRC.  Returns the number of bytes written, or 0 when cap
 * is too small or the spec is impossible (length out of range). */
size_t tlp_encode(const struct tlp_spec *spec, uint8_t *out, size_t cap);

/* Looks a mnemonic up ("MWr32", "MRd64", "CplD", "CAS64", ...): returns
 * true and fills kind/addr64. */
bool tlp_mnemonic_parse(const char *name, size_t len, enum tlp_kind *kind, bool *addr64);

/* "MWr", "CplD", "Msg", ...; never NULL. */
const char *tlp_kind_name(enum tlp_kind kind);
/* Text of a status for messages: "payload is 3 DW but Length says 4". Generic. */
const char *tlp_status_text(enum tlp_status status);

/* The 4 ECRC (TLP Digest) bytes, in wire order, for the TLP bytes
 * tlp[0..n) (prefixes, header, payload; no sequence field, no digest)
 * [3.3]: Local prefixes are skipped and the header's variant bits
 * (Type[0], EP) are taken as 1. */
void tlp_ecrc_bytes(const uint8_t *tlp, size_t n, uint8_t out[4]);

/* The capture-format mnemonic for a kind and header size ("MWr32",
 * "MRd64", "CfgRd0", "Msg", "CAS64"); kinds with one header size ignore
 * addr64.  Never NULL. */
const char *tlp_mnemonic(enum tlp_kind kind, bool addr64);

/* ---- what a transaction's bytes add up to [rules.md "The transaction
 * layer"] ---- */

/* The bytes a memory read asks for: 4*Length less the disabled bytes
 * below the first enabled one of First DW BE and above the last enabled
 * one of Last DW BE (Length > 1); for Length 1 the span of the set First
 * DW BE bits, 1 when it is 0000b.  length_dw is 1..1024. */
static inline uint32_t tlp_read_bytes(uint32_t length_dw, uint8_t first_be, uint8_t last_be)
{
	unsigned fbe = first_be & 0x0Fu, lbe = last_be & 0x0Fu;
	/* disabled bytes below the first enabled one, above the last (4
	 * when none is enabled) */
	uint32_t low = fbe ? (uint32_t)__builtin_ctz(fbe) : 4u;
	if (length_dw == 1) {
		/* a zero-length read (First DW BE 0000b) still asks for one
		 * byte's completion [rules.md "The transaction layer"] */
		if (fbe == 0)
			return 1;
		return 4u - low - (3u - (31u - (uint32_t)__builtin_clz(fbe)));
	}
	uint32_t high = lbe ? 3u - (31u - (uint32_t)__builtin_clz(lbe)) : 4u;
	uint32_t bytes = 4u * length_dw;
	return low + high < bytes ? bytes - low - high : 0;
}

/* The byte count of a Byte Count field: 000h means 4096. */
static inline uint32_t tlp_byte_count(uint16_t field)
{
	return field & 0xFFFu ? field & 0xFFFu : 4096u;
}

/* The bytes a completion with data delivers: min(Byte Count,
 * 4*Length - (Lower Address mod 4)). */
static inline uint32_t tlp_cpl_delivered(uint32_t byte_count, uint32_t length_dw,
                                         uint8_t lower_address)
{
	uint32_t carried = 4u * length_dw - (lower_address & 3u);
	return byte_count < carried ? byte_count : carried;
}

/* The first byte address a memory request's data covers (address plus
 * the disabled low bytes of First DW BE); AtomicOps: the address. */
static inline uint64_t tlp_first_byte_address(const struct tlp *t)
{
	unsigned fbe = t->first_be & 0x0Fu;
	bool atomic = t->kind == TLP_FETCHADD || t->kind == TLP_SWAP || t->kind == TLP_CAS;
	if (atomic || fbe == 0)
		return t->address;
	return t->address + (unsigned)__builtin_ctz(fbe);
}

/* "SC", "UR", "CRS", "CA", or "reserved"; never NULL. */
const char *tlp_cpl_status_name(uint8_t status);
/* Message code names [S62-2 2.2.8]: "Assert_INTA", "PME_Turn_Off", ...;
 * NULL for a code without a name here. */
const char *tlp_msg_code_name(uint8_t code);
/* The routing a message of that code is sent with (Vendor_Defined ones
 * and unknown codes: 100b, local). */
uint8_t tlp_msg_code_routing(uint8_t code);
/* Message routing rrr names: "to-rc", "by-address", "by-id",
 * "broadcast", "local", "gathered", "reserved". */
const char *tlp_msg_routing_name(uint8_t routing);
/* Looks a message code up by name (case-blind); false when unknown. */
bool tlp_msg_code_parse(const char *name, size_t len, uint8_t *code);

/* Kinds by what they are (inline: several a TLP). */
static inline bool tlp_kind_is_completion(enum tlp_kind kind)
{
	return kind == TLP_CPL || kind == TLP_CPLD || kind == TLP_CPLLK || kind == TLP_CPLDLK;
}
static inline bool tlp_kind_is_message(enum tlp_kind kind)
{
	return kind == TLP_MSG || kind == TLP_MSGD;
}
/* Non-posted requests: answered by a completion. */
static inline bool tlp_kind_is_nonposted(enum tlp_kind kind)
{
	switch (kind) {
	case TLP_MRD:
	case TLP_MRDLK:
	case TLP_IORD:
	case TLP_IOWR:
	case TLP_CFGRD0:
	case TLP_CFGWR0:
	case TLP_CFGRD1:
	case TLP_CFGWR1:
	case TLP_FETCHADD:
	case TLP_SWAP:
	case TLP_CAS:
	case TLP_DMWR:
		return true;
	default:
		return false;
	}
}

#endif
