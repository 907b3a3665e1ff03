#!/usr/bin/env python3
"""crosscheck.py [PHY_REF_DIR]: tests/lanes/phy.py (what the encoder uses)
against the checked reference functions of ../shared/vectors/phy_ref.py
(phy-digest.md section 7), and the encoder's own output against the
digest's worked examples.  Exits 77 (skipped) when phy_ref.py is not there
(CI has no ../shared), 1 on a mismatch.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import phy  # noqa: E402

ref_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared",
                                                             "vectors")
if not os.path.exists(os.path.join(ref_dir, "phy_ref.py")):
    print("crosscheck: no phy_ref.py in %s: skipped" % ref_dir)
    sys.exit(77)
sys.path.insert(0, ref_dir)
import phy_ref  # noqa: E402

fails = 0
checks = 0


def check(cond, what):
    global fails, checks
    checks += 1
    if not cond:
        fails += 1
        print("FAIL:", what)


# 8b/10b: every D and K code at both disparities, and the RD after it
for rd in (-1, 1):
    for v in list(range(256)) + [phy.K | b for b in phy.VALID_K]:
        mine = phy.ENC[rd][v]
        ref = phy_ref.enc8b10b(v & 255, bool(v & phy.K), rd)
        check(mine == ref, "8b/10b %s RD%+d: %r != %r" % (phy_ref.dname(v & 255, v >= 256), rd,
                                                          mine, ref))
# decoding, errors included, for every 10-bit value
for rd in (-1, 1):
    for code in range(1024):
        b, k, rdo, err = phy_ref.dec8b10b(code, rd)
        v, rdo2, err2 = phy.dec8b10b(code, rd)
        check(err == err2 and rdo == rdo2 and (err == "code" or v == (b | (phy.K if k else 0))),
              "decode %03x RD%+d" % (code, rd))

# the 2.5/5 GT/s scrambler: the Base 2.1 keys the digest cites
keys = phy.keys8b10b(64)
s = phy_ref.Scrambler8b10b()
check(bytes(keys) == bytes(s.key() for _ in range(64)), "8b/10b scrambler keys")
check(keys[:8].hex(" ") == "ff 17 c0 14 b2 e7 02 82", "keys FF 17 C0 14 B2 E7 02 82")

# 128b/130b: per-lane seeds and the keys of 8 lanes x 256 symbols
for lane in range(16):
    check(phy.LANE_SEEDS[lane % 8] == phy_ref.lane_seed(lane), "seed lane %d" % lane)
    st, r = phy.LANE_SEEDS[lane % 8], phy_ref.Scrambler128b(lane=lane)
    mine, ref = bytearray(), bytearray()
    for _ in range(256):
        st, k = phy.step128(st)
        mine.append(k)
        ref.append(r.key())
    check(mine == ref and st == r.lfsr, "128b/130b keys lane %d" % lane)
st = phy.LANE_SEEDS[0]
first = bytearray()
for _ in range(8):
    st, k = phy.step128(st)
    first.append(k)
check(first.hex(" ") == "6c bd 94 98 53 c6 d8 ce", "lane 0 first keys 6C BD 94 98 ...")

# Frame CRC, parity and STP packing for every length
for L in range(2048):
    check(phy.frame_crc(L) == phy_ref.frame_crc(L), "frame CRC L=%d" % L)
    for seq in (0, 0x5A5, 0xFFF):
        check(phy.stp_token(L, seq) == phy_ref.stp_pack(L, seq), "STP L=%d seq=%d" % (L, seq))
check(phy.stp_token(1, 0) == phy.EDS128, "EDS is STP(Length 1)")
check(phy.SDP128 == phy_ref.TOKENS_128B["SDP"] and phy.EDB128 == phy_ref.TOKENS_128B["EDB"]
      and phy.EDS128 == phy_ref.TOKENS_128B["EDS"], "tokens")

# DLLP CRC and LCRC against pcie_crc.py when it is there
try:
    import pcie_crc
    import random
    rnd = random.Random(14)
    for _ in range(200):
        b = bytes(rnd.randrange(256) for _ in range(4))
        check(phy.dllp_crc(b) == pcie_crc.dllp_crc16_bytes(b), "DLLP CRC %s" % b.hex())
        t = bytes(rnd.randrange(256) for _ in range(rnd.choice((14, 18, 22, 30))))
        check(phy.lcrc(t) == pcie_crc.lcrc32_bytes(t), "LCRC")
except ImportError:
    pass

# The encoder's lanes against the digest's example: InitFC1-P 40 08 03 F0
# after COM SKP SKP SKP SDP goes on the wire as 57 C8 17 42 (x1, PIPE 8
# bits, no training: the file starts with a SKP ordered set).
import struct  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

with tempfile.TemporaryDirectory() as tmp:
    p = os.path.join(tmp, "in.pcap")
    with open(p, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 147))
        body = bytes([0xD1, 1, 0, 0, 0x40, 0x08, 0x03, 0xF0]) + phy.dllp_crc(b"\x40\x08\x03\xf0")
        f.write(struct.pack("<IIII", 0, 0, len(body), len(body)) + body)
    v = os.path.join(tmp, "out.vcd")
    subprocess.run([sys.executable, os.path.join(here, "pcap2vcd.py"), p, v, "--form", "pipe8",
                    "--lanes", "1", "--symbol-period"], check=True)
    # lane 0 of the down direction, sampled as the reader samples it
    import refread
    m = refread.parse_args(["--lanes", "down:data=tb.TxData*,k=tb.TxDataK*",
                            "--symbol-period", "4000ps"])
    syms = [(cur.get(("down", "data", 0)), cur.get(("down", "k", 0)))
            for _, cur in refread.samples(v, m)]
    syms = [d | (k << 8) for d, k in syms if d is not None]
    # COM SKP SKP SKP, logical idle, then SDP and the DLLP: the SDP is the
    # (i-4)th symbol after the COM, so it consumed key[i-4] and the DLLP
    # bytes keys[i-3...] (phy-digest.md section 2)
    keys = phy.keys8b10b(256)
    check(syms[:4] == [0x1BC, 0x11C, 0x11C, 0x11C], "COM SKP SKP SKP first: %r" % syms[:4])
    idle = bytes(s & 255 for s in syms[4:8])
    check(idle == keys[:4], "logical idle after the SKP OS is the keys: %s" % idle.hex(" "))
    if 0x15C in syms:
        i = syms.index(0x15C)
        got = bytes(s & 255 for s in syms[i + 1:i + 5])
        want = bytes(b ^ keys[i - 4 + 1 + j] for j, b in enumerate(b"\x40\x08\x03\xf0"))
        check(got == want, "DLLP bytes on the lane %s, want %s" % (got.hex(" "), want.hex(" ")))
    else:
        check(False, "no SDP on lane 0")
    # the digest's own example, the SDP right after the SKPs
    check(bytes(b ^ keys[1 + j] for j, b in enumerate(b"\x40\x08\x03\xf0")).hex(" ") ==
          "57 c8 17 42", "InitFC1-P -> 57 C8 17 42")
    ref = phy_ref.descramble_lane_8b10b([(s & 255, bool(s >> 8)) for s in syms])
    data = [b for b, k, _ in ref if not k]
    check(bytes(data[data.index(0x40):data.index(0x40) + 4]) == b"\x40\x08\x03\xf0"
          if 0x40 in data else False, "phy_ref descrambles the encoder's lane")

print("crosscheck: %d checks, %d failed" % (checks, fails))
sys.exit(1 if fails else 0)
