/* check_stream_window.c: unit tests of base/stream_window.c: the window
 * made to the size of a small input (sw_size_for) reads what the plain
 * window of the largest size reads, call for call (the same bytes
 * available, at the same offsets, the same searches), on a stream in
 * memory, on a regular file and on a stream that cannot seek; a regular
 * file read through its descriptor (sw_direct_fd) reads what the same
 * bytes read through stdio do; and sw_size_for itself: the input's bytes
 * plus one when fewer than asked, nothing changed on a stream it cannot
 * measure. */
#include "autoconfig.h"

#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/stream_window.h"
#include "mem_pipe.h"
#include "suites.h"
#include "xorshift.h"

#define BIG (1u << 20)

/* Inputs of the direct reads: empty, a few bytes, more than one large
 * fill (the script asks up to about 70 kB at once). */
static const size_t lengths_direct[] = { 0, 5, 4096, 300000 };

static uint8_t *pattern(size_t n, uint32_t seed)
{
	uint8_t *p = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(next_random(&seed) % 7); /* often 0: anchors */
	return p;
}

enum kind { MEMORY, REGULAR, PIPE };

static FILE *open_kind(enum kind k, const uint8_t *data, size_t len, const char *path)
{
	if (k == PIPE)
		return mem_pipe_open(data, len);
	if (k == MEMORY)
		return len ? fmemopen((void *)(uintptr_t)data, len, "rb")
		           : fopen("/dev/null", "rb");
	FILE *w = fopen(path, "wb");
	ck_assert_ptr_nonnull(w);
	ck_assert_uint_eq(fwrite(data, 1, len, w), len);
	ck_assert_int_eq(fclose(w), 0);
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	return fp;
}

#define TEMP_PATTERN "/tmp/check_stream_window.XXXXXX"

/* An empty file at path (TEMP_PATTERN, filled in), for open_kind(REGULAR). */
static void make_temp(char *path)
{
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

/* --- sw_size_for ------------------------------------------------------------ */

START_TEST(test_size_for_memory)
{
	uint8_t *d = pattern(5000, 1);
	FILE *fp = fmemopen(d, 5000, "rb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(sw_size_for(fp, BIG), 5001);
	ck_assert_uint_eq(sw_size_for(fp, 5000), 5000); /* not fewer: most */
	ck_assert_uint_eq(sw_size_for(fp, 4000), 4000);
	/* from where the stream is, which it leaves there */
	uint8_t b[100];
	ck_assert_uint_eq(fread(b, 1, 100, fp), 100);
	ck_assert_uint_eq(sw_size_for(fp, BIG), 4901);
	ck_assert_int_eq(ftell(fp), 100);
	ck_assert_uint_eq(fread(b, 1, 1, fp), 1);
	ck_assert_uint_eq(b[0], d[100]);
	fclose(fp);
	free(d);
}
END_TEST

START_TEST(test_size_for_file)
{
	char path[] = TEMP_PATTERN;
	make_temp(path);
	uint8_t *d = pattern(3000, 2);
	FILE *fp = open_kind(REGULAR, d, 3000, path);
	ck_assert_uint_eq(sw_size_for(fp, BIG), 3001);
	ck_assert_uint_eq(sw_size_for(fp, 1000), 1000);
	/* nothing asked of the stream: setvbuf is still allowed */
	char *buf = malloc(3001);
	ck_assert_int_eq(setvbuf(fp, buf, _IOFBF, 3001), 0);
	fclose(fp);
	free(buf);
	fp = open_kind(REGULAR, d, 0, path);
	ck_assert_uint_eq(sw_size_for(fp, BIG), 1); /* empty: one byte meets the end */
	fclose(fp);
	unlink(path);
	free(d);
}
END_TEST

START_TEST(test_size_for_pipe)
{
	uint8_t *d = pattern(3000, 3);
	FILE *fp = mem_pipe_open(d, 3000);
	ck_assert_uint_eq(sw_size_for(fp, BIG), BIG);
	/* the stream is as it was: the first byte comes next */
	uint8_t b;
	ck_assert_uint_eq(fread(&b, 1, 1, fp), 1);
	ck_assert_uint_eq(b, d[0]);
	ck_assert_uint_eq(sw_size_for(fp, BIG), BIG);
	ck_assert_uint_eq(fread(&b, 1, 1, fp), 1);
	ck_assert_uint_eq(b, d[1]);
	ck_assert(!ferror(fp));
	fclose(fp);
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	fp = fdopen(p[0], "rb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(sw_size_for(fp, BIG), BIG);
	fclose(fp);
	close(p[1]);
	free(d);
}
END_TEST

/* --- sw_direct_fd: a regular file whose stdio buffer is empty --------------- */

START_TEST(test_direct_fd)
{
	char path[] = TEMP_PATTERN;
	make_temp(path);
	uint8_t *d = pattern(10000, 4);
	FILE *fp = open_kind(REGULAR, d, 10000, path);
	ck_assert_int_eq(sw_direct_fd(fp), fileno(fp));
	/* stdio read ahead of the byte it gave: its buffer holds the rest */
	uint8_t b[10];
	ck_assert_uint_eq(fread(b, 1, 10, fp), 10);
	ck_assert_int_eq(sw_direct_fd(fp), -1);
	/* back to the start, the buffer dropped: the descriptor again */
	ck_assert_int_eq(fseek(fp, 0, SEEK_SET), 0);
	ck_assert_int_eq(sw_direct_fd(fp), fileno(fp));
	fclose(fp);
	unlink(path);
	fp = open_kind(MEMORY, d, 10000, NULL);
	ck_assert_int_eq(sw_direct_fd(fp), -1);
	fclose(fp);
	fp = open_kind(PIPE, d, 10000, NULL);
	ck_assert_int_eq(sw_direct_fd(fp), -1);
	fclose(fp);
	int p[2];
	ck_assert_int_eq(pipe(p), 0);
	fp = fdopen(p[0], "rb");
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(sw_direct_fd(fp), -1);
	fclose(fp);
	close(p[1]);
	free(d);
}
END_TEST

/* --- the fitted window against the plain one -------------------------------- */

/* sw_candidate_fn: a unit starts at a 0 byte followed by a byte below 3;
 * it spans 8 + 4 * that byte bytes (so some run past the end). */
static size_t candidate(void *ctx, const uint8_t *data, size_t avail)
{
	(void)ctx;
	if (avail < 2 || data[0] != 0 || data[1] >= 3)
		return 0;
	return 8 + 4u * data[1];
}

/* What one window did: a digest of every result, offset and byte the
 * contract promises (sw_fill: need bytes when the input has them; how
 * many more a larger buffer happens to hold is not part of it). */
static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * UINT64_C(0x100000001b3);
}

static uint64_t script(struct stream_window *w, uint32_t seed)
{
	uint64_t h = 0;
	size_t have = 0; /* bytes known to be there: what the last fill promised */
	for (unsigned step = 0; step < 400; step++) {
		uint32_t r = next_random(&seed);
		size_t need;
		switch (r % 6) {
		case 0:
		case 1: /* a fill of up to 300 bytes, or of a large block */
			need = r & 0x100000 ? 70000 + (r >> 24) : (r >> 8) % 300;
			have = sw_fill(w, need);
			if (have > need)
				have = need;
			h = mix(h, have);
			h = mix(h, sw_offset(w));
			for (size_t i = 0; i < have && i < 64; i++)
				h = mix(h, sw_data(w)[i]);
			break;
		case 2:
		case 3: /* take some of what is there */
			if (have) {
				size_t n = (r >> 8) % (have + 1);
				sw_take(w, n);
				have -= n;
			}
			h = mix(h, sw_offset(w));
			break;
		case 4: /* search, with and without an anchor */
			h = mix(h, sw_search(w, 8, 0, r & 0x100 ? 0 : -1, candidate, NULL));
			h = mix(h, sw_offset(w));
			have = 0;
			break;
		default:
			if ((r >> 8) % 8 == 0) { /* now and then, the rest */
				h = mix(h, sw_take_rest(w));
				h = mix(h, sw_offset(w));
				have = 0;
			}
			break;
		}
		h = mix(h, (uint64_t)w->read_errno);
	}
	return h;
}

static void compare(enum kind k, size_t len, size_t initial_if_not_fitted)
{
	char path[] = TEMP_PATTERN;
	make_temp(path);
	uint8_t *d = pattern(len, (uint32_t)len + 7);
	for (uint32_t seed = 1; seed <= 8; seed++) {
		struct stream_window plain, fitted;
		FILE *a = open_kind(k, d, len, path);
		ck_assert(sw_init(&plain, a, BIG, 4 * BIG));
		uint64_t want = script(&plain, seed);
		FILE *b = open_kind(k, d, len, path);
		size_t initial =
		        initial_if_not_fitted ? initial_if_not_fitted : sw_size_for(b, BIG);
		ck_assert(sw_init(&fitted, b, initial, 4 * BIG));
		uint64_t got = script(&fitted, seed);
		ck_assert_msg(got == want, "kind %d, %zu bytes, seed %u: the windows differ",
		              (int)k, len, seed);
		if (!initial_if_not_fitted && k != PIPE && len > 0) /* 0: /dev/null */
			ck_assert_uint_le(fitted.size, len + 1 > BIG ? 4 * BIG : len + 1);
		sw_free(&plain);
		sw_free(&fitted);
		fclose(a);
		fclose(b);
	}
	unlink(path);
	free(d);
}

/* The window over a regular file reads through the descriptor (and so
 * the fitted-window tests below cover that path), and reads what the
 * same bytes in memory read through stdio; also from the middle of the
 * file, where stdio has buffered ahead and the window falls back to
 * fread. */
START_TEST(test_direct_same_as_stdio)
{
	size_t len = lengths_direct[_i];
	char path[] = TEMP_PATTERN;
	make_temp(path);
	uint8_t *d = pattern(len, (uint32_t)len + 11);
	for (uint32_t seed = 1; seed <= 4; seed++) {
		for (size_t skip = 0; skip <= (len ? 3u : 0u); skip += 3) {
			struct stream_window viafd, viastdio;
			FILE *a = open_kind(REGULAR, d, len, path);
			FILE *b = open_kind(MEMORY, d, len, NULL);
			uint8_t first[3];
			ck_assert_uint_eq(fread(first, 1, skip, a), skip);
			ck_assert_uint_eq(fread(first, 1, skip, b), skip);
			ck_assert(sw_init(&viafd, a, sw_size_for(a, BIG), 4 * BIG));
			ck_assert(sw_init(&viastdio, b, sw_size_for(b, BIG), 4 * BIG));
			ck_assert_int_eq(viafd.fd, skip ? -1 : fileno(a));
			ck_assert_int_eq(viastdio.fd, -1);
			uint64_t got = script(&viafd, seed), want = script(&viastdio, seed);
			ck_assert_msg(got == want, "%zu bytes from %zu, seed %u: the reads differ",
			              len, skip, seed);
			sw_free(&viafd);
			sw_free(&viastdio);
			fclose(a);
			fclose(b);
		}
	}
	unlink(path);
	free(d);
}
END_TEST

static const size_t lengths[] = { 0, 1, 7, 300, 4096, 70001, 300000 };

START_TEST(test_fitted_memory)
{
	compare(MEMORY, lengths[_i], 0);
}
END_TEST

START_TEST(test_fitted_file)
{
	compare(REGULAR, lengths[_i], 0);
}
END_TEST

START_TEST(test_fitted_pipe)
{
	compare(PIPE, lengths[_i], 0);
}
END_TEST

/* A window smaller than the input (a file that grew after it was
 * measured): it grows when full and reads the same. */
START_TEST(test_small_grows)
{
	compare(MEMORY, lengths[_i], 16);
	compare(PIPE, lengths[_i], 100);
}
END_TEST

Suite *suite_stream_window(void)
{
	Suite *s = suite_create("stream_window");
	TCase *tc = tcase_create("size_for");
	tcase_add_test(tc, test_size_for_memory);
	tcase_add_test(tc, test_size_for_file);
	tcase_add_test(tc, test_size_for_pipe);
	tcase_add_test(tc, test_direct_fd);
	suite_add_tcase(s, tc);
	tc = tcase_create("fitted");
	tcase_set_timeout(tc, 60);
	const int n = (int)(sizeof(lengths) / sizeof(lengths[0]));
	tcase_add_loop_test(tc, test_fitted_memory, 0, n);
	tcase_add_loop_test(tc, test_fitted_file, 0, n);
	tcase_add_loop_test(tc, test_fitted_pipe, 0, n);
	tcase_add_loop_test(tc, test_small_grows, 0, n);
	tcase_add_loop_test(tc, test_direct_same_as_stdio, 0,
	                    (int)(sizeof(lengths_direct) / sizeof(lengths_direct[0])));
	suite_add_tcase(s, tc);
	return s;
}
