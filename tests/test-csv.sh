#!/bin/sh
# Analyzer exports (reader_csv.c, issue 7).  tests/csv/make-exports.sh
# writes every text trace in tests/csv/ as an export of each layout the
# reader knows; each export must give the findings of its trace (compared
# without their positions: rule, severity, time, link, port, VC, credit
# type, message, evidence).  Field-only rows carry no CRC, so the CRC
# findings of a trace (dllp.crc, tlp.lcrc, tlp.nullified) are not expected
# from its fields-only export, and --decode must show crc=none there.
# Then: format detection (also on standard input), --dump-columns
# (golden: tests/csv/dump-columns.expected; UPDATE_GOLDEN=1 rewrites it;
# each row as the analysis takes it, a capture.malformed row malformed),
# --map overriding an alias, --map-file, malformed rows with line and
# column (golden: tests/csv/bad-rows.expected), and --strict, which stops
# at the first malformed row with exit status 1 (a capture.malformed
# finding; 2 stays for inputs that cannot be opened).  Issue 12: an export
# of unknown columns is an input error that lists them (and every text
# trace of the project stays a text trace), decimal commas with a ';' or
# TAB delimiter give the findings of the '.' version, and the analyzer's
# packet number is in text, JSON, JSONL and --decode findings when the
# export has a packet column, absent when it has none.
. "${srcdir:-.}/tests/test-subr.sh"
set -e

csvdir=$srcdir/tests/csv
layouts="raw.csv fields.tsv agilent.txt fpga.csv aligned.txt quoted.csv ticks.psv custom.csv"

# findings FILE: the finding lines of a jsonl report, positions removed.
findings() {
	grep '"type":"finding"' "$1" |
		sed -e 's/"file":"[^"]*","record":[0-9]*,"line":[0-9]*,"byte_offset":[0-9]*,//' \
			-e 's/^{"type":"finding","source_packet":[0-9]*,/{"type":"finding",/' || true
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
# --dump-columns shows each row as the analysis takes it (cli/dump_columns.c
# reads them with reader_next): a raw-bytes TLP of 6 bytes, which the export
# reader yields as a record, is no TLP (the record checks), so it is
# malformed in the dump as in the check, with the same reason, not decoded.
printf 'Time,Dir,Type,Raw\n1ns,down,TLP,000040000001\n2ns,up,DLLP,00000000\n' >"$tmpdir/short-tlp.csv"
run_dllpcheck --dump-columns "$tmpdir/short-tlp.csv"
expect_status 0 "--dump-columns: a row the record checks refuse"
expect_grep "$tmpdir/out" "^    -> malformed: a TLP is 18 to 4154 bytes, this record has 6$" \
	"--dump-columns: a row the record checks refuse is malformed"
grep -q " TLP seq=" "$tmpdir/out" && fail "--dump-columns: a 6-byte TLP row decoded" || pass
expect_grep "$tmpdir/out" "^    -> 2 0.000000002000 link0 up DLLP Ack seq=0x000 crc=none$" \
	"--dump-columns: the next row decoded"
run_dllpcheck "$tmpdir/short-tlp.csv"
expect_status 1 "a row the record checks refuse: check"
expect_grep "$tmpdir/out" "short-tlp.csv:2: record 1: error capture.malformed: a TLP is 18 to 4154 bytes, this record has 6$" \
	"a row the record checks refuse: capture.malformed with the dump's reason"
# ... and a compressed export cut short: the decompressor's reason, as the
# check gives it (the dump used to say only "read error")
if command -v gzip >/dev/null; then
	printf 'Time,Dir,Type,Raw\n1ns,DS,DLLP,5c800803f0f2fcfd\n' | gzip -c -n >"$tmpdir/cut.gz"
	size=$(wc -c <"$tmpdir/cut.gz")
	head -c $((size - 4)) "$tmpdir/cut.gz" >"$tmpdir/cut.csv.gz"
	run_dllpcheck --dump-columns "$tmpdir/cut.csv.gz"
	expect_grep "$tmpdir/out" "^    -> malformed: .*cut.csv.gz: gzip data truncated" \
		"--dump-columns: a compressed export cut short"
	run_dllpcheck "$tmpdir/cut.csv.gz"
	expect_grep "$tmpdir/out" "error capture.malformed: .*cut.csv.gz: gzip data truncated" \
		"a compressed export cut short: the dump's reason"
fi

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
expect_grep "$tmpdir/err" 'looks like a CSV/TSV export with unknown columns' \
	"custom export without its mapping: hint"

# ---- an export of unknown columns is no text trace (issue 12) ----
# Found by its shape (a header of several cells, rows of as many), it is
# an input error that lists the header's cells and says what to do;
# before, it was read as a text trace, a malformed line per row.
tr ';' '\t' <"$tmpdir/overrun.custom.csv" >"$tmpdir/overrun.custom.tsv"
for export in overrun.custom.csv overrun.custom.tsv; do
	run_dllpcheck "$tmpdir/$export"
	expect_status 2 "$export: unknown columns"
	expect_grep "$tmpdir/err" "$export: looks like a CSV/TSV export with unknown columns" \
		"$export: says what it looks like"
	expect_grep "$tmpdir/err" "line 1 names 5 columns split by [^ ]* \('Idx', 'When \(us\)', 'Initiator', 'What', 'Bytes'\) and 20 rows" \
		"$export: lists the header cells"
	expect_grep "$tmpdir/err" "knows only 'Idx' \(packet\), 'Bytes' \(raw\)" "$export: the known ones"
	expect_grep "$tmpdir/err" "--dump-columns, then name the columns with --map FIELD=COLUMN or --map-file FILE" \
		"$export: what to do"
	grep -q 'capture.malformed' "$tmpdir/out" && fail "$export: read as a text trace" || pass
done
expect_grep "$tmpdir/err" "split by TAB" "the TSV's delimiter"
set +e
"$DLLPCHECK" --format=jsonl - <"$tmpdir/overrun.custom.csv" >"$tmpdir/out" 2>"$tmpdir/err"
status=$?
set -e
expect_status 2 "unknown columns on standard input"
expect_grep "$tmpdir/out" '"type":"error".*unknown columns' "unknown columns on standard input: JSON error line"
# --dump-columns shows such an export, so the --map options can be written
run_dllpcheck --dump-columns "$tmpdir/overrun.custom.csv"
expect_status 0 "--dump-columns on unknown columns"
expect_grep "$tmpdir/out" "^header: line 1: Idx;When \(us\);Initiator;What;Bytes$" "--dump-columns: the header it took"
expect_grep "$tmpdir/out" "^problem: no header: line 1 is taken as one for this dump" "--dump-columns: the problem"
expect_grep "$tmpdir/out" "^  #3   'Initiator' -> \(no alias\)$" "--dump-columns: unknown columns listed"
expect_grep "$tmpdir/out" "^  line 2:$" "--dump-columns: the first row from the start"
expect_grep "$tmpdir/out" "^  line 4:$" "--dump-columns: three rows"
grep -q "^  line 5:" "$tmpdir/out" && fail "--dump-columns: more than three rows" || pass
# ... and an export missing a column it needs, with the reason
printf 'Time,Type,Raw\n1ns,DLLP,5c800803f0f2fcfd\n' >"$tmpdir/no-dir.csv"
run_dllpcheck "$tmpdir/no-dir.csv"
expect_status 2 "export without a direction column"
run_dllpcheck --dump-columns "$tmpdir/no-dir.csv"
expect_status 0 "--dump-columns: export without a direction column"
expect_grep "$tmpdir/out" "^problem: no direction column: name one with --map dir=COLUMN$" \
	"--dump-columns: the missing direction column"
# Tables that are no export stay what they were: one row is no table, a
# banner of "key,value" lines is none either.
printf 'Idx;When;Who\n1;2;3\n' >"$tmpdir/one-row.csv"
run_dllpcheck --format=jsonl "$tmpdir/one-row.csv"
expect_grep "$tmpdir/out" 'no record could be read from this text trace' "a header and one row is no table"

# Every text trace of the project is still a text trace.
ntext=0
for trace in "$srcdir"/samples/*.trace "$srcdir"/tests/*/*.trace "$srcdir"/tests/scenarios/*/*.trace \
	"$srcdir"/tests/fuzz/corpus/*/*.trace; do
	[ -f "$trace" ] || continue
	ntext=$((ntext + 1))
	run_dllpcheck --format=jsonl "$trace"
	if grep -q '"type":"summary".*"format":"text"' "$tmpdir/out"; then pass; else
		fail "$trace: not read as a text trace (status $status: $(head -c 200 "$tmpdir/err"))"
	fi
done
# (the fuzz corpus is not in the distribution: make distcheck finds fewer)
[ "$ntext" -ge 90 ] && pass || fail "expected at least 90 text traces, found $ntext"
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

# ---- decimal commas (issue 12): with a delimiter other than ',' ----
# The raw export as a European locale writes it: ';' between cells, a
# comma in every decimal number; and the TSV export with decimal commas.
# Same records, so the same findings (positions and all).
for name in overrun crc; do
	sed -e 's/,/;/g' -e 's/\([0-9]\)\.\([0-9]\)/\1,\2/g' "$tmpdir/$name.raw.csv" \
		>"$tmpdir/$name.comma.csv"
	sed -e 's/\([0-9]\)\.\([0-9]\)/\1,\2/g' "$tmpdir/$name.fields.tsv" >"$tmpdir/$name.comma.tsv"
	grep -q ';0,0000000' "$tmpdir/$name.comma.csv" && pass || fail "$name.comma.csv has no decimal comma"
	for pair in raw.csv:comma.csv fields.tsv:comma.tsv; do
		orig=${pair%%:*} conv=${pair#*:}
		run_dllpcheck --format=jsonl "$tmpdir/$name.$orig"
		grep -v '"type":"summary"' "$tmpdir/out" | sed "s|$name\.$orig|X|" >"$tmpdir/want"
		run_dllpcheck --format=jsonl "$tmpdir/$name.$conv"
		[ "$status" -le 1 ] && pass || fail "$name.$conv: exit status $status: $(head -2 "$tmpdir/err")"
		expect_grep "$tmpdir/out" '"malformed":0' "$name.$conv: no malformed row"
		grep -v '"type":"summary"' "$tmpdir/out" | sed "s|$name\.$conv|X|" >"$tmpdir/got"
		if [ -s "$tmpdir/want" ] && cmp -s "$tmpdir/want" "$tmpdir/got"; then pass; else
			fail "$name.$conv: findings differ from $name.$orig"
			diff "$tmpdir/want" "$tmpdir/got" | head -6
		fi
	done
done
# A comma is a decimal point only when it is no delimiter: a quoted
# "0,5" in a ','-delimited export is no time.
printf 'Time,Dir,Raw\n"0,000000010",DS,5c800803f0f2fcfd\n0.000000020,DS,5c800803f0f2fcfd\n' >"$tmpdir/quoted-comma.csv"
run_dllpcheck "$tmpdir/quoted-comma.csv"
expect_grep "$tmpdir/out" "capture.malformed: time \\(column 1 'Time'\\): '0,000000010': unknown time unit" \
	"decimal comma in a ','-delimited export"
# Counts take no decimal comma ("1,000" may be a thousands separator).
printf 'Time;Dir;DLLP Type;VC;HdrFC;DataFC\n0,5 ns;DS;InitFC1-P;0;1,000;64\n0,6 ns;DS;InitFC1-P;0;8;64\n' >"$tmpdir/count-comma.csv"
run_dllpcheck "$tmpdir/count-comma.csv"
expect_grep "$tmpdir/out" "hdr-fc \\(column 5 'HdrFC'\\): '1,000' is not a whole number" \
	"a comma in a count is malformed"

# ---- the analyzer's packet number (issue 12) ----
# The raw export with the analyzer's own numbers in its "Packet #" column
# (1000 + 3 n, so no record number can pass for one); one row made
# malformed (record 5, packet 1015).  A finding names the packet in text,
# JSON, JSON Lines and the --decode listings; an export without such a
# column (fields.tsv) has no source_packet key and no "packet" word.
awk -F, 'BEGIN { OFS = "," } /^[0-9]/ { n++; $1 = 1000 + 3 * n; if (n == 5) $5 = "5C zz FD" }
	{ print }' "$tmpdir/overrun.raw.csv" >"$tmpdir/packets.csv"
run_dllpcheck "$tmpdir/packets.csv"
expect_status 1 "packets.csv"
expect_grep "$tmpdir/out" "packets.csv:22: record 17 packet 1051: t=0.000000130000 link 0 up VC0 PH: error fc.credit.overrun" \
	"text finding names the analyzer's packet"
expect_grep "$tmpdir/out" "packets.csv:10:[0-9]*: record 5 packet 1015: error capture.malformed" \
	"malformed row names the analyzer's packet"
run_dllpcheck --format=json "$tmpdir/packets.csv"
expect_grep "$tmpdir/out" '"record":17,"line":22,"byte_offset":[0-9]*,"source_packet":1051,"rule":"fc.credit.overrun"' \
	"JSON finding: source_packet"
cp "$tmpdir/out" "$tmpdir/packets.json"
run_dllpcheck --format=jsonl "$tmpdir/packets.csv"
expect_grep "$tmpdir/out" '"record":17,"line":22,"byte_offset":[0-9]*,"source_packet":1051,"rule":"fc.credit.overrun"' \
	"JSONL finding: source_packet"
expect_grep "$tmpdir/out" '"record":5,"line":10,"column":[0-9]*,"byte_offset":[0-9]*,"source_packet":1015,"rule":"capture.malformed"' \
	"JSONL malformed finding: source_packet"
cp "$tmpdir/out" "$tmpdir/packets.jsonl"
run_dllpcheck --decode "$tmpdir/packets.csv"
expect_grep "$tmpdir/out" "^17 0.000000130000 link0 up TLP .* packet=1051$" "--decode: packet= at the end"
expect_grep "$tmpdir/out" "^5 malformed line 10 packet 1015 column" "--decode: malformed row's packet"
run_dllpcheck --decode --format=jsonl "$tmpdir/packets.csv"
expect_grep "$tmpdir/out" '"record":17,"line":22,"byte_offset":[0-9]*,"source_packet":1051,' "--decode jsonl: source_packet"
cp "$tmpdir/out" "$tmpdir/packets.decode.jsonl"
# the agilent dump's record numbers are the analyzer's too
run_dllpcheck "$tmpdir/overrun.agilent.txt"
expect_grep "$tmpdir/out" "agilent.txt:16: record 16 packet 1017: t=0.000000130000" "agilent-dump: the record number"
# no packet column: no key, no word
for args in "--format=jsonl" "--format=json" "" "--decode" "--decode --format=jsonl"; do
	# shellcheck disable=SC2086
	run_dllpcheck $args "$tmpdir/overrun.fields.tsv"
	[ "$status" -le 1 ] && pass || fail "fields.tsv $args: exit status $status"
	if grep -q -e source_packet -e ' packet [0-9]' -e 'packet=' "$tmpdir/out"; then
		fail "fields.tsv $args: a packet number without a packet column"
	else pass; fi
done
# the new key is in the schemas
if command -v python3 >/dev/null 2>&1 && python3 -c 'import jsonschema' 2>/dev/null; then
	for pair in report:packets.json jsonl:packets.jsonl decode:packets.decode.jsonl; do
		schema=${pair%%:*} file=${pair#*:}
		opt=--lines
		[ "$schema" = report ] && opt=--check-counts
		if python3 "$srcdir/tests/validate-json.py" $opt "$srcdir/schema/dllpcheck-$schema.schema.json" \
			"$tmpdir/$file" >"$tmpdir/verr" 2>&1; then pass; else
			fail "$file against dllpcheck-$schema.schema.json: $(head -3 "$tmpdir/verr")"
		fi
	done
else
	fail "python3 with jsonschema is needed to validate source_packet against the schemas"
fi

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
