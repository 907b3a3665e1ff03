/* reader_vcd.h: what --dump-columns and the tests may ask the VCD lane
 * reader.
 * The reader itself is declared with the others in read/reader.h
 * (vcd_reader_new, vcd_reader_ops); capture-format.md section 4. */
#ifndef DLLPCHECK_READER_VCD_H
#define DLLPCHECK_READER_VCD_H

#include "read/lanes/lane_map.h"
#include "read/lanes/lane_packet.h"
#include "read/lanes/vcd_parse.h"

const struct lane_mapping *vcd_reader_mapping(const void *state);
const struct vcd_parser *vcd_reader_parser(const void *state);
/* Every decoded symbol of direction dir also goes to fn (before the
 * first reader_next). */
void vcd_reader_observe(void *state,
                        void (*fn)(void *ctx, enum link_dir dir, unsigned lane,
                                   const struct lane_pos *pos, uint8_t raw, uint8_t descrambled,
                                   unsigned flags),
                        void *ctx);
/* Every sample stepped, none passed over as a fixed point (on_repeat in
 * reader_vcd.c): the plain version, which the tests compare the reader
 * with (before the first reader_next).  The same records come out. */
void vcd_reader_plain(void *state);
/* The samples passed over as fixed points so far. */
uint64_t vcd_reader_skipped(const void *state);

#endif
