#!/bin/sh
# --merge (issue 18): the JSON Lines reports of separate runs made one
# report again.  The inputs are the samples, every scenario case, the
# clean traces, the network captures and an input that cannot be read
# (an error line); they are split into parts in several ways (one part per
# input, all in one part, uneven parts, a part made with -j 2), and
# `dllpcheck --merge PARTS` in each format (text, json, jsonl, junit) and
# with the options that shape the report (-q, --stats, --fail-on,
# --disable, and the parts made with --role, --mps, --mrrs) must print
# byte for byte what one run over all the inputs prints, with its exit
# status.  Then the parts a merge must refuse (exit 2, the part, the line
# and what is wrong named on standard error, nothing on standard output),
# and a part from a pipe (read once: kept in memory, or refused when too
# big).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
cd "$srcdir"

# the inputs, in a fixed order
set -- samples/*.pcap samples/*.trace samples/*.csv samples/*.vcd tests/clean/*.trace
for f in tests/scenarios/*/*.trace tests/scenarios/*/*.pcap tests/net/*.pcap tests/net/*.pcapng; do
	[ -f "$f" ] && set -- "$@" "$f"
done
# an input that cannot be read: the run's error line
printf 'not a capture\n' >"$tmpdir/unreadable.trace"
set -- "$@" "$tmpdir/unreadable.trace"
[ "$#" -gt 60 ] && pass || fail "only $# inputs found"
n=$#

# parts OPTS...: the parts of the inputs in four splits, each a directory
# of $tmpdir/parts/SPLIT/NN.jsonl (the merge takes them in name order)
parts() {
	rm -rf "$tmpdir/parts"
	mkdir -p "$tmpdir/parts/each" "$tmpdir/parts/one" "$tmpdir/parts/uneven" "$tmpdir/parts/jobs"
	opts=$1
	shift
	i=0
	for f in "$@"; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		"$DLLPCHECK" $opts --format=jsonl "$f" >"$tmpdir/parts/each/$(printf %04d $i).jsonl" 2>/dev/null || true
	done
	# shellcheck disable=SC2086
	"$DLLPCHECK" $opts --format=jsonl "$@" >"$tmpdir/parts/one/01.jsonl" 2>/dev/null || true
	# uneven: 1 input, 3 inputs, the rest less 5, and 5 with -j 2
	a=$1
	shift
	# shellcheck disable=SC2086
	"$DLLPCHECK" $opts --format=jsonl "$a" >"$tmpdir/parts/uneven/01.jsonl" 2>/dev/null || true
	# shellcheck disable=SC2086
	"$DLLPCHECK" $opts --format=jsonl "$1" "$2" "$3" >"$tmpdir/parts/uneven/02.jsonl" 2>/dev/null || true
	shift 3
	rest=$(($# - 5))
	list=""
	j=0
	for f in "$@"; do
		j=$((j + 1))
		[ "$j" -le "$rest" ] && list="$list $f"
	done
	# shellcheck disable=SC2086
	"$DLLPCHECK" $opts --format=jsonl $list >"$tmpdir/parts/uneven/03.jsonl" 2>/dev/null || true
	shift "$rest"
	# shellcheck disable=SC2086
	"$DLLPCHECK" $opts -j 2 --format=jsonl "$@" >"$tmpdir/parts/uneven/04.jsonl" 2>/dev/null || true
	# the same split, the big part with -j 2
	cp "$tmpdir/parts/uneven/01.jsonl" "$tmpdir/parts/uneven/02.jsonl" "$tmpdir/parts/uneven/04.jsonl" "$tmpdir/parts/jobs/"
	# shellcheck disable=SC2086
	"$DLLPCHECK" $opts -j 2 --format=jsonl $list >"$tmpdir/parts/jobs/03.jsonl" 2>/dev/null || true
}

# same WHAT RUNOPTS MERGEOPTS INPUTS...: one run with RUNOPTS, and the
# merge with MERGEOPTS of every split: identical output and status
same() {
	what=$1 runopts=$2 mergeopts=$3
	shift 3
	set +e
	# shellcheck disable=SC2086
	"$DLLPCHECK" $runopts "$@" >"$tmpdir/single" 2>/dev/null
	want=$?
	set -e
	for split in each one uneven jobs; do
		# shellcheck disable=SC2086
		run_dllpcheck --merge $mergeopts "$tmpdir"/parts/$split/*.jsonl
		expect_status "$want" "$what: --merge of the $split split"
		if cmp -s "$tmpdir/single" "$tmpdir/out"; then pass; else
			fail "$what: --merge of the $split split differs from one run"
			diff "$tmpdir/single" "$tmpdir/out" | head -10
			head -3 "$tmpdir/err"
		fi
	done
}

# ---------------------------------------------------------------- default
parts "" "$@"
for fmt in text json jsonl junit; do
	same "--format=$fmt" "--format=$fmt" "--format=$fmt" "$@"
done
same "-q" "-q" "-q" "$@"
same "--fail-on warning (text)" "--fail-on warning" "--fail-on warning" "$@"
same "--fail-on info (junit)" "--fail-on info --format=junit" "--fail-on info --format=junit" "$@"
same "--disable (json)" "--disable fc.credit.overrun --disable dllp.crc --format=json" \
	"--disable fc.credit.overrun --disable dllp.crc --format=json" "$@"
same "--disable all --enable (text)" "--disable all --enable tlp.lcrc" \
	"--disable all --enable tlp.lcrc" "$@"
# ---------------------------------------------------------------- html
# the page's charts ride in the parts made with --with-charts: the page of
# the merge is the page of one run, markers and batch block included
# (the parts with --stats too: a merge without --stats leaves them out)
parts "--with-charts --stats" "$@"
same "--format=html" "--format=html" "--format=html" "$@"
same "--stats --format=html" "--stats --format=html" "--stats --format=html" "$@"
same "--format=html --disable" "--format=html --disable fc.credit.overrun --disable dllp.crc" \
	"--format=html --disable fc.credit.overrun --disable dllp.crc" "$@"
same "--format=html --fail-on info" "--format=html --fail-on info" "--format=html --fail-on info" "$@"
same "-q --format=html" "-q --format=html" "-q --format=html" "$@"
# the other formats read past the chart lines
same "--format=json of parts with charts" "--format=json" "--format=json" "$@"
same "--format=jsonl of parts with charts" "--format=jsonl" "--format=jsonl" "$@"
# -o PAGE
"$DLLPCHECK" --format=html -o "$tmpdir/single.html" "$@" 2>/dev/null || true
run_dllpcheck --merge --format=html -o "$tmpdir/merged.html" "$tmpdir"/parts/jobs/*.jsonl
cmp -s "$tmpdir/single.html" "$tmpdir/merged.html" && pass || fail "--merge --format=html -o differs from one run's -o"
# the chart lines stand between an input's findings and its summary line
awk -F'"' '/"type":"(charts|chart)"/ { c[$8] = 1 } /"type":"finding"/ && c[$8] { bad = 1 }
	END { exit bad }' "$tmpdir/parts/one/01.jsonl" && pass || fail "a finding after its input's charts"
# the parts with --role, --mps, --mrrs
# (parts() sets opts)
role="--role down=root-port,up=endpoint --mps 256 --mrrs 512 --tc-map 1=1"
parts "$role --with-charts" "$@"
same "$role --format=html" "$role --format=html" "--format=html" "$@"
# parts without charts: the page all the same, each input's chart area
# saying why it has none, a warning naming the part, the batch's status
parts "" "$@"
run_dllpcheck --merge --format=html "$tmpdir"/parts/uneven/*.jsonl
set +e
"$DLLPCHECK" "$@" >/dev/null 2>&1
want=$?
set -e
expect_status "$want" "--merge --format=html of parts without charts"
expect_grep "$tmpdir/err" '01.jsonl: line [0-9]+: warning: "[^"]*" has no charts line: the part was made without --with-charts' \
	"--merge --format=html of parts without charts: the warning"
if command -v python3 >/dev/null 2>&1; then
	python3 tests/html-check.py page "$tmpdir/out" && pass || fail "the page of parts without charts"
	n=$(python3 tests/html-check.py get "$tmpdir/out" 'sum(1 for i in inputs if "charts_missing" in i)')
	[ "$n" -eq $(($# - 1)) ] && pass || fail "$n inputs say the part carried no charts, not $(($# - 1))"
fi
# a part with charts, one without
"$DLLPCHECK" --with-charts --format=jsonl samples/overrun.pcap >"$tmpdir/with.jsonl" 2>/dev/null || true
run_dllpcheck --merge --format=html "$tmpdir/with.jsonl" "$tmpdir/parts/each/0002.jsonl"
expect_status 1 "--merge --format=html of a part with charts and one without"
expect_grep "$tmpdir/err" "0002.jsonl: line [0-9]+: warning" "the part without charts named"
if grep -q "with.jsonl" "$tmpdir/err"; then fail "the part with charts named in a warning"; else pass; fi
# a file name of markup, from a part to the page: JSON text, escaped
evil="$tmpdir/x<script>&.trace"
cp samples/overrun.trace "$evil"
"$DLLPCHECK" --with-charts --format=jsonl "$evil" >"$tmpdir/evil.jsonl" 2>/dev/null || true
run_dllpcheck --merge --format=html "$tmpdir/evil.jsonl"
"$DLLPCHECK" --format=html "$evil" >"$tmpdir/single" 2>/dev/null || true
cmp -s "$tmpdir/single" "$tmpdir/out" && pass || fail "--merge --format=html of a file name of markup"
if command -v python3 >/dev/null 2>&1; then
	python3 tests/html-check.py raw "$tmpdir/out" && pass || fail "markup of a part in the page"
fi
# --with-charts is the JSON Lines report's
for o in "--format=json" "--format=html" "--format=jsonl --decode" "--merge --format=jsonl"; do
	# shellcheck disable=SC2086
	run_dllpcheck --with-charts $o samples/overrun.pcap
	expect_status 2 "--with-charts $o"
	expect_grep "$tmpdir/err" "--with-charts" "--with-charts $o: the usage error"
done

# the parts' statistics left out, as a run without --stats leaves them
parts "--stats" "$@"
for fmt in text json jsonl; do
	same "--stats --format=$fmt" "--stats --format=$fmt" "--stats --format=$fmt" "$@"
done
same "parts with --stats, merged without" "--format=json" "--format=json" "$@"
# what the capture cannot tell: the parts' options
opts="--role down=root-port,up=endpoint --mps 256 --mrrs 512 --tc-map 1=1"
parts "$opts" "$@"
for fmt in text jsonl; do
	same "$opts --format=$fmt" "$opts --format=$fmt" "--format=$fmt" "$@"
done
# one input, one part: no batch table
"$DLLPCHECK" --format=jsonl samples/overrun.pcap >"$tmpdir/one.jsonl" 2>/dev/null || true
"$DLLPCHECK" samples/overrun.pcap >"$tmpdir/single" 2>/dev/null || true
run_dllpcheck --merge "$tmpdir/one.jsonl"
expect_status 1 "--merge of one part of one input"
cmp -s "$tmpdir/single" "$tmpdir/out" && pass || fail "--merge of one input differs from its run"
parts "" "$@"

# ---------------------------------------------------------------- hostile
good="$tmpdir/parts/one/01.jsonl"
# refused PART-CONTENT-FILE PATTERN WHAT: exit 2, nothing on standard
# output, PATTERN (the part's name, the line, what) on standard error
refused() {
	run_dllpcheck --merge "$1"
	expect_status 2 "$3"
	[ -s "$tmpdir/out" ] && fail "$3: wrote a report"
	expect_grep "$tmpdir/err" "$2" "$3"
}
bad="$tmpdir/bad.jsonl"
printf '{"type":"summary",\n' >"$bad"
refused "$bad" "bad.jsonl: line 1: not JSON" "a malformed JSON line"
grep -m1 '"type":"finding"' "$good" | sed 's/"type":"finding"/"type":"findings"/' >"$bad"
refused "$bad" 'bad.jsonl: line 1: type "findings" is none' "a wrong type"
grep -m1 '"type":"finding"' "$good" | sed 's/"severity":"[a-z]*",//' >"$bad"
refused "$bad" "bad.jsonl: line 1: key severity missing" "a missing key"
grep '"type":"summary"' "$good" | head -1 | sed 's/"tlps_new":[0-9]*,//' >"$bad"
refused "$bad" "bad.jsonl: line 1: key links\[0\]\.data_link\.down\.tlps_new missing" "a missing key deep down"
grep '"type":"summary"' "$good" | head -1 | sed 's/"tlps_new":/"tlps_old":1,"tlps_new":/' >"$bad"
refused "$bad" "bad.jsonl: line 1: unexpected key links\[0\]\.data_link\.down\.tlps_old" "an unknown key"
sed -n 1,3p "$good" >"$bad"
head -c 100 "$good" | sed -n 1p | tr -d '\n' >>"$bad"
refused "$bad" "bad.jsonl: line 4: .*cut short" "a part cut mid-line"
grep -B2 -m1 '"type":"summary"' "$good" | grep -v '"type":"summary"' >"$bad" || true
if [ -s "$bad" ]; then
	refused "$bad" "bad.jsonl: line [0-9]*: .*without their summary line" "findings without a summary (a part cut at a line)"
fi
sed 's/"version":"[^"]*"/"version":"0.0.1"/' "$good" >"$bad"
refused "$bad" "written by dllpcheck 0.0.1, not by this one" "a part of another version"
sed 's/,"version":"[^"]*"//' "$good" >"$bad"
refused "$bad" 'no "version"' "a part without version"
: >"$bad"
refused "$bad" "bad.jsonl: line 0: an empty part" "an empty part"
"$DLLPCHECK" --decode --format=jsonl samples/clean-init.pcap >"$bad" || true
refused "$bad" "bad.jsonl: line 1: a line of --decode" "a --decode stream"
# runs one after the other in a part (parallel -k ... > part): one part
cat "$tmpdir/parts/uneven/"*.jsonl >"$tmpdir/cat.jsonl"
run_dllpcheck --merge "$tmpdir/cat.jsonl"
"$DLLPCHECK" "$@" >"$tmpdir/single" 2>/dev/null || true
cmp -s "$tmpdir/single" "$tmpdir/out" && pass || fail "--merge of the runs of a part differs from one run"
# a batch line of other inputs than its run's
grep -v '^{"type":"[a-z]*","file":"samples/crc-errors.pcap"' "$good" >"$bad"
refused "$bad" "the batch line lists [0-9]+ inputs, the part has [0-9]+ before it" "a batch line of other inputs"
# a finding dropped: the summary's counts say so
awk '/"type":"finding"/ && !done { done = 1; next } { print }' "$good" >"$bad"
refused "$bad" "counts [0-9]+ .* findings, the part has" "a finding missing before its summary"
grep -m1 '"type":"finding"' "$good" | sed 's/"signature":"[^"]*"/"signature":"x"/' >"$bad"
refused "$bad" 'signature "x" is not the finding' "a signature that is not the finding's"
grep -m1 '"type":"finding"' "$good" | sed 's/"rule":"[^"]*"/"rule":"no.such.rule"/' >"$bad"
refused "$bad" 'rule "no.such.rule" is not in the catalogue' "an unknown rule"
# the same input in two parts
run_dllpcheck --merge "$tmpdir/parts/each/0001.jsonl" "$tmpdir/parts/each/0002.jsonl" "$tmpdir/parts/each/0001.jsonl"
expect_status 2 "an input in two parts"
expect_grep "$tmpdir/err" '0001.jsonl: line 1: input "samples/[^"]*" is also in .*0001.jsonl \(line 1\)' "an input in two parts"
# parts of other options than each other
"$DLLPCHECK" --mps 256 --format=jsonl samples/clean-init.pcap >"$bad" || true
run_dllpcheck --merge "$tmpdir/parts/each/0001.jsonl" "$bad"
expect_status 2 "parts of different options"
expect_grep "$tmpdir/err" "bad.jsonl: line 1: options .* differ" "parts of different options"
# --stats asked of parts without
run_dllpcheck --merge --stats "$tmpdir/parts/each/0001.jsonl"
expect_status 2 "--stats of parts without"
expect_grep "$tmpdir/err" "make the part with --stats" "--stats of parts without"
# a part that does not exist; HTML
run_dllpcheck --merge "$tmpdir/none.jsonl"
expect_status 2 "a part that does not exist"
expect_grep "$tmpdir/err" "none.jsonl: cannot open the part" "a part that does not exist"
# the chart lines of --with-charts, damaged
good="$tmpdir/charts.jsonl"
"$DLLPCHECK" --with-charts --format=jsonl samples/overrun.pcap samples/crc-errors.pcap >"$good" 2>/dev/null || true
grep -q '"type":"chart",.*"findings":\[\[' "$good" && pass || fail "no marker in the chart lines to damage"
grep -v '"type":"charts"' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: a chart line of .* with no charts line" "a chart line without its charts line"
awk '/"type":"chart",/ && !done { done = 1; next } { print }' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: the summary of .* follows [0-9]+ of the [0-9]+ chart lines" "a chart line missing"
awk '/"type":"charts"/ && !done { done = 1; print; print; next } { print }' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: a second charts line" "a charts line twice"
sed '0,/"type":"charts"/s/"charts":[0-9]*/"charts":100000/' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: charts is not a number from 0 to 256" "a count of charts out of bounds"
sed '0,/"type":"chart",/s/"points":\[\[\([0-9]*\)/"points":[[1\1/' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: chart.series\[0\].points\[0\]: time [0-9]+ is not the start of a bucket" "a point off its bucket"
sed '0,/"type":"chart",/s/"bucket_ps":[0-9]*/"bucket_ps":3/' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: chart.series\[0\].bucket_ps is not a power of two" "a bucket width not a power of two"
sed '0,/"type":"chart",/s/"points":\[\[/"points":[[0,1,2,3,4,5],[/' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: chart.series\[0\].points\[0\] is not an array of 5 numbers" "a point of 6 numbers"
sed 's/"findings":\[\[\([0-9]*\),[0-9]*\]/"findings":[[\1,9999]/' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: .*findings\[0\]: finding 9999 is not one of the input's findings" "a marker of no finding"
sed '0,/"type":"chart",/s/"chart":{/"chart":{"x":1,/' "$good" >"$bad"
refused "$bad" "bad.jsonl: line [0-9]+: unexpected key chart.x" "an unknown key in a chart"
sed -n '/"type":"charts"/{p;q}' "$good" >"$bad"
grep -m1 '"type":"finding"' "$good" >>"$bad"
refused "$bad" "bad.jsonl: line 2: a finding of .* after its charts line" "a finding after the charts line"

# ---------------------------------------------------------------- pipes
# a part from a pipe, which reads once: its lines kept from the check for
# the report when they fit in 256 KiB (the report is the file's); when
# they do not, refused before anything is written
mkfifo "$tmpdir/part.fifo"
# fifo_merge ARGS: --merge ARGS, given 60 s (a merge that opened the pipe
# again would wait for a writer for ever), then the writer (cat, the last
# job) waited for, or ended when the merge was
fifo_merge() {
	set +e
	timeout 60 "$DLLPCHECK" --merge "$@" >"$tmpdir/out" 2>"$tmpdir/err"
	status=$?
	set -e
	if [ "$status" = 124 ]; then kill "$!" 2>/dev/null || true; fi
	wait || true
	return 0
}
small="$tmpdir/small.jsonl"
"$DLLPCHECK" --format=jsonl samples/overrun.pcap samples/crc-errors.pcap >"$small" 2>/dev/null || true
for fmt in text json junit; do
	"$DLLPCHECK" --merge --format=$fmt "$small" >"$tmpdir/want" 2>/dev/null && want=0 || want=$?
	cat "$small" >"$tmpdir/part.fifo" &
	fifo_merge --format=$fmt "$tmpdir/part.fifo"
	if [ "$status" = "$want" ] && cmp -s "$tmpdir/out" "$tmpdir/want"; then pass; else
		fail "a part from a pipe ($fmt): status $status (want $want) or not the file's report"
	fi
done
# the run's report again and again (one part may name an input twice)
big="$tmpdir/big.jsonl"
: >"$big"
while [ "$(wc -c <"$big")" -le 270000 ]; do cat "$small" >>"$big"; done
run_dllpcheck --merge "$big"
[ "$status" -le 1 ] && pass || fail "a part of 270 KB from a file: status $status"
cat "$big" >"$tmpdir/part.fifo" &
fifo_merge "$tmpdir/part.fifo"
expect_status 2 "a part of 270 KB from a pipe"
[ -s "$tmpdir/out" ] && fail "a part of 270 KB from a pipe: wrote a report"
expect_grep "$tmpdir/err" "part.fifo: a pipe whose text does not fit in what is left of the 256 KiB" \
	"a part of 270 KB from a pipe"

finish
