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

#include "base/attrs.h"
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
/* Fields are assembled from little-endian bytes whatever the host:
 * "swapped" means the writer was big-endian. */
static inline uint32_t pcap_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t pcap_get32(bool swapped, const uint8_t *p)
{
	uint32_t v = pcap_le32(p);
	return swapped ? __builtin_bswap32(v) : v;
}

/* A record header's fields as libpcap 1.10 hands them over (the
 * differential test holds it): a file in the host's byte order has its
 * time fields read as signed 32-bit values (struct pcap_timeval), a file
 * in the other order as unsigned ones (SWAPLONG's result); microseconds
 * are scaled in 64 bits.  Inline, as the rest of a record's framing
 * below: it runs once a record. */
static inline void pcap_rec_hdr_fields(const struct pcap_file_hdr *fh, const uint8_t *p,
                                       struct pcap_rec_hdr *rh)
{
	uint32_t sec = pcap_get32(fh->swapped, p), frac = pcap_get32(fh->swapped, p + 4);
	if (fh->swapped == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)) {
		rh->ts_sec = (int32_t)sec;
		rh->ts_ns = (int32_t)frac;
	} else {
		rh->ts_sec = sec;
		rh->ts_ns = frac;
	}
	if (!fh->nano)
		rh->ts_ns *= 1000;
	rh->caplen = pcap_get32(fh->swapped, p + 8);
	rh->len = pcap_get32(fh->swapped, p + 12);
	if (fh->lengths == PCAP_LEN_SWAPPED ||
	    (fh->lengths == PCAP_LEN_MAYBE_SWAPPED && rh->caplen > rh->len)) {
		uint32_t t = rh->caplen;
		rh->caplen = rh->len;
		rh->len = t;
	}
}

/* pcap_rec_hdr_parse()'s refusal: reason filled; always false. */
COLD_PATH bool pcap_rec_hdr_too_long(const struct pcap_rec_hdr *rh, char *reason,
                                     size_t reason_len);

/* Parses a 16-byte record header.  False (why in reason) when its
 * captured length is above PCAP_MAX_CAPLEN: the header is damaged. */
static inline bool pcap_rec_hdr_parse(const struct pcap_file_hdr *fh,
                                      const uint8_t p[PCAP_REC_HDR_LEN], struct pcap_rec_hdr *rh,
                                      char *reason, size_t reason_len)
{
	pcap_rec_hdr_fields(fh, p, rh);
	return rh->caplen <= PCAP_MAX_CAPLEN || pcap_rec_hdr_too_long(rh, reason, reason_len);
}
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
/* Timestamps from this second on (about 116 days) are taken as calendar
 * time: the capture then counts from its first record's second. */
#define PCAP_TIME_BASE_MIN_S UINT64_C(10000000)

/* Picoseconds from the capture's base second, of a timestamp as libpcap
 * gives it (ns: the nanoseconds field, as it stands).  Picoseconds fit 64
 * bits for 213 days only, and a pcap's timestamps are often calendar time
 * (seconds since 1970): such a capture counts from the whole second of
 * its first record.  Earlier records clamp to 0 (and are
 * capture.time-backwards); later than 2^63 ps (106 days) clamp there.
 * The arithmetic is on the values as libpcap hands them over, so that
 * both readers agree. */
static inline uint64_t pcap_clock_ps(struct pcap_clock *c, int64_t sec_field, int64_t ns_field)
{
	uint64_t sec = (uint64_t)sec_field;
	uint64_t ns = (uint64_t)ns_field;
	if (ns >= 1000000000u) /* not a valid fraction; the division only then */
		ns %= 1000000000u;
	if (!c->base_set) {
		c->base_set = true;
		c->base_s = sec >= PCAP_TIME_BASE_MIN_S ? sec : 0;
	}
	if (sec < c->base_s)
		return 0;
	sec -= c->base_s;
	if (sec >= (uint64_t)INT64_MAX / 1000000000000u)
		return (uint64_t)INT64_MAX;
	return sec * 1000000000000u + ns * 1000u;
}

/* pcap_payload_record()'s refusal: bad filled with the first of its
 * conditions the bytes fail, in the order listed there; always false. */
COLD_PATH bool pcap_payload_malformed(struct reader_malformed *bad, const struct record *rec,
                                      const uint8_t *data, uint32_t caplen, uint32_t len);

/* Fills rec (cleared, its position set) from a record's data: the
 * pseudo-header, then the payload.  caplen bytes are at data, len is the
 * original length.  False, with bad filled, when the bytes are not a
 * record of ours (capture-format.md section 1): shorter than the
 * pseudo-header, another version, an unknown kind, a reserved flag. */
static inline bool pcap_payload_record(const uint8_t *data, uint32_t caplen, uint32_t len,
                                       struct record *rec, struct reader_malformed *bad)
{
	if (caplen < PCAP_PSEUDO_HDR_LEN || len < PCAP_PSEUDO_HDR_LEN ||
	    data[0] != PCAP_PSEUDO_VERSION || data[1] < REC_DLLP || data[1] > REC_EVENT ||
	    (data[2] & REC_F_RESERVED))
		return pcap_payload_malformed(bad, rec, data, caplen, len);
	rec->kind = (enum rec_kind)data[1];
	rec->dir = data[2] & 1u ? DIR_UP : DIR_DOWN;
	rec->flags = (uint8_t)(data[2] & ~1u);
	rec->link = data[3];
	rec->bytes = data + PCAP_PSEUDO_HDR_LEN;
	rec->len = caplen - PCAP_PSEUDO_HDR_LEN;
	rec->wire_len = len - PCAP_PSEUDO_HDR_LEN;
	if (rec->wire_len < rec->len)
		rec->wire_len = rec->len; /* a lying header: trust what is there */
	return true;
}

#endif
