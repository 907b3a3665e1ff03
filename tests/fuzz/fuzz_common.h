/* fuzz_common.h: helpers shared by the libFuzzer targets (header only:
 * each target is one translation unit, see Makefile.am "fuzzing").
 *
 * Nothing here keeps state between runs except the /dev/null stream,
 * which is opened once and kept (it holds no data).
 */
#ifndef DLLPCHECK_FUZZ_COMMON_H
#define DLLPCHECK_FUZZ_COMMON_H

#include <sanitizer/asan_interface.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode/packet.h"
#include "read/reader.h"
#include "core/record.h"

/* An invariant of the code under test does not hold: crash so that
 * libFuzzer keeps the input. */
#define FUZZ_ASSERT(cond) do { if (!(cond)) __builtin_trap(); } while (0)

/* The input as a read-only, seekable stream.  fmemopen() rejects size 0
 * on some C libraries: an empty input is then an empty file. */
static inline FILE *fuzz_memfile(const uint8_t *data, size_t size)
{
	if (size == 0)
		return fopen("/dev/null", "rb");
	return fmemopen((void *)(uintptr_t)data, size, "rb"); /* read only */
}

/* --- an arena for jansson ------------------------------------------------
 *
 * jansson makes hundreds of small allocations to parse or build a
 * document, each one through ASan's allocator (a stack trace taken,
 * quarantine, fresh pages to fault in): a target that parses much spends
 * more time there than in the code it tests.  Between fuzz_arena_begin()
 * and fuzz_arena_end(), fuzz_arena_malloc() and fuzz_arena_free() (given
 * to json_set_alloc_funcs()) hand out blocks of one static arena, emptied
 * at fuzz_arena_end(); past its end, malloc() and free().  What ASan
 * would see of the blocks it still sees:
 *   - a read or write past a block's end (or before its start): every
 *     block has a poisoned header before it (its size and state: the
 *     redzone of the block before it too) and the arena's unused part is
 *     poisoned;
 *   - a use after free: a block freed is poisoned until the arena is
 *     emptied (nothing is given out twice in between);
 *   - a double free, or a free of what the arena did not give out: the
 *     header's state (a magic number xor the block's address) is
 *     checked, a trap;
 *   - a leak: the blocks given out and not freed are counted, and
 *     fuzz_arena_end() traps unless there are none (LSan does not look
 *     into the arena).
 * A new block holds 0xbe, as ASan's malloc fills one.  The arena is
 * static: only one execution uses it at a time.  FUZZ_ARENA=0 in the
 * environment turns it off (LSan then tells where a leak was allocated). */
#define FUZZ_ARENA_SIZE (4u << 20)
#define FUZZ_ARENA_ALIGN 16u /* the header's size too */
#define FUZZ_ARENA_LIVE UINT64_C(0x6c697665626c6f6b)  /* "liveblok" */
#define FUZZ_ARENA_FREED UINT64_C(0x6672656564626c6b) /* "freedblk" */

struct fuzz_arena_header {
	uint64_t size;  /* what was asked */
	uint64_t state; /* FUZZ_ARENA_LIVE or _FREED, ^ the block's address */
};

struct fuzz_arena {
	_Alignas(FUZZ_ARENA_ALIGN) unsigned char mem[FUZZ_ARENA_SIZE];
	size_t used;
	size_t live; /* blocks given out, not freed */
	bool poisoned; /* the whole arena, once */
	bool off; /* FUZZ_ARENA=0: malloc() and free() only */
};

static inline struct fuzz_arena *fuzz_arena(void)
{
	static struct fuzz_arena arena;
	return &arena;
}

/* What went wrong, to the descriptor (a target may have pointed stderr
 * elsewhere), and a trap. */
static inline void fuzz_arena_fail(const char *msg)
{
	ssize_t n = write(2, msg, strlen(msg));
	(void)n;
	__builtin_trap();
}

__attribute__((no_sanitize("coverage"))) static inline bool fuzz_arena_has(const void *p)
{
	struct fuzz_arena *a = fuzz_arena();
	uintptr_t at = (uintptr_t)p, base = (uintptr_t)a->mem;
	return at >= base && at - base < FUZZ_ARENA_SIZE;
}

/* A new block's 0xbe, as ASan's malloc fills one: a loop the compiler
 * makes wide stores of (memset() here went through ASan's interceptor, a
 * range check of a block just unpoisoned: 5% of fuzz_merge's time). */
__attribute__((no_sanitize("address", "undefined", "coverage"), no_builtin("memset")))
static inline void fuzz_arena_fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = 0xbe;
}

/* The headers are poisoned: read and written here, unchecked; and the
 * arena is not the code under test (no coverage, no comparisons traced). */
__attribute__((no_sanitize("address", "coverage"))) static inline void *fuzz_arena_malloc(size_t n)
{
	struct fuzz_arena *a = fuzz_arena();
	size_t need = (n + FUZZ_ARENA_ALIGN - 1) & ~(size_t)(FUZZ_ARENA_ALIGN - 1);
	/* the block after its header, and the next one's header (or the
	 * poisoned rest) after it */
	if (a->off || need < n || need > FUZZ_ARENA_SIZE - FUZZ_ARENA_ALIGN - a->used)
		return malloc(n);
	struct fuzz_arena_header *h = (struct fuzz_arena_header *)(void *)(a->mem + a->used);
	unsigned char *p = a->mem + a->used + FUZZ_ARENA_ALIGN;
	h->size = n;
	h->state = FUZZ_ARENA_LIVE ^ (uintptr_t)p;
	a->used += FUZZ_ARENA_ALIGN + need;
	a->live++;
	ASAN_UNPOISON_MEMORY_REGION(p, n);
	fuzz_arena_fill(p, n);
	return p;
}

__attribute__((no_sanitize("address", "coverage"))) static inline void fuzz_arena_free(void *p)
{
	if (!fuzz_arena_has(p)) {
		free(p);
		return;
	}
	struct fuzz_arena *a = fuzz_arena();
	size_t off = (size_t)((unsigned char *)p - a->mem);
	/* a block's start, given out and not yet freed */
	struct fuzz_arena_header *h = (struct fuzz_arena_header *)(void *)((unsigned char *)p -
	                                                                   FUZZ_ARENA_ALIGN);
	if (off % FUZZ_ARENA_ALIGN != 0 || off < FUZZ_ARENA_ALIGN || off > a->used ||
	    (h->state != (FUZZ_ARENA_LIVE ^ (uintptr_t)p) &&
	     h->state != (FUZZ_ARENA_FREED ^ (uintptr_t)p)))
		fuzz_arena_fail("fuzz_arena: free of what the arena did not give out\n");
	if (h->state == (FUZZ_ARENA_FREED ^ (uintptr_t)p))
		fuzz_arena_fail("fuzz_arena: double free\n");
	h->state = FUZZ_ARENA_FREED ^ (uintptr_t)p;
	ASAN_POISON_MEMORY_REGION(p, h->size);
	a->live--;
}

static inline void fuzz_arena_begin(void)
{
	struct fuzz_arena *a = fuzz_arena();
	if (!a->poisoned) {
		ASAN_POISON_MEMORY_REGION(a->mem, sizeof(a->mem));
		a->poisoned = true;
		const char *env = getenv("FUZZ_ARENA");
		a->off = env && strcmp(env, "0") == 0;
	}
}

/* Every block freed (no leak); the arena emptied, all of it poisoned. */
static inline void fuzz_arena_end(void)
{
	struct fuzz_arena *a = fuzz_arena();
	if (a->live != 0)
		fuzz_arena_fail("fuzz_arena: blocks not freed, a leak (FUZZ_ARENA=0: LSan's "
		                "report of where they were allocated)\n");
	ASAN_POISON_MEMORY_REGION(a->mem, a->used);
	a->used = 0;
}

static inline FILE *fuzz_devnull(void)
{
	static FILE *devnull;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	return devnull;
}

/* Touches every byte of a record so that ASan sees a bad bytes pointer or
 * length, and checks what the reader promises about its records. */
static inline void fuzz_check_record(const struct record *rec)
{
	volatile uint8_t sink = 0;
	FUZZ_ASSERT(rec->kind == REC_DLLP || rec->kind == REC_TLP ||
	            rec->kind == REC_EVENT);
	FUZZ_ASSERT(rec->dir == DIR_DOWN || rec->dir == DIR_UP);
	FUZZ_ASSERT(rec->len <= rec->wire_len);
	FUZZ_ASSERT(rec->len == 0 || rec->bytes != NULL);
	FUZZ_ASSERT((rec->flags & 1u) == 0); /* direction lives in dir */
	for (uint32_t i = 0; i < rec->len; i++)
		sink ^= rec->bytes[i];
	/* reader_next() checked the size of each kind */
	switch (rec->kind) {
	case REC_DLLP:
		FUZZ_ASSERT(rec->wire_len == (rec->flags & REC_F_NO_CRC
		                              ? DLLP_CONTENT_LEN : DLLP_WIRE_LEN));
		break;
	case REC_EVENT:
		FUZZ_ASSERT(rec->len == EVENT_LEN && rec->wire_len == EVENT_LEN);
		FUZZ_ASSERT(rec->bytes[0] >= EV_FIRST && rec->bytes[0] <= EV_LAST);
		break;
	case REC_TLP:
		FUZZ_ASSERT(rec->wire_len <= TLP_MAX_RECORD_LEN);
		break;
	}
	(void)sink;
}

static inline void fuzz_check_malformed(const struct reader_malformed *bad)
{
	FUZZ_ASSERT(memchr(bad->reason, '\0', sizeof(bad->reason)) != NULL);
	FUZZ_ASSERT(bad->pos.file != NULL);
}

/* FNV-1a over what a reader yields, to compare reader_next() with
 * reader_each() over the same input. */
static inline uint64_t fuzz_mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * UINT64_C(0x100000001b3);
	return h;
}

static inline uint64_t fuzz_digest(uint64_t h, enum reader_result res,
                                   const struct record *rec,
                                   const struct reader_malformed *bad)
{
	h = fuzz_mix(h, &res, sizeof(res));
	if (res == READER_RECORD) {
		uint64_t v[] = { rec->pos.record_no, rec->pos.byte_offset, rec->time_ps,
		                 rec->time_base_s, rec->kind, rec->dir, rec->flags,
		                 rec->link, rec->len, rec->wire_len };
		h = fuzz_mix(h, v, sizeof(v));
		return rec->len ? fuzz_mix(h, rec->bytes, rec->len) : h;
	}
	uint64_t v[] = { bad->pos.record_no, bad->pos.byte_offset, bad->pos.line,
	                 bad->column };
	h = fuzz_mix(h, v, sizeof(v));
	return fuzz_mix(h, bad->reason, strlen(bad->reason));
}

struct fuzz_each {
	uint64_t n, digest;
};

static inline bool fuzz_each_visit(void *ctx, enum reader_result res,
                                   const struct record *rec,
                                   const struct reader_malformed *bad)
{
	struct fuzz_each *e = ctx;
	FUZZ_ASSERT(res == READER_RECORD || res == READER_MALFORMED ||
	            res == READER_FATAL || res == READER_RESYNC || res == READER_NOTE);
	if (res == READER_RECORD)
		fuzz_check_record(rec);
	else
		fuzz_check_malformed(bad);
	e->n++;
	e->digest = fuzz_digest(e->digest, res, rec, bad);
	return true;
}

/* Reads every record of r, decoding each; returns the number read and
 * (digest) what was read. */
static inline uint64_t fuzz_drain(struct reader *r, uint64_t *digest)
{
	struct record rec;
	struct reader_malformed bad;
	struct packet pkt;
	uint64_t n = 0, last_no = 0;

	*digest = 0;
	for (;;) {
		memset(&bad, 0, sizeof(bad));
		enum reader_result res = reader_next(r, &rec, &bad);
		if (res == READER_EOF)
			break;
		n++;
		*digest = fuzz_digest(*digest, res, &rec, &bad);
		if (res == READER_RECORD) {
			fuzz_check_record(&rec);
			/* record numbers grow, from 1 */
			FUZZ_ASSERT(rec.pos.record_no > last_no);
			last_no = rec.pos.record_no;
			packet_decode(&rec, &pkt);
			FUZZ_ASSERT(pkt.rec == &rec);
			if (rec.kind == REC_DLLP && !record_truncated(&rec))
				FUZZ_ASSERT(pkt.u.dllp.type_byte == rec.bytes[0]);
			continue;
		}
		fuzz_check_malformed(&bad);
		/* a region skipped (READER_RESYNC) and a network capture's
		 * note (READER_NOTE: packets that are not PCIe) name the number
		 * the next record gets */
		if (bad.pos.record_no)
			last_no = bad.pos.record_no - (res == READER_RESYNC || res == READER_NOTE);
		if (res == READER_FATAL)
			break;
		FUZZ_ASSERT(res == READER_MALFORMED || res == READER_RESYNC || res == READER_NOTE);
	}
	return n;
}

/* One reader target: the input is a whole file of the given format, read
 * from memory; every record is read and checked.  A refused input must
 * say why. */
static inline int fuzz_read_input(const uint8_t *data, size_t size,
                                  enum input_format format)
{
	FILE *fp = fuzz_memfile(data, size);
	if (!fp)
		return 0;
	struct reader_opts opts = { .format = format, .dlt = 147 };
	char err[512];
	err[0] = '\0';
	struct reader *r = reader_open_stream(fp, "fuzz", true, &opts, err,
	                                      sizeof(err));
	if (!r) {
		/* the stream is closed by reader_open_stream on failure */
		FUZZ_ASSERT(err[0] != '\0' && memchr(err, '\0', sizeof(err)));
		return 0;
	}
	FUZZ_ASSERT(r->format_name != NULL);
	uint64_t digest;
	uint64_t n = fuzz_drain(r, &digest);
	/* reader_each() has a path of its own for classic pcap (pcap_dispatch)
	 * and for a compressed input; for every other reader it is a loop over
	 * reader_next(), the loop just run, and a second read would check
	 * nothing (and cost a third of csv's and text's executions) */
	bool own_each = r->ops->each != NULL || r->dz != NULL;
	reader_close(r);
	if (!own_each)
		return 0;

	/* reader_each() must yield the same records, results and order as
	 * reader_next() */
	fp = fuzz_memfile(data, size);
	FUZZ_ASSERT(fp != NULL);
	r = reader_open_stream(fp, "fuzz", true, &opts, err, sizeof(err));
	FUZZ_ASSERT(r != NULL);
	struct fuzz_each each = { 0, 0 };
	reader_each(r, fuzz_each_visit, &each);
	reader_close(r);
	FUZZ_ASSERT(each.n == n && each.digest == digest);
	return 0;
}

#endif
