#!/bin/sh
# The 8b/10b tables and the Gen1/2 scrambler of src/read/lanes/ against the
# project's reference functions (../shared/vectors/phy_ref.py, checked
# there against two independent decoders; phy-digest.md section 7):
# tests/dump-8b10b prints the C tables, and phy_ref's enc8b10b /
# table_8b10b / dec8b10b / Scrambler8b10b must give the same for all 536
# symbols, all 2048 (code, RD) decodes (errors and the RD after them too)
# and 256 keys.  Skipped where ../shared is absent (a release tarball, CI).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
need_phy_ref
dump=$(dirname "$DLLPCHECK")/tests/dump-8b10b
"$dump" >"$tmpdir/c.txt" && pass || fail "$dump: exit status $?"
set +e
PHY_REF_DIR=$(dirname "$ref") python3 - "$tmpdir/c.txt" >"$tmpdir/py.out" 2>&1 <<'PY'
import os, sys
sys.path.insert(0, os.environ["PHY_REF_DIR"])
import phy_ref as p

enc, dec, key = {}, {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    v = [int(x) for x in f[1:]]
    if f[0] == "enc":
        enc[(v[0], v[1], v[2])] = (v[3], v[4])
    elif f[0] == "dec":
        dec[(v[0], v[1])] = tuple(v[2:])
    else:
        key[v[0]] = v[1]
RD = {0: -1, 1: +1}
bad = 0
def err(msg):
    global bad
    bad += 1
    if bad <= 20:
        print(msg)
# every symbol that exists, both disparities: the code and the RD after
want = {}
for rd in (0, 1):
    for b in range(256):
        want[(rd, 0, b)] = p.enc8b10b(b, False, RD[rd])
    for b in sorted(p.VALID_K):
        want[(rd, 1, b)] = p.enc8b10b(b, True, RD[rd])
if len(want) != 536 or set(want) != set(enc):
    err("enc: C has %d symbols, phy_ref %d" % (len(enc), len(want)))
for k, (s, r) in want.items():
    if k in enc and enc[k] != (s, 0 if r < 0 else 1):
        err("enc %s: C %s, phy_ref %s" % (k, enc[k], (s, r)))
# table_8b10b: the same 536 entries seen from the decode side
t = p.table_8b10b()
for (s, rd), (b, k, r) in t.items():
    c = dec.get((0 if rd < 0 else 1, s))
    if c != (b, int(k), 0 if r < 0 else 1, 0):
        err("table (%03X, %d): C %s, phy_ref %s" % (s, rd, c, (b, k, r)))
# every 10-bit value: dec8b10b's byte, K, RD after and error
E = {None: 0, "disparity": 1, "code": 2}
for rd in (0, 1):
    for s in range(1024):
        b, k, r, e = p.dec8b10b(s, RD[rd])
        c = dec[(rd, s)]
        w = (b if b is not None else 0, int(k), 0 if r < 0 else 1, E[e])
        if c != w:
            err("dec (%03X, %d): C %s, phy_ref %s" % (s, RD[rd], c, w))
sc = p.Scrambler8b10b()
for i in range(256):
    w = sc.key()
    if key.get(i) != w:
        err("key %d: C %s, phy_ref %02X" % (i, key.get(i), w))
print("compared %d symbols, %d decodes, %d keys: %d differences" %
      (len(want), len(dec), len(key), bad))
sys.exit(1 if bad else 0)
PY
rc=$?
set -e
cat "$tmpdir/py.out"
[ "$rc" -eq 0 ] && pass || fail "the C tables differ from phy_ref.py"
finish
