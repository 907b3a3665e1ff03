/* text_lex.h: the characters and words of a text trace line: blanks,
 * case-folded words ('_' as '-'), and the lexer that yields a line's
 * words with their columns.  Private to the text trace grammar
 * (text_parse.c); inline, as the parser calls them for every word. */
#ifndef DLLPCHECK_TEXT_LEX_H
#define DLLPCHECK_TEXT_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "base/ascii.h"
#include "base/blank.h"

/* ------------------------------------------------------------------ */
/* Characters, words, messages */

static inline bool is_space(char c)
{
	return blank_is(c);
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Folds case and treats '_' as '-', so "pm-enter-l1" names PM_Enter_L1. */
static inline char fold(char c)
{
	return c == '_' ? '-' : ascii_lower(c);
}

/* s[0..len) equals word, folded (see fold()). */
static inline bool word_eq(const char *s, size_t len, const char *word)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (word[i] == '\0' || fold(s[i]) != fold(word[i]))
			return false;
	}
	return word[i] == '\0';
}

/* ------------------------------------------------------------------ */
/* Tokens */

struct token {
	const char *s;
	size_t len;
	unsigned col; /* 1-based */
};

struct lexer {
	const char *line;
	size_t pos;
	size_t end; /* comment and trailing blanks cut off */
};

static inline bool lex_next(struct lexer *lx, struct token *t)
{
	size_t p = lx->pos;

	while (p < lx->end && is_space(lx->line[p]))
		p++;
	if (p == lx->end) {
		lx->pos = p;
		return false;
	}
	t->s = lx->line + p;
	t->col = (unsigned)p + 1;
	p = blank_find(lx->line, p, lx->end);
	t->len = (size_t)(lx->line + p - t->s);
	lx->pos = p;
	return true;
}

/* The column a missing word would have had: just past the line's end. */
static inline unsigned lex_end_col(const struct lexer *lx)
{
	return (unsigned)lx->end + 1;
}

#endif
