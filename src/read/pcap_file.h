/* pcap_file.h: the classic pcap framing and the record encapsulation of
 * capture-format.md section 1, parsed from bytes in memory: what both pcap
 * readers share (reader_pcap.c through libpcap, reader_pcapfile.c of our
 * own) and what the own reader's resync search tests a candidate with.
 *
 * Classic pcap (pcap-savefile(5)), every field in the writer's byte order:
 *
 *     file header, 24 bytes          record header, 16 bytes
 *     0  magic a1b2c3d4 (us)         0  seconds
 *           a1b23c4d (ns)            4  microseconds or nanoseconds
 *     4  version major, minor (u16)  8  captured length (bytes that follow)
 *     8  thiszone, sigfigs           12 original length (on the wire)
 *     16 snapshot length
 *     20 link type (low 26 bits)
 *
 * Nothing here reads a stream or allocates: a caller hands over the bytes
 * it has, and every function checks their length itself.
 */
#ifndef DLLPCHECK_PCAP_FILE_H
#define DLLPCHECK_PCAP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "read/reader.h"

#define PCAP_FILE_HDR_LEN 24u
#define PCAP_REC_HDR_LEN 16u
/* libpcap's MAXIMUM_SNAPLEN, the largest captured length it reads for a
 * user link type: a record header above it is damaged (libpcap stops). */
#define PCAP_MAX_CAPLEN 262144u

/* Where the captured and the original length stand in a record header:
 * pcap 2.0-2.2 (and DG/UX 543.0) wrote them the other way round, and 2.3
 * either way (libpcap's lengths_swapped). */
enum pcap_len_order { PCAP_LEN_PLAIN, PCAP_LEN_SWAPPED, PCAP_LEN_MAYBE_SWAPPED };

struct pcap_file_hdr {
	bool swapped; /* written in the other byte order */
	bool nano; /* nanosecond timestamps */
	enum pcap_len_order lengths;
	uint32_t snaplen; /* as libpcap adjusts it: 0 or > INT_MAX is the maximum */
	uint32_t linktype; /* the field without its upper 6 (FCS) bits */
};

/* A record header as libpcap reads it: seconds and the fraction are the
 * file's 32-bit fields (signed in the host's byte order, unsigned in the
 * other, as libpcap takes them), the fraction scaled to nanoseconds;
 * caplen is the bytes that follow in the file (at most PCAP_MAX_CAPLEN
 * when pcap_rec_hdr_parse() accepted it). */
struct pcap_rec_hdr {
	int64_t ts_sec;
	int64_t ts_ns;
	uint32_t caplen;
	uint32_t len;
};

/* True for the 4 magic numbers of classic pcap (either byte order). */
bool pcap_file_magic(const uint8_t *p, size_t n);
/* Parses the 24-byte file header; false with err filled (naming the file)
 * when it is cut or of a version libpcap does not read. */
bool pcap_file_hdr_parse(const uint8_t *p, size_t n, struct pcap_file_hdr *fh, const char *name,
                         char *err, size_t errlen);
/* Parses a 16-byte record header.  False (why in reason) when its
 * captured length is above PCAP_MAX_CAPLEN: the header is damaged. */
bool pcap_rec_hdr_parse(const struct pcap_file_hdr *fh, const uint8_t p[PCAP_REC_HDR_LEN],
                        struct pcap_rec_hdr *rh, char *reason, size_t reason_len);
/* The bytes of a record libpcap hands over: the captured length cut to
 * the snapshot length (the rest is in the file, and skipped). */
static inline uint32_t pcap_rec_data_len(const struct pcap_file_hdr *fh,
                                         const struct pcap_rec_hdr *rh)
{
	return rh->caplen > fh->snaplen ? fh->snaplen : rh->caplen;
}
/* The resync search's test (capture-format.md section 1): could a record
 * verifiably start with these n bytes (header and at least the 4-byte
 * pseudo-header)?  Its lengths fit the format (the captured length at
 * most the original, the snapshot and the largest record; the fraction
 * below one second), its payload begins with a 0xD1 pseudo-header of a
 * valid kind and no reserved flag, and its time is not before
 * (prev_sec, prev_ns) when have_prev.  That it fits the file is the
 * caller's test: the bytes must be there. */
bool pcap_rec_candidate(const struct pcap_file_hdr *fh, const uint8_t *p, size_t n, bool have_prev,
                        int64_t prev_sec, int64_t prev_ns, struct pcap_rec_hdr *rh);

/* The message when the file's link type is not the one expected. */
void pcap_linktype_error(char *err, size_t errlen, const char *name, int found,
                         const char *found_name, int dlt);

/* The capture's clock: see record.time_base_s. */
struct pcap_clock {
	bool base_set;
	uint64_t base_s;
};
/* Picoseconds from the capture's base second, of a timestamp as libpcap
 * gives it (ns: the nanoseconds field, as it stands). */
uint64_t pcap_clock_ps(struct pcap_clock *c, int64_t sec, int64_t ns);

/* Fills rec (cleared, its position set) from a record's data: the
 * pseudo-header, then the payload.  caplen bytes are at data, len is the
 * original length.  False, with bad filled, when the bytes are not a
 * record of ours (capture-format.md section 1). */
bool pcap_payload_record(const uint8_t *data, uint32_t caplen, uint32_t len, struct record *rec,
                         struct reader_malformed *bad);

#endif
