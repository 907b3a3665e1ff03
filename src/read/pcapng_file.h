/* pcapng_file.h: pcapng blocks parsed from bytes in memory, for the own
 * pcapng reader (reader_pcapngfile.c) and its resync search.  The rules
 * are libpcap 1.10's (sf-pcapng.c), the reference reader of
 * capture-format.md section 1, down to its messages, so that the two
 * readers give the same records (tests/pcap_compare.h).
 *
 * Every block, in the section's byte order:
 *
 *     0  block type          SHB 0x0A0D0D0A, IDB 1, PB 2 (obsolete), SPB 3,
 *     4  total length            EPB 6; other types are skipped
 *     8  body ...            (a multiple of 4, at least 12)
 *     -4 total length again
 *
 *     SHB body: byte-order magic 1A2B3C4D, version u16.u16, section length
 *               u64, options
 *     IDB body: link type u16, reserved u16, snapshot length u32, options
 *               (if_tsresol 9: 1 byte, 10^-n or 2^-n with bit 7; if_tsoffset
 *               14: 8 bytes, seconds)
 *     EPB body: interface u32, time high u32, time low u32, captured length,
 *               original length, data (padded to 4), options
 *     SPB body: original length, data (the captured length is the smaller
 *               of it and the snapshot length); no time
 *     PB body:  interface u16, drops u16, then as the EPB
 *
 * Nothing here reads a stream or allocates.
 */
#ifndef DLLPCHECK_PCAPNG_FILE_H
#define DLLPCHECK_PCAPNG_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCAPNG_SHB 0x0A0D0D0Au
#define PCAPNG_IDB 1u
#define PCAPNG_PB 2u
#define PCAPNG_SPB 3u
#define PCAPNG_EPB 6u
#define PCAPNG_BOM 0x1A2B3C4Du
#define PCAPNG_BLOCK_MIN 12u
/* libpcap's BT_SHB_INSANE_MAX and INITIAL_MAX_BLOCKSIZE */
#define PCAPNG_SHB_MAX (1u << 20)
#define PCAPNG_BLOCK_MAX (16u << 20)

/* How libpcap scales an interface's fractions to nanoseconds. */
enum pcapng_scale { PCAPNG_PASS, PCAPNG_UP_DEC, PCAPNG_DOWN_DEC, PCAPNG_UP_BIN, PCAPNG_DOWN_BIN };

struct pcapng_if {
	uint64_t tsresol; /* units per second */
	int64_t tsoffset; /* seconds added */
	enum pcapng_scale scale;
	uint64_t scale_factor;
	bool refused; /* its IDB was refused: its packets are malformed */
};

/* A packet block's fields. */
struct pcapng_packet {
	uint32_t interface_id;
	uint64_t t; /* the time in the interface's units */
	uint32_t caplen, len;
	const uint8_t *data; /* caplen bytes */
};

uint32_t pcapng_get32(bool swapped, const uint8_t *p);

/* The first block of the file, the SHB: n bytes at p.  Sets *swapped;
 * false, with err filled (naming the file), when libpcap would not open
 * it (not pcapng, bad length or version, cut). */
bool pcapng_shb_first(const uint8_t *p, size_t n, bool *swapped, uint32_t *len, const char *name,
                      char *err, size_t errlen);
/* A framed block's header: why the length cannot be (libpcap's message
 * into reason) or true.  max: the largest block accepted. */
bool pcapng_block_len_ok(uint32_t len, uint32_t max, char *reason, size_t reason_len);
/* A later SHB (a new section): body of body_len bytes.  The byte order
 * may change here (libpcap stops at that; the own reader reads on in the
 * new order). */
bool pcapng_shb_next(const uint8_t *body, size_t body_len, bool *swapped, char *reason,
                     size_t reason_len);
/* An IDB's body: link type, snapshot length (as libpcap adjusts it) and
 * the interface's time rules; false with libpcap's message. */
bool pcapng_idb(bool swapped, const uint8_t *body, size_t body_len, uint32_t *linktype,
                uint32_t *snaplen, struct pcapng_if *ifc, char *reason, size_t reason_len);
/* A packet block's body (type EPB, SPB or PB); false with libpcap's
 * message when it is too short for its fields or its data, or its
 * captured length is above the snapshot length.  ifcount: interfaces
 * known in the section. */
bool pcapng_packet(bool swapped, uint32_t type, const uint8_t *body, size_t body_len,
                   uint32_t snaplen, uint32_t ifcount, struct pcapng_packet *pkt, char *reason,
                   size_t reason_len);
/* The packet's time as libpcap hands it over (seconds, nanoseconds). */
void pcapng_time(const struct pcapng_if *ifc, uint64_t t, int64_t *sec, int64_t *ns);
/* The resync search's test (capture-format.md section 1), in two steps:
 * could a block verifiably start at these n (>= 12) bytes?  A known type
 * and a length that fits the format (a multiple of 4, at least the type's
 * fixed part, at most max); an SHB may be in either byte order (*swapped
 * is set from its byte-order magic), other blocks are read in *swapped.
 * Then, with its len bytes in hand: does its trailing length match? */
bool pcapng_block_head_ok(const uint8_t *p, size_t n, uint32_t max, bool *swapped, uint32_t *len);
bool pcapng_block_tail_ok(const uint8_t *p, uint32_t len, bool swapped);

#endif
