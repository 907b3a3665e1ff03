/* not_capture.c: telling binary data from a text trace or an export before
 * reading it as one, so that an executable, an archive or random bytes is
 * one input error saying what it seems to be, not thousands of malformed
 * lines (rules.md, exit status).
 *
 * Two tests, on the bytes reader.c has already peeked:
 *  - magic numbers of common file types, among them compressions dllpcheck
 *    does not read (xz, bzip2, ...) and gzip or zstd found again inside
 *    decompressed data;
 *  - the share of bytes that cannot be in a text trace: control characters
 *    other than white space, DEL, and bytes that are not UTF-8.  A text
 *    trace or export is printable ASCII (comments may hold UTF-8); more
 *    than one such byte in NOT_TEXT_SHARE, and at least NOT_TEXT_MIN of
 *    them, is binary.  A stray NUL in a text line stays a malformed line
 *    of a text trace.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "read/not_capture.h"

#define NOT_TEXT_SHARE 10u /* one in ten */
#define NOT_TEXT_MIN 4u

struct magic {
	size_t offset;
	const char *bytes;
	size_t len;
	const char *name;
};

#define M(off, b, name)                     \
	{                                   \
		off, b, sizeof(b) - 1, name \
	}
static const struct magic magics[] = {
	M(0,
	  "\x7f"
	  "ELF",
	  "an ELF file (a program or library)"),
	M(0, "\x89PNG\r\n\x1a\n", "a PNG image"),
	M(0, "GIF8", "a GIF image"),
	M(0, "\xff\xd8\xff", "a JPEG image"),
	M(0, "%PDF-", "a PDF document"),
	M(0, "PK\x03\x04",
	  "a zip archive (or a file in zip form: docx, xlsx, jar); unzip it first"),
	M(0, "PK\x05\x06", "an empty zip archive"),
	M(0,
	  "\xfd"
	  "7zXZ\0",
	  "xz-compressed data; dllpcheck reads gzip and zstd: xz -dc FILE | dllpcheck -"),
	M(0, "BZh", /* and the block size digit */
	  "bzip2-compressed data; dllpcheck reads gzip and zstd: bzip2 -dc FILE | dllpcheck -"),
	M(0, "\x04\x22\x4d\x18",
	  "lz4-compressed data; dllpcheck reads gzip and zstd: lz4 -dc FILE | dllpcheck -"),
	M(0, "\x1f\x9d",
	  "compress (.Z) data; dllpcheck reads gzip and zstd: gzip -dc FILE | dllpcheck -"),
	M(0, "7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
	M(0, "Rar!\x1a\x07", "a RAR archive"),
	M(0, "\x1f\x8b", "gzip data inside compressed data (compressed twice?)"),
	M(0, "\x28\xb5\x2f\xfd", "zstd data inside compressed data (compressed twice?)"),
	M(0, "SQLite format 3", "an SQLite database"),
	M(257, "ustar", "a tar archive; extract the capture first"),
	M(0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
	  "an OLE2 document (an old Office file: .xls, .doc)"),
};
#undef M

/* The length of the UTF-8 sequence at s (at most n bytes), 0 when it is
 * not one.  A sequence cut by the end of the head counts as one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t want;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		want = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		want = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		want = 4;
	else
		return 0;
	for (size_t i = 1; i < want; i++) {
		if (i >= n)
			return n;
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	return want;
}

static bool text_byte(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	       c == '\v' || c == 0x1b; /* ESC: colour in a log */
}

static size_t not_text_bytes(const unsigned char *head, size_t len)
{
	size_t bad = 0;
	for (size_t i = 0; i < len;) {
		if (head[i] < 0x80) {
			bad += !text_byte(head[i]);
			i++;
			continue;
		}
		size_t n = utf8_len(head + i, len - i);
		if (n == 0) {
			bad++;
			n = 1;
		}
		i += n;
	}
	return bad;
}

bool not_capture(const unsigned char *head, size_t len, char *what, size_t whatlen)
{
	char hex[3 * 8 + 1] = "";
	size_t shown = len < 8 ? len : 8;
	for (size_t i = 0; i < shown; i++)
		snprintf(hex + (i ? 3 * i - 1 : 0), sizeof(hex) - (i ? 3 * i - 1 : 0), "%s%02x",
		         i ? " " : "", head[i]);

	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		const struct magic *m = &magics[i];
		if (len >= m->offset + m->len && memcmp(head + m->offset, m->bytes, m->len) == 0 &&
		    (m->bytes[0] != 'B' || (len > 3 && head[3] >= '1' && head[3] <= '9'))) {
			snprintf(what, whatlen, "not a capture (first bytes %s: looks like %s)",
			         hex, m->name);
			return true;
		}
	}
	if (len >= 2 &&
	    ((head[0] == 0xff && head[1] == 0xfe) || (head[0] == 0xfe && head[1] == 0xff))) {
		snprintf(what, whatlen,
		         "UTF-16 text (first bytes %s); dllpcheck reads UTF-8 "
		         "or ASCII: iconv -f UTF-16 -t UTF-8 FILE | dllpcheck -",
		         hex);
		return true;
	}
	size_t bad = not_text_bytes(head, len);
	if (bad * NOT_TEXT_SHARE > len && (bad >= NOT_TEXT_MIN || bad == len)) {
		snprintf(what, whatlen,
		         "binary data, not a pcap/pcapng, gzip, zstd or text "
		         "trace (first bytes %s; %zu of the first %zu bytes are not text)",
		         hex, bad, len);
		return true;
	}
	return false;
}
