/* pcapng_file.c: pcapng blocks from bytes in memory (layout in
 * pcapng_file.h), by libpcap 1.10's rules and with its messages. */
#include <stdio.h>
#include <string.h>

#include "read/pcap_file.h"
#include "read/pcapng_file.h"

uint32_t pcapng_get32(bool swapped, const uint8_t *p)
{
	uint32_t v =
	        (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	return swapped ? __builtin_bswap32(v) : v;
}

static uint16_t get16(bool swapped, const uint8_t *p)
{
	uint16_t v = (uint16_t)(p[0] | p[1] << 8);
	return swapped ? __builtin_bswap16(v) : v;
}

static uint64_t get64(bool swapped, const uint8_t *p)
{
	uint64_t lo = pcapng_get32(false, p), hi = pcapng_get32(false, p + 4);
	uint64_t v = hi << 32 | lo;
	return swapped ? __builtin_bswap64(v) : v;
}

/* libpcap's get_from_block_data() failing */
static bool too_short(uint32_t type, char *reason, size_t reason_len)
{
	snprintf(reason, reason_len, "block of type %u in pcapng dump file is too short", type);
	return false;
}

bool pcapng_shb_first(const uint8_t *p, size_t n, bool *swapped, uint32_t *len, const char *name,
                      char *err, size_t errlen)
{
	if (n < 12 || pcapng_get32(false, p) != PCAPNG_SHB) {
		snprintf(err, errlen, "%s: not a readable pcapng file: no Section Header Block",
		         name);
		return false;
	}
	uint32_t bom = pcapng_get32(false, p + 8);
	if (bom != PCAPNG_BOM && __builtin_bswap32(bom) != PCAPNG_BOM) {
		snprintf(err, errlen, "%s: not a readable pcapng file: bad byte-order magic", name);
		return false;
	}
	*swapped = bom != PCAPNG_BOM;
	*len = pcapng_get32(*swapped, p + 4);
	if (*len < 28 || *len > PCAPNG_SHB_MAX) {
		snprintf(err, errlen,
		         "%s: not a readable pcapng file: Section Header Block "
		         "length %u outside 28 to %u",
		         name, *len, PCAPNG_SHB_MAX);
		return false;
	}
	if (n < *len) {
		snprintf(err, errlen,
		         "%s: not a readable pcapng file: the Section Header Block "
		         "is cut after %zu of its %u bytes",
		         name, n, *len);
		return false;
	}
	unsigned major = get16(*swapped, p + 12), minor = get16(*swapped, p + 14);
	if (major != 1 || (minor != 0 && minor != 2)) {
		snprintf(err, errlen,
		         "%s: not a readable pcapng file: unsupported pcapng "
		         "savefile version %u.%u",
		         name, major, minor);
		return false;
	}
	return true;
}

bool pcapng_block_len_ok(uint32_t len, uint32_t max, char *reason, size_t reason_len)
{
	if (len < PCAPNG_BLOCK_MIN)
		snprintf(reason, reason_len, "block in pcapng dump file has a length of %u < %u",
		         len, PCAPNG_BLOCK_MIN);
	else if (len % 4)
		snprintf(reason, reason_len,
		         "block in pcapng dump file has a length of %u that "
		         "is not a multiple of 4",
		         len);
	else if (len > max)
		snprintf(reason, reason_len, "pcapng block size %u > maximum %u", len, max);
	else
		return true;
	return false;
}

bool pcapng_shb_next(const uint8_t *body, size_t body_len, bool *swapped, char *reason,
                     size_t reason_len)
{
	if (body_len < 16)
		return too_short(PCAPNG_SHB, reason, reason_len);
	uint32_t bom = pcapng_get32(*swapped, body);
	if (bom != PCAPNG_BOM && __builtin_bswap32(bom) != PCAPNG_BOM) {
		snprintf(reason, reason_len,
		         "the file has a section with a bad byte order magic field");
		return false;
	}
	bool sw = bom == PCAPNG_BOM ? *swapped : !*swapped;
	unsigned major = get16(sw, body + 4);
	if (major != 1) {
		snprintf(reason, reason_len, "unknown pcapng savefile major version number %u",
		         major);
		return false;
	}
	*swapped = sw;
	return true;
}

/* libpcap's process_idb_options(): if_tsresol and if_tsoffset, checked. */
static bool idb_options(bool swapped, const uint8_t *p, size_t n, uint64_t *tsresol,
                        int64_t *tsoffset, bool *binary, char *reason, size_t reason_len)
{
	bool saw_tsresol = false, saw_tsoffset = false;
	while (n != 0) {
		if (n < 4)
			return too_short(PCAPNG_IDB, reason, reason_len);
		unsigned code = get16(swapped, p), len = get16(swapped, p + 2);
		size_t padded = ((size_t)len + 3) / 4 * 4;
		if (n - 4 < padded)
			return too_short(PCAPNG_IDB, reason, reason_len);
		const uint8_t *v = p + 4;
		p += 4 + padded;
		n -= 4 + padded;
		switch (code) {
		case 0: /* opt_endofopt */
			if (len != 0) {
				snprintf(reason, reason_len,
				         "Interface Description Block has "
				         "opt_endofopt option with length %u != 0",
				         len);
				return false;
			}
			return true;
		case 9: /* if_tsresol */
			if (len != 1) {
				snprintf(reason, reason_len,
				         "Interface Description Block has "
				         "if_tsresol option with length %u != 1",
				         len);
				return false;
			}
			if (saw_tsresol) {
				snprintf(reason, reason_len,
				         "Interface Description Block has more "
				         "than one if_tsresol option");
				return false;
			}
			saw_tsresol = true;
			if (v[0] & 0x80) {
				unsigned shift = v[0] & 0x7Fu;
				if (shift > 63) {
					snprintf(reason, reason_len,
					         "Interface Description Block if_tsresol option "
					         "resolution 2^-%u is too high",
					         shift);
					return false;
				}
				*binary = true;
				*tsresol = UINT64_C(1) << shift;
			} else {
				if (v[0] > 19) {
					snprintf(reason, reason_len,
					         "Interface Description Block if_tsresol option "
					         "resolution 10^-%u is too high",
					         v[0]);
					return false;
				}
				*binary = false;
				*tsresol = 1;
				for (unsigned i = 0; i < v[0]; i++)
					*tsresol *= 10;
			}
			break;
		case 14: /* if_tsoffset */
			if (len != 8) {
				snprintf(reason, reason_len,
				         "Interface Description Block has "
				         "if_tsoffset option with length %u != 8",
				         len);
				return false;
			}
			if (saw_tsoffset) {
				snprintf(reason, reason_len,
				         "Interface Description Block has more "
				         "than one if_tsoffset option");
				return false;
			}
			saw_tsoffset = true;
			*tsoffset = (int64_t)get64(swapped, v);
			break;
		default:
			break;
		}
	}
	return true;
}

bool pcapng_idb(bool swapped, const uint8_t *body, size_t body_len, uint32_t *linktype,
                uint32_t *snaplen, struct pcapng_if *ifc, char *reason, size_t reason_len)
{
	if (body_len < 8)
		return too_short(PCAPNG_IDB, reason, reason_len);
	*linktype = get16(swapped, body);
	*snaplen = pcapng_get32(swapped, body + 4);
	if (*snaplen == 0 || *snaplen > INT32_MAX)
		*snaplen = PCAP_MAX_CAPLEN;
	/* microseconds by default */
	uint64_t tsresol = 1000000;
	int64_t tsoffset = 0;
	bool binary = false;
	memset(ifc, 0, sizeof(*ifc));
	if (!idb_options(swapped, body + 8, body_len - 8, &tsresol, &tsoffset, &binary, reason,
	                 reason_len))
		return false;
	const uint64_t user = 1000000000; /* nanoseconds, as reader_pcap.c asks libpcap */
	ifc->tsresol = tsresol;
	ifc->tsoffset = tsoffset;
	if (tsresol == user) {
		ifc->scale = PCAPNG_PASS;
	} else if (tsresol > user) {
		ifc->scale = binary ? PCAPNG_DOWN_BIN : PCAPNG_DOWN_DEC;
		ifc->scale_factor = binary ? 0 : tsresol / user;
	} else {
		ifc->scale = binary ? PCAPNG_UP_BIN : PCAPNG_UP_DEC;
		ifc->scale_factor = binary ? 0 : user / tsresol;
	}
	return true;
}

bool pcapng_packet(bool swapped, uint32_t type, const uint8_t *body, size_t body_len,
                   uint32_t snaplen, uint32_t ifcount, struct pcapng_packet *pkt, char *reason,
                   size_t reason_len)
{
	size_t fixed;
	memset(pkt, 0, sizeof(*pkt));
	if (type == PCAPNG_EPB || type == PCAPNG_PB) {
		fixed = 20;
		if (body_len < fixed)
			return too_short(type, reason, reason_len);
		pkt->interface_id =
		        type == PCAPNG_EPB ? pcapng_get32(swapped, body) : get16(swapped, body);
		pkt->t = (uint64_t)pcapng_get32(swapped, body + 4) << 32 |
		         pcapng_get32(swapped, body + 8);
		pkt->caplen = pcapng_get32(swapped, body + 12);
		pkt->len = pcapng_get32(swapped, body + 16);
	} else {
		fixed = 4;
		if (body_len < fixed)
			return too_short(type, reason, reason_len);
		pkt->len = pcapng_get32(swapped, body);
		pkt->caplen = pkt->len > snaplen ? snaplen : pkt->len;
	}
	if (pkt->interface_id >= ifcount) {
		snprintf(reason, reason_len,
		         "a packet arrived on interface %u, but there's no "
		         "Interface Description Block for that interface",
		         pkt->interface_id);
		return false;
	}
	if (pkt->caplen > snaplen) {
		snprintf(reason, reason_len,
		         "invalid packet capture length %u, bigger than "
		         "snaplen of %u",
		         pkt->caplen, snaplen);
		return false;
	}
	if (body_len - fixed < pkt->caplen)
		return too_short(type, reason, reason_len);
	pkt->data = body + fixed;
	return true;
}

void pcapng_time(const struct pcapng_if *ifc, uint64_t t, int64_t *sec_out, int64_t *ns_out)
{
	/* libpcap's arithmetic, overflow and all: 64-bit unsigned, then the
	 * fraction cast to int and the seconds to time_t */
	uint64_t sec = t / ifc->tsresol + (uint64_t)ifc->tsoffset;
	uint64_t frac = t % ifc->tsresol;
	switch (ifc->scale) {
	case PCAPNG_PASS:
		break;
	case PCAPNG_UP_DEC:
		frac *= ifc->scale_factor;
		break;
	case PCAPNG_DOWN_DEC:
		frac /= ifc->scale_factor;
		break;
	case PCAPNG_UP_BIN:
	case PCAPNG_DOWN_BIN:
		frac *= 1000000000u;
		frac /= ifc->tsresol;
		break;
	}
	*sec_out = (int64_t)sec;
	*ns_out = (int32_t)(uint32_t)frac;
}

/* The fixed part of each known block type, for the candidate test: types
 * of the pcapng specification (NRB 4, ISB 5, systemd journal 9, DSB 10,
 * custom 0xBAD and 0x40000BAD) as well as those read here. */
static uint32_t known_block_min(uint32_t type)
{
	switch (type) {
	case PCAPNG_SHB:
		return 28;
	case PCAPNG_IDB:
		return 20;
	case PCAPNG_PB:
	case PCAPNG_EPB:
		return 32;
	case PCAPNG_SPB:
		return 16;
	case 4:
	case 9:
		return 12;
	case 5:
		return 24;
	case 10:
		return 20;
	case 0xBADu:
	case 0x40000BADu:
		return 16;
	default:
		return 0;
	}
}

bool pcapng_block_head_ok(const uint8_t *p, size_t n, uint32_t max, bool *swapped, uint32_t *len)
{
	if (n < 12)
		return false;
	bool sw = *swapped;
	uint32_t type = pcapng_get32(sw, p);
	if (type == PCAPNG_SHB) {
		uint32_t bom = pcapng_get32(false, p + 8);
		if (bom != PCAPNG_BOM && __builtin_bswap32(bom) != PCAPNG_BOM)
			return false;
		sw = bom != PCAPNG_BOM;
	}
	uint32_t min = known_block_min(type);
	uint32_t l = pcapng_get32(sw, p + 4);
	if (!min || l < min || l % 4 || l > max)
		return false;
	*swapped = sw;
	*len = l;
	return true;
}

bool pcapng_block_tail_ok(const uint8_t *p, uint32_t len, bool swapped)
{
	return pcapng_get32(swapped, p + len - 4) == len;
}
