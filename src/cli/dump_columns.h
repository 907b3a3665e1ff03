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
 * rows it shows. */
void dump_columns(FILE *out, const char *path, struct reader *r);

#endif
