/* net_packet.h: what the network layers of a captured packet say, for the
 * PCIe-over-IP formats (Warp Pipe over TCP, NetTLP over UDP; issue 17).
 *
 * net_packet_parse() (read/net/net_decap.c) takes a packet of one of the
 * link types of link_decoder.h and undoes, with every length checked,
 * the link layer (Ethernet with up to two VLAN tags, BSD loopback NULL
 * and LOOP, Linux cooked SLL and SLL2, raw IP), then IPv4 (header
 * checksum, options, fragments: a fragment is not reassembled and is
 * reported) or IPv6 (the extension headers that carry no payload of
 * their own skipped), then TCP or UDP.  It copies nothing: the payload
 * points into the packet.
 *
 * Refined by h-net (issue 17): NET_FRAGMENT, so that a caller cannot take
 * a fragment for a whole datagram by ignoring a flag; protocol, for the
 * messages about packets of other protocols.
 */
#ifndef DLLPCHECK_NET_PACKET_H
#define DLLPCHECK_NET_PACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum net_transport { NET_OTHER = 0, NET_TCP, NET_UDP };

/* TCP flags (RFC 9293 section 3.1) */
#define NET_TCP_FIN 0x01u
#define NET_TCP_SYN 0x02u
#define NET_TCP_RST 0x04u
#define NET_TCP_PSH 0x08u
#define NET_TCP_ACK 0x10u

struct net_addr {
	uint8_t family; /* 4 or 6 */
	uint8_t bytes[16]; /* IPv4 in the first 4 */
};

struct net_packet {
	enum net_transport transport; /* NET_OTHER: not TCP/UDP (ARP, ICMP...) */
	uint8_t protocol; /* the IP protocol number of the payload (6, 17, 1...) */
	struct net_addr src, dst;
	uint16_t src_port, dst_port;
	/* TCP only */
	uint32_t seq, ack;
	uint8_t tcp_flags;
	/* the transport's payload: payload_len bytes present of wire_len
	 * (the IP header's length says wire_len; a capture cut short by its
	 * snapshot length has payload_len < wire_len) */
	const uint8_t *payload;
	uint32_t payload_len, wire_len;
	uint32_t payload_offset; /* of payload[0] in the packet's data */
};

enum net_parse_result {
	NET_PARSED, /* *np filled */
	NET_NOT_IP, /* a frame of another protocol (ARP, LLDP): not PCIe, skipped */
	NET_DAMAGED, /* the headers do not hold together: why says how */
	NET_FRAGMENT, /* a fragment of an IP datagram, not reassembled: *np
	               * holds the addresses, and for the first fragment
	               * (offset 0) the transport and ports when its header is
	               * whole in it; payload is the fragment's part; why
	               * names the fragment (offset, more fragments) */
};

/* Parses one packet of this link type (LINKTYPE_* numbers, as
 * link_decoder.h lists).  why (why_len bytes) is filled for NET_DAMAGED
 * and NET_FRAGMENT and names the layer and the byte offset in the packet;
 * for NET_NOT_IP it names what the frame is ("ethertype 0x0806"). */
enum net_parse_result net_packet_parse(uint32_t linktype, const uint8_t *data, uint32_t caplen,
                                       struct net_packet *np, char *why, size_t why_len);

/* Whether dllpcheck reads this link type as a network capture. */
bool net_linktype_known(uint32_t linktype);

#endif
