#!/bin/sh
# A long clean trace: tens of thousands of TLPs in both directions, every
# flow-control counter wrapping many times (8-bit header, 12-bit data
# counters, 12-bit sequence numbers), Naks with replays, infinite completion
# credits one way, reads split into completions with their Requester ID,
# tag (10-bit ones too) and Byte Count: nothing may be reported, from the
# text trace or from the pcap written from it.  LONG_CLEAN_ROUNDS sets the number of TLPs.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
rounds=${LONG_CLEAN_ROUNDS:-20000}
trace="$tmpdir/long.trace"
pcap="$tmpdir/long.pcap"

if sh "$srcdir/tests/gen-long-clean.sh" "$rounds" >"$trace"; then pass; else
	fail "gen-long-clean.sh $rounds failed"; finish; exit 1
fi
records=$(grep -c -v -e '^#' -e '^$' "$trace")
# the generator's own counts, from its closing comments
set -- 0 0 0 0 $(sed -n 's/^# records \([0-9]*\) tlps \([0-9]*\) replays down \([0-9]*\) up \([0-9]*\) .*/\1 \2 \3 \4/p' "$trace")
shift 4
[ $# -eq 4 ] && pass || { fail "no closing counts from the generator"; finish; exit 1; }
gen_records=$1 gen_tlps=$2 gen_replays_down=$3 gen_replays_up=$4
[ "$gen_records" -eq "$records" ] && pass || fail "generator says $gen_records records, the file has $records"
[ "$gen_tlps" -ge "$rounds" ] && pass || fail "generator sent $gen_tlps TLPs for $rounds rounds"
[ $((gen_replays_down + gen_replays_up)) -gt 0 ] && pass || fail "the generator made no replay"

# Every rule is on: the replays follow Naks, so the receiver did not have
# them and they are no dl.seq.duplicate either.
extra=""

# check_report WHAT: the report in $tmpdir/out of a run on the long trace
check_report() {
	expect_status 0 "$1"
	expect_grep "$tmpdir/out" "^== .*: $records records read, $records decoded, 0 malformed; findings: 0 error, 0 warning, 0 info\$" \
		"$1: $records records, no finding"
	expect_grep "$tmpdir/out" "replays and duplicates not charged: down $gen_replays_down, up $gen_replays_up\$" \
		"$1: replays not charged"
	# every new TLP is charged once, to the header type of its class
	tlps=$(awk '$1 == "VC0" && ($3 == "PH" || $3 == "NPH" || $3 == "CplH") {
		for (i = 4; i <= NF; i++) if (sub(/^tlps=/, "", $i)) s += $i }
		END { print s + 0 }' "$tmpdir/out")
	[ "$tlps" -eq "$gen_tlps" ] && pass || fail "$1: $tlps TLPs charged, the generator sent $gen_tlps"
	if [ "$rounds" -lt 10000 ] || [ "$tlps" -ge 10000 ]; then pass; else
		fail "$1: only $tlps TLPs charged"
	fi
	# the counters wrapped: more than 256 header and 4096 data credits each way
	for port in down up; do
		for ty in PH PD; do
			credits=$(awk -v p="$port" -v ty="$ty" '$1 == "VC0" && $2 == p && $3 == ty {
				for (i = 4; i <= NF; i++) if (sub(/^credits=/, "", $i)) print $i }' "$tmpdir/out")
			limit=256
			[ "$ty" = PD ] && limit=4096
			if [ "${credits:-0}" -gt $((limit * 4)) ]; then pass; else
				fail "$1: $port $ty charged ${credits:-none} credits, the counter did not wrap"
			fi
		done
	done
}

# shellcheck disable=SC2086
run_dllpcheck $extra --fail-on info "$trace"
check_report "text trace"

run_dllpcheck --write-pcap "$pcap" "$trace"
expect_status 0 "--write-pcap"
# the transactions are right too (tests/txn-verify.py, the oracle apart
# from dllpcheck: every completion answers its request with the Byte Count
# still owed, no tag reused while outstanding); the trace has pieces of
# 128 DW and reads of 1024 DW, so MPS and MRRS are 4096 bytes here
if command -v python3 >/dev/null 2>&1; then
	if python3 "$srcdir/tests/txn-verify.py" --mps 4096 --mrrs 4096 "$pcap" >"$tmpdir/verify"; then
		pass
	else
		fail "txn-verify.py finds the long trace's transactions wrong:"
		grep BAD "$tmpdir/verify" | head -10
	fi
fi

# shellcheck disable=SC2086
run_dllpcheck $extra --fail-on info "$pcap"
check_report "pcap"
expect_grep "$tmpdir/out" '\(pcap\)' "the pcap is read as a pcap"

finish
