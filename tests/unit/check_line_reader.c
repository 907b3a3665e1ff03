/* check_line_reader.c: unit tests of read/line_reader.c: lines, their
 * numbers, offsets, NULs and CR LF ends, lines too long, the last line
 * without its '\n'; and that a regular file (read(2) blocks), a stream
 * that seeks (fread blocks, here fmemopen()) and one that cannot (stdio a
 * byte at a time, here a cookie) give the very same lines. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* fopencookie */
#endif

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/line_reader.h"
#include "suites.h"
#include "xorshift.h"

/* What one call gave: the status and the line. */
struct got {
	enum line_status st;
	size_t len, nul;
	uint64_t no, start, offset_after;
	bool crlf;
	uint32_t hash; /* of the text given */
};

#define GOT_MAX 4096

static uint32_t fnv1a(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The three ways a line reader reads (line_reader.h). */
enum path {
	PATH_READ, /* a regular file: read(2) blocks */
	PATH_FREAD, /* a stream that seeks, here fmemopen(): fread blocks */
	PATH_BYTES, /* a stream that cannot seek: stdio, a byte at a time */
};

static const char *const path_names[] = { "read(2)", "fread", "byte" };

/* A stream that cannot seek, over memory (a pipe's stand-in): a cookie
 * that tells its position and refuses every move, as the decompressing
 * and replaying layers do (decompress.c, reader.c). */
struct mem_cookie {
	const char *data;
	size_t len, pos;
};

static ssize_t mem_cookie_read(void *c, char *buf, size_t size)
{
	struct mem_cookie *m = c;
	size_t n = m->len - m->pos < size ? m->len - m->pos : size;

	memcpy(buf, m->data + m->pos, n);
	m->pos += n;
	return (ssize_t)n;
}

static int mem_cookie_seek(void *c, off64_t *offset, int whence)
{
	struct mem_cookie *m = c;

	if (whence != SEEK_CUR || *offset != 0) {
		errno = ESPIPE;
		return -1;
	}
	*offset = (off64_t)m->pos;
	return 0;
}

static int mem_cookie_close(void *c)
{
	free(c);
	return 0;
}

/* A stream of data read the given way. */
static FILE *open_data(const char *data, size_t len, enum path path)
{
	FILE *fp;

	if (path == PATH_BYTES) {
		struct mem_cookie *m = malloc(sizeof(*m));
		cookie_io_functions_t io = { .read = mem_cookie_read,
			                     .seek = mem_cookie_seek,
			                     .close = mem_cookie_close };

		ck_assert_ptr_nonnull(m);
		*m = (struct mem_cookie){ data, len, 0 };
		fp = fopencookie(m, "rb", io);
		ck_assert_ptr_nonnull(fp);
		return fp;
	}
	fp = path == PATH_READ ? tmpfile() : fmemopen(NULL, len + 1, "w+");
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(data, 1, len, fp), len);
	ck_assert_int_eq(fflush(fp), 0);
	rewind(fp);
	return fp;
}

/* Every call up to LINE_EOF (and one more) on lr, into got[]; their
 * count. */
static size_t read_lines(struct line_reader *lr, struct got *got)
{
	size_t n = 0;

	for (;;) {
		struct line l;
		struct got *g = &got[n++];

		ck_assert_uint_lt(n, GOT_MAX);
		memset(g, 0, sizeof(*g));
		g->st = line_reader_next(lr, &l);
		g->offset_after = line_reader_offset(lr);
		if (g->st == LINE_OK || g->st == LINE_TOO_LONG) {
			g->len = l.len;
			g->nul = line_nul_column(&l);
			g->no = l.no;
			g->start = l.start;
			g->crlf = line_crlf(&l);
			g->hash = fnv1a(l.text, l.len);
			ck_assert_uint_eq(line_reader_lines(lr), l.no);
			continue;
		}
		ck_assert_int_eq(g->st, LINE_EOF);
		/* and it stays at the end */
		ck_assert_int_eq(line_reader_next(lr, &l), LINE_EOF);
		return n;
	}
}

/* The way lr reads. */
static enum path path_of(const struct line_reader *lr)
{
	return lr->fd >= 0 ? PATH_READ : lr->chunk != NULL ? PATH_FREAD : PATH_BYTES;
}

/* Every call on data read the given way, into got[]; their count. */
static size_t read_all(const char *data, size_t len, enum path path, struct got *got)
{
	FILE *fp = open_data(data, len, path);
	struct line_reader *lr = malloc(sizeof(*lr));
	size_t n;

	ck_assert_ptr_nonnull(lr);
	line_reader_init(lr, fp);
	ck_assert_msg(path_of(lr) == path, "the %s path was not taken (%s)", path_names[path],
	              path_names[path_of(lr)]);
	n = read_lines(lr, got);
	line_reader_free(lr);
	free(lr);
	fclose(fp);
	return n;
}

/* The three paths, compared call by call; the calls in got. */
static size_t read_both(const char *data, size_t len, struct got *got)
{
	static struct got other[GOT_MAX];
	size_t n = read_all(data, len, PATH_READ, got);

	for (enum path p = PATH_FREAD; p <= PATH_BYTES; p++) {
		size_t m = read_all(data, len, p, other);

		ck_assert_uint_eq(n, m);
		for (size_t i = 0; i < n; i++) {
			ck_assert_msg(memcmp(&got[i], &other[i], sizeof(got[i])) == 0,
			              "%s: call %zu differs: status %d/%d, len %zu/%zu, start "
			              "%llu/%llu",
			              path_names[p], i, got[i].st, other[i].st, got[i].len,
			              other[i].len, (unsigned long long)got[i].start,
			              (unsigned long long)other[i].start);
		}
	}
	/* every byte accounted for */
	ck_assert_uint_eq(got[n - 1].offset_after, len);
	return n;
}

static struct got got[GOT_MAX];

static void expect_line(size_t i, enum line_status st, const char *text, size_t len, uint64_t start)
{
	ck_assert_int_eq(got[i].st, st);
	ck_assert_uint_eq(got[i].len, len);
	ck_assert_uint_eq(got[i].no, i + 1);
	ck_assert_uint_eq(got[i].start, start);
	if (text != NULL)
		ck_assert_uint_eq(got[i].hash, fnv1a(text, len));
}

START_TEST(test_lines_and_offsets)
{
	static const char data[] = "one\n\ntwo\r\nlast";
	size_t n = read_both(data, sizeof(data) - 1, got);

	ck_assert_uint_eq(n, 5);
	expect_line(0, LINE_OK, "one", 3, 0);
	expect_line(1, LINE_OK, "", 0, 4);
	expect_line(2, LINE_OK, "two\r", 4, 5);
	ck_assert(got[2].crlf);
	ck_assert(!got[0].crlf);
	expect_line(3, LINE_OK, "last", 4, 10); /* no '\n': still a line */
	ck_assert(!got[3].crlf);
	ck_assert_int_eq(got[4].st, LINE_EOF);
}
END_TEST

START_TEST(test_empty_and_newline_only)
{
	ck_assert_uint_eq(read_both("", 0, got), 1);
	ck_assert_int_eq(got[0].st, LINE_EOF);
	ck_assert_uint_eq(read_both("\n", 1, got), 2);
	expect_line(0, LINE_OK, "", 0, 0);
	/* a lone '\r' at the end is no CR LF */
	ck_assert_uint_eq(read_both("a\r", 2, got), 2);
	expect_line(0, LINE_OK, "a\r", 2, 0);
	ck_assert(!got[0].crlf);
}
END_TEST

/* A NUL is reported at its column, the line given whole. */
START_TEST(test_nul)
{
	static const char data[] = "ab\0c\n\0\nok\n";
	size_t n = read_both(data, sizeof(data) - 1, got);

	ck_assert_uint_eq(n, 4);
	expect_line(0, LINE_OK, "ab\0c", 4, 0);
	ck_assert_uint_eq(got[0].nul, 3);
	expect_line(1, LINE_OK, "\0", 1, 5);
	ck_assert_uint_eq(got[1].nul, 1);
	ck_assert_uint_eq(got[2].nul, 0);
}
END_TEST

/* LINE_READER_MAX bytes is a line; one more is too long, consumed to its
 * '\n' and cut to its first bytes; the next line is read as usual. */
START_TEST(test_too_long)
{
	size_t max = LINE_READER_MAX, len = 0;
	char *data = malloc(4 * max);

	ck_assert_ptr_nonnull(data);
	memset(data, 'x', max);
	len = max;
	data[len++] = '\n';
	for (size_t i = 0; i < max + 1; i++)
		data[len++] = (char)('a' + i % 26);
	data[len++] = '\n';
	memcpy(data + len, "next\n", 5);
	len += 5;
	ck_assert_uint_eq(read_both(data, len, got), 4);
	expect_line(0, LINE_OK, data, max, 0);
	expect_line(1, LINE_TOO_LONG, data + max + 1, max, max + 1);
	ck_assert_uint_eq(got[1].nul, 0);
	ck_assert_uint_eq(got[1].offset_after, 2 * max + 3);
	expect_line(2, LINE_OK, "next", 4, 2 * max + 3);

	/* too long at the end, without a '\n', and longer than a block */
	memset(data, 'y', 4 * max);
	ck_assert_uint_eq(read_both(data, 4 * max, got), 2);
	expect_line(0, LINE_TOO_LONG, data, max, 0);
	ck_assert_int_eq(got[1].st, LINE_EOF);
	/* exactly LINE_READER_MAX at the end */
	ck_assert_uint_eq(read_both(data, max, got), 2);
	expect_line(0, LINE_OK, data, max, 0);
	free(data);
}
END_TEST

/* Lines of every length around the block size: found across block
 * boundaries with the same numbers and offsets in both paths. */
START_TEST(test_blocks_random)
{
	size_t cap = 3 * LINE_READER_CHUNK, len = 0, lines = 0;
	char *data = malloc(cap);
	uint32_t seed = 0x13u;

	ck_assert_ptr_nonnull(data);
	while (lines + 2 < GOT_MAX) {
		uint32_t r = next_random(&seed);
		size_t n = r % 8 == 0 ? r % (LINE_READER_MAX + 200) : r % 200;

		if (len + n + 2 > cap)
			break;
		for (size_t i = 0; i < n; i++)
			data[len + i] = (char)(' ' + (next_random(&seed) % 95));
		len += n;
		if (r % 5 == 0)
			data[len++] = '\r';
		data[len++] = '\n';
		lines++;
	}
	size_t got_n = read_both(data, len, got);

	ck_assert_uint_eq(got_n, lines + 1);
	for (size_t i = 0; i + 2 < got_n; i++) /* the lines but the last */
		ck_assert_uint_eq(got[i + 1].start, got[i].offset_after);
	free(data);
}
END_TEST

/* A regular file's block is the file's size plus one: a file that grows
 * after the reader started (a capture still being written) is read on,
 * the block growing, with the same lines as the stdio path gives for the
 * whole. */
START_TEST(test_file_grows)
{
	static const char head[] = "first\nsecond line\nthird";
	size_t tail_len = LINE_READER_MAX + 5000;
	char *data = malloc(sizeof(head) - 1 + tail_len);
	ck_assert_ptr_nonnull(data);
	memcpy(data, head, sizeof(head) - 1);
	for (size_t i = 0; i < tail_len; i++)
		data[sizeof(head) - 1 + i] = i % 97 == 96 ? '\n' : (char)('a' + i % 26);
	size_t len = sizeof(head) - 1 + tail_len;
	static struct got want[GOT_MAX];
	size_t n = read_all(data, len, PATH_BYTES, want);

	char path[] = "/tmp/check_line_reader.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, sizeof(head) - 1), (int)(sizeof(head) - 1));
	close(fd);
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	struct line_reader *lr = malloc(sizeof(*lr));
	ck_assert_ptr_nonnull(lr);
	line_reader_init(lr, fp);
	ck_assert_int_ge(lr->fd, 0);
	ck_assert_uint_eq(lr->chunk_cap, sizeof(head)); /* fitted to the file */
	struct line l;
	ck_assert_int_eq(line_reader_next(lr, &l), LINE_OK); /* "first" */
	/* the rest arrives */
	FILE *w = fopen(path, "ab"); /* its own file offset */
	ck_assert_ptr_nonnull(w);
	ck_assert_uint_eq(fwrite(data + sizeof(head) - 1, 1, tail_len, w), tail_len);
	ck_assert_int_eq(fclose(w), 0);
	size_t i = 1;
	enum line_status st;
	while ((st = line_reader_next(lr, &l)) == LINE_OK || st == LINE_TOO_LONG) {
		ck_assert_uint_lt(i, n);
		ck_assert_int_eq(st, want[i].st);
		ck_assert_uint_eq(l.len, want[i].len);
		ck_assert_uint_eq(l.start, want[i].start);
		ck_assert_uint_eq(fnv1a(l.text, l.len), want[i].hash);
		i++;
	}
	ck_assert_int_eq(st, LINE_EOF);
	ck_assert_uint_eq(i + 1, n);
	ck_assert_uint_eq(line_reader_offset(lr), len);
	ck_assert_uint_eq(lr->chunk_cap, LINE_READER_CHUNK);
	line_reader_free(lr);
	free(lr);
	fclose(fp);
	unlink(path);
	free(data);
}
END_TEST

/* A regular file of which stdio has read ahead (a byte taken, a buffer
 * filled): not the descriptor (its offset is past what was taken) but
 * fread blocks, from the byte after the one taken. */
START_TEST(test_file_read_ahead)
{
	static const char data[] = "xone\ntwo\n";
	static struct got want[GOT_MAX];
	size_t n = read_all(data + 1, sizeof(data) - 2, PATH_BYTES, want);
	FILE *fp = open_data(data, sizeof(data) - 1, PATH_READ);
	struct line_reader lr;

	ck_assert_int_eq(fgetc(fp), 'x');
	line_reader_init(&lr, fp);
	ck_assert_int_eq(path_of(&lr), PATH_FREAD);
	ck_assert_uint_eq(read_lines(&lr, got), n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(got[i].st, want[i].st);
		ck_assert_uint_eq(got[i].len, want[i].len);
		ck_assert_uint_eq(got[i].hash, want[i].hash);
		/* offsets count from where the reader started */
		ck_assert_uint_eq(got[i].start, want[i].start);
	}
	line_reader_free(&lr);
	fclose(fp);
}
END_TEST

Suite *suite_line_reader(void)
{
	Suite *s = suite_create("line_reader");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_lines_and_offsets);
	tcase_add_test(tc, test_empty_and_newline_only);
	tcase_add_test(tc, test_nul);
	tcase_add_test(tc, test_too_long);
	tcase_add_test(tc, test_blocks_random);
	tcase_add_test(tc, test_file_grows);
	tcase_add_test(tc, test_file_read_ahead);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
