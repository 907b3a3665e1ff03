/* report_text.c: findings as lines a person (and grep) can read:
 *
 *   FILE:LINE[:COL]: record N[ packet P]: t=TIME link L PORT [VCv] [TYPE] [lane N]: SEVERITY RULE: MESSAGE
 *   FILE: record N offset O[ packet P]: ...   (binary inputs)
 *
 * "packet P" is the capture tool's own packet number (an analyzer
 * export's packet-number column), printed only when the record has one.
 */
#include <inttypes.h>

#include "base/timefmt.h"
#include "model/fc_view.h"
#include "report/report.h"
#include "wire/fc_arith.h"

void report_text_finding(void *ctx, const struct finding *f)
{
	FILE *out = ctx;
	if (f->pos.line) {
		fprintf(out, "%s:%" PRIu64, f->pos.file, f->pos.line);
		if (f->column)
			fprintf(out, ":%u", f->column);
		fprintf(out, ": record %" PRIu64, f->pos.record_no);
	} else {
		fprintf(out, "%s: record %" PRIu64 " offset %" PRIu64, f->pos.file,
		        f->pos.record_no, f->pos.byte_offset);
	}
	if (f->pos.has_source_packet)
		fprintf(out, " packet %" PRIu64, f->pos.source_packet);
	if (f->has_time)
		fprintf(out, ": t=" TIME_PS_FMT, TIME_PS_ARGS(f->time_ps));
	if (f->link >= 0)
		fprintf(out, " link %d", f->link);
	if (f->port != FINDING_NO_PORT)
		fprintf(out, " %s", link_dir_name((enum link_dir)f->port));
	if (f->vc != FINDING_NO_VC)
		fprintf(out, " VC%d", f->vc);
	if (f->credit_type != FINDING_NO_CREDIT)
		fprintf(out, " %s", credit_type_name((enum credit_type)f->credit_type));
	if (f->lane != FINDING_NO_LANE)
		fprintf(out, " lane %d", f->lane);
	fprintf(out, ": %s %s: %s\n", severity_name(f->severity), rule_info(f->rule)->id,
	        f->message);
}

/* Per link and VC: each transmitting port's credit state. */

static void print_credit(FILE *out, unsigned vc, enum link_dir port, enum credit_type ct,
                         const struct fc_credit_view *c)
{
	if (!credit_has_news(c))
		return;
	fprintf(out, "    VC%u %-4s %-4s", vc, link_dir_name(port), credit_type_name(ct));
	if (!c->advertised_seen)
		fputs(" advertised=?", out);
	else if (c->advertised_infinite)
		fputs(" advertised=inf", out);
	else
		fprintf(out, " advertised=%u", c->advertised);
	if (c->infinite)
		fputs(" CL=inf", out);
	else if (c->limit_known)
		fprintf(out, " CL=0x%X", c->limit);
	else
		fputs(" CL=?", out);
	if (c->consumed_known)
		fprintf(out, " CC=0x%X", c->consumed);
	else
		fputs(" CC=?", out);
	if (c->min_available_seen)
		fprintf(out, " min-available=%u", c->min_available);
	fprintf(out, " tlps=%" PRIu64 " credits=%" PRIu64, c->tlps_charged, c->credits_charged);
	if (c->longest_wait_ps)
		fprintf(out, " longest-wait=" TIME_PS_FMT "s", TIME_PS_ARGS(c->longest_wait_ps));
	fputc('\n', out);
}

static void print_link(FILE *out, unsigned index, const struct fc_link_view *link)
{
	fprintf(out,
	        "  link %u: scaled flow control %s; replays and duplicates not charged: down "
	        "%" PRIu64 ", up %" PRIu64 "\n",
	        index, link->scaling_known ? (link->scaling_active ? "active" : "off") : "unknown",
	        link->tlps_not_charged[DIR_DOWN], link->tlps_not_charged[DIR_UP]);
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		const struct fc_dl_view *d = &link->dl[p];
		fprintf(out,
		        "    port %-4s sent %" PRIu64 " new TLPs, %" PRIu64 " replayed, %" PRIu64
		        " nullified, %" PRIu64 " unreadable; received %" PRIu64 " Acks, %" PRIu64
		        " Naks; most outstanding %u\n",
		        link_dir_name(p), d->tlps_new, d->tlps_replayed, d->tlps_nullified,
		        d->tlps_unreadable, d->acks_received, d->naks_received,
		        d->outstanding_high_water);
	}
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		const struct fc_dl_view *d = &link->dl[p];
		if (d->no_seq || d->no_lcrc)
			fprintf(out,
			        "    partial: port %s: its TLPs were captured without %s (the "
			        "capture's format): %s not checked\n",
			        link_dir_name(p),
			        d->no_seq && d->no_lcrc ? "sequence numbers and LCRCs"
			        : d->no_seq             ? "sequence numbers"
			                                : "LCRCs",
			        d->no_seq
			                ? "the data link layer's rules (sequence numbers, Ack/Nak, "
			                  "replays) and the LCRC were"
			                : "the LCRC was");
	}
	for (unsigned p = 0; p < DIR_COUNT; p++)
		if (link->damaged_dllps[p] || link->damaged_tlps[p])
			fprintf(out,
			        "    partial: port %s: the capture saw %" PRIu64
			        " DLLP%s and %" PRIu64
			        " TLP%s from it damaged; what they said is unknown, so the checks "
			        "resting on it were off until intact packets settled it\n",
			        link_dir_name(p), link->damaged_dllps[p],
			        link->damaged_dllps[p] == 1 ? "" : "s", link->damaged_tlps[p],
			        link->damaged_tlps[p] == 1 ? "" : "s");
	bool any = false;
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++)
		for (unsigned p = 0; p < DIR_COUNT; p++)
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				any |= credit_has_news(&link->vc[vc].port[p].credit[ct]);
	if (any)
		fputs("    (per VC and transmitting port: credits its partner advertised, "
		      "limit CL, consumed CC, least available, TLPs and credits charged, "
		      "longest wait for credits)\n",
		      out);
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		const struct fc_vc_view *v = &link->vc[vc];
		for (unsigned p = 0; p < DIR_COUNT; p++)
			for (unsigned ct = 0; ct < CT_COUNT; ct++)
				print_credit(out, vc, (enum link_dir)p, (enum credit_type)ct,
				             &v->port[p].credit[ct]);
		if (v->epochs_joined)
			fprintf(out,
			        "    joined: VC%u: %" PRIu64
			        " initialisation epoch%s joined, not seen "
			        "(the last at record %" PRIu64 "): the capture began during "
			        "flow-control initialisation, so what each port had received "
			        "before "
			        "was not checked (fc.init.tlp-before-init, tlp-during-init2, "
			        "init2-early, update-early), and each port's credits consumed only "
			        "from its own first InitFC1\n",
			        vc, v->epochs_joined, v->epochs_joined == 1 ? "" : "s",
			        v->joined_record);
		if (v->tlps_while_unknown || v->fc_dllps_while_unknown)
			fprintf(out,
			        "    partial: VC%u: %" PRIu64 " TLPs and %" PRIu64
			        " flow-control DLLPs came before any initialisation was seen "
			        "(the capture starts mid-stream): credit gate, outstanding and "
			        "init checks were off for them (see --initial-credits)\n",
			        vc, v->tlps_while_unknown, v->fc_dllps_while_unknown);
	}
}

/* --stats, the transaction layer of one direction (rules.md "The
 * transaction layer"): the port's non-posted requests by kind and how they
 * ended, their latencies, and the completions that came back for them. */
static void print_latency(FILE *out, const char *what, const struct tl_latency_view *l)
{
	fprintf(out, "%s min " TIME_PS_FMT "s median ~" TIME_PS_FMT "s max " TIME_PS_FMT "s", what,
	        TIME_PS_ARGS(l->min_ps), TIME_PS_ARGS(l->median_ps), TIME_PS_ARGS(l->max_ps));
}

static void print_transactions(FILE *out, enum link_dir p, const struct tl_stats_view *t)
{
	if (!tl_stats_view_any(t))
		return;
	const char *port = link_dir_name(p);
	fprintf(out, "    port %-4s sent %" PRIu64 " non-posted request%s", port, t->requests_total,
	        t->requests_total == 1 ? "" : "s");
	const char *sep = ": ";
	for (unsigned k = 0; k < TLP_KIND_COUNT; k++) {
		if (!t->requests[k])
			continue;
		fprintf(out, "%s%" PRIu64 " %s", sep, t->requests[k], tlp_kind_name(k));
		sep = ", ";
	}
	fprintf(out, "; completed %" PRIu64, t->completed);
	if (t->ended_by_epoch)
		fprintf(out, ", ended unanswered by a new epoch %" PRIu64, t->ended_by_epoch);
	fprintf(out, ", outstanding at the end %u, most at once %u", t->outstanding,
	        t->outstanding_high_water);
	if (t->timed_out)
		fprintf(out, "; timed out (tlp.cpl.timeout) %" PRIu64, t->timed_out);
	fputc('\n', out);
	if (t->latency_first.has_median) {
		fprintf(out, "    port %-4s latency", port);
		print_latency(out, " to the first completion", &t->latency_first);
		if (t->latency_last.has_median)
			print_latency(out, "; to the last", &t->latency_last);
		fputc('\n', out);
	}
	fprintf(out, "    port %-4s received %" PRIu64 " completion%s for its requests", port,
	        t->completions, t->completions == 1 ? "" : "s");
	sep = ": ";
	for (unsigned st = 0; st < TL_STATUS_VIEW_COUNT; st++) {
		if (!t->status[st])
			continue;
		fprintf(out, "%s%" PRIu64 " %s", sep, t->status[st],
		        tl_status_view_name((enum tl_status_view)st));
		sep = ", ";
	}
	if (t->completions_unmatched)
		fprintf(out, "; %" PRIu64 " matched no outstanding request",
		        t->completions_unmatched);
	fputc('\n', out);
	if (t->requesters_untracked)
		fprintf(out,
		        "    partial: port %s: %" PRIu64
		        " request%s from requesters that could not "
		        "be tracked (the table of requesters was full): their completions were not "
		        "checked\n",
		        port, t->requesters_untracked, t->requesters_untracked == 1 ? "" : "s");
	if (t->while_unknown)
		fprintf(out,
		        "    partial: port %s: %" PRIu64
		        " of its requests and of the completions for "
		        "them came while the transaction state was unknown (the capture began "
		        "mid-stream, a joined epoch, TLPs without sequence numbers): the pairing "
		        "rules did not judge them\n",
		        port, t->while_unknown);
}

/* --stats: TLPs by type, time at zero credits, UpdateFC intervals, the
 * transaction layer. */
static void print_stats(FILE *out, unsigned index, const struct fc_link_view *link)
{
	fprintf(out, "  statistics, link %u:\n", index);
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		fprintf(out, "    port %-4s new TLPs by type:", link_dir_name(p));
		bool any = false;
		for (unsigned k = 0; k < TLP_KIND_COUNT; k++) {
			if (link->dl[p].tlps_by_kind[k]) {
				fprintf(out, " %s=%" PRIu64, tlp_kind_name(k),
				        link->dl[p].tlps_by_kind[k]);
				any = true;
			}
		}
		fputs(any ? "\n" : " none\n", out);
	}
	for (unsigned vc = 0; vc < FC_VC_COUNT; vc++) {
		const struct fc_vc_view *v = &link->vc[vc];
		for (unsigned p = 0; p < DIR_COUNT; p++) {
			for (unsigned ct = 0; ct < CT_COUNT; ct++) {
				uint64_t z = v->port[p].credit[ct].time_at_zero_ps;
				if (z)
					fprintf(out,
					        "    VC%u %-4s %-4s time at zero available "
					        "credits " TIME_PS_FMT "s\n",
					        vc, link_dir_name(p), credit_type_name(ct),
					        TIME_PS_ARGS(z));
			}
			for (unsigned cls = 0; cls < FC_CLASS_COUNT; cls++) {
				const struct fc_intervals_view *iv = &v->port[p].updates[cls];
				if (!iv->events)
					continue;
				fprintf(out, "    VC%u %-4s sent %" PRIu64 " UpdateFC-%s", vc,
				        link_dir_name(p), iv->events, fc_class_name(cls));
				if (iv->has_median)
					fprintf(out,
					        "; intervals min " TIME_PS_FMT
					        "s median ~" TIME_PS_FMT "s max " TIME_PS_FMT "s",
					        TIME_PS_ARGS(iv->min_ps),
					        TIME_PS_ARGS(iv->median_ps),
					        TIME_PS_ARGS(iv->max_ps));
				fputc('\n', out);
			}
		}
	}
	for (unsigned p = 0; p < DIR_COUNT; p++)
		print_transactions(out, (enum link_dir)p, &link->tl_stats[p]);
}

void report_text_summary(FILE *out, const struct input_report *r)
{
	const struct input_stats *stats = r->stats;
	const struct finding_sink *sink = r->sink;
	fprintf(out,
	        "== %s (%s%s%s): %" PRIu64 " records read, %" PRIu64 " decoded, %" PRIu64
	        " malformed",
	        r->file, r->format, r->encapsulation ? ", " : "",
	        r->encapsulation ? r->encapsulation : "", stats->records_read,
	        stats->records_decoded, stats->records_malformed);
	/* the byte accounting only when bytes were skipped (capture.resync):
	 * otherwise every byte is in a record */
	if (stats->bytes_skipped)
		fprintf(out, ", %" PRIu64 " bytes read, %" PRIu64 " skipped", stats->bytes_read,
		        stats->bytes_skipped);
	fprintf(out, "; findings: %" PRIu64 " error, %" PRIu64 " warning, %" PRIu64 " info\n",
	        sink->count_by_severity[SEV_ERROR], sink->count_by_severity[SEV_WARNING],
	        sink->count_by_severity[SEV_INFO]);
	if (stats->time_base_s)
		fprintf(out,
		        "   (times count from the capture's clock second %" PRIu64
		        ", its first record's)\n",
		        stats->time_base_s);
	for (unsigned i = 0; i < RULE_COUNT; i++) {
		if (sink->count_by_rule[i])
			fprintf(out, "   %-32s %-8s %" PRIu64 "\n", rule_info(i)->id,
			        severity_name(rule_info(i)->severity), sink->count_by_rule[i]);
	}
}

void report_text_input(FILE *out, const struct input_report *r)
{
	report_text_summary(out, r);
	if (!r->model && !r->merged)
		return;
	for (unsigned i = report_input_next_link(r, 0); i < FC_LINK_COUNT;
	     i = report_input_next_link(r, i + 1)) {
		struct fc_link_view link;
		if (report_input_link(r, i, &link)) {
			print_link(out, i, &link);
			if (r->stats_wanted)
				print_stats(out, i, &link);
		}
	}
	if (r->fc_opts->role[DIR_DOWN] == ROLE_UNKNOWN && r->fc_opts->role[DIR_UP] == ROLE_UNKNOWN)
		fputs("  partial: no --role given: fc.adv.cpl-finite was not checked\n", out);
	if (!r->fc_opts->mps)
		fputs("  partial: no --mps given: the data minima of fc.adv.below-min and "
		      "tlp.payload.over-mps were not checked\n",
		      out);
	if (!r->fc_opts->mrrs)
		fputs("  partial: no --mrrs given: tlp.read.over-mrrs was not checked\n", out);
}

void report_text_batch(FILE *out, char *const *files, const struct input_result *results, int count,
                       int exit_status)
{
	static const char *const verdicts[] = {
		[EXIT_CLEAN] = "pass",
		[EXIT_FINDINGS] = "FAIL",
		[EXIT_ERROR] = "ERROR",
	};
	fprintf(out, "\n%-40s %12s %8s %8s %8s  %s\n", "file", "records", "errors", "warnings",
	        "info", "verdict");
	for (int i = 0; i < count; i++) {
		const struct input_result *r = &results[i];
		fprintf(out, "%-40s ", files[i]);
		if (r->opened)
			fprintf(out, "%12" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64,
			        r->stats.records_read, r->by_severity[SEV_ERROR],
			        r->by_severity[SEV_WARNING], r->by_severity[SEV_INFO]);
		else
			fprintf(out, "%12s %8s %8s %8s", "-", "-", "-", "-");
		fprintf(out, "  %s\n", verdicts[r->status <= EXIT_ERROR ? r->status : EXIT_ERROR]);
	}
	fprintf(out, "%d inputs; exit status %d\n", count, exit_status);
}
