/* decompress.h: gzip and zstd inputs read as the stream of their
 * uncompressed bytes (capture-format.md section 5).
 *
 * The compression is told by the first bytes, whatever the file is called.
 * decompress_open() puts a stdio stream in front of the compressed one, so
 * that every reader (pcap through libpcap, text, export) reads plain bytes
 * through the FILE * it is given, and positions are those of the
 * uncompressed stream.  It streams: memory is the library's window and two
 * fixed buffers, whatever the size of the file.  Concatenated gzip members
 * and multi-frame zstd are one stream.  Corrupt or truncated data is a read
 * error of the stream (errno EIO), and decompress_error() says what and
 * where.
 */
#ifndef DLLPCHECK_DECOMPRESS_H
#define DLLPCHECK_DECOMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum compression { COMP_NONE = 0, COMP_GZIP, COMP_ZSTD };

/* The compression whose magic bytes head starts with: gzip 1f 8b, a zstd
 * frame 28 b5 2f fd or a zstd skippable frame 5? 2a 4d 18.  COMP_NONE
 * for anything else. */
enum compression decompress_detect(const unsigned char *head, size_t len);
const char *compression_name(enum compression c); /* "gzip", "zstd" */

struct decompress;

/* A stream of the uncompressed bytes of under, which it takes over:
 * closing the returned stream closes under (unless under is stdin).  *dz
 * is its state for decompress_error(), valid until the stream is closed.
 * NULL (under closed, message in err) when memory runs out. */
FILE *decompress_open(FILE *under, enum compression c, const char *name, struct decompress **dz,
                      char *err, size_t errlen);

/* The reason reading stopped early, naming the file, the compression,
 * what went wrong and the uncompressed (and compressed) byte offset;
 * NULL while nothing did. */
const char *decompress_error(const struct decompress *dz);
/* Uncompressed bytes delivered so far. */
uint64_t decompress_offset(const struct decompress *dz);

#endif
