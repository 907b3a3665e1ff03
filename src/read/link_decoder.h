/* link_decoder.h: the PCIe captures of other tools inside a pcap or
 * pcapng file (issue 17): a packet of the capture is not one record of
 * our encapsulation (capture-format.md section 1) but bytes another
 * tool's format gives, from which a decoder makes zero or more records.
 *
 * The pcap and pcapng readers (reader_pcapfile.c, reader_pcapngfile.c)
 * keep the encapsulation of capture-format.md for the link type --dlt
 * names (USER0 by default); a file of another link type is handed to
 * link_decoder_for(), which picks the decoder by link type (and, for
 * network captures, by content: TCP port or UDP port range):
 *
 *     LINKTYPE_USER11 (158)          Agilent/Keysight export   read/agilent_*.c
 *     Ethernet, NULL, LOOP, RAW,     read/net/: Warp Pipe over TCP,
 *     LINUX_SLL, LINUX_SLL2, IPV4,   NetTLP over UDP
 *     IPV6
 *
 * The reader feeds every packet to the decoder and then pulls what it
 * made until next() says READER_EOF, before it reads the next packet.
 * A decoder keeps what it needs from a packet (the bytes are valid during
 * the call only) within a fixed bound, so memory does not grow with the
 * capture.
 *
 * Positions of the records a decoder makes (contract reading, see the
 * issue-17 note): pos.record_no counts the records the input yielded
 * (1-based, increasing, as for every other format); the reader sets it
 * on every record and report next() returns (READER_RESYNC: the number
 * the next record gets), in one count with its own reports of packets
 * it could not frame, whatever the decoder put there; pos.source_packet is the number of the capture's packet that
 * holds the record's first byte (the frame number Wireshark shows),
 * has_source_packet true; pos.byte_offset is the file offset of that
 * first byte when it is known, else of the packet's data.  file is the
 * input's name.
 */
#ifndef DLLPCHECK_LINK_DECODER_H
#define DLLPCHECK_LINK_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "read/reader.h"

/* One packet of the capture as the file holds it. */
struct link_packet {
	const uint8_t *data; /* caplen bytes, valid during the call */
	uint32_t caplen; /* bytes captured */
	uint32_t len; /* bytes on the wire (>= caplen) */
	uint64_t time_ps; /* as the reader computed it (pcap_clock_ps) */
	uint64_t time_base_s;
	uint64_t packet_no; /* 1-based number of the packet in the file */
	uint64_t byte_offset; /* file offset of data[0] */
};

struct link_decoder_ops {
	const char *format_name; /* "agilent", "warp-pipe", "nettlp", ... */
	/* One packet; what it makes is pulled by next(). */
	void (*packet)(void *state, const struct link_packet *pkt);
	/* The next record, or a READER_MALFORMED / READER_RESYNC report of
	 * what could not be made into one, from the packets fed so far;
	 * READER_EOF: nothing more until the next packet (after end():
	 * nothing more at all).  rec->bytes stay valid until the next call. */
	enum reader_result (*next)(void *state, struct record *rec, struct reader_malformed *bad);
	/* The input ended: what is held (a TCP stream's segments after a
	 * gap, a frame cut by the end) is given out or reported by next(). */
	void (*end)(void *state);
	/* The bytes of the packets' data in what was decoded and in what was
	 * skipped (not PCIe traffic, damaged), for the byte accounting of
	 * reader_ops.bytes; optional. */
	void (*bytes)(void *state, uint64_t *decoded, uint64_t *skipped);
	void (*free)(void *state);
};

struct link_decoder {
	const struct link_decoder_ops *ops;
	void *state;
};

/* The decoder for a file of this link type whose packets are not our
 * encapsulation (linktype != opts->dlt).  False when there is none (err
 * says the link type is not one dllpcheck reads, naming the file and
 * the link types it does read) or it cannot be made (out of memory). */
bool link_decoder_for(uint32_t linktype, const struct reader_opts *opts, const char *name,
                      struct link_decoder *dec, char *err, size_t errlen);

/* The byte accounting of a reader (reader_ops.bytes) with a decoder: the
 * bytes of packet data the decoder skipped move from read to skipped, so
 * that read + skipped stays the file's size.  Nothing for no decoder
 * (ops NULL) or one without bytes(). */
void link_decoder_account(const struct link_decoder *dec, uint64_t *read, uint64_t *skipped);

/* The next packet of a reader, for link_decoder_pull: true with *pkt;
 * false with *res READER_EOF (the file ended) or another result, bad
 * filled and numbered by the reader. */
typedef bool (*link_next_packet_fn)(void *reader, struct link_packet *pkt,
                                    struct reader_malformed *bad, enum reader_result *res);

/* A pcap or pcapng reader's next() for another tool's encapsulation: what
 * dec made of the packets so far, then the reader's next packet fed to it,
 * until the file ends and dec gives out what it held.  The records and
 * reports are numbered in *no, one count with the reader's own reports;
 * *ended: the file's end was told to dec. */
enum reader_result link_decoder_pull(const struct link_decoder *dec, uint64_t *no, bool *ended,
                                     link_next_packet_fn next_packet, void *reader,
                                     struct record *rec, struct reader_malformed *bad);

#endif
