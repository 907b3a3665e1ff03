/* analysis.c: the pipeline loop over one input.  It owns no state beyond
 * one record: memory does not grow with the capture. */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "rules_packet.h"

static void raise_malformed(struct finding_sink *sink,
                            const struct reader_malformed *bad)
{
	struct finding f;
	finding_init(&f, R_CAPTURE_MALFORMED, NULL);
	f.pos = bad->pos;
	f.column = bad->column;
	finding_message(sink, &f, "%s", bad->reason);
	finding_add_evidence(&f, "byte_offset", (int64_t)bad->pos.byte_offset);
	rules_raise(sink, &f);
}

bool analysis_run(struct reader *r, struct finding_sink *sink,
                  const struct analysis_hooks *hooks,
                  struct input_stats *stats)
{
	struct record rec;
	struct reader_malformed bad;
	struct packet pkt;

	for (;;) {
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF)
			return true;
		stats->records_read++;
		if (res == READER_MALFORMED || res == READER_FATAL) {
			stats->records_malformed++;
			if (sink)
				raise_malformed(sink, &bad);
			if (hooks && hooks->on_malformed)
				hooks->on_malformed(hooks->ctx, &bad);
			if (res == READER_FATAL)
				return false;
			continue;
		}
		stats->records_decoded++;
		stats->time_base_s = rec.time_base_s;
		switch (rec.kind) {
		case REC_DLLP: stats->dllps++; break;
		case REC_TLP: stats->tlps++; break;
		case REC_EVENT: stats->events++; break;
		}
		if (hooks && hooks->on_progress && (stats->records_read & 0xFFFFu) == 0)
			hooks->on_progress(stats, rec.pos.byte_offset);
		packet_decode(&rec, &pkt);
		if (pkt.truncated)
			stats->records_truncated++;
		bool applicable = sink ? rules_packet_check(&pkt, sink) : true;
		if (hooks && hooks->on_packet)
			hooks->on_packet(hooks->ctx, &pkt, applicable);
	}
}
