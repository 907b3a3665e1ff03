#!/bin/sh
# --annotate OUT.pcapng (dllpcheck(1), ANNOTATED CAPTURES): the input as
# pcapng with every finding a comment on its record and the summary the
# section header's comment, read back by tshark and by dllpcheck
# (tests/annotate-compare.py does the comparing):
#   1. for every input format (text trace, pcap, pcapng, CSV export, lane
#      VCD) and the scenarios' traces: tshark's frame comments, and the
#      section header's comments as Wireshark's own pcapng dissection
#      shows them, are exactly the findings of --format=jsonl (rule,
#      severity, message, record), the section header's first comment is
#      the verdict and the text report's summary, and Wireshark finds
#      nothing malformed in the blocks (skipped, with a message, where
#      tshark is not installed);
#   2. dllpcheck --decode reads the input's records back (times to the
#      nanosecond, if_tsresol 9) and finds the same findings in it;
#   3. --annotate changes nothing of the report, -q writes the same file,
#      a batch writes OUT-N.pcapng, -j 2 byte-identical to -j 1, --dlt is
#      the file's link type;
#   4. edge cases: unreadable records, skipped bytes, no record (no file,
#      status 2), a record with many findings, a flood of unreadable lines
#      (a bounded block that says what it does not carry), a long
#      comment (an input's long UTF-8 name in the summary), a name that is
#      not UTF-8 (escaped as \xNN); -o, --vcd
#      or an input naming the file is refused before anything is written;
#   5. the memory of annotating a long capture does not grow with its
#      length.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is needed to compare the annotated captures (tests/annotate-compare.py)"
	exit 77
fi
compare="$srcdir/tests/annotate-compare.py"
samples="$srcdir/samples"
scen="$srcdir/tests/scenarios"
have_tshark=1
if ! command -v tshark >/dev/null 2>&1; then
	have_tshark=0
	echo "NOTE: tshark (Debian package tshark) not installed: the comments are not read back by Wireshark; only dllpcheck reads the annotated captures"
fi
comment_field=frame.comment
if [ "$have_tshark" = 1 ] && ! tshark -G fields 2>/dev/null | grep -q "	frame\.comment	"; then
	comment_field=pkt_comment
fi

# compare WHAT COMMAND FILES...: an annotate-compare.py check, done with
# the others at the end (one Python for the test: it is slow to start)
: >"$tmpdir/manifest"
compare() {
	(
		IFS='	'
		printf '%s\n' "$*"
	) >>"$tmpdir/manifest"
}
compare_all() {
	python3 "$compare" batch "$tmpdir/manifest" >"$tmpdir/cmp" 2>&1 || :
	while IFS= read -r line; do
		case $line in
		"PASS "*) pass ;;
		"FAIL "*) fail "${line#FAIL }" ;;
		*) echo "$line" ;;
		esac
	done <"$tmpdir/cmp"
	[ -s "$tmpdir/cmp" ] || fail "annotate-compare.py wrote nothing"
}

# the text report's summary lines (its "==" line and the indented lines
# under it), of $tmpdir/out
summary_lines() {
	awk '/^== /{on=1; print; next} on && /^   /{print; next} on{exit}' "$tmpdir/out"
}

# annotate NAME ARGS... INPUT: the checks of 1 and 2 for one input (the
# options before it are given to every run)
annotate() {
	name=$1
	shift
	out="$tmpdir/$name.pcapng"
	run_dllpcheck --format=jsonl --annotate "$out" "$@"
	st=$status
	cp "$tmpdir/out" "$tmpdir/$name.findings"
	if [ "$st" -le 1 ] && [ -s "$out" ]; then pass; else
		fail "$name: --annotate gave status $st"; head -3 "$tmpdir/err"; return 0
	fi
	# the report is the report without --annotate
	run_dllpcheck --format=jsonl "$@"
	if [ "$status" = "$st" ] && cmp -s "$tmpdir/out" "$tmpdir/$name.findings"; then pass; else
		fail "$name: --annotate changed the report or the status ($st, $status)"
	fi
	run_dllpcheck --decode --format=jsonl "$@"
	cp "$tmpdir/out" "$tmpdir/$name.decode"
	n=$#
	opts=""
	i=1
	for a in "$@"; do
		[ $i -lt $n ] && opts="$opts $a"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # the options, word by word
	run_dllpcheck --decode --format=jsonl $opts "$out"
	expect_status 0 "$name: --decode of the annotated capture"
	cp "$tmpdir/out" "$tmpdir/$name.back-decode"
	compare "$name: the records read back" decode "$tmpdir/$name.decode" "$tmpdir/$name.back-decode"
	# the same findings, where the input had no record that could not be
	# read and no packet that was not PCIe (the file holds neither: the
	# numbers and those capture.* findings are the input's alone)
	if ! grep -q '"rule":"capture\.\(malformed\|resync\|not-pcie\)"' "$tmpdir/$name.findings"; then
		# shellcheck disable=SC2086
		run_dllpcheck --format=jsonl $opts "$out"
		[ "$status" = "$st" ] && pass || fail "$name: status $status on the annotated capture, $st on the input"
		cp "$tmpdir/out" "$tmpdir/$name.back-findings"
		compare "$name: the findings in the annotated capture" findings \
			"$tmpdir/$name.findings" "$tmpdir/$name.back-findings"
	fi
	[ "$have_tshark" = 1 ] && [ "${tshark_case:-1}" = 1 ] || return 0
	run_dllpcheck "$@"
	summary_lines >"$tmpdir/$name.summary"
	if tshark -r "$out" -T json -e frame.number -e "$comment_field" >"$tmpdir/$name.frames" 2>"$tmpdir/tshark.err" &&
		tshark -r "$out" -X 'read_format:MIME Files Format' -T json >"$tmpdir/$name.file" 2>>"$tmpdir/tshark.err"; then
		pass
	else
		fail "$name: tshark cannot read the annotated capture"; grep -v "^Running as" "$tmpdir/tshark.err" | head -3
		return 0
	fi
	compare "$name: the comments read back by tshark" comments "$tmpdir/$name.frames" \
		"$tmpdir/$name.file" "$tmpdir/$name.decode" "$tmpdir/$name.findings" "$tmpdir/$name.summary"
}

# ---- 1, 2: every input format, and the scenarios ------------------------------
annotate text "$samples/overrun.trace"
annotate pcap "$samples/overrun.pcap"
annotate crc "$samples/crc-errors.pcap"
annotate lost "$samples/lost-completion.trace"
annotate csv "$samples/overrun-export.csv"
annotate lanes "$samples/sim-x4.vcd"
annotate lanes128 "$samples/sim-gen3-x2.vcd"
annotate tlps "$srcdir/tests/golden/tlp-classes.pcap"
# a pcapng input: an annotated capture (and its comments) read as one
annotate pcapng "$tmpdir/pcap.pcapng"
# every scenario's firing cases; tshark on a choice of them (it takes a
# second a file)
for input in "$scen"/*/fire*.trace "$scen"/*/fire*.pcap; do
	dir=${input%/*}
	base=${input##*/}
	case_name=${base%.*}
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	[ -f "$dir/$case_name.args" ] && args=$(cat "$dir/$case_name.args")
	rule=${dir##*/}
	case "$rule/$case_name" in
	capture.malformed/fire | capture.truncated/fire | tlp.cpl.timeout/fire-otherlink | \
		fc.update.period/fire | dl.ack.unreceived/fire)
		tshark_case=1 ;;
	*) tshark_case=0 ;;
	esac
	# shellcheck disable=SC2086 # the scenario's options, word by word
	annotate "$rule-$case_name" $args "$input"
done
tshark_case=1

# ---- 3: the report, -q, a batch, -j, --dlt ------------------------------------
run_dllpcheck -q --annotate "$tmpdir/q.pcapng" "$samples/overrun.trace"
expect_status 1 "-q --annotate"
if cmp -s "$tmpdir/q.pcapng" "$tmpdir/text.pcapng"; then pass; else
	fail "-q --annotate writes another file (the comments need the findings' messages)"
fi
mkdir "$tmpdir/batch" "$tmpdir/batch-j"
run_dllpcheck --annotate "$tmpdir/batch/run.pcapng" "$samples/overrun.trace" \
	"$samples/crc-errors.pcap" "$samples/clean-init.trace"
expect_status 1 "a batch"
if [ "$(ls "$tmpdir/batch")" = "run-1.pcapng
run-2.pcapng
run-3.pcapng" ]; then pass; else
	fail "a batch writes $(ls "$tmpdir/batch" | tr '\n' ' '), not run-1..3.pcapng"
fi
cmp -s "$tmpdir/batch/run-1.pcapng" "$tmpdir/text.pcapng" && pass ||
	fail "a batch's first file differs from the single input's"
run_dllpcheck -j 2 --annotate "$tmpdir/batch-j/run.pcapng" "$samples/overrun.trace" \
	"$samples/crc-errors.pcap" "$samples/clean-init.trace"
for i in 1 2 3; do
	cmp -s "$tmpdir/batch/run-$i.pcapng" "$tmpdir/batch-j/run-$i.pcapng" && pass ||
		fail "-j 2: run-$i.pcapng differs from -j 1's"
done
run_dllpcheck --dlt 150 --annotate "$tmpdir/dlt.pcapng" "$samples/overrun.trace"
run_dllpcheck --dlt 150 --decode "$tmpdir/dlt.pcapng"
expect_status 0 "--dlt 150: read back with --dlt 150"
run_dllpcheck --decode "$tmpdir/dlt.pcapng"
expect_status 2 "--dlt 150: the file's link type is 150, not LINKTYPE_USER0"

# ---- 4: edge cases -------------------------------------------------------------
# unreadable lines between records and after the last one
{
	sed -n '1,12p' "$samples/overrun.trace"
	echo "garbage here"
	echo "5ns down DLLP zz"
	sed -n '13,$p' "$samples/overrun.trace"
	echo "99us up bogus"
} >"$tmpdir/bad.trace"
annotate bad "$tmpdir/bad.trace"
# a flood of unreadable lines before a record: the block is bounded and
# says how many findings it does not carry (compared as such)
{
	sed -n '1,12p' "$samples/overrun.trace"
	seq 1 300 | sed 's/^/garbage /'
	sed -n '13,$p' "$samples/overrun.trace"
} >"$tmpdir/flood.trace"
annotate flood "$tmpdir/flood.trace"
if [ "$have_tshark" = 1 ]; then
	grep -q "more findings here are not in this block" "$tmpdir/flood.frames" && pass ||
		fail "the flood's block does not say what it does not carry"
fi
# a record with many findings: one TLP over several credit types and
# rules at once (--mps, --mrrs, 4 KB crossing)
cat >"$tmpdir/many.trace" <<'EOF'
0      down EVENT link-up
10ns   down InitFC1-P   vc=0 hdr=1 data=1
12ns   up   InitFC1-P   vc=0 hdr=1 data=1
14ns   down InitFC1-NP  vc=0 hdr=1 data=1
16ns   up   InitFC1-NP  vc=0 hdr=1 data=1
18ns   down InitFC1-Cpl vc=0 hdr=0 data=0
20ns   up   InitFC1-Cpl vc=0 hdr=0 data=0
30ns   down InitFC2-P   vc=0 hdr=1 data=1
32ns   up   InitFC2-P   vc=0 hdr=1 data=1
34ns   down InitFC2-NP  vc=0 hdr=1 data=1
36ns   up   InitFC2-NP  vc=0 hdr=1 data=1
38ns   down InitFC2-Cpl vc=0 hdr=0 data=0
40ns   up   InitFC2-Cpl vc=0 hdr=0 data=0
100ns  up   TLP MWr32 seq=0 len=64
110ns  up   TLP MWr32 seq=1 len=64
120ns  up   TLP MWr32 seq=2 len=64 tc=3
130ns  up   TLP MWr32 seq=3 len=64 crc=1234
EOF
annotate many --mps 128 "$tmpdir/many.trace"
if grep '"type":"finding"' "$tmpdir/many.findings" | sed 's/.*"record":\([0-9]*\),.*/\1/' |
	sort | uniq -c | awk '$1 >= 3 {found = 1} END {exit !found}'; then
	pass
else
	fail "the many-findings case has no record with three findings"
fi
# a long comment: the summary of an input with a long name, in UTF-8;
# and a name that is not UTF-8 (Latin-1): escaped as \xNN in the comment
long_name="$tmpdir/$(printf 'Ü-%.0s' $(seq 1 60))overrun-export.csv"
cp "$samples/overrun-export.csv" "$long_name"
annotate long-name "$long_name"
cp "$samples/overrun.trace" "$(printf '%s/Fr\351d.trace' "$tmpdir")"
annotate latin1 "$(printf '%s/Fr\351d.trace' "$tmpdir")"
if [ "$have_tshark" = 1 ]; then
	grep -q 'Fr\\\\xE9d\.trace (text)' "$tmpdir/latin1.file" && pass ||
		fail "a Latin-1 file name is not escaped in the summary"
fi
# skipped bytes in a pcap (capture.resync), before a record and at the end
annotate resync "$scen/capture.resync/fire.pcap"
annotate resync-unread "$scen/capture.resync/fire-unread.pcap"

# no record: an input error, and no file
: >"$tmpdir/empty.trace"
run_dllpcheck --annotate "$tmpdir/none.pcapng" "$tmpdir/empty.trace"
expect_status 2 "no record"
[ ! -e "$tmpdir/none.pcapng" ] && pass || fail "no record: an annotated capture was left"
printf 'garbage\nmore garbage\n' >"$tmpdir/garbage.trace"
run_dllpcheck --annotate "$tmpdir/none.pcapng" --input-format text "$tmpdir/garbage.trace"
expect_status 2 "no readable record"
[ ! -e "$tmpdir/none.pcapng" ] && pass || fail "no readable record: an annotated capture was left"

# outputs that would be one file, or an input: refused before anything
cp "$samples/overrun.trace" "$tmpdir/in.trace"
echo keep >"$tmpdir/same.pcapng"
run_dllpcheck -o "$tmpdir/same.pcapng" --annotate "$tmpdir/same.pcapng" "$tmpdir/in.trace"
expect_status 2 "-o and --annotate one file"
expect_grep "$tmpdir/err" "would be one file" "-o and --annotate one file: the message"
[ "$(cat "$tmpdir/same.pcapng")" = keep ] && pass || fail "-o and --annotate one file: it was written"
run_dllpcheck --vcd "$tmpdir/same.pcapng" --annotate "$tmpdir/./same.pcapng" "$tmpdir/in.trace"
expect_status 2 "--vcd and --annotate one file"
[ "$(cat "$tmpdir/same.pcapng")" = keep ] && pass || fail "--vcd and --annotate one file: it was written"
run_dllpcheck --annotate "$tmpdir/in.trace" "$tmpdir/in.trace"
expect_status 2 "--annotate naming the input"
expect_grep "$tmpdir/err" "is the input" "--annotate naming the input: the message"
cmp -s "$tmpdir/in.trace" "$samples/overrun.trace" && pass || fail "--annotate overwrote its input"
run_dllpcheck --annotate "$tmpdir/no/such/dir/x.pcapng" "$tmpdir/in.trace"
expect_status 2 "--annotate into a missing directory"
expect_grep "$tmpdir/err" "no/such/dir/x.pcapng" "--annotate into a missing directory: the message names the file"
for mode in --decode "--write-pcap $tmpdir/w.pcap" --dump-columns; do
	# shellcheck disable=SC2086 # the mode, word by word
	run_dllpcheck $mode --annotate "$tmpdir/m.pcapng" "$tmpdir/in.trace"
	expect_status 2 "--annotate with $mode"
done
run_dllpcheck --annotate - "$tmpdir/in.trace"
expect_status 2 "--annotate - (standard output)"
# ---- 5: memory independent of the capture's length ----------------------------
# peak RSS with --annotate, and what it adds to the analysis's own, at two
# lengths: the file grows six-fold, the memory not (not under sanitizers:
# their allocator makes RSS mean little)
if grep -a -q -e __asan_init -e __ubsan_handle "$DLLPCHECK"; then
	echo "NOTE: $DLLPCHECK is built with sanitizers: peak memory not compared"
elif [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
	# peak_rss ARGS...: $rss (KB) of dllpcheck ARGS
	peak_rss() {
		/usr/bin/time -v "$DLLPCHECK" "$@" >/dev/null 2>"$tmpdir/time" || true
		rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmpdir/time")
	}
	for n in 10000 60000; do
		sh "$srcdir/tests/gen-long-clean.sh" $n >"$tmpdir/long$n.trace"
		peak_rss -q "$tmpdir/long$n.trace"
		eval "plain_$n=$rss"
		peak_rss -q --annotate "$tmpdir/long$n.pcapng" "$tmpdir/long$n.trace"
		eval "rss_$n=$rss"
		eval "size_$n=$(wc -c <"$tmpdir/long$n.pcapng")"
	done
	# shellcheck disable=SC2154
	echo "peak RSS with --annotate: $rss_10000 KB (analysis alone $plain_10000 KB) for" \
		"$size_10000 bytes of pcapng; $rss_60000 KB ($plain_60000 KB) for $size_60000 bytes"
	[ "$size_60000" -gt $((size_10000 * 4)) ] && pass ||
		fail "the long capture's pcapng ($size_60000 bytes) is not much longer than the short one's"
	# 1 MB of slack for the allocator's and stdio's peaks (as test-vcd-out.sh)
	if [ $((rss_60000 - plain_60000)) -le $((rss_10000 - plain_10000 + 1024)) ]; then pass; else
		fail "--annotate's memory grows with the capture: +$((rss_10000 - plain_10000)) KB," \
			"then +$((rss_60000 - plain_60000)) KB"
	fi
	run_dllpcheck -q "$tmpdir/long60000.pcapng"
	expect_status 0 "the long capture's annotated pcapng, checked"
else
	echo "NOTE: /usr/bin/time -v not available: peak memory not measured"
fi

# no temporary file left anywhere in the test's directories
if find "$tmpdir" -name '*.dllpcheck-*' -o -name '*.body-*' | grep -q .; then
	fail "a temporary file was left behind"
else
	pass
fi
compare_all
finish
