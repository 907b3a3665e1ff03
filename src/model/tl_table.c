/* tl_table.c: the outstanding requests of a link, per direction, keyed by
 * Requester ID and 10-bit Tag (rules.md "The transaction layer"): a slot
 * per requester seen (at most TL_REQUESTERS_MAX, found through a small
 * open-addressing index), TL_TAGS entries per slot, and a list of the
 * certain outstanding requests in the order they were made, for the
 * timeout check.  A data structure, no rule: tl_model.c pairs. */
#include <stdlib.h>
#include <string.h>

#include "model/tl_internal.h"

#define INDEX_SIZE (2u * TL_REQUESTERS_MAX)

struct tl_link *tl_link_make(struct fc_model *m, struct fc_link *link)
{
	struct tl_link *tl = calloc(1, sizeof(*tl));
	if (!tl) {
		m->out_of_memory = true;
		return NULL;
	}
	for (unsigned p = 0; p < DIR_COUNT; p++) {
		tl->dir[p].head = tl->dir[p].tail = TL_NONE;
		tl->dir[p].epoch = 1; /* calloc'd entries (epoch 0) are stale */
		tl->dir[p].last_slot = -1;
	}
	link->tl = tl;
	return tl;
}

static unsigned index_start(uint16_t requester)
{
	return (unsigned)(requester * 40503u >> 8) % INDEX_SIZE;
}

/* The slot of a requester, or -1; *free_at: where it would go. */
static int slot_probe(const struct tl_dir *d, uint16_t requester, unsigned *free_at)
{
	unsigned i = index_start(requester);
	for (unsigned n = 0; n < INDEX_SIZE; n++, i = (i + 1) % INDEX_SIZE) {
		unsigned s = d->index[i];
		if (s == 0) {
			if (free_at)
				*free_at = i;
			return -1;
		}
		if (d->requester[s - 1] == requester)
			return (int)s - 1;
	}
	return -1; /* never: the index is at most half full */
}

static void slot_remember(struct tl_dir *d, uint16_t requester, int s)
{
	d->last_requester = requester;
	d->last_slot = (int8_t)s;
}

bool tl_tracked(const struct tl_dir *d, uint16_t requester)
{
	return slot_probe(d, requester, NULL) >= 0;
}

static struct tl_request *valid(struct tl_dir *d, struct tl_request *r)
{
	return r->epoch == d->epoch ? r : NULL;
}

struct tl_request *tl_find_slot(struct tl_dir *d, uint16_t requester, uint16_t tag)
{
	int s = slot_probe(d, requester, NULL);
	if (s < 0)
		return NULL;
	slot_remember(d, requester, s);
	if (!tl_ready(d, (unsigned)s, tag))
		return NULL;
	return valid(d, &d->tags[s][tag & (TL_TAGS - 1)]);
}

struct tl_request *tl_make_slot(struct fc_model *m, struct tl_dir *d, uint16_t requester,
                                uint16_t tag, uint32_t *index)
{
	unsigned free_at = 0;
	int s = slot_probe(d, requester, &free_at);
	if (s < 0) {
		if (d->slots >= TL_REQUESTERS_MAX || m->tl_slots >= TL_SLOTS_MAX) {
			d->overflow = true;
			return NULL;
		}
		/* its blocks zeroed as they are used (most requesters use a
		 * few tags: a slot is some 48 KiB) */
		struct tl_request *tags = malloc(TL_TAGS * sizeof(*tags));
		if (!tags) {
			d->overflow = true;
			return NULL;
		}
		m->tl_slots++;
		s = d->slots++;
		d->requester[s] = requester;
		d->tags[s] = tags;
		d->index[free_at] = (uint8_t)(s + 1);
	}
	slot_remember(d, requester, s);
	*index = (uint32_t)s * TL_TAGS + (tag & (TL_TAGS - 1));
	if (!tl_ready(d, (unsigned)s, tag)) {
		unsigned block = (tag & (TL_TAGS - 1)) / TL_BLOCK;
		memset(&d->tags[s][block * TL_BLOCK], 0, TL_BLOCK * sizeof(d->tags[s][0]));
		d->ready[s] |= UINT64_C(1) << block;
	}
	struct tl_request *r = &d->tags[s][tag & (TL_TAGS - 1)];
	if (r->epoch != d->epoch) {
		memset(r, 0, sizeof(*r));
		r->epoch = d->epoch;
		r->prev = r->next = TL_NONE;
	}
	return r;
}

void tl_timer_append(struct tl_dir *d, struct tl_request *r, uint32_t index)
{
	r->prev = d->tail;
	r->next = TL_NONE;
	if (d->tail != TL_NONE)
		tl_at(d, d->tail)->next = index;
	else
		d->head = index;
	d->tail = index;
	r->flags |= TL_IN_TIMER;
}

void tl_timer_remove(struct tl_dir *d, struct tl_request *r)
{
	if (!(r->flags & TL_IN_TIMER))
		return;
	if (r->prev != TL_NONE)
		tl_at(d, r->prev)->next = r->next;
	else
		d->head = r->next;
	if (r->next != TL_NONE)
		tl_at(d, r->next)->prev = r->prev;
	else
		d->tail = r->prev;
	r->prev = r->next = TL_NONE;
	r->flags &= (uint8_t)~TL_IN_TIMER;
}

void tl_dir_new_epoch(struct tl_dir *d)
{
	/* after 2^32 epochs the oldest entries would look current again */
	if (++d->epoch == 0) {
		/* every entry zeroed: no block made */
		memset(d->ready, 0, sizeof(d->ready));
		d->epoch = 1;
	}
	d->head = d->tail = TL_NONE;
	d->requests_uncertain = false;
}

void tl_link_free(struct fc_link *link)
{
	struct tl_link *tl = link->tl;
	if (!tl)
		return;
	for (unsigned p = 0; p < DIR_COUNT; p++)
		for (unsigned s = 0; s < tl->dir[p].slots; s++)
			free(tl->dir[p].tags[s]);
	free(tl);
	link->tl = NULL;
}
