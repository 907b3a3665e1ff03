/* annotate.c: --annotate OUT.pcapng, findings as the comments of the
 * capture's blocks (annotate.h).
 *
 *   OUT.pcapng: SHB (shb_userappl, opt_comment: the summary, and what was
 *               found about bytes after the last record)
 *               IDB (the link type, if_tsresol 9)
 *               EPB per record (opt_comment per finding)   <- the body
 *
 * The body is written as the records come to a spool beside the output
 * (base/spool.h); the SHB and the IDB go in front of it at the end.
 */
#include "autoconfig.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/out_file.h"
#include "base/spool.h"
#include "base/utf8.h"
#include "read/pcapng_writer.h"
#include "report/annotate.h"

/* Room kept in a block for the comment that says what it does not carry. */
#define OMITTED_ROOM 256u
/* Findings about bytes that are no record may fill the wait for the next
 * record only up to this many fewer than ANNOTATE_PENDING: the rest stay
 * for the next record's own findings (its packet rules run before it
 * begins here: a handful). */
#define PENDING_OWN 16u
/* The Section Header Block's options: the summary, and the findings after
 * the last record (at most ANNOTATE_PENDING of them). */
#define SHB_OPTIONS (96u * 1024u)

enum note_kind {
	NOTE_RECORD, /* about a decoded record */
	NOTE_MALFORMED, /* capture.malformed: a record that could not be read */
	NOTE_RESYNC, /* capture.resync: bytes skipped */
};

/* A finding waiting for the next record's block. */
struct note {
	uint8_t kind; /* enum note_kind */
	bool resumed; /* NOTE_RESYNC: a record follows the bytes */
	uint64_t record_no, line, byte_offset;
	char text[320]; /* "RULE SEVERITY: MESSAGE" */
};

struct annotate {
	struct out_file out; /* the pcapng file: SHB, IDB, then the body copied */
	FILE *body; /* the EPBs, as they come (base/spool.h) */
	char *name; /* the output's path as given, for messages */
	char *input; /* the capture's name, for the summary */
	uint16_t linktype;
	bool failed;
	char error[512]; /* the first error, naming the file */
	/* the block held: the current record and its comments */
	bool held;
	struct record rec;
	uint8_t bytes[TLP_MAX_RECORD_LEN];
	struct pcapng_opts opts;
	uint64_t omitted; /* its findings that did not fit */
	/* the findings that wait for the next record's block */
	struct note pending[ANNOTATE_PENDING];
	unsigned pending_count;
	uint64_t pending_omitted;
	/* frames (EPBs) so far, and the first record whose number is not
	 * its frame's (records that could not be read are not written) */
	uint64_t frames;
	uint64_t renumbered_record, renumbered_frame;
	uint8_t opts_buf[ANNOTATE_BLOCK_COMMENTS];
};

static void annotate_fail(struct annotate *a, const char *what)
{
	if (a->failed)
		return;
	a->failed = true;
	snprintf(a->error, sizeof(a->error), "--annotate %.200s: %.290s", a->name, what);
}

static void annotate_fail_errno(struct annotate *a, const char *what)
{
	char msg[256];
	snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));
	annotate_fail(a, msg);
}

/* ---- the comments ---------------------------------------------------------- */

/* A comment on the block held, unless it no longer fits (then counted). */
static void add_comment(struct annotate *a, const char *text)
{
	size_t n = strlen(text);
	/* a text that is not UTF-8 grows by its escapes, 4 bytes a byte */
	size_t need = utf8_valid(text) ? n : 4 * n;
	if (!pcapng_opts_room(&a->opts, need + OMITTED_ROOM) ||
	    !pcapng_opts_comment(&a->opts, text))
		a->omitted++;
}

/* What a block says about the findings it does not carry (opts has
 * OMITTED_ROOM left for it). */
static void add_omitted(struct pcapng_opts *opts, uint64_t omitted)
{
	char text[OMITTED_ROOM];
	snprintf(text, sizeof(text),
	         "dllpcheck: %" PRIu64 " more findings here are not in this block (a block "
	         "carries at most %u KiB of comments, and at most %u findings wait for a "
	         "record); dllpcheck's report lists every finding",
	         omitted, ANNOTATE_BLOCK_COMMENTS / 1024u, ANNOTATE_PENDING);
	pcapng_opts_comment(opts, text);
}

/* The comment of a note on the block of record here (0: the Section
 * Header Block): where the finding was, unless it is about that record. */
static void note_comment(const struct note *n, uint64_t here, char *out, size_t len)
{
	char line[40] = "";
	switch (n->kind) {
	case NOTE_RECORD:
		if (n->record_no == here) {
			snprintf(out, len, "%s", n->text);
			return;
		}
		if (n->line)
			snprintf(line, sizeof(line), " (line %" PRIu64 ")", n->line);
		snprintf(out, len, "about record %" PRIu64 "%s: %s", n->record_no, line, n->text);
		return;
	case NOTE_MALFORMED:
		if (n->line)
			snprintf(line, sizeof(line), "line %" PRIu64 ", ", n->line);
		snprintf(out, len,
		         "about record %" PRIu64 " (%sbyte offset %" PRIu64
		         "), not in this file: %s",
		         n->record_no, line, n->byte_offset, n->text);
		return;
	default:
		/* the reader numbers the bytes as the record that would
		 * follow them (capture-format.md section 1) */
		if (n->resumed)
			snprintf(out, len,
			         "about the bytes from offset %" PRIu64 " (before record %" PRIu64
			         "), not in this file: %s",
			         n->byte_offset, n->record_no, n->text);
		else
			snprintf(out, len,
			         "about the bytes from offset %" PRIu64 " (after record %" PRIu64
			         "), not in this file: %s",
			         n->byte_offset, n->record_no ? n->record_no - 1 : 0, n->text);
		return;
	}
}

static void pending_add(struct annotate *a, const struct finding *f, enum note_kind kind)
{
	unsigned cap = kind == NOTE_RECORD ? ANNOTATE_PENDING : ANNOTATE_PENDING - PENDING_OWN;
	if (a->pending_count >= cap) {
		a->pending_omitted++;
		return;
	}
	struct note *n = &a->pending[a->pending_count++];
	n->kind = (uint8_t)kind;
	n->record_no = f->pos.record_no;
	n->line = f->pos.line;
	n->byte_offset = f->pos.byte_offset;
	n->resumed = true;
	for (unsigned i = 0; i < f->evidence_count; i++)
		if (strcmp(f->evidence[i].name, "bytes_unread") == 0)
			n->resumed = false;
	snprintf(n->text, sizeof(n->text), "%s %s: %s", rule_info(f->rule)->id,
	         severity_name(f->severity), f->message);
}

void annotate_finding(struct annotate *a, const struct finding *f)
{
	if (f->rule == R_CAPTURE_MALFORMED || f->rule == R_CAPTURE_RESYNC) {
		/* bytes that are no record of the file: on the next one's
		 * block, or the section's */
		pending_add(a, f, f->rule == R_CAPTURE_MALFORMED ? NOTE_MALFORMED : NOTE_RESYNC);
		return;
	}
	uint64_t r = f->pos.record_no;
	if (!a->held || r > a->rec.pos.record_no) {
		/* the next record's own (its packet rules run before it
		 * begins here) */
		pending_add(a, f, NOTE_RECORD);
		return;
	}
	struct note n;
	n.kind = NOTE_RECORD;
	n.record_no = r;
	n.line = f->pos.line;
	snprintf(n.text, sizeof(n.text), "%s %s: %s", rule_info(f->rule)->id,
	         severity_name(f->severity), f->message);
	char text[512];
	note_comment(&n, a->rec.pos.record_no, text, sizeof(text));
	add_comment(a, text);
}

/* ---- the blocks -------------------------------------------------------------- */

/* Writes the block held to the body. */
static void finish_block(struct annotate *a)
{
	if (!a->held)
		return;
	a->held = false;
	if (a->omitted)
		add_omitted(&a->opts, a->omitted); /* in the room kept for it */
	if (!a->failed && !pcapng_write_epb(a->body, &a->rec, &a->opts)) {
		char msg[200];
		if (errno == EOVERFLOW) {
			snprintf(msg, sizeof(msg),
			         "record %" PRIu64 ": its time does not fit a pcapng timestamp "
			         "(64-bit nanoseconds)",
			         a->rec.pos.record_no);
			annotate_fail(a, msg);
		} else {
			annotate_fail_errno(a, "cannot write (a temporary file beside it)");
		}
	}
	pcapng_opts_init(&a->opts, a->opts_buf, sizeof(a->opts_buf));
	a->omitted = 0;
}

void annotate_record(struct annotate *a, const struct record *rec)
{
	finish_block(a);
	a->rec = *rec;
	uint32_t n = rec->len < sizeof(a->bytes) ? rec->len : (uint32_t)sizeof(a->bytes);
	if (n)
		memcpy(a->bytes, rec->bytes, n);
	a->rec.bytes = a->bytes;
	a->rec.len = n;
	a->held = true;
	a->frames++;
	if (!a->renumbered_record && rec->pos.record_no != a->frames) {
		a->renumbered_record = rec->pos.record_no;
		a->renumbered_frame = a->frames;
	}
	/* what waited for it */
	char text[512];
	for (unsigned i = 0; i < a->pending_count; i++) {
		note_comment(&a->pending[i], rec->pos.record_no, text, sizeof(text));
		add_comment(a, text);
	}
	a->omitted += a->pending_omitted;
	a->pending_count = 0;
	a->pending_omitted = 0;
}

/* ---- open and close ---------------------------------------------------------- */

static void annotate_free(struct annotate *a)
{
	free(a->name);
	free(a->input);
	free(a);
}

struct annotate *annotate_open(const char *path, const char *input, int linktype,
                               char *const *inputs, int input_count, char *err, size_t len)
{
	struct annotate *a = calloc(1, sizeof(*a));
	if (!a || !(a->name = strdup(path)) || !(a->input = strdup(input))) {
		snprintf(err, len, "--annotate %s: out of memory", path);
		if (a)
			annotate_free(a);
		return NULL;
	}
	a->linktype = (uint16_t)linktype;
	pcapng_opts_init(&a->opts, a->opts_buf, sizeof(a->opts_buf));
	if (!out_file_open(&a->out, path, "--annotate", false, inputs, input_count, err, len)) {
		annotate_free(a);
		return NULL;
	}
	/* beside the output's temporary file; for a device or a FIFO
	 * written in place (/dev/null), tmpfile() */
	errno = 0;
	a->body = spool_open(a->out.tmp);
	if (!a->body) {
		snprintf(err, len, "--annotate %s: cannot write (a temporary file beside it): %s",
		         path, strerror(errno));
		fclose(a->out.fp);
		char ignored[256];
		out_file_finish(&a->out, false, ignored, sizeof(ignored));
		annotate_free(a);
		return NULL;
	}
	return a;
}

/* The summary: the verdict, the text report's first lines, and how the
 * frames are numbered when records are missing.  NULL when out of
 * memory. */
static char *summary_text(const struct annotate *a, const struct input_report *rep, int status,
                          enum severity fail_on)
{
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);
	if (!fp)
		return NULL;
	static const char *const verdict[] = {
		[EXIT_CLEAN] = "pass: no finding",
		[EXIT_FINDINGS] = "FAIL: findings",
		[EXIT_ERROR] = "ERROR: an input error, and findings",
	};
	fprintf(fp, "dllpcheck %s: %s at or above --fail-on=%s (exit status %d)\n", PACKAGE_VERSION,
	        verdict[status >= EXIT_CLEAN && status <= EXIT_ERROR ? status : 2],
	        severity_name(fail_on), status);
	report_text_summary(fp, rep);
	if (a->renumbered_record)
		fprintf(fp,
		        "frame %" PRIu64 " is record %" PRIu64 " of the input: the %" PRIu64
		        " records that could not be read are not in this file, and the "
		        "comments' record numbers are the input's\n",
		        a->renumbered_frame, a->renumbered_record, rep->stats->records_malformed);
	if (fclose(fp) != 0) {
		free(text);
		return NULL;
	}
	/* one comment: no newline after its last line */
	if (size && text[size - 1] == '\n')
		text[size - 1] = '\0';
	return text;
}

/* SHB and IDB to the output, then the body after them. */
static void write_file(struct annotate *a, const struct input_report *rep, int status,
                       enum severity fail_on)
{
	char text[512];
	if (a->held) {
		/* findings about written records that came after the last
		 * one's own (none should): on its block */
		unsigned kept = 0;
		for (unsigned i = 0; i < a->pending_count; i++) {
			if (a->pending[i].kind != NOTE_RECORD) {
				a->pending[kept++] = a->pending[i];
				continue;
			}
			note_comment(&a->pending[i], a->rec.pos.record_no, text, sizeof(text));
			add_comment(a, text);
		}
		a->pending_count = kept;
	}
	finish_block(a);
	uint8_t *buf = malloc(SHB_OPTIONS);
	char *summary = summary_text(a, rep, status, fail_on);
	if (!buf || !summary) {
		annotate_fail(a, "out of memory for the summary");
		free(buf);
		free(summary);
		return;
	}
	struct pcapng_opts opts;
	pcapng_opts_init(&opts, buf, SHB_OPTIONS);
	char appl[64];
	snprintf(appl, sizeof(appl), "dllpcheck %s", PACKAGE_VERSION);
	pcapng_opts_add(&opts, PCAPNG_OPT_SHB_USERAPPL, appl, strlen(appl));
	/* the summary first: capinfos and Wireshark show the comments in
	 * order */
	pcapng_opts_comment(&opts, summary);
	free(summary);
	/* what no record came after (or, with no record, everything) */
	uint64_t omitted = a->pending_omitted;
	for (unsigned i = 0; i < a->pending_count; i++) {
		note_comment(&a->pending[i], 0, text, sizeof(text));
		if (!pcapng_opts_room(&opts, 4 * strlen(text) + OMITTED_ROOM) ||
		    !pcapng_opts_comment(&opts, text))
			omitted++;
	}
	if (omitted)
		add_omitted(&opts, omitted);
	FILE *fp = a->out.fp;
	if (!a->failed && (!pcapng_write_shb(fp, &opts) || !pcapng_write_idb(fp, a->linktype)))
		annotate_fail_errno(a, "cannot write");
	free(buf);
	if (a->failed)
		return;
	enum spool_result res = spool_copy(a->body, fp, NULL);
	if (res == SPOOL_READ_FAILED)
		annotate_fail_errno(a, "cannot read back the records (a temporary file beside it)");
	else if (res == SPOOL_WRITE_FAILED)
		annotate_fail_errno(a, "cannot write");
}

bool annotate_close(struct annotate *a, bool keep, const struct input_report *rep, int status,
                    enum severity fail_on, char *err, size_t len)
{
	if (keep)
		write_file(a, rep, status, fail_on);
	fclose(a->body);
	/* fclose flushes: its failure is a write error too */
	if (fclose(a->out.fp) != 0 && keep)
		annotate_fail_errno(a, "cannot write");
	bool ok = keep && !a->failed;
	char msg[512];
	if (!out_file_finish(&a->out, ok, msg, sizeof(msg)) && ok) {
		ok = false;
		snprintf(a->error, sizeof(a->error), "--annotate %.480s", msg);
	}
	if (keep && !ok)
		snprintf(err, len, "%s", a->error);
	annotate_free(a);
	return !keep || ok;
}
