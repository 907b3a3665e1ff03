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
	bool has_seq;
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
	uint16_t length_field; /* 10 bits as on the wire */
	uint16_t length_dw; /* 1..1024 (0 encodes 1024) */
	uint8_t msg_routing; /* Msg/MsgD: the rrr bits */

	/* Sizes */
	uint32_t payload_dw; /* data DW actually present (0 for no-data TLPs) */
	bool has_data; /* Fmt says the TLP carries data */

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

#endif
