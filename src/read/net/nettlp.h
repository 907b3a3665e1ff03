/* nettlp.h: NetTLP, PCIe TLPs over UDP (issue 17): each datagram one
 * record.
 *
 * The datagram (NetTLP/libtlp include/libtlp.h @8c3c732e, struct
 * nettlp_hdr, packed; NetTLP/tcpdump print-nettlp.c @40756b8b reads both
 * fields with ntohs/ntohl, so both are big-endian):
 *
 *   +--------+--------+--------+--------+--------+--------+----------
 *   | sequence (16)   | timestamp (32)                    | the TLP...
 *   +--------+--------+--------+--------+--------+--------+----------
 *
 * then the TLP as the transaction layer built it: no data-link sequence
 * number, no LCRC (the NetTLP adapter strips and adds them at its PCIe
 * link), so the record is REC_TLP with REC_F_NO_SEQ | REC_F_NO_CRC.  The
 * header's sequence and timestamp count on the adapter's own clock
 * (libtlp sends 0 in both, lib/libtlp.c @1b294b72 dma_read): the
 * record's time is the capture's.
 *
 * Ports (NetTLP/tcpdump udp.h @40756b8b: NETTLP_LIBTLP_PORT_BASE 12288,
 * NETTLP_ADAPTER_PORT_BASE 16384; libtlp.h after @8c3c732e, enum
 * dma_direction): 0x3000 + tag for the transactions LibTLP issues (DMA by
 * the software device), 0x4000 + tag for those the adapter's host issues
 * to the device; nettlp_init (lib/libtlp.c @1b294b72) binds and connects
 * the same port at both ends, and a transaction's requests and its
 * completions share it, so the range says who issued a transaction, not
 * which way a datagram travels.  The direction is its sender's: the
 * adapter sits on the PCIe link as the device (port U of the adapter
 * host's link) and puts onto the network what the Root Port (port D)
 * sent it, so a datagram from the adapter is down, one from the LibTLP
 * host is up.  Which address is the adapter is told by the first
 * datagram of the pair whose TLP says request or completion: a request
 * in 0x3000-0x3FFF or a completion in 0x4000-0x4FFF was sent by the
 * LibTLP host, a completion in 0x3000-0x3FFF or a request in
 * 0x4000-0x4FFF by the adapter.  adapter_dir (--dir-map adapter=up)
 * turns it round.
 *
 * Links: one per address pair (either order), numbered in the order the
 * pairs first appear, up to 256; a datagram of a further pair is reported
 * and skipped.
 */
#ifndef DLLPCHECK_NETTLP_H
#define DLLPCHECK_NETTLP_H

#include <stdbool.h>
#include <stdint.h>

#include "core/record.h"
#include "read/link_decoder.h"
#include "read/net/net_packet.h"
#include "read/reader.h"

#define NETTLP_PORT_FIRST 0x3000u
#define NETTLP_PORT_LIBTLP_LAST 0x3FFFu /* 0x3000 + tag: issued by LibTLP */
#define NETTLP_PORT_LAST 0x4FFFu /* 0x4000 + tag: issued by the adapter's host */
#define NETTLP_HDR_LEN 6u
#define NETTLP_MAX_LINKS 256u

struct nettlp_opts {
	enum link_dir adapter_dir; /* what the adapter sends: DIR_DOWN */
};

struct nettlp;

/* Whether a UDP datagram of these ports is NetTLP's: one port, the same
 * at both ends (libtlp binds and connects it), in 0x3000-0x4FFF. */
bool nettlp_ports(uint16_t src_port, uint16_t dst_port);

/* NULL: out of memory. */
struct nettlp *nettlp_new(const struct nettlp_opts *o, const char *name);

/* One UDP datagram of nettlp_ports (np->transport NET_UDP): READER_RECORD
 * with *rec filled (its bytes point into the packet, rec->pos.record_no
 * is the caller's to set), or READER_MALFORMED with *bad saying why and
 * where (file, packet, byte offset). */
enum reader_result nettlp_datagram(struct nettlp *nt, const struct net_packet *np,
                                   const struct link_packet *pkt, struct record *rec,
                                   struct reader_malformed *bad);

void nettlp_free(struct nettlp *nt);

#endif
