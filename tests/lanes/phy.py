"""phy.py: the physical-layer pieces the test-side lane encoder needs, written
from phy-digest.md (8b/10b section 1, the 2.5/5 GT/s scrambler section 2,
the 128b/130b scrambler and tokens section 4) and the CRCs of
spec-digest.md section 3.  Standard library only: CI has no ../shared, so
nothing here imports phy_ref.py; tests/lanes/crosscheck.py compares the two
when ../shared is there.
"""
import zlib

# ---------------------------------------------------------------- 8b/10b
# phy-digest.md 1.1: abcdei for RD- (x = 0..31), fghj for RD- (y = 0..7).
_6B = ("100111 011101 101101 110001 110101 101001 011001 111000 111001 100101 010101 "
       "110100 001101 101100 011100 010111 011011 100011 010011 110010 001011 101010 "
       "011010 111010 110011 100110 010110 110110 001110 101110 011110 101011").split()
_6B_K28 = "001111"
_4B = "1011 1001 0101 1100 1101 1010 0110 1110".split()
_4B_A7 = "0111"
_4B_K = "1011 0110 1010 1100 1101 0101 1001 0111".split()

# The PCIe K symbols (phy-digest.md 1.2), byte values.
COM, STP, SDP, END, EDB, PAD, SKP, FTS, IDL, EIE = (0xBC, 0xFB, 0x5C, 0xFD, 0xFE, 0xF7, 0x1C,
                                                    0x3C, 0x7C, 0xFC)
VALID_K = (COM, STP, SDP, END, EDB, PAD, SKP, FTS, IDL, 0x9C, 0xDC, EIE)
K = 0x100  # a symbol value with this bit is a K symbol (the sym9 form)


def _comp(s):
    return "".join("1" if c == "0" else "0" for c in s)


def _disp(s):
    return s.count("1") - s.count("0")


def _rd_after(block, rd):
    # An unbalanced sub-block flips the RD; 000111/0011 leave it +,
    # 111000/1100 leave it - (phy-digest.md 1.3).
    d = _disp(block)
    if d > 0 or block in ("000111", "0011"):
        return 1
    if d < 0 or block in ("111000", "1100"):
        return -1
    return rd


def _pick(rdm, rd, force=False):
    if rd < 0:
        return rdm
    return _comp(rdm) if (_disp(rdm) != 0 or force) else rdm


def _bits(s10):
    v = 0
    for i, c in enumerate(s10):
        if c == "1":
            v |= 1 << i
    return v


def enc8b10b(byte, k, rd):
    """(10-bit code with bit 0 = a, RD after) for a byte at running disparity rd."""
    x, y = byte & 31, byte >> 5 & 7
    if k and byte not in VALID_K:
        raise ValueError("no K code for %02X" % byte)
    b6 = _pick(_6B_K28, rd) if (k and x == 28) else _pick(_6B[x], rd, x == 7)
    rd = _rd_after(b6, rd)
    if k:
        b4 = _pick(_4B_K[y], rd, True)
    elif y == 7 and ((rd < 0 and x in (17, 18, 20)) or (rd > 0 and x in (11, 13, 14))):
        b4 = _pick(_4B_A7, rd, True)  # the alternate D.x.A7
    else:
        b4 = _pick(_4B[y], rd, y == 3)
    return _bits(b6 + b4), _rd_after(b4, rd)


def _tables():
    enc = {-1: [None] * 512, 1: [None] * 512}
    dec = {}
    for rd in (-1, 1):
        for v in list(range(256)) + [K | b for b in VALID_K]:
            code, rdo = enc8b10b(v & 255, bool(v & K), rd)
            enc[rd][v] = (code, rdo)
            dec[(code, rd)] = (v, rdo)
    return enc, dec


ENC, DEC = _tables()


def dec8b10b(code, rd):
    """(value or None, RD after, error): error None, 'disparity' (valid only
    at the other RD) or 'code'; the RD after an error follows the received
    sub-blocks (one common recovery, phy_ref.dec8b10b does the same)."""
    hit = DEC.get((code, rd))
    if hit:
        return hit[0], hit[1], None
    s = "".join("1" if code >> i & 1 else "0" for i in range(10))
    rdo = _rd_after(s[6:], _rd_after(s[:6], rd))
    other = DEC.get((code, -rd))
    if other:
        return other[0], rdo, "disparity"
    return None, rdo, "code"


# ------------------------------------------------- scrambler, 2.5 / 5 GT/s
def keys8b10b(n):
    """The first n keys after a COM (phy-digest.md section 2): G(X) = X^16 +
    X^5 + X^4 + X^3 + 1, seed FFFFh, key bit i = D15 before shift i."""
    return bytearray(Keys8b10b().upto(n))


class Keys8b10b:
    """The keys after a COM, computed as far as they are asked for."""

    def __init__(self):
        self.keys = bytearray()
        self.lfsr = 0xFFFF

    def upto(self, n):
        lfsr, out = self.lfsr, self.keys
        while len(out) < n:
            k = 0
            for i in range(8):
                b = lfsr >> 15 & 1
                k |= b << i
                lfsr = (lfsr << 1 & 0xFFFF) ^ (0x39 if b else 0)
            out.append(k)
        self.lfsr = lfsr
        return out


# ------------------------------------------------ scrambler, 8 GT/s and up
# phy-digest.md 4.2: G(X) = X^23 + X^21 + X^16 + X^8 + X^5 + X^2 + 1, output
# D22, LSB first; seeds by lane number mod 8.
LANE_SEEDS = (0x1DBFBC, 0x0607BB, 0x1EC760, 0x18C0DB, 0x010F12, 0x19CFC9, 0x0277CE, 0x1BB807)


def _step8_slow(state):
    k = 0
    for i in range(8):
        b = state >> 22 & 1
        k |= b << i
        state = (state << 1 & 0x7FFFFF) ^ (0x210125 if b else 0)
    return state, k


def _tables128():
    # The LFSR is linear over GF(2): 8 shifts of a state are the XOR of the
    # 8 shifts of its three bytes taken alone, and so is the key.
    t = []
    for part in range(3):
        row = []
        for v in range(256):
            s, k = _step8_slow(v << (8 * part) & 0x7FFFFF)
            row.append(s | k << 23)
        t.append(row)
    return t


_T0, _T1, _T2 = _tables128()


def step128(state):
    """One symbol: (next state, key byte)."""
    r = _T0[state & 255] ^ _T1[state >> 8 & 255] ^ _T2[state >> 16 & 127]
    return r & 0x7FFFFF, r >> 23


def frame_crc(length):
    """C[3:0] and the parity P of an 11-bit TLP Length (phy-digest.md 4.4)."""
    L = [length >> i & 1 for i in range(11)]
    c0 = L[10] ^ L[7] ^ L[6] ^ L[4] ^ L[2] ^ L[1] ^ L[0]
    c1 = L[10] ^ L[9] ^ L[7] ^ L[5] ^ L[4] ^ L[3] ^ L[2]
    c2 = L[9] ^ L[8] ^ L[6] ^ L[4] ^ L[3] ^ L[2] ^ L[1]
    c3 = L[8] ^ L[7] ^ L[5] ^ L[3] ^ L[2] ^ L[1] ^ L[0]
    p = 0
    for b in L + [c0, c1, c2, c3]:
        p ^= b
    return c3 << 3 | c2 << 2 | c1 << 1 | c0, p


def stp_token(length_dw, seq):
    """The 4 STP symbols (phy-digest.md 4.4; C[3] at bit 7 of +2 is the
    figure's convention, UNVERIFIED item 1 of the digest)."""
    c, p = frame_crc(length_dw)
    return bytes([(length_dw & 15) << 4 | 15, p << 7 | (length_dw >> 4 & 127),
                  c << 4 | (seq >> 8 & 15), seq & 255])


SDP128 = b"\xf0\xac"
EDB128 = b"\xc0\xc0\xc0\xc0"
EDS128 = b"\x1f\x80\x90\x00"
PARITY = bytes(bin(v).count("1") & 1 for v in range(256))


# ------------------------------------------------------------------- CRCs
def _bitrev8(v):
    return int("{:08b}".format(v)[::-1], 2)


def dllp_crc(content4):
    """The 2 CRC bytes of a DLLP (spec-digest.md 3; the long-hand form of
    pcie_crc.py: polynomial 100Bh, seed FFFFh, bits LSB first, complemented,
    each byte bit-reversed, high byte first)."""
    reg = 0xFFFF
    for byte in content4:
        for bit in range(8):
            fb = (byte >> bit & 1) ^ (reg >> 15 & 1)
            reg = reg << 1 & 0xFFFF
            if fb:
                reg ^= 0x100B
    reg ^= 0xFFFF
    return bytes([_bitrev8(reg >> 8), _bitrev8(reg & 255)])


def lcrc(seq_and_tlp):
    """The 4 LCRC bytes as transmitted: the reflected CRC-32 (zlib), least
    significant byte first (the warp-pipe vector of phy-digest.md 7)."""
    return zlib.crc32(bytes(seq_and_tlp)).to_bytes(4, "little")
