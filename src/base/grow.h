/* grow.h: a buffer that grows with what an input uses, up to a bound:
 * the readers allocate what a small input needs, not what the largest
 * could (a window, a line, a segment, a table of interfaces). */
#ifndef DLLPCHECK_GROW_H
#define DLLPCHECK_GROW_H

#include <stddef.h>
#include <stdlib.h>

/* buf (of *cap elements of elem bytes; NULL with *cap 0 at first) made
 * to hold need elements (need <= most): the capacity doubles from first,
 * and never passes most.  Returns the buffer, or NULL when out of memory
 * (buf and *cap are then as they were). */
static inline void *grow_to(void *buf, size_t *cap, size_t need, size_t elem, size_t first,
                            size_t most)
{
	if (buf && need <= *cap)
		return buf;
	size_t n = *cap ? *cap : first;
	while (n < need)
		n *= 2;
	if (n > most)
		n = most;
	void *p = realloc(buf, n * elem);
	if (p)
		*cap = n;
	return p;
}

#endif
