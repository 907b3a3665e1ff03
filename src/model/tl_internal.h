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
 * completions not checked), and at most TL_SLOTS_MAX in the model.
 * Nothing is allocated per packet once every requester is seen.  A new
 * epoch ends every request in O(1): entries carry the epoch they were
 * made in.  The pairing's entry points, and tl_rules_packet(), are in
 * fc_internal.h. */
#ifndef DLLPCHECK_TL_INTERNAL_H
#define DLLPCHECK_TL_INTERNAL_H

#include "model/fc_internal.h"

#define TL_TAGS 1024u
#define TL_REQUESTERS_MAX 64u
/* requester slots in the whole model (each TL_TAGS entries): the table
 * never takes more than TL_SLOTS_MAX * TL_TAGS * sizeof(struct tl_request)
 * bytes (about 14 MB), however many links a capture has */
#define TL_SLOTS_MAX 256u
#define TL_NONE UINT32_MAX
#define TL_BLOCK (TL_TAGS / 64u) /* entries a bit of tl_dir.ready stands for */
/* a damage count that stopped counting: no request made after it is
 * certain any more (tl_model.c certain_now) */
#define TL_DAMAGE_GEN_MAX UINT32_MAX

/* entry flags */
#define TL_OUTSTANDING 0x01u
#define TL_CERTAIN 0x02u /* the capture proves what is outstanding (see tl_model.c) */
#define TL_IN_TIMER 0x04u /* in the time-ordered list of the timeout check */
#define TL_ANSWERED 0x08u /* a completion came */
#define TL_OWED_KNOWN 0x10u /* owed is the bytes still owed (MRd, MRdLk) */
#define TL_ENDED 0x20u /* ended by completions in this epoch (a duplicate is unexpected) */
/* which completions answer it is not certain (its tag was taken over from
 * a request that may still be answered, or a PCI-X completer modified
 * its Byte Count): completions of the tag are not judged, even once it
 * has ended */
#define TL_AMBIGUOUS 0x40u

/* One request: by its requester's slot and its tag. */
struct tl_request {
	uint64_t record_no; /* the request's record */
	uint64_t time_ps;
	uint32_t epoch; /* valid when the direction's epoch */
	uint32_t damage_gen; /* the completions' direction's damage count at the request */
	uint32_t own_damage_gen; /* the request's own direction's, then: a damaged TLP
	                          * of its requester's may have reused its tag */
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
	/* the slot found last, tried first: most links have few requesters */
	uint16_t last_requester;
	int8_t last_slot; /* -1: none */
	struct tl_request *tags[TL_REQUESTERS_MAX]; /* TL_TAGS each */
	/* per slot, a bit per block of TL_BLOCK entries: the block was made
	 * (zeroed); the entries of a block not made are stale, as zeroed
	 * entries are (epoch 0), and are not read */
	uint64_t ready[TL_REQUESTERS_MAX];
	uint32_t head, tail; /* the time list of certain outstanding requests */
	/* TLPs this port sent that the capture saw damaged (or with a bad
	 * ECRC): one of them may have been a completion answering any request
	 * of the partner made before */
	uint32_t damage_gen; /* saturates at TL_DAMAGE_GEN_MAX */
	/* a request of this port's may be missing from the table this epoch
	 * (a request with a bad ECRC, whose header cannot be trusted) */
	bool requests_uncertain;
};

struct tl_link {
	struct tl_dir dir[DIR_COUNT];
};

/* ---- the table (tl_table.c) ---- */

/* The link's table, made on first use (NULL when out of memory). */
struct tl_link *tl_link_make(struct fc_model *m, struct fc_link *link);
static inline struct tl_link *tl_link_get(struct fc_model *m, struct fc_link *link)
{
	return link->tl ? link->tl : tl_link_make(m, link);
}
/* The request of requester/tag that direction d sent in this epoch,
 * outstanding or not (NULL when there is none or the requester is not
 * tracked). */
struct tl_request *tl_find_slot(struct tl_dir *d, uint16_t requester, uint16_t tag);
/* Whether the block of slot s that holds tag was made. */
static inline bool tl_ready(const struct tl_dir *d, unsigned s, uint16_t tag)
{
	return d->ready[s] >> ((tag & (TL_TAGS - 1)) / TL_BLOCK) & 1u;
}
/* (inline: the requester of the last lookup is tried first) */
static inline struct tl_request *tl_find(struct tl_dir *d, uint16_t requester, uint16_t tag)
{
	if (d->last_slot >= 0 && d->last_requester == requester) {
		if (!tl_ready(d, (unsigned)d->last_slot, tag))
			return NULL;
		struct tl_request *r = &d->tags[d->last_slot][tag & (TL_TAGS - 1)];
		return r->epoch == d->epoch ? r : NULL;
	}
	return tl_find_slot(d, requester, tag);
}
/* The same, made when the requester is new (NULL when the table is full:
 * d->overflow). */
/* ... *index: its time-list index. */
struct tl_request *tl_make_slot(struct fc_model *m, struct tl_dir *d, uint16_t requester,
                                uint16_t tag, uint32_t *index);
static inline struct tl_request *tl_make(struct fc_model *m, struct tl_dir *d, uint16_t requester,
                                         uint16_t tag, uint32_t *index)
{
	if (d->last_slot >= 0 && d->last_requester == requester &&
	    tl_ready(d, (unsigned)d->last_slot, tag)) {
		struct tl_request *r = &d->tags[d->last_slot][tag & (TL_TAGS - 1)];
		if (r->epoch == d->epoch) {
			*index = (uint32_t)d->last_slot * TL_TAGS + (tag & (TL_TAGS - 1));
			return r;
		}
	}
	return tl_make_slot(m, d, requester, tag, index);
}
/* Whether the requester has a slot. */
bool tl_tracked(const struct tl_dir *d, uint16_t requester);
/* The entry of a time-list index, its requester and tag. */
static inline struct tl_request *tl_at(struct tl_dir *d, uint32_t index)
{
	return &d->tags[index / TL_TAGS][index % TL_TAGS];
}
static inline const struct tl_request *tl_at_const(const struct tl_dir *d, uint32_t index)
{
	return &d->tags[index / TL_TAGS][index % TL_TAGS];
}
static inline uint16_t tl_requester_of(const struct tl_dir *d, uint32_t index)
{
	return d->requester[index / TL_TAGS];
}
/* The time list: append at the tail, take out anywhere. */
void tl_timer_append(struct tl_dir *d, struct tl_request *r, uint32_t index);
void tl_timer_remove(struct tl_dir *d, struct tl_request *r);
/* A new epoch: every entry becomes stale at once. */
void tl_dir_new_epoch(struct tl_dir *d);

#endif
