#!/usr/bin/env python3
"""compare.py: the round-trip comparisons of tests/test-lanes.sh.

    compare.py pcap WANT.pcap GOT.pcap [--loose-phy-error] [--window=T0:T1]
                    [--require-damage] [--findings GOT.json]
    compare.py findings WANT.json GOT.json
    compare.py batch LIST   (each line: NAME<TAB>pcap|findings<TAB>ARGS...)

pcap: the two captures (capture-format.md section 1) record by record:
kind, direction, flags, link, bytes, time.  --window=T0:T1 (ps, T1 may be
"inf") leaves out the records of both whose time is in [T0, T1): what a
damage may spoil there is not known exactly.  --loose-phy-error does not
compare the bytes of records both mark PHY_ERROR (an invalid code has no
byte).  --require-damage: GOT must show the damage, as a PHY_ERROR record
(in the window, if one is given) or a capture.malformed finding in the
--findings report.
findings: the findings of two `dllpcheck --format=json` reports, in order:
rule, severity, time_ps, record, link, port.
Prints the first difference and exits 1; exits 0 when they agree.
"""
import argparse
import json
import struct
import sys

PHY_ERROR = 0x04
KINDS = {1: "DLLP", 2: "TLP", 3: "event"}


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    table = {b"\xd4\xc3\xb2\xa1": ("<", 1000000), b"\x4d\x3c\xb2\xa1": ("<", 1000),
             b"\xa1\xb2\xc3\xd4": (">", 1000000), b"\xa1\xb2\x3c\x4d": (">", 1000)}
    if data[:4] not in table:
        raise SystemExit("compare.py: %s: not a classic pcap" % path)
    endian, unit = table[data[:4]]
    out, off, n = [], 24, 0
    while off + 16 <= len(data):
        sec, frac, incl, _ = struct.unpack(endian + "IIII", data[off:off + 16])
        body = data[off + 16:off + 16 + incl]
        off += 16 + incl
        n += 1
        if len(body) < 4:
            out.append((n, sec * 10 ** 12 + frac * unit, None, 0, 0, body))
            continue
        out.append((n, sec * 10 ** 12 + frac * unit, body[1], body[2], body[3], body[4:]))
    return out


def show(r):
    n, t, kind, flags, link, payload = r
    return "record %d t=%d ps %s %s flags=0x%02x link %d: %s" % (
        n, t, KINDS.get(kind, str(kind)), "up" if flags & 1 else "down", flags, link,
        payload.hex(" "))


def cmp_pcap(a):
    want, got = read_pcap(a.want), read_pcap(a.got)
    t0, t1 = 0, -1
    if a.window:
        lo, hi = a.window.split(":")
        t0, t1 = int(lo), (float("inf") if hi == "inf" else int(hi))

    def inwin(r):
        return t0 <= r[1] < t1

    if a.require_damage:
        found = any(r[3] & PHY_ERROR and (not a.window or inwin(r)) for r in got)
        if not found and a.findings:
            with open(a.findings) as f:
                rep = json.load(f)
            for inp in rep.get("inputs", []):
                for fd in inp.get("findings", []):
                    if fd["rule"] == "capture.malformed" and \
                            (not a.window or t0 <= fd.get("time_ps", t0) < t1):
                        found = True
        if not found:
            print("%s: the damage shows nowhere: no PHY_ERROR record%s and no "
                  "capture.malformed" % (a.got, " in the window" if a.window else ""))
            return 1
    if a.window:
        want = [r for r in want if not inwin(r)]
        got = [r for r in got if not inwin(r)]
    for i in range(max(len(want), len(got))):
        if i >= len(want):
            print("%s has more records than %s; the first extra: %s" % (a.got, a.want,
                                                                       show(got[i])))
            return 1
        if i >= len(got):
            print("%s ends early; %s goes on with: %s" % (a.got, a.want, show(want[i])))
            return 1
        w, g = want[i], got[i]
        same = w[1:5] == g[1:5]
        if same and w[5] != g[5]:
            same = a.loose_phy_error and w[3] & PHY_ERROR and g[3] & PHY_ERROR
        if not same:
            print("record %d differs:\n  want %s\n  got  %s" % (i + 1, show(w), show(g)))
            return 1
    return 0


KEYS = ("rule", "severity", "time_ps", "record", "link", "port")


def findings(path):
    with open(path) as f:
        rep = json.load(f)
    out = []
    for inp in rep.get("inputs", []):
        for fd in inp.get("findings", []):
            out.append(tuple(fd.get(k) for k in KEYS))
    return out


def cmp_findings(a):
    want, got = findings(a.want), findings(a.got)
    for i in range(max(len(want), len(got))):
        w = want[i] if i < len(want) else None
        g = got[i] if i < len(got) else None
        if w != g:
            fmt = lambda x: "none" if x is None else ", ".join(  # noqa: E731
                "%s=%s" % kv for kv in zip(KEYS, x))
            print("finding %d differs:\n  want %s\n  got  %s" % (i + 1, fmt(w), fmt(g)))
            return 1
    return 0


def batch(path):
    """Every comparison of LIST in one process; prints FAIL lines and
    'N passed, N failed'."""
    import io
    import contextlib
    import shlex
    passed = failed = 0
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            name, rest = line.rstrip("\n").split("\t", 1)
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                try:
                    st = main(shlex.split(rest))
                except SystemExit as e:
                    st = e.code
            if st:
                failed += 1
                print("FAIL: %s" % name)
                for out in buf.getvalue().splitlines()[:4]:
                    print("  " + out)
            else:
                passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main(argv=None):
    if argv is None and len(sys.argv) == 3 and sys.argv[1] == "batch":
        sys.exit(batch(sys.argv[2]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("pcap", "findings"))
    ap.add_argument("want")
    ap.add_argument("got")
    ap.add_argument("--loose-phy-error", action="store_true")
    ap.add_argument("--window")
    ap.add_argument("--require-damage", action="store_true")
    ap.add_argument("--findings")
    a = ap.parse_args(argv)
    return cmp_pcap(a) if a.what == "pcap" else cmp_findings(a)


if __name__ == "__main__":
    sys.exit(main())
