#!/usr/bin/env python3
"""make-small-vcd.py: writes tests/vcd/small-x1.vcd, the hand-sized VCD of
the lane reader's end-to-end test (tests/test-vcd.sh), from the first
records of samples/clean-init.pcap.

Run once, by hand, where ../shared/vectors/phy_ref.py exists (its 8b/10b
encoder and scrambler are the checked reference); the VCD is committed,
so the test needs neither.  Usage: make-small-vcd.py PCAP PHY_REF_DIR OUT

Each direction is one lane (x1) of 10-bit code groups, 2.5 GT/s (one
symbol each 4 ns): TS1 x4 and TS2 x4 ordered sets, logical idle, then
each record's packet (SDP ... END or STP ... END) with idle between,
and a SKP ordered set.  The clock symclk rises every 4 ns at the same
timestamp as the data changes, so each edge carries the symbol written
at the edge before (the values just before the edge).  Dialect bits the
reader must skip: a $var string, a $var real, $comment in the changes.
"""
import struct
import sys

pcap, refdir, out = sys.argv[1:4]
sys.path.insert(0, refdir)
import phy_ref  # noqa: E402

COM, SKP, SDP, STP, END = 0xBC, 0x1C, 0x5C, 0xFB, 0xFD


def records(path):
    data = open(path, "rb").read()
    off = 24
    while off + 16 <= len(data):
        _, _, cap, _ = struct.unpack("<IIII", data[off:off + 16])
        rec = data[off + 16:off + 16 + cap]
        off += 16 + cap
        yield rec[1], rec[2] & 1, rec[4:]


def ts(kind):
    # COM, link PAD, lane PAD, N_FTS, rate, control, 10 x D10.2 / D5.2
    body = [(0xF7, True), (0xF7, True), (0x10, False), (0x02, False), (0x00, False)]
    return [(COM, True)] + body + [(0x4A if kind == 1 else 0x45, False)] * 10


def training():
    s = []
    for _ in range(4):
        s += ts(1)
    for _ in range(4):
        s += ts(2)
    return s + [(0x00, False)] * 16  # logical idle


def packet(p):
    start = SDP if len(p) == 6 else STP
    return [(start, True)] + [(b, False) for b in p] + [(END, True)] + [(0x00, False)] * 4


def encode(syms):
    """Scramble (phy-digest.md section 2) and 8b/10b encode one lane."""
    sc = phy_ref.Scrambler8b10b()
    rd = -1
    codes = []
    in_os = 0
    for i, (b, k) in enumerate(syms):
        if k and b == COM:
            sc.reset()
            in_os = 15 if i + 1 < len(syms) and (not syms[i + 1][1] or syms[i + 1][0] == 0xF7) else 0
            byte = b
        elif k and b == SKP:
            byte = b
        else:
            key = sc.key()
            if k or in_os:
                in_os = max(in_os - 1, 0)
                byte = b
            else:
                byte = b ^ key
        c, rd = phy_ref.enc8b10b(byte, k, rd)
        codes.append(c)
    return codes


# the records in file order: each packet starts no earlier than the one
# before it (in either direction), so the reader gives them back in order
syms = [training(), training()]
count = 0
for kind, d, payload in records(pcap):
    if kind not in (1, 2) or count == 16:
        continue
    other = len(syms[1 - d])
    if len(syms[d]) < other - 2:
        syms[d] += [(0x00, False)] * (other - 2 - len(syms[d]))
    syms[d] += packet(bytes(payload))
    count += 1
    if count == 4:
        syms[d] += [(COM, True), (SKP, True), (SKP, True), (SKP, True)]
n = max(len(syms[0]), len(syms[1])) + 8
lanes = [encode(s + [(0x00, False)] * (n - len(s))) for s in syms]

with open(out, "w") as f:
    f.write("$date\n  made by tests/vcd/make-small-vcd.py\n$end\n")
    f.write("$version Icarus-style $end\n$timescale 1 ps $end\n")
    f.write("$scope module tb $end\n$var reg 1 # symclk $end\n")
    f.write("$var string 1 $ note $end\n$var real 64 % level $end\n")
    f.write("$scope module lanemon $end\n")
    f.write("$var wire 10 ! down_lane0 [9:0] $end\n$var wire 10 \" up_lane0 [9:0] $end\n")
    f.write("$upscope $end\n$upscope $end\n$enddefinitions $end\n")
    f.write("$comment the lanes start in electrical idle $end\n")
    f.write("#0\n$dumpvars\n0#\nbxxxxxxxxxx !\nbzzzzzzzzzz \"\nsidle $\nr0.5 %\n$end\n")
    prev = [None, None]
    for i in range(n):
        t = 4000 * (i + 1)
        f.write("#%d\n1#\n" % t)
        for ln, ident in ((0, "!"), (1, '"')):
            v = lanes[ln][i]
            if v != prev[ln]:
                f.write("b%s %s\n" % (format(v, "b"), ident))
                prev[ln] = v
        if i == 40:
            f.write("$comment training done $end\nr1.25 %\nsdata $\n")
        f.write("#%d\n0#\n" % (t + 2000))
