/* check_spool.c: unit tests of base/spool.c: the body file is unlinked
 * beside its output, and the copy puts every byte after the head, in the
 * kernel between regular files and by read and write into a pipe; a body
 * moved later in its file. */
#include "autoconfig.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/spool.h"
#include "suites.h"

/* n bytes of a pattern that no shift of a buffer's length repeats */
static void fill(FILE *fp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fputc((int)((i * 7 + i / 251) & 0xFF), fp);
}

static bool is_pattern(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)((i * 7 + i / 251) & 0xFF))
			return false;
	return true;
}

static unsigned entries(const char *dir)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "ls -A %s | wc -l", dir);
	FILE *p = popen(cmd, "r");
	unsigned n = 0;
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(fscanf(p, "%u", &n), 1);
	pclose(p);
	return n;
}

START_TEST(test_beside_unlinked)
{
	char dir[] = "/tmp/check-spool-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char out[64];
	snprintf(out, sizeof(out), "%s/out", dir);
	FILE *body = spool_open(out);
	ck_assert_ptr_nonnull(body);
	fputs("body", body);
	/* made in the output's directory, and already gone from it */
	ck_assert_uint_eq(entries(dir), 0);
	struct stat st;
	ck_assert_int_eq(fstat(fileno(body), &st), 0);
	ck_assert_uint_eq(st.st_nlink, 0);
	fclose(body);
	/* no directory to be beside: NULL, errno set */
	char nowhere[96];
	snprintf(nowhere, sizeof(nowhere), "%s/missing/out", dir);
	ck_assert_ptr_null(spool_open(nowhere));
	/* a device or FIFO output: tmpfile() */
	body = spool_open(NULL);
	ck_assert_ptr_nonnull(body);
	fclose(body);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* Into a regular file after its head: copy_file_range moves the bytes
 * (several buffers' worth, so the loops are walked). */
START_TEST(test_copy_file)
{
	const size_t n = 300000;
	FILE *body = spool_open(NULL), *out = tmpfile();
	ck_assert_ptr_nonnull(body);
	ck_assert_ptr_nonnull(out);
	fill(body, n);
	fputs("HEAD", out);
	uint64_t kernel = 99;
	ck_assert_int_eq(spool_copy(body, out, &kernel), SPOOL_COPIED);
	/* written after the copy: it follows it */
	fputs("TAIL", out);
	ck_assert_int_eq(fflush(out), 0);
#ifdef HAVE_COPY_FILE_RANGE
	ck_assert_uint_eq(kernel, n);
#else
	ck_assert_uint_eq(kernel, 0);
#endif
	unsigned char *got = malloc(n + 8);
	ck_assert_ptr_nonnull(got);
	ck_assert_int_eq(pread(fileno(out), got, n + 8, 0), (ssize_t)(n + 8));
	ck_assert_int_eq(memcmp(got, "HEAD", 4), 0);
	ck_assert(is_pattern(got + 4, n));
	ck_assert_int_eq(memcmp(got + 4 + n, "TAIL", 4), 0);
	struct stat st;
	ck_assert_int_eq(fstat(fileno(out), &st), 0);
	ck_assert_int_eq(st.st_size, (off_t)(n + 8));
	free(got);
	/* an empty body copies nothing */
	FILE *empty = spool_open(NULL);
	ck_assert_int_eq(spool_copy(empty, out, &kernel), SPOOL_COPIED);
	ck_assert_uint_eq(kernel, 0);
	fclose(empty);
	fclose(body);
	fclose(out);
}
END_TEST

/* Into a pipe (what copy_file_range refuses): read and write, the same
 * bytes. */
START_TEST(test_copy_pipe)
{
	const size_t n = 40000; /* within the pipe's buffer: no reader needed */
	int fds[2];
	ck_assert_int_eq(pipe(fds), 0);
	FILE *body = spool_open(NULL), *out = fdopen(fds[1], "w");
	ck_assert_ptr_nonnull(out);
	fill(body, n);
	fputs("HEAD", out);
	uint64_t kernel = 99;
	ck_assert_int_eq(spool_copy(body, out, &kernel), SPOOL_COPIED);
	ck_assert_uint_eq(kernel, 0);
	fclose(out);
	unsigned char *got = malloc(n + 16);
	size_t have = 0;
	ssize_t r;
	while ((r = read(fds[0], got + have, n + 16 - have)) > 0)
		have += (size_t)r;
	ck_assert_uint_eq(have, n + 4);
	ck_assert_int_eq(memcmp(got, "HEAD", 4), 0);
	ck_assert(is_pattern(got + 4, n));
	free(got);
	close(fds[0]);
	fclose(body);
}
END_TEST

/* An output that cannot be written: the write side is named. */
START_TEST(test_copy_write_fails)
{
	FILE *body = spool_open(NULL);
	fill(body, 1000);
	FILE *full = fopen("/dev/full", "w");
	if (!full)
		return; /* no /dev/full here */
	ck_assert_int_eq(spool_copy(body, full, NULL), SPOOL_WRITE_FAILED);
	fclose(full);
	fclose(body);
}
END_TEST

/* A body moved later in its file, past the head that outgrew its room:
 * farther than a buffer and less (the two ranges overlap), every byte
 * where it belongs; what cannot be done is refused. */
START_TEST(test_shift)
{
	const size_t n = 300000;
	const off_t moves[] = { 1000, 70000 };
	for (unsigned m = 0; m < 2; m++) {
		FILE *fp = tmpfile();
		ck_assert_ptr_nonnull(fp);
		fputs("HEAD", fp);
		fill(fp, n);
		ck_assert_int_eq(fflush(fp), 0);
		int fd = fileno(fp);
		off_t to = moves[m];
		ck_assert(spool_shift(fd, 4, to, (off_t)n));
		ck_assert(spool_pwrite(fd, "NEWHEAD", 7, 0));
		unsigned char *got = malloc(n);
		ck_assert_ptr_nonnull(got);
		ck_assert_int_eq(pread(fd, got, n, to), (ssize_t)n);
		ck_assert(is_pattern(got, n));
		ck_assert_int_eq(pread(fd, got, 7, 0), 7);
		ck_assert_int_eq(memcmp(got, "NEWHEAD", 7), 0);
		struct stat st;
		ck_assert_int_eq(fstat(fd, &st), 0);
		ck_assert_int_eq(st.st_size, to + (off_t)n);
		free(got);
		/* earlier is not a shift, and bytes the file does not have
		 * cannot be moved */
		ck_assert(!spool_shift(fd, 100, 50, 10));
		ck_assert(!spool_shift(fd, st.st_size - 10, st.st_size, 20));
		fclose(fp);
	}
}
END_TEST

Suite *suite_spool(void)
{
	Suite *s = suite_create("spool");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_beside_unlinked);
	tcase_add_test(tc, test_copy_file);
	tcase_add_test(tc, test_copy_pipe);
	tcase_add_test(tc, test_copy_write_fails);
	tcase_add_test(tc, test_shift);
	suite_add_tcase(s, tc);
	return s;
}
