/* warp_pipe_stub.c: a stand-in for h-warp's warp_pipe.c (issue 17) until
 * that branch is merged, so that net_decoder links and its tests run:
 * every segment's payload is counted skipped and no record is made.
 * Delete this file (and its Makefile.am line) when warp_pipe.c arrives. */
#include <stdlib.h>

#include "read/net/warp_pipe.h"

struct warp_pipe {
	uint64_t skipped;
};

struct warp_pipe *warp_pipe_new(const struct warp_pipe_opts *o, const char *name)
{
	(void)o;
	(void)name;
	return calloc(1, sizeof(struct warp_pipe));
}

void warp_pipe_segment(struct warp_pipe *wp, const struct net_packet *np,
                       const struct link_packet *pkt)
{
	(void)pkt;
	wp->skipped += np->payload_len;
}

enum reader_result warp_pipe_next(struct warp_pipe *wp, struct record *rec,
                                  struct reader_malformed *bad)
{
	(void)wp;
	(void)rec;
	(void)bad;
	return READER_EOF;
}

void warp_pipe_end(struct warp_pipe *wp)
{
	(void)wp;
}

void warp_pipe_bytes(const struct warp_pipe *wp, uint64_t *decoded, uint64_t *skipped)
{
	*decoded = 0;
	*skipped = wp->skipped;
}

void warp_pipe_free(struct warp_pipe *wp)
{
	free(wp);
}
