/* link_decoder.c: which decoder reads a pcap or pcapng file of another
 * link type than the one --dlt names (link_decoder.h, issue 17).
 *
 * The link type alone picks the reader for a capture of a PCIe tool
 * (LINKTYPE_USER11: the Agilent/Keysight export); a network capture is
 * handed to read/net/, which looks at every packet's content.  A file of a
 * link type no decoder reads gets the message it got before there were
 * decoders (pcap_linktype_error), so nothing changes for it.
 */
#include "read/link_decoder.h"

#include <pcap/pcap.h>

#include "read/agilent_decoder.h"
#include "read/net/net_decoder.h"
#include "read/net/net_packet.h"
#include "read/pcap_file.h"

bool link_decoder_for(uint32_t linktype, const struct reader_opts *opts, const char *name,
                      struct link_decoder *dec, char *err, size_t errlen)
{
	dec->ops = NULL;
	dec->state = NULL;
	/* --dlt names the link type of our own encapsulation: a file of that
	 * type is read as ours, whichever tool's type it otherwise is */
	if (linktype == (uint32_t)opts->dlt)
		goto none;
	switch (linktype) {
	case AGILENT_LINKTYPE:
		return agilent_decoder_new(opts, name, dec, err, errlen);
	default:
		/* Ethernet, NULL, LOOP, RAW, LINUX_SLL, LINUX_SLL2, IPV4,
		 * IPV6: Warp Pipe and NetTLP, told apart by port */
		if (net_linktype_known(linktype))
			return net_decoder_new(linktype, opts, name, dec, err, errlen);
		break;
	}
none:
	pcap_linktype_error(err, errlen, name, (int)linktype,
	                    pcap_datalink_val_to_name((int)linktype), opts->dlt);
	return false;
}

void link_decoder_account(const struct link_decoder *dec, uint64_t *read, uint64_t *skipped)
{
	if (!dec->ops || !dec->ops->bytes)
		return;
	uint64_t decoded = 0, dskip = 0;
	dec->ops->bytes(dec->state, &decoded, &dskip);
	if (dskip > *read) /* a decoder's slip: never more than was read */
		dskip = *read;
	*read -= dskip;
	*skipped += dskip;
}

enum reader_result link_decoder_pull(const struct link_decoder *dec, uint64_t *no, bool *ended,
                                     link_next_packet_fn next_packet, void *reader,
                                     struct record *rec, struct reader_malformed *bad)
{
	const struct link_decoder_ops *ops = dec->ops;
	for (;;) {
		enum reader_result res = ops->next(dec->state, rec, bad);
		if (res == READER_RECORD) {
			rec->pos.record_no = ++*no;
			return res;
		}
		if (res == READER_MALFORMED) {
			bad->pos.record_no = ++*no;
			return res;
		}
		if (res != READER_EOF) {
			bad->pos.record_no = *no + 1;
			return res;
		}
		if (*ended)
			return READER_EOF;
		struct link_packet pkt;
		if (next_packet(reader, &pkt, bad, &res)) {
			ops->packet(dec->state, &pkt);
		} else if (res == READER_EOF) {
			ops->end(dec->state);
			*ended = true;
		} else {
			/* a resync or a fatal error, numbered by the reader: the
			 * decoder's records held are given out if called again */
			return res;
		}
	}
}
