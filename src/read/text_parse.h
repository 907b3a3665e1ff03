/* text_parse.h: one line of a text trace into a record (text_parse.c;
 * the grammar is capture-format.md section 2).  Private to src/read/: the
 * text reader (reader_text.c) reads the lines. */
#ifndef DLLPCHECK_TEXT_PARSE_H
#define DLLPCHECK_TEXT_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "read/reader.h"

/* Parses the content line[0, end) of a non-blank, non-comment line: fills
 * rec's time, kind, direction, link, flags and bytes (written to buf, of
 * TLP_MAX_RECORD_LEN bytes; rec->bytes = buf), or returns false with
 * bad's reason, column, and what the line showed of itself (direction,
 * kind) filled.  The position is the caller's to fill. */
bool text_parse_line(const char *line, size_t end, uint8_t *buf, struct record *rec,
                     struct reader_malformed *bad);

#endif
