#!/bin/sh
# The lane-level reader end to end (capture-format.md section 4) on the
# small hand-sized VCD of tests/vcd (x1 each way, 10-bit code groups,
# training, scrambled logical idle, a SKP ordered set, 12 InitFC DLLPs,
# three TLPs and an Ack; a $var string, a $var real and $comment that
# must be skipped; made by tests/vcd/make-small-vcd.py from the first
# packets of samples/clean-init.pcap):
#  - found by content and its lanes by name, with a note saying so; the
#    same records with --lanes and --lane-clock given; a link-up first;
#  - the records are those of the pcap they were made from (kind,
#    direction, bytes), in order; --write-pcap keeps them;
#  - gzip, zstd and standard input give the same;
#  - --dump-columns shows the mapping and the first symbols;
#  - the options reach the reader (--scrambled no on scrambled lanes,
#    a falling edge, --symbol-period, --lanes-dir) and bad mappings are
#    input errors naming what was found.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
v="$srcdir/tests/vcd/small-x1.vcd"
t="$tmpdir"

# the decode lines without record number and time: kind, direction, fields
strip() { sed -E 's/^[0-9]+ [0-9.]+ //' "$1"; }

run_dllpcheck "$v"
expect_status 0 "small VCD: clean"
expect_grep "$t/out" '^== .*small-x1\.vcd \(vcd\): 17 records read, 17 decoded, 0 malformed; findings: 0 error, 0 warning, 0 info$' "small VCD: summary"
expect_grep "$t/err" "lanes found by name: down lanes as down: 'tb\.lanemon\.down_lane\*'; up lanes as up: 'tb\.lanemon\.up_lane\*'; clock 'tb\.symclk' \(rising edge\)" "small VCD: the note of what was found"
run_dllpcheck -q "$v"
if [ ! -s "$t/err" ] && [ "$status" -eq 0 ]; then pass; else fail "small VCD: -q prints"; fi

# the records are those of the pcap, in order (the pcap's first 16
# packets, the link-up the training gives)
run_dllpcheck --decode "$v"
cp "$t/out" "$t/vcd.decode"
expect_grep "$t/vcd.decode" '^1 0\.000000520000 link0 down EVENT link-up$' "small VCD: link-up once both directions trained"
expect_grep "$t/vcd.decode" '^2 0\.000000584000 link0 down DLLP InitFC1-P vc=0 hdr=32 data=256 crc=ok$' "small VCD: the time of the SDP's edge"
run_dllpcheck --decode "$srcdir/samples/clean-init.pcap"
head -17 "$t/out" >"$t/pcap.decode"
strip "$t/vcd.decode" >"$t/a"
strip "$t/pcap.decode" >"$t/b"
if diff -u "$t/b" "$t/a" >"$t/diff"; then pass; else
	fail "small VCD: records differ from the pcap's"; head -20 "$t/diff"
fi
n=$(grep -c 'crc=ok\|lcrc=ok' "$t/vcd.decode" || true)
[ "$n" -eq 16 ] && pass || fail "small VCD: $n packets with a good CRC, expected 16"

# --lanes and --lane-clock given: the same records, and no note
run_dllpcheck --decode --lanes 'down:code=tb.lanemon.down_lane*' --lanes 'up:code=up_lane*' --lane-clock tb.symclk:rising "$v"
compare_golden "$t/vcd.decode" "$t/out" "small VCD with --lanes"
if [ ! -s "$t/err" ]; then pass; else fail "small VCD with --lanes: a note"; cat "$t/err"; fi
# one direction only: its records, and link-up when that one trained
run_dllpcheck --decode --lanes 'up:code=up_lane*' --lane-clock symclk "$v"
expect_grep "$t/out" '^1 0\.000000520000 link0 down EVENT link-up$' "up lanes only: link-up"
if grep -v EVENT "$t/out" | grep -q ' down '; then fail "up lanes only: a down record"; else pass; fi

# --write-pcap keeps them
run_dllpcheck --write-pcap "$t/from-vcd.pcap" "$v"
expect_status 0 "--write-pcap from a VCD"
run_dllpcheck --decode "$t/from-vcd.pcap"
compare_golden "$t/vcd.decode" "$t/out" "the pcap written from the VCD"

# compressed and on standard input: the same records
if command -v gzip >/dev/null && command -v zstd >/dev/null; then
	gzip -c "$v" >"$t/small.vcd.gz"
	zstd -q -c "$v" >"$t/small.vcd.zst"
	for f in "$t/small.vcd.gz" "$t/small.vcd.zst"; do
		run_dllpcheck --decode "$f"
		compare_golden "$t/vcd.decode" "$t/out" "small VCD as $(basename "$f")"
	done
	run_dllpcheck --decode - <"$t/small.vcd.gz"
	compare_golden "$t/vcd.decode" "$t/out" "gzip'd VCD on standard input"
fi
run_dllpcheck --decode - <"$v"
compare_golden "$t/vcd.decode" "$t/out" "VCD on standard input"

# --input-format vcd, and a VCD whose first word is none of the
# keywords that tell it (a $dumpvars first) read as one
{ echo '$dumpvars $end'; cat "$v"; } >"$t/odd.vcd"
run_dllpcheck --input-format vcd "$t/odd.vcd"
expect_status 2 "--input-format vcd: a value change before the header"
expect_grep "$t/err" 'odd\.vcd:1: VCD header: value changes \(.\$dumpvars.\) before \$enddefinitions' "--input-format vcd: the line named"
run_dllpcheck --input-format vcd "$srcdir/samples/clean-init.trace"
expect_status 2 "--input-format vcd on a text trace"
expect_grep "$t/err" 'clean-init\.trace:1: VCD header: value changes \(.#.\) before' "--input-format vcd on a text trace: the line named"

# --dump-columns: the mapping chosen and the first symbols of each lane
run_dllpcheck --dump-columns "$v"
expect_status 0 "--dump-columns on a VCD"
expect_grep "$t/out" '^format: vcd \(5 variables\)$' "--dump-columns: format"
expect_grep "$t/out" '^timescale: 1 ps$' "--dump-columns: timescale"
expect_grep "$t/out" '^clock: tb\.symclk, rising edge \(values just before it\) \(found by name\)$' "--dump-columns: clock"
expect_grep "$t/out" '^down: code \(10-bit 8b/10b code groups\), x1, 10 bits per lane$' "--dump-columns: form"
expect_grep "$t/out" '^  lane 0: code=tb\.lanemon\.up_lane0 \(10 bits, line 12\)$' "--dump-columns: the signal of a lane"
expect_grep "$t/out" '^  line 739: 2 0\.000000584000 link0 down DLLP InitFC1-P' "--dump-columns: the first records"
expect_grep "$t/out" '^  up lane 0 \(from t=0\.000000008000 s, line 32\): COM PAD PAD 10 02 00 4a 4a' "--dump-columns: the first symbols"

# the options reach the reader
run_dllpcheck --decode --scrambled no "$v"
if grep -q 'InitFC1-P vc=0 hdr=32 data=256 crc=ok' "$t/out"; then
	fail "--scrambled no on scrambled lanes: the DLLPs still read clean"
else pass; fi
run_dllpcheck --decode --scrambled yes "$v"
compare_golden "$t/vcd.decode" "$t/out" "--scrambled yes"
run_dllpcheck --decode --lane-clock symclk:falling "$v"
strip "$t/out" >"$t/a"
strip "$t/vcd.decode" >"$t/b"
# the data change with the rising edge: the falling edge half a symbol
# earlier sees the same symbols, so the same records, 2 ns earlier
if diff -q "$t/a" "$t/b" >/dev/null && grep -q '^2 0\.000000582000 ' "$t/out"; then pass; else
	fail "--lane-clock symclk:falling"; head -3 "$t/out"
fi
run_dllpcheck --decode --symbol-period 4ns "$v"
strip "$t/out" >"$t/a"
if diff -q "$t/a" "$t/b" >/dev/null; then pass; else fail "--symbol-period 4ns: other records"; fi

# mappings that cannot be: input errors naming what was found
run_dllpcheck --lanes 'down:code=down_lane*' --lane-clock nosuch "$v"
expect_status 2 "--lane-clock that matches nothing"
expect_grep "$t/err" "small-x1\.vcd: --lane-clock 'nosuch' matches no variable of the VCD" "--lane-clock that matches nothing: message"
run_dllpcheck --lanes 'down:data=down_lane*,k=symclk' --lane-clock symclk "$v"
expect_status 2 "--lanes data of 10 bits"
expect_grep "$t/err" "data of lane 0 is 'tb\.lanemon\.down_lane0', 10 bits wide: data wants 8, 16 or 32" "--lanes data of 10 bits: message"
run_dllpcheck --lanes 'sideways:code=x*' "$v"
expect_status 2 "--lanes with no direction"
run_dllpcheck --lane-clock symclk --symbol-period 4ns "$v"
expect_status 2 "--lane-clock with --symbol-period"
finish
