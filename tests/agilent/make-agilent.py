#!/usr/bin/env python3
"""make-agilent.py: small Agilent/Keysight analyzer exports (LINKTYPE_USER11)
built from the format's description (dllpcheck-capture(5), CAPTURES FROM
OTHER TOOLS; src/read/agilent_decoder.c), for tests/test-agilent.sh and
the fuzz seeds.

    make-agilent.py IN.pcap OUTDIR

IN.pcap is a capture of dllpcheck's own encapsulation (capture-format.md
section 1, e.g. samples/clean-init.pcap): its DLLPs and TLPs become one
analyzer record each, framed with their K symbols as on the lanes (SDP ...
END, STP ... END), link events dropped (the export has none).  Written:

  clean.pcap      every packet, the K-symbol bitmap on every other record,
                  the scrambled flag on every third, 4 PADs after END on
                  every fourth, SKP and TS1 ordered-set
                  records between, a nullified copy (EDB, LCRC inverted) of
                  the first TLP before it
  clean.pcapng    the same as pcapng (if_tsresol 9), as pad2pcapng writes it
  damage.pcap     the same with damage, one kind per record (see DAMAGE)
  seed.pcap       a short one for the fuzz corpus

Nothing but the standard library.
"""
import os
import struct
import sys

STP, SDP, END, EDB, COM, SKP, PAD = 0xFB, 0x5C, 0xFD, 0xFE, 0xBC, 0x1C, 0xF7
F_UP = 1 << 28
F_SCRAMBLED = 1 << 29  # the link scrambles; the symbols are descrambled
F_DISPARITY = 1 << 11
F_SYMBOL = 1 << 3
F_X4_2G5 = (1 << 8) | 2  # 2.5 GT/s, x4: informational


def read_ours(path):
    """(time_ns, dir, kind, payload) of each DLLP/TLP record."""
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    if magic not in (0xA1B2C3D4, 0xA1B23C4D):
        sys.exit(f"{path}: not a little-endian classic pcap")
    nano = magic == 0xA1B23C4D
    off, out = 24, []
    while off + 16 <= len(data):
        sec, frac, incl, _orig = struct.unpack("<IIII", data[off:off + 16])
        rec = data[off + 16:off + 16 + incl]
        off += 16 + incl
        if len(rec) < 4 or rec[0] != 0xD1 or rec[1] not in (1, 2):
            continue
        t = sec * 10**9 + (frac if nano else frac * 1000)
        out.append((t, rec[2] & 1, rec[1], rec[4:]))
    return out


def symbols(kind, payload, nullify=False):
    if kind == 1:
        return [(SDP, True)] + [(b, False) for b in payload] + [(END, True)]
    body = bytearray(payload)
    if nullify:
        for i in range(len(body) - 4, len(body)):
            body[i] ^= 0xFF
    return [(STP, True)] + [(b, False) for b in body] + [(EDB if nullify else END, True)]


def record(number, t_ns, up, syms, meta=True, flags=0, kmarks=()):
    """One analyzer record: header, symbols, and with meta the K-symbol and
    disparity bitmaps (2 bytes per 8 symbols).  kmarks: indices whose K bit
    is set as well (a K symbol inside a packet)."""
    sym = bytes(b for b, _ in syms)
    head_flags = flags | F_X4_2G5 | (F_UP if up else 0)
    off = len(sym) if meta else 0
    out = struct.pack("<IQHHI", number, t_ns, 0xFFFF, off, head_flags) + sym
    if meta:
        for blk in range(0, len(syms), 8):
            kbits = 0
            for i, (_, k) in enumerate(syms[blk:blk + 8]):
                if k or blk + i in kmarks:
                    kbits |= 1 << i
            out += bytes([kbits, 0])
    return out


def pcap(records, snaplen=65535):
    out = struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, snaplen, 158)
    for t, data, orig in records:
        kept = data[:snaplen]
        out += struct.pack("<IIII", t // 10**9, t % 10**9, len(kept), orig or len(data)) + kept
    return out


def pcapng(records):
    def block(btype, body):
        body += b"\0" * (-len(body) % 4)
        n = len(body) + 12
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)

    shb = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    # if_tsresol 9 (nanoseconds), as pad2pcapng.rs writes it
    idb = block(1, struct.pack("<HHI", 158, 0, 0) + struct.pack("<HHB3x", 9, 1, 9) + b"\0\0\0\0")
    out = shb + idb
    for t, data, _orig in records:
        out += block(6, struct.pack("<IIIII", 0, t >> 32, t & 0xFFFFFFFF, len(data), len(data)) + data)
    return out


def ordered_sets(n, t, up):
    skp = [(COM, True), (SKP, True), (SKP, True), (SKP, True)]
    ts1 = [(COM, True), (0xF7, True), (0xF7, True), (0x10, False), (0x02, False), (0x00, False)]
    ts1 += [(0x4A, False)] * 10
    return [record(n, t, up, skp), record(n + 1, t, up, ts1, meta=False)]


def build(pkts, damage):
    recs, n = [], 1
    first_tlp = True
    for i, (t, up, kind, payload) in enumerate(pkts):
        if i % 6 == 0:
            for r in ordered_sets(n, t, up):
                recs.append((t, r, 0))
                n += 1
        if kind == 2 and first_tlp:
            first_tlp = False
            # a nullified copy before the TLP itself: the data link layer drops it
            recs.append((t, record(n, t, up, symbols(2, payload, nullify=True)), 0))
            n += 1
        meta = i % 2 == 0
        syms = symbols(kind, payload)
        if i % 4 == 1:
            # PAD after END, as on a wide link: nothing
            syms = syms + [(PAD, True)] * 4
        d = damage.get(i)
        # the scrambled flag on every third: it changes nothing (the
        # analyzer's symbols are descrambled)
        flags, kmarks, orig = F_SCRAMBLED if i % 3 == 0 else 0, (), 0
        if d == "symbol-error":
            flags |= F_SYMBOL
        elif d == "disparity-error":
            flags |= F_DISPARITY
        elif d == "k-inside":
            meta, kmarks = True, (3,)
        elif d == "no-end":
            syms = [x for x in syms if x != (PAD, True)][:-1]
        elif d == "two-in-one":
            meta, syms = True, syms + syms  # the bitmap shows the first END
        rec = record(n, t, up, syms, meta=meta, flags=flags, kmarks=kmarks)
        if d == "truncated":
            # the capture kept 24 of the record's bytes (a snapshot length)
            rec, orig = rec[:24], len(rec)
        elif d == "garbage":
            rec = struct.pack("<IQHHI", n, t, 0, 0, F_X4_2G5) + bytes(range(0x31, 0x31 + 9))
        elif d == "bad-offset":
            rec = rec[:14] + struct.pack("<H", 0x7000) + rec[16:]
        elif d == "cut-header":
            rec = rec[:10]
        recs.append((t, rec, orig))
        n += 1
    return recs


# record index in the input -> damage (tests/agilent/damage.expected)
DAMAGE = {
    1: "symbol-error",  # a DLLP flagged: PHY_ERROR
    3: "disparity-error",  # a DLLP flagged: PHY_ERROR
    13: "disparity-error",  # a TLP flagged: PHY_ERROR
    5: "k-inside",  # a K symbol inside a DLLP: PHY_ERROR
    7: "no-end",  # a DLLP without END: PHY_ERROR
    9: "truncated",  # cut by the snapshot length: malformed
    11: "garbage",  # no STP/SDP/COM: malformed
    15: "bad-offset",  # metadata offset past the record: malformed
    19: "cut-header",  # fewer than 20 bytes: malformed
    21: "two-in-one",  # two packets in one record: the first kept, the rest reported
}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    pkts = read_ours(sys.argv[1])
    outdir = sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    clean = build(pkts, {})
    damaged = build(pkts, DAMAGE)
    files = {
        "clean.pcap": pcap(clean),
        "clean.pcapng": pcapng(clean),
        "damage.pcap": pcap(damaged),
        "seed.pcap": pcap(build(pkts[:8], {1: "symbol-error", 5: "k-inside", 7: "garbage"})),
    }
    for name, data in files.items():
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
