/* decode_print.h: --decode, one line per record, like tcpdump -r. */
#ifndef DLLPCHECK_DECODE_PRINT_H
#define DLLPCHECK_DECODE_PRINT_H

#include <stdio.h>

#include "packet.h"
#include "reader.h"

void decode_print_packet(FILE *out, const struct packet *pkt);
void decode_print_malformed(FILE *out, const struct reader_malformed *bad);

#endif
