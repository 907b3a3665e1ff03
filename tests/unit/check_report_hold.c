/* check_report_hold.c: unit tests of cli/report_hold.c: what is written
 * before the first record is held and then written in order, in memory
 * and spilled past REPORT_HOLD_MEM; dropped when no record decodes; and
 * no memory taken until a byte is held. */
#include "autoconfig.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_hold.h"
#include "suites.h"

/* byte i of a pattern that no shift of a buffer's length repeats */
static unsigned char pattern(size_t i)
{
	return (unsigned char)((i * 7 + i / 251) & 0xFF);
}

/* n bytes of the pattern from byte at, in writes of up to chunk bytes */
static void put_pattern(FILE *fp, size_t at, size_t n, size_t chunk)
{
	unsigned char *buf = malloc(chunk);
	ck_assert_ptr_nonnull(buf);
	while (n > 0) {
		size_t k = n < chunk ? n : chunk;
		for (size_t i = 0; i < k; i++)
			buf[i] = pattern(at + i);
		ck_assert_uint_eq(fwrite(buf, 1, k, fp), k);
		at += k;
		n -= k;
	}
	free(buf);
}

static bool is_pattern(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] != pattern(i))
			return false;
	return true;
}

/* The hold over under, in front of hooks. */
struct held {
	char *buf;
	size_t len;
	FILE *under;
	struct report_hold h;
	struct analysis_hooks hooks;
};

static void held_open(struct held *t)
{
	char err[128];
	t->buf = NULL;
	t->len = 0;
	t->under = open_memstream(&t->buf, &t->len);
	ck_assert_ptr_nonnull(t->under);
	ck_assert(report_hold_open(&t->h, t->under, err, sizeof(err)));
	memset(&t->hooks, 0, sizeof(t->hooks));
	report_hold_hooks(&t->h, &t->hooks);
}

/* What under has been given so far. */
static size_t under_len(struct held *t)
{
	ck_assert_int_eq(fflush(t->under), 0);
	return t->len;
}

/* A record decoded: the hold lets go. */
static void held_record(struct held *t)
{
	ck_assert_ptr_nonnull(t->hooks.on_packet);
	t->hooks.on_packet(t->hooks.ctx, NULL, true);
	ck_assert(report_hold_released(&t->h));
}

static void held_free(struct held *t)
{
	ck_assert_int_eq(fclose(t->under), 0);
	free(t->buf);
}

/* Held in memory: nothing reaches under before the record; then all, in
 * order, and later writes go straight through. */
START_TEST(test_held_then_written)
{
	struct held t;
	held_open(&t);
	/* no memory until a byte is held */
	ck_assert_ptr_null(t.h.mem);
	ck_assert_uint_eq(t.h.mem_size, 0);
	put_pattern(t.h.out, 0, 5000, 1000);
	ck_assert_int_eq(fflush(t.h.out), 0);
	ck_assert_uint_eq(under_len(&t), 0);
	/* sized to what is held, not REPORT_HOLD_MEM */
	ck_assert_ptr_nonnull(t.h.mem);
	ck_assert_uint_ge(t.h.mem_size, 5000);
	ck_assert_uint_lt(t.h.mem_size, REPORT_HOLD_MEM);
	held_record(&t);
	ck_assert_uint_eq(under_len(&t), 5000);
	put_pattern(t.h.out, 5000, 3000, 700);
	ck_assert(report_hold_close(&t.h, true));
	ck_assert(!report_hold_lost(&t.h, "x", (char[64]){ 0 }, 64));
	ck_assert_uint_eq(under_len(&t), 8000);
	ck_assert(is_pattern(t.buf, t.len));
	held_free(&t);
}
END_TEST

/* More than REPORT_HOLD_MEM held, in small writes and in one larger than
 * it: spilled to a temporary file, and written whole and in order. */
START_TEST(test_spilled_then_written)
{
	const size_t sizes[][2] = {
		{ 3 * REPORT_HOLD_MEM + 123, 999 },
		{ 2 * REPORT_HOLD_MEM + 7, REPORT_HOLD_MEM + 1 },
	};
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		struct held t;
		held_open(&t);
		put_pattern(t.h.out, 0, sizes[k][0], sizes[k][1]);
		ck_assert_int_eq(fflush(t.h.out), 0);
		ck_assert_uint_eq(under_len(&t), 0);
		/* memory never grew past REPORT_HOLD_MEM (unless no temporary
		 * file could be made) */
		ck_assert(t.h.no_spill || t.h.mem_size <= REPORT_HOLD_MEM);
		held_record(&t);
		put_pattern(t.h.out, sizes[k][0], 10, 10);
		ck_assert(report_hold_close(&t.h, true));
		ck_assert_uint_eq(under_len(&t), sizes[k][0] + 10);
		ck_assert(is_pattern(t.buf, t.len));
		held_free(&t);
	}
}
END_TEST

/* No record decoded: what was held goes nowhere. */
START_TEST(test_dropped)
{
	struct held t;
	held_open(&t);
	put_pattern(t.h.out, 0, REPORT_HOLD_MEM + 10, 4096);
	ck_assert(report_hold_close(&t.h, false));
	ck_assert(!report_hold_released(&t.h));
	ck_assert_uint_eq(under_len(&t), 0);
	held_free(&t);
}
END_TEST

/* Nothing written at all: nothing held, nothing taken. */
START_TEST(test_nothing)
{
	struct held t;
	held_open(&t);
	held_record(&t);
	ck_assert_ptr_null(t.h.mem);
	ck_assert(report_hold_close(&t.h, true));
	ck_assert_uint_eq(under_len(&t), 0);
	held_free(&t);
}
END_TEST

Suite *suite_report_hold(void)
{
	Suite *s = suite_create("report_hold");
	TCase *tc = tcase_create("hold");
	tcase_add_test(tc, test_held_then_written);
	tcase_add_test(tc, test_spilled_then_written);
	tcase_add_test(tc, test_dropped);
	tcase_add_test(tc, test_nothing);
	suite_add_tcase(s, tc);
	return s;
}
