/* record.h: the record every reader yields, and where it came from.
 *
 * A record is one packet or link event as captured, before decoding: its
 * time, the direction it travelled, the link it belongs to, its kind and
 * its bytes (after the pseudo-header of capture-format.md section 1), plus
 * the source position that every message about it must name.
 */
#ifndef DLLPCHECK_RECORD_H
#define DLLPCHECK_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Direction of travel (capture-format.md "Terms"): down is sent by port D
 * toward port U, up by port U toward port D.  Used as an array index:
 * !dir is the partner. */
enum link_dir { DIR_DOWN = 0, DIR_UP = 1, DIR_COUNT = 2 };

/* Record kinds, numbered as in the pcap pseudo-header byte 1. */
enum rec_kind { REC_DLLP = 1, REC_TLP = 2, REC_EVENT = 3 };

/* Flags, numbered as in the pcap pseudo-header byte 2 (bit 0, the
 * direction, is kept in record.dir instead). */
#define REC_F_NO_CRC 0x02u /* no DLLP CRC / TLP LCRC in the bytes */
#define REC_F_PHY_ERROR 0x04u /* capture hardware saw a framing/symbol error */
#define REC_F_NO_SEQ 0x08u /* TLP without its 2-byte sequence field */
#define REC_F_RESERVED 0xF0u

/* Link event codes (capture-format.md section 1, event table). */
enum link_event {
	EV_LINK_UP = 1,
	EV_LINK_DOWN = 2,
	EV_HOT_RESET = 3,
	EV_RECOVERY = 4,
	EV_PORT_RESET = 5,
	EV_VC_ENABLE = 6,
};
#define EV_FIRST EV_LINK_UP
#define EV_LAST EV_VC_ENABLE

/* Sizes of the encapsulation. */
#define PCAP_PSEUDO_HDR_LEN 4u
#define PCAP_PSEUDO_VERSION 0xD1u
#define DLLP_WIRE_LEN 6u /* content + CRC-16 */
#define DLLP_CONTENT_LEN 4u
#define EVENT_LEN 4u
/* The largest TLP record payload: sequence field (2), up to 8 prefix DW
 * (4 End-End plus up to 4 Local: the spec bounds only the End-End ones),
 * a 4 DW header, 1024 DW of data, the ECRC DW and the LCRC. */
#define TLP_MAX_PREFIX_DW 8u
#define TLP_MAX_RECORD_LEN (2u + 4u * TLP_MAX_PREFIX_DW + 16u + 4096u + 4u + 4u)

/* Where a record came from.  file is the name as the user gave it
 * ("-" for standard input); record_no is 1-based; line is 0 for binary
 * inputs.  source_packet is the packet number the capture tool itself
 * gave the record (an analyzer export's packet-number column,
 * capture-format.md section 3), the number the user looks up in that
 * tool; only when has_source_packet. */
struct srcpos {
	const char *file;
	uint64_t record_no;
	uint64_t byte_offset;
	uint64_t line;
	uint64_t source_packet;
	bool has_source_packet;
};

struct record {
	uint64_t time_ps; /* time of the first symbol, picoseconds from
	                        * time_base_s; always below 2^63 */
	uint64_t time_base_s; /* whole seconds of the capture's own clock that
	                        * time_ps counts from: 0, or the first record's
	                        * second in a pcap with calendar timestamps */
	enum rec_kind kind;
	enum link_dir dir;
	uint8_t link; /* link index 0-255 */
	uint8_t flags; /* REC_F_* */
	const uint8_t *bytes; /* payload after the pseudo-header; valid until
	                        * the reader's next call */
	uint32_t len; /* bytes present */
	uint32_t wire_len; /* bytes the packet had on the wire (>= len);
	                        * len < wire_len means the capture truncated it */
	struct srcpos pos;
};

static inline bool record_truncated(const struct record *rec)
{
	return rec->len < rec->wire_len;
}

/* The smallest and largest payload (after the pseudo-header) a record of
 * its kind has on the wire; false for an unknown kind. */
static inline bool record_size_range(const struct record *rec, uint32_t *min, uint32_t *max)
{
	switch (rec->kind) {
	case REC_DLLP:
		*min = *max = rec->flags & REC_F_NO_CRC ? DLLP_CONTENT_LEN : DLLP_WIRE_LEN;
		return true;
	case REC_TLP:
		/* sequence field, a 3 DW header, LCRC */
		*min = (rec->flags & REC_F_NO_SEQ ? 0u : 2u) + 12u +
		       (rec->flags & REC_F_NO_CRC ? 0u : 4u);
		*max = TLP_MAX_RECORD_LEN;
		return true;
	case REC_EVENT:
		*min = *max = EVENT_LEN;
		return true;
	}
	return false;
}

/* record_check() on a record that fails it or is a link event: reason
 * filled when it is malformed. */
bool record_check_full(const struct record *rec, char *reason, size_t reason_len);

/* A DLLP or TLP of a size in its range: record_check() has nothing more
 * to check (told inline, once a record; a link event's code and argument
 * are checked out of line). */
static inline bool record_plainly_ok(const struct record *rec)
{
	uint32_t min, max;
	return rec->kind != REC_EVENT && record_size_range(rec, &min, &max) &&
	       rec->wire_len >= min && rec->wire_len <= max;
}

/* The size its kind requires and, for a link event, a known code and
 * argument (capture-format.md section 1): false with reason filled for a
 * malformed record.  Every reader's records pass through it. */
static inline bool record_check(const struct record *rec, char *reason, size_t reason_len)
{
	return record_plainly_ok(rec) || record_check_full(rec, reason, reason_len);
}

const char *link_dir_name(enum link_dir dir);
const char *link_event_name(unsigned code);
/* Parses an event name ("link-up"...); returns 0 when unknown. */
unsigned link_event_from_name(const char *name, size_t len);

#endif
