/* report_hold.h: an input's part of the report held back until one of its
 * records decodes.
 *
 * rules.md (exit status): an input from which not one record could be
 * read is an input error, never findings and never clean.  That is known
 * only at the first decoded record, or at the end; until then the
 * capture.malformed findings (and the opening of the input's part in
 * JSON or JUnit) are held, so that an input with no record gets the
 * input error alone, the same way in every report format and in
 * --decode.  The hold is a stdio stream in front of the real output:
 * held bytes stay in memory up to REPORT_HOLD_MEM, then spill to a
 * tmpfile(), so memory does not grow with the number of bad lines (where
 * no temporary file can be made, a read-only /tmp, they stay in memory;
 * a temporary file that fails on the way, a full /tmp, loses them, and
 * report_hold_lost() says so: never a report cut in silence).  At
 * the first decoded record it writes what it holds and steps aside: the
 * analysis hooks are given back, and writes pass straight through.
 */
#ifndef DLLPCHECK_REPORT_HOLD_H
#define DLLPCHECK_REPORT_HOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/analysis.h"

#define REPORT_HOLD_MEM (64u * 1024u)

struct report_hold {
	FILE *out; /* the input's report is written here */
	/* the rest is the hold's own */
	FILE *under; /* the real output */
	struct analysis_hooks *hooks; /* the hooks it stands in front of */
	struct analysis_hooks inner; /* and what they were */
	/* NULL until a byte is held; mem_size grows to REPORT_HOLD_MEM, and
	 * beyond only where no spill can be made */
	unsigned char *mem;
	size_t mem_len, mem_size;
	FILE *spill;
	bool no_spill; /* tmpfile() failed: held in memory */
	bool released; /* a record decoded: writes go through */
	bool discarding; /* closing without keeping */
	bool failed; /* holding or writing failed */
	int lost_errno; /* non-zero: held bytes were lost (this errno) */
	bool have_first;
	struct reader_malformed first; /* the first record that could not be read */
	/* the reader's note (a network capture's other traffic), which says
	 * why an input of such packets only has no record */
	bool have_note;
	char note[sizeof(((struct reader_malformed *)0)->reason)];
	/* out's stdio buffer, of the size glibc gives a stream of its own
	 * (BUFSIZ): one allocation less an input.  Last: report_hold_open()
	 * zeroes what comes before it only. */
	char out_buf[BUFSIZ];
};

/* Starts holding what is written to h->out for under.  False (message in
 * err) when the stream cannot be made. */
bool report_hold_open(struct report_hold *h, FILE *under, char *err, size_t errlen);
/* Puts the hold in front of hooks (which must outlive the pass over the
 * input): it notes the first malformed record, and at the first decoded
 * one writes what it holds and restores hooks as they were. */
void report_hold_hooks(struct report_hold *h, struct analysis_hooks *hooks);
/* True once a record decoded. */
bool report_hold_released(const struct report_hold *h);
/* The input error for an input of which no record decoded (stats): what
 * the file seems to be and, when records were read, the first reason. */
void report_hold_no_record(const struct report_hold *h, const char *path, const char *format,
                           const char *compression, const struct input_stats *stats, char *msg,
                           size_t len);
/* Ends the hold and closes h->out: keep writes what is held (if it was
 * not yet), otherwise it is dropped.  False when writing failed. */
bool report_hold_close(struct report_hold *h, bool keep);
/* After report_hold_close: true when bytes held for the report were lost
 * (the temporary file they spilled to failed), with why in msg: the
 * input's part of the report is incomplete, an input error. */
bool report_hold_lost(const struct report_hold *h, const char *path, char *msg, size_t len);

#endif
