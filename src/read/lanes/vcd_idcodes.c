/* vcd_idcodes.c: the table of watched identifier codes (vcd_watch), and
 * the look-up of the code of every value change in it.
 * specification: IEEE 1364-2005 clause 18.2 (identifier codes);
 * capture-format.md section 4 "Input" (only mapped signals kept); the
 * interface is vcd_parse.h, the shared internals vcd_internal.h.
 *
 * Only watched identifier codes are looked up: a 256-bit map of their
 * first characters turns away most others before any hashing, and
 * nothing is allocated per change.  Variables sharing an identifier code
 * are one signal: a code has a list of the slots it is delivered to, in
 * watch order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "read/lanes/vcd_internal.h"

static uint32_t hash_id(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static struct watch *watch_find(const struct vcd_parser *p, const char *s, size_t n, uint32_t h)
{
	size_t mask = p->wt_cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct watch *w = &p->wt[i];
		if (w->id == (size_t)-1)
			return NULL;
		if (w->hash == h && w->id_len == n && memcmp(p->arena + w->id, s, n) == 0)
			return w;
	}
}

static bool watch_grow(struct vcd_parser *p)
{
	size_t cap = p->wt_cap ? p->wt_cap * 2 : 64;
	struct watch *wt = malloc(cap * sizeof(*wt));
	if (!wt)
		return false;
	for (size_t i = 0; i < cap; i++)
		wt[i].id = (size_t)-1;
	for (size_t i = 0; i < p->wt_cap; i++) {
		if (p->wt[i].id == (size_t)-1)
			continue;
		size_t j = p->wt[i].hash & (cap - 1);
		while (wt[j].id != (size_t)-1)
			j = (j + 1) & (cap - 1);
		wt[j] = p->wt[i];
	}
	free(p->wt);
	p->wt = wt;
	p->wt_cap = cap;
	return true;
}

bool vcd_watch(struct vcd_parser *p, size_t index, unsigned slot)
{
	if (index >= p->nvars || slot >= VCD_SLOT_MAX || p->vars[index].width > 64)
		return false;
	const struct var_off *o = &p->offs[index];
	const char *id = p->arena + o->id;
	uint32_t h = hash_id(id, o->id_len);
	if ((p->wt_n + 1) * 2 > p->wt_cap && !watch_grow(p))
		return false;
	struct watch *w = watch_find(p, id, o->id_len, h);
	if (!w) {
		size_t i = h & (p->wt_cap - 1);
		while (p->wt[i].id != (size_t)-1)
			i = (i + 1) & (p->wt_cap - 1);
		w = &p->wt[i];
		w->id = o->id;
		w->id_len = o->id_len;
		w->hash = h;
		w->width = p->vars[index].width;
		w->first = -1;
		p->wt_n++;
		unsigned char c0 = (unsigned char)id[0];
		p->first_bits[c0 >> 6] |= 1ull << (c0 & 63);
	}
	for (int s = w->first; s >= 0; s = p->slots[s].next)
		if (p->slots[s].slot == slot)
			return true;
	if (p->nslots == p->slots_cap) {
		size_t cap = p->slots_cap ? p->slots_cap * 2 : 64;
		struct wslot *ns = realloc(p->slots, cap * sizeof(*ns));
		if (!ns)
			return false;
		p->slots = ns;
		p->slots_cap = cap;
	}
	/* appended at the end of the list: slots come out in watch order */
	int at = (int)p->nslots++;
	p->slots[at].slot = slot;
	p->slots[at].next = -1;
	if (w->first < 0) {
		w->first = at;
	} else {
		int s = w->first;
		while (p->slots[s].next >= 0)
			s = p->slots[s].next;
		p->slots[s].next = at;
	}
	return true;
}

struct watch *vcd_watched(const struct vcd_parser *p, const char *s, size_t n)
{
	unsigned char c0 = (unsigned char)s[0];
	if (n == 0 || !(p->first_bits[c0 >> 6] & (1ull << (c0 & 63))))
		return NULL;
	return watch_find(p, s, n, hash_id(s, n));
}
