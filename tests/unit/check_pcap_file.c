/* check_pcap_file.c: unit tests of the pieces of the own pcap readers:
 * stream_window.c (offsets counted on a stream that cannot seek and gives
 * a few bytes a read, growth up to its maximum and no further),
 * pcap_file.c's candidate test for the resync search (each condition of
 * capture-format.md section 1 on its own), and pcapng_file.c's block
 * candidate test and time arithmetic; then the readers on a stream of
 * that kind: a pcapng block larger than the first window is read, not
 * skipped.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "read/pcap_file.h"
#include "read/pcapng_file.h"
#include "read/reader.h"
#include "base/stream_window.h"
#include "suites.h"

/* ---- a stream that cannot seek and gives 1 to 3 bytes a read ------------- */

struct trickle {
	const uint8_t *p;
	size_t n, at;
};

static ssize_t trickle_read(void *cookie, char *buf, size_t size)
{
	struct trickle *t = cookie;
	size_t k = 1 + t->at % 3;
	if (k > size)
		k = size;
	if (k > t->n - t->at)
		k = t->n - t->at;
	memcpy(buf, t->p + t->at, k);
	t->at += k;
	return (ssize_t)k;
}

static FILE *trickle_open(struct trickle *t, const uint8_t *p, size_t n)
{
	t->p = p;
	t->n = n;
	t->at = 0;
	cookie_io_functions_t io = { .read = trickle_read };
	FILE *fp = fopencookie(t, "r", io);
	ck_assert_ptr_nonnull(fp);
	setvbuf(fp, NULL, _IONBF, 0); /* every fread goes to the cookie */
	return fp;
}

START_TEST(test_window_offsets_and_growth)
{
	size_t n = 3u << 20;
	uint8_t *data = malloc(n);
	ck_assert_ptr_nonnull(data);
	for (size_t i = 0; i < n; i++)
		data[i] = (uint8_t)(i * 7 + (i >> 11));
	struct trickle t;
	FILE *fp = trickle_open(&t, data, n);
	struct stream_window w;
	ck_assert(sw_init(&w, fp, 4096, 2u << 20));
	ck_assert_uint_ge(sw_fill(&w, 100), 100);
	ck_assert_mem_eq(sw_data(&w), data, 100);
	sw_take(&w, 99);
	ck_assert_uint_eq(sw_offset(&w), 99);
	/* grows past its first 4 KiB */
	ck_assert_uint_ge(sw_fill(&w, 1u << 20), 1u << 20);
	ck_assert_mem_eq(sw_data(&w), data + 99, 1u << 20);
	ck_assert_uint_le(w.size, 2u << 20);
	sw_take(&w, 12345);
	ck_assert_uint_eq(sw_offset(&w), 99 + 12345);
	ck_assert_mem_eq(sw_data(&w), data + 99 + 12345, 16);
	/* never beyond its maximum */
	ck_assert_uint_eq(sw_fill(&w, 3u << 20), 2u << 20);
	ck_assert_uint_eq(w.size, 2u << 20);
	/* the rest, counted */
	ck_assert_uint_eq(sw_take_rest(&w), n - 99 - 12345);
	ck_assert_uint_eq(sw_offset(&w), n);
	ck_assert(w.eof && !w.read_errno);
	sw_free(&w);
	fclose(fp);
	free(data);
}
END_TEST

/* ---- the classic candidate test ------------------------------------------ */

static const struct pcap_file_hdr nano_le = {
	.swapped = false, .nano = true, .lengths = PCAP_LEN_PLAIN, .snaplen = 65535,
	.linktype = 147,
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* a link-up event record at 5.000000100 s */
static void event_record(uint8_t r[24])
{
	static const uint8_t payload[8] = { 0xD1, 3, 0, 0, 1, 0, 0, 0 };
	put32(r, 5);
	put32(r + 4, 100);
	put32(r + 8, 8);
	put32(r + 12, 8);
	memcpy(r + 16, payload, 8);
}

static bool candidate(const uint8_t r[24], bool have_prev, int64_t sec, int64_t ns)
{
	struct pcap_rec_hdr rh;
	return pcap_rec_candidate(&nano_le, r, 24, have_prev, sec, ns, &rh);
}

START_TEST(test_candidate_each_condition)
{
	uint8_t r[24];
	event_record(r);
	ck_assert(candidate(r, false, 0, 0));
	ck_assert(candidate(r, true, 5, 100));     /* the same time is not before */
	ck_assert(!candidate(r, true, 5, 101));    /* before the previous record */
	ck_assert(!candidate(r, true, 6, 0));
	struct pcap_rec_hdr rh;
	ck_assert(!pcap_rec_candidate(&nano_le, r, 19, false, 0, 0, &rh)); /* cut */
	event_record(r); r[16] = 0xD2;                 /* pseudo-header version */
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); r[17] = 4;                    /* kind */
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); r[17] = 0;
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); r[18] = 0x10;                 /* reserved flag bit */
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); put32(r + 8, 9);              /* captured above original */
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); put32(r + 8, 3); put32(r + 12, 3); /* below the pseudo-header */
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); put32(r + 8, 4); put32(r + 12, 7); /* below the smallest record */
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); put32(r + 12, 4 + TLP_MAX_RECORD_LEN + 1); /* above the largest */
	ck_assert(!candidate(r, false, 0, 0));
	event_record(r); put32(r + 12, 4 + TLP_MAX_RECORD_LEN);
	ck_assert(candidate(r, false, 0, 0));
	event_record(r); put32(r + 4, 1000000000);     /* a fraction of a whole second */
	ck_assert(!candidate(r, false, 0, 0));
	struct pcap_file_hdr small = nano_le;
	small.snaplen = 7;                              /* above the snapshot length */
	event_record(r);
	ck_assert(!pcap_rec_candidate(&small, r, 24, false, 0, 0, &rh));
	struct pcap_file_hdr micro = nano_le;
	micro.nano = false;                             /* microseconds: below 10^6 */
	event_record(r); put32(r + 4, 999999);
	ck_assert(pcap_rec_candidate(&micro, r, 24, false, 0, 0, &rh));
	ck_assert_int_eq(rh.ts_ns, 999999000);
	put32(r + 4, 1000000);
	ck_assert(!pcap_rec_candidate(&micro, r, 24, false, 0, 0, &rh));
}
END_TEST

/* ---- pcapng --------------------------------------------------------------- */

START_TEST(test_pcapng_block_candidate)
{
	uint8_t b[40] = { 0 };
	bool sw = false;
	uint32_t len;
	put32(b, 6);
	put32(b + 4, 40);
	put32(b + 36, 40);
	ck_assert(pcapng_block_head_ok(b, sizeof(b), PCAPNG_BLOCK_MAX, &sw, &len));
	ck_assert_uint_eq(len, 40);
	ck_assert(pcapng_block_tail_ok(b, len, sw));
	put32(b + 36, 44);
	ck_assert(!pcapng_block_tail_ok(b, len, sw));  /* trailing length differs */
	put32(b + 4, 42);                                /* not a multiple of 4 */
	ck_assert(!pcapng_block_head_ok(b, sizeof(b), PCAPNG_BLOCK_MAX, &sw, &len));
	put32(b + 4, 28);                                /* below an EPB's fixed part */
	ck_assert(!pcapng_block_head_ok(b, sizeof(b), PCAPNG_BLOCK_MAX, &sw, &len));
	put32(b + 4, 40);
	ck_assert(!pcapng_block_head_ok(b, sizeof(b), 36, &sw, &len)); /* above the max */
	put32(b, 0x77);                                  /* an unknown type */
	ck_assert(!pcapng_block_head_ok(b, sizeof(b), PCAPNG_BLOCK_MAX, &sw, &len));
	/* an SHB written big-endian: found whatever the section's order */
	static const uint8_t shb[12] = { 0x0a, 0x0d, 0x0d, 0x0a, 0, 0, 0, 28,
	                                 0x1a, 0x2b, 0x3c, 0x4d };
	sw = false;
	ck_assert(pcapng_block_head_ok(shb, sizeof(shb), PCAPNG_BLOCK_MAX, &sw, &len));
	ck_assert(sw);
	ck_assert_uint_eq(len, 28);
}
END_TEST

START_TEST(test_pcapng_time)
{
	/* if_tsresol 2^-30, if_tsoffset 7 s: 3.5 s in the interface's units */
	uint8_t body[8 + 8 + 16 + 4] = { 147, 0, 0, 0, 0xff, 0xff, 0, 0,
	                                 9, 0, 1, 0, 0x80 | 30, 0, 0, 0,
	                                 14, 0, 8, 0, 7, 0, 0, 0, 0, 0, 0, 0,
	                                 0, 0, 0, 0 };
	uint32_t linktype, snaplen;
	struct pcapng_if ifc;
	char why[200];
	ck_assert_msg(pcapng_idb(false, body, sizeof(body), &linktype, &snaplen, &ifc, why,
	                         sizeof(why)), "%s", why);
	ck_assert_uint_eq(linktype, 147);
	ck_assert_uint_eq(snaplen, 65535);
	int64_t sec, ns;
	pcapng_time(&ifc, (UINT64_C(7) << 30) / 2, &sec, &ns);
	ck_assert_int_eq(sec, 3 + 7);
	ck_assert_int_eq(ns, 500000000);
	/* microseconds by default */
	ck_assert(pcapng_idb(false, body, 8, &linktype, &snaplen, &ifc, why, sizeof(why)));
	pcapng_time(&ifc, 2000001, &sec, &ns);
	ck_assert_int_eq(sec, 2);
	ck_assert_int_eq(ns, 1000);
	/* an if_tsresol of the wrong length is libpcap's error */
	body[10] = 2;
	ck_assert(!pcapng_idb(false, body, sizeof(body), &linktype, &snaplen, &ifc, why,
	                      sizeof(why)));
	ck_assert_str_eq(why, "Interface Description Block has if_tsresol option with "
	                 "length 2 != 1");
}
END_TEST

/* A 2 MiB block of an unknown type between two packets, on a stream that
 * gives 1 to 3 bytes a read: skipped as a block, both packets read, every
 * byte read and none skipped. */
START_TEST(test_pcapng_large_block_stream)
{
	size_t big = 2u << 20, n = 28 + 20 + 40 + big + 40;
	uint8_t *f = calloc(1, n), *p = f;
	ck_assert_ptr_nonnull(f);
	static const uint8_t shb[28] = { 0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b,
	                                 0x1a, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	                                 0xff, 0xff, 28, 0, 0, 0 };
	memcpy(p, shb, 28);
	p += 28;
	put32(p, 1); put32(p + 4, 20); p[8] = 147; put32(p + 12, 65535); put32(p + 16, 20);
	p += 20;
	for (int k = 0; k < 2; k++) {
		put32(p, 6); put32(p + 4, 40); put32(p + 16, (uint32_t)k); put32(p + 20, 8);
		put32(p + 24, 8);
		static const uint8_t ev[8] = { 0xD1, 3, 0, 0, 4, 0, 0, 0 };
		memcpy(p + 28, ev, 8);
		put32(p + 36, 40);
		p += 40;
		if (k == 0) {
			put32(p, 0x12345); put32(p + 4, (uint32_t)big); put32(p + big - 4, (uint32_t)big);
			p += big;
		}
	}
	ck_assert_uint_eq((size_t)(p - f), n);
	struct trickle t;
	FILE *fp = trickle_open(&t, f, n);
	char err[512];
	void *state = pcapngfile_reader_new(fp, "big.pcapng", 147, err, sizeof(err));
	ck_assert_msg(state != NULL, "%s", err);
	struct reader r = { &pcapngfile_reader_ops, state, "pcapng", NULL };
	struct record rec;
	struct reader_malformed bad;
	ck_assert_int_eq(reader_next(&r, &rec, &bad), READER_RECORD);
	ck_assert_uint_eq(rec.pos.byte_offset, 48);
	ck_assert_int_eq(reader_next(&r, &rec, &bad), READER_RECORD);
	ck_assert_uint_eq(rec.pos.byte_offset, 88 + big);
	ck_assert_uint_eq(rec.pos.record_no, 2);
	ck_assert_int_eq(reader_next(&r, &rec, &bad), READER_EOF);
	uint64_t read, skipped;
	ck_assert(reader_bytes(&r, &read, &skipped));
	ck_assert_uint_eq(read, n);
	ck_assert_uint_eq(skipped, 0);
	pcapngfile_reader_ops.close(state);
	free(f);
}
END_TEST

Suite *suite_pcap_file(void)
{
	Suite *s = suite_create("pcap_file");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_window_offsets_and_growth);
	tcase_add_test(tc, test_candidate_each_condition);
	tcase_add_test(tc, test_pcapng_block_candidate);
	tcase_add_test(tc, test_pcapng_time);
	tcase_add_test(tc, test_pcapng_large_block_stream);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
