/* reader_pcap.c: pcap and pcapng captures through libpcap, the reference
 * reader of capture-format.md section 1: the own readers
 * (reader_pcapfile.c, reader_pcapngfile.c), which reader_open uses, are
 * held to the records this one gives (tests/pcap-diff, fuzz_pcap).  Also
 * the reader of a file forced to pcap that has neither magic number, for
 * libpcap's word on it.  The encapsulation:
 *
 *     byte 0   version 0xD1
 *     byte 1   kind: 1 DLLP, 2 TLP, 3 link event
 *     byte 2   flags: bit 0 direction (1 = up), bit 1 NO_CRC,
 *              bit 2 PHY_ERROR, bit 3 NO_SEQ, bits 7:4 reserved (0)
 *     byte 3   link index
 *     ...      the DLLP, TLP or event bytes
 *
 * Timestamps are read at nanosecond precision whatever the file's own.
 */
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>

#include "read/pcap_file.h"
#include "read/reader.h"

struct pcap_reader {
	pcap_t *pcap;
	const char *name;
	uint64_t record_no;
	uint64_t next_offset; /* classic pcap: where the next record starts */
	bool classic; /* classic pcap: offsets by arithmetic, no ftell */
	struct pcap_clock clock;
	bool failed;
};

void *pcap_reader_new(FILE *fp, const char *name, int dlt, char *err, size_t errlen)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p =
	        pcap_fopen_offline_with_tstamp_precision(fp, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		snprintf(err, errlen, "%s: not a readable pcap/pcapng file: %s", name, errbuf);
		fclose(fp);
		return NULL;
	}
	int found = pcap_datalink(p);
	if (found != dlt) {
		pcap_linktype_error(err, errlen, name, found, pcap_datalink_val_to_name(found),
		                    dlt);
		pcap_close(p);
		return NULL;
	}
	struct pcap_reader *pr = calloc(1, sizeof(*pr));
	if (!pr) {
		snprintf(err, errlen, "%s: out of memory", name);
		pcap_close(p);
		return NULL;
	}
	pr->pcap = p;
	pr->name = name;
	pr->next_offset = 24; /* classic pcap file header */
	/* libpcap reports 2.x for the classic format and the SHB's 1.x for
	 * pcapng */
	pr->classic = pcap_major_version(p) == 2;
	return pr;
}

static uint64_t pcap_record_offset(struct pcap_reader *pr)
{
	/* libpcap does not tell where a record starts; for the classic format
	 * the layout is fixed (24-byte file header, 16-byte record headers),
	 * and for pcapng the stdio position before the read is the block
	 * start when the stream is seekable.  ftell locks the stream and
	 * asks for its position at every record: only pcapng needs it. */
	if (pr->classic)
		return pr->next_offset;
	FILE *fp = pcap_file(pr->pcap);
	long pos = fp ? ftell(fp) : -1;
	return pos >= 0 ? (uint64_t)pos : pr->next_offset;
}

/* Fills rec (cleared, its position set) from one record libpcap framed
 * at offset; false, with bad filled, when its contents are not a record
 * of ours (capture-format.md section 1). */
static bool pcap_record(struct pcap_reader *pr, const struct pcap_pkthdr *hdr, const u_char *data,
                        struct record *rec, struct reader_malformed *bad)
{
	pr->next_offset = rec->pos.byte_offset + 16 + hdr->caplen;
	if (pr->classic && hdr->caplen >= (bpf_u_int32)pcap_snapshot(pr->pcap)) {
		/* libpcap may have cut a longer record to the snapshot length and
		 * skipped the rest: the stream's position says where it ends */
		FILE *fp = pcap_file(pr->pcap);
		long pos = fp ? ftell(fp) : -1;
		if (pos >= 0)
			pr->next_offset = (uint64_t)pos;
	}
	/* tv_usec holds nanoseconds: the stream was opened at that precision */
	rec->time_ps = pcap_clock_ps(&pr->clock, (int64_t)hdr->ts.tv_sec, (int64_t)hdr->ts.tv_usec);
	rec->time_base_s = pr->clock.base_s;
	return pcap_payload_record(data, hdr->caplen, hdr->len, rec, bad);
}

static void pcap_position(struct pcap_reader *pr, uint64_t offset, struct srcpos *pos)
{
	pr->record_no++;
	pos->file = pr->name;
	pos->record_no = pr->record_no;
	pos->byte_offset = offset;
	pos->line = 0;
}

/* libpcap stops at a damaged record header or a cut file: nothing after
 * it can be framed, so this ends the input. */
static void pcap_fatal(struct pcap_reader *pr, const struct record *rec,
                       struct reader_malformed *bad)
{
	pr->failed = true;
	bad->pos = rec->pos;
	bad->column = 0;
	snprintf(bad->reason, sizeof(bad->reason), "%s", pcap_geterr(pr->pcap));
}

static enum reader_result pcap_reader_next(void *state, struct record *rec,
                                           struct reader_malformed *bad)
{
	struct pcap_reader *pr = state;
	struct pcap_pkthdr *hdr;
	const u_char *data;

	if (pr->failed)
		return READER_EOF;
	uint64_t offset = pcap_record_offset(pr);
	int rc = pcap_next_ex(pr->pcap, &hdr, &data);
	if (rc == PCAP_ERROR_BREAK)
		return READER_EOF;
	/* rec is cleared by reader_next; bad is filled only for a record that
	 * is malformed */
	pcap_position(pr, offset, &rec->pos);
	if (rc != 1) {
		pcap_fatal(pr, rec, bad);
		return READER_FATAL;
	}
	return pcap_record(pr, hdr, data, rec, bad) ? READER_RECORD : READER_MALFORMED;
}

static void pcap_reader_close(void *state)
{
	struct pcap_reader *pr = state;
	if (!pr)
		return;
	pcap_close(pr->pcap);
	free(pr);
}

const struct reader_ops pcap_reader_ops = {
	.format_name = "pcap",
	.next = pcap_reader_next,
	.close = pcap_reader_close,
};
