/* picture_paths.h: where the pictures of a run go: the --vcd file of each
 * input and its GTKWave save file, its --annotate capture, and the check
 * that no two outputs of the run are one file. */
#ifndef DLLPCHECK_PICTURE_PATHS_H
#define DLLPCHECK_PICTURE_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/config.h"

/* The --vcd file of input index, and its save file (false in *has_gtkw:
 * none, beside a VCD that is a device or a FIFO, as --vcd /dev/null).  A
 * single input's are the paths as given; a batch's have "-N" (1-based)
 * before the extension ("run.vcd" -> "run-2.vcd"), so that inputs never
 * share a file, but a device or FIFO is used as it is. */
void picture_paths(const struct config *cfg, int index, char *vcd, size_t vcd_len, char *gtkw,
                   size_t gtkw_len, bool *has_gtkw);

/* The --annotate file of input index: as given for a single input, with
 * "-N" before the extension in a batch ("run.pcapng" -> "run-2.pcapng"),
 * a device or FIFO as it is. */
void annotate_path(const struct config *cfg, int index, char *buf, size_t len);

/* False, with a message, when two outputs of the run would be one file:
 * -o and a VCD, save file or annotated capture, or two of these of one
 * input (checked before anything is written; the inputs are checked as
 * each output opens). */
bool picture_paths_check(const struct config *cfg, char *err, size_t len);

#endif
