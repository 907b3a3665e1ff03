/* pcapng_writer.h: the blocks of a pcapng file in dllpcheck's
 * encapsulation (capture-format.md section 1), with comments, which
 * libpcap's dump API cannot write (draft-ietf-opsawg-pcapng).
 *
 * Blocks are written in the host's byte order, which the Section Header
 * Block's byte-order magic tells the reader (section 4.1).  Every block
 * (section 3.1):
 *
 *   u32 block type | u32 total length | body, padded to 32 bits | u32 total length
 *
 * and options (section 3.5) are a list of
 *
 *   u16 code | u16 value length | value, padded to 32 bits
 *
 * closed by opt_endofopt (code 0, length 0) when there is any.
 */
#ifndef DLLPCHECK_PCAPNG_WRITER_H
#define DLLPCHECK_PCAPNG_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/record.h"

#define PCAPNG_BT_SHB 0x0A0D0D0Au
#define PCAPNG_BT_IDB 0x00000001u
#define PCAPNG_BT_EPB 0x00000006u
#define PCAPNG_BYTE_ORDER_MAGIC 0x1A2B3C4Du
#define PCAPNG_OPT_ENDOFOPT 0
#define PCAPNG_OPT_COMMENT 1 /* opt_comment: UTF-8, in any block */
#define PCAPNG_OPT_SHB_USERAPPL 4
#define PCAPNG_OPT_IF_TSRESOL 9
/* if_tsresol 9: timestamps count nanoseconds (section 4.2) */
#define PCAPNG_TSRESOL_NS 9u
/* The largest option value (a 16-bit length). */
#define PCAPNG_OPT_VALUE_MAX 65535u
/* The snapshot length of the Interface Description Block: the largest
 * record of the encapsulation, its pseudo-header included. */
#define PCAPNG_WRITER_SNAPLEN (PCAP_PSEUDO_HDR_LEN + TLP_MAX_RECORD_LEN)

/* The options of one block, encoded into a buffer of the caller's (so
 * that a block's size is bounded by it). */
struct pcapng_opts {
	uint8_t *buf;
	size_t cap;
	size_t len; /* bytes of options so far (opt_endofopt not included) */
};

void pcapng_opts_init(struct pcapng_opts *o, uint8_t *buf, size_t cap);
/* Room for n more bytes of value in one option (its header and padding
 * counted, and the opt_endofopt that closes the list). */
bool pcapng_opts_room(const struct pcapng_opts *o, size_t n);
/* Adds an option; false (nothing added) when it does not fit the buffer
 * or n > PCAPNG_OPT_VALUE_MAX. */
bool pcapng_opts_add(struct pcapng_opts *o, uint16_t code, const void *value, size_t n);
/* Adds an opt_comment of text, which is made valid UTF-8 as the format
 * requires (every byte of an invalid sequence written as \xNN, base/utf8.h)
 * and cut at a character boundary to the largest option value; false
 * when it does not fit the buffer. */
bool pcapng_opts_comment(struct pcapng_opts *o, const char *text);

/* The Section Header Block (section 4.1): version 1.0, section length
 * not given (-1), then the options (NULL: none).  False when writing
 * failed (errno). */
bool pcapng_write_shb(FILE *fp, const struct pcapng_opts *opts);
/* The Interface Description Block (section 4.2) of interface 0: linktype
 * (147 LINKTYPE_USER0, or the --dlt), PCAPNG_WRITER_SNAPLEN, if_tsresol 9. */
bool pcapng_write_idb(FILE *fp, uint16_t linktype);
/* The time of rec in the nanoseconds of if_tsresol 9 since the epoch of
 * its clock (time_base_s seconds + time_ps rounded down to the
 * nanosecond); false when it does not fit 64 bits. */
bool pcapng_record_ns(const struct record *rec, uint64_t *ns);
/* One Enhanced Packet Block (section 4.3) on interface 0: the record's
 * pseudo-header and bytes (rec->len captured, at most
 * TLP_MAX_RECORD_LEN; rec->wire_len on the wire), at its time
 * (pcapng_record_ns()), then the options (NULL: none).  False when the
 * time does not fit (errno EOVERFLOW) or writing failed (errno). */
bool pcapng_write_epb(FILE *fp, const struct record *rec, const struct pcapng_opts *opts);

#endif
