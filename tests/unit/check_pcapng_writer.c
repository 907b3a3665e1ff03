/* check_pcapng_writer.c: unit tests of read/pcapng_writer.c: the blocks
 * byte for byte (draft-ietf-opsawg-pcapng sections 3.1, 3.5, 4.1-4.3:
 * lengths, 32-bit padding, opt_endofopt), comments made valid UTF-8 and
 * cut at a character, the time in nanoseconds, and the file read back by
 * libpcap (the reference reader) with the same records and times. */
#include <check.h>
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/pcapng_writer.h"
#include "suites.h"

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint16_t u16_at(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

/* What fp holds (rewound), in buf; its length. */
static size_t contents(FILE *fp, uint8_t *buf, size_t cap)
{
	fflush(fp);
	rewind(fp);
	return fread(buf, 1, cap, fp);
}

/* A DLLP record: UpdateFC-P with its CRC bytes (any six). */
static const uint8_t dllp_bytes[6] = { 0x80, 0x01, 0x02, 0x03, 0xAA, 0xBB };

static struct record dllp_record(uint64_t time_ps, uint64_t base_s)
{
	struct record rec;
	memset(&rec, 0, sizeof(rec));
	rec.kind = REC_DLLP;
	rec.dir = DIR_UP;
	rec.link = 3;
	rec.flags = REC_F_PHY_ERROR;
	rec.bytes = dllp_bytes;
	rec.len = rec.wire_len = 6;
	rec.time_ps = time_ps;
	rec.time_base_s = base_s;
	return rec;
}

START_TEST(test_shb_layout)
{
	FILE *fp = tmpfile();
	uint8_t obuf[256];
	struct pcapng_opts opts;
	pcapng_opts_init(&opts, obuf, sizeof(obuf));
	ck_assert(pcapng_opts_add(&opts, PCAPNG_OPT_SHB_USERAPPL, "dllpcheck", 9));
	ck_assert(pcapng_opts_comment(&opts, "abc"));
	/* 4 + 9 + 3 padding, 4 + 3 + 1 padding */
	ck_assert_uint_eq(opts.len, 16 + 8);
	ck_assert(pcapng_write_shb(fp, &opts));
	uint8_t b[512];
	size_t n = contents(fp, b, sizeof(b));
	/* type, length, magic, 1.0, -1, options, opt_endofopt, length */
	ck_assert_uint_eq(n, 8 + 16 + 24 + 4 + 4);
	ck_assert_uint_eq(u32_at(b), PCAPNG_BT_SHB);
	ck_assert_uint_eq(u32_at(b + 4), n);
	ck_assert_uint_eq(u32_at(b + 8), 0x1A2B3C4Du);
	ck_assert_uint_eq(u16_at(b + 12), 1);
	ck_assert_uint_eq(u16_at(b + 14), 0);
	for (unsigned i = 16; i < 24; i++)
		ck_assert_uint_eq(b[i], 0xFF);
	ck_assert_uint_eq(u16_at(b + 24), 4);
	ck_assert_uint_eq(u16_at(b + 26), 9);
	ck_assert_int_eq(memcmp(b + 28, "dllpcheck\0\0\0", 12), 0);
	ck_assert_uint_eq(u16_at(b + 40), 1);
	ck_assert_uint_eq(u16_at(b + 42), 3);
	ck_assert_int_eq(memcmp(b + 44, "abc\0", 4), 0);
	ck_assert_uint_eq(u32_at(b + 48), 0); /* opt_endofopt */
	ck_assert_uint_eq(u32_at(b + n - 4), n);
	fclose(fp);
}
END_TEST

START_TEST(test_idb_layout)
{
	FILE *fp = tmpfile();
	ck_assert(pcapng_write_idb(fp, 150));
	uint8_t b[64];
	size_t n = contents(fp, b, sizeof(b));
	ck_assert_uint_eq(n, 32);
	ck_assert_uint_eq(u32_at(b), PCAPNG_BT_IDB);
	ck_assert_uint_eq(u32_at(b + 4), 32);
	ck_assert_uint_eq(u16_at(b + 8), 150);
	ck_assert_uint_eq(u16_at(b + 10), 0);
	ck_assert_uint_eq(u32_at(b + 12), PCAPNG_WRITER_SNAPLEN);
	/* if_tsresol 9: one byte, three of padding */
	ck_assert_uint_eq(u16_at(b + 16), 9);
	ck_assert_uint_eq(u16_at(b + 18), 1);
	ck_assert_uint_eq(b[20], 9);
	ck_assert_uint_eq(b[21] | b[22] | b[23], 0);
	ck_assert_uint_eq(u32_at(b + 24), 0);
	ck_assert_uint_eq(u32_at(b + 28), 32);
	fclose(fp);
}
END_TEST

START_TEST(test_epb_layout)
{
	FILE *fp = tmpfile();
	/* 2 s of base and 1234.567 ns: 2000001234 ns, rounded down */
	struct record rec = dllp_record(1234567, 2);
	ck_assert(pcapng_write_epb(fp, &rec, NULL));
	uint8_t obuf[128];
	struct pcapng_opts opts;
	pcapng_opts_init(&opts, obuf, sizeof(obuf));
	ck_assert(pcapng_opts_comment(&opts, "one"));
	ck_assert(pcapng_opts_comment(&opts, "four"));
	/* a truncated record: its original length */
	rec.len = 3;
	rec.wire_len = 6;
	ck_assert(pcapng_write_epb(fp, &rec, &opts));
	uint8_t b[256];
	size_t n = contents(fp, b, sizeof(b));
	/* no options: no opt_endofopt; 10 bytes of data padded to 12 */
	ck_assert_uint_eq(u32_at(b), PCAPNG_BT_EPB);
	ck_assert_uint_eq(u32_at(b + 4), 28 + 12 + 4);
	ck_assert_uint_eq(u32_at(b + 8), 0);
	uint64_t ns = (uint64_t)u32_at(b + 12) << 32 | u32_at(b + 16);
	ck_assert_uint_eq(ns, 2000001234u);
	ck_assert_uint_eq(u32_at(b + 20), 10);
	ck_assert_uint_eq(u32_at(b + 24), 10);
	/* the pseudo-header: 0xD1, DLLP, PHY_ERROR | up, link 3 */
	static const uint8_t data[12] = { 0xD1, 1, 0x05, 3, 0x80, 0x01, 0x02, 0x03, 0xAA, 0xBB };
	ck_assert_int_eq(memcmp(b + 28, data, 12), 0);
	ck_assert_uint_eq(u32_at(b + 40), 44);
	const uint8_t *e = b + 44;
	/* 7 bytes of data padded to 8, "one" (8), "four" (8), endofopt */
	ck_assert_uint_eq(u32_at(e + 4), 28 + 8 + 8 + 8 + 4 + 4);
	ck_assert_uint_eq(u32_at(e + 20), 7);
	ck_assert_uint_eq(u32_at(e + 24), 10);
	ck_assert_int_eq(memcmp(e + 28, data, 7), 0);
	ck_assert_uint_eq(e[35], 0);
	ck_assert_uint_eq(u16_at(e + 36), 1);
	ck_assert_uint_eq(u16_at(e + 38), 3);
	ck_assert_int_eq(memcmp(e + 40, "one\0", 4), 0);
	ck_assert_uint_eq(u16_at(e + 44), 1);
	ck_assert_uint_eq(u16_at(e + 46), 4);
	ck_assert_int_eq(memcmp(e + 48, "four", 4), 0);
	ck_assert_uint_eq(u32_at(e + 52), 0);
	ck_assert_uint_eq(u32_at(e + 56), 60);
	ck_assert_uint_eq(n, 44 + 60);
	fclose(fp);
}
END_TEST

/* Comments are UTF-8 (section 3.5): invalid bytes escaped, valid kept,
 * and a comment longer than an option can be is cut at a character. */
START_TEST(test_comment_utf8)
{
	uint8_t *obuf = malloc(1u << 18);
	struct pcapng_opts opts;
	pcapng_opts_init(&opts, obuf, 1u << 18);
	ck_assert(pcapng_opts_comment(&opts, "a\xE9z \xC3\xBC"));
	ck_assert_uint_eq(u16_at(obuf + 2), 9);
	ck_assert_int_eq(memcmp(obuf + 4, "a\\xE9z \xC3\xBC", 9), 0);
	/* 40000 two-byte characters: 80000 bytes, cut to 65534 */
	size_t len = opts.len;
	char *big = malloc(80001);
	for (unsigned i = 0; i < 40000; i++)
		memcpy(big + 2 * i, "\xC3\xA9", 2);
	big[80000] = '\0';
	ck_assert(pcapng_opts_comment(&opts, big));
	ck_assert_uint_eq(u16_at(obuf + len + 2), 65534);
	ck_assert_uint_eq(opts.len, len + 4 + 65534 + 2);
	free(big);
	free(obuf);
}
END_TEST

START_TEST(test_opts_full)
{
	uint8_t obuf[24];
	struct pcapng_opts opts;
	pcapng_opts_init(&opts, obuf, sizeof(obuf));
	/* 4 + 12 + the 4 of opt_endofopt fit 24; then nothing more */
	ck_assert(pcapng_opts_comment(&opts, "twelve bytes"));
	ck_assert(!pcapng_opts_room(&opts, 1));
	ck_assert(!pcapng_opts_comment(&opts, "x"));
	ck_assert_uint_eq(opts.len, 16);
	ck_assert(!pcapng_opts_add(&opts, 1, "", PCAPNG_OPT_VALUE_MAX + 1));
}
END_TEST

START_TEST(test_time_overflow)
{
	FILE *fp = tmpfile();
	struct record rec = dllp_record(0, UINT64_MAX / 1000000000u + 1);
	uint64_t ns;
	ck_assert(!pcapng_record_ns(&rec, &ns));
	errno = 0;
	ck_assert(!pcapng_write_epb(fp, &rec, NULL));
	ck_assert_int_eq(errno, EOVERFLOW);
	uint8_t b[8];
	ck_assert_uint_eq(contents(fp, b, sizeof(b)), 0);
	/* the largest that fits */
	rec = dllp_record(999999999999ull, 18446744072ull);
	ck_assert(pcapng_record_ns(&rec, &ns));
	ck_assert_uint_eq(ns, 18446744072ull * 1000000000u + 999999999u);
	fclose(fp);
}
END_TEST

/* libpcap, the reference reader, reads the file: link type, times to the
 * nanosecond, lengths and bytes. */
START_TEST(test_libpcap_reads)
{
	char path[] = "/tmp/check-pcapng-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *fp = fdopen(fd, "w");
	uint8_t obuf[4096];
	struct pcapng_opts opts;
	pcapng_opts_init(&opts, obuf, sizeof(obuf));
	pcapng_opts_comment(&opts, "the summary");
	ck_assert(pcapng_write_shb(fp, &opts));
	ck_assert(pcapng_write_idb(fp, 147));
	for (unsigned i = 0; i < 3; i++) {
		struct record rec = dllp_record(1000000000000ull * i + 1001 * i, 1700000000);
		rec.len = 6 - i;
		pcapng_opts_init(&opts, obuf, sizeof(obuf));
		for (unsigned c = 0; c < i * 20; c++)
			pcapng_opts_comment(&opts, "a finding about this record, of some length");
		ck_assert(pcapng_write_epb(fp, &rec, i ? &opts : NULL));
	}
	ck_assert_int_eq(fclose(fp), 0);
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *p = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, err);
	ck_assert_msg(p != NULL, "%s", err);
	ck_assert_int_eq(pcap_datalink(p), 147);
	struct pcap_pkthdr *h;
	const u_char *data;
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_int_eq(pcap_next_ex(p, &h, &data), 1);
		ck_assert_int_eq(h->ts.tv_sec, 1700000000 + i);
		ck_assert_int_eq(h->ts.tv_usec, i); /* 1001 ps: 1 ns */
		ck_assert_uint_eq(h->caplen, 10 - i);
		ck_assert_uint_eq(h->len, 10);
		ck_assert_uint_eq(data[0], 0xD1);
		ck_assert_int_eq(memcmp(data + 4, dllp_bytes, 6 - i), 0);
	}
	ck_assert_int_eq(pcap_next_ex(p, &h, &data), PCAP_ERROR_BREAK);
	pcap_close(p);
	unlink(path);
}
END_TEST

Suite *suite_pcapng_writer(void)
{
	Suite *s = suite_create("pcapng_writer");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_shb_layout);
	tcase_add_test(tc, test_idb_layout);
	tcase_add_test(tc, test_epb_layout);
	tcase_add_test(tc, test_comment_utf8);
	tcase_add_test(tc, test_opts_full);
	tcase_add_test(tc, test_time_overflow);
	tcase_add_test(tc, test_libpcap_reads);
	suite_add_tcase(s, tc);
	return s;
}
