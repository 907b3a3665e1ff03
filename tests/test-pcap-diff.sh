#!/bin/sh
# The differential test of the own pcap and pcapng readers against libpcap
# (capture-format.md section 1): tests/pcap-diff reads each capture, and 300
# variants of it (half of a classic pcap's are pcapng made from it), through
# libpcap and through the own reader and fails on any difference where
# libpcap reads the whole input (see tests/pcap-diff.c).  The captures: the
# samples, the scenario and fuzz-corpus pcaps and pcapngs, and the golden
# decode traces and a long clean trace written as pcap by --write-pcap.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
diff_prog=$(dirname "$DLLPCHECK")/tests/pcap-diff

for t in "$srcdir"/tests/golden/*.trace "$srcdir"/samples/*.trace; do
	run_dllpcheck --write-pcap "$tmpdir/$(basename "$t" .trace).written.pcap" "$t"
	[ "$status" -le 1 ] && pass || fail "--write-pcap $t: exit status $status"
done
sh "$srcdir/tests/gen-long-clean.sh" 400 >"$tmpdir/long.trace"
run_dllpcheck --write-pcap "$tmpdir/long.written.pcap" "$tmpdir/long.trace"
expect_status 0 "--write-pcap of the long clean trace"

# the fuzz corpus is in the repository, not in a release tarball
set --
for f in "$srcdir"/samples/*.pcap "$srcdir"/tests/scenarios/*/*.pcap \
	"$srcdir"/tests/fuzz/corpus/pcap/*.pcap "$srcdir"/tests/fuzz/corpus/pcap/*.pcapng \
	"$tmpdir"/*.written.pcap; do
	[ -f "$f" ] && set -- "$@" "$f"
done
[ $# -gt 10 ] && pass || fail "only $# captures to compare on"
set +e
"$diff_prog" -m 300 -s 12 "$@" >"$tmpdir/diff.out" 2>&1
rc=$?
set -e
tail -1 "$tmpdir/diff.out"
if [ "$rc" -eq 0 ]; then pass; else
	fail "the readers differ (exit status $rc)"; grep -v '^[0-9]* inputs' "$tmpdir/diff.out" | head -20
fi
finish
