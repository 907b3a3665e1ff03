#!/bin/sh
# The two properties that keep every rule honest [rules.md "How the model
# reads a trace"], over every clean trace the project has (the clean
# sample, tests/clean/*.trace, and the long clean trace from
# gen-long-clean.sh with a few seeds, short enough to try every record):
#   - mid-stream: every suffix of a clean capture yields no error and no
#     warning;
#   - one damaged packet: a capture with exactly one DLLP CRC or TLP LCRC
#     damaged (each in turn) yields exactly one error, that CRC error;
#   - one damaged record header (each in turn): one capture.resync, no
#     error.
# tests/properties.py does the work on the pcap written from each trace.
. "${srcdir:-.}/tests/test-subr.sh"
set -e

traces="$srcdir/samples/clean-init.trace"
for t in "$srcdir"/tests/clean/*.trace; do traces="$traces $t"; done
for seed in 12345 7; do
	sh "$srcdir/tests/gen-long-clean.sh" 150 "$seed" >"$tmpdir/long-$seed.trace"
	traces="$traces $tmpdir/long-$seed.trace"
done

pcaps=""
for t in $traces; do
	p="$tmpdir/$(basename "$t" .trace).pcap"
	run_dllpcheck --write-pcap "$p" "$t"
	expect_status 0 "$t is clean"
	pcaps="$pcaps $p"
done

# shellcheck disable=SC2086
if python3 "$srcdir/tests/properties.py" "$DLLPCHECK" $pcaps >"$tmpdir/props" 2>&1; then
	pass
else
	fail "properties"
fi
grep -v '^[0-9]* passed' "$tmpdir/props" | head -40 || true
tail -1 "$tmpdir/props"
finish
