/* text_quote.h: a token from an input, copied into a message so that the
 * message stays short and printable (the text and export readers). */
#ifndef DLLPCHECK_TEXT_QUOTE_H
#define DLLPCHECK_TEXT_QUOTE_H

#include <stddef.h>

/* A quoted token keeps at most this many input bytes, each at most 4
 * output bytes ("\xNN"): a reason stays short however long the token. */
#define QUOTE_MAX 32u
#define QUOTE_BUF (QUOTE_MAX * 4u + 4u)

/* Printable ASCII as is, anything else (and \ and ') as \xNN, cut at
 * QUOTE_MAX input bytes with "...": binary lines stay readable and a
 * reason never breaks a terminal or a JSON report.  out holds QUOTE_BUF
 * bytes; returns out. */
const char *text_quote(char *out, const char *s, size_t len);

#endif
