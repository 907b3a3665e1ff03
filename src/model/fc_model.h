/* fc_model.h: the shadow model of both link partners' flow-control state.
 *
 * Per link, per transmitting port (down = port D, up = port U), per VC 0-7,
 * per credit type (PH PD NPH NPD CplH CplD): the credit limit the partner
 * advertised, the credits consumed, infinite flags, scale and counter
 * width, and each port's FC_INIT1/FC_INIT2 progress in the current
 * initialisation epoch.  Semantics: shared/docs/rules.md ("How the model
 * reads a trace"), spec-digest.md sections 5 and 6.
 *
 * Packets are applied in capture order; every violation is raised into the
 * finding sink with the counter values that prove it.  O(1) work and no
 * allocation per packet; memory grows only with the number of links seen.
 */
#ifndef DLLPCHECK_FC_MODEL_H
#define DLLPCHECK_FC_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/bitset.h"
#include "core/rules.h"
#include "decode/packet.h"

#define FC_VC_COUNT 8
#define FC_LINK_COUNT 256

enum port_role {
	ROLE_UNKNOWN = 0,
	ROLE_ROOT_PORT, /* Root Port of an RC without peer-to-peer */
	ROLE_ROOT_PORT_P2P, /* Root Port of an RC with peer-to-peer */
	ROLE_SWITCH, /* a switch port */
	ROLE_ENDPOINT,
};

/* Credits the user says a port advertised at initialisation, for captures
 * that start after it (--initial-credits). */
struct initial_credit {
	bool given;
	bool infinite;
	uint32_t credits;
};

struct fc_options {
	uint8_t tc_to_vc[8]; /* default all 0 */
	enum port_role role[DIR_COUNT]; /* of port D and port U */
	uint32_t mps; /* Rx_MPS_Limit in bytes; 0 = unknown */
	uint32_t mrrs; /* Max_Read_Request_Size in bytes; 0 = unknown */
	uint64_t cpl_timeout_ps; /* tlp.cpl.timeout limit */
	/* tlp.tag.in-use: a tag reused later than this after its request may
	 * follow a completion timeout at the requester (--cpl-timeout when
	 * given, else the shortest timeout PCIe allows, 50 us) */
	uint64_t tag_reuse_window_ps;
	uint64_t update_period_ps; /* fc.update.period limit */
	uint64_t init_repeat_ps; /* fc.init.repeat-interval limit */
	uint64_t starve_ps; /* fc.credit.starved threshold */
	/* [advertising port][vc][credit type] */
	struct initial_credit initial[DIR_COUNT][FC_VC_COUNT][CT_COUNT];
};

enum vc_state {
	VC_UNKNOWN = 0, /* no epoch start seen: the capture began mid-stream */
	VC_IDLE, /* link epoch seen, this VC never started init */
	VC_INIT, /* in an epoch whose start was seen */
	VC_GIVEN, /* as VC_INIT, from --initial-credits */
};

/* Intervals between events, for --stats: count, min, max, and a
 * histogram with 8 buckets per octave of picoseconds, from which the median
 * is read to within 1/16 of its value.  Fixed size, whatever the count. */
#define FC_HIST_BUCKETS 336
struct fc_intervals {
	uint64_t events;
	bool last_seen;
	bool lost; /* no memory for the histogram: fc_model_failed() */
	uint64_t last_ps;
	uint64_t count, min_ps, max_ps;
	/* FC_HIST_BUCKETS counts, allocated by the first interval (a link
	 * holds 52 of these, 1.3 KB each inline: 70 of its 92 KB, set up for
	 * each input and most never used); freed by fc_link_stats_free() */
	uint32_t *bucket;
};

/* One credit type of one transmitter on one VC. */
struct fc_credit {
	uint32_t limit; /* CREDIT_LIMIT, credits mod 2^width */
	uint32_t consumed; /* CREDITS_CONSUMED, credits mod 2^width */
	uint32_t init_max; /* largest initial advertisement in the epoch */
	uint8_t width; /* counter width N */
	uint8_t scale; /* scale field at init (0..3) */
	bool limit_known;
	bool consumed_known;
	bool infinite;
	bool infinite_known; /* the init advertisement was seen (or given) */
	bool limit_from_init1; /* an InitFC1 set the limit in this epoch */
	bool overran; /* the gate failed in this epoch: CC may be past CL */
	bool limit_uncertain; /* a damaged DLLP from the advertiser may have
	                          * raised the limit: until an intact InitFC or
	                          * UpdateFC of the type settles it, the true CL
	                          * may be above ours [rules.md "What the capture
	                          * saw damaged"] */
	bool scale_known; /* the scale in force was seen on the wire (not
	                          * so for credits given by --initial-credits
	                          * until the first InitFC/UpdateFC of the type) */
	/* statistics, kept across epochs */
	bool advertised_seen;
	bool advertised_infinite;
	uint32_t advertised; /* last initial advertisement, credits */
	bool min_available_seen;
	uint32_t min_available;
	uint64_t tlps_charged;
	uint64_t credits_charged;
	/* starvation [issue: credit-starvation view]: the last charge, and
	 * the steps by which an UpdateFC raised the available credits since */
	bool charge_seen;
	uint64_t charge_ps;
	uint32_t available_after_charge;
	uint8_t rise_count;
	uint64_t rise_ps[4];
	uint32_t rise_available[4];
	uint64_t longest_wait_ps;
	/* time at zero available credits */
	bool at_zero;
	uint64_t zero_since_ps;
	uint64_t time_at_zero_ps;
};

/* What a port advertised in an InitFC DLLP. */
struct fc_adv {
	bool seen;
	uint8_t hdr_fc;
	uint16_t data_fc;
	uint8_t hdr_scale, data_scale;
};

/* One port's init progress on one VC, and its transmitter's credits. */
struct fc_port_vc {
	bool fi1; /* partner sent InitFC1/2 for P, NP and Cpl */
	bool complete; /* FI1 and then an InitFC2/UpdateFC/TLP from the partner */
	uint8_t got_init_mask; /* classes the partner advertised, bit per fc_class */
	bool sent_init2; /* this port sent InitFC2: it left FC_INIT1 */
	bool sent_init1; /* this port sent InitFC1 in this epoch */
	/* DLLPs from the partner the capture saw damaged in this epoch: each
	 * may have been the InitFC of one class this port lacks (so FI1 may
	 * have been reached when they are as many as the classes missing) */
	uint8_t maybe_init_count;
	/* ... or the InitFC2/UpdateFC/TLP that completed this port */
	bool maybe_complete;
	int8_t last_init_class[2]; /* per phase (InitFC1, InitFC2), -1 none */
	struct fc_adv first_adv[2][FC_CLASS_COUNT]; /* this port's own, per phase and class */
	struct fc_credit credit[CT_COUNT]; /* this port's transmitter */
	/* timing of this port's own flow-control DLLPs [5.8, 6.2] */
	bool update_seen[FC_CLASS_COUNT];
	uint64_t last_update_ps[FC_CLASS_COUNT];
	bool init_set_seen[2];
	uint64_t init_set_start_ps[2];
	struct fc_intervals updates[FC_CLASS_COUNT]; /* this port's UpdateFCs */
};

struct fc_vc {
	enum vc_state state;
	/* The epoch was joined, not seen: it was inferred from the first
	 * InitFC1 on an unknown VC, so the partner's earlier InitFCs may
	 * predate the capture [rules.md "Seen and joined epochs"]. */
	bool joined;
	uint64_t joined_record; /* record number of that InitFC1 */
	uint64_t epochs_joined; /* for the report */
	/* VC_IDLE, and a damaged DLLP may have been this VC's InitFC1 */
	bool idle_uncertain;
	/* the capture saw this VC initialised (or in use) in an earlier epoch
	 * of the link: a TLP on it before it re-initialises is
	 * fc.init.tlp-before-init, not fc.credit.vc-not-enabled [rules.md] */
	bool initialised_before;
	struct fc_port_vc port[DIR_COUNT];
	/* for the report: what could not be checked */
	uint64_t tlps_while_unknown;
	uint64_t fc_dllps_while_unknown;
};

/* One port's data link layer retry state as the capture sees it [7]. */
struct dl_port {
	/* as a transmitter: its NEXT_TRANSMIT_SEQ is the link's seq_high + 1 */
	bool ackd_known;
	uint16_t ackd_seq; /* ACKD_SEQ */
	uint32_t unreadable_since_new; /* TLPs the capture could not read since
	                                * the newest: their numbers are unknown */
	bool in_replay;
	bool replay_resync; /* a replayed TLP was unreadable, or a
	                                * damaged DLLP may have been an Ack/Nak */
	uint16_t replay_next;
	/* as a receiver */
	bool rcv_known;
	bool rcv_uncertain; /* an unreadable TLP came in, or a Nak
	                                * was sent: what arrives next may be
	                                * discarded or may be in order */
	uint32_t rcv_damaged; /* TLPs the capture saw damaged since
	                                * this receiver's last Ack/Nak */
	uint16_t next_rcv_seq; /* NEXT_RCV_SEQ */
	bool newest_rcv_known;
	uint16_t newest_rcv;
	/* statistics */
	uint64_t tlps_new, tlps_replayed, tlps_nullified, tlps_unreadable;
	uint64_t naks_received, acks_received;
	uint32_t outstanding_high_water;
	uint64_t tlps_by_kind[TLP_KIND_COUNT]; /* new TLPs sent */
};

/* The transaction layer of one direction of a link, as the requests of
 * its transmitter fared (--stats; rules.md "The transaction layer").
 * Fixed size. */
struct tl_stats {
	uint64_t requests[TLP_KIND_COUNT]; /* new non-posted requests sent, by kind */
	uint64_t completed; /* requests their completions ended */
	uint64_t ended_by_epoch; /* requests a new epoch ended unanswered */
	uint64_t timed_out; /* requests tlp.cpl.timeout reported */
	uint32_t outstanding; /* requests outstanding now (at the end: still) */
	uint32_t outstanding_high_water; /* the most outstanding at once */
	/* from the request to its first and to its last completion */
	struct fc_intervals latency_first, latency_last;
	uint64_t completions; /* new completions answering this direction's requests */
	uint64_t completions_unmatched; /* ... that matched no outstanding request */
	uint64_t cpl_status[8]; /* ... by Completion Status */
	/* requests of requesters that could not be tracked (the table was
	 * full): their completions are not checked */
	uint64_t requesters_untracked;
	/* requests and completions seen while the transaction state was
	 * unknown (a capture begun mid-stream, a joined epoch, TLPs without
	 * sequence numbers): the pairing rules did not judge them */
	uint64_t while_unknown;
};

struct tl_link; /* the outstanding requests (model/tl_model.c) */

struct fc_link {
	bool active; /* any record seen */
	bool epoch_seen; /* a link-wide epoch start was seen */
	bool epoch_by_event; /* ... and it came from a link event */
	bool port_reset_pending; /* a port-reset, and no re-initialisation yet */
	bool has_time;
	uint64_t last_time_ps;
	/* Data Link Feature exchange [1.6] */
	bool dlf_seen[DIR_COUNT];
	bool dlf_scaled[DIR_COUNT];
	/* transmit sequence numbers as seen on the wire, for charging */
	/* A TLP is charged on the first appearance of its sequence number
	 * with a good LCRC [rules.md]: seq_seen marks the numbers seen in the
	 * 2048 behind seq_high, the newest; the 2048 ahead are kept clear. */
	bool seq_known[DIR_COUNT];
	uint16_t seq_high[DIR_COUNT];
	uint8_t seq_seen[DIR_COUNT][4096 / 8];
	uint64_t tlps_not_charged[DIR_COUNT]; /* replays, duplicates */
	/* Consumed may lag the transmitter's own count [rules.md "What the
	 * capture saw damaged"]: sequence numbers skipped and never seen
	 * intact (holes), TLPs seen damaged that may have been new ones, and a
	 * damaged TLP without a sequence number (never resolved). */
	uint32_t cc_holes[DIR_COUNT];
	uint32_t cc_damaged[DIR_COUNT];
	bool cc_lag_for_epoch[DIR_COUNT];
	/* a TLP without a sequence number (NO_SEQ) came from this port: the
	 * sequence and Ack rules are off for it [rules.md] */
	bool tap_no_seq[DIR_COUNT];
	/* ... or without their LCRC (REC_F_NO_CRC: a NetTLP capture's bare
	 * TLPs): the LCRC could not be checked */
	bool tap_no_crc[DIR_COUNT];
	/* a damaged DLLP from this port may have been a Data Link Feature */
	bool dlf_uncertain[DIR_COUNT];
	/* power management: not active from an L1/L2/3 entry until the next
	 * TLP or DLLP of another kind [rules.md fc.update.period] */
	bool pm_inactive;
	/* a link-down or hot-reset event, and no record since but events:
	 * the link state the pictures show (model/fc_probe.h) */
	bool down;
	/* records the capture saw damaged on this link, for the report */
	uint64_t damaged_dllps[DIR_COUNT], damaged_tlps[DIR_COUNT];
	/* the link's last record, for the checks at the end of the capture */
	bool last_rec_seen;
	struct record last_rec; /* bytes not kept */
	struct dl_port dl[DIR_COUNT];
	struct fc_vc vc[FC_VC_COUNT];
	/* the transaction layer: made at the link's first non-posted
	 * request or completion (NULL before, and when out of memory) */
	struct tl_link *tl;
	bool tl_known; /* transaction state known: a seen epoch start */
	/* the earliest time past which a request may have timed out
	 * (UINT64_MAX: none), so that most records cost one comparison */
	uint64_t tl_deadline_ps;
	struct tl_stats tl_stats[DIR_COUNT]; /* by the requests' direction */
};

struct fc_model {
	const struct fc_options *opts;
	struct finding_sink *sink;
	struct fc_link *links[FC_LINK_COUNT];
	/* the links made, a bit each: the walks over the links visit these
	 * (a capture uses one or a few of the 256), fc_model_next_link() */
	uint64_t made[BITSET_WORDS(FC_LINK_COUNT)];
	bool out_of_memory; /* a link could not be made */
	unsigned tl_slots; /* requester slots of the transaction tables */
};

/* The first link made at or after index from, FC_LINK_COUNT when none,
 * for a walk over the links in index order:
 *   for (i = fc_model_next_link(m, 0); i < FC_LINK_COUNT;
 *        i = fc_model_next_link(m, i + 1)) */
static inline unsigned fc_model_next_link(const struct fc_model *m, unsigned from)
{
	return bitset_next(m->made, BITSET_WORDS(FC_LINK_COUNT), from);
}

/* Credit type of the header / data credits of a class. */
static inline enum credit_type ct_hdr(enum fc_class cls)
{
	return (enum credit_type)(2 * (int)cls);
}
static inline enum credit_type ct_data(enum fc_class cls)
{
	return (enum credit_type)(2 * (int)cls + 1);
}
static inline bool ct_is_data(enum credit_type ct)
{
	return (ct & 1) != 0;
}

/* Time limits [5.8, 6.2]: UpdateFC at least every 30 us +50% (120 us +50%
 * with Extended Synch), InitFC sets every 34 us (17 us in PCIe 1.0a). */
#define FC_UPDATE_PERIOD_PS UINT64_C(45000000)
#define FC_UPDATE_PERIOD_EXTENDED_PS UINT64_C(180000000)
#define FC_INIT_REPEAT_PS UINT64_C(34000000)
#define FC_INIT_REPEAT_10A_PS UINT64_C(17000000)
#define FC_STARVE_PS UINT64_C(100000000)
/* --cpl-timeout default: 50 ms, the top of the range PCIe allows a
 * function without a programmed value [S62-2 2.8]. */
#define TL_CPL_TIMEOUT_PS UINT64_C(50000000000)
/* The shortest completion timeout a function may have: 50 us [S62-2 2.8]. */
#define TL_CPL_TIMEOUT_MIN_PS UINT64_C(50000000)

/* A role's name as options and reports spell it ("root-port", ...). */
const char *port_role_name(enum port_role role);

/* The defaults: no roles, no MPS, every TC on VC0, the spec's limits. */
void fc_options_init(struct fc_options *opts);

void fc_model_init(struct fc_model *m, const struct fc_options *opts, struct finding_sink *sink);
void fc_model_free(struct fc_model *m);

/* Applies one decoded packet.  fit is what rules_packet_check() said: a
 * packet that is not fit (bad CRC, truncated, ...) is applied only as far
 * as it can be trusted (a malformed TLP with a good LCRC still uses its
 * sequence number). */
void fc_model_apply(struct fc_model *m, const struct packet *pkt, bool fit);

/* The median of the intervals (approximate: the middle of its histogram
 * bucket); false when there is none. */
bool fc_intervals_median(const struct fc_intervals *iv, uint64_t *median_ps);
/* Time at zero available credits up to now_ps (the open interval too). */
uint64_t fc_credit_time_at_zero(const struct fc_credit *c, uint64_t now_ps);

/* True when the model could not keep up (out of memory for a link or a
 * statistic's histogram): the
 * analysis of the input is incomplete, an input error. */
bool fc_model_stats_lost(const struct fc_model *m);
static inline bool fc_model_failed(const struct fc_model *m)
{
	return m->out_of_memory || fc_model_stats_lost(m);
}

/* The end of the capture: the checks that need it (an UpdateFC gap still
 * open at a link's last record). */
void fc_model_finish(struct fc_model *m);

/* A record the capture saw damaged whose content cannot be trusted: a
 * record that could not be decoded at all (capture.malformed).  link and
 * dir are -1 when unknown (then every link / both directions), kind 0 when
 * unknown (then DLLP and TLP).  packets: how many such records it stands
 * for; FC_DAMAGED_MANY for a stretch the reader lost step in, which may
 * have held any number (enough to leave every fact uncertain that they
 * may have changed: each damaged DLLP may have been one InitFC of the six
 * classes, each damaged TLP one credit charge; fc_damage.c). */
#define FC_DAMAGED_MANY 16u
void fc_model_damaged(struct fc_model *m, int link, int dir, int kind, unsigned packets);

/* The scaled flow control state of a link: known, and if so, active. */
bool fc_link_scaling_known(const struct fc_link *link, bool *active);

#endif
