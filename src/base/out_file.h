/* out_file.h: an output file (--write-pcap OUT, -o FILE) that never
 * destroys an input and never leaves a partial file behind.
 *
 * An output that is one of the inputs (the same device and inode, through
 * whatever path, hard link or symbolic link) is refused before anything
 * is read.  A regular file is written as a temporary file beside it (the
 * same directory, so the rename cannot cross file systems), renamed over
 * it when the output is complete, and removed otherwise (also when a
 * signal ends the run): the old file stays as it was.  Standard output ("-"), a device or a FIFO is written
 * in place.
 */
#ifndef DLLPCHECK_OUT_FILE_H
#define DLLPCHECK_OUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct out_file {
	FILE *fp; /* write here */
	char *path; /* the file it becomes (a symbolic link resolved) */
	char *tmp; /* the temporary file; NULL when written in place */
};

/* Opens path ("-" when allow_stdout: standard output) for writing; what
 * names the option in messages ("--write-pcap", "-o").  inputs ("-":
 * standard input) are the run's inputs.  False, with a message naming
 * the output and the input, when path is one of them or cannot be
 * written. */
bool out_file_open(struct out_file *of, const char *path, const char *what, bool allow_stdout,
                   char *const *inputs, int input_count, char *err, size_t errlen);
/* Whether paths a and b name one file: the same device and inode when
 * both exist, else the same name once the directories they are in are
 * resolved (".", "..", symbolic links). */
bool out_file_same(const char *a, const char *b);

/* After of->fp is closed (by the caller, who checks that the writing
 * succeeded): keep renames the temporary file to the output, otherwise
 * it is removed.  False (message in err) when the rename fails. */
bool out_file_finish(struct out_file *of, bool keep, char *err, size_t errlen);

/* A temporary file being written is removed when SIGINT, SIGTERM, SIGHUP
 * or SIGPIPE ends the run (each of them not ignored).  A forked worker
 * calls this: the files are its parent's to remove. */
void out_file_forget_all(void);

#endif
