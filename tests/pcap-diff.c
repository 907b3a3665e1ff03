/* pcap-diff: the differential test of the two classic pcap readers
 * (capture-format.md section 1: a reader of the project's own must give
 * the same records as libpcap on every input libpcap reads).
 *
 *     pcap-diff [-m MUTATIONS] [-s SEED] FILE.pcap...
 *
 * Each file, and MUTATIONS variants of it, is read from memory by
 * reader_pcap.c (libpcap) and by the own reader (reader_pcapfile.c,
 * reader_pcapngfile.c) side by side.  Half the variants of a classic pcap
 * change it (other byte order, other time resolution, old versions with
 * swapped lengths, other snapshot lengths, link types and versions, bytes
 * changed, header fields set to edge values, cut, bytes inserted or
 * removed); the other half are pcapng made from it (either byte order,
 * any if_tsresol, if_tsoffset, Simple and obsolete Packet Blocks, blocks
 * of other types, two interfaces), changed the same way or not.  The
 * variants of a pcapng file are changed without knowing its format.
 * What must agree is in pcap_compare.h: where libpcap reads the whole
 * input, the same results in the same order (every record's time, kind,
 * direction, link, flags, bytes, len, wire_len, record number and byte
 * offset, every malformed record's position and reason, the end) and
 * every byte read; where libpcap stops, the same records up to there,
 * then (classic pcap) capture.resync at the same offset, and every byte
 * accounted for (read + skipped = size).
 *
 * Prints one line per difference and a count; exits 1 on any difference,
 * or when the variants never made libpcap stop or never let it finish
 * (the test would prove nothing).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcap_compare.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
	/* xorshift64: deterministic for a seed */
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t rng_below(size_t n)
{
	return n ? (size_t)(rng() % n) : 0;
}

/* ---- variants of a file --------------------------------------------------- */

static uint32_t rd32(const uint8_t *p, bool be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
	          : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static void wr32(uint8_t *p, bool be, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[be ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static void wr16(uint8_t *p, bool be, uint16_t v)
{
	p[be ? 1 : 0] = (uint8_t)v;
	p[be ? 0 : 1] = (uint8_t)(v >> 8);
}

/* The record header offsets of a well-formed classic pcap, at most max. */
static size_t record_offsets(const uint8_t *d, size_t n, bool be, size_t *off, size_t max)
{
	size_t count = 0, at = PCAP_FILE_HDR_LEN;
	while (count < max && at + PCAP_REC_HDR_LEN <= n) {
		uint32_t cap = rd32(d + at + 8, be);
		if (cap > n - at - PCAP_REC_HDR_LEN)
			break;
		off[count++] = at;
		at += PCAP_REC_HDR_LEN + cap;
	}
	return count;
}

static bool file_be(const uint8_t *d)
{
	return d[0] == 0xa1; /* a1 b2 .. written big-endian */
}

/* Rewrites every header field in the other byte order, in place. */
static void swap_order(uint8_t *d, size_t n, size_t *off, size_t count)
{
	bool be = file_be(d);
	uint32_t f[7] = { rd32(d, be), 0, rd32(d + 8, be), rd32(d + 12, be), rd32(d + 16, be),
	                  rd32(d + 20, be), 0 };
	uint16_t major = (uint16_t)(be ? d[4] << 8 | d[5] : d[5] << 8 | d[4]);
	uint16_t minor = (uint16_t)(be ? d[6] << 8 | d[7] : d[7] << 8 | d[6]);
	wr32(d, !be, f[0]);
	wr16(d + 4, !be, major);
	wr16(d + 6, !be, minor);
	for (int i = 2; i < 6; i++)
		wr32(d + 4 * i, !be, f[i]);
	for (size_t i = 0; i < count; i++)
		for (int k = 0; k < 4; k++) {
			uint32_t v = rd32(d + off[i] + 4 * k, be);
			wr32(d + off[i] + 4 * k, !be, v);
		}
	(void)n;
}

static const uint32_t edge_values[] = {
	0, 1, 3, 4, 5, 8, 10, 0x7fffffffu, 0x80000000u, 0xffffffffu, 262143, 262144,
	262145, 65535, 65536, 999999, 1000000, 999999999, 1000000000,
};

/* One variant of the file (len bytes at d, room for cap) into out; returns
 * its length. */
static size_t mutate(const uint8_t *d, size_t len, uint8_t *out, size_t cap, unsigned kind)
{
	size_t off[4096];
	bool be = file_be(d);
	size_t count = record_offsets(d, len, be, off, 4096);
	size_t n = len;
	memcpy(out, d, len);
	switch (kind % 14) {
	case 0: /* the other byte order */
		swap_order(out, n, off, count);
		break;
	case 1: { /* the other time resolution, fractions converted */
		bool nano = rd32(out, be) == 0xa1b23c4du;
		wr32(out, be, nano ? 0xa1b2c3d4u : 0xa1b23c4du);
		for (size_t i = 0; i < count; i++) {
			uint32_t f = rd32(out + off[i] + 4, be);
			wr32(out + off[i] + 4, be, nano ? f / 1000 : f * 1000u);
		}
		break;
	}
	case 2: /* version 2.2: lengths swapped in every record */
	case 3: /* version 2.3: swapped in some */
		wr16(out + 6, be, kind % 14 == 2 ? 2 : 3);
		for (size_t i = 0; i < count; i++)
			if (kind % 14 == 2 || rng() & 1) {
				uint32_t a = rd32(out + off[i] + 8, be), b = rd32(out + off[i] + 12, be);
				wr32(out + off[i] + 8, be, b);
				wr32(out + off[i] + 12, be, a);
			}
		break;
	case 4: /* another snapshot length */
		wr32(out + 16, be, edge_values[rng_below(sizeof(edge_values) / sizeof(edge_values[0]))]);
		break;
	case 5: /* a record header field set to an edge value */
		if (count) {
			size_t at = off[rng_below(count)] + 4 * rng_below(4);
			wr32(out + at, be, edge_values[rng_below(sizeof(edge_values) / sizeof(edge_values[0]))]);
		}
		break;
	case 6: /* a captured length a little off */
		if (count) {
			size_t at = off[rng_below(count)] + 8;
			wr32(out + at, be, rd32(out + at, be) + (uint32_t)rng_below(9) - 4u);
		}
		break;
	case 7: /* cut */
		n = PCAP_FILE_HDR_LEN + rng_below(len - PCAP_FILE_HDR_LEN + 1);
		break;
	case 8: /* bytes inserted */
	case 9: { /* bytes removed */
		size_t at = PCAP_FILE_HDR_LEN + rng_below(len - PCAP_FILE_HDR_LEN + 1);
		size_t k = 1 + rng_below(64);
		if (kind % 14 == 8 && len + k <= cap) {
			memmove(out + at + k, out + at, len - at);
			for (size_t i = 0; i < k; i++)
				out[at + i] = rng() & 1 ? 0xD1 : (uint8_t)rng();
			n = len + k;
		} else if (at + k <= len) {
			memmove(out + at, out + at + k, len - at - k);
			n = len - k;
		}
		break;
	}
	case 10: /* times: a second before the previous record's, or negative */
		if (count) {
			size_t at = off[rng_below(count)];
			wr32(out + at, be, rng() & 1 ? 0x80000000u + (uint32_t)rng_below(5) : 0);
		}
		break;
	case 12: { /* the link type field: upper bits, or another type */
		static const uint32_t lt[] = { 147 | 0x04000000u, 147 | 0xF0000000u, 147 | 0x10000u,
		                               148, 1, 0x10093u };
		wr32(out + 20, be, lt[rng_below(sizeof(lt) / sizeof(lt[0]))]);
		break;
	}
	case 13: { /* the version */
		static const uint16_t ver[][2] = { { 1, 0 }, { 2, 0 }, { 2, 1 }, { 2, 4 }, { 2, 5 },
		                                   { 3, 0 }, { 543, 0 }, { 543, 1 } };
		size_t i = rng_below(sizeof(ver) / sizeof(ver[0]));
		wr16(out + 4, be, ver[i][0]);
		wr16(out + 6, be, ver[i][1]);
		break;
	}
	default: /* a few bytes changed anywhere after the file header */
		for (unsigned k = 1 + (unsigned)rng_below(4); k; k--)
			out[PCAP_FILE_HDR_LEN + rng_below(len - PCAP_FILE_HDR_LEN)] = (uint8_t)rng();
		break;
	}
	return n;
}

/* ---- pcapng made from a classic pcap ------------------------------------- */

struct ng_out {
	uint8_t *p;
	size_t n, cap;
	bool be;
};

static void ng_put32(struct ng_out *o, uint32_t v)
{
	if (o->n + 4 <= o->cap)
		wr32(o->p + o->n, o->be, v);
	o->n += 4;
}

static void ng_put16(struct ng_out *o, uint16_t v)
{
	if (o->n + 2 <= o->cap)
		wr16(o->p + o->n, o->be, v);
	o->n += 2;
}

static void ng_bytes(struct ng_out *o, const uint8_t *b, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		if (o->n < o->cap)
			o->p[o->n] = b ? b[i] : 0;
		o->n++;
	}
}

/* Ends a block begun at start: pads the body to 4 and writes both lengths. */
static void ng_end(struct ng_out *o, size_t start)
{
	while ((o->n - start) % 4)
		ng_bytes(o, NULL, 1);
	uint32_t len = (uint32_t)(o->n - start + 4);
	ng_put32(o, len);
	if (start + 8 <= o->cap)
		wr32(o->p + start + 4, o->be, len);
}

static void ng_begin(struct ng_out *o, uint32_t type, size_t *start)
{
	*start = o->n;
	ng_put32(o, type);
	ng_put32(o, 0); /* the length, by ng_end */
}

static void ng_idb(struct ng_out *o, uint32_t snaplen, int tsresol, bool tsoffset,
                   uint64_t offset)
{
	size_t b;
	ng_begin(o, 1, &b);
	ng_put16(o, 147);
	ng_put16(o, 0);
	ng_put32(o, snaplen);
	if (rng() & 1) { /* an option the reader skips: if_name */
		ng_put16(o, 2);
		ng_put16(o, 3);
		ng_bytes(o, (const uint8_t *)"tap\0", 4);
	}
	if (tsresol >= 0) {
		ng_put16(o, 9);
		ng_put16(o, 1);
		uint8_t v[4] = { (uint8_t)tsresol, 0, 0, 0 };
		ng_bytes(o, v, 4);
	}
	if (tsoffset) {
		ng_put16(o, 14);
		ng_put16(o, 8);
		ng_put32(o, o->be ? (uint32_t)(offset >> 32) : (uint32_t)offset);
		ng_put32(o, o->be ? (uint32_t)offset : (uint32_t)(offset >> 32));
	}
	ng_put16(o, 0);
	ng_put16(o, 0);
	ng_end(o, b);
}

/* The records of a classic pcap (d, len) as pcapng: either byte order, an
 * if_tsresol of its own (or none: microseconds), an if_tsoffset, now and
 * then a Simple or an obsolete Packet Block, blocks of other types and a
 * second interface.  Returns the length (bytes beyond cap are dropped). */
static size_t to_pcapng(const uint8_t *d, size_t len, uint8_t *out, size_t cap)
{
	static const int resols[] = { -1, 9, 6, 3, 0, 12, 19, 0x80 | 10, 0x80 | 30, 0x80 | 63 };
	size_t off[4096];
	bool be_in = file_be(d);
	bool nano = rd32(d, be_in) == 0xa1b23c4du;
	size_t count = record_offsets(d, len, be_in, off, 4096);
	struct ng_out o = { out, 0, cap, rng() & 1 };
	int resol = resols[rng_below(sizeof(resols) / sizeof(resols[0]))];
	bool use_offset = rng_below(4) == 0;
	uint64_t tsoffset = use_offset ? rng_below(3) : 0;
	bool odd_blocks = rng() & 1;
	uint32_t snaplen = rng_below(4) ? 65535 : 6 + (uint32_t)rng_below(40);
	size_t b;
	ng_begin(&o, 0x0A0D0D0Au, &b);
	ng_put32(&o, 0x1A2B3C4Du);
	ng_put16(&o, 1);
	ng_put16(&o, rng_below(4) ? 0 : 2);
	ng_put32(&o, 0xFFFFFFFFu);
	ng_put32(&o, 0xFFFFFFFFu);
	ng_end(&o, b);
	ng_idb(&o, snaplen, resol, use_offset, tsoffset);
	bool second = odd_blocks && rng() & 1;
	if (second)
		ng_idb(&o, snaplen, -1, false, 0);
	uint64_t units = 1000000;
	if (resol >= 0 && resol & 0x80)
		units = UINT64_C(1) << (resol & 0x7F);
	else if (resol >= 0)
		for (units = 1; resol-- > 0;)
			units *= 10;
	for (size_t i = 0; i < count; i++) {
		const uint8_t *h = d + off[i];
		uint64_t sec = rd32(h, be_in), frac = rd32(h + 4, be_in);
		uint32_t caplen = rd32(h + 8, be_in), olen = rd32(h + 12, be_in);
		uint64_t ns = nano ? frac : frac * 1000;
		if (sec >= tsoffset)
			sec -= tsoffset;
		uint64_t t = (uint64_t)((unsigned __int128)sec * units +
		                        (unsigned __int128)(ns % 1000000000u) * units / 1000000000u);
		if (odd_blocks && rng_below(8) == 0) { /* a block of another type */
			ng_begin(&o, rng() & 1 ? 5 : 0x12345u, &b);
			ng_bytes(&o, h, 12);
			ng_end(&o, b);
		}
		unsigned kind = odd_blocks ? (unsigned)rng_below(10) : 0;
		if (kind == 1 && caplen == olen && caplen <= snaplen) {
			ng_begin(&o, 3, &b); /* SPB: no time, interface 0 */
			ng_put32(&o, olen);
		} else if (kind == 2) {
			ng_begin(&o, 2, &b); /* PB */
			ng_put16(&o, second && rng() & 1);
			ng_put16(&o, 0);
			ng_put32(&o, (uint32_t)(t >> 32));
			ng_put32(&o, (uint32_t)t);
			ng_put32(&o, caplen);
			ng_put32(&o, olen);
		} else {
			ng_begin(&o, 6, &b);
			ng_put32(&o, second && rng() & 1);
			ng_put32(&o, (uint32_t)(t >> 32));
			ng_put32(&o, (uint32_t)t);
			ng_put32(&o, caplen);
			ng_put32(&o, olen);
		}
		ng_bytes(&o, h + 16, caplen);
		ng_end(&o, b);
	}
	return o.n < cap ? o.n : cap;
}

/* Changes that know nothing of the format: for pcapng. */
static size_t mutate_any(const uint8_t *d, size_t len, uint8_t *out, size_t cap, unsigned kind)
{
	size_t n = len;
	memcpy(out, d, len);
	if (len <= PCAP_FILE_HDR_LEN)
		return n;
	size_t body = len - PCAP_FILE_HDR_LEN;
	switch (kind % 6) {
	case 0: /* cut */
		n = PCAP_FILE_HDR_LEN + rng_below(body + 1);
		break;
	case 1: /* bytes inserted */
	case 2: { /* bytes removed */
		size_t at = PCAP_FILE_HDR_LEN + rng_below(body + 1);
		size_t k = 1 + rng_below(64);
		if (kind % 6 == 1 && len + k <= cap) {
			memmove(out + at + k, out + at, len - at);
			for (size_t i = 0; i < k; i++)
				out[at + i] = (uint8_t)rng();
			n = len + k;
		} else if (at + k <= len) {
			memmove(out + at, out + at + k, len - at - k);
			n = len - k;
		}
		break;
	}
	case 3: { /* a 32-bit field (a length, a time, an interface) set to an edge value */
		size_t at = (PCAP_FILE_HDR_LEN + rng_below(body - 3)) & ~(size_t)3;
		wr32(out + at, rng() & 1, edge_values[rng_below(sizeof(edge_values) /
		                                                  sizeof(edge_values[0]))]);
		break;
	}
	case 4: { /* a 32-bit field a little off */
		size_t at = (PCAP_FILE_HDR_LEN + rng_below(body - 3)) & ~(size_t)3;
		bool be = out[8] == 0x1a;
		wr32(out + at, be, rd32(out + at, be) + (uint32_t)rng_below(9) - 4u);
		break;
	}
	default: /* a few bytes changed */
		for (unsigned k = 1 + (unsigned)rng_below(4); k; k--)
			out[PCAP_FILE_HDR_LEN + rng_below(body)] = (uint8_t)rng();
		break;
	}
	return n;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	uint8_t *b = malloc(cap);
	for (size_t k; b && (k = fread(b + n, 1, cap - n, f)) > 0;) {
		n += k;
		if (n == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	*len = n;
	return b;
}

static void print_difference(const char *msg)
{
	printf("DIFF %s\n", msg);
}

int main(int argc, char **argv)
{
	unsigned long mutations = 200;
	int c;
	while ((c = getopt(argc, argv, "m:s:")) != -1) {
		if (c == 'm')
			mutations = strtoul(optarg, NULL, 10);
		else if (c == 's')
			rng_state = strtoull(optarg, NULL, 0) | 1;
		else {
			fprintf(stderr, "usage: pcap-diff [-m MUTATIONS] [-s SEED] FILE...\n");
			return 2;
		}
	}
	struct tally t = { .report = print_difference };
	for (int i = optind; i < argc; i++) {
		size_t len;
		uint8_t *d = slurp(argv[i], &len);
		if (!d) {
			fprintf(stderr, "pcap-diff: %s: cannot read\n", argv[i]);
			return 2;
		}
		diff_input(d, len, argv[i], &t);
		bool classic = pcap_file_magic(d, len) && len >= PCAP_FILE_HDR_LEN;
		/* room for the pcapng made of it: 20 more bytes a record at most */
		size_t cap = classic ? len * 3 + 4096 : len + 64;
		uint8_t *v = malloc(cap), *ng = malloc(cap);
		char what[600];
		for (unsigned long m = 0; m < mutations; m++) {
			unsigned kind = (unsigned)rng_below(1000);
			size_t n;
			if (classic && m % 2 == 0) {
				n = mutate(d, len, v, cap, kind);
				snprintf(what, sizeof(what), "%s variant %lu (kind %u)", argv[i], m,
				         kind % 14);
			} else if (classic) {
				/* pcapng made from it, changed or not */
				size_t k = to_pcapng(d, len, ng, cap);
				n = kind % 3 ? mutate_any(ng, k, v, cap, kind) : (memcpy(v, ng, k), k);
				snprintf(what, sizeof(what), "%s pcapng variant %lu (kind %u)", argv[i], m,
				         kind % 3 ? kind % 6 : 99);
			} else {
				n = mutate_any(d, len, v, cap, kind);
				snprintf(what, sizeof(what), "%s variant %lu (kind %u)", argv[i], m,
				         kind % 6);
			}
			diff_input(v, n, what, &t);
		}
		free(ng);
		free(v);
		free(d);
	}
	printf("%lu inputs: libpcap read %lu whole, stopped in %lu, refused %lu; %lu differences\n",
	       t.inputs, t.full, t.stopped, t.refused, t.differences);
	if (t.differences)
		return 1;
	if (mutations && (t.full == 0 || t.stopped == 0)) {
		printf("the variants never %s\n", t.full ? "made libpcap stop" : "let libpcap finish");
		return 1;
	}
	return 0;
}
