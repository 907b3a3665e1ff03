/* annotate.h: --annotate OUT.pcapng: the input's records as pcapng in
 * dllpcheck's encapsulation (capture-format.md section 1), every finding
 * a comment on the Enhanced Packet Block of its record, and the run's
 * summary the Section Header Block's comment, so that Wireshark shows
 * them (frame.comment, Expert Information).  dllpcheck(1), ANNOTATED
 * CAPTURES.
 *
 * Streaming, memory bounded whatever the capture's length: one record's
 * block is held (its bytes and its comments) until the next record
 * begins, then written to a body file (base/spool.h); the Section Header
 * Block, known at the end, is written in front of the body then.
 *
 * Where each finding goes:
 *   - on the block of the record it names (finding.pos.record_no), as
 *     "RULE SEVERITY: MESSAGE", one opt_comment per finding;
 *   - a finding about a record already written (a timeout, the end of
 *     the capture) on the block of the record at which it was found, or
 *     the last record's, as "about record N: RULE SEVERITY: MESSAGE";
 *   - capture.malformed and capture.resync, about bytes that are no
 *     record of the file, on the next record's block (or, after the last
 *     record, the Section Header Block's), saying where they were:
 *     "about record N (line L, byte offset O), not in this file: ...",
 *     "about the bytes from offset O (before record N), not in this
 *     file: ...".
 * Record numbers are the input's, as in the report.  A block holds at
 * most ANNOTATE_BLOCK_COMMENTS bytes of comments (libpcap reads no block
 * of more than 128 KiB of options), and at most ANNOTATE_PENDING findings
 * wait for the next record; beyond, the block says how many findings it
 * does not carry.
 */
#ifndef DLLPCHECK_ANNOTATE_H
#define DLLPCHECK_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/record.h"
#include "core/rules.h"
#include "report/report.h"

#define ANNOTATE_BLOCK_COMMENTS (64u * 1024u)
#define ANNOTATE_PENDING 64u

struct annotate;

/* Opens the writer of one input's annotated capture: path the pcapng
 * file (never one of inputs; renamed into place when complete,
 * base/out_file.h), input the capture's name (the summary's), linktype
 * the IDB's (--dlt).  NULL, with a message in err naming the file, when
 * it cannot be written. */
struct annotate *annotate_open(const char *path, const char *input, int linktype,
                               char *const *inputs, int input_count, char *err, size_t len);

/* A decoded record begins (before the model applies it): the block held
 * so far is written, and rec's is held (its bytes copied). */
void annotate_record(struct annotate *a, const struct record *rec);

/* A finding reported (after its rule's filtering): a comment where the
 * list above says. */
void annotate_finding(struct annotate *a, const struct finding *f);

/* Completes the file (keep): the last block, then the Section Header
 * Block with the summary (rep, as the text report's first lines, and the
 * verdict: status, an enum exit_status, at fail_on) in front of
 * the body; or removes what was written (!keep).  Frees a.  False, with a
 * message in err, when the file could not be written. */
bool annotate_close(struct annotate *a, bool keep, const struct input_report *rep, int status,
                    enum severity fail_on, char *err, size_t len);

#endif
