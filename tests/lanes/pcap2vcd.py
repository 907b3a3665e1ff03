#!/usr/bin/env python3
"""pcap2vcd.py: the test-side lane encoder of issue 14.  It turns a pcap in
dllpcheck's encapsulation (capture-format.md section 1) into a Value Change
Dump of the lanes of both directions, as a PIPE or lane monitor in a
simulation would write it (capture-format.md section 4), and writes the
records the lane reader must give back (--expect).

    pcap2vcd.py [OPTIONS] IN.pcap OUT.vcd [--expect EXP.pcap] [--map]

Forms (--form): code10 (10-bit code groups, bit 0 = a), sym9 (9 bits,
bit 8 = K), pipe8/pipe16/pipe32 (PIPE data + K, byte [7:0] first,
scrambled as on PIPE) at 2.5 or 5 GT/s (--gen 1|2); gen3-8/gen3-16/gen3-32
(PIPE data + sync header + start block + data valid, 128b/130b, 8 GT/s).
The facts are those of phy-digest.md; tests/lanes/phy.py holds them.

What goes on the lanes, per direction:
  - electrical idle (x) for two PIPE words, then, when the capture starts
    with a link-up event, training ordered sets (8b/10b: 16 TS1, 16 TS2;
    128b/130b: EIEOS, 16 TS1, 16 TS2, SDS), then the data stream; a capture
    that does not start with link-up starts with a SKP ordered set (so the
    descrambler can lock) and no link-up is expected;
  - each packet at the first symbol time at or after its record time when
    the lanes are free (STP/SDP on lane 0, or back to back on lane 4k on x8
    and wider, PAD / IDL filling the rest of the symbol time, at most one
    STP and one SDP a symbol time), logical idle between packets;
  - SKP ordered sets every 1180-1538 symbol times (8b/10b; the up direction
    varies the SKP count as an elastic buffer does) or EDS then a SKP OS
    block every 370 blocks carrying the LFSR (128b/130b);
  - a link-up event after the first: EIOS, electrical idle, training again;
    a recovery event: training in the middle of the stream (128b/130b: EDS,
    EIEOS, TS1, TS2, SDS).  Other link events cannot be on lanes: dropped
    (said on stderr), as are records of links other than the first.
The --expect pcap holds the records as the reader must give them: packets
at the edge that carried their first symbol, link-up / recovery (sent
down) at the first edge of the data stream once both directions got there,
ordered by time, down before up at equal times.
"""
import argparse
import collections
import struct
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import phy  # noqa: E402
from phy import K  # noqa: E402

KIND_DLLP, KIND_TLP, KIND_EVENT = 1, 2, 3
F_UP, F_NO_CRC, F_PHY_ERROR, F_NO_SEQ = 1, 2, 4, 8
EV_LINK_UP, EV_RECOVERY = 1, 4
EV_NAMES = {1: "link-up", 2: "link-down", 3: "hot-reset", 4: "recovery", 5: "port-reset",
            6: "vc-enable"}
INF = float("inf")

FORMS = {  # name: (coding, bytes per PIPE word or 1)
    "code10": ("8b", 1), "sym9": ("8b", 1), "pipe8": ("8b", 1), "pipe16": ("8b", 2),
    "pipe32": ("8b", 4), "gen3-8": ("128b", 1), "gen3-16": ("128b", 2),
    "gen3-32": ("128b", 4),
}
WIDTHS = (1, 2, 4, 8, 12, 16, 32)
W0 = 2  # PIPE words of electrical idle before anything


def warn(msg):
    sys.stderr.write("pcap2vcd: " + msg + "\n")


# ------------------------------------------------------------------ pcap
def read_pcap(path):
    """Yield (time_ps, kind, flags, link, payload) of each record."""
    with open(path, "rb") as f:
        hdr = f.read(24)
        if len(hdr) < 24:
            raise SystemExit("pcap2vcd: %s: not a pcap" % path)
        magic = hdr[:4]
        table = {b"\xd4\xc3\xb2\xa1": ("<", 1000000), b"\x4d\x3c\xb2\xa1": ("<", 1000),
                 b"\xa1\xb2\xc3\xd4": (">", 1000000), b"\xa1\xb2\x3c\x4d": (">", 1000)}
        if magic not in table:
            raise SystemExit("pcap2vcd: %s: not a classic pcap (write one with "
                             "dllpcheck --write-pcap)" % path)
        endian, unit = table[magic]
        rh = struct.Struct(endian + "IIII")
        n = 0
        while True:
            h = f.read(16)
            if len(h) < 16:
                return
            sec, frac, incl, _ = rh.unpack(h)
            data = f.read(incl)
            n += 1
            if len(data) < 4 or data[0] != 0xD1:
                warn("%s: record %d is not a dllpcheck record: dropped" % (path, n))
                continue
            yield n, (sec * 1000000000000 + frac * unit), data[1], data[2], data[3], data[4:]


class PcapWriter:
    def __init__(self, path):
        self.f = open(path, "wb")
        self.f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 147))

    def record(self, time_ps, kind, flags, payload, link=0):
        ns = time_ps // 1000
        body = bytes([0xD1, kind, flags, link]) + bytes(payload)
        self.f.write(struct.pack("<IIII", ns // 1000000000, ns % 1000000000, len(body),
                                 len(body)))
        self.f.write(body)

    def close(self):
        self.f.close()


# ------------------------------------------------------------- the records
class Packet:
    __slots__ = ("no", "time", "d", "kind", "payload", "exp", "nullify", "damage", "seq",
                 "bad_end")

    def __init__(self, no, time, d, kind, payload):
        self.no, self.time, self.d, self.kind, self.payload = no, time, d, kind, payload
        self.exp = None
        self.nullify = False
        self.damage = None
        self.bad_end = False  # EDB after an intact LCRC (--damage edbkeep)


class Event:
    """A link-up or recovery: training on both directions."""
    __slots__ = ("no", "time", "code", "fresh", "resume", "enc", "seq")

    def __init__(self, no, time, code, fresh, enc):
        self.no, self.time, self.code, self.fresh, self.enc = no, time, code, fresh, enc
        self.resume = {}

    def resumed(self, d, t):
        """Direction d's data stream starts again at edge time t."""
        self.resume[d] = t
        if len(self.resume) == 2:
            tt = max(self.resume.values())
            self.enc.expect(tt, 0, KIND_EVENT, 0, bytes([self.code, 0, 0, 0]))
            for dr in self.enc.dirs:
                dr.hold = tt + self.enc.hold_margin
            # the records after the event keep their distance from it: what
            # the trace put 100 ns after a link-up goes 100 ns after the
            # training, and the two directions keep their order
            self.enc.offset = max(self.enc.offset, tt + self.enc.hold_margin - self.time)


def normalise(no, kind, flags, payload):
    """What goes on the lanes for a record: (kind, payload) with the CRCs
    and the sequence field a link always carries, or None."""
    if kind == KIND_DLLP:
        body = bytes(payload[:4])
        if flags & F_NO_CRC:
            if len(payload) != 4:
                return None
            return kind, body + phy.dllp_crc(body)
        if len(payload) != 6:
            return None
        return kind, bytes(payload)
    if kind == KIND_TLP:
        p = bytes(payload)
        if flags & F_NO_SEQ:
            p = b"\x00\x00" + p
        if flags & F_NO_CRC:
            p = p + phy.lcrc(p)
        if len(p) < 6 + 10:  # STP ... END at least 18 symbols (digest 3.1)
            return None
        return kind, p
    return None


# ----------------------------------------------------------- one direction
R_DATA, R_COM, R_OSD, R_SKP, R_NONE = range(5)


class Dir8:
    """One direction at 2.5/5 GT/s: rows of N symbols (one per lane, value
    with bit 8 = K), one row a symbol time."""

    def __init__(self, enc, d):
        self.enc, self.d, self.N = enc, d, enc.N
        self.queue = collections.deque()
        self.rows = collections.deque()  # ordered-set rows waiting
        self.pend = None  # symbols of the packet being sent, its index
        self.pi = 0
        self.s = 0  # next symbol time
        self.hold = INF if enc.trained_start else 0
        self.next_skp = INF
        self.nskp = 0
        self.kidx = 0
        self.rd = [-1] * self.N
        self.damage = {}  # (s, lane) -> (kind, packet, byte index)
        self.end_at = {}  # packet -> symbol time of its last symbol

    def start(self):
        if self.enc.trained_start:
            ev = self.queue.popleft()
            self.training(ev, 0)
        else:
            # no training: a SKP ordered set first (the COM gives the
            # descrambler its start), then logical idle before any packet,
            # from which a reader tells whether the lanes are scrambled
            self.skp_rows()
            self.hold = self.enc.edge8(len(self.rows) + 16)
            self.next_skp = self.interval()

    def interval(self):
        self.nskp += 1
        return self.s + len(self.rows) + 1180 + (self.nskp * 97) % 359

    def skp_rows(self):
        n = 3 if self.d == 0 else (3, 2, 4, 3, 1, 5)[self.nskp % 6]
        self.rows.append((R_COM, [K | phy.COM] * self.N))
        for _ in range(n):
            self.rows.append((R_SKP, [K | phy.SKP] * self.N))

    def ts_rows(self, ident, polling=False):
        e = self.enc
        if polling:
            # Polling: Link and Lane numbers PAD (PCIe Base 4.2.6.2), what
            # tells the reader the link went through Detect
            for _ in range(e.nts):
                self.rows.append((R_COM, [K | phy.COM] * self.N))
                fields = [[K | phy.PAD, K | phy.PAD, 0x18, e.rate_id, e.train_ctl] + [ident] * 10
                          for lane in range(self.N)]
                for j in range(15):
                    self.rows.append((R_OSD, [fields[lane][j] for lane in range(self.N)]))
        for _ in range(e.nts):
            self.rows.append((R_COM, [K | phy.COM] * self.N))
            fields = [[0, lane, 0x18, e.rate_id, e.train_ctl] + [ident] * 10
                      for lane in range(self.N)]
            for j in range(15):
                self.rows.append((R_OSD, [fields[lane][j] for lane in range(self.N)]))

    def training(self, ev, s):
        if ev.seq not in self.enc.done and ev.seq >= self.enc.next_place:
            self.enc.consumed(ev)
        if ev.fresh:  # link-down before: EIOS, then electrical idle
            self.rows.append((R_COM, [K | phy.COM] * self.N))
            for _ in range(3):
                self.rows.append((R_OSD, [K | phy.IDL] * self.N))
            for _ in range(32):
                self.rows.append((R_NONE, None))
        self.ts_rows(0x4A, polling=ev.fresh)
        self.ts_rows(0x45)
        resume = s + len(self.rows)
        self.hold = INF
        self.next_skp = resume + 1180
        ev.resumed(self.d, self.enc.edge8(resume))

    def can_start(self, t, s, starts):
        q = self.queue
        if not q or not isinstance(q[0], Packet):
            return None
        p = q[0]
        bit = 1 if p.kind == KIND_TLP else 2
        if p.time + self.enc.offset > t or t < self.hold or s >= self.next_skp or starts & bit:
            return None
        return p if self.enc.in_order(p, t) else None

    def place(self, p, s, lane, t):
        self.queue.popleft()
        self.enc.consumed(p, t)
        if p.kind == KIND_TLP:
            syms = [K | phy.STP] + list(p.payload) + [K | (phy.EDB if p.nullify else phy.END)]
        else:
            syms = [K | phy.SDP] + list(p.payload) + [K | phy.END]
        self.enc.expect_packet(p, t)
        dm = p.damage
        if dm:
            n0 = s * self.N + lane
            if dm == "noend":
                syms[-1] = 0  # the END dropped: an idle data symbol instead
                p.exp[1] |= F_PHY_ERROR
            else:  # flip: a byte in the middle of the packet
                i = len(p.payload) // 2
                n = n0 + 1 + i
                self.damage[(n // self.N, n % self.N)] = (dm, p, i)
            self.enc.damage_window(p, t)
        self.pend, self.pi = syms, 0
        n_end = s * self.N + lane + len(syms) - 1
        self.enc.note_end(p, self.enc.edge8(n_end // self.N))

    def next_row(self):
        s = self.s
        self.s += 1
        if self.rows:
            return self.rows.popleft()
        N, e = self.N, self.enc
        bpw = e.bpw
        if self.pend is None:
            q = self.queue
            if q and isinstance(q[0], Event) and s % bpw == 0 and \
                    q[0].time + e.offset <= e.edge8(s):
                self.training(q.popleft(), s)
                return self.rows.popleft()
            if s >= self.next_skp and s % bpw == 0:
                self.skp_rows()
                self.next_skp = self.interval()
                return self.rows.popleft()
        t = e.edge8(s)
        row, starts = [], 0
        while len(row) < N:
            if self.pend is not None:
                take = min(N - len(row), len(self.pend) - self.pi)
                row.extend(self.pend[self.pi:self.pi + take])
                self.pi += take
                if self.pi == len(self.pend):
                    self.pend = None
                continue
            lane = len(row)
            if lane % 4 == 0:
                p = self.can_start(t, s, starts)
                if p is not None:
                    starts |= 1 if p.kind == KIND_TLP else 2
                    self.place(p, s, lane, t)
                    continue
            if lane == 0:
                return (R_DATA, [0] * N)  # logical idle
            row.extend([K | phy.PAD] * (N - lane))
        return (R_DATA, row)

    def busy(self):
        return bool(self.queue or self.rows or self.pend is not None)

    def word(self):
        """One PIPE word (bpw symbol times): per lane the list of values
        (None: no symbol), scrambled, and the codes for code10."""
        e = self.enc
        out = []
        for _ in range(e.bpw):
            s = self.s
            rtype, vals = self.next_row()
            if rtype == R_DATA:
                if self.kidx >= len(e.keys):
                    e.keygen.upto(self.kidx + 2048)
                key = e.keys[self.kidx]
                self.kidx += 1
                if e.scrambled:
                    vals = [v if v & K else v ^ key for v in vals]
            elif rtype == R_COM:
                self.kidx = 0
            elif rtype == R_OSD:
                self.kidx += 1
            elif rtype == R_NONE:
                vals = [None] * self.N
            if self.damage:
                for lane in range(self.N):
                    dm = self.damage.pop((s, lane), None)
                    if dm:
                        vals = list(vals)
                        vals[lane] = self.apply_damage(dm, lane, vals[lane],
                                                       key if rtype == R_DATA else 0)
            out.append(vals)
        return out

    def apply_damage(self, dm, lane, v, key):
        """A flipped bit in one symbol; returns the value as sent (for code10
        a ('code', code) pair the writer sends as is)."""
        kind, p, i = dm
        p.exp[1] |= F_PHY_ERROR
        if self.enc.form == "code10":
            rd = self.rd[lane]
            code, rdo = phy.ENC[rd][v]
            best = None
            for bit in range(10):
                c2 = code ^ (1 << bit)
                v2, rd2, err = phy.dec8b10b(c2, rd)
                if err is None or rd2 != rdo:
                    continue
                if err == "disparity" and v2 is not None and not v2 & K:
                    best = (c2, v2)
                    break
                if best is None:
                    best = (c2, None)
            c2, v2 = best
            if v2 is not None:
                got = v2 ^ key if self.enc.scrambled else v2
                p.exp[2] = p.exp[2][:i] + bytes([got]) + p.exp[2][i + 1:]
            else:
                self.enc.loose = True
            return ("code", c2, rdo)
        # sym9 / PIPE: the K flag set on a data byte that is no K symbol
        if (v & 255) in phy.VALID_K:
            v ^= 1  # a neighbouring byte that is none
        self.enc.loose = True
        return K | (v & 255)


class Dir128:
    """One direction at 8 GT/s: 130-bit blocks, the data stream striped
    across lanes and blocks (phy-digest.md 4.5)."""

    OS_TS, OS_SKP, OS_EIEOS, OS_SDS, OS_EIOS = range(5)

    def __init__(self, enc, d):
        self.enc, self.d, self.N = enc, d, enc.N
        self.queue = collections.deque()
        self.blocks = collections.deque()  # ordered-set blocks waiting
        self.carry = None
        self.ci = 0
        self.just_ended = False
        self.lfsr = [phy.LANE_SEEDS[i % 8] for i in range(self.N)]
        self.par = [0] * self.N
        self.hold = INF if enc.trained_start else 0
        self.since_skp = 0
        self.nblocks = 0
        self.w = W0  # next PIPE word
        self.cur = None  # the block being sent: (sync, lanes bytes), word index
        self.ck = 0
        self.resume_ev = None
        self.last_start = (-1, 0)  # (row id, STP/SDP bits) of the last start
        self.eds_pending = False

    def start(self):
        if self.enc.trained_start:
            self.training(self.queue.popleft())
        else:
            self.blocks.append((self.OS_SKP, None))
            self.hold = self.enc.edge(W0 + 2 * 16 // self.enc.bpw)

    def training(self, ev):
        if ev.seq not in self.enc.done and ev.seq >= self.enc.next_place:
            self.enc.consumed(ev)
        if ev.fresh:
            self.blocks.append((self.OS_EIOS, None))
            self.blocks.append(("none", 16))
        self.blocks.append((self.OS_EIEOS, None))
        for _ in range(self.enc.nts):
            self.blocks.append((self.OS_TS, 0x1E))
        for _ in range(self.enc.nts):
            self.blocks.append((self.OS_TS, 0x2D))
        self.blocks.append((self.OS_SDS, None))
        self.resume_ev = ev
        self.hold = INF

    def os_block(self, kind, arg):
        """Per lane 16 symbols and the scrambling flags (phy-digest.md 4.2)."""
        N, e = self.N, self.enc
        lanes = []
        for lane in range(N):
            st = self.lfsr[lane]
            if kind == self.OS_TS:
                syms = [arg, 0, lane, 0x18, e.rate_id, 0, 0, 0, 0, 0] + \
                    [0x4A if arg == 0x1E else 0x45] * 6
                b = bytearray(16)
                b[0] = syms[0]
                for j in range(16):
                    st, key = phy.step128(st)
                    if j:
                        b[j] = syms[j] ^ key
            elif kind == self.OS_SKP:
                par = self.par[lane] if self.prev_data else (~st >> 22 & 1)
                b = bytes([0xAA] * 12 + [0xE1, par << 7 | (st >> 16 & 127), st >> 8 & 255,
                                         st & 255])
                self.par[lane] = 0
            elif kind == self.OS_EIEOS:
                b = bytes([0x00, 0xFF] * 8)
                st = phy.LANE_SEEDS[lane % 8]  # re-seeded after the last symbol
            elif kind == self.OS_SDS:
                b = bytes([0xE1] + [0x55] * 15)
                for j in range(16):
                    st, _ = phy.step128(st)
                self.par[lane] = 0
            else:  # EIOS
                b = bytes([0x66] * 16)
                for j in range(16):
                    st, _ = phy.step128(st)
            self.lfsr[lane] = st
            lanes.append(b)
        return lanes

    def end_due(self, t):
        q = self.queue
        return self.since_skp >= 370 or bool(q and isinstance(q[0], Event) and
                                             q[0].time + self.enc.offset <= t)

    def can_start(self, t, rowid):
        q = self.queue
        if not q or not isinstance(q[0], Packet):
            return None
        p = q[0]
        bit = 1 if p.kind == KIND_TLP else 2
        if p.time + self.enc.offset > t or t < self.hold:
            return None
        if self.last_start[0] == rowid and self.last_start[1] & bit:
            return None
        return p if self.enc.in_order(p, t) else None

    def data_block(self, wb):
        """16 N stream bytes: packets, IDL, EDS at the end when due."""
        N, e = self.N, self.enc
        size = 16 * N
        blk = bytearray(size)
        left = (len(self.carry) - self.ci) if self.carry is not None else 0
        ending = self.end_due(e.edge(wb))
        eds = ending and left <= size - 4
        off = 0
        while off < size:
            if self.carry is not None:
                n = min(size - off, len(self.carry) - self.ci)
                blk[off:off + n] = self.carry[self.ci:self.ci + n]
                self.ci += n
                off += n
                if self.ci == len(self.carry):
                    self.carry = None
                    self.just_ended = True
                continue
            if eds and off == size - 4:
                blk[off:] = phy.EDS128
                break
            lane = off % N
            if lane == 0 or (self.just_ended and lane % 4 == 0):
                row = off // N
                t = e.edge(wb + row // e.bpw)
                p = None if ending else self.can_start(t, (self.nblocks, row))
                if p is not None:
                    self.start_packet(p, t, off, wb, (self.nblocks, row))
                    continue
            self.just_ended = False
            end = (off // N + 1) * N
            if eds:
                end = min(end, size - 4)
            off = end  # IDL: 00h
        return blk, eds

    def start_packet(self, p, t, off, wb, rowid):
        self.queue.popleft()
        self.enc.consumed(p, t)
        bit = 1 if p.kind == KIND_TLP else 2
        self.last_start = (rowid, (self.last_start[1] if self.last_start[0] == rowid else 0) | bit)
        if p.kind == KIND_TLP:
            # Length: the STP DW, the TLP, the LCRC DW (phy-digest.md 4.4)
            tlp = p.payload[2:]
            ldw = (len(p.payload) - 6) // 4 + 2
            seq = (p.payload[0] & 15) << 8 | p.payload[1]
            tok = bytearray(phy.stp_token(ldw, seq))
            if p.damage == "fcrc":
                tok[2] ^= 0x10  # one bit of the Frame CRC
            b = bytes(tok) + tlp
            if p.nullify:
                b += phy.EDB128
        else:
            b = phy.SDP128 + p.payload
        if p.damage == "fcrc":  # "such an STP is not reported as a TLP" (digest 4.6)
            self.enc.damage_window(p, t)
        else:
            self.enc.expect_packet(p, t)
        self.carry, self.ci = b, 0
        self.pkt_end(p, off, len(b), wb)

    def pkt_end(self, p, off, n, wb):
        # the edge of the last symbol, counted in blocks of this direction
        # without stalls: good enough to know which records a damage spoils
        last = off + n - 1
        N = self.N
        blocks, rest = divmod(last, 16 * N)
        row = rest // N
        words = blocks * (16 // self.enc.bpw) + row // self.enc.bpw
        self.enc.note_end(p, self.enc.edge(wb + words + blocks // max(1, self.enc.stall_every)))

    def busy(self):
        return bool(self.queue or self.blocks or self.carry is not None)

    def next_block(self):
        """Build the next block: (sync, [16 bytes per lane] or None, words)."""
        e = self.enc
        if self.nblocks and e.stall_every and self.nblocks % e.stall_every == 0 \
                and not self.stalled:
            self.stalled = True
            return "stall"
        self.stalled = False
        self.nblocks += 1
        wb = self.w
        if self.blocks:
            kind, arg = self.blocks.popleft()
            if kind == "none":
                return ("none", arg)
            lanes = self.os_block(kind, arg)
            self.prev_data = False
            if kind == self.OS_SKP:
                self.since_skp = 0
            if kind == self.OS_SDS:
                self.sds_done = True  # the next Data Block starts the stream
            return (SYNC_OS, lanes)
        q = self.queue
        if self.eds_pending:
            self.eds_pending = False
            if q and isinstance(q[0], Event):
                self.training(q.popleft())
            else:
                self.blocks.append((self.OS_SKP, None))
            return self.next_block_again()
        if self.sds_done:
            self.sds_done = False
            if self.resume_ev is not None:
                ev, self.resume_ev = self.resume_ev, None
                ev.resumed(self.d, e.edge(wb))
        blk, eds = self.data_block(wb)
        self.since_skp += 1
        self.prev_data = True
        if eds:
            self.eds_pending = True
        # scramble per lane: lane i holds stream bytes i, i+N, ...
        N = self.N
        lanes = []
        for lane in range(N):
            st = self.lfsr[lane]
            b = bytearray(blk[lane::N])
            par = self.par[lane]
            for j in range(16):
                st, key = phy.step128(st)
                b[j] ^= key
                par ^= phy.PARITY[b[j]]
            self.lfsr[lane] = st
            self.par[lane] = par
            lanes.append(b)
        return (SYNC_DATA, lanes)

    def next_block_again(self):
        self.nblocks -= 1
        self.stalled = True  # no second stall
        return self.next_block()

    stalled = False
    prev_data = False
    sds_done = False


SYNC_DATA, SYNC_OS = 0b10, 0b01  # TxSyncHeader (phy-digest.md 4.1)


# ------------------------------------------------------------ the encoder
class Encoder:
    def __init__(self, a):
        self.a = a
        self.form = a.form
        self.coding, self.bpw = FORMS[a.form]
        self.N = a.lanes
        if self.coding == "8b":
            self.ts_ps = 4000 if a.gen == 1 else 2000
            self.rate_id = 0x02 if a.gen == 1 else 0x06
        else:
            self.ts_ps = 1000
            self.rate_id = 0x0E
        self.tw = self.ts_ps * self.bpw  # one PIPE word (or symbol)
        self.scrambled = a.scrambled == "yes" or self.coding == "128b"
        self.train_ctl = 0 if self.scrambled else 0x08  # Disable Scrambling
        self.nts = a.ts
        self.keygen = phy.Keys8b10b()
        self.keys = self.keygen.upto(2048)
        self.stall_every = ({1: 4, 2: 8, 4: 16}[self.bpw]
                            if self.coding == "128b" and a.stall == "yes" else 0)
        self.hold_margin = 16 * self.ts_ps
        self.expected = []
        # nothing grows with the capture unless the records are wanted back
        self.keep = bool(a.expect)
        self.eseq = 0
        self.loose = False
        self.window = None
        self.ends = []
        self.link = None
        self.damaged_rec = None
        self.trained_start = False
        self.offset = 0
        self.trainings = 0
        self.next_place = 0
        self.last_pt = (0, 0)
        self.done = set()
        self.nseq = 0

    def edge(self, w):
        """The active edge of PIPE word w (the time it is sampled)."""
        return (w + 1) * self.tw

    def edge8(self, s):
        return self.edge(W0 + s // self.bpw)

    def expect(self, t, flags, kind, _unused, payload):
        self.eseq += 1
        rec = [t, flags, bytes(payload), kind, self.eseq]
        if self.keep:
            self.expected.append(rec)
        return rec

    def in_order(self, p, t):
        """The records keep the order of the input: p goes only after every
        record before it, and not before the last one's (time, direction),
        which is how the reader orders records (down first at equal times)."""
        if self.a.reorder:
            return True
        return p.seq == self.next_place and (t, p.d) >= self.last_pt

    def consumed(self, item, t=None):
        self.done.add(item.seq)
        if t is not None:
            self.last_pt = (t, item.d)
        while self.next_place in self.done:
            self.done.discard(self.next_place)
            self.next_place += 1

    def expect_packet(self, p, t):
        self.eseq += 1
        p.exp = [t, p.d, p.payload, p.kind, self.eseq]
        if p.bad_end:
            p.exp[1] |= F_PHY_ERROR
        if self.keep:
            self.expected.append(p.exp)

    def note_end(self, p, t):
        if self.a.drop:
            self.ends.append((p, t))

    def damage_window(self, p, t):
        self.window_rec = p
        self.window_start = t

    # ---------------------------------------------------------- records in
    def records(self):
        """The input's records as lane items, in file order."""
        a = self.a
        first = True
        for no, t, kind, flags, link, payload in read_pcap(a.input):
            if self.link is None:
                self.link = link
            elif link != self.link:
                warn("record %d: link %d: only link %d goes on the lanes: dropped"
                     % (no, link, self.link))
                continue
            d = flags & F_UP
            if kind == KIND_EVENT:
                code = payload[0] if payload else 0
                if code == EV_LINK_UP or code == EV_RECOVERY:
                    fresh = code == EV_LINK_UP and not first
                    # A link-up after the first record goes on the lanes as
                    # EIOS, electrical idle and training again.  A training
                    # after a data stream ran (also one the capture began
                    # in) looks like Recovery (a speed change, an L1 exit)
                    # and the reader says recovery, keeping the flow-control
                    # state (reader_vcd.c), unless port D's TS show Polling:
                    # what the lanes cannot prove is not claimed
                    # At 2.5/5 GT/s a link-up after link-down trains from
                    # Polling (Link number PAD), which the reader takes as
                    # the proof of a new link-up; 128b/130b has no Polling
                    # (a link trains at 2.5 GT/s first), so there it stays
                    # a recovery
                    up = first or (fresh and self.coding == "8b")
                    ev = Event(no, t, EV_LINK_UP if up else EV_RECOVERY, fresh, self)
                    self.trainings += 1
                    ev.seq = self.nseq
                    self.nseq += 1
                    yield ev
                    if code == EV_LINK_UP and first:
                        self.trained_start = True
                else:
                    warn("record %d: event %s cannot be seen on lanes: dropped"
                         % (no, EV_NAMES.get(code, str(code))))
                first = False
                continue
            if kind not in (KIND_DLLP, KIND_TLP):
                warn("record %d: kind %d: dropped" % (no, kind))
                continue
            nk = normalise(no, kind, flags, payload)
            if nk is None:
                warn("record %d: a %s the lanes cannot carry as it is: dropped"
                     % (no, "DLLP" if kind == KIND_DLLP else "TLP"))
                continue
            p = Packet(no, t, d, nk[0], nk[1])
            if p.kind == KIND_TLP and all(
                    (a ^ b) == 0xFF for a, b in zip(p.payload[-4:], phy.lcrc(p.payload[:-4]))):
                # a nullified TLP (LCRC inverted) goes out ended by EDB, as a
                # transmitter sends it (spec-digest.md 3.4)
                p.nullify = True
            if self.coding == "128b" and p.kind == KIND_TLP and (len(p.payload) - 6) % 4:
                warn("record %d: a TLP of %d bytes is no whole number of DW (the STP "
                     "token counts DW): dropped" % (no, len(p.payload) - 6))
                continue
            dm = a.damage_kind
            if dm and no == a.damage_rec:
                if dm in ("edb", "edbkeep"):
                    if p.kind != KIND_TLP:
                        raise SystemExit("pcap2vcd: --damage %s: record %d is no TLP" % (dm, no))
                    # nullified: EDB, and the LCRC inverted (spec-digest.md 3.4);
                    # edbkeep: EDB after the intact LCRC, a damaged ending the
                    # reader must mark PHY_ERROR (the record cannot carry EDB)
                    p.nullify = True
                    if dm == "edb":
                        p.payload = p.payload[:-4] + bytes(b ^ 0xFF for b in p.payload[-4:])
                    else:
                        p.bad_end = True
                elif dm == "fcrc" and p.kind != KIND_TLP:
                    raise SystemExit("pcap2vcd: --damage fcrc: record %d is no TLP" % no)
                else:
                    p.damage = dm
                self.damaged_rec = p
            first = False
            p.seq = self.nseq
            self.nseq += 1
            yield p


class Writer:
    """The VCD text: header per dialect, then one PIPE word per time step."""

    def __init__(self, enc, out):
        self.e = enc
        self.a = enc.a
        self.f = open(out, "w", buffering=1 << 20)
        self.ids = self.idgen()
        self.last = {}
        self.clock = self.a.clock
        self.div = 10 if self.a.dialect == "sv" else 1

    @staticmethod
    def idgen():
        n = 0
        while True:
            v, s = n, ""
            while True:
                s += chr(33 + v % 94)
                v //= 94
                if not v:
                    break
            n += 1
            yield s

    def names(self):
        """Per direction, the signals of a lane: {key: (name template with {n}
        for the lane number, width)}; a template "lane{n}.X" is X in a scope."""
        e, a = self.e, self.a
        fam = a.names or ("lane" if e.form in ("code10", "sym9") else "pipe")
        sig = []
        for d in (0, 1):
            m = {}
            if e.form in ("code10", "sym9"):
                key = "code" if e.form == "code10" else "sym"
                m[key] = ("%s_lane{n}" % ("down", "up")[d], 10 if key == "code" else 9)
            else:
                tx = ("Tx", "Rx")[d]
                if fam in ("pipe", "lane"):
                    nm = {"data": tx + "Data", "k": tx + "DataK", "sync": tx + "SyncHeader",
                          "start": tx + "StartBlock", "valid": tx + "DataValid"}
                    if a.dialect == "sv":  # the lane in a scope
                        nm = {k: "lane{n}." + v for k, v in nm.items()}
                    else:
                        nm = {k: v + "{n}" for k, v in nm.items()}
                elif fam == "intel":
                    t = tx.lower()
                    nm = {"data": t + "data{n}", "k": t + "datak{n}", "sync": t + "synchd{n}",
                          "start": t + "blkst{n}", "valid": t + "datavalid{n}"}
                else:  # xilinx
                    t = "pipe_%s{n}_" % tx.lower()
                    nm = {"data": t + "data", "k": t + "char_is_k", "sync": t + "sync_header",
                          "start": t + "start_block", "valid": t + "data_valid"}
                m["data"] = (nm["data"], 8 * e.bpw)
                if e.coding == "8b":
                    m["k"] = (nm["k"], e.bpw)
                else:
                    m["sync"] = (nm["sync"], 2)
                    m["start"] = (nm["start"], 1)
                    m["valid"] = (nm["valid"], 1)
            sig.append(m)
        return sig

    def header(self):
        e, a, f = self.e, self.a, self.f
        dia = a.dialect
        kind = {"icarus": "wire", "sv": "logic", "noisy": "reg"}[dia]
        self.sig = self.names()
        self.vid = [[{} for _ in range(e.N)] for _ in (0, 1)]
        if a.comment:
            f.write("$comment %s $end\n" % a.comment)
        if dia == "noisy":
            f.write("$comment\n  written by pcap2vcd.py (dllpcheck tests); the reader must skip "
                    "this\n$end\n$date\n  today\n$end\n$version\n  noisy 1.0\n$end\n"
                    "$timescale\n  1 ps\n$end\n")
        elif dia == "sv":
            f.write("$date today $end\n$version SystemVerilog-style dumper $end\n"
                    "$timescale 10ps $end\n")
        else:
            f.write("$date\n\ttoday\n$end\n$version\n\tIcarus Verilog\n$end\n"
                    "$timescale\n\t1ps\n$end\n")
        self.paths = {}
        f.write("$scope module tb $end\n")
        if self.clock:
            self.clk = next(self.ids)
            f.write("$var %s 1 %s pclk $end\n" % (kind, self.clk))
            self.paths["clock"] = "tb.pclk"
        if dia == "noisy":
            self.noise = {}
            for nm, w, k in (("dbg_cnt", 16, "reg"), ("ltssm_state", 6, "reg"),
                             ("sideband", 1, "wire"), ("state_name", 1, "string"),
                             ("temperature", 64, "real"), ("pkt_event", 1, "event"),
                             ("WIDTH", 8, "parameter")):
                i = next(self.ids)
                self.noise[nm] = i
                rng = " [%d:0]" % (w - 1) if w > 1 and k in ("reg", "wire") else ""
                f.write("$var %s %d %s %s%s $end\n" % (k, w, i, nm, rng))
        inner = ["dut"] if dia == "sv" else []
        if e.form in ("code10", "sym9"):
            inner.append("lanemon")
        for s in inner:
            f.write("$scope module %s $end\n" % s)
        scope = ".".join(["tb"] + inner)
        for lane in range(e.N):
            scoped = False
            for d in (0, 1):
                for key, (tpl, w) in self.sig[d].items():
                    i = next(self.ids)
                    self.vid[d][lane][key] = i
                    self.paths[(d, key)] = scope + "." + tpl.format(n="*")
                    nm = tpl.format(n=lane)
                    if "." in nm:
                        sc, nm = nm.split(".")
                        if not scoped:
                            f.write("$scope module %s $end\n" % sc)
                            scoped = True
                    rng = " [%d:0]" % (w - 1) if w > 1 else ""
                    f.write("$var %s %d %s %s%s $end\n" % (kind, w, i, nm, rng))
                    if dia == "noisy" and d == 0 and lane == 0 and key in ("data", "code", "sym"):
                        # the same signal under a second name (a shared identifier)
                        f.write("$var %s %d %s mon_word%s $end\n" % (kind, w, i, rng))
            if scoped:
                f.write("$upscope $end\n")
        for s in inner:
            f.write("$upscope $end\n")
        f.write("$upscope $end\n$enddefinitions $end\n")
        f.write("#0\n$dumpvars\n")
        if self.clock:
            f.write("0%s\n" % self.clk)
            self.last[self.clk] = "0"
        for d in (0, 1):
            for lane in range(e.N):
                for key, i in self.vid[d][lane].items():
                    w = self.sig[d][key][1]
                    v = "0" if key in ("start", "valid") else "x"
                    s = v if w == 1 else "b" + v
                    f.write((s + i if w == 1 else s + " " + i) + "\n")
                    self.last[i] = s
        if dia == "noisy":
            n = self.noise
            f.write("b0 %s\nb0 %s\n0%s\nsreset %s\nr20.5 %s\nb1000 %s\n"
                    % (n["dbg_cnt"], n["ltssm_state"], n["sideband"], n["state_name"],
                       n["temperature"], n["WIDTH"]))
        f.write("$end\n")

    def mapping(self):
        """The --lanes / --lane-clock arguments for this file."""
        e = self.e
        args = []
        for d in (0, 1):
            keys = list(self.sig[d].keys())
            parts = ["%s=%s" % (k, self.paths[(d, k)]) for k in keys]
            args += ["--lanes", "%s:%s" % ("down up".split()[d], ",".join(parts))]
        if self.clock:
            args += ["--lane-clock", self.paths["clock"]]
        else:
            args += ["--symbol-period", "%dps" % e.tw]
        return args


def vec(v, ident):
    return "b{:b} {}\n".format(v, ident)


def run(a):
    e = Encoder(a)
    wr = Writer(e, a.output)
    e.dirs = [Dir8(e, 0), Dir8(e, 1)] if e.coding == "8b" else [Dir128(e, 0), Dir128(e, 1)]
    src = e.records()
    pending = None  # the next record not yet queued
    exhausted = False

    def pull(t):
        nonlocal pending, exhausted
        while not exhausted:
            if pending is None:
                pending = next(src, None)
                if pending is None:
                    exhausted = True
                    return
            if pending.time + e.offset > t and not (isinstance(pending, Event) and not started):
                return
            if isinstance(pending, Event):
                for dr in e.dirs:
                    dr.queue.append(pending)
            else:
                e.dirs[pending.d].queue.append(pending)
            pending = None

    started = False
    pull(0)  # a link-up first? then the first record is it
    # the first record decides whether training opens the file
    started = True
    wr.header()
    for dr in e.dirs:
        dr.start()
    f = wr.f
    last = wr.last
    clock = wr.clock
    div = wr.div
    tw = e.tw
    half = tw // 2
    noisy = a.dialect == "noisy"
    drop_lane, drop_t = a.drop if a.drop else (None, INF)
    if a.drop:
        e.window_start = drop_t
    trailing = 0
    w = W0
    # the first W0 words: electrical idle (already x in $dumpvars)
    if clock:
        for i in range(W0):
            if i:
                f.write("#%d\n0%s\n" % ((i * tw + half) // div, wr.clk))
            f.write("#%d\n1%s\n" % (((i + 1) * tw) // div, wr.clk))
    vid = wr.vid
    form = e.form
    N = e.N
    enc = phy.ENC
    rds = [dr.rd for dr in e.dirs] if e.coding == "8b" else None
    bpw = e.bpw
    gen3 = e.coding == "128b"
    blocks = [None, None]
    bword = [0, 0]
    word_no = 0
    while True:
        tchg = w * tw + half  # values change half a word before the edge
        tedge = (w + 1) * tw
        pull(tedge)
        busy = (not exhausted) or pending is not None or any(dr.busy() for dr in e.dirs)
        if not busy:
            trailing += 1
            if trailing > 64 * 1:
                break
        parts = []
        for d, dr in enumerate(e.dirs):
            ids = vid[d]
            if not gen3:
                syms = dr.word()
                rd = rds[d]
                for lane in range(N):
                    li = ids[lane]
                    if form == "code10":
                        code = None
                        for r in syms:
                            v = r[lane]
                            if v is None:
                                code = None
                                continue
                            if type(v) is tuple:
                                code, rd[lane] = v[1], v[2]
                            else:
                                code, rd[lane] = enc[rd[lane]][v]
                        s = "bx" if code is None else "b{:b}".format(code)
                        if lane == drop_lane and tchg >= drop_t:
                            s = "bx"
                        i = li["code"]
                        if last[i] != s:
                            last[i] = s
                            parts.append(s + " " + i + "\n")
                    elif form == "sym9":
                        v = syms[0][lane]
                        s = "bx" if v is None else "b{:b}".format(v)
                        if lane == drop_lane and tchg >= drop_t:
                            s = "bx"
                        i = li["sym"]
                        if last[i] != s:
                            last[i] = s
                            parts.append(s + " " + i + "\n")
                    else:
                        data = kk = 0
                        none = False
                        for j, r in enumerate(syms):
                            v = r[lane]
                            if v is None:
                                none = True
                                break
                            data |= (v & 255) << (8 * j)
                            kk |= (v >> 8 & 1) << j
                        if none or (lane == drop_lane and tchg >= drop_t):
                            s, sk = "bx", ("x" if bpw == 1 else "bx")
                        else:
                            s = "b{:b}".format(data)
                            sk = str(kk) if bpw == 1 else "b{:b}".format(kk)
                        i = li["data"]
                        if last[i] != s:
                            last[i] = s
                            parts.append(s + " " + i + "\n")
                        i = li["k"]
                        if last[i] != sk:
                            last[i] = sk
                            parts.append((sk + i if bpw == 1 else sk + " " + i) + "\n")
            else:
                if blocks[d] is None:
                    blocks[d] = dr.next_block()
                    bword[d] = 0
                    dr.w = w
                    if blocks[d] == "stall":
                        pass
                blk = blocks[d]
                if blk == "stall":
                    for lane in range(N):
                        i = ids[lane]["valid"]
                        if last[i] != "0":
                            last[i] = "0"
                            parts.append("0" + i + "\n")
                        i = ids[lane]["start"]
                        if last[i] != "0":
                            last[i] = "0"
                            parts.append("0" + i + "\n")
                    blocks[d] = None
                    dr.w = w + 1
                    continue
                sync, lanes = blk
                k = bword[d]
                for lane in range(N):
                    li = ids[lane]
                    if sync == "none" or (lane == drop_lane and tchg >= drop_t):
                        vals = (("data", "bx"), ("sync", "bx"), ("start", "0"), ("valid", "0"))
                    else:
                        b = lanes[lane]
                        data = 0
                        for j in range(bpw):
                            data |= b[k * bpw + j] << (8 * j)
                        vals = [("data", "b{:b}".format(data)), ("valid", "1"),
                                ("start", "1" if k == 0 else "0")]
                        if k == 0:
                            vals.append(("sync", "b{:b}".format(sync)))
                    for key, s in vals:
                        i = li[key]
                        if last[i] != s:
                            last[i] = s
                            parts.append((s + i if len(s) == 1 else s + " " + i) + "\n")
                bword[d] += 1
                nwords = (lanes if sync == "none" else 16 // bpw)
                if bword[d] >= nwords:
                    blocks[d] = None
                    dr.w = w + 1
        if noisy:
            n = wr.noise
            parts.append("b{:b} {}\n".format(word_no & 0xFFFF, n["dbg_cnt"]))
            if word_no % 97 == 0:
                parts.append("r%d.25 %s\n" % (word_no % 50, n["temperature"]))
                parts.append("1%s\n" % n["pkt_event"])
                parts.append("s%s %s\n" % ("L0" if word_no % 2 else "Recovery",
                                           n["state_name"]))
            if word_no % 501 == 0:
                parts.append("$comment word %d $end\n" % word_no)
        if clock:
            f.write("#%d\n0%s\n" % (tchg // div, wr.clk))
            f.write("".join(parts))
        elif parts:
            f.write("#%d\n" % (tchg // div))
            f.write("".join(parts))
        if noisy and word_no % 3 == 0:
            # an unmapped signal between the edges
            f.write("#%d\n%d%s\n" % ((tchg + half // 2) // div, (word_no // 3) & 1,
                                     wr.noise["sideband"]))
        if clock:
            f.write("#%d\n1%s\n" % (tedge // div, wr.clk))
        w += 1
        word_no += 1
    if not clock:
        # the end of the file: the edge of the last word, not a period later
        # (a sampler at a fixed period would read the last word twice)
        f.write("#%d\n" % ((w * tw) // div))
    f.close()
    return e, wr


def finish(e, wr, a):
    exp = sorted(e.expected, key=lambda r: (r[0], r[1] & 1, r[4]))
    if a.expect:
        pw = PcapWriter(a.expect)
        for t, flags, payload, kind, _ in exp:
            pw.record(t, kind, flags, payload)
        pw.close()
    if a.compare_args:
        args = []
        if e.loose:
            args.append("--loose-phy-error")
        if a.damage_kind in ("fcrc", "noend") or a.drop:
            # from the damaged record on, until the reader is known to be back
            # in step, records may be lost or damaged; before and after, exact
            t0 = e.window_start
            t1 = INF
            if a.drop:
                # from the block (128b/130b) or word the lane drops in, or
                # the first packet still on the lanes then
                t0 = a.drop[1] - (17 * e.ts_ps if e.coding == "128b" else e.tw)
                for p, t_end in e.ends:
                    if t_end >= a.drop[1] and p.exp:
                        t0 = min(t0, p.exp[0])
            if e.damaged_rec is not None:
                t0 = e.damaged_rec.exp[0] if e.damaged_rec.exp else e.window_start
                # the records that end before the next ordered set: after the
                # damaged one, anything may happen up to the next SKP/SDS;
                # allow up to 2 SKP intervals
                t1 = t0 + (2 * 1538 * e.ts_ps if e.coding == "8b" else 2 * 375 * 16 * e.ts_ps)
            args.append("--window=%d:%s" % (t0, "inf" if t1 == INF else "%d" % t1))
            args.append("--require-damage")
        elif a.damage_kind in ("flip", "edbkeep"):
            args.append("--require-damage")
        with open(a.compare_args, "w") as f:
            f.write(" ".join(args) + "\n")
    if a.map:
        sys.stdout.write(" ".join(wr.mapping()) + "\n")
    if a.map_file:
        with open(a.map_file, "w") as f:
            f.write(" ".join(wr.mapping()) + "\n")


def batch(path):
    """--batch FILE: one run per line of FILE (the arguments, split as the
    shell would), in one process: the tests make a hundred files."""
    import shlex
    failed = 0
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                main(shlex.split(line))
            except SystemExit as e:
                if e.code not in (None, 0):
                    failed += 1
                    warn("%s:%d: failed (%s): %s" % (path, n, e.code, line.strip()))
    return 1 if failed else 0


def main(argv=None):
    if argv is None and len(sys.argv) == 3 and sys.argv[1] == "--batch":
        sys.exit(batch(sys.argv[2]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--form", choices=sorted(FORMS), default="pipe16")
    ap.add_argument("--lanes", type=int, default=4)
    ap.add_argument("--gen", type=int, choices=(1, 2), default=1,
                    help="8b/10b rate: 1 = 2.5 GT/s (4 ns a symbol), 2 = 5 GT/s (2 ns)")
    ap.add_argument("--scrambled", choices=("yes", "no"), default="yes")
    ap.add_argument("--dialect", choices=("icarus", "sv", "noisy"), default="icarus")
    ap.add_argument("--names", choices=("lane", "pipe", "intel", "xilinx"))
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--clock", dest="clock", action="store_true", default=True)
    g.add_argument("--symbol-period", dest="clock", action="store_false")
    ap.add_argument("--stall", choices=("yes", "no"), default="yes",
                    help="128b/130b: one word with data valid 0 every few blocks")
    ap.add_argument("--reorder", action="store_true",
                    help="let a packet go before an earlier record of the other direction "
                         "when that one waits (default: the input's order is kept)")
    ap.add_argument("--ts", type=int, default=16, help="TS1 and TS2 sent at training")
    ap.add_argument("--comment", help="a $comment at the top of the file")
    ap.add_argument("--expect", help="write the records the reader must give back")
    ap.add_argument("--map", action="store_true", help="print the --lanes arguments")
    ap.add_argument("--map-file", help="write the --lanes arguments to this file")
    ap.add_argument("--damage",
                    help="flip:R | noend:R | fcrc:R | edb:R | edbkeep:R | drop:LANE:TIME_NS")
    ap.add_argument("--compare-args", help="write the compare.py options the damage needs")
    a = ap.parse_args(argv)
    if a.lanes not in WIDTHS:
        ap.error("--lanes must be one of %s" % ", ".join(map(str, WIDTHS)))
    a.damage_kind, a.damage_rec, a.drop = None, None, None
    if a.damage:
        parts = a.damage.split(":")
        if parts[0] == "drop" and len(parts) == 3:
            a.drop = (int(parts[1]), int(parts[2]) * 1000)
            if a.drop[0] >= a.lanes:
                ap.error("--damage drop: no lane %d" % a.drop[0])
        elif parts[0] in ("flip", "noend", "fcrc", "edb", "edbkeep") and len(parts) == 2:
            a.damage_kind, a.damage_rec = parts[0], int(parts[1])
            coding = FORMS[a.form][0]
            if (a.damage_kind in ("flip", "noend") and coding != "8b") or \
                    (a.damage_kind == "fcrc" and coding != "128b"):
                ap.error("--damage %s does not apply to %s" % (a.damage_kind, a.form))
        else:
            ap.error("--damage: flip:R, noend:R, fcrc:R, edb:R, edbkeep:R or drop:LANE:TIME_NS")
    e, wr = run(a)
    finish(e, wr, a)


if __name__ == "__main__":
    main()
