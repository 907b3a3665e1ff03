/* pcap_writer.h: writes records as a pcap in dllpcheck's encapsulation
 * (capture-format.md section 1), nanosecond timestamps. */
#ifndef DLLPCHECK_PCAP_WRITER_H
#define DLLPCHECK_PCAP_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "core/record.h"

struct pcap_writer;

#include <stdio.h>

/* Writes to fp (taken over: closed by pcap_writer_close, or here on
 * failure); name is for messages.  NULL with a message on failure. */
struct pcap_writer *pcap_writer_open(FILE *fp, const char *name, int dlt, char *err, size_t errlen);
/* Writes one record: pseudo-header, then rec->bytes (rec->len captured,
 * rec->wire_len on the wire).  Times are rounded down to the nanosecond. */
void pcap_writer_write(struct pcap_writer *w, const struct record *rec);
/* The 4-byte pseudo-header of rec (capture-format.md section 1): version,
 * kind, flags with the direction in bit 0, link.  The pcapng writer's
 * too. */
void pcap_pseudo_header(const struct record *rec, uint8_t out[PCAP_PSEUDO_HDR_LEN]);
/* Flushes and closes the stream; false (with a message) when writing
 * failed. */
bool pcap_writer_close(struct pcap_writer *w, char *err, size_t errlen);

#endif
