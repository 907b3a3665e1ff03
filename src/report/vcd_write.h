/* vcd_write.h: --vcd FILE: the shadow model as a waveform (IEEE 1364-2005
 * clause 18, the value change dump), on the capture's time base, with a
 * GTKWave save file beside it.  Streaming: the changes the timeline tells
 * (report/timeline.h) are written as they come, so memory does not grow
 * with the capture. */
#ifndef DLLPCHECK_VCD_WRITE_H
#define DLLPCHECK_VCD_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include "report/timeline.h"

struct vcd_write;

/* Opens the writer of one input's waveform: path the VCD, gtkw_path the
 * GTKWave save file (NULL: none), input the capture's name (for the
 * header's comment), inputs the run's inputs (never overwritten); that
 * the run's outputs are different files is the caller's to check
 * (cli/picture_paths.c: -o, the VCD and the save file, before anything is
 * written).  NULL,
 * with a message in err naming the file, when it cannot be written. */
struct vcd_write *vcd_write_open(const char *path, const char *gtkw_path, const char *input,
                                 char *const *inputs, int input_count, char *err, size_t len);

/* The sink to add to the input's timeline (valid until vcd_write_close). */
void vcd_write_sink(struct vcd_write *w, struct timeline_sink *out);

/* Completes the VCD and the save file (keep), or removes what was
 * written (!keep); frees w.  False, with a message in err, when a file
 * could not be written. */
bool vcd_write_close(struct vcd_write *w, bool keep, char *err, size_t len);

#endif
