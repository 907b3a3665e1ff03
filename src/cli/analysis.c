/* analysis.c: the pipeline over one input, one record at a time. */
#include <stdio.h>
#include <string.h>

#include "cli/analysis.h"
#include "decode/rules_packet.h"

static void raise_malformed(struct finding_sink *sink, const struct reader_malformed *bad)
{
	struct finding f;
	finding_init(&f, R_CAPTURE_MALFORMED, NULL);
	f.pos = bad->pos;
	f.column = bad->column;
	/* a lane-level capture: the time and lane of the symbol at fault */
	if (bad->has_lane)
		f.lane = (int)bad->lane;
	if (bad->has_time) {
		f.time_ps = bad->time_ps;
		f.has_time = true;
	}
	finding_message(sink, &f, "%s", bad->reason);
	finding_add_evidence(&f, "byte_offset", (int64_t)bad->pos.byte_offset);
	rules_raise(sink, &f);
}

/* A region that holds no record (capture-format.md section 1): where it
 * starts, how long it is, and where reading went on, or that it runs up
 * to a gap of a reassembled stream (reading goes on after it), or that it
 * runs to the end of the input. */
static void raise_resync(struct finding_sink *sink, const struct reader_malformed *bad)
{
	struct finding f;
	finding_init(&f, R_CAPTURE_RESYNC, NULL);
	f.pos = bad->pos;
	finding_message(sink, &f, "%s", bad->reason);
	finding_add_evidence(&f, "byte_offset", (int64_t)bad->pos.byte_offset);
	finding_add_evidence(&f, "bytes_skipped", (int64_t)bad->skipped);
	if (bad->resumed)
		finding_add_evidence(&f, "resume_offset",
		                     (int64_t)(bad->has_resume_offset
		                                       ? bad->resume_offset
		                                       : bad->pos.byte_offset + bad->skipped));
	else if (bad->to_gap)
		finding_add_evidence(&f, "bytes_before_gap", (int64_t)bad->skipped);
	else
		finding_add_evidence(&f, "bytes_unread", (int64_t)bad->skipped);
	rules_raise(sink, &f);
}

/* Packets the reader passed over that are no damage and no record (a
 * network capture's other traffic, READER_NOTE): one finding, the count
 * in bad->skipped. */
static void raise_not_pcie(struct finding_sink *sink, const struct reader_malformed *bad)
{
	struct finding f;
	finding_init(&f, R_CAPTURE_NOT_PCIE, NULL);
	f.pos = bad->pos;
	finding_message(sink, &f, "%s", bad->reason);
	finding_add_evidence(&f, "packets", (int64_t)bad->skipped);
	rules_raise(sink, &f);
}

struct analysis_pass {
	struct finding_sink *sink;
	const struct analysis_hooks *hooks;
	struct input_stats *stats;
	bool fatal;
};

/* One record of the input (reader_visit_fn): it owns nothing beyond the
 * call, so memory does not grow with the capture. */
static bool analysis_record(void *ctx, enum reader_result res, const struct record *rec,
                            const struct reader_malformed *bad)
{
	struct analysis_pass *a = ctx;
	struct input_stats *stats = a->stats;
	const struct analysis_hooks *hooks = a->hooks;
	struct packet pkt;

	if (res == READER_RESYNC) {
		/* bytes, not a record: counted by the reader (reader_bytes) */
		stats->resyncs++;
		if (a->sink)
			raise_resync(a->sink, bad);
		if (hooks && hooks->on_malformed)
			hooks->on_malformed(hooks->ctx, bad);
		return true;
	}
	if (res == READER_NOTE) {
		/* no record, no damage: the model is not told */
		if (a->sink)
			raise_not_pcie(a->sink, bad);
		if (hooks && hooks->on_note)
			hooks->on_note(hooks->ctx, bad);
		return true;
	}
	stats->records_read++;
	if (res == READER_MALFORMED || res == READER_FATAL) {
		stats->records_malformed++;
		if (a->sink)
			raise_malformed(a->sink, bad);
		if (hooks && hooks->on_malformed)
			hooks->on_malformed(hooks->ctx, bad);
		a->fatal = res == READER_FATAL;
		return true;
	}
	stats->records_decoded++;
	stats->time_base_s = rec->time_base_s;
	switch (rec->kind) {
	case REC_DLLP:
		stats->dllps++;
		break;
	case REC_TLP:
		stats->tlps++;
		break;
	case REC_EVENT:
		stats->events++;
		break;
	}
	if (hooks && hooks->on_progress && (stats->records_read & 0xFFFFu) == 0)
		hooks->on_progress(stats, rec->pos.byte_offset);
	packet_decode(rec, &pkt);
	if (pkt.truncated)
		stats->records_truncated++;
	bool applicable = a->sink ? rules_packet_check(&pkt, a->sink) : true;
	if (hooks && hooks->on_packet)
		hooks->on_packet(hooks->ctx, &pkt, applicable);
	return true;
}

bool analysis_run(struct reader *r, struct finding_sink *sink, const struct analysis_hooks *hooks,
                  struct input_stats *stats)
{
	struct analysis_pass a = { sink, hooks, stats, false };
	reader_each(r, analysis_record, &a);
	stats->bytes_counted = reader_bytes(r, &stats->bytes_read, &stats->bytes_skipped);
	return !a.fatal;
}
