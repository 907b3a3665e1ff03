/* lane_map_internal.h: what the files of the lane mapping share, private
 * to read/lanes (tests/test-layers.sh keeps it so).
 * specification: capture-format.md section 4 "Mapping"; the interface is
 * lane_map.h.
 *
 * The mapping is three files, one job each:
 *   lane_options.c     the options as the command line gives them
 *   lane_map.c         the variables the patterns name, checked; the clock
 *                      named; lane_map_build
 *   lane_autodetect.c  the lanes and the clock found by their common names
 */
#ifndef DLLPCHECK_LANE_MAP_INTERNAL_H
#define DLLPCHECK_LANE_MAP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "read/lanes/lane_map.h"
#include "read/lanes/vcd_parse.h"

/* Whether variables a and b are one signal (they share an identifier
 * code). */
bool lane_same_signal(const struct vcd_parser *p, size_t a, size_t b);

/* One direction from its patterns (given or chosen): the variables of
 * each key, the lane count and the form checked; false with err. */
bool lane_resolve_dir(const struct vcd_parser *p, enum link_dir dir, struct lane_dir_map *d,
                      char *err, size_t errlen);

/* No --lanes: the patterns of m->dir found by their common names and
 * resolved; m->chose says what was chosen.  False with err. */
bool lane_autodetect(const struct lane_options *o, const struct vcd_parser *p,
                     struct lane_mapping *m, char *err, size_t errlen);

/* No --lane-clock and no --symbol-period: m->clock found by its usual
 * name, nearest the lanes' scope.  False with err. */
bool lane_autodetect_clock(const struct vcd_parser *p, struct lane_mapping *m, char *err,
                           size_t errlen);

#endif
