#!/bin/sh
# The 128b/130b scrambler (8 lanes x 256 bytes from the seeds) and the STP
# Frame CRC, parity and packing (all 2048 Lengths) against the checked
# reference functions of shared/vectors/phy_ref.py (Scrambler128b,
# frame_crc, stp_pack).  phy_ref.py lives beside the repository, not in it:
# without it (a release tarball, CI) the test is skipped.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
need_phy_ref
dump="$(dirname "$DLLPCHECK")/tests/phy128b-dump"
"$dump" >"$tmpdir/c.txt" || fail "$dump failed"
python3 - "$ref" "$tmpdir/c.txt" >"$tmpdir/diff.txt" <<'PY' || fail "the C scrambler or frame CRC differs from phy_ref.py"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("phy_ref", sys.argv[1])
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)
want = []
for lane in range(8):
    s = ref.Scrambler128b(lane)
    for i in range(256):
        want.append("key %d %d %02x" % (lane, i, s.key()))
for l in range(2048):
    c, p = ref.frame_crc(l)
    t = ref.stp_pack(l, 0xA5C)
    want.append("fcrc %d %d %d %s" % (l, c, p, " ".join("%02x" % b for b in t)))
got = open(sys.argv[2]).read().split("\n")[:-1]
bad = 0
if len(got) != len(want):
    print("%d lines, phy_ref.py gives %d" % (len(got), len(want)))
    bad += 1
for g, w in zip(got, want):
    if g != w:
        bad += 1
        if bad <= 10:
            print("C: %s\n   phy_ref.py: %s" % (g, w))
print("%d lines compared, %d differ" % (len(want), bad))
sys.exit(1 if bad else 0)
PY
sed 's/^/  /' "$tmpdir/diff.txt"
[ "$failures" -gt 0 ] || pass
finish
