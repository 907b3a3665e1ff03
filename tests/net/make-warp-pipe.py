#!/usr/bin/env python3
"""make-warp-pipe.py: Warp Pipe (antmicro/warp-pipe, PCIe over TCP) captures
for the tests, built from the format's description (warp-pipe's
docs/source/pcie-over-tcp.md and inc/warppipe/proto.h: each frame a
protocol byte, 2 DLLP or 3 TLP, then the DLLP with its CRC-16, or the
sequence field, the TLP and its LCRC; server port 2115).

    tests/net/make-warp-pipe.py SRC.pcap OUTDIR [SEEDDIR]

SRC.pcap is a capture in dllpcheck's own encapsulation (LINKTYPE_USER0,
capture-format.md section 1; samples/clean-init.pcap): its DLLP and TLP
records, as dllpcheck's encoder built them, are the frames of one Warp
Pipe connection (link events have no Warp Pipe form and are left out).
The server (port 2115) sends the records of direction down, the client
those of direction up.  The TCP session: the handshake (MSS option), the
frames one segment each, except: a DLLP split over two segments, two TLPs
merged into one, a retransmitted segment (identical), an out-of-order pair
(a TLP's tail captured before its head), a completion split over three
segments, two DLLPs and the head of a TLP merged into one segment, then
FIN both ways.  The server's sequence numbers wrap past 2^32 on the way.

Written to OUTDIR:
    warp-pipe-eth4.pcap    Ethernet, IPv4, pcap (nanosecond)
    warp-pipe-eth6.pcapng  Ethernet, IPv6, pcapng (if_tsresol 9)
    warp-pipe-null.pcap    BSD loopback (LINKTYPE_NULL), IPv4
    warp-pipe-sll2.pcap    Linux cooked v2 (LINKTYPE_LINUX_SLL2), IPv4
    warp-pipe-lost.pcap    Ethernet, IPv4, the middle segment of the
                           completion not captured (the server's next
                           segment acknowledges it)
and, with SEEDDIR, fuzz seeds for tests/fuzz/fuzz_warp_pipe (its input
format: see fuzz_warp_pipe.c) of the same sessions.
"""
import os
import struct
import sys

PORT = 2115
CLIENT_PORT = 40123
CLIENT_ISN = 0x10000000
SERVER_ISN = 0xFFFFFF80  # wraps after 128 bytes
T_BASE = 1700000000  # seconds

FIN, SYN, RST, PSH, ACK = 0x01, 0x02, 0x04, 0x08, 0x10


def read_records(path):
    """(time_ns, dir, frame) of each DLLP/TLP record of a USER0 pcap."""
    data = open(path, 'rb').read()
    magic = struct.unpack('<I', data[:4])[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        e = '<'
    else:
        e = '>'
        magic = struct.unpack('>I', data[:4])[0]
    nano = magic == 0xA1B23C4D
    linktype = struct.unpack(e + 'I', data[20:24])[0]
    if linktype != 147:
        sys.exit('%s: link type %d, not LINKTYPE_USER0' % (path, linktype))
    at = 24
    out = []
    while at + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(e + 'IIII', data[at:at + 16])
        rec = data[at + 16:at + 16 + incl]
        at += 16 + incl
        t = (sec * 1000000000 + (frac if nano else frac * 1000))
        if len(rec) < 4 or rec[0] != 0xD1:
            sys.exit('%s: not the dllpcheck pseudo-header' % path)
        kind, flags = rec[1], rec[2]
        if kind == 1:
            frame = b'\x02' + rec[4:]
        elif kind == 2:
            frame = b'\x03' + rec[4:]
        else:
            continue  # link events: no Warp Pipe form
        out.append((t, 'up' if flags & 1 else 'down', frame))
    return out


class Seg:
    def __init__(self, t, server, flags, payload=b'', seq=None):
        self.t, self.server, self.flags, self.payload = t, server, flags, payload
        self.seq = seq  # set by the session for data
        self.ack = 0


def session(recs, lose_middle=False):
    """The segments in capture order, seq/ack filled."""
    frames = [(t, d == 'down', f) for t, d, f in recs]
    segs = []
    # handshake
    segs.append(Seg(10, False, SYN))
    segs.append(Seg(20, True, SYN | ACK))
    segs.append(Seg(30, False, ACK))
    i = 0
    plan = []  # (t, server, payload, tag) in send order per side
    while i < len(frames):
        t, server, f = frames[i]
        if i == 6:  # a DLLP split over two segments
            plan += [(t, server, f[:3], None), (t + 5, server, f[3:], None)]
        elif i == 12:  # two TLPs merged
            plan.append((t, server, f + frames[i + 1][2], None))
            i += 1
        elif i == 14:  # sent, then retransmitted as it was
            plan += [(t, server, f, None), (t + 50, server, f, 'retransmit')]
        elif i == 15:  # split; the tail captured before the head
            plan += [(t + 10, server, f[:5], 'head'), (t, server, f[5:], 'tail')]
        elif i == 17:  # a completion over three segments
            plan += [(t, server, f[:30], None), (t + 10, server, f[30:60], 'middle'),
                     (t + 20, server, f[60:], None)]
        elif i == 19:  # two DLLPs and the head of a TLP merged
            g = frames[i + 2][2]
            plan += [(t, server, f + frames[i + 1][2] + g[:10], None),
                     (frames[i + 2][0], server, g[10:], None)]
            i += 2
        else:
            plan.append((t, server, f, None))
        i += 1
    # sequence numbers in send order, per side
    nxt = {False: CLIENT_ISN + 1, True: SERVER_ISN + 1}
    sent = []
    for t, server, payload, tag in plan:
        if tag == 'retransmit':
            seq = sent[-1][3]
        else:
            seq = nxt[server]
            nxt[server] = (nxt[server] + len(payload)) & 0xFFFFFFFF
        sent.append((t, server, payload, seq, tag))
    # capture order: the out-of-order pair swapped (tail first)
    order = []
    k = 0
    while k < len(sent):
        if sent[k][4] == 'head':
            order += [sent[k + 1], sent[k]]
            k += 2
            continue
        order.append(sent[k])
        k += 1
    for t, server, payload, seq, tag in order:
        s = Seg(t, server, ACK | PSH, payload, seq)
        s.tag = tag
        segs.append(s)
    end = max(s.t for s in segs) + 1000
    segs.append(Seg(end, False, FIN | ACK))
    segs.append(Seg(end + 10, True, FIN | ACK))
    segs.append(Seg(end + 20, False, ACK))
    # the numbers of the control segments, and every ACK: what the other
    # side has sent so far (it has received it, captured or not)
    nxt = {False: CLIENT_ISN, True: SERVER_ISN}
    got = {False: None, True: None}
    for s in segs:
        if s.flags & SYN:
            s.seq = nxt[s.server]
            nxt[s.server] = (s.seq + 1) & 0xFFFFFFFF
        elif s.seq is None:
            s.seq = nxt[s.server]
        else:
            end_seq = (s.seq + len(s.payload)) & 0xFFFFFFFF
            if ((end_seq - nxt[s.server]) & 0xFFFFFFFF) < 0x80000000:
                nxt[s.server] = end_seq
        if s.flags & FIN:
            nxt[s.server] = (s.seq + 1) & 0xFFFFFFFF
        other = got[not s.server]
        if s.flags & ACK and other is not None:
            s.ack = other
        got[s.server] = nxt[s.server]
    if lose_middle:
        segs = [s for s in segs if getattr(s, 'tag', None) != 'middle']
    return segs


def csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def tcp(seg, src, dst, pseudo):
    opts = struct.pack('!BBH', 2, 4, 1460) if seg.flags & SYN else b''
    sport, dport = (PORT, CLIENT_PORT) if seg.server else (CLIENT_PORT, PORT)
    off = (20 + len(opts)) // 4
    hdr = struct.pack('!HHIIBBHHH', sport, dport, seg.seq, seg.ack if seg.flags & ACK else 0,
                      off << 4, seg.flags, 65535, 0, 0) + opts
    body = hdr + seg.payload
    c = csum(pseudo(len(body)) + body)
    return body[:16] + struct.pack('!H', c) + body[18:]


ip_id = [0]


def ipv4(seg):
    a, b = bytes([10, 0, 0, 1]), bytes([10, 0, 0, 2])
    src, dst = (b, a) if seg.server else (a, b)
    seg_bytes = tcp(seg, src, dst, lambda n: src + dst + struct.pack('!BBH', 0, 6, n))
    ip_id[0] += 1
    hdr = struct.pack('!BBHHHBBH4s4s', 0x45, 0, 20 + len(seg_bytes), ip_id[0], 0x4000, 64, 6, 0,
                      src, dst)
    hdr = hdr[:10] + struct.pack('!H', csum(hdr)) + hdr[12:]
    return hdr + seg_bytes


def ipv6(seg):
    a = bytes.fromhex('fd000000000000000000000000000001')
    b = bytes.fromhex('fd000000000000000000000000000002')
    src, dst = (b, a) if seg.server else (a, b)
    seg_bytes = tcp(seg, src, dst, lambda n: src + dst + struct.pack('!IxxxB', n, 6))
    return struct.pack('!IHBB16s16s', 0x60000000, len(seg_bytes), 6, 64, src, dst) + seg_bytes


MAC_C, MAC_S = bytes.fromhex('020000000001'), bytes.fromhex('020000000002')


def ether(seg, ip, ethertype):
    src, dst = (MAC_S, MAC_C) if seg.server else (MAC_C, MAC_S)
    return dst + src + struct.pack('!H', ethertype) + ip


def link_frame(kind, seg):
    if kind == 'eth4':
        return ether(seg, ipv4(seg), 0x0800)
    if kind == 'eth6':
        return ether(seg, ipv6(seg), 0x86DD)
    if kind == 'null':
        return struct.pack('<I', 2) + ipv4(seg)  # AF_INET, host (little-endian) order
    if kind == 'sll2':
        # protocol, reserved, interface index, ARPHRD_LOOPBACK, packet type
        # (0 to us, 4 outgoing), address length, address
        return (struct.pack('!HHIHBB', 0x0800, 0, 1, 772, 0 if seg.server else 4, 6) +
                (MAC_S if seg.server else MAC_C) + b'\0\0' + ipv4(seg))
    raise ValueError(kind)


LINKTYPE = {'eth4': 1, 'eth6': 1, 'null': 0, 'sll2': 276}


def write_pcap(path, linktype, packets):
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xA1B23C4D, 2, 4, 0, 0, 262144, linktype))
        for t, data in packets:
            f.write(struct.pack('<IIII', T_BASE + t // 1000000000, t % 1000000000, len(data),
                                len(data)))
            f.write(data)


def pad4(b):
    return b + b'\0' * (-len(b) % 4)


def block(btype, body):
    n = 12 + len(body)
    return struct.pack('<II', btype, n) + body + struct.pack('<I', n)


def write_pcapng(path, linktype, packets):
    with open(path, 'wb') as f:
        f.write(block(0x0A0D0D0A, struct.pack('<IHHq', 0x1A2B3C4D, 1, 0, -1)))
        opts = struct.pack('<HH', 9, 1) + pad4(b'\x09') + struct.pack('<HH', 0, 0)
        f.write(block(1, struct.pack('<HHI', linktype, 0, 262144) + opts))
        for t, data in packets:
            ts = T_BASE * 1000000000 + t
            body = struct.pack('<IIIII', 0, ts >> 32, ts & 0xFFFFFFFF, len(data), len(data))
            f.write(block(6, body + pad4(data)))


def fuzz_seed(segs, opt=0):
    """The session in fuzz_warp_pipe's input format."""
    out = bytearray([opt])
    nxt = {False: 0, True: 0}
    for s in segs:
        fl = (4 if s.server else 0) | (8 if s.flags & SYN else 0) | (0x10 if s.flags & FIN else 0)
        fl |= 0x40 if s.flags & ACK else 0
        out.append(fl)
        d = (s.seq - nxt[s.server]) & 0xFFFFFFFF
        d = d - (1 << 32) if d >= 1 << 31 else d
        d = max(-32768, min(32767, d))
        out += struct.pack('!h', d)
        seq = (nxt[s.server] + d) & 0xFFFFFFFF
        if s.flags & ACK:
            a = (s.ack - nxt[not s.server]) & 0xFFFFFFFF
            a = a - (1 << 32) if a >= 1 << 31 else a
            out += struct.pack('!h', max(-32768, min(32767, a)))
        out += struct.pack('!H', len(s.payload)) + s.payload
        nxt[s.server] = (seq + (1 if s.flags & SYN else 0) + len(s.payload)) & 0xFFFFFFFF
    return bytes(out)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    recs = read_records(sys.argv[1])
    outdir = sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    t0 = recs[0][0] - 100 if recs else 0
    recs = [(t - t0 if t >= t0 else 0, d, f) for t, d, f in recs]
    clean, lost = session(recs), session(recs, lose_middle=True)
    for name, kind, segs, ng in (('warp-pipe-eth4.pcap', 'eth4', clean, False),
                                 ('warp-pipe-eth6.pcapng', 'eth6', clean, True),
                                 ('warp-pipe-null.pcap', 'null', clean, False),
                                 ('warp-pipe-sll2.pcap', 'sll2', clean, False),
                                 ('warp-pipe-lost.pcap', 'eth4', lost, False)):
        ip_id[0] = 0
        packets = [(s.t, link_frame(kind, s)) for s in segs]
        (write_pcapng if ng else write_pcap)(os.path.join(outdir, name), LINKTYPE[kind], packets)
    if len(sys.argv) == 4:
        seeds = sys.argv[3]
        os.makedirs(seeds, exist_ok=True)
        for name, data in (('clean.bin', fuzz_seed(clean)), ('lost.bin', fuzz_seed(lost)),
                           ('clean-up.bin', fuzz_seed(clean, 1))):
            with open(os.path.join(seeds, name), 'wb') as f:
                f.write(data)


if __name__ == '__main__':
    main()
