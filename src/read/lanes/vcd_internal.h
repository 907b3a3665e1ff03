/* vcd_internal.h: what the files of the VCD parser share, private to
 * read/lanes (tests/test-layers.sh keeps it so).
 * specification: capture-format.md section 4 "Input"; the interface is
 * vcd_parse.h, and IEEE 1364-2005 clause 18 the format.
 *
 * The parser is four files, one job each:
 *   vcd_parse.c    the input buffer and the words in it (and the parser's
 *                  life: vcd_new, vcd_free, the position)
 *   vcd_header.c   the declarations, up to $enddefinitions
 *   vcd_idcodes.c  the table of watched identifier codes
 *   vcd_scan.c     the value changes (vcd_next)
 * They share struct vcd_parser, the word reader and the messages.
 */
#ifndef DLLPCHECK_VCD_INTERNAL_H
#define DLLPCHECK_VCD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "read/lanes/vcd_parse.h"

#define VCD_BUF (1u << 20) /* bytes read at once; the longest word is one less */
#define VCD_VARS_MAX (1u << 22)
#define VCD_ARENA_MAX (256u << 20)
#define VCD_SLOT_MAX 65536u
#define VCD_SCOPE_MAX 65536u /* bytes of the scope path */

struct tok {
	const char *s;
	size_t len;
	uint64_t line, off;
};

/* During the header the strings live in the arena as offsets (it may
 * move); vcd_var's pointers are set once it stops growing. */
struct var_off {
	size_t path, name, kind, id;
	size_t id_len;
};

struct watch {
	size_t id; /* arena offset; (size_t)-1: empty */
	size_t id_len;
	uint32_t hash;
	unsigned width;
	int first; /* index in slots[] of its first slot */
};

struct wslot {
	unsigned slot;
	int next; /* -1: last */
};

struct vcd_parser {
	FILE *fp;
	const char *file;
	char *buf; /* cap + 1 bytes: the sentinel after the last read */
	size_t cap; /* read at once: VCD_BUF, or the file's size plus one when
	             * less (sw_size_for), growing to VCD_BUF if it grows */
	char *cur, *end;
	uint64_t base; /* file offset of buf[0] */
	bool eof, read_error;
	int read_errno;
	uint64_t line, line_off; /* the line the scan is in, and its start */
	struct tok pushback;
	bool have_pushback;

	struct vcd_var *vars;
	struct var_off *offs;
	size_t nvars, vars_cap;
	char *arena;
	size_t alen, acap;
	char *scope;
	size_t scope_len, scope_cap;
	uint64_t ts_fs;
	bool ts_given;

	struct watch *wt;
	size_t wt_cap, wt_n; /* wt_cap a power of 2 */
	struct wslot *slots;
	size_t nslots, slots_cap;
	uint64_t first_bits[4]; /* first characters of watched codes */

	uint64_t time_ps;
	bool time_pending; /* a VCD_TIME to return after a VCD_BAD */
	uint64_t ev_line, ev_off;
	struct vcd_change pend; /* a change still to deliver to pend_next */
	int pend_next;
	bool dumpoff; /* delivering x to every watched slot */
	size_t dumpoff_entry;
	int dumpoff_slot;
};

/* ------------------------------------------------------------------ */
/* Words (vcd_parse.c) */

static inline bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

enum tok_status { TOK_OK, TOK_EOF, TOK_LONG };

/* The next word.  TOK_LONG: a word longer than the buffer was skipped
 * (t says where it began); TOK_EOF at the end of the input or on a read
 * error (p->read_error). */
enum tok_status vcd_next_token(struct vcd_parser *p, struct tok *t);

static inline bool tok_is(const struct tok *t, const char *word)
{
	size_t n = strlen(word);
	return t->len == n && memcmp(t->s, word, n) == 0;
}

/* A word for a message: at most 40 bytes, the unprintable ones as '?'. */
const char *vcd_tok_text(const struct tok *t, char *out, size_t size);

void vcd_set_err(struct vcd_error *err, uint64_t line, uint64_t off, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------ */
/* Watched codes (vcd_idcodes.c) */

/* The watch of the identifier code s[0..n), or NULL when it is not
 * watched (most codes are turned away by their first character). */
struct watch *vcd_watched(const struct vcd_parser *p, const char *s, size_t n);

#endif
