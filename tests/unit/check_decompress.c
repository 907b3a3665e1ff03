/* check_decompress.c: unit tests of decompress.c (gzip and zstd as a
 * stream of their uncompressed bytes, capture-format.md section 5) and
 * not_capture.c (binary data told from text, rules.md exit status).  The
 * compressed data is made here with zlib and libzstd, so no tool is
 * needed. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "read/decompress.h"
#include "read/not_capture.h"
#include "suites.h"
#include "xorshift.h"

#define PLAIN_LEN 300000u

static unsigned char *plain_data(void)
{
	unsigned char *p = malloc(PLAIN_LEN);
	ck_assert_ptr_nonnull(p);
	/* lines of a text trace, compressible but not trivially */
	size_t n = 0;
	for (unsigned i = 0; n < PLAIN_LEN; i++) {
		char line[64];
		int k = snprintf(line, sizeof(line), "%uns down UpdateFC-P vc=0 hdr=%u data=%u\n",
		                 i * 10, i & 255, (i * 7) & 4095);
		for (int j = 0; j < k && n < PLAIN_LEN; j++)
			p[n++] = (unsigned char)line[j];
	}
	return p;
}

/* One gzip member of src[0..len) appended at out + *pos. */
static void gzip_member(const unsigned char *src, size_t len, unsigned char *out,
                        size_t cap, size_t *pos)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)src;
	z.avail_in = (uInt)len;
	z.next_out = out + *pos;
	z.avail_out = (uInt)(cap - *pos);
	ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
	*pos = cap - z.avail_out;
	deflateEnd(&z);
}

static void zstd_frame(const unsigned char *src, size_t len, unsigned char *out,
                       size_t cap, size_t *pos)
{
	size_t n = ZSTD_compress(out + *pos, cap - *pos, src, len, 3);
	ck_assert(!ZSTD_isError(n));
	*pos += n;
}

/* Reads comp[0..len) through the decompressor, chunk bytes per fread,
 * into *out; returns the bytes read and the error (NULL: none). */
static size_t read_all(const unsigned char *comp, size_t len, size_t chunk,
                       unsigned char **out, const char **error, char *errbuf,
                       size_t errlen)
{
	FILE *under = fmemopen((void *)(uintptr_t)comp, len, "rb");
	ck_assert_ptr_nonnull(under);
	enum compression c = decompress_detect(comp, len);
	ck_assert_int_ne(c, COMP_NONE);
	struct decompress *dz;
	char err[128];
	FILE *fp = decompress_open(under, c, "t.gz", &dz, err, sizeof(err));
	ck_assert_ptr_nonnull(fp);
	*out = malloc(PLAIN_LEN * 2 + 65536);
	size_t total = 0, n;
	while ((n = fread(*out + total, 1, chunk, fp)) > 0) {
		total += n;
		/* ftell: the position in the uncompressed stream */
		ck_assert_int_eq(ftell(fp), (long)total);
	}
	ck_assert_uint_eq(decompress_offset(dz), total);
	*error = NULL;
	if (decompress_error(dz)) {
		snprintf(errbuf, errlen, "%s", decompress_error(dz));
		*error = errbuf;
		ck_assert(ferror(fp));
	}
	fclose(fp);
	return total;
}

START_TEST(test_gzip_members)
{
	unsigned char *p = plain_data();
	size_t cap = PLAIN_LEN * 2, pos = 0;
	unsigned char *comp = malloc(cap);
	gzip_member(p, PLAIN_LEN / 3, comp, cap, &pos);
	gzip_member(p + PLAIN_LEN / 3, PLAIN_LEN - PLAIN_LEN / 3, comp, cap, &pos);
	static const size_t chunks[] = { 1, 7, 4096, 100000 };
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		unsigned char *out;
		const char *error;
		char eb[256];
		size_t n = read_all(comp, pos, chunks[i], &out, &error, eb, sizeof(eb));
		ck_assert_ptr_null(error);
		ck_assert_uint_eq(n, PLAIN_LEN);
		ck_assert(memcmp(out, p, PLAIN_LEN) == 0);
		free(out);
	}
	free(comp);
	free(p);
}
END_TEST

START_TEST(test_zstd_frames)
{
	unsigned char *p = plain_data();
	size_t cap = PLAIN_LEN * 2, pos = 0;
	unsigned char *comp = malloc(cap);
	zstd_frame(p, 1000, comp, cap, &pos);
	/* a skippable frame between (RFC 8878 3.1.2): magic, size 4, data */
	memcpy(comp + pos, "\x50\x2a\x4d\x18\x04\x00\x00\x00skip", 12);
	pos += 12;
	zstd_frame(p + 1000, PLAIN_LEN - 1000, comp, cap, &pos);
	unsigned char *out;
	const char *error;
	char eb[256];
	size_t n = read_all(comp, pos, 4096, &out, &error, eb, sizeof(eb));
	ck_assert_ptr_null(error);
	ck_assert_uint_eq(n, PLAIN_LEN);
	ck_assert(memcmp(out, p, PLAIN_LEN) == 0);
	free(out);
	free(comp);
	free(p);
}
END_TEST

/* Damaged data: the error names the file, the trouble and the offset;
 * the bytes before it are delivered. */
static void expect_damage(const unsigned char *comp, size_t len, const char *what,
                          size_t min_out)
{
	unsigned char *out;
	const char *error;
	char eb[256];
	size_t n = read_all(comp, len, 4096, &out, &error, eb, sizeof(eb));
	ck_assert_ptr_nonnull(error);
	ck_assert_msg(strncmp(error, "t.gz: ", 6) == 0, "%s", error);
	ck_assert_msg(strstr(error, what) != NULL, "'%s' not in '%s'", what, error);
	ck_assert_msg(strstr(error, "at uncompressed byte") != NULL, "%s", error);
	ck_assert_uint_ge(n, min_out);
	free(out);
}

START_TEST(test_gzip_damage)
{
	unsigned char *p = plain_data();
	size_t cap = PLAIN_LEN * 2 + 16, pos = 0;
	unsigned char *comp = malloc(cap);
	gzip_member(p, PLAIN_LEN, comp, cap, &pos);
	expect_damage(comp, pos - 1, "truncated: the file ends inside a member", PLAIN_LEN / 2);
	expect_damage(comp, pos / 2, "truncated", 1);
	comp[pos - 8] ^= 0xff; /* the CRC-32 of the trailer */
	expect_damage(comp, pos, "corrupt (incorrect data check)", PLAIN_LEN);
	comp[pos - 8] ^= 0xff;
	memcpy(comp + pos, "garbage!", 8);
	expect_damage(comp, pos + 8, "ends with bytes that are not a gzip member", PLAIN_LEN);
	comp[2] = 7; /* the method byte */
	expect_damage(comp, pos, "corrupt (unknown compression method)", 0);
	free(comp);
	free(p);
}
END_TEST

START_TEST(test_zstd_damage)
{
	unsigned char *p = plain_data();
	size_t cap = PLAIN_LEN * 2 + 16, pos = 0;
	unsigned char *comp = malloc(cap);
	zstd_frame(p, PLAIN_LEN, comp, cap, &pos);
	expect_damage(comp, pos - 3, "truncated: the file ends inside a frame", 0);
	memcpy(comp + pos, "garbage!", 8);
	expect_damage(comp, pos + 8, "ends with bytes that are not a zstd frame", PLAIN_LEN);
	free(comp);
	free(p);
}
END_TEST

#define U(s) ((const unsigned char *)s)

START_TEST(test_detect)
{
	ck_assert_int_eq(decompress_detect(U("\x1f\x8b\x08"), 3), COMP_GZIP);
	ck_assert_int_eq(decompress_detect(U("\x28\xb5\x2f\xfd"), 4), COMP_ZSTD);
	ck_assert_int_eq(decompress_detect(U("\x5e\x2a\x4d\x18"), 4), COMP_ZSTD);
	ck_assert_int_eq(decompress_detect(U("\x1f"), 1), COMP_NONE);
	ck_assert_int_eq(decompress_detect(U("0 down"), 6), COMP_NONE);
	ck_assert_int_eq(decompress_detect(U("\xa1\xb2\x3c\x4d"), 4), COMP_NONE);
}
END_TEST

static bool binary(const char *s, size_t len, char *what, size_t whatlen)
{
	return not_capture((const unsigned char *)s, len, what, whatlen);
}

START_TEST(test_not_capture)
{
	char what[300];
	static const char trace[] =
		"# a trace\n0 down link-up\n10ns up InitFC1-P vc=0 hdr=8 data=64\n";
	ck_assert(!binary(trace, sizeof(trace) - 1, what, sizeof(what)));
	/* a stray NUL and a Latin-1 byte stay a text trace with bad lines */
	static const char nul[] = "0 down NOP\n10ns down \0NOP\n20ns down NOP \xb5s\n";
	ck_assert(!binary(nul, sizeof(nul) - 1, what, sizeof(what)));
	/* UTF-8 in a comment is text */
	static const char utf8[] = "# Zeit in \xc2\xb5s, \xe2\x80\x94 ok\n0 down NOP\n";
	ck_assert(!binary(utf8, sizeof(utf8) - 1, what, sizeof(what)));
	ck_assert(binary("\x7f" "ELF\x02\x01\x01\x00", 8, what, sizeof(what)));
	ck_assert_msg(strstr(what, "first bytes 7f 45 4c 46 02 01 01 00: looks like an ELF"),
	              "%s", what);
	ck_assert(binary("\xfd" "7zXZ\0\0", 7, what, sizeof(what)));
	ck_assert(strstr(what, "xz -dc") != NULL);
	ck_assert(binary("\xff\xfe" "0\0 \0d\0", 8, what, sizeof(what)));
	ck_assert(strstr(what, "UTF-16") != NULL);
	/* "BZh" starts a bzip2 stream only with its block size digit */
	ck_assert(binary("BZh91AY&SY", 10, what, sizeof(what)));
	ck_assert(!binary("BZh header,Time\n", 16, what, sizeof(what)));
	unsigned char rnd[4096];
	uint32_t x = 12345;
	for (size_t i = 0; i < sizeof(rnd); i++)
		rnd[i] = (unsigned char)next_random(&x);
	ck_assert(not_capture(rnd, sizeof(rnd), what, sizeof(what)));
	ck_assert_msg(strstr(what, "binary data, not a pcap/pcapng, gzip, zstd or text") == what,
	              "%s", what);
}
END_TEST

Suite *suite_decompress(void)
{
	Suite *s = suite_create("decompress");
	TCase *tc = tcase_create("streams");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_gzip_members);
	tcase_add_test(tc, test_zstd_frames);
	tcase_add_test(tc, test_gzip_damage);
	tcase_add_test(tc, test_zstd_damage);
	tcase_add_test(tc, test_detect);
	tcase_add_test(tc, test_not_capture);
	suite_add_tcase(s, tc);
	return s;
}
