/* dl_model.c: the data link layer's retry protocol as the capture sees it:
 * each port's NEXT_TRANSMIT_SEQ and ACKD_SEQ (transmit side) and
 * NEXT_RCV_SEQ (receive side), Acks and Naks, replays, and PM DLLP
 * directions.  All sequence arithmetic is 12-bit modulo.
 * specification: spec-digest.md section 7 (Ack/Nak), 6.1 (reset values),
 * 1.7 (PM DLLPs); rules.md dl.* rules.
 *
 * What the capture cannot vouch for is never reported: a TLP the capture
 * saw with a bad LCRC (or cut short) may have reached the receiver intact
 * and its number is unknown, so the states it could change become
 * uncertain until the trace settles them again. */
#include <stdio.h>
#include <string.h>

#include "model/fc_internal.h"

#define SEQ_MASK 0xFFFu

static unsigned seq_sub(unsigned a, unsigned b)
{
	return (a - b) & SEQ_MASK;
}

/* Port p's transmit state and its partner's receive state: known from
 * their reset values, or unknown. */
static void dl_port_restart(struct fc_link *link, enum link_dir p, bool known)
{
	link->seq_known[p] = known;
	link->seq_high[p] = 0xFFF;
	memset(link->seq_seen[p], 0, sizeof(link->seq_seen[p]));
	link->cc_holes[p] = 0;
	link->cc_damaged[p] = 0;
	link->cc_lag_for_epoch[p] = false;
	struct dl_port *tx = &link->dl[p];
	tx->ackd_known = known;
	tx->ackd_seq = 0xFFF;
	tx->unreadable_since_new = 0;
	tx->in_replay = false;
	tx->replay_resync = false;
	struct dl_port *rx = &link->dl[partner_of(p)];
	rx->rcv_known = known;
	rx->rcv_uncertain = false;
	rx->rcv_damaged = 0;
	rx->next_rcv_seq = 0;
	rx->newest_rcv_known = false;
}

void dl_restart_port(struct fc_link *link, enum link_dir p)
{
	/* DL_Inactive: NEXT_TRANSMIT_SEQ = 0, ACKD_SEQ = FFFh at the
	 * transmitter, NEXT_RCV_SEQ = 0 at its partner [6.1]; statistics are
	 * kept. */
	dl_port_restart(link, p, true);
}

void dl_reset(struct fc_link *link)
{
	for (unsigned p = 0; p < DIR_COUNT; p++)
		dl_port_restart(link, (enum link_dir)p, true);
}

void dl_forget(struct fc_link *link)
{
	for (unsigned p = 0; p < DIR_COUNT; p++)
		dl_port_restart(link, (enum link_dir)p, false);
}

/* ---- which TLPs are new (charged) ---------------------------------------- */

static bool seq_seen(const struct fc_link *link, enum link_dir p, unsigned seq)
{
	return (link->seq_seen[p][seq >> 3] >> (seq & 7)) & 1u;
}

static void seq_mark(struct fc_link *link, enum link_dir p, unsigned seq, bool seen)
{
	uint8_t bit = (uint8_t)(1u << (seq & 7));
	if (seen)
		link->seq_seen[p][seq >> 3] |= bit;
	else
		link->seq_seen[p][seq >> 3] &= (uint8_t)~bit;
}

/* True when seq is the first appearance of that sequence number with a
 * good LCRC: a new TLP.  A replay (after a Nak or a timeout) reuses the
 * numbers of the 2048 behind the newest; numbers ahead of it are new, and
 * moving ahead forgets those that fall out of the window.
 * Numbers skipped on the way ahead were sent and not seen intact: until
 * each appears, what the transmitter consumed may be more than charged
 * here (cc_holes); a damaged TLP before this one was a replay or one of
 * the skipped numbers, so it is accounted for (cc_damaged). */
bool dl_tlp_is_new(struct fc_link *link, enum link_dir p, unsigned seq, bool *may_repeat)
{
	if (!link->seq_known[p]) {
		link->seq_known[p] = true;
		link->seq_high[p] = (uint16_t)seq;
		seq_mark(link, p, seq, true);
		*may_repeat = true;
		return true;
	}
	unsigned ahead = (seq - link->seq_high[p]) & 0xFFFu;
	if (ahead >= 1 && ahead < 2048) {
		/* after damaged TLPs seen since the newest, it may be the
		 * replay of one of them, whatever its number */
		*may_repeat = link->cc_damaged[p] > 0;
		/* the numbers now 2048 or more behind become "ahead" again */
		for (unsigned k = 1; k <= ahead; k++)
			seq_mark(link, p, (link->seq_high[p] + k + 2048u) & 0xFFFu, false);
		link->seq_high[p] = (uint16_t)seq;
		seq_mark(link, p, seq, true);
		if (link->cc_holes[p] <= UINT32_MAX - ahead)
			link->cc_holes[p] += ahead - 1;
		link->cc_damaged[p] = 0;
		return true;
	}
	if (seq_seen(link, p, seq))
		return false;
	/* behind the newest and not seen intact: it fills a hole */
	*may_repeat = true;
	seq_mark(link, p, seq, true);
	if (link->cc_holes[p])
		link->cc_holes[p]--;
	return true;
}

/* The number of TLPs of port tx sent and not yet acknowledged. */
static bool outstanding(const struct fc_link *link, enum link_dir tx, unsigned *count)
{
	if (!link->seq_known[tx] || !link->dl[tx].ackd_known)
		return false;
	*count = seq_sub(link->seq_high[tx], link->dl[tx].ackd_seq);
	return *count < 2048;
}

static void note_high_water(struct fc_link *link, enum link_dir tx)
{
	unsigned out;
	if (outstanding(link, tx, &out) && out > link->dl[tx].outstanding_high_water)
		link->dl[tx].outstanding_high_water = out;
}

/* ---- Ack / Nak ------------------------------------------------------------ */

/* dl.ack.unreceived, seen from the receiver that sends the Ack/Nak: it
 * acknowledges beyond what the capture saw it receive in order, intact.
 * That includes TLPs the capture saw damaged: the tap and the receiver can
 * disagree, so it is a warning, and the receiver's own word then
 * resynchronises NEXT_RCV_SEQ [rules.md "What the capture saw damaged"]. */
static COLD_PATH void raise_ack_unreceived(struct fc_model *m, const struct packet *pkt,
                                           const struct dl_port *rx, enum link_dir rx_dir,
                                           unsigned seq, unsigned ahead)
{
	unsigned last_received = seq_sub(rx->next_rcv_seq, 1);
	struct finding f;
	fc_finding_begin(&f, R_DL_ACK_UNRECEIVED, pkt, FINDING_NO_VC, FINDING_NO_CREDIT);
	if (rx->rcv_damaged)
		finding_message(
		        m->sink, &f,
		        "%s seq=0x%03X acknowledges up to 0x%03X, but the last TLP the "
		        "capture saw arrive intact at port %s is 0x%03X; the capture saw %u "
		        "TLP%s damaged since, which the receiver may have taken intact",
		        dllp_name(&pkt->u.dllp), seq, seq, link_dir_name(rx_dir), last_received,
		        rx->rcv_damaged, rx->rcv_damaged == 1 ? "" : "s");
	else
		finding_message(m->sink, &f,
		                "%s seq=0x%03X acknowledges up to 0x%03X, but the last TLP the "
		                "capture saw arrive intact at port %s is 0x%03X",
		                dllp_name(&pkt->u.dllp), seq, seq, link_dir_name(rx_dir),
		                last_received);
	finding_add_evidence(&f, "acknak_seq", seq);
	finding_add_evidence(&f, "NEXT_RCV_SEQ", rx->next_rcv_seq);
	finding_add_evidence(&f, "ahead", ahead);
	finding_add_evidence(&f, "damaged", rx->rcv_damaged);
	fc_raise(m, &f);
}

static void ack_vs_received(struct fc_model *m, struct fc_link *link, const struct packet *pkt,
                            enum link_dir rx_dir, unsigned seq)
{
	struct dl_port *rx = &link->dl[rx_dir];
	if (!rx->rcv_known)
		return;
	unsigned last_received = seq_sub(rx->next_rcv_seq, 1);
	unsigned ahead = seq_sub(seq, last_received);
	if (ahead != 0 && ahead < 2048) {
		raise_ack_unreceived(m, pkt, rx, rx_dir, seq, ahead);
		/* The receiver has what it acknowledges, and whatever the
		 * capture saw after it on the way. */
		rx->next_rcv_seq = (uint16_t)((seq + 1) & SEQ_MASK);
		if (rx->newest_rcv_known && seq_sub(rx->newest_rcv, seq) < 2048)
			rx->next_rcv_seq = (uint16_t)((rx->newest_rcv + 1) & SEQ_MASK);
		rx->rcv_uncertain = false;
	}
	/* The receiver has said what it has. */
	rx->rcv_damaged = 0;
}

/* dl.ack.unknown-seq [7]: valid iff (AckNak_Seq_Num - ACKD_SEQ) mod 4096
 * <= the number outstanding; TLPs the capture could not read may have
 * carried the next numbers.  False when the Ack/Nak was reported (the
 * transmitter discards it). */
static bool ack_vs_sent(struct fc_model *m, struct fc_link *link, const struct packet *pkt,
                        enum link_dir tx_dir, unsigned seq)
{
	struct dl_port *tx = &link->dl[tx_dir];
	unsigned out;
	if (!tx->ackd_known || !outstanding(link, tx_dir, &out))
		return true; /* nothing to check it against yet */
	unsigned step = seq_sub(seq, tx->ackd_seq);
	unsigned allowed = out + tx->unreadable_since_new;
	if (step <= allowed)
		return true;
	struct finding f;
	fc_finding_begin(&f, R_DL_ACK_UNKNOWN_SEQ, pkt, FINDING_NO_VC, FINDING_NO_CREDIT);
	finding_message(m->sink, &f,
	                "%s seq=0x%03X: ACKD_SEQ=0x%03X NEXT_TRANSMIT_SEQ=0x%03X of port %s: "
	                "(0x%03X-ACKD_SEQ) mod 4096 = %u > %u outstanding",
	                dllp_name(&pkt->u.dllp), seq, tx->ackd_seq,
	                (unsigned)((link->seq_high[tx_dir] + 1) & SEQ_MASK), link_dir_name(tx_dir),
	                seq, step, allowed);
	finding_add_evidence(&f, "acknak_seq", seq);
	finding_add_evidence(&f, "ACKD_SEQ", tx->ackd_seq);
	finding_add_evidence(&f, "NEXT_TRANSMIT_SEQ", (link->seq_high[tx_dir] + 1) & SEQ_MASK);
	finding_add_evidence(&f, "outstanding_tlps", allowed);
	/* the same number under its first name, for the scripts that read it;
	 * "outstanding" means credits in every other rule */
	finding_add_evidence(&f, "outstanding", allowed);
	fc_raise(m, &f);
	return false;
}

void dl_apply_acknak(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct dllp *d = &pkt->u.dllp;
	enum link_dir rx_dir = pkt->rec->dir; /* the port sending the Ack */
	enum link_dir tx_dir = partner_of(rx_dir); /* whose TLPs it acknowledges */
	struct dl_port *tx = &link->dl[tx_dir];
	struct dl_port *rx = &link->dl[rx_dir];
	unsigned seq = d->acknak_seq;

	if (d->type == DLLP_NAK)
		tx->naks_received++;
	else
		tx->acks_received++;
	/* TLPs without sequence numbers (a tap above the retry buffer): the
	 * Acks that answer them cannot be checked [rules.md] */
	if (link->tap_no_seq[tx_dir])
		return;
	if (!ack_vs_sent(m, link, pkt, tx_dir, seq))
		return;
	ack_vs_received(m, link, pkt, rx_dir, seq);
	if (d->type == DLLP_NAK && rx->rcv_known) {
		/* A Nak carries NEXT_RCV_SEQ - 1 exactly: the receiver lost what
		 * came after (whatever the capture saw), and discards what is
		 * still on its way until the replay brings seq + 1 [7]. */
		rx->next_rcv_seq = (uint16_t)((seq + 1) & SEQ_MASK);
		rx->rcv_uncertain = true;
	}
	/* ACKD_SEQ, learnt from the first one in a mid-stream capture */
	tx->ackd_known = true;
	tx->ackd_seq = (uint16_t)seq;
}

/* ---- TLPs -------------------------------------------------------------------- */

static COLD_PATH void raise_seq_duplicate(struct fc_model *m, const struct packet *pkt,
                                          const struct dl_port *rx, enum link_dir rx_dir)
{
	unsigned seq = pkt->u.tlp.seq;
	struct finding f;
	fc_finding_begin(&f, R_DL_SEQ_DUPLICATE, pkt, FINDING_NO_VC, FINDING_NO_CREDIT);
	finding_message(
	        m->sink, &f,
	        "seq=0x%03X is behind NEXT_RCV_SEQ=0x%03X of port %s: a duplicate, not charged",
	        seq, rx->next_rcv_seq, link_dir_name(rx_dir));
	finding_add_evidence(&f, "seq", seq);
	finding_add_evidence(&f, "NEXT_RCV_SEQ", rx->next_rcv_seq);
	fc_raise(m, &f);
}

static COLD_PATH void raise_seq_out_of_order(struct fc_model *m, const struct packet *pkt,
                                             const struct dl_port *rx, enum link_dir rx_dir)
{
	unsigned seq = pkt->u.tlp.seq;
	unsigned missing = seq_sub(seq, rx->next_rcv_seq);
	struct finding f;
	fc_finding_begin(&f, R_DL_SEQ_OUT_OF_ORDER, pkt, FINDING_NO_VC, FINDING_NO_CREDIT);
	finding_message(m->sink, &f,
	                "seq=0x%03X where port %s expects NEXT_RCV_SEQ=0x%03X: %u TLP%s missing",
	                seq, link_dir_name(rx_dir), rx->next_rcv_seq, missing,
	                missing == 1 ? "" : "s");
	finding_add_evidence(&f, "seq", seq);
	finding_add_evidence(&f, "NEXT_RCV_SEQ", rx->next_rcv_seq);
	fc_raise(m, &f);
}

/* The newest sequence number seen on the way to the receiver. */
static void note_newest_rcv(struct dl_port *rx, unsigned seq)
{
	if (!rx->newest_rcv_known || seq_sub(seq, rx->newest_rcv) - 1u < 2047u) {
		rx->newest_rcv = (uint16_t)seq;
		rx->newest_rcv_known = true;
	}
}

/* A TLP came that the capture did not see arrive intact: until the
 * receiver's next Ack/Nak, what follows is not out of order, and an Ack
 * that covers it is dl.ack.unreceived [rules.md]. */
static void rcv_not_intact(struct dl_port *rx)
{
	rx->rcv_uncertain = true;
	if (rx->rcv_damaged < UINT32_MAX)
		rx->rcv_damaged++;
}

/* The receiver's view: in order, a duplicate, or out of sequence [7]. */
static void tlp_at_receiver(struct fc_model *m, struct fc_link *link, const struct packet *pkt,
                            enum link_dir rx_dir)
{
	struct dl_port *rx = &link->dl[rx_dir];
	unsigned seq = pkt->u.tlp.seq;
	note_newest_rcv(rx, seq);
	if (!rx->rcv_known) {
		rx->rcv_known = true; /* learnt: a mid-stream capture */
		rx->next_rcv_seq = (uint16_t)((seq + 1) & SEQ_MASK);
		return;
	}
	unsigned behind = seq_sub(rx->next_rcv_seq, seq);
	if (behind == 0) {
		rx->next_rcv_seq = (uint16_t)((seq + 1) & SEQ_MASK);
		rx->rcv_uncertain = false;
	} else if (behind <= 2048) {
		raise_seq_duplicate(m, pkt, rx, rx_dir);
	} else if (!rx->rcv_uncertain && !rx->rcv_damaged) {
		raise_seq_out_of_order(m, pkt, rx, rx_dir);
	}
}

static COLD_PATH void raise_replay_order(struct fc_model *m, const struct packet *pkt,
                                         const char *what, unsigned seq, unsigned expected)
{
	struct finding f;
	fc_finding_begin(&f, R_DL_REPLAY_ORDER, pkt, FINDING_NO_VC, FINDING_NO_CREDIT);
	finding_message(m->sink, &f, "seq=0x%03X %s 0x%03X", seq, what, expected);
	finding_add_evidence(&f, "seq", seq);
	finding_add_evidence(&f, "expected", expected);
	fc_raise(m, &f);
}

/* The transmitter's view: a new TLP takes NEXT_TRANSMIT_SEQ; a replay
 * resends every unacknowledged TLP, oldest first, in order [7].  A replay
 * may start before ACKD_SEQ + 1 (the transmitter may not yet have taken an
 * Ack the capture already saw), never after it. */
static void tlp_at_transmitter(struct fc_model *m, struct fc_link *link, const struct packet *pkt,
                               enum link_dir tx_dir)
{
	struct dl_port *tx = &link->dl[tx_dir];
	unsigned seq = pkt->u.tlp.seq;
	if (!link->seq_known[tx_dir])
		return; /* the first TLP seen: fc_tlp.c learns the numbers */
	unsigned next_tx = (link->seq_high[tx_dir] + 1u) & SEQ_MASK;
	unsigned ahead = seq_sub(seq, next_tx);
	if (ahead < 2048) {
		/* a new TLP (ahead > 0: the capture missed some, seen at the
		 * receiver as dl.seq.out-of-order) */
		tx->tlps_new++;
		tx->unreadable_since_new = 0;
		/* The replay left TLPs unsent; some of them still unacknowledged
		 * (ACKD_SEQ before the newest)? */
		if (tx->in_replay && !tx->replay_resync && tx->ackd_known &&
		    seq_sub(link->seq_high[tx_dir], tx->ackd_seq) - 1u < 2047u) {
			unsigned first_skipped = tx->replay_next;
			if (seq_sub(tx->ackd_seq, first_skipped) < 2048)
				first_skipped = (tx->ackd_seq + 1u) & SEQ_MASK;
			raise_replay_order(m, pkt, "is a new TLP while the replay has not resent",
			                   seq, first_skipped);
		}
		tx->in_replay = false;
		tx->replay_resync = false;
		return;
	}
	tx->tlps_replayed++;
	bool resync = tx->replay_resync || !tx->ackd_known;
	tx->replay_resync = false;
	unsigned oldest = (tx->ackd_seq + 1u) & SEQ_MASK;
	if (!resync) {
		bool starts = seq_sub(oldest, seq) < 2048; /* at or before the oldest */
		if (!starts && !(tx->in_replay && seq == tx->replay_next))
			raise_replay_order(
			        m, pkt,
			        tx->in_replay
			                ? "is replayed out of order; expected"
			                : "starts a replay that skips the oldest outstanding TLP,",
			        seq, tx->in_replay ? tx->replay_next : oldest);
	}
	tx->in_replay = true;
	tx->replay_next = (uint16_t)((seq + 1) & SEQ_MASK);
	if (tx->replay_next == next_tx)
		tx->in_replay = false; /* everything outstanding was resent */
}

void dl_damaged_tlp(struct fc_link *link, enum link_dir tx_dir)
{
	struct dl_port *tx = &link->dl[tx_dir];
	struct dl_port *rx = &link->dl[partner_of(tx_dir)];
	/* Unreadable here; maybe not at the receiver. */
	tx->tlps_unreadable++;
	tx->unreadable_since_new++;
	/* it may have been (the start of) a replay: the next readable TLP
	 * resynchronises the replay check */
	tx->replay_resync = true;
	/* until the receiver's next Ack/Nak says what it has, what follows
	 * is not out of order */
	rcv_not_intact(rx);
}

void dl_damaged_dllp(struct fc_link *link, enum link_dir sender)
{
	/* an Ack or Nak may have moved the partner's ACKD_SEQ: its replay
	 * cannot be checked against it until the next readable TLP */
	link->dl[partner_of(sender)].replay_resync = true;
}

void dl_apply_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	const struct tlp *t = &pkt->u.tlp;
	enum link_dir tx_dir = pkt->rec->dir;
	enum link_dir rx_dir = partner_of(tx_dir);

	if (pkt->rec->flags & REC_F_NO_CRC)
		link->tap_no_crc[tx_dir] = true;
	if (!t->has_seq) {
		link->tap_no_seq[tx_dir] = true;
		return;
	}
	tlp_at_transmitter(m, link, pkt, tx_dir);
	if (pkt->rec->flags & REC_F_PHY_ERROR) {
		/* Its LCRC proves its bytes, not that the receiver took it: the
		 * capture did not see it arrive intact [rules.md]. */
		struct dl_port *rx = &link->dl[rx_dir];
		note_newest_rcv(rx, t->seq);
		rcv_not_intact(rx);
		return;
	}
	tlp_at_receiver(m, link, pkt, rx_dir);
}

void dl_after_tlp(struct fc_link *link, enum link_dir tx_dir)
{
	note_high_water(link, tx_dir);
}

/* ---- PM DLLPs ------------------------------------------------------------------ */

void dl_apply_pm(struct fc_model *m, struct fc_link *link, const struct packet *pkt)
{
	(void)link;
	const struct dllp *d = &pkt->u.dllp;
	/* The downstream component (port U) asks to enter L1/L2/3 and ASPM L1;
	 * the upstream component (port D) answers with PM_Request_Ack. */
	enum link_dir must = d->type == DLLP_PM_REQUEST_ACK ? DIR_DOWN : DIR_UP;
	if (pkt->rec->dir == must)
		return;
	struct finding f;
	fc_finding_begin(&f, R_DL_PM_DIRECTION, pkt, FINDING_NO_VC, FINDING_NO_CREDIT);
	finding_message(m->sink, &f, "%s sent by port %s; only port %s (%s) sends it", dllp_name(d),
	                link_dir_name(pkt->rec->dir), link_dir_name(must),
	                must == DIR_UP ? "the downstream component" : "the upstream component");
	fc_raise(m, &f);
}
