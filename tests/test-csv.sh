#!/bin/sh
# Analyzer exports (reader_csv.c, issue 7).  tests/csv/make-exports.sh
# writes every text trace in tests/csv/ as an export of each layout the
# reader knows; each export must give the findings of its trace (compared
# without their positions: rule, severity, time, link, port, VC, credit
# type, message, evidence).  Field-only rows carry no CRC, so the CRC
# findings of a trace (dllp.crc, tlp.lcrc, tlp.nullified) are not expected
# from its fields-only export, and --decode must show crc=none there.
# Then: format detection (also on standard input), --dump-columns
# (golden: tests/csv/dump-columns.expected; UPDATE_GOLDEN=1 rewrites it),
# --map overriding an alias, --map-file, malformed rows with line and
# column (golden: tests/csv/bad-rows.expected), and --strict, which stops
# at the first malformed row with exit status 1 (a capture.malformed
# finding; 2 stays for inputs that cannot be opened).
. "${srcdir:-.}/tests/test-subr.sh"
set -e

csvdir=$srcdir/tests/csv
layouts="raw.csv fields.tsv agilent.txt fpga.csv aligned.txt quoted.csv ticks.psv custom.csv"

# findings FILE: the finding lines of a jsonl report, positions removed.
findings() {
	grep '"type":"finding"' "$1" |
		sed 's/"file":"[^"]*","record":[0-9]*,"line":[0-9]*,"byte_offset":[0-9]*,//' || true
}

# The options an export of each layout needs, and the format it reports.
layout_args() {
	case $1 in
	ticks.psv) echo "--clock-period 2ns --dir-map 0=down,1=up" ;;
	custom.csv) echo "--map-file $csvdir/custom.map" ;;
	*) echo "" ;;
	esac
}
layout_format() {
	case $1 in
	agilent.txt) echo agilent-dump ;;
	fpga.csv) echo fpga-csv ;;
	*) echo csv ;;
	esac
}

# ---- every export gives the findings of its trace ----
ntraces=0
for trace in "$csvdir"/*.trace; do
	name=$(basename "$trace" .trace)
	ntraces=$((ntraces + 1))
	if sh "$csvdir/make-exports.sh" "$DLLPCHECK" "$trace" "$tmpdir" 2>"$tmpdir/err"; then pass; else
		fail "make-exports.sh $name: $(cat "$tmpdir/err")"
		continue
	fi
	run_dllpcheck --format=jsonl "$trace"
	findings "$tmpdir/out" >"$tmpdir/$name.want"
	grep -v -e '"rule":"dllp.crc"' -e '"rule":"tlp.lcrc"' -e '"rule":"tlp.nullified"' \
		"$tmpdir/$name.want" >"$tmpdir/$name.want-nocrc" || true
	for layout in $layouts; do
		export=$tmpdir/$name.$layout
		want=$tmpdir/$name.want
		[ "$layout" = fields.tsv ] && want=$tmpdir/$name.want-nocrc
		# shellcheck disable=SC2046
		run_dllpcheck --format=jsonl $(layout_args "$layout") "$export"
		[ "$status" -le 1 ] && pass || fail "$name.$layout: exit status $status: $(head -2 "$tmpdir/err")"
		expect_grep "$tmpdir/out" "\"format\":\"$(layout_format "$layout")\"" "$name.$layout format"
		expect_grep "$tmpdir/out" '"malformed":0' "$name.$layout: no malformed row"
		findings "$tmpdir/out" >"$tmpdir/got"
		if cmp -s "$want" "$tmpdir/got"; then pass; else
			fail "$name.$layout: findings differ from $name.trace"
			diff "$want" "$tmpdir/got" | head -10
		fi
	done
done
[ "$ntraces" -ge 3 ] && pass || fail "expected at least 3 traces in $csvdir, found $ntraces"

# ---- field-only rows: CRC unknown ----
run_dllpcheck --decode "$tmpdir/crc.fields.tsv"
expect_status 0 "decode crc.fields.tsv"
if grep -q -e 'crc=ok' -e 'crc=BAD' -e 'lcrc=' "$tmpdir/out" && grep 'lcrc=' "$tmpdir/out" | grep -qv 'lcrc=none'; then
	fail "field-only rows must decode with crc=none / lcrc=none"
else pass; fi
dllps=$(grep -c ' DLLP ' "$tmpdir/out" || true)
none=$(grep ' DLLP ' "$tmpdir/out" | grep -c 'crc=none$' || true)
[ "$dllps" -gt 0 ] && [ "$dllps" -eq "$none" ] && pass || fail "field-only DLLPs: $none of $dllps with crc=none"
expect_grep "$tmpdir/out" ' TLP .* lcrc=none$' "field-only TLPs with lcrc=none"
# ... and the raw-bytes export of the same trace still checks them
run_dllpcheck "$tmpdir/crc.raw.csv"
expect_grep "$tmpdir/out" 'error dllp.crc' "raw rows are CRC-checked"
expect_grep "$tmpdir/out" 'error tlp.lcrc' "raw rows are LCRC-checked"

# ---- detection: standard input, and --input-format ----
set +e
"$DLLPCHECK" --format=jsonl - <"$tmpdir/overrun.raw.csv" >"$tmpdir/out" 2>"$tmpdir/err"
status=$?
set -e
expect_status 1 "export on standard input"
findings "$tmpdir/out" >"$tmpdir/got"
cmp -s "$tmpdir/overrun.want" "$tmpdir/got" && pass || fail "export on standard input: findings differ"
run_dllpcheck --input-format=text "$tmpdir/overrun.raw.csv"
# every line malformed as a trace: not one record, an input error (rules.md)
expect_status 2 "--input-format=text reads an export as a trace"
expect_grep "$tmpdir/err" 'no record could be read from this text trace: [0-9]+ lines, all malformed' "--input-format=text reads an export as a trace"
run_dllpcheck --input-format=csv "$csvdir/overrun.trace"
expect_status 2 "--input-format=csv on a text trace"
expect_grep "$tmpdir/err" 'no header in the first' "--input-format=csv on a text trace: message"

# ---- --dump-columns ----
cd "$tmpdir"
run_dllpcheck --dump-columns overrun.raw.csv
cd - >/dev/null
expect_status 0 "--dump-columns"
compare_golden "$csvdir/dump-columns.expected" "$tmpdir/out" "--dump-columns"
# --dump-columns reads any non-pcap input as an export, to show why not.
run_dllpcheck --dump-columns "$csvdir/overrun.trace"
expect_status 2 "--dump-columns on a text trace"
expect_grep "$tmpdir/err" 'no header in the first' "--dump-columns on a text trace: message"

# ---- --map overrides an alias; --map and --map-file name unknown columns ----
# A first column "Time" of nothing useful: the alias takes it ...
awk -F, 'BEGIN { OFS = "," } /^Packet #/ { print "Time", $0; next }
	/^[0-9]/ { print "n/a", $0; next } { print }' \
	"$tmpdir/overrun.raw.csv" >"$tmpdir/two-times.csv"
run_dllpcheck --format=jsonl "$tmpdir/two-times.csv"
expect_grep "$tmpdir/out" '"type":"error".*first: line [0-9]+ column 1: time \(column 1 .Time.\)' "alias maps the first time column"
# ... and --map points at the right one.
run_dllpcheck --format=jsonl --map "time=Time Stamp" "$tmpdir/two-times.csv"
findings "$tmpdir/out" >"$tmpdir/got"
cmp -s "$tmpdir/overrun.want" "$tmpdir/got" && pass || fail "--map time=... overriding the alias"
run_dllpcheck --input-format=csv "$tmpdir/overrun.custom.csv"
expect_status 2 "custom export without its mapping"
expect_grep "$tmpdir/err" '--header-line N' "custom export without its mapping: hint"
run_dllpcheck --format=jsonl --delimiter ';' --map time=When --map dir=Initiator \
	--map type=What --dir-map RC=down,EP=up "$tmpdir/overrun.custom.csv"
findings "$tmpdir/out" >"$tmpdir/got"
cmp -s "$tmpdir/overrun.want" "$tmpdir/got" && pass || fail "custom export with --map options"
run_dllpcheck --map time=Nope "$tmpdir/overrun.raw.csv"
expect_status 2 "--map to a missing column"
expect_grep "$tmpdir/err" "no such column \\(#1 'Packet #', #2 'Time Stamp'" "--map to a missing column: lists the columns"
run_dllpcheck --map bogus=#1 "$tmpdir/overrun.raw.csv"
expect_status 2 "--map with an unknown key"
run_dllpcheck --header-line 0 --map time=#2 --map dir=#3 --map raw=#5 --format=jsonl \
	"$tmpdir/overrun.ticks.psv"
# the options are taken (no usage error); the header row and the rows,
# their time read from the wrong column, give not one record: exit 2
expect_status 2 "--header-line 0"
expect_grep "$tmpdir/err" 'no record could be read from this .* export' "--header-line 0: rows read"

# ---- malformed rows: line and column; --strict ----
cd "$csvdir"
run_dllpcheck bad-rows.csv
cd - >/dev/null
expect_status 1 "bad-rows.csv"
grep -v -e '^==' -e '^ ' "$tmpdir/out" >"$tmpdir/findings" || true
compare_golden "$csvdir/bad-rows.expected" "$tmpdir/findings" "bad-rows.csv findings"
expect_grep "$tmpdir/out" '9 records read, 2 decoded, 7 malformed' "bad-rows.csv: reading goes on"
run_dllpcheck --strict --format=jsonl "$csvdir/bad-rows.csv"
expect_status 1 "--strict"
n=$(grep -c '"rule":"capture.malformed"' "$tmpdir/out" || true)
[ "$n" -eq 1 ] && pass || fail "--strict: $n malformed findings, expected 1"
expect_grep "$tmpdir/out" '"line":6,.*"column":21,.*--strict: reading stopped' "--strict: the first bad row"
expect_grep "$tmpdir/out" '"read":2,' "--strict: reading stopped"

finish
