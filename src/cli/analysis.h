/* analysis.h: runs one input through the pipeline
 * reader -> decoder -> packet rules (-> shadow model) -> findings sink. */
#ifndef DLLPCHECK_ANALYSIS_H
#define DLLPCHECK_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/input_stats.h"
#include "core/rules.h"
#include "decode/packet.h"
#include "read/reader.h"

/* What a pass over an input calls for each record.  on_packet is called
 * for every decoded record; on_malformed for every record that could not
 * be read, and for every region skipped at a damaged pcap record header
 * (bad->skipped; READER_RESYNC).  Either may be NULL. */
struct analysis_hooks {
	void (*on_packet)(void *ctx, const struct packet *pkt, bool applicable);
	void (*on_malformed)(void *ctx, const struct reader_malformed *bad);
	void *ctx;
	/* called every 65536 records with the position reached */
	void (*on_progress)(const struct input_stats *stats, uint64_t byte_offset);
	/* what the reader passed over that is no record and no damage
	 * (READER_NOTE: a network capture's other traffic); may be NULL */
	void (*on_note)(void *ctx, const struct reader_malformed *bad);
};

/* Reads every record of an open reader: decodes it, raises packet-level
 * findings into sink (may be NULL: decode only), counts into stats and
 * calls the hooks.  Malformed records become capture.malformed findings,
 * regions skipped capture.resync findings.
 * Returns false when the input ended on a fatal read error (reported as
 * capture.malformed too). */
bool analysis_run(struct reader *r, struct finding_sink *sink, const struct analysis_hooks *hooks,
                  struct input_stats *stats);

#endif
