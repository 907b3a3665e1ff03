/* tl_internal.h: the transaction layer of the shadow model (tl_table.c,
 * tl_model.c, tl_rules.c): the outstanding non-posted requests of each
 * link and direction, keyed by Requester ID and 10-bit Tag.  Not for use
 * outside the model.
 * Semantics: rules.md "The transaction layer (requests and completions)".
 *
 * Memory: a link's table is made at its first request or completion; a
 * requester's 1024 tags at its first request, for at most
 * TL_REQUESTERS_MAX requesters per direction (a hostile capture cannot
 * grow it further: the requests of more requesters are counted, their
 * completions not checked).  Nothing is allocated per packet once every
 * requester is seen.  A new epoch ends every request in O(1): entries
 * carry the epoch they were made in. */
#ifndef DLLPCHECK_TL_INTERNAL_H
#define DLLPCHECK_TL_INTERNAL_H

#include "model/fc_internal.h"

#define TL_TAGS 1024u
#define TL_REQUESTERS_MAX 64u
#define TL_NONE UINT32_MAX

/* entry flags */
#define TL_OUTSTANDING 0x01u
#define TL_CERTAIN 0x02u /* the capture proves what is outstanding (see tl_model.c) */
#define TL_IN_TIMER 0x04u /* in the time-ordered list of the timeout check */
#define TL_ANSWERED 0x08u /* a completion came */
#define TL_OWED_KNOWN 0x10u /* owed is the bytes still owed (MRd, MRdLk) */
#define TL_ENDED 0x20u /* ended by completions in this epoch (a duplicate is unexpected) */

/* One request: by its requester's slot and its tag. */
struct tl_request {
	uint64_t record_no; /* the request's record */
	uint64_t time_ps;
	uint64_t first_cpl_ps;
	uint32_t epoch; /* valid when the direction's epoch */
	uint32_t damage_gen; /* the completions' direction's damage count at the request */
	uint32_t owed; /* MRd, MRdLk: bytes still owed */
	uint32_t prev, next; /* the time list, as indexes slot * TL_TAGS + tag */
	uint8_t kind; /* enum tlp_kind */
	uint8_t tc;
	uint8_t flags;
};

/* The requests one port sent. */
struct tl_dir {
	uint32_t epoch;
	uint8_t slots; /* requesters tracked */
	bool overflow; /* a requester could not be tracked */
	uint16_t requester[TL_REQUESTERS_MAX]; /* of each slot */
	/* requester ID -> slot + 1 (0: none), open addressing */
	uint8_t index[2 * TL_REQUESTERS_MAX];
	struct tl_request *tags[TL_REQUESTERS_MAX]; /* TL_TAGS each */
	uint32_t head, tail; /* the time list of certain outstanding requests */
	/* TLPs this port sent that the capture saw damaged (or with a bad
	 * ECRC): one of them may have been a completion answering any request
	 * of the partner made before */
	uint32_t damage_gen;
	/* a request of this port's may be missing from the table this epoch
	 * (a request with a bad ECRC, whose header cannot be trusted) */
	bool requests_uncertain;
};

struct tl_link {
	struct tl_dir dir[DIR_COUNT];
};

/* ---- the table (tl_table.c) ---- */

/* The link's table, made on first use (NULL when out of memory). */
struct tl_link *tl_link_get(struct fc_model *m, struct fc_link *link);
/* The request of requester/tag that direction d sent in this epoch,
 * outstanding or not (NULL when there is none or the requester is not
 * tracked). */
struct tl_request *tl_find(struct tl_dir *d, uint16_t requester, uint16_t tag);
/* The same, made when the requester is new (NULL when the table is full:
 * d->overflow). */
struct tl_request *tl_make(struct tl_dir *d, uint16_t requester, uint16_t tag);
/* Whether the requester has a slot. */
bool tl_tracked(const struct tl_dir *d, uint16_t requester);
/* The entry of a time-list index, its requester and tag. */
struct tl_request *tl_at(struct tl_dir *d, uint32_t index);
uint16_t tl_requester_of(const struct tl_dir *d, uint32_t index);
uint32_t tl_index_of(const struct tl_dir *d, uint16_t requester, uint16_t tag);
/* The time list: append at the tail, take out anywhere. */
void tl_timer_append(struct tl_dir *d, struct tl_request *r, uint32_t index);
void tl_timer_remove(struct tl_dir *d, struct tl_request *r);
/* A new epoch: every entry becomes stale at once. */
void tl_dir_new_epoch(struct tl_dir *d);

/* ---- pairing and its rules (tl_model.c) ---- */

/* A new, fit, non-posted request or completion from pkt->rec->dir;
 * may_repeat: the TLP may be a later copy of one the receiver already had
 * (dl_tlp_may_repeat). */
void tl_apply(struct fc_model *m, struct fc_link *link, const struct packet *pkt, bool may_repeat);

/* A TLP whose header cannot be trusted (a bad ECRC): a completion counts
 * as damaged, a request leaves the table uncertain for the epoch. */
void tl_untrusted_tlp(struct fc_model *m, struct fc_link *link, const struct packet *pkt);

/* ---- the rules one TLP proves (tl_rules.c) ---- */

/* The per-packet rules of a new, fit TLP; false when its header cannot be
 * trusted for pairing (a bad ECRC). */
bool tl_rules_packet(struct fc_model *m, const struct packet *pkt);

#endif
