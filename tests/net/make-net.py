#!/usr/bin/env python3
"""make-net.py: small network captures of NetTLP (PCIe TLPs over UDP) built
from the format's description (dllpcheck-capture(5), NETWORK CAPTURES and
NETTLP; src/read/net/nettlp.h), with packets of other traffic between,
for tests/test-net.sh and the fuzz seeds.

    make-net.py OUTDIR

A NetTLP datagram is a 6-byte header (sequence, timestamp: big-endian)
then the bare TLP.  The LibTLP host is .3 (fd00::3), the adapter .1
(fd00::1): LibTLP issues DMA on port 0x3000 + tag (its requests go up,
the adapter's completions come down), the adapter's host issues MMIO on
0x4000 + tag (the adapter forwards the request down, LibTLP completes up).
Written:

  eth4.pcap       Ethernet, IPv4, microsecond pcap: the exchange, with
                  ARP, ICMP, DNS, a TCP segment of port 22 and an RTP
                  datagram from port 16400 (one port in NetTLP's range) between
  eth6.pcapng     the same over IPv6 in an 802.1Q VLAN, pcapng (if_tsresol 9)
  sll2.pcap       the same in Linux cooked v2 (LINKTYPE_LINUX_SLL2),
                  nanosecond pcap
  null.pcap       the same on BSD loopback (LINKTYPE_NULL, little-endian
                  AF_INET), and one IPv6 (AF_INET6 30) datagram
  damage.pcap     Ethernet/IPv4 with damage, one kind per packet (DAMAGE)
  seed-*.bin      fuzz_net inputs: a byte choosing the link type, then
                  packets each after its 2-byte big-endian length
                  (tests/fuzz/fuzz_net.c); seed-warp-*.bin from the Warp
                  Pipe captures beside this script (make-warp-pipe.py)

Nothing but the standard library.
"""
import os
import struct
import sys

LIBTLP4, ADAPTER4 = bytes([192, 168, 10, 3]), bytes([192, 168, 10, 1])
LIBTLP6 = bytes.fromhex("fd00" + "00" * 13 + "03")
ADAPTER6 = bytes.fromhex("fd00" + "00" * 13 + "01")
REQ_ID, CPL_ID = 0x0100, 0x0000  # LibTLP's device 01:00.0, the Root Complex 00:00.0


def tlp_mrd32(tag, addr, req=REQ_ID):
    return struct.pack(">BBHHBBI", 0x00, 0, 1, req, tag, 0x0F, addr)


def tlp_mwr32(tag, addr, data, req=REQ_ID):
    return struct.pack(">BBHHBBI", 0x40, 0, 1, req, tag, 0x0F, addr) + data


def tlp_cpld(tag, req, data, cpl=CPL_ID, lower=0):
    return struct.pack(">BBHHHHBB", 0x4A, 0, 1, cpl, len(data), req, tag, lower) + data


def nettlp(seq, tlp):
    return struct.pack(">HI", seq, 0) + tlp


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack(">%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def udp(sport, dport, payload):
    return struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload


def tcp(sport, dport, seq, ack, flags, payload):
    return struct.pack(">HHIIBBHHH", sport, dport, seq, ack, 5 << 4, flags, 65535, 0,
                       0) + payload


def ipv4(src, dst, proto, payload, frag=0x4000, bad_sum=False, total=None):
    total = 20 + len(payload) if total is None else total
    h = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, 0, total, 0x1234, frag, 64, proto,
                              0, src, dst))
    s = csum(bytes(h))
    if bad_sum:
        s ^= 0x0101
    h[10:12] = struct.pack(">H", s)
    return bytes(h) + payload


def ipv6(src, dst, nh, payload):
    return struct.pack(">IHBB16s16s", 0x60000000, len(payload), nh, 64, src, dst) + payload


def ether(etype, payload, vlan=None):
    h = bytes.fromhex("020000000001") + bytes.fromhex("020000000003")
    if vlan is not None:
        h += struct.pack(">HH", 0x8100, vlan)
    return h + struct.pack(">H", etype) + payload


def arp():
    return ether(0x0806, struct.pack(">HHBBH", 1, 0x0800, 6, 4, 1) +
                 bytes.fromhex("020000000003") + LIBTLP4 + b"\0" * 6 + ADAPTER4)


def others4():
    """Packets of other traffic: ICMP echo, DNS, TCP port 22, and RTP from
    port 16400 (inside NetTLP's range) to 40002 (outside it)."""
    icmp = struct.pack(">BBHHH", 8, 0, 0, 1, 1) + b"ping"
    rtp = struct.pack(">BBHII", 0x80, 0, 1, 160, 0x1234) + b"\0" * 8
    return [ipv4(LIBTLP4, ADAPTER4, 1, icmp),
            ipv4(LIBTLP4, bytes([192, 168, 10, 53]), 17, udp(40000, 53, b"\x12\x34" + b"\0" * 10)),
            ipv4(LIBTLP4, ADAPTER4, 6, tcp(50000, 22, 1, 1, 0x18, b"SSH-2.0-x\r\n")),
            ipv4(LIBTLP4, ADAPTER4, 17, udp(16400, 40002, rtp))]


def exchange():
    """(sender, tlp_port, nettlp payload) of the transactions, in order."""
    return [
        # LibTLP reads 4 bytes of host memory (DMA, tag 0 -> port 0x3000)
        ("libtlp", 0x3000, nettlp(1, tlp_mrd32(0, 0x10000000))),
        ("adapter", 0x3000, nettlp(1, tlp_cpld(0, REQ_ID, b"\x11\x22\x33\x44"))),
        # LibTLP writes 4 bytes (posted: no completion), tag 1
        ("libtlp", 0x3001, nettlp(2, tlp_mwr32(1, 0x10000040, b"\xAA\xBB\xCC\xDD"))),
        # the host's CPU reads the device's BAR (MMIO, tag 2 -> 0x4002)
        ("adapter", 0x4002, nettlp(2, tlp_mrd32(2, 0xF7000000, req=CPL_ID))),
        ("libtlp", 0x4002, nettlp(3, tlp_cpld(2, CPL_ID, b"\x01\x00\x00\x00", cpl=REQ_ID))),
        # a second DMA read, tag 3
        ("libtlp", 0x3003, nettlp(4, tlp_mrd32(3, 0x10000080))),
        ("adapter", 0x3003, nettlp(3, tlp_cpld(3, REQ_ID, b"\x55\x66\x77\x88"))),
    ]


def datagrams4():
    out = []
    for sender, port, payload in exchange():
        src, dst = (LIBTLP4, ADAPTER4) if sender == "libtlp" else (ADAPTER4, LIBTLP4)
        out.append(ipv4(src, dst, 17, udp(port, port, payload)))
    return out


def datagrams6():
    out = []
    for sender, port, payload in exchange():
        src, dst = (LIBTLP6, ADAPTER6) if sender == "libtlp" else (ADAPTER6, LIBTLP6)
        out.append(ipv6(src, dst, 17, udp(port, port, payload)))
    return out


def interleave(pcie, other):
    """pcie packets with the others after the 1st, 3rd and 5th."""
    out, k = [], 0
    for i, p in enumerate(pcie):
        out.append(p)
        if i % 2 == 0 and k < len(other):
            out.append(other[k])
            k += 1
    return out + other[k:]


def write_pcap(path, linktype, packets, nano=False, snaplen=65535, orig=None):
    """packets: bytes each; 1 us apart from t = 1000 s (a calendar time)."""
    magic = 0xA1B23C4D if nano else 0xA1B2C3D4
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", magic, 2, 4, 0, 0, snaplen, linktype))
        for i, p in enumerate(packets):
            frac = (i + 1) * (1000 if nano else 1)
            wire = orig[i] if orig and orig[i] else len(p)
            f.write(struct.pack("<IIII", 1000, frac, len(p), wire) + p)


def write_pcapng(path, linktype, packets):
    def block(btype, body):
        body += b"\0" * (-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)

    shb = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    # if_tsresol 9 (nanoseconds), then opt_endofopt
    idb = block(1, struct.pack("<HHI", linktype, 0, 65535) +
                struct.pack("<HHB3x", 9, 1, 9) + struct.pack("<HH", 0, 0))
    with open(path, "wb") as f:
        f.write(shb + idb)
        for i, p in enumerate(packets):
            t = 1000 * 10**9 + (i + 1) * 1000
            f.write(block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(p),
                                         len(p)) + p))


def sll2(etype, payload):
    return struct.pack(">HHIHBB8s", etype, 0, 1, 1, 4, 6, bytes.fromhex("020000000003")) + payload


def null(af, payload):
    return struct.pack("<I", af) + payload


# DAMAGE: one kind of damage per packet, in this order (test-net.sh checks
# each message):
#   1 the MRd, good
#   2 its completion with a wrong IPv4 header checksum: malformed
#   3 a datagram to 0x3001 of 4 bytes: shorter than the NetTLP header
#   4 the first fragment of a NetTLP datagram: lost, reported
#   5 a later fragment (no ports): not PCIe as far as it shows
#   6 a datagram cut by the snapshot length: a truncated TLP record
#   7 a frame cut inside its IPv4 header: malformed
#   8 ARP: not PCIe
def damage():
    good = datagrams4()
    pk = [ether(0x0800, good[0]),
          ether(0x0800, ipv4(ADAPTER4, LIBTLP4, 17, good[1][20:], bad_sum=True)),
          ether(0x0800, ipv4(LIBTLP4, ADAPTER4, 17, udp(0x3001, 0x3001, b"\0\1\0\0"))),
          ether(0x0800, ipv4(LIBTLP4, ADAPTER4, 17, good[2][20:36], frag=0x2000)),
          ether(0x0800, ipv4(LIBTLP4, ADAPTER4, 17, good[2][36:], frag=0x0002)),
          ether(0x0800, good[2]),
          ether(0x0800, good[5])[:14 + 12],
          arp()]
    orig = [None] * len(pk)
    # packet 6 cut: 6 bytes of the MWr's data missing
    orig[5] = len(pk[5])
    pk[5] = pk[5][:-2]
    return pk, orig


# the link types of fuzz_net.c, by its first byte (modulo their number)
FUZZ_LINKTYPES = [0, 1, 12, 14, 101, 108, 113, 228, 229, 276]


def seed(linktype, packets):
    out = bytes([FUZZ_LINKTYPES.index(linktype)])
    for p in packets:
        out += struct.pack(">H", len(p)) + p
    return out


def read_pcap(path):
    """(linktype, [packet bytes]) of a little-endian classic pcap."""
    data = open(path, "rb").read()
    linktype = struct.unpack("<I", data[20:24])[0]
    off, out = 24, []
    while off + 16 <= len(data):
        incl = struct.unpack("<I", data[off + 8:off + 12])[0]
        out.append(data[off + 16:off + 16 + incl])
        off += 16 + incl
    return linktype, out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    p = os.path.join
    eth4 = [arp()] + interleave([ether(0x0800, d) for d in datagrams4()],
                                [ether(0x0800, o) for o in others4()])
    write_pcap(p(outdir, "eth4.pcap"), 1, eth4)
    eth6 = interleave([ether(0x86DD, d, vlan=10) for d in datagrams6()],
                      [ether(0x0800, o, vlan=10) for o in others4()])
    write_pcapng(p(outdir, "eth6.pcapng"), 1, eth6)
    s2 = interleave([sll2(0x0800, d) for d in datagrams4()], [sll2(0x0800, o) for o in others4()])
    write_pcap(p(outdir, "sll2.pcap"), 276, s2, nano=True)
    nl = [null(2, d) for d in datagrams4()] + [null(30, datagrams6()[2])]
    write_pcap(p(outdir, "null.pcap"), 0, nl)
    # a near miss: RTP between two ports both inside NetTLP's range
    # (16384 -> 16386): not NetTLP, whose one port is the same at both ends
    rtp = struct.pack(">BBHII", 0x80, 0, 1, 160, 0x1234) + b"\0" * 8
    write_pcap(p(outdir, "rtp.pcap"), 1,
               [ether(0x0800, ipv4(LIBTLP4, ADAPTER4, 17, udp(16384, 16386, rtp)))] * 3)
    pk, orig = damage()
    write_pcap(p(outdir, "damage.pcap"), 1, pk, orig=orig)
    # fuzz seeds: the link type's index in FUZZ_LINKTYPES, the packets
    with open(p(outdir, "seed-eth4.bin"), "wb") as f:
        f.write(seed(1, eth4))
    with open(p(outdir, "seed-sll2.bin"), "wb") as f:
        f.write(seed(276, s2))
    with open(p(outdir, "seed-null.bin"), "wb") as f:
        f.write(seed(0, nl))
    with open(p(outdir, "seed-damage.bin"), "wb") as f:
        f.write(seed(1, pk))
    # and the Warp Pipe captures of make-warp-pipe.py beside this script,
    # so that the fuzzer starts inside TCP reassembly too
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("eth4", "null", "sll2", "lost"):
        src = p(here, "warp-pipe-%s.pcap" % name)
        if os.path.exists(src):
            lt, pkts = read_pcap(src)
            with open(p(outdir, "seed-warp-%s.bin" % name), "wb") as f:
                f.write(seed(lt, pkts))


if __name__ == "__main__":
    main()
