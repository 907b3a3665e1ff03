/* text_parse_internal.h: what text_parse.c (the line, DLLPs, events)
 * and text_parse_tlp.c (TLPs) share: the keys, the forms of symbolic
 * packets, the state of one line's parse and the key=value reader.  Not
 * for use outside read/. */
#ifndef DLLPCHECK_TEXT_PARSE_INTERNAL_H
#define DLLPCHECK_TEXT_PARSE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ascii.h"
#include "base/attrs.h"
#include "core/record.h"
#include "read/reader.h"
#include "read/text_lex.h"

/* ------------------------------------------------------------------ */
/* Keys and the forms of symbolic packets */

enum key_id {
	KEY_LINK,
	KEY_VC,
	KEY_HDR,
	KEY_DATA,
	KEY_HDRSCALE,
	KEY_DATASCALE,
	KEY_SEQ,
	KEY_ACK,
	KEY_BITS,
	KEY_LEN,
	KEY_TC,
	KEY_TD,
	KEY_CRC,
	KEY_LCRC,
	/* the header fields of a symbolic TLP (struct tlp_fields) */
	KEY_REQ,
	KEY_TAG,
	KEY_ADDR,
	KEY_FBE,
	KEY_LBE,
	KEY_TARGET,
	KEY_REG,
	KEY_COMPLETER,
	KEY_STATUS,
	KEY_BC,
	KEY_LA,
	KEY_CODE,
	KEY_ROUTE,
	KEY_EP,
	KEY_COUNT
};

/* A name with its length, so lookups compare lengths before bytes. */
struct name {
	const char *s;
	size_t len;
};
#define NAME(str)                    \
	{                            \
		str, sizeof(str) - 1 \
	}

/* The length and the first character reject most names before word_eq
 * (no name is empty, so s[0] exists when the lengths match). */
static inline bool name_eq(const char *s, size_t len, const struct name *n)
{
	return len == n->len && fold(s[0]) == fold(n->s[0]) && word_eq(s, len, n->s);
}

/* The key names, by key_id (text_parse.c). */
extern const struct name text_key_names[KEY_COUNT];

/* Keywords without a value. */
enum word_id { WORD_NOCRC, WORD_NOSEQ, WORD_NULLIFIED, WORD_COUNT };

#define BIT(n) (1u << (n))

/* A value that may be written as a name (status=UR, code=PME_Turn_Off,
 * route=by-id): true with *out set when s[0..len) is one. */
typedef bool (*value_name_fn)(const char *s, size_t len, uint64_t *out);

/* How one key is written for one form: hex keys take bare hex digits;
 * keys with names take one of them or a number.  64-bit limits for
 * addr= (a 64-bit address); every other key's fit 32 bits. */
struct key_rule {
	uint8_t key;
	bool hex;
	uint64_t min, max;
	value_name_fn names; /* NULL: numbers only */
	const char *names_what; /* what the names are, for messages */
};

struct form {
	const struct key_rule *rules;
	unsigned nrules;
	unsigned required; /* BIT(key) */
	unsigned words; /* BIT(word) allowed */
};

#define RULE_LINK                       \
	{                               \
		KEY_LINK, false, 0, 255 \
	}
#define RULE_CRC                         \
	{                                \
		KEY_CRC, true, 0, 0xFFFF \
	}
#define FORM(rules, req, words)                                     \
	{                                                           \
		rules, sizeof(rules) / sizeof(rules[0]), req, words \
	}

/* ------------------------------------------------------------------ */
/* Parsing one line */

/* The keys and keywords of a line, with the column each came from so
 * conflicts can point at the later one. */
struct fields {
	uint32_t val[KEY_COUNT]; /* every key's but addr='s */
	uint64_t addr; /* addr=, the one key of 64 bits */
	unsigned col[KEY_COUNT]; /* 0: not given */
	unsigned given; /* BIT(key) of the keys given */
	unsigned word_col[WORD_COUNT];
};

struct parse {
	struct lexer lx;
	struct reader_malformed *bad;
	uint8_t *buf; /* TLP_MAX_RECORD_LEN bytes */
	uint64_t time_ps;
	enum link_dir dir;
	enum rec_kind kind;
	uint8_t flags;
	uint32_t len;
	struct fields f;
};

static inline bool has(const struct fields *f, enum key_id k)
{
	return f->col[k] != 0;
}

static inline bool has_word(const struct fields *f, enum word_id w)
{
	return f->word_col[w] != 0;
}

/* Records why the line is malformed, at column col; returns false. */
bool text_fail(struct parse *p, unsigned col, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Reads the rest of the line as keys and keywords of form, then checks
 * the required keys; a missing one is blamed on the mnemonic at col. */
bool text_parse_fields(struct parse *p, const struct form *form, const char *what, unsigned col);
/* The keyword of a token, or -1. */
int text_word_lookup(const struct token *t);
/* A keyword token (no '=') of form; what names the packet for messages. */
bool text_parse_word(struct parse *p, const struct form *form, const char *what,
                     const struct token *t);
/* Two options that cannot go together: blame the one written later. */
bool text_conflict(struct parse *p, unsigned col_a, const char *a, unsigned col_b, const char *b);
/* Reads the rest of the line, from first, as hex digits into p->buf (at
 * most cap bytes stored, all counted in *count). */
bool text_parse_hex(struct parse *p, const char *what, const struct token *first, size_t cap,
                    size_t *count);
/* "TLP ..." after the kind word (text_parse_tlp.c). */
bool text_parse_tlp(struct parse *p);

#endif
