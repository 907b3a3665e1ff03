/* spool.c: the body of an output written first, copied after its head
 * at the end (spool.h). */
#include "autoconfig.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/spool.h"

FILE *spool_open(const char *beside)
{
	if (!beside)
		return tmpfile();
	static const char suffix[] = ".body-XXXXXX";
	size_t n = strlen(beside);
	char *name = malloc(n + sizeof(suffix));
	if (!name) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(name, beside, n);
	memcpy(name + n, suffix, sizeof(suffix));
	FILE *fp = NULL;
	int fd = mkstemp(name);
	if (fd >= 0) {
		unlink(name);
		fp = fdopen(fd, "w+");
		if (!fp) {
			int saved = errno;
			close(fd);
			errno = saved;
		}
	}
	free(name);
	return fp;
}

/* Writes all n bytes of buf to fd: at offset at (pwrite), or at its
 * current offset when at is negative (write). */
static bool write_all_at(int fd, const char *buf, size_t n, off_t at)
{
	while (n) {
		ssize_t w = at < 0 ? write(fd, buf, n) : pwrite(fd, buf, n, at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return false;
		}
		buf += w;
		n -= (size_t)w;
		if (at >= 0)
			at += w;
	}
	return true;
}

enum spool_result spool_copy(FILE *body, FILE *out, uint64_t *kernel_bytes)
{
	if (kernel_bytes)
		*kernel_bytes = 0;
	/* what stdio holds goes to the files first: the copy works on the
	 * descriptors, after the head already written to out */
	if (fflush(body) != 0)
		return SPOOL_READ_FAILED;
	if (fflush(out) != 0)
		return SPOOL_WRITE_FAILED;
	int in = fileno(body), to = fileno(out);
	struct stat st;
	if (in < 0 || fstat(in, &st) != 0)
		return SPOOL_READ_FAILED;
	if (to < 0) {
		errno = EBADF;
		return SPOOL_WRITE_FAILED;
	}
	off_t size = st.st_size, off = 0;
#ifdef HAVE_COPY_FILE_RANGE
	/* in the kernel, without the bytes passing through here (and as a
	 * reflink where the file system shares extents); it refuses a
	 * device, a FIFO, another file system on older kernels: the loop
	 * below goes on from where it stopped, and a real error (no space)
	 * comes back from write() there */
	while (off < size) {
		ssize_t n = copy_file_range(in, &off, to, NULL, (size_t)(size - off), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (kernel_bytes)
			*kernel_bytes += (uint64_t)n;
	}
#endif
	char buf[65536];
	while (off < size) {
		size_t want = size - off < (off_t)sizeof(buf) ? (size_t)(size - off) : sizeof(buf);
		ssize_t n = pread(in, buf, want, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO; /* shorter than its size a moment ago */
			return SPOOL_READ_FAILED;
		}
		if (!write_all_at(to, buf, (size_t)n, -1))
			return SPOOL_WRITE_FAILED;
		off += n;
	}
	return SPOOL_COPIED;
}

bool spool_pwrite(int fd, const void *buf, size_t n, off_t at)
{
	if (at < 0) {
		errno = EINVAL;
		return false;
	}
	return write_all_at(fd, buf, n, at);
}

bool spool_shift(int fd, off_t from, off_t to, off_t len)
{
	if (to < from || len < 0) {
		errno = EINVAL;
		return false;
	}
	char buf[65536];
	/* [from, from + left) is still to move: its end first, as its new
	 * place [to + left - n, ...) lies at or after the bytes not yet read */
	off_t left = len;
	while (left > 0) {
		size_t n = left < (off_t)sizeof(buf) ? (size_t)left : sizeof(buf);
		off_t at = left - (off_t)n;
		size_t got = 0;
		while (got < n) {
			ssize_t r = pread(fd, buf + got, n - got, from + at + (off_t)got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				if (r == 0)
					errno = EIO; /* shorter than the caller said */
				return false;
			}
			got += (size_t)r;
		}
		if (!spool_pwrite(fd, buf, n, to + at))
			return false;
		left = at;
	}
	return true;
}
