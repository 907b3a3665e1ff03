/* net_decoder.h: the link_decoder (link_decoder.h) for network captures
 * (issue 17): Ethernet, NULL, LOOP, RAW, LINUX_SLL, LINUX_SLL2, IPV4 and
 * IPV6 packets whose TCP or UDP payload carries PCIe.
 *
 * Each packet's headers are undone by net_packet_parse() (net_packet.h);
 * then
 *   - a TCP segment from or to the Warp Pipe port (opts->warp_pipe_port,
 *     default 2115) goes to read/net/warp_pipe.h;
 *   - a UDP datagram between two ports of 0x3000-0x4FFF goes to
 *     read/net/nettlp.h;
 *   - a packet whose headers do not hold together is a READER_MALFORMED
 *     naming the packet, the layer and the offset (it may have been PCIe:
 *     the model takes it as damage of unknown link and direction);
 *   - a fragment of a Warp Pipe or NetTLP datagram (the first fragment
 *     shows the ports) is a READER_MALFORMED too: fragments are not
 *     reassembled;
 *   - every other packet (other protocols, other ports, fragments that do
 *     not show their ports) is not PCIe traffic: counted, its bytes
 *     accounted as skipped, and, after the input ended, reported once as
 *     a READER_NOTE with the count and the first such packet's number.
 *
 * Links: a Warp Pipe connection or a NetTLP address pair is one link;
 * the decoder numbers them 0, 1, ... in the order their first record (or
 * report naming them) is given out, so that the two formats in one
 * capture never share a link; up to 256.
 *
 * Directions: Warp Pipe's server side (the port's side) sends down
 * unless opts->net_server_dir says up; NetTLP's adapter sends down unless
 * opts->net_adapter_dir says up (--dir-map server=up, adapter=up).
 */
#ifndef DLLPCHECK_NET_DECODER_H
#define DLLPCHECK_NET_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "read/link_decoder.h"
#include "read/reader.h"

bool net_decoder_new(uint32_t linktype, const struct reader_opts *opts, const char *name,
                     struct link_decoder *dec, char *err, size_t errlen);

#endif
