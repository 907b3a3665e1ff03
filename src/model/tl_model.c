/* tl_model.c: requests paired with their completions, per link and
 * direction, and the rules the pairing proves: tlp.tag.in-use,
 * tlp.cpl.unexpected, tlp.cpl.byte-count, tlp.cpl.timeout.
 * specification: rules.md "The transaction layer (requests and
 * completions)"; PCIe 6.3 2.3.1.1 (Byte Count, Lower Address, non-SC
 * completions end a request), 2.3.2 (unexpected completions), 2.8
 * (completion timeout), as quoted in notes/tl-facts.md; spec-digest.md 4.1.
 *
 * What the capture cannot prove is never reported.  A request is CERTAIN
 * when the link's transaction state is known (a seen epoch start, both
 * capture saw) and the request cannot be a later
 * copy of one the receiver already had (dl_tlp_is_new); it stays so
 * while the capture saw every TLP of the completer's direction intact
 * since (damage_gen), and every TLP of its own direction (own_damage_gen:
 * one of them may have reused its tag).  Only a certain request is reported as reused or
 * timed out, or has its Byte Counts judged.  A completion is unexpected
 * only when, on top of that, no request of the requester's direction may
 * be missing from the table (fc_consumed_may_lag: a TLP of that direction
 * was seen damaged and not yet intact). */
#include <stdio.h>

#include "base/timefmt.h"
#include "model/tl_internal.h"

static bool is_read(unsigned kind)
{
	return kind == TLP_MRD || kind == TLP_MRDLK;
}

/* The pairing rules can speak on this link at all.  A tap without
 * sequence numbers (NO_SEQ) sees each TLP once [rules.md "Credits
 * consumed"]: its TLPs are paired like any (its completions, without an
 * LCRC to check, are never unexpected). */
static bool pairing_known(const struct fc_link *link)
{
	return link->tl_known;
}

/* Request r of direction req_dir is certain now. */
static bool certain_now(const struct fc_link *link, const struct tl_link *tl, enum link_dir req_dir,
                        const struct tl_request *r)
{
	uint32_t gen = tl->dir[partner_of(req_dir)].damage_gen;
	uint32_t own = tl->dir[req_dir].damage_gen;
	return (r->flags & TL_CERTAIN) && pairing_known(link) && r->damage_gen == gen &&
	       r->own_damage_gen == own && gen != TL_DAMAGE_GEN_MAX && own != TL_DAMAGE_GEN_MAX;
}

/* The earliest time a request on the link may pass the limit: the
 * oldest certain request of each direction is at its time list's head. */
static void update_deadline(const struct fc_model *m, struct fc_link *link)
{
	uint64_t deadline = UINT64_MAX;
	const struct tl_link *tl = link->tl;
	for (unsigned p = 0; tl && p < DIR_COUNT; p++) {
		const struct tl_dir *d = &tl->dir[p];
		if (d->head == TL_NONE)
			continue;
		uint64_t t = tl_at_const(d, d->head)->time_ps;
		uint64_t due = t > UINT64_MAX - m->opts->cpl_timeout_ps
		                       ? UINT64_MAX
		                       : t + m->opts->cpl_timeout_ps;
		if (due < deadline)
			deadline = due;
	}
	link->tl_deadline_ps = deadline;
}

static void note_latency(struct fc_intervals *iv, const struct tl_request *r, uint64_t now)
{
	if (now >= r->time_ps)
		fc_intervals_add(iv, now - r->time_ps);
}

/* The request is no longer outstanding; completed: its completions ended
 * it (then a further one is a duplicate). */
static void end_request(struct tl_dir *d, struct tl_request *r, struct tl_stats *st, bool completed,
                        uint64_t now)
{
	tl_timer_remove(d, r);
	r->flags &= (uint8_t)~TL_OUTSTANDING;
	if (completed) {
		r->flags |= TL_ENDED;
		st->completed++;
		note_latency(&st->latency_last, r, now);
	}
	if (st->outstanding)
		st->outstanding--;
}

/* "MRd of record 17 (t=0.000001000000 s)" */
#define REQ_FMT "%s of record %llu (t=" TIME_PS_FMT " s)"
#define REQ_ARGS(r)                                                                  \
	tlp_kind_name((enum tlp_kind)(r)->kind), (unsigned long long)(r)->record_no, \
	        TIME_PS_ARGS((r)->time_ps)

static void add_request_evidence(struct finding *f, uint16_t requester, uint16_t tag,
                                 const struct tl_request *r)
{
	finding_add_evidence(f, "requester", requester);
	finding_add_evidence(f, "tag", tag);
	if (r) {
		finding_add_evidence(f, "request_record", (int64_t)r->record_no);
		finding_add_evidence(f, "request_time_ps", (int64_t)r->time_ps);
	}
}

static COLD_PATH void raise_tag_in_use(struct fc_model *m, const struct packet *pkt,
                                       const struct tl_request *earlier)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	fc_finding_begin(&f, R_TLP_TAG_IN_USE, pkt, (int)fc_vc_of_tc(m, t->tc), FINDING_NO_CREDIT);
	finding_message(
	        m->sink, &f,
	        "%s from requester %04X reuses tag 0x%03X, still outstanding for the " REQ_FMT
	        ", which no completion has answered",
	        tlp_kind_name(t->kind), t->requester_id, t->tag, REQ_ARGS(earlier));
	add_request_evidence(&f, t->requester_id, t->tag, earlier);
	fc_raise(m, &f);
}

static COLD_PATH void raise_unexpected(struct fc_model *m, const struct packet *pkt,
                                       const struct tl_request *ended)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	fc_finding_begin(&f, R_TLP_CPL_UNEXPECTED, pkt, (int)fc_vc_of_tc(m, t->tc),
	                 FINDING_NO_CREDIT);
	if (ended)
		finding_message(m->sink, &f,
		                "%s to requester %04X tag 0x%03X from port %s: the " REQ_FMT
		                " was already fully answered (a duplicate completion)",
		                tlp_kind_name(t->kind), t->requester_id, t->tag,
		                link_dir_name(pkt->rec->dir), REQ_ARGS(ended));
	else
		finding_message(m->sink, &f,
		                "%s to requester %04X tag 0x%03X from port %s: no such request "
		                "was sent the other way on link %u in this epoch",
		                tlp_kind_name(t->kind), t->requester_id, t->tag,
		                link_dir_name(pkt->rec->dir), pkt->rec->link);
	add_request_evidence(&f, t->requester_id, t->tag, ended);
	fc_raise(m, &f);
}

static COLD_PATH void raise_cpl_status(struct fc_model *m, const struct packet *pkt,
                                       const struct tl_request *r)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	fc_finding_begin(&f, R_TLP_CPL_STATUS, pkt, (int)fc_vc_of_tc(m, t->tc), FINDING_NO_CREDIT);
	if (r)
		finding_message(m->sink, &f,
		                "%s to requester %04X tag 0x%03X with status %s, for the " REQ_FMT,
		                tlp_kind_name(t->kind), t->requester_id, t->tag,
		                tlp_cpl_status_name(t->cpl_status), REQ_ARGS(r));
	else
		finding_message(m->sink, &f, "%s to requester %04X tag 0x%03X with status %s",
		                tlp_kind_name(t->kind), t->requester_id, t->tag,
		                tlp_cpl_status_name(t->cpl_status));
	add_request_evidence(&f, t->requester_id, t->tag, r);
	finding_add_evidence(&f, "status", t->cpl_status);
	fc_raise(m, &f);
}

/* tlp.cpl.status [PCIe 2.2.9.1]: UR, CRS (RRS) and CA, with the request
 * it answers when the table has it outstanding. */
static void check_cpl_status(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	if (t->cpl_status != TLP_CPL_UR && t->cpl_status != TLP_CPL_CRS &&
	    t->cpl_status != TLP_CPL_CA)
		return;
	struct tl_request *r = NULL;
	if (link->tl) {
		r = tl_find(&link->tl->dir[partner_of(pkt->rec->dir)], t->requester_id, t->tag);
		if (r && !(r->flags & TL_OUTSTANDING))
			r = NULL;
	}
	raise_cpl_status(m, pkt, r);
}

static COLD_PATH void raise_byte_count(struct fc_model *m, const struct packet *pkt,
                                       const struct tl_request *r, uint32_t byte_count)
{
	const struct tlp *t = &pkt->u.tlp;
	struct finding f;
	fc_finding_begin(&f, R_TLP_CPL_BYTE_COUNT, pkt, (int)fc_vc_of_tc(m, t->tc),
	                 FINDING_NO_CREDIT);
	finding_message(m->sink, &f,
	                "%s to requester %04X tag 0x%03X: Byte Count %u, but %u bytes are still "
	                "owed to the " REQ_FMT,
	                tlp_kind_name(t->kind), t->requester_id, t->tag, byte_count, r->owed,
	                REQ_ARGS(r));
	add_request_evidence(&f, t->requester_id, t->tag, r);
	finding_add_evidence(&f, "byte_count", byte_count);
	finding_add_evidence(&f, "owed", r->owed);
	fc_raise(m, &f);
}

static COLD_PATH void raise_timeout(struct fc_model *m, const struct record *rec,
                                    enum link_dir req_dir, const struct tl_request *r,
                                    uint16_t requester, uint16_t tag, uint64_t now_ps)
{
	uint64_t waited = now_ps - r->time_ps, limit = m->opts->cpl_timeout_ps;
	struct finding f;
	finding_init(&f, R_TLP_CPL_TIMEOUT, rec);
	f.port = (int)req_dir;
	f.vc = (int)fc_vc_of_tc(m, r->tc);
	finding_message(
	        m->sink, &f,
	        "the " REQ_FMT " from port %s, requester %04X tag 0x%03X, is still "
	        "outstanding after %llu.%03llu us: more than %llu.%03llu us",
	        REQ_ARGS(r), link_dir_name(req_dir), requester, tag,
	        (unsigned long long)(waited / 1000000), (unsigned long long)(waited / 1000 % 1000),
	        (unsigned long long)(limit / 1000000), (unsigned long long)(limit / 1000 % 1000));
	add_request_evidence(&f, requester, tag, r);
	finding_add_evidence(&f, "outstanding_ps", (int64_t)waited);
	finding_add_evidence(&f, "timeout_ps", (int64_t)limit);
	fc_raise(m, &f);
}

static void apply_request(struct fc_model *m, struct fc_link *link, struct tl_link *tl,
                          const struct packet *pkt, bool may_repeat)
{
	const struct tlp *t = &pkt->u.tlp;
	enum link_dir from = pkt->rec->dir;
	struct tl_dir *d = &tl->dir[from];
	struct tl_stats *st = &link->tl_stats[from];
	uint64_t now = pkt->rec->time_ps;

	st->requests[t->kind]++;
	uint32_t index;
	struct tl_request *r = tl_make(m, d, t->requester_id, t->tag, &index);
	if (!r) {
		st->requesters_untracked++;
		return;
	}
	bool ambiguous = false;
	if (r->flags & TL_OUTSTANDING) {
		/* a later copy of an old request meets one of the tag: the copy
		 * may be of the old one or of a new one that reused the tag:
		 * which completions answer which is unknown */
		if (may_repeat) {
			tl_timer_remove(d, r);
			r->flags = (uint8_t)((r->flags | TL_AMBIGUOUS) & ~TL_CERTAIN);
			return;
		}
		/* past the shortest completion timeout the requester may have
		 * given the old request up and freed its tag [PCIe 2.8] */
		if (certain_now(link, tl, from, r) && now >= r->time_ps &&
		    now - r->time_ps <= m->opts->tag_reuse_window_ps)
			raise_tag_in_use(m, pkt, r);
		end_request(d, r, st, false, now); /* the newer takes the tag's place */
		/* the old one's completions may still come: which answers
		 * which is unknown from here */
		ambiguous = true;
	} else if (r->flags & TL_AMBIGUOUS) {
		ambiguous = true;
	}
	bool certain = pairing_known(link) && !may_repeat && !d->requests_uncertain && !ambiguous;
	r->record_no = pkt->rec->pos.record_no;
	r->time_ps = now;
	r->kind = (uint8_t)t->kind;
	r->tc = t->tc;
	r->damage_gen = tl->dir[partner_of(from)].damage_gen;
	r->own_damage_gen = d->damage_gen;
	r->owed = is_read(t->kind) ? tlp_read_bytes(t->length_dw, t->first_be, t->last_be) : 0;
	r->flags =
	        (uint8_t)(TL_OUTSTANDING | (certain ? TL_CERTAIN : 0) |
	                  (ambiguous ? TL_AMBIGUOUS : 0) | (is_read(t->kind) ? TL_OWED_KNOWN : 0));
	if (certain) {
		/* the list is in request order: only the first of an empty
		 * list moves the deadline */
		if (d->head == TL_NONE) {
			uint64_t limit = m->opts->cpl_timeout_ps;
			uint64_t due = now > UINT64_MAX - limit ? UINT64_MAX : now + limit;
			if (due < link->tl_deadline_ps)
				link->tl_deadline_ps = due;
		}
		tl_timer_append(d, r, index);
	}
	st->outstanding++;
	if (st->outstanding > st->outstanding_high_water)
		st->outstanding_high_water = st->outstanding;
}

/* A completion that matches no outstanding request proves a violation
 * only when every request the other way is known. */
static bool unexpected_provable(const struct fc_link *link, const struct tl_link *tl,
                                enum link_dir req_dir, const struct tlp *t)
{
	const struct tl_dir *d = &tl->dir[req_dir];
	return pairing_known(link) && t->lcrc == CRC_GOOD && !fc_consumed_may_lag(link, req_dir) &&
	       !d->requests_uncertain && (!d->overflow || tl_tracked(d, t->requester_id));
}

/* The bytes of a successful completion with data of a read [2.3.1.1]:
 * its Byte Count is what is still owed, this one included; the request
 * ends when it delivers all that is left.  BCM (a PCI-X completer's
 * Byte Count of just this packet) leaves the bytes owed unknown. */
static void read_data(struct fc_model *m, struct tl_dir *d, struct tl_request *r,
                      struct tl_stats *st, const struct packet *pkt, bool certain)
{
	const struct tlp *t = &pkt->u.tlp;
	uint32_t byte_count = tlp_byte_count(t->byte_count_field);
	uint32_t delivered = tlp_cpl_delivered(byte_count, t->length_dw, t->lower_address);

	if (t->bcm) {
		/* the count of this packet alone, or of the rest: unknown from
		 * here, and so whether more completions follow */
		r->flags = (uint8_t)((r->flags | TL_AMBIGUOUS) & ~(TL_OWED_KNOWN | TL_CERTAIN));
		tl_timer_remove(d, r);
		if (byte_count <= delivered)
			end_request(d, r, st, true, pkt->rec->time_ps);
		return;
	}
	if (certain && (r->flags & TL_OWED_KNOWN) && byte_count != r->owed)
		raise_byte_count(m, pkt, r, byte_count);
	if (byte_count <= delivered) {
		end_request(d, r, st, true, pkt->rec->time_ps);
		return;
	}
	/* the completer's word from here on: one wrong count, one finding */
	r->owed = byte_count - delivered;
	r->flags |= TL_OWED_KNOWN;
}

static void apply_completion(struct fc_model *m, struct fc_link *link, struct tl_link *tl,
                             const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	enum link_dir req_dir = partner_of(pkt->rec->dir);
	struct tl_dir *d = &tl->dir[req_dir];
	struct tl_stats *st = &link->tl_stats[req_dir];
	uint64_t now = pkt->rec->time_ps;

	st->completions++;
	st->cpl_status[t->cpl_status & 7u]++;
	struct tl_request *r = tl_find(d, t->requester_id, t->tag);
	if (!r || !(r->flags & TL_OUTSTANDING)) {
		st->completions_unmatched++;
		if (!(r && (r->flags & TL_AMBIGUOUS)) && unexpected_provable(link, tl, req_dir, t))
			raise_unexpected(m, pkt, r && (r->flags & TL_ENDED) ? r : NULL);
		return;
	}
	bool certain = certain_now(link, tl, req_dir, r);
	if (!(r->flags & TL_ANSWERED)) {
		r->flags |= TL_ANSWERED;
		note_latency(&st->latency_first, r, now);
	}
	/* a status other than Successful Completion is the request's last
	 * completion; any completion ends a request other than a read */
	if (t->cpl_status != TLP_CPL_SC || !is_read(r->kind)) {
		end_request(d, r, st, true, now);
		return;
	}
	if (t->has_data)
		read_data(m, d, r, st, pkt, certain);
}

void tl_apply(struct fc_model *m, struct fc_link *link, const struct packet *pkt, bool may_repeat)
{
	const struct tlp *t = &pkt->u.tlp;
	bool completion = tlp_kind_is_completion(t->kind);
	if (!completion && !tlp_kind_is_nonposted(t->kind))
		return;
	if (completion)
		check_cpl_status(m, link, pkt);
	struct tl_link *tl = tl_link_get(m, link);
	if (!tl)
		return;
	if (!pairing_known(link))
		link->tl_stats[completion ? partner_of(pkt->rec->dir) : pkt->rec->dir]
		        .while_unknown++;
	if (completion)
		apply_completion(m, link, tl, pkt);
	else
		apply_request(m, link, tl, pkt, may_repeat);
}

/* tlp.cpl.timeout: the requests outstanding longer than the limit at
 * now_ps, reported at record rec. */
static void expire(struct fc_model *m, struct fc_link *link, uint64_t now_ps,
                   const struct record *rec)
{
	struct tl_link *tl = link->tl;
	uint64_t limit = m->opts->cpl_timeout_ps;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		struct tl_dir *d = &tl->dir[p];
		while (d->head != TL_NONE) {
			uint32_t index = d->head;
			struct tl_request *r = tl_at(d, index);
			if (now_ps <= r->time_ps || now_ps - r->time_ps <= limit)
				break;
			tl_timer_remove(d, r);
			if (certain_now(link, tl, (enum link_dir)p, r)) {
				link->tl_stats[p].timed_out++;
				raise_timeout(m, rec, (enum link_dir)p, r,
				              tl_requester_of(d, index),
				              (uint16_t)(index % TL_TAGS), now_ps);
			}
			/* the requester may have given it up: its tag may be
			 * reused, its completions still come */
			r->flags &= (uint8_t)~TL_CERTAIN;
		}
	}
}

void tl_expire(struct fc_model *m, struct fc_link *link, const struct record *rec)
{
	expire(m, link, rec->time_ps, rec);
	update_deadline(m, link);
}

void tl_finish(struct fc_model *m, struct fc_link *link, uint64_t end_ps)
{
	/* the capture went on, on other links, to end_ps: reported at the
	 * link's last record */
	expire(m, link, end_ps, &link->last_rec);
}

void tl_epoch_start(struct fc_link *link, bool known)
{
	link->tl_known = known;
	if (!link->tl)
		return;
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		struct tl_stats *st = &link->tl_stats[p];
		st->ended_by_epoch += st->outstanding;
		st->outstanding = 0;
		tl_dir_new_epoch(&link->tl->dir[p]);
	}
	link->tl_deadline_ps = UINT64_MAX;
}

void tl_damaged_tlp(struct fc_link *link, enum link_dir sender)
{
	if (link->tl && link->tl->dir[sender].damage_gen < TL_DAMAGE_GEN_MAX)
		link->tl->dir[sender].damage_gen++;
}

void tl_discarded_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	enum link_dir from = pkt->rec->dir;
	bool known_kind = t->kind != TLP_KIND_UNKNOWN && t->status == TLP_OK;
	/* as if damaged: a completion (or what may have been one) may have
	 * answered any request, a request reused any tag */
	tl_damaged_tlp(link, from);
	/* a request whose Requester ID or Tag may not be what it says, or
	 * that its receiver dropped: a completion the other way may still
	 * answer it */
	if (!known_kind || tlp_kind_is_nonposted(t->kind)) {
		struct tl_link *tl = tl_link_get(m, link);
		if (tl)
			tl->dir[from].requests_uncertain = true;
	}
}
