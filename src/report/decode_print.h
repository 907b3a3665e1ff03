/* decode_print.h: --decode, one line (or JSON object) per record. */
#ifndef DLLPCHECK_DECODE_PRINT_H
#define DLLPCHECK_DECODE_PRINT_H

#include <stdio.h>

#include "decode/packet.h"
#include "read/reader.h"

void decode_print_packet(FILE *out, const struct packet *pkt);
void decode_print_malformed(FILE *out, const struct reader_malformed *bad);
/* What the reader passed over (READER_NOTE), as a comment line:
 * "# note packet P offset O: REASON". */
void decode_print_note(FILE *out, const struct reader_malformed *bad);

/* --decode --format=jsonl (decode_json.c): one object per record. */
void decode_json_packet(FILE *out, const struct packet *pkt);
void decode_json_malformed(FILE *out, const struct reader_malformed *bad);

#endif
