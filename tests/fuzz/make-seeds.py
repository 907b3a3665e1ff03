#!/usr/bin/env python3
"""make-seeds.py: (re)builds the seed corpora of the fuzz targets from the
project's own inputs.

    tests/fuzz/make-seeds.py [DLLPCHECK]

DLLPCHECK (default ./dllpcheck) is used for --write-pcap.  Writes
tests/fuzz/corpus/{pcap,text,dllp,tlp,pipeline}/; files already there are
kept (grown units merged in by run-fuzzers users stay).  Run from the top
of the source tree.
"""
import glob
import os
import struct
import subprocess
import sys
import tempfile

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CORPUS = os.path.join(TOP, "tests", "fuzz", "corpus")


def put(target, name, data):
    d = os.path.join(CORPUS, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def strip_comment_lines(data):
    """The trace without its whole-line comments (seeds stay small; the
    samples keep theirs, so comments are still covered)."""
    return b"".join(l for l in data.splitlines(keepends=True)
                    if not l.lstrip().startswith(b"#"))


def vector_bytes(path):
    """Column 1 of a vector file, as bytes, one per line."""
    out = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        out.append(bytes.fromhex(line.split()[0]))
    return out


def pcap_records(data):
    """(ts_sec, ts_frac, caplen, wirelen, bytes) of a little-endian classic
    pcap as pcap_writer.c writes it."""
    magic, = struct.unpack_from("<I", data, 0)
    assert magic in (0xA1B23C4D, 0xA1B2C3D4), hex(magic)
    pos, recs = 24, []
    while pos + 16 <= len(data):
        sec, frac, cap, wire = struct.unpack_from("<IIII", data, pos)
        recs.append((sec, frac, cap, wire, data[pos + 16:pos + 16 + cap]))
        pos += 16 + cap
    return magic, recs


def to_big_endian_usec(data):
    """The same records as a big-endian microsecond pcap."""
    magic, recs = pcap_records(data)
    out = struct.pack(">IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 147)
    for sec, frac, cap, wire, b in recs:
        usec = frac // 1000 if magic == 0xA1B23C4D else frac
        out += struct.pack(">IIII", sec, usec, cap, wire) + b
    return out


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def block(btype, body):
    n = 12 + len(body)
    return struct.pack("<II", btype, n) + body + struct.pack("<I", n)


def to_pcapng(data):
    """The same records as pcapng: SHB, one IDB (if_tsresol 9: ns), EPBs."""
    magic, recs = pcap_records(data)
    shb = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    opts = struct.pack("<HH", 9, 1) + pad4(b"\x09") + struct.pack("<HH", 0, 0)
    idb = block(1, struct.pack("<HHI", 147, 0, 65535) + opts)
    out = shb + idb
    for sec, frac, cap, wire, b in recs:
        ns = frac if magic == 0xA1B23C4D else frac * 1000
        ts = sec * 1000000000 + ns
        body = struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, cap, wire)
        out += block(6, body + pad4(b))
    return out


def main():
    dllpcheck = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "dllpcheck")
    traces = sorted(glob.glob(os.path.join(TOP, "samples", "*.trace")) +
                    glob.glob(os.path.join(TOP, "tests", "golden", "*.trace")))
    scen = sorted(glob.glob(os.path.join(TOP, "tests", "scenarios", "*", "*.trace")))
    scen_pcaps = sorted(glob.glob(os.path.join(TOP, "tests", "scenarios", "*", "*.pcap")))

    def sname(p):  # tests/scenarios/fc.init.order/fire.trace -> fc.init.order-fire.trace
        return os.path.basename(os.path.dirname(p)) + "-" + os.path.basename(p)

    # text
    for t in traces:
        put("text", os.path.basename(t), read(t))
    for t in scen:
        put("text", sname(t), strip_comment_lines(read(t)))

    # pcap: the samples, the scenario pcaps, and pcaps written from traces,
    # each also as big-endian microsecond pcap and as pcapng
    pcaps = {}
    for p in sorted(glob.glob(os.path.join(TOP, "samples", "*.pcap"))):
        pcaps[os.path.basename(p)] = read(p)
    for p in scen_pcaps:
        pcaps[sname(p)] = read(p)
    with tempfile.TemporaryDirectory() as tmp:
        for t in traces:
            name = os.path.basename(t)[:-len(".trace")] + ".written.pcap"
            out = os.path.join(tmp, name)
            subprocess.run([dllpcheck, "--write-pcap", out, t],
                           stderr=subprocess.DEVNULL, check=False)
            if os.path.exists(out) and read(out) not in pcaps.values():
                pcaps[name] = read(out)
    for name, data in sorted(pcaps.items()):
        put("pcap", name, data)
        if len(data) <= 2048:
            put("pcap", name[:-5] + ".be-usec.pcap", to_big_endian_usec(data))
            put("pcap", name[:-5] + ".pcapng", to_pcapng(data))

    # dllp: the 6 bytes of each vector
    for i, b in enumerate(vector_bytes(os.path.join(TOP, "tests", "vectors", "dllp_vectors.txt"))):
        put("dllp", "vector-%02d" % i, b)

    # tlp: byte 0 has_seq|has_lcrc (|4: encoder round trip), byte 1 not
    # truncated, then the vector bytes; a few truncated and no-seq forms
    for i, b in enumerate(vector_bytes(os.path.join(TOP, "tests", "vectors", "tlp_vectors.txt"))):
        if len(b) > 512:
            # the 1024 DW vector, whole and truncated (byte 1 says so)
            put("tlp", "vector-%02d-trunc" % i, bytes([3, 0x80 + 63]) + b[:512])
        put("tlp", "vector-%02d" % i, bytes([3 | (4 if i % 3 == 0 else 0), 0]) + b)
        if i % 4 == 1:
            put("tlp", "vector-%02d-noseq" % i, bytes([2, 0]) + b[2:])
            put("tlp", "vector-%02d-nocrc" % i, bytes([1, 0]) + b[:-4])

    # pipeline: option byte + input, several option bytes
    opts = [0x00, 0x01, 0x02, 0x03, 0x15, 0x26, 0x49, 0x7A, 0x80, 0xC1]
    k = 0
    for name, data in sorted(pcaps.items()):
        if len(data) <= 2048:
            put("pipeline", "%02x-%s" % (opts[k % len(opts)], name), bytes([opts[k % len(opts)]]) + data)
            k += 1
    for t in traces + [t for t in scen if t.endswith("fire.trace")]:
        data = strip_comment_lines(read(t)) if t in scen else read(t)
        if len(data) <= 4096:
            o = opts[k % len(opts)]
            put("pipeline", "%02x-%s" % (o, sname(t) if t in scen else os.path.basename(t)),
                bytes([o]) + data)
            k += 1


if __name__ == "__main__":
    main()
