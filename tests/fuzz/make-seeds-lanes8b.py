#!/usr/bin/env python3
"""make-seeds-lanes8b.py: writes the seeds of fuzz_lanes8b
(tests/fuzz/corpus/lanes8b/): lane streams of training ordered sets,
logical idle, SKP ordered sets, a DLLP, a TLP and a nullified TLP, at
several widths, forms and scramblings, in the target's input layout
(fuzz_lanes8b.c).  The 8b/10b encoder is tools/gen-8b10b.py's.

    tests/fuzz/make-seeds-lanes8b.py      (from the top of the source tree)
"""
import importlib.util
import os
import struct

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
spec = importlib.util.spec_from_file_location("gen", os.path.join(TOP, "tools", "gen-8b10b.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

COM, STP, SDP, END, EDB, PAD, SKP = 0xBC, 0xFB, 0x5C, 0xFD, 0xFE, 0xF7, 0x1C
WIDTH_CODE = {1: 0, 2: 1, 4: 2, 8: 3, 12: 4, 16: 5, 32: 6}


class Lane:
    def __init__(self, rd):
        self.rd, self.lfsr = rd, 0xFFFF

    def key(self):
        k = 0
        for i in range(8):
            b = self.lfsr >> 15 & 1
            k |= b << i
            self.lfsr = (self.lfsr << 1 & 0xFFFF) ^ (0x39 if b else 0)
        return k


def stream(width, scrambled, sym):
    lanes = [Lane(i & 1) for i in range(width)]
    rows, q = [], []

    def emit(lane, b, k, os_):
        ln = lanes[lane]
        v = b
        if k and b == COM:
            ln.lfsr = 0xFFFF
        elif not (k and b == SKP):
            key = ln.key()
            if not k and not os_ and scrambled:
                v ^= key
        if sym:
            return (0x100 if k else 0) | v
        c, ln.rd = gen.enc(v, k, ln.rd)
        return c

    def os_(syms):
        for b, k in syms:
            rows.append([emit(i, b, k, True) for i in range(width)])

    def put(b, k=False):
        q.append((b, k))
        if len(q) == width:
            rows.append([emit(i, b2, k2, False) for i, (b2, k2) in enumerate(q)])
            q.clear()

    def fill():
        while q:
            put(PAD if width >= 8 else 0, width >= 8)

    ts = [(COM, 1), (PAD, 1), (PAD, 1), (0x20, 0), (2, 0), (0, 0)]
    for n in (0x4A, 0x45):
        for _ in range(2):
            os_(ts + [(n, 0)] * 10)
    for _ in range(4 * width):
        put(0)
    put(SDP, True)
    for b in (0x40, 0x08, 0x03, 0xF0, 0x12, 0x34):
        put(b)
    put(END, True)
    for edb in (False, True):
        put(STP, True)
        for i in range(18):
            put(i)
        put(EDB if edb else END, True)
        fill()
        os_([(COM, 1), (SKP, 1), (SKP, 1), (SKP, 1)])
        for _ in range(width):
            put(0)
    return rows


def main():
    d = os.path.join(TOP, "tests", "fuzz", "corpus", "lanes8b")
    os.makedirs(d, exist_ok=True)
    for width in (1, 2, 4, 8, 16):
        for scrambled in (False, True):
            for sym in (False, True):
                opt = WIDTH_CODE[width] | (8 if sym else 0) | 0x40
                data = bytes([opt]) + b"".join(
                    struct.pack("<%dH" % width, *row) for row in stream(width, scrambled, sym))
                name = "x%d-%s-%s" % (width, "scr" if scrambled else "plain",
                                      "sym" if sym else "code")
                with open(os.path.join(d, name), "wb") as f:
                    f.write(data)


if __name__ == "__main__":
    main()
