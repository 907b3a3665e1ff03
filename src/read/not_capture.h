/* not_capture.h: what the first bytes of an input say it is when it is not
 * a capture at all (rules.md, exit status: "a file that is not a capture
 * at all ... is an input error ... with a message that says what the file
 * seems to be"). */
#ifndef DLLPCHECK_NOT_CAPTURE_H
#define DLLPCHECK_NOT_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>

/* True when head (the first len bytes of an input that has no pcap,
 * pcapng, gzip or zstd magic) is binary data, not text: a known file
 * type by its magic bytes (ELF, PNG, zip, PDF, xz, bzip2, ...), UTF-16
 * text, or bytes of which too many are neither printable ASCII, white
 * space nor UTF-8.  what then says so in a sentence, with the first
 * bytes in hex, e.g. "binary data, not a pcap/pcapng, gzip, zstd or text
 * trace (first bytes 7f 45 4c 46: looks like an ELF file)". */
bool not_capture(const unsigned char *head, size_t len, char *what, size_t whatlen);

#endif
