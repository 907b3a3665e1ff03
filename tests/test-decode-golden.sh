#!/bin/sh
# Golden --decode tests: every tests/golden/NAME.trace decodes to exactly
# NAME.decode; the same input written with --write-pcap and decoded again
# gives the same lines (times are whole nanoseconds in these traces), and
# the bytes of NAME.pcap where there is one.
. "${srcdir:-.}/tests/test-subr.sh"
set -e

for trace in "$srcdir"/tests/golden/*.trace; do
	name=$(basename "$trace" .trace)
	cd "$srcdir"
	run_dllpcheck --decode "tests/golden/$name.trace"
	cd - >/dev/null
	cp "$tmpdir/out" "$tmpdir/$name.decode"
	compare_golden "$srcdir/tests/golden/$name.decode" "$tmpdir/$name.decode" "decode of $name"

	run_dllpcheck --write-pcap "$tmpdir/$name.pcap" "$trace"
	# A NAME.pcap beside it holds the bytes the lines must build (made
	# before a change of the builder: the symbolic lines keep their bytes).
	if [ -f "$srcdir/tests/golden/$name.pcap" ]; then
		if cmp -s "$srcdir/tests/golden/$name.pcap" "$tmpdir/$name.pcap"; then pass; else
			fail "--write-pcap of $name differs from tests/golden/$name.pcap"
		fi
	fi
	run_dllpcheck --decode "$tmpdir/$name.pcap"
	expect_status 0 "decode of $name.pcap"
	# Malformed text lines are not written to the pcap: compare the rest.
	grep -v ' malformed ' "$tmpdir/$name.decode" | cut -d' ' -f2- >"$tmpdir/a"
	cut -d' ' -f2- "$tmpdir/out" >"$tmpdir/b"
	if diff -u "$tmpdir/a" "$tmpdir/b" >"$tmpdir/diff"; then pass; else
		fail "pcap round trip of $name"; head -20 "$tmpdir/diff"
	fi
done
finish
