/* agilent_decoder.h: the Agilent/Keysight PCIe analyzer export as
 * cyrozap's tools write it (LINKTYPE_USER11), a link_decoder
 * (link_decoder.h).  The layout is in agilent_decoder.c and
 * dllpcheck-capture(5), CAPTURES FROM OTHER TOOLS. */
#ifndef DLLPCHECK_AGILENT_DECODER_H
#define DLLPCHECK_AGILENT_DECODER_H

#include <stdbool.h>
#include <stddef.h>

#include "read/link_decoder.h"
#include "read/reader.h"

#define AGILENT_LINKTYPE 158u /* LINKTYPE_USER11 */

/* False (err says why, naming the file) when out of memory. */
bool agilent_decoder_new(const struct reader_opts *opts, const char *name, struct link_decoder *dec,
                         char *err, size_t errlen);

#endif
