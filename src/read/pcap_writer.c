/* pcap_writer.c: records to a pcap file in the encapsulation of
 * capture-format.md section 1, through libpcap's dump API. */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/pcap_writer.h"
#include "wire/tlp.h"

struct pcap_writer {
	pcap_t *dead;
	pcap_dumper_t *dumper;
	const char *path;
	uint8_t buf[PCAP_PSEUDO_HDR_LEN + TLP_MAX_RECORD_LEN];
};

struct pcap_writer *pcap_writer_open(FILE *fp, const char *name, int dlt, char *err, size_t errlen)
{
	struct pcap_writer *w = calloc(1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "%s: out of memory", name);
		fclose(fp);
		return NULL;
	}
	w->path = name;
	w->dead = pcap_open_dead_with_tstamp_precision(dlt, (int)sizeof(w->buf),
	                                               PCAP_TSTAMP_PRECISION_NANO);
	if (!w->dead) {
		snprintf(err, errlen, "%s: cannot create a pcap handle", name);
		fclose(fp);
		free(w);
		return NULL;
	}
	w->dumper = pcap_dump_fopen(w->dead, fp);
	if (!w->dumper) {
		snprintf(err, errlen, "%s: cannot write: %s", name, pcap_geterr(w->dead));
		fclose(fp);
		pcap_close(w->dead);
		free(w);
		return NULL;
	}
	return w;
}

void pcap_pseudo_header(const struct record *rec, uint8_t out[PCAP_PSEUDO_HDR_LEN])
{
	out[0] = PCAP_PSEUDO_VERSION;
	out[1] = (uint8_t)rec->kind;
	out[2] = (uint8_t)((rec->flags & ~1u) | (rec->dir == DIR_UP ? 1u : 0u));
	out[3] = rec->link;
}

void pcap_writer_write(struct pcap_writer *w, const struct record *rec)
{
	uint32_t len = rec->len;
	if (len > TLP_MAX_RECORD_LEN)
		len = TLP_MAX_RECORD_LEN;
	pcap_pseudo_header(rec, w->buf);
	memcpy(w->buf + PCAP_PSEUDO_HDR_LEN, rec->bytes, len);

	struct pcap_pkthdr hdr;
	memset(&hdr, 0, sizeof(hdr));
	uint64_t ns = rec->time_ps / 1000u;
	hdr.ts.tv_sec = (time_t)(ns / 1000000000u + rec->time_base_s);
	hdr.ts.tv_usec = (suseconds_t)(ns % 1000000000u); /* ns with NANO precision */
	hdr.caplen = PCAP_PSEUDO_HDR_LEN + len;
	hdr.len = PCAP_PSEUDO_HDR_LEN + (rec->wire_len > len ? rec->wire_len : len);
	pcap_dump((u_char *)w->dumper, &hdr, w->buf);
}

bool pcap_writer_close(struct pcap_writer *w, char *err, size_t errlen)
{
	bool ok = true;
	if (pcap_dump_flush(w->dumper) != 0 || ferror(pcap_dump_file(w->dumper))) {
		snprintf(err, errlen, "%s: write failed: %s", w->path, strerror(errno));
		ok = false;
	}
	pcap_dump_close(w->dumper);
	pcap_close(w->dead);
	free(w);
	return ok;
}
