/* spool.h: an output whose head is known only at the end.
 *
 * A VCD declares its variables before the first value change, a pcapng
 * file carries the run's summary in its Section Header Block, yet both
 * learn what goes in front only after the last record.  So the part after
 * the head (the body) is written as it comes to a spool: an unlinked
 * temporary file beside the output (the same file system, so it may grow
 * as large as the output; unlinked at once, so it never outlives the
 * run).  At the end the head is written to the output and the body
 * copied after it, in the kernel (copy_file_range(2)) where the two files
 * allow it, by read and write otherwise.  Memory does not grow with the
 * body.
 */
#ifndef DLLPCHECK_SPOOL_H
#define DLLPCHECK_SPOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* A body file beside the file named beside (named beside + ".body-XXXXXX"
 * and unlinked at once), or tmpfile() when beside is NULL (an output that
 * is a device or a FIFO, written in place).  NULL with errno set when it
 * cannot be made. */
FILE *spool_open(const char *beside);

enum spool_result {
	SPOOL_COPIED,
	SPOOL_READ_FAILED, /* the body could not be read back (errno) */
	SPOOL_WRITE_FAILED, /* the output could not be written (errno) */
};

/* Copies the whole body (from its start) to out after what was written to
 * out so far: both streams are flushed first, and out is at the end of
 * the copy afterwards (more may be written to it).  kernel_bytes, when
 * not NULL, is set to the bytes copy_file_range moved (the rest went
 * through read and write).  errno says why when it fails. */
enum spool_result spool_copy(FILE *body, FILE *out, uint64_t *kernel_bytes);

/* The other way, for a regular output whose head can be bounded: room is
 * left for the head, the body written straight after it, and the head
 * written into the room at the end (no copy).  When the head came out
 * longer than the room, the body is moved later in the file first. */

/* Writes all n bytes of buf at offset at of file descriptor fd (pwrite,
 * whatever it writes at a time).  False with errno set. */
bool spool_pwrite(int fd, const void *buf, size_t n, off_t at);

/* Moves the len bytes at offset from of fd to offset to, to >= from (a
 * body after a head that grew): the last bytes first, so that none is
 * overwritten before it is read.  False with errno set. */
bool spool_shift(int fd, off_t from, off_t to, off_t len);

#endif
