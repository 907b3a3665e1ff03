/* mem_pipe.h: a stream that reads bytes from memory but cannot seek nor
 * tell its size, as a pipe (fopencookie), for the unit tests that compare
 * a buffer sized to the input with the plain one (a pipe gets the plain
 * one: sw_size_for cannot measure it). */
#ifndef DLLPCHECK_TEST_MEM_PIPE_H
#define DLLPCHECK_TEST_MEM_PIPE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

struct mem_pipe {
	const void *data;
	size_t len, pos;
};

static inline ssize_t mem_pipe_read(void *cookie, char *buf, size_t size)
{
	struct mem_pipe *mp = cookie;
	size_t n = mp->len - mp->pos < size ? mp->len - mp->pos : size;
	if (n > 1000)
		n = 1000; /* a pipe gives what it has */
	memcpy(buf, (const char *)mp->data + mp->pos, n);
	mp->pos += n;
	return (ssize_t)n;
}

static inline int mem_pipe_close(void *cookie)
{
	free(cookie);
	return 0;
}

/* The stream of len bytes at data (kept by the caller until fclose). */
static inline FILE *mem_pipe_open(const void *data, size_t len)
{
	struct mem_pipe *mp = calloc(1, sizeof(*mp));
	ck_assert_ptr_nonnull(mp);
	mp->data = data;
	mp->len = len;
	cookie_io_functions_t io = { .read = mem_pipe_read, .close = mem_pipe_close };
	FILE *fp = fopencookie(mp, "r", io);
	ck_assert_ptr_nonnull(fp);
	return fp;
}

#endif
