#!/usr/bin/env python3
"""refread.py: a small lane reader in Python, to check pcap2vcd.py on its own
(before and beside the C reader): it reads a VCD that pcap2vcd.py wrote,
with the mapping pcap2vcd.py --map printed, and writes the records it finds
as a pcap (the same order and times the C reader must give).  It knows only
what pcap2vcd.py writes (ordered sets on all lanes at once, no skew); it is
no replacement for the reader, and it takes the digest's rules from phy.py.

    refread.py IN.vcd OUT.pcap MAPPING-ARGS...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import phy  # noqa: E402
from pcap2vcd import PcapWriter  # noqa: E402


def parse_args(argv):
    m = {"lanes": {}, "clock": None, "period": None}
    i = 0
    while i < len(argv):
        if argv[i] == "--lanes":
            d, rest = argv[i + 1].split(":", 1)
            m["lanes"][d] = dict(kv.split("=", 1) for kv in rest.split(","))
            i += 2
        elif argv[i] == "--lane-clock":
            m["clock"] = argv[i + 1]
            i += 2
        elif argv[i] == "--symbol-period":
            m["period"] = int(argv[i + 1].rstrip("ps"))
            i += 2
        else:
            raise SystemExit("refread.py: %s?" % argv[i])
    return m


def samples(path, m):
    """Yield (time_ps, {(dir, key, lane): value or None})."""
    f = open(path)
    scope, ids, scale, widths = [], {}, 1, {}
    for line in f:
        w = line.split()
        if not w:
            continue
        if w[0] == "$timescale":
            ts = " ".join(w[1:]).replace("$end", "").strip()
            if not ts:
                ts = next(f).strip()
            scale = int(ts.replace(" ", "").rstrip("ps") or 1)
        elif w[0] == "$scope":
            scope.append(w[2])
        elif w[0] == "$upscope":
            scope.pop()
        elif w[0] == "$var":
            ids.setdefault(w[3], []).append(".".join(scope + [w[4]]))
            widths[w[3]] = int(w[2])
        elif w[0] == "$enddefinitions":
            break
    want = {}
    for d, keys in m["lanes"].items():
        for key, pat in keys.items():
            pre, post = pat.split("*")
            for ident, paths in ids.items():
                for p in paths:
                    if p.startswith(pre) and p.endswith(post):
                        mid = p[len(pre):len(p) - len(post)]
                        if mid.isdigit():
                            want.setdefault(ident, []).append((d, key, int(mid)))
                            if key == "data":
                                m["bpw"] = widths[ident] // 8
    clk = None
    if m["clock"]:
        clk = [i for i, ps in ids.items() if m["clock"] in ps][0]
    cur = {}
    clkv = "0"
    t = 0
    nxt = m["period"] or 0
    for line in f:
        c = line[0]
        if c == "#":
            nt = int(line[1:]) * scale
            if m["period"]:
                while nxt <= nt and nxt > t:
                    yield nxt, cur
                    nxt += m["period"]
            t = nt
            continue
        if c == "$":
            continue
        if c == "b":
            val, ident = line[1:].split()
        elif c in "01xz":
            val, ident = c, line[1:].strip()
        else:
            continue
        if ident == clk:
            if val == "1" and clkv == "0":
                yield t, cur
            clkv = val
            continue
        if ident in want:
            v = None if ("x" in val or "z" in val) else int(val, 2)
            for sig in want[ident]:
                cur[sig] = v


class Rx8:
    def __init__(self, d, n, form, out):
        self.d, self.n, self.form, self.out = d, n, form, out
        self.rd = [None] * n
        self.os = 0  # symbols of an ordered set left (all lanes)
        self.skp = False
        self.kidx = None
        self.trained = False
        self.ts = False
        self.pkt = None
        self.err = False
        self.scr = None

    def sym(self, lane, v):
        """(value with K bit, error) from the lane's input."""
        if self.form == "code10":
            if self.rd[lane] is None:
                self.rd[lane] = -1 if (v, -1) in phy.DEC else 1
            val, self.rd[lane], err = phy.dec8b10b(v, self.rd[lane])
            return (0 if val is None else val), err is not None
        if v & phy.K and (v & 255) not in phy.VALID_K:
            return v, True
        return v, False

    def row(self, t, vals):
        if any(v is None for v in vals):
            self.trained = False  # electrical idle: the data stream is over
            return
        syms = [self.sym(i, v) for i, v in enumerate(vals)]
        s0 = syms[0][0]
        if s0 == phy.K | phy.COM:
            self.kidx = 0
            self.os = -1
            return
        if self.os == -1:  # the symbol after COM says which OS
            if s0 == phy.K | phy.SKP:
                self.os = 0
                self.skp = True
                return
            if s0 == phy.K | phy.IDL:
                self.os = 2
                self.kidx += 1
                return
            self.os = 14
            self.kidx += 1
            if getattr(self, "ran", False) and not self.ts:
                self.retrain = True  # training after a data stream ran
            if not self.ts:
                self.polling = False
            if s0 == phy.K | phy.PAD:
                self.polling = True  # Link number PAD: Polling, after Detect
            self.ts = True
            self.trained = False
            return
        if self.skp and s0 == phy.K | phy.SKP:
            return
        self.skp = False
        if self.os > 0:
            self.os -= 1
            self.kidx += 1
            return
        if self.kidx is None:
            return
        key = self.keys[self.kidx]
        self.kidx += 1
        self.ran = True
        if self.scr is None and not s0 & phy.K:
            self.scr = (s0 & 255) == key
        data = []
        for v, err in syms:
            if not v & phy.K and self.scr:
                v ^= key
            data.append((v, err))
        if self.ts:
            self.ts = False
            self.trained = True
            self.out.event(t, 4 if getattr(self, "retrain", False) else 1, self.d,
                           getattr(self, "polling", False))
            self.retrain = False
        for i, (v, err) in enumerate(data):
            self.stream(t, v, err)

    def stream(self, t, v, err):
        if self.pkt is None:
            if v == phy.K | phy.STP or v == phy.K | phy.SDP:
                self.pkt = [t, 2 if v == phy.K | phy.STP else 1, bytearray(), err]
            return
        if v == phy.K | phy.END or v == phy.K | phy.EDB:
            t0, kind, b, e = self.pkt
            self.out.packet(t0, kind, self.d, bytes(b), e or err)
            self.pkt = None
            return
        if v & phy.K:
            t0, kind, b, e = self.pkt
            self.out.packet(t0, kind, self.d, bytes(b), True)
            self.pkt = None
            self.stream(t, v, err)
            return
        self.pkt[2].append(v & 255)
        self.pkt[3] |= err


Rx8.keys = phy.keys8b10b(1 << 14)


class Rx128:
    def __init__(self, d, n, out):
        self.d, self.n, self.out = d, n, out
        self.lanes = [bytearray() for _ in range(n)]
        self.sync = None
        self.lfsr = [phy.LANE_SEEDS[i % 8] for i in range(n)]
        self.ts = False
        self.trained = False
        self.data = False
        self.buf = bytearray()
        self.times = []
        self.t0 = None
        self.want = None

    def word(self, t, lane_words, bpw):
        for lane, (data, sync, start, valid) in enumerate(lane_words):
            if data is None:
                self.trained = False
                return
            if not valid:
                return
            if start:
                if lane == 0:
                    self.block_t = []
                    self.sync = sync
                self.lanes[lane] = bytearray()
            for j in range(bpw):
                self.lanes[lane].append(data >> (8 * j) & 255)
        self.block_t.append(t)
        if len(self.lanes[0]) == 16:
            self.block()

    def block(self):
        n = self.n
        times = [self.block_t[j * len(self.block_t) // 16] for j in range(16)]
        if self.sync == 0b01:
            s0 = self.lanes[0][0]
            if s0 == 0xAA:
                for lane in range(n):
                    b = self.lanes[lane]
                    self.lfsr[lane] = (b[13] & 127) << 16 | b[14] << 8 | b[15]
                return
            if s0 == 0x00:  # EIEOS
                self.lfsr = [phy.LANE_SEEDS[i % 8] for i in range(n)]
                return
            for lane in range(n):
                for j in range(16):
                    self.lfsr[lane], _ = phy.step128(self.lfsr[lane])
            if s0 in (0x1E, 0x2D):
                if getattr(self, "ran", False) and not self.ts:
                    self.retrain = True
                self.ts = True
                self.trained = False
            if s0 == 0xE1:
                self.sds = True
            return
        out = bytearray(16 * n)
        self.ran = True
        for lane in range(n):
            st = self.lfsr[lane]
            b = self.lanes[lane]
            for j in range(16):
                st, key = phy.step128(st)
                out[j * n + lane] = b[j] ^ key
            self.lfsr[lane] = st
        if getattr(self, "sds", False):
            self.sds = False
            if self.ts:
                self.ts = False
                self.trained = True
                self.out.event(times[0], 4 if getattr(self, "retrain", False) else 1, self.d)
                self.retrain = False
            self.want = None
            self.buf = bytearray()
        for i, v in enumerate(out):
            self.byte(times[i // n], i % n, v)

    def byte(self, t, lane, v):
        if self.want is None:
            self.tok = [t]
            self.buf = bytearray([v])
            if v == 0x00:
                return
            self.want = 1
        else:
            self.buf.append(v)
        b = self.buf
        if len(b) == 1:
            if b[0] == 0xF0:
                self.want = 8
            elif b[0] & 15 == 15 or b[0] == 0x1F:
                self.want = 4
            elif b[0] == 0xC0:
                self.want = 4
            else:
                self.out.malformed(t, "token %02x" % b[0])
                self.want = None
            return
        if len(b) == 4 and self.want == 4:
            if bytes(b) == phy.EDS128 or bytes(b) == phy.EDB128:
                self.want = None
                if bytes(b) == phy.EDB128:
                    self.out.nullify_last(self.d)
                return
            ldw = (b[1] & 127) << 4 | b[0] >> 4
            c, p = phy.frame_crc(ldw)
            if b[2] >> 4 != c or b[1] >> 7 != p:
                self.out.malformed(self.tok[0], "FCRC")
                self.want = None
                return
            self.want = 4 * ldw
        if len(b) == self.want:
            if b[0] == 0xF0:
                self.out.packet(self.tok[0], 1, self.d, bytes(b[2:]), False)
            else:
                self.out.packet(self.tok[0], 2, self.d, bytes([b[2] & 15, b[3]]) + bytes(b[4:]),
                                False)
            self.want = None


class Out:
    def __init__(self):
        self.recs = []
        self.trained = {}
        self.n = 0

    def event(self, t, code, d, polling=False):
        # as the reader does (reader_vcd.c): link-up once, for a training
        # before any data stream; a training after one is a recovery,
        # unless port D (down) trained from Polling (Link number PAD)
        self.trained[d] = t
        if code == 4:
            self.retrain = True
        if polling and d == 0:
            self.polling_down = True
        if len(self.trained) == 2:
            code = 4 if (getattr(self, "linked", False) or getattr(self, "retrain", False)) else 1
            if getattr(self, "polling_down", False):
                code = 1
            self.polling_down = False
            self.linked = True
            self.retrain = False
            self.add(max(self.trained.values()), 3, 0, bytes([code, 0, 0, 0]))
            self.trained = {}

    def packet(self, t, kind, d, b, err):
        self.add(t, kind, d | (4 if err else 0), b)

    def nullify_last(self, d):
        pass

    def malformed(self, t, why):
        sys.stderr.write("refread: malformed at %d ps: %s\n" % (t, why))

    def add(self, t, kind, flags, b):
        self.n += 1
        self.recs.append((t, flags & 1, self.n, kind, flags, b))


def main():
    vcd, outp = sys.argv[1], sys.argv[2]
    m = parse_args(sys.argv[3:])
    keys = m["lanes"]["down"]
    out = Out()
    n = 0
    smp = samples(vcd, m)
    form = "code10" if "code" in keys else "sym" if "sym" in keys else \
        "gen3" if "sync" in keys else "pipe"
    rx = {}
    width = None
    for t, cur in smp:
        if n == 0:
            n = 1 + max(s[2] for s in cur) if cur else 0
            if not n:
                continue
            for d in ("down", "up"):
                di = 0 if d == "down" else 1
                rx[d] = Rx128(di, n, out) if form == "gen3" else Rx8(di, n, form, out)
                rx[d].bpw = m.get("bpw", 1)
        for d in ("down", "up"):
            if form == "gen3":
                words = []
                for lane in range(n):
                    words.append((cur.get((d, "data", lane)), cur.get((d, "sync", lane)),
                                  cur.get((d, "start", lane)), cur.get((d, "valid", lane))))
                if width is None:
                    width = 1
                rx[d].word(t, words, rx[d].bpw)
                continue
            if form in ("code10", "sym"):
                key = "code" if form == "code10" else "sym"
                rx[d].row(t, [cur.get((d, key, lane)) for lane in range(n)])
                continue
            data = [cur.get((d, "data", lane)) for lane in range(n)]
            kk = [cur.get((d, "k", lane)) for lane in range(n)]
            for j in range(rx[d].bpw):
                row = []
                for lane in range(n):
                    if data[lane] is None or kk[lane] is None:
                        row.append(None)
                    else:
                        row.append((data[lane] >> 8 * j & 255) | (kk[lane] >> j & 1) << 8)
                rx[d].row(t, row)
    w = PcapWriter(outp)
    for t, _, _, kind, flags, b in sorted(out.recs):
        w.record(t, kind, flags, b)
    w.close()


if __name__ == "__main__":
    main()
