/* check_annotate.c: unit tests of report/annotate.c (--annotate): where
 * each finding's comment goes (its record's block; "about record N" on a
 * later one; the bytes that are no record on the next record's block or
 * the section's), the bounds of a block and of the findings waiting for
 * a record, the summary, and the file left only when kept.  Driven
 * without a capture; the file is read back by a block walker of the
 * test's own. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "read/pcapng_writer.h"
#include "report/annotate.h"
#include "suites.h"

#define MAX_FRAMES 16
#define MAX_COMMENTS 300

/* The file as blocks: the SHB's comments, each EPB's record number (its
 * first data byte after the pseudo-header, as the test writes them) and
 * comments. */
struct readback {
	unsigned frames;
	unsigned comments[MAX_FRAMES + 1]; /* [0]: the SHB */
	char *comment[MAX_FRAMES + 1][MAX_COMMENTS];
	unsigned record[MAX_FRAMES + 1];
	bool idb;
};

static uint32_t u32_at(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return v;
}

static uint16_t u16_at(const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return v;
}

static void read_options(struct readback *rb, unsigned block, const uint8_t *p, const uint8_t *end)
{
	while (p + 4 <= end) {
		uint16_t code = u16_at(p), len = u16_at(p + 2);
		if (code == 0)
			break;
		ck_assert((size_t)(end - p) >= 4u + len);
		if (code == 1 && rb->comments[block] < MAX_COMMENTS)
			rb->comment[block][rb->comments[block]++] =
			        strndup((const char *)p + 4, len);
		p += 4 + ((len + 3u) & ~3u);
	}
}

static void read_back(const char *path, struct readback *rb)
{
	memset(rb, 0, sizeof(*rb));
	FILE *fp = fopen(path, "rb");
	ck_assert_ptr_nonnull(fp);
	static uint8_t buf[1u << 20];
	size_t n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	size_t off = 0;
	while (off + 12 <= n) {
		uint32_t type = u32_at(buf + off), len = u32_at(buf + off + 4);
		ck_assert_uint_eq(len % 4, 0);
		ck_assert_uint_le(off + len, n);
		ck_assert_uint_eq(u32_at(buf + off + len - 4), len);
		const uint8_t *b = buf + off, *end = b + len - 4;
		if (type == PCAPNG_BT_SHB) {
			ck_assert_uint_eq(off, 0);
			read_options(rb, 0, b + 24, end);
		} else if (type == PCAPNG_BT_IDB) {
			rb->idb = true;
		} else if (type == PCAPNG_BT_EPB) {
			ck_assert(rb->idb);
			ck_assert_uint_lt(rb->frames, MAX_FRAMES);
			unsigned f = ++rb->frames;
			uint32_t caplen = u32_at(b + 20);
			rb->record[f] = b[28 + 4];
			read_options(rb, f, b + 28 + ((caplen + 3u) & ~3u), end);
		}
		off += len;
	}
	ck_assert_uint_eq(off, n);
}

static void readback_free(struct readback *rb)
{
	for (unsigned b = 0; b <= MAX_FRAMES; b++)
		for (unsigned c = 0; c < rb->comments[b]; c++)
			free(rb->comment[b][c]);
}

struct fixture {
	char dir[64], path[96];
	struct annotate *a;
	uint8_t bytes[6];
	struct input_stats stats;
	struct finding_sink sink;
	struct fc_options fc;
	struct input_report rep;
};

static void fixture_open(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/check-annotate-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(fx->dir));
	snprintf(fx->path, sizeof(fx->path), "%s/out.pcapng", fx->dir);
	char err[512] = "";
	static char input[] = "in.trace";
	char *inputs[] = { input };
	fx->a = annotate_open(fx->path, input, 147, inputs, 1, err, sizeof(err));
	ck_assert_msg(fx->a != NULL, "%s", err);
	finding_sink_init(&fx->sink, NULL, NULL);
	fx->rep.file = "in.trace";
	fx->rep.format = "text";
	fx->rep.stats = &fx->stats;
	fx->rep.sink = &fx->sink;
	fx->rep.fc_opts = &fx->fc;
}

/* Record number no (its first byte says which, for read_back). */
static void record(struct fixture *fx, uint64_t no)
{
	struct record rec;
	memset(&rec, 0, sizeof(rec));
	rec.kind = REC_DLLP;
	fx->bytes[0] = (uint8_t)no;
	rec.bytes = fx->bytes;
	rec.len = rec.wire_len = 6;
	rec.time_ps = no * 1000000;
	rec.pos.file = "in.trace";
	rec.pos.record_no = no;
	rec.pos.line = no + 10;
	annotate_record(fx->a, &rec);
	fx->stats.records_read++;
	fx->stats.records_decoded++;
}

static void finding(struct fixture *fx, enum rule_id rule, uint64_t no, const char *msg)
{
	struct finding f;
	finding_init(&f, rule, NULL);
	f.pos.file = "in.trace";
	f.pos.record_no = no;
	f.pos.line = no + 10;
	f.pos.byte_offset = no * 100;
	snprintf(f.message, sizeof(f.message), "%s", msg);
	if (rule == R_CAPTURE_RESYNC)
		finding_add_evidence(&f, "resume_offset", 1);
	fx->sink.count_by_rule[rule]++;
	fx->sink.count_by_severity[f.severity]++;
	annotate_finding(fx->a, &f);
}

static void fixture_close(struct fixture *fx, bool keep, struct readback *rb)
{
	char err[512] = "";
	ck_assert_msg(
	        annotate_close(fx->a, keep, &fx->rep, EXIT_FINDINGS, SEV_ERROR, err, sizeof(err)),
	        "%s", err);
	if (keep)
		read_back(fx->path, rb);
	else
		ck_assert_int_ne(access(fx->path, F_OK), 0);
	unlink(fx->path);
	/* no temporary file left beside it */
	ck_assert_int_eq(rmdir(fx->dir), 0);
}

START_TEST(test_placement)
{
	struct fixture fx;
	struct readback rb;
	fixture_open(&fx);
	/* record 1's packet rule, raised before it begins */
	finding(&fx, R_DLLP_CRC, 1, "bad CRC");
	record(&fx, 1);
	record(&fx, 2);
	/* the model's, while record 2 is applied */
	finding(&fx, R_FC_CREDIT_OVERRUN, 2, "overrun");
	record(&fx, 3);
	/* about record 1, found at record 3 (a timeout) */
	finding(&fx, R_TLP_CPL_TIMEOUT, 1, "late");
	/* record 4 could not be read; bytes skipped before record 5 */
	finding(&fx, R_CAPTURE_MALFORMED, 4, "unreadable");
	fx.stats.records_read++;
	fx.stats.records_malformed++;
	finding(&fx, R_CAPTURE_RESYNC, 5, "skipped");
	record(&fx, 5);
	/* the end of the capture: about record 5, then about 3 */
	finding(&fx, R_FC_UPDATE_PERIOD, 5, "no update");
	finding(&fx, R_FC_UPDATE_PERIOD, 3, "no update either");
	/* after the last record: no record follows it */
	finding(&fx, R_CAPTURE_MALFORMED, 6, "trailing");
	fixture_close(&fx, true, &rb);

	ck_assert_uint_eq(rb.frames, 4);
	ck_assert_uint_eq(rb.record[4], 5);
	ck_assert_uint_eq(rb.comments[1], 1);
	ck_assert_str_eq(rb.comment[1][0], "dllp.crc error: bad CRC");
	ck_assert_uint_eq(rb.comments[2], 1);
	ck_assert_str_eq(rb.comment[2][0], "fc.credit.overrun error: overrun");
	ck_assert_uint_eq(rb.comments[3], 1);
	ck_assert_str_eq(rb.comment[3][0],
	                 "about record 1 (line 11): tlp.cpl.timeout warning: late");
	ck_assert_uint_eq(rb.comments[4], 4);
	ck_assert_str_eq(rb.comment[4][0], "about record 4 (line 14, byte offset 400), not in this "
	                                   "file: capture.malformed error: unreadable");
	ck_assert_str_eq(rb.comment[4][1], "about the bytes from offset 500 (before record 5), not "
	                                   "in this file: capture.resync warning: skipped");
	ck_assert_str_eq(rb.comment[4][2], "fc.update.period warning: no update");
	ck_assert_str_eq(rb.comment[4][3],
	                 "about record 3 (line 13): fc.update.period warning: no update either");
	/* the section: the summary, then what came after the last record */
	ck_assert_uint_eq(rb.comments[0], 2);
	const char *summary = rb.comment[0][0];
	ck_assert_msg(strncmp(summary, "dllpcheck ", 10) == 0, "%s", summary);
	ck_assert_ptr_nonnull(strstr(summary, "FAIL: findings at or above --fail-on=error (exit "
	                                      "status 1)\n== in.trace (text): 5 records read, 4 "
	                                      "decoded, 1 malformed; findings: 4 error, 4 warning, "
	                                      "0 info\n"));
	ck_assert_ptr_nonnull(strstr(summary, "\n   capture.malformed "));
	ck_assert_ptr_nonnull(strstr(summary, "\nframe 4 is record 5 of the input: the 1 records"));
	ck_assert_int_ne(summary[strlen(summary) - 1], '\n');
	ck_assert_str_eq(rb.comment[0][1], "about record 6 (line 16, byte offset 600), not in this "
	                                   "file: capture.malformed error: trailing");
	readback_free(&rb);
}
END_TEST

/* A flood of unreadable records before a record: the block carries what
 * the wait holds and says how many more there were; the record's own
 * findings still reach it. */
START_TEST(test_pending_bound)
{
	struct fixture fx;
	struct readback rb;
	fixture_open(&fx);
	for (unsigned i = 0; i < 200; i++)
		finding(&fx, R_CAPTURE_MALFORMED, 1 + i, "bad line");
	finding(&fx, R_DLLP_CRC, 201, "its own");
	record(&fx, 201);
	fixture_close(&fx, true, &rb);
	unsigned kept = ANNOTATE_PENDING - 16;
	ck_assert_uint_eq(rb.comments[1], kept + 2);
	ck_assert_str_eq(rb.comment[1][kept], "dllp.crc error: its own");
	char want[64];
	snprintf(want, sizeof(want), "dllpcheck: %u more findings here", 200 - kept);
	ck_assert_msg(strncmp(rb.comment[1][kept + 1], want, strlen(want)) == 0, "%s",
	              rb.comment[1][kept + 1]);
	readback_free(&rb);
}
END_TEST

/* Many long findings on one record: the block stays within its bound and
 * says how many it does not carry. */
START_TEST(test_block_bound)
{
	struct fixture fx;
	struct readback rb;
	fixture_open(&fx);
	record(&fx, 1);
	char msg[256];
	memset(msg, 'm', 255);
	msg[255] = '\0';
	for (unsigned i = 0; i < 400; i++)
		finding(&fx, R_FC_CREDIT_OVERRUN, 1, msg);
	fixture_close(&fx, true, &rb);
	unsigned n = rb.comments[1];
	size_t bytes = 0;
	for (unsigned c = 0; c + 1 < n; c++) {
		ck_assert_uint_eq(strlen(rb.comment[1][c]),
		                  strlen("fc.credit.overrun error: ") + 255);
		bytes += 4 + ((strlen(rb.comment[1][c]) + 3) & ~3u);
	}
	ck_assert_uint_le(bytes, ANNOTATE_BLOCK_COMMENTS);
	ck_assert_uint_gt(n, 200);
	char want[64];
	snprintf(want, sizeof(want), "dllpcheck: %u more findings here", 400 - (n - 1));
	ck_assert_msg(strncmp(rb.comment[1][n - 1], want, strlen(want)) == 0, "%s",
	              rb.comment[1][n - 1]);
	readback_free(&rb);
}
END_TEST

/* No record: the section says it all; a file not kept leaves nothing. */
START_TEST(test_no_record)
{
	struct fixture fx;
	struct readback rb;
	fixture_open(&fx);
	finding(&fx, R_CAPTURE_MALFORMED, 1, "not a trace");
	fixture_close(&fx, true, &rb);
	ck_assert(rb.idb);
	ck_assert_uint_eq(rb.frames, 0);
	ck_assert_uint_eq(rb.comments[0], 2);
	ck_assert_str_eq(rb.comment[0][1], "about record 1 (line 11, byte offset 100), not in this "
	                                   "file: capture.malformed error: not a trace");
	readback_free(&rb);

	fixture_open(&fx);
	record(&fx, 1);
	fixture_close(&fx, false, &rb);
}
END_TEST

Suite *suite_annotate(void)
{
	Suite *s = suite_create("annotate");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_placement);
	tcase_add_test(tc, test_pending_bound);
	tcase_add_test(tc, test_block_bound);
	tcase_add_test(tc, test_no_record);
	suite_add_tcase(s, tc);
	return s;
}
