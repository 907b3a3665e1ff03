/* utf8.h: text from the outside world (file names, above all) made safe
 * for JSON and XML, which must be valid UTF-8. */
#ifndef DLLPCHECK_UTF8_H
#define DLLPCHECK_UTF8_H

#include <stdbool.h>
#include <stddef.h>

bool utf8_valid(const char *s);
/* s with every byte of an invalid UTF-8 sequence written as the four
 * characters \xNN, into out (always terminated). */
void utf8_escape(const char *s, char *out, size_t cap);

/* A JSON string of s, escaped as above when s is not valid UTF-8 (Jansson
 * refuses such a string).  Defined where Jansson is: utf8_json.c. */
struct json_t;
struct json_t *json_string_outside(const char *s);

#endif
