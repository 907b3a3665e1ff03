#!/bin/sh
# Clean transaction traffic at scale: bench/gen -m txn writes a capture in
# which both ports issue every kind of non-posted request (memory reads of
# 1 to 128 DW split into completions at 64- and 128-byte Read Completion
# Boundaries, MRdLk, I/O, Type 0/1 configuration, AtomicOps, DMWr) with
# 8-bit and 10-bit tags from several requesters, and answers each as the
# spec wants, with messages the right way on TC0 (bench/gen.c says how).
#   - tests/txn-verify.py, an oracle apart from dllpcheck, finds the
#     capture right by the spec facts (notes/tl-facts.md) and counts what
#     the generator says it sent; it fails on a capture with one Byte
#     Count wrong (so it can fail);
#   - dllpcheck reports nothing on the pcap, the hex and the symbolic text
#     trace (--fail-on info exits 0, no finding; the symbolic one's
#     --write-pcap is bench/gen's pcap byte for byte), and its --stats give the
#     generator's counts: TLPs charged, and per direction the requests by
#     kind, completed, still outstanding, completions (when the summary
#     has them);
#   - mid-stream: the capture cut at random record boundaries (the pcap
#     and the text trace, every suffix of each cut) reports no error and
#     no warning [rules.md "How the model reads a trace"].
# TXN_CLEAN_RECORDS sets the size (default 60000 records).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
n=${TXN_CLEAN_RECORDS:-60000}
gen=$(dirname "$DLLPCHECK")/bench/gen
verify="$srcdir/tests/txn-verify.py"
pcap="$tmpdir/txn.pcap"
trace="$tmpdir/txn.trace"
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is needed for tests/txn-verify.py"
	exit 77
fi

if "$gen" -n "$n" -m txn -s 4242 -p "$pcap" -t "$trace" 2>"$tmpdir/gen.err"; then pass; else
	fail "bench/gen -m txn failed"; cat "$tmpdir/gen.err"; finish; exit 1
fi
sed -n 's/^gen: txn /txn /p' "$tmpdir/gen.err" >"$tmpdir/gen.counts"
[ "$(wc -l <"$tmpdir/gen.counts")" -eq 2 ] && pass || fail "no closing counts from bench/gen"
# the text trace closes with the same counts
sed -n 's/^# txn /txn /p' "$trace" | cmp -s - "$tmpdir/gen.counts" && pass ||
	fail "the text trace's closing counts differ from the generator's"

# ---- the oracle ---------------------------------------------------------
if python3 "$verify" "$pcap" >"$tmpdir/verify"; then pass; else
	fail "txn-verify.py finds the generated capture wrong:"; grep BAD "$tmpdir/verify" | head -20
fi
grep '^txn ' "$tmpdir/verify" | cmp -s - "$tmpdir/gen.counts" && pass || {
	fail "txn-verify.py counts differ from the generator's"
	diff "$tmpdir/gen.counts" "$tmpdir/verify" | head
}
# what the capture must hold: thousands of split reads, 10-bit tags, pieces
# on 64-byte boundaries (the Root Port's RCB) with Lower Address 64,
# zero-length reads, several requesters, every kind
cov=$(sed -n 's/^coverage //p' "$tmpdir/verify")
set -- $cov
while [ $# -ge 2 ]; do
	case $1 in
	split) min=2000 ;;
	requesters) min=8 ;;
	*) min=1 ;;
	esac
	[ "$2" -ge "$min" ] && pass || fail "coverage: $1 $2, at least $min wanted"
	shift 2
done
for k in MRd MRdLk IORd IOWr CfgRd0 CfgWr0 CfgRd1 CfgWr1 FetchAdd Swap CAS DMWr; do
	grep -q "^txn down .* $k=[1-9]" "$tmpdir/gen.counts" && pass || fail "no $k sent down"
done
for k in MRd FetchAdd Swap CAS DMWr; do
	grep -q "^txn up .* $k=[1-9]" "$tmpdir/gen.counts" && pass || fail "no $k sent up"
done
# max-latency-ns well under 50 ms
lat=$(awk '{ for (i = 1; i < NF; i++) if ($i == "max-latency-ns" && $(i + 1) > m) m = $(i + 1) }
	END { print m + 0 }' "$tmpdir/gen.counts")
[ "$lat" -lt 1000000 ] && pass || fail "a request waited $lat ns"
# the oracle can fail: one Byte Count one less
python3 - "$pcap" "$tmpdir/bad.pcap" <<'EOF'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
off = 24
while off + 16 <= len(data):
    incl = int.from_bytes(data[off + 8:off + 12], "little")
    rec = data[off + 16:off + 16 + incl]
    h = off + 16 + 6
    if rec[1] == 2 and rec[6] == 0x4A:  # CplD
        data[h + 7] ^= 0x01  # Byte Count bit 0
        break
    off += 16 + incl
open(sys.argv[2], "wb").write(data)
EOF
if python3 "$verify" "$tmpdir/bad.pcap" >"$tmpdir/verify-bad"; then
	fail "txn-verify.py passes a capture with a wrong Byte Count"
else
	grep -q "BAD: .*Byte Count" "$tmpdir/verify-bad" && pass || fail "txn-verify.py: no Byte Count complaint"
fi

# ---- dllpcheck ----------------------------------------------------------
records=$(grep -c -v -e '^#' -e '^$' "$trace")
[ "$records" -eq "$n" ] && pass || fail "the text trace has $records records, not $n"
tlps=$(sed -n 's/^gen: [0-9]* records: \([0-9]*\) TLPs.*/\1/p' "$tmpdir/gen.err")

# check_report WHAT: the --stats report in $tmpdir/out of a run on the capture
check_report() {
	expect_status 0 "$1"
	expect_grep "$tmpdir/out" "^== .*: $n records read, $n decoded, 0 malformed; findings: 0 error, 0 warning, 0 info\$" \
		"$1: $n records, no finding"
	# every TLP is new and charged once, to the header type of its class
	charged=$(awk '$1 == "VC0" && ($3 == "PH" || $3 == "NPH" || $3 == "CplH") {
		for (i = 4; i <= NF; i++) if (sub(/^tlps=/, "", $i)) s += $i }
		END { print s + 0 }' "$tmpdir/out")
	[ "$charged" -eq "$tlps" ] && pass || fail "$1: $charged TLPs charged, the generator sent $tlps"
}
run_dllpcheck --stats --fail-on info "$pcap"
check_report "pcap"
run_dllpcheck --stats --fail-on info "$trace"
check_report "hex text trace"
# the symbolic form (the text grammar's header keys) builds the same bytes
"$gen" -n "$n" -m txn -s 4242 -t "$tmpdir/txn.sym" -y symbolic 2>/dev/null
run_dllpcheck --stats --fail-on info "$tmpdir/txn.sym"
check_report "symbolic text trace"
run_dllpcheck --write-pcap "$tmpdir/sym.pcap" "$tmpdir/txn.sym"
cmp -s "$pcap" "$tmpdir/sym.pcap" && pass || fail "the symbolic trace's pcap differs from bench/gen's"

# the transaction counts of the JSON summary, where it has them (the
# transaction model's --stats): per direction, as the generator counts
run_dllpcheck --stats --format=json --fail-on info "$pcap"
expect_status 0 "pcap, --format=json"
if grep -q '"completions"' "$tmpdir/out"; then
	if python3 "$srcdir/tests/txn-stats.py" "$tmpdir/out" "$tmpdir/gen.counts" >"$tmpdir/stats" 2>&1; then
		pass
	else
		fail "the summary's transaction counts differ from the generator's:"; head -20 "$tmpdir/stats"
	fi
else
	echo "note: the summary has no transaction counts yet; not compared"
fi

# ---- mid-stream cuts -------------------------------------------------------
# a shorter capture, cut at 12 record boundaries (a fixed pseudo-random
# choice); each suffix must give no error and no warning
small=${TXN_CUT_RECORDS:-4000}
"$gen" -n "$small" -m txn -s 99 -p "$tmpdir/small.pcap" -t "$tmpdir/small.trace" 2>/dev/null
cuts=$(awk -v n="$small" 'BEGIN { s = 7; for (i = 0; i < 12; i++) {
	s = (s * 16807) % 2147483647; printf "%d ", 1 + s % (n - 1) } }')
python3 - "$tmpdir/small.pcap" "$tmpdir/cut" $cuts <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
recs, off = [], 24
while off + 16 <= len(data):
    incl = int.from_bytes(data[off + 8:off + 12], "little")
    recs.append(data[off:off + 16 + incl])
    off += 16 + incl
for k in sys.argv[3:]:
    with open(f"{sys.argv[2]}-{k}.pcap", "wb") as f:
        f.write(data[:24] + b"".join(recs[int(k):]))
EOF
for k in $cuts; do
	for f in "$tmpdir/cut-$k.pcap" text; do
		if [ "$f" = text ]; then
			# the first k records of the text trace dropped (its
			# header comment is line 1)
			f="$tmpdir/cut-$k.trace"
			tail -n +$((k + 2)) "$tmpdir/small.trace" >"$f"
		fi
		run_dllpcheck --fail-on warning "$f"
		if [ "$status" -eq 0 ] && grep -Eq ': [0-9]+ records read, .*findings: 0 error, 0 warning' "$tmpdir/out"; then
			pass
		else
			fail "$(basename "$f"): first $k records dropped: exit $status"
			grep -v '^  ' "$tmpdir/out" | head -6
		fi
	done
done

finish
