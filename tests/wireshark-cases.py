#!/usr/bin/env python3
"""wireshark-cases.py OUT.pcap [LINKTYPE]: writes a pcap in the dllpcheck
encapsulation (capture-format.md section 1) of the records a text trace
cannot give: damaged pseudo-headers, records of the wrong size, records
truncated by the snapshot length, NO_SEQ / NO_CRC / PHY_ERROR flags, the
DLLP and TLP encodings the symbolic form does not write (reserved types,
MR-IOV, prefixes in the wrong order, Steering Tags, reserved message
routing, bad ECRC...), then a few hundred pseudo-random records from a
fixed seed.  tests/test-wireshark.sh decodes it with dllpcheck and with
the Lua dissector and compares the two.  The CRCs are computed here from
the spec digest's definitions [2.2, 3.2, 3.3], independently of the C
and the Lua code."""
import random
import struct
import sys
import zlib

LINKTYPE_USER0 = 147


def crc16(content):
    """DLLP CRC-16 [2.2]: reflected D008h, seed FFFFh, complement low byte first."""
    reg = 0xFFFF
    for b in content:
        reg ^= b
        for _ in range(8):
            reg = (reg >> 1) ^ 0xD008 if reg & 1 else reg >> 1
    crc = ~reg & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


def lcrc(seq_and_tlp):
    """LCRC [3.2]: zlib's CRC-32, least significant byte first."""
    return struct.pack("<I", zlib.crc32(seq_and_tlp) & 0xFFFFFFFF)


def ecrc(tlp):
    """ECRC [3.3]: End-End prefixes, header (Type[0], EP taken as 1), data."""
    pos, covered = 0, b""
    while pos + 4 <= len(tlp) and tlp[pos] >> 5 == 4:
        if tlp[pos] & 0x10:
            covered += tlp[pos:pos + 4]
        pos += 4
    dw0 = bytes([tlp[pos] | 1, tlp[pos + 1], tlp[pos + 2] | 0x40, tlp[pos + 3]])
    return lcrc(covered + dw0 + tlp[pos + 4:])


class Pcap:
    def __init__(self, linktype):
        self.out = bytearray(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, linktype))
        self.ns = 1000

    def raw(self, data, wire_len=None):
        """One record: data as captured, wire_len as the header's len."""
        self.ns += 10
        wire = len(data) if wire_len is None else wire_len
        self.out += struct.pack("<IIII", self.ns // 10**9, self.ns % 10**9, len(data), wire)
        self.out += data

    def rec(self, kind, payload, up=False, flags=0, link=0, cut=None):
        """A record of ours; cut keeps only that many payload bytes."""
        data = bytes([0xD1, kind, flags | (1 if up else 0), link]) + payload
        if cut is None:
            self.raw(data)
        else:
            self.raw(data[:4 + cut], len(data))


def dllp(content4, good=True):
    crc = crc16(content4)
    return content4 + (crc if good else bytes([crc[0] ^ 0x40, crc[1]]))


def tlp(tlp_bytes, seq=5, seq_hi=0, nullify=False, bad=False, has_seq=True, has_lcrc=True):
    s = bytes([(seq_hi << 4) | (seq >> 8 & 0xF), seq & 0xFF])
    c = lcrc(s + tlp_bytes)
    if nullify:
        c = bytes(b ^ 0xFF for b in c)
    if bad:
        c = bytes([c[0] ^ 1]) + c[1:]
    return (s if has_seq else b"") + tlp_bytes + (c if has_lcrc else b"")


def hdr(fmt, typ, length=1, tc=0, td=0, ep=0, attr=0, th=0, t9=0, t8=0, at=0):
    return bytes([fmt << 5 | typ, t9 << 7 | tc << 4 | t8 << 3 | (attr >> 2 & 1) << 2 | th,
                  td << 7 | ep << 6 | (attr & 3) << 4 | at << 2 | (length >> 8 & 3), length & 0xFF])


def data(n_dw):
    return bytes(i & 0xFF for i in range(4 * n_dw))


def main():
    out = sys.argv[1]
    linktype = int(sys.argv[2]) if len(sys.argv) > 2 else LINKTYPE_USER0
    p = Pcap(linktype)
    D, T, E = 1, 2, 3
    NO_CRC, PHY, NO_SEQ = 2, 4, 8

    # pseudo-header damage (capture-format.md section 1)
    p.raw(b"\xD1\x01")                                   # shorter than the pseudo-header
    p.rec(D, dllp(b"\x00\x00\x00\x01"), link=3)
    p.raw(b"\xD0\x01\x00\x00" + dllp(b"\x00\x00\x00\x01"))  # version
    p.raw(b"\xD1\x00\x00\x00" + dllp(b"\x00\x00\x00\x01"))  # kind 0
    p.raw(b"\xD1\x04\x00\x00" + dllp(b"\x00\x00\x00\x01"))  # kind 4
    p.raw(b"\xD1\x01\x10\x00" + dllp(b"\x00\x00\x00\x01"))  # reserved flag bits
    # sizes
    p.rec(D, dllp(b"\x00\x00\x00\x01")[:5])              # DLLP of 5 bytes
    p.rec(D, dllp(b"\x00\x00\x00\x01") + b"\x00")        # 7 bytes
    p.rec(D, b"\x00\x00\x00\x01\x00\x00", flags=NO_CRC)  # NO_CRC with a CRC
    p.rec(D, b"\x40\x08\x01\x00", flags=NO_CRC, up=True)  # 4-byte form
    p.rec(E, b"\x01\x00\x00")                            # event of 3 bytes
    p.rec(E, b"\x01\x00\x00\x00\x00")                    # 5 bytes
    p.rec(T, tlp(hdr(0, 0))[:17])                        # TLP below the minimum
    p.rec(T, b"\x00" * 4163)                             # above the maximum
    # events
    for code, arg in ((1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 1), (6, 7)):
        p.rec(E, bytes([code, arg, 0, 0]), up=code == 5, link=code * 30)
    p.rec(E, b"\x06\x00\x00\x00")                        # vc-enable VC0
    p.rec(E, b"\x06\x08\x00\x00")                        # vc-enable VC8
    p.rec(E, b"\x01\x02\x00\x00")                        # link-up with an argument
    p.rec(E, b"\x00\x00\x00\x00")                        # code 0
    p.rec(E, b"\x07\x00\x00\x00")                        # code 7
    p.rec(E, b"\x04\x00\xAB\xCD", link=255)              # reserved bytes set
    p.rec(E, b"\x01\x00\x00\x00", cut=2)                 # truncated event
    # DLLPs the symbolic form does not write [1.2]
    for content in (b"\x48\x00\x40\x40", b"\xC9\x01\x02\x03", b"\x03\x12\x34\x56",
                    b"\x04\x00\x00\x00", b"\x28\x00\x00\x01", b"\xB3\x12\x34\x56",
                    b"\xF5\x7F\xFF\xFF", b"\x77\x00\x00\x10", b"\x20\x00\x00\x01",
                    b"\x24\x80\x00\x00", b"\x02\xFF\xFF\xFF", b"\x02\x00\x00\x02",
                    b"\x00\xFF\xF1\x23", b"\x10\x00\x0F\xFF", b"\xFF\xFF\xFF\xFF",
                    b"\x87\xFF\xFF\xFF", b"\xE7\x40\x10\x00", b"\x31\xDE\xAD\xBE"):
        p.rec(D, dllp(content), up=content[0] & 1 == 1)
    p.rec(D, dllp(b"\x80\x01\x00\x10", good=False), flags=PHY)
    p.rec(D, dllp(b"\x80\x01\x00\x10"), cut=3)           # truncated DLLP
    p.rec(D, dllp(b"\x80\x01\x00\x10"), cut=0)           # nothing after the header
    p.rec(D, b"\x00\x00\x00\x05", flags=NO_CRC | PHY, up=True)

    mrd = hdr(0, 0, 4) + b"\x01\x00\x07\xFF" + b"\xF7\xD0\x00\x03"
    # TLP flags: NO_SEQ, NO_CRC, both; truncated; PHY_ERROR
    p.rec(T, tlp(mrd, has_seq=False), flags=NO_SEQ)
    p.rec(T, tlp(mrd, has_lcrc=False), flags=NO_CRC)
    p.rec(T, tlp(mrd, has_seq=False, has_lcrc=False), flags=NO_SEQ | NO_CRC)
    p.rec(T, tlp(mrd, seq_hi=0xA, seq=0xFFF), flags=PHY, up=True)
    p.rec(T, tlp(mrd, bad=True))
    p.rec(T, tlp(mrd, nullify=True))
    mwr = hdr(2, 0, 8, tc=7, attr=7) + b"\x12\x34\x56\xF3" + b"\x10\x00\x00\x00" + data(8)
    for cut in (0, 1, 2, 5, 9, 14, 20, 40):
        p.rec(T, tlp(mwr), cut=cut)
    p.rec(T, tlp(mwr, has_seq=False), flags=NO_SEQ, cut=7)
    # prefixes [4.4]: Local then End-End (fine), End-End then Local, five
    # End-End, nine in all, a prefix with nothing after it
    local, e2e = b"\x8E\x00\x00\x01", b"\x91\x00\x12\x34"
    p.rec(T, tlp(local + e2e + mrd))
    p.rec(T, tlp(e2e + local + mrd))
    p.rec(T, tlp(e2e * 5 + mrd))
    p.rec(T, tlp(local * 9 + mrd))
    p.rec(T, tlp(e2e * 3))
    p.rec(T, tlp(e2e * 3 + b"\x00\x00"))
    # header fields [4.1]: 10-bit tags, TH with a Steering Tag, AT, attr,
    # reserved Fmt/Type, reserved routing, Length disagreeing, ECRC
    p.rec(T, tlp(hdr(1, 0, 2, th=1, t9=1, t8=1, at=2) + b"\xAB\xCD\x42\x99" +
                 b"\x00\x00\x00\x01\x80\x00\x00\x07"))
    p.rec(T, tlp(hdr(3, 0x1B, 1, th=1) + b"\x01\x00\x01\x5A" + b"\x00\x00\x00\x01" +
                 b"\x20\x00\x00\x00" + data(1)))
    p.rec(T, tlp(hdr(5, 0, 1) + b"\x00" * 8))
    p.rec(T, tlp(hdr(1, 0x16, 0) + b"\x01\x00\x00\x20" + b"\x00" * 8))
    p.rec(T, tlp(hdr(1, 0x17, 0) + b"\x01\x00\x00\x20" + b"\x00" * 8))
    p.rec(T, tlp(hdr(3, 0x12, 1) + b"\x01\x00\x00\x7E" + b"\x00\x01\x00\x00" + data(1)))
    p.rec(T, tlp(hdr(1, 0x10, 0) + b"\x01\x00\x00\x44" + b"\x00" * 8))
    p.rec(T, tlp(hdr(2, 0, 2) + b"\x01\x00\x00\xFF" + b"\x00\x00\x10\x00" + data(1)))
    p.rec(T, tlp(hdr(2, 0, 1, td=1) + b"\x01\x00\x00\x0F" + b"\x00\x00\x10\x00" + data(1)))
    mwr_td = hdr(2, 0, 1, td=1, ep=1) + b"\x01\x00\x00\x0F" + b"\x00\x00\x10\x00" + data(1)
    p.rec(T, tlp(mwr_td + ecrc(mwr_td)))
    p.rec(T, tlp(e2e + local + mwr_td + ecrc(local + e2e + mwr_td)))
    p.rec(T, tlp(local + e2e + mwr_td + ecrc(local + e2e + mwr_td)))
    cfg1 = hdr(0, 5, 1, td=1) + b"\x01\x00\x00\x0F" + b"\x02\x08\x0F\xFF"
    p.rec(T, tlp(cfg1 + ecrc(cfg1)))
    p.rec(T, tlp(cfg1 + b"\x00\x00\x00\x00"))
    cpl = hdr(0, 0x0A, 0) + b"\x01\x00\x70\x00" + b"\x00\x00\x05\x7F"
    p.rec(T, tlp(cpl))
    p.rec(T, tlp(hdr(2, 0x0B, 1) + b"\x01\x00\xD0\x04" + b"\x00\x00\x05\x7F" + data(1)))
    p.rec(T, tlp(hdr(0, 0x02, 1, ep=1) + b"\x01\x00\x05\x0F" + b"\xFF\xFF\xFF\xFF", seq=0),
          link=17, up=True)
    p.rec(T, tlp(hdr(3, 0x0E, 8) + b"\x01\x00\x06\x00" + b"\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFC" +
                 data(8)))
    p.rec(T, tlp(hdr(2, 0x0D, 1) + b"\x01\x00\x06\x00" + b"\x00\x00\x10\x00" + data(1)))
    p.rec(T, tlp(hdr(2, 0, 0) + b"\x01\x00\x00\xFF" + b"\x10\x00\x00\x00" + data(1024)))

    # pseudo-random records from a fixed seed: valid pseudo-headers, sizes
    # near the limits, byte 0 of each packet biased to the real encodings
    rnd = random.Random(17)
    for _ in range(400):
        kind = rnd.choice((D, T, T, E))
        flags = rnd.choice((0, 0, 0, NO_CRC, PHY, NO_SEQ, NO_SEQ | NO_CRC)) | rnd.getrandbits(1)
        if kind == D:
            body = dllp(bytes(rnd.getrandbits(8) for _ in range(4)), good=rnd.random() < 0.8)
            if flags & NO_CRC:
                body = body[:4]
        elif kind == E:
            body = bytes([rnd.randrange(0, 8), rnd.randrange(0, 9), 0, 0])
        else:
            fmt = rnd.choice((0, 1, 2, 3, 3, 4, 5))
            typ = rnd.choice((0, 0, 1, 2, 4, 5, 0x0A, 0x0B, 0x0C, 0x0E, 0x10, 0x13, 0x14, 0x1B,
                              rnd.getrandbits(5)))
            n = rnd.choice((1, 2, 4, 16, rnd.randrange(0, 1024)))
            h = hdr(fmt, typ, n, tc=rnd.getrandbits(3), td=rnd.random() < 0.2,
                    ep=rnd.getrandbits(1), attr=rnd.getrandbits(3), th=rnd.getrandbits(1),
                    t9=rnd.getrandbits(1), t8=rnd.getrandbits(1))
            rest = bytes(rnd.getrandbits(8) for _ in range(12))
            if rnd.random() < 0.7:
                pay = data(n if fmt & 2 else 0)
            else:
                pay = data(rnd.randrange(0, 20))
            body = h + rest[:12 if fmt & 1 else 8] + pay
            if rnd.random() < 0.2:
                body = rnd.choice((local, e2e)) + body
            body = tlp(body, seq=rnd.getrandbits(12), nullify=rnd.random() < 0.1,
                       bad=rnd.random() < 0.1, has_seq=not flags & NO_SEQ,
                       has_lcrc=not flags & NO_CRC)
        cut = rnd.randrange(0, len(body)) if rnd.random() < 0.1 else None
        p.rec(kind, body, flags=flags, link=rnd.choice((0, 0, 1, 255)), cut=cut)

    with open(out, "wb") as fp:
        fp.write(p.out)


if __name__ == "__main__":
    main()
