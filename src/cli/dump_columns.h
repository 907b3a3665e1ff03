/* dump_columns.h: --dump-columns, how an analyzer export is read.
 * specification: capture-format.md section 3; dllpcheck(1) --dump-columns. */
#ifndef DLLPCHECK_DUMP_COLUMNS_H
#define DLLPCHECK_DUMP_COLUMNS_H

#include <stdio.h>

#include "read/reader.h"

/* Writes to out how the open input r (path) is read: for an export its
 * layout, delimiter, header, column mapping and first data rows, each as
 * the analysis takes it (read with reader_next(): a row the analysis
 * reports as capture.malformed is shown malformed, with the reason);
 * for any other format a line saying it has no columns.  Consumes the
 * rows it shows.  For a VCD of lanes: the mapping chosen (per direction the
 * form, width and signal of each lane, the clock, the timescale), the
 * first records and the first decoded symbols of each lane. */
void dump_columns(FILE *out, const char *path, struct reader *r);
/* A VCD whose lanes (or clock) were found by name: what was chosen, one
 * line to msgs (capture-format.md section 4: the reader says what it
 * chose).  Nothing for any other input. */
void dump_vcd_note(FILE *msgs, const char *path, const struct reader *r);

#endif
