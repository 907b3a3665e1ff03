/* pcap_file.c: classic pcap headers and the record encapsulation, from
 * bytes in memory (layout in pcap_file.h).  The header rules follow what
 * libpcap 1.10 accepts (sf-pcap.c), since libpcap is the reference reader
 * (capture-format.md section 1): versions 2.0-2.4 and 543.0, the
 * snapshot length 0 or above INT_MAX read as the largest, captured
 * lengths above 262144 refused, lengths swapped before version 2.3.
 */
#include <stdio.h>
#include <string.h>

#include "base/attrs.h"
#include "read/pcap_file.h"

#define PCAP_MAGIC_US UINT32_C(0xa1b2c3d4)
#define PCAP_MAGIC_NS UINT32_C(0xa1b23c4d)

static uint16_t get16(bool swapped, const uint8_t *p)
{
	uint16_t v = (uint16_t)(p[0] | p[1] << 8);
	return swapped ? __builtin_bswap16(v) : v;
}

/* "swapped" means the writer was big-endian (pcap_le32). */
static bool magic_order(const uint8_t *p, bool *swapped, bool *nano)
{
	uint32_t m = pcap_le32(p);
	if (m == PCAP_MAGIC_US || m == PCAP_MAGIC_NS) {
		*swapped = false;
		*nano = m == PCAP_MAGIC_NS;
		return true;
	}
	m = __builtin_bswap32(m);
	if (m == PCAP_MAGIC_US || m == PCAP_MAGIC_NS) {
		*swapped = true;
		*nano = m == PCAP_MAGIC_NS;
		return true;
	}
	return false;
}

bool pcap_file_magic(const uint8_t *p, size_t n)
{
	bool swapped, nano;
	return n >= 4 && magic_order(p, &swapped, &nano);
}

bool pcap_file_hdr_parse(const uint8_t *p, size_t n, struct pcap_file_hdr *fh, const char *name,
                         char *err, size_t errlen)
{
	memset(fh, 0, sizeof(*fh));
	if (n < 4 || !magic_order(p, &fh->swapped, &fh->nano)) {
		snprintf(err, errlen, "%s: not a readable pcap file: unknown magic number", name);
		return false;
	}
	if (n < PCAP_FILE_HDR_LEN) {
		snprintf(err, errlen,
		         "%s: not a readable pcap file: the file header is cut "
		         "after %zu of its %u bytes",
		         name, n, PCAP_FILE_HDR_LEN);
		return false;
	}
	unsigned major = get16(fh->swapped, p + 4), minor = get16(fh->swapped, p + 6);
	if (major < 2) {
		snprintf(err, errlen,
		         "%s: not a readable pcap file: archaic pcap savefile "
		         "format %u.%u",
		         name, major, minor);
		return false;
	}
	if (!((major == 2 && minor <= 4) || (major == 543 && minor == 0))) {
		snprintf(err, errlen,
		         "%s: not a readable pcap file: unsupported pcap savefile "
		         "version %u.%u",
		         name, major, minor);
		return false;
	}
	if (major == 543 || minor < 3)
		fh->lengths = PCAP_LEN_SWAPPED;
	else
		fh->lengths = minor == 3 ? PCAP_LEN_MAYBE_SWAPPED : PCAP_LEN_PLAIN;
	fh->snaplen = pcap_get32(fh->swapped, p + 16);
	if (fh->snaplen == 0 || fh->snaplen > INT32_MAX)
		fh->snaplen = PCAP_MAX_CAPLEN;
	/* libpcap's LT_LINKTYPE: the upper 6 bits say FCS lengths */
	fh->linktype = pcap_get32(fh->swapped, p + 20) & 0x03FFFFFFu;
	return true;
}

bool pcap_rec_hdr_too_long(const struct pcap_rec_hdr *rh, char *reason, size_t reason_len)
{
	snprintf(reason, reason_len,
	         "captured length %u is above the largest a pcap "
	         "record can have (%u)",
	         rh->caplen, PCAP_MAX_CAPLEN);
	return false;
}

bool pcap_rec_candidate(const struct pcap_file_hdr *fh, const uint8_t *p, size_t n, bool have_prev,
                        int64_t prev_sec, int64_t prev_ns, struct pcap_rec_hdr *rh)
{
	if (n < PCAP_REC_HDR_LEN + PCAP_PSEUDO_HDR_LEN)
		return false;
	const uint8_t *d = p + PCAP_REC_HDR_LEN;
	if (d[0] != PCAP_PSEUDO_VERSION || d[1] < REC_DLLP || d[1] > REC_EVENT ||
	    (d[2] & REC_F_RESERVED))
		return false;
	pcap_rec_hdr_fields(fh, p, rh);
	/* the smallest record of ours is a DLLP without CRC: pseudo-header
	 * and 4 bytes; the largest the longest TLP */
	if (rh->caplen < PCAP_PSEUDO_HDR_LEN || rh->caplen > rh->len || rh->caplen > fh->snaplen ||
	    rh->len < PCAP_PSEUDO_HDR_LEN + DLLP_CONTENT_LEN ||
	    rh->len > PCAP_PSEUDO_HDR_LEN + TLP_MAX_RECORD_LEN)
		return false;
	if (rh->ts_ns < 0 || rh->ts_ns >= 1000000000 || rh->ts_sec < 0)
		return false;
	if (have_prev && (rh->ts_sec < prev_sec || (rh->ts_sec == prev_sec && rh->ts_ns < prev_ns)))
		return false;
	return true;
}

void pcap_linktype_error(char *err, size_t errlen, const char *name, int found,
                         const char *found_name, int dlt)
{
	snprintf(err, errlen,
	         "%s: link type %d (%s) found, %d (LINKTYPE_USER%d) expected; "
	         "use --dlt to read another user link type",
	         name, found, found_name ? found_name : "unknown", dlt, dlt - 147);
}

bool pcap_payload_malformed(struct reader_malformed *bad, const struct record *rec,
                            const uint8_t *data, uint32_t caplen, uint32_t len)
{
	bad->pos = rec->pos;
	bad->column = 0;
	if (caplen < PCAP_PSEUDO_HDR_LEN || len < PCAP_PSEUDO_HDR_LEN)
		snprintf(bad->reason, sizeof(bad->reason),
		         "record of %u bytes is shorter than the 4-byte pseudo-header", caplen);
	else if (data[0] != PCAP_PSEUDO_VERSION)
		snprintf(bad->reason, sizeof(bad->reason),
		         "pseudo-header version 0x%02X, expected 0x%02X", data[0],
		         PCAP_PSEUDO_VERSION);
	else if (data[1] < REC_DLLP || data[1] > REC_EVENT)
		snprintf(bad->reason, sizeof(bad->reason),
		         "pseudo-header kind %u (1 DLLP, 2 TLP, 3 event)", data[1]);
	else
		snprintf(bad->reason, sizeof(bad->reason),
		         "pseudo-header flags 0x%02X set reserved bits 7:4", data[2]);
	return false;
}
