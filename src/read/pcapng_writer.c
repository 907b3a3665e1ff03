/* pcapng_writer.c: Section Header, Interface Description and Enhanced
 * Packet Blocks with their options (pcapng_writer.h), after
 * draft-ietf-opsawg-pcapng sections 3.1, 3.5 and 4.1-4.3.
 *
 *   SHB  0x0A0D0D0A | len | 0x1A2B3C4D | u16 1 | u16 0 | i64 -1 | options | len
 *   IDB  0x00000001 | len | u16 linktype | u16 0 | u32 snaplen | options | len
 *   EPB  0x00000006 | len | u32 interface 0 | u32 ts high | u32 ts low |
 *        u32 captured | u32 original | data, padded | options | len
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "read/pcap_writer.h"
#include "read/pcapng_writer.h"

/* Padding of n bytes to 32 bits. */
static inline size_t pad4(size_t n)
{
	return (4 - (n & 3)) & 3;
}

static inline void put_u16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, 2); /* host order: the magic says which */
}

static inline void put_u32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

void pcapng_opts_init(struct pcapng_opts *o, uint8_t *buf, size_t cap)
{
	o->buf = buf;
	o->cap = cap;
	o->len = 0;
}

bool pcapng_opts_room(const struct pcapng_opts *o, size_t n)
{
	/* header, value, padding, and the opt_endofopt after it */
	return n <= PCAPNG_OPT_VALUE_MAX && o->len <= o->cap &&
	       4 + n + pad4(n) + 4 <= o->cap - o->len;
}

bool pcapng_opts_add(struct pcapng_opts *o, uint16_t code, const void *value, size_t n)
{
	if (!pcapng_opts_room(o, n))
		return false;
	uint8_t *p = o->buf + o->len;
	put_u16(p, code);
	put_u16(p + 2, (uint16_t)n);
	if (n)
		memcpy(p + 4, value, n);
	memset(p + 4 + n, 0, pad4(n));
	o->len += 4 + n + pad4(n);
	return true;
}

/* The longest prefix of s (n bytes, valid UTF-8) of at most max bytes
 * that ends at a character boundary. */
static size_t utf8_cut(const char *s, size_t n, size_t max)
{
	if (n <= max)
		return n;
	size_t cut = max;
	/* back over continuation bytes 10xxxxxx to a character's start */
	while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	return cut;
}

bool pcapng_opts_comment(struct pcapng_opts *o, const char *text)
{
	size_t n = strlen(text);
	if (utf8_valid(text)) {
		n = utf8_cut(text, n, PCAPNG_OPT_VALUE_MAX);
		return pcapng_opts_add(o, PCAPNG_OPT_COMMENT, text, n);
	}
	/* at most 4 bytes for each byte of the text, as \xNN */
	size_t cap = 4 * n + 1;
	char *valid = malloc(cap);
	if (!valid)
		return false;
	utf8_escape(text, valid, cap);
	size_t m = utf8_cut(valid, strlen(valid), PCAPNG_OPT_VALUE_MAX);
	bool ok = pcapng_opts_add(o, PCAPNG_OPT_COMMENT, valid, m);
	free(valid);
	return ok;
}

/* Writes a block: its head (type, length, then the fixed part of its
 * body, fixed_len bytes), variable data (data_len bytes, padded), the
 * options, and the trailing length. */
static bool write_block(FILE *fp, uint32_t type, const uint8_t *fixed, size_t fixed_len,
                        const uint8_t *data, size_t data_len, const struct pcapng_opts *opts)
{
	static const uint8_t zeros[4];
	size_t opts_len = opts && opts->len ? opts->len + 4 : 0;
	size_t total = 8 + fixed_len + data_len + pad4(data_len) + opts_len + 4;
	if (total > UINT32_MAX) {
		errno = EOVERFLOW;
		return false;
	}
	uint8_t head[8], end[4];
	put_u32(head, type);
	put_u32(head + 4, (uint32_t)total);
	put_u32(end, (uint32_t)total);
	bool ok = fwrite(head, 1, 8, fp) == 8 && fwrite(fixed, 1, fixed_len, fp) == fixed_len;
	if (ok && data_len)
		ok = fwrite(data, 1, data_len, fp) == data_len &&
		     fwrite(zeros, 1, pad4(data_len), fp) == pad4(data_len);
	if (ok && opts_len) {
		uint8_t endofopt[4];
		put_u16(endofopt, PCAPNG_OPT_ENDOFOPT);
		put_u16(endofopt + 2, 0);
		ok = fwrite(opts->buf, 1, opts->len, fp) == opts->len &&
		     fwrite(endofopt, 1, 4, fp) == 4;
	}
	return ok && fwrite(end, 1, 4, fp) == 4;
}

bool pcapng_write_shb(FILE *fp, const struct pcapng_opts *opts)
{
	uint8_t fixed[16];
	put_u32(fixed, PCAPNG_BYTE_ORDER_MAGIC);
	put_u16(fixed + 4, 1); /* major version */
	put_u16(fixed + 6, 0); /* minor version */
	memset(fixed + 8, 0xFF, 8); /* section length -1: not given */
	return write_block(fp, PCAPNG_BT_SHB, fixed, sizeof(fixed), NULL, 0, opts);
}

bool pcapng_write_idb(FILE *fp, uint16_t linktype)
{
	uint8_t fixed[8];
	put_u16(fixed, linktype);
	put_u16(fixed + 2, 0); /* reserved */
	put_u32(fixed + 4, PCAPNG_WRITER_SNAPLEN);
	uint8_t buf[16];
	struct pcapng_opts opts;
	pcapng_opts_init(&opts, buf, sizeof(buf));
	uint8_t tsresol = PCAPNG_TSRESOL_NS; /* bit 7 clear: a power of 10 */
	pcapng_opts_add(&opts, PCAPNG_OPT_IF_TSRESOL, &tsresol, 1);
	return write_block(fp, PCAPNG_BT_IDB, fixed, sizeof(fixed), NULL, 0, &opts);
}

bool pcapng_record_ns(const struct record *rec, uint64_t *ns)
{
	uint64_t base;
	if (__builtin_mul_overflow(rec->time_base_s, (uint64_t)1000000000u, &base) ||
	    __builtin_add_overflow(base, rec->time_ps / 1000u, ns))
		return false;
	return true;
}

bool pcapng_write_epb(FILE *fp, const struct record *rec, const struct pcapng_opts *opts)
{
	uint64_t ns;
	if (!pcapng_record_ns(rec, &ns)) {
		errno = EOVERFLOW;
		return false;
	}
	uint32_t len = rec->len > TLP_MAX_RECORD_LEN ? TLP_MAX_RECORD_LEN : rec->len;
	uint32_t wire = rec->wire_len > len ? rec->wire_len : len;
	uint8_t data[PCAP_PSEUDO_HDR_LEN + TLP_MAX_RECORD_LEN];
	pcap_pseudo_header(rec, data);
	if (len)
		memcpy(data + PCAP_PSEUDO_HDR_LEN, rec->bytes, len);
	uint8_t fixed[20];
	put_u32(fixed, 0); /* interface 0, the one IDB */
	put_u32(fixed + 4, (uint32_t)(ns >> 32));
	put_u32(fixed + 8, (uint32_t)ns);
	put_u32(fixed + 12, PCAP_PSEUDO_HDR_LEN + len);
	/* the original length as the record had it on the wire; wire_len
	 * counts bytes after the pseudo-header, below 2^32 - 4 by the record
	 * checks (capture-format.md section 1) */
	put_u32(fixed + 16,
	        wire > UINT32_MAX - PCAP_PSEUDO_HDR_LEN ? UINT32_MAX : PCAP_PSEUDO_HDR_LEN + wire);
	return write_block(fp, PCAPNG_BT_EPB, fixed, sizeof(fixed), data, PCAP_PSEUDO_HDR_LEN + len,
	                   opts);
}
