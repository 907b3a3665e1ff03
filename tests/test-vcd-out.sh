#!/bin/sh
# --vcd FILE and --gtkw FILE (dllpcheck(1), THE WAVEFORM): the shadow model
# as a value change dump, read back by tests/vcd-read.py (an independent
# parser: IEEE 1364-2005 clause 18 and nothing of the project's) and by
# GTKWave's vcd2fst/fst2vcd where installed:
#   1. every input format (text trace, pcap, CSV export, lane-level VCD)
#      gives a VCD that parses, a save file that names its signals, and
#      vcd2fst converts it to the same signals;
#   2. at every finding of samples/overrun.trace and of scenario traces,
#      the pulse, the record number and the link are in the waveform, and
#      the values there equal the finding's evidence (CL, CC, available at
#      an overrun; ACKD_SEQ, NEXT_TRANSMIT_SEQ at an Ack; requests
#      outstanding at a timeout); a VCD that does not match is refused;
#   3. a batch writes run-1.vcd .. run-3.vcd and their save files, -j 2
#      byte-identical to -j 1;
#   4. an input with no record leaves no VCD, --vcd or --gtkw naming an
#      input is refused (status 2) and an unwritable place gives status 2
#      and a message naming the file; no temporary file is left behind;
#   5. the memory of writing the VCD of a long capture does not grow with
#      its length;
#   7. a long VCD has its header in the room kept for it, and is otherwise
#      the one written to a FIFO.
# The VCD and save file of samples/overrun.trace stay in tests/vcd-out/ of
# the build directory (an artefact to open with gtkwave).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is needed to read the VCDs back (tests/vcd-read.py)"
	exit 77
fi
# the $date of a VCD, so that runs compare byte for byte
export SOURCE_DATE_EPOCH=1700000000
reader="$srcdir/tests/vcd-read.py"
samples="$srcdir/samples"
scen="$srcdir/tests/scenarios"
have_fst=1
if ! command -v vcd2fst >/dev/null 2>&1 || ! command -v fst2vcd >/dev/null 2>&1; then
	have_fst=0
	echo "NOTE: vcd2fst/fst2vcd (Debian package gtkwave) not installed: the VCDs are not converted to FST"
fi

# read_back VCD WHAT: the VCD parses strictly, its save file (VCD with
# .gtkw) names its signals, and vcd2fst converts it to the same signals
read_back() {
	if python3 "$reader" "$1" check >"$tmpdir/check"; then pass; else
		fail "$2: the VCD does not parse"; head -3 "$tmpdir/check"
	fi
	if python3 "$reader" "$1" gtkw "${1%.vcd}.gtkw" >"$tmpdir/gtkw"; then pass; else
		fail "$2: the save file does not match the VCD"; head -3 "$tmpdir/gtkw"
	fi
	[ "$have_fst" = 1 ] || return 0
	rm -f "$tmpdir/rb.fst"
	if vcd2fst "$1" "$tmpdir/rb.fst" >"$tmpdir/fst.log" 2>&1 && [ -s "$tmpdir/rb.fst" ]; then
		pass
	else
		fail "$2: vcd2fst cannot convert the VCD"; head -3 "$tmpdir/fst.log"; return 0
	fi
	fst2vcd "$tmpdir/rb.fst" >"$tmpdir/rb.vcd" 2>"$tmpdir/fst.log"
	python3 "$reader" "$1" names >"$tmpdir/names.ours"
	python3 "$reader" "$tmpdir/rb.vcd" names >"$tmpdir/names.fst"
	if [ -s "$tmpdir/names.ours" ] && cmp -s "$tmpdir/names.ours" "$tmpdir/names.fst"; then
		pass
	else
		fail "$2: fst2vcd lists other signals"; diff "$tmpdir/names.ours" "$tmpdir/names.fst" | head -5
	fi
}

# ---- 1. every input format -------------------------------------------------
for f in overrun.trace overrun.pcap overrun-export.csv sim-x4.vcd; do
	out="$tmpdir/fmt-${f##*.}.vcd"
	run_dllpcheck --vcd "$out" "$samples/$f"
	[ "$status" -le 1 ] && pass || fail "$f: --vcd exit status $status"
	if [ -s "$out" ] && [ -s "${out%.vcd}.gtkw" ]; then pass; else
		fail "$f: no VCD and save file written"; continue
	fi
	read_back "$out" "$f"
	expect_grep "$out" "^	input: $samples/$f\$" "$f: the header names the input"
done
# an input whose name would end the header's comment ($end) or break its
# line: escaped as \xNN, the VCD still parses
hostile="$tmpdir/a \$end
b.trace"
cp "$samples/overrun.trace" "$hostile"
run_dllpcheck --vcd "$tmpdir/hostile.vcd" "$hostile"
expect_status 1 "an input named with \$end and a newline"
read_back "$tmpdir/hostile.vcd" "an input named with \$end and a newline"
expect_grep "$tmpdir/hostile.vcd" '^	input: .*/a \\x24end\\x0ab\.trace$' "the input's name escaped"
# the three captures of the same story draw the same waveform
for f in pcap csv; do
	sed '1,/\$enddefinitions/d' "$tmpdir/fmt-trace.vcd" >"$tmpdir/body.trace"
	sed '1,/\$enddefinitions/d' "$tmpdir/fmt-$f.vcd" >"$tmpdir/body.$f"
	if cmp -s "$tmpdir/body.trace" "$tmpdir/body.$f"; then pass; else
		fail "overrun.$f draws another waveform than overrun.trace"
	fi
done
# a VC is drawn once in use: overrun.trace initialises VC0 only (a
# link-up makes every VC's CC known, 0, without using it)
if grep -q '^\$scope module vc[1-7] ' "$tmpdir/fmt-trace.vcd"; then
	fail "overrun.trace: VCs it never used are drawn"
else
	expect_grep "$tmpdir/fmt-trace.vcd" '^\$scope module vc0 \$end$' "overrun.trace: VC0 is drawn"
fi
mkdir -p tests/vcd-out
cp "$tmpdir/fmt-trace.vcd" tests/vcd-out/overrun.vcd
sed 's|^\[dumpfile\] .*|[dumpfile] "overrun.vcd"|' "$tmpdir/fmt-trace.gtkw" \
	>tests/vcd-out/overrun.gtkw

# ---- 2. the values at each finding are its evidence ---------------------------
# check_findings INPUT [ARGS]: every finding against the waveform; the
# rules of vcd-read.py's EVIDENCE table must be checked on their evidence
check_findings() {
	in=$1
	shift
	run_dllpcheck "$@" --format=jsonl --vcd "$tmpdir/f.vcd" "$in"
	[ "$status" -le 1 ] && pass || fail "$in: exit status $status"
	cp "$tmpdir/out" "$tmpdir/f.jsonl"
	if python3 "$reader" "$tmpdir/f.vcd" findings "$tmpdir/f.jsonl" >"$tmpdir/fcheck"; then pass; else
		fail "$in: the waveform does not show its findings"; grep -v '^ok' "$tmpdir/fcheck" | head -5
	fi
	n=$(grep -c '"type":"finding"' "$tmpdir/f.jsonl" || true)
	[ "$n" -gt 0 ] && pass || fail "$in: no finding to check"
}
check_findings "$samples/overrun.trace"
expect_grep "$tmpdir/fcheck" "^checked 1 findings, 1 with evidence\$" "overrun.trace: its evidence checked"
for s in fc.credit.overrun/fire fc.credit.overrun/fire-joined fc.update.limit-regress/fire \
	fc.update.over-grant/fire dl.ack.unknown-seq/fire tlp.cpl.timeout/fire; do
	args=""
	[ -f "$scen/$s.args" ] && args=$(cat "$scen/$s.args")
	# shellcheck disable=SC2086
	check_findings "$scen/$s.trace" $args
	if grep -Eq '^checked [0-9]+ findings, [1-9][0-9]* with evidence$' "$tmpdir/fcheck"; then
		pass
	else
		fail "$s: no finding's evidence was checked"; tail -1 "$tmpdir/fcheck"
	fi
done
# a timeout found after its record's time, on another link's event; times
# going back (drawn at the latest); a finding of an unreadable record
check_findings "$scen/tlp.cpl.timeout/fire-otherlink.trace" --cpl-timeout 10
check_findings "$scen/capture.time-backwards/fire.trace"
check_findings "$scen/capture.malformed/fire.trace"

# the overrun as the engineer reads it: before the 7th write at 2.3 us the
# receiver's limit is 6 and the transmitter has consumed 6: 0 available;
# the pulse is 1 at 2.3 us with record 22 and falls at the next time
o="$tmpdir/fmt-trace.vcd"
vc="dllpcheck.link0.port_up.vc0"
python3 "$reader" "$o" before 2300000 $vc.PH_CL $vc.PH_CC $vc.PH_available >"$tmpdir/v"
python3 "$reader" "$o" at 2300000 dllpcheck.findings.fc_credit_overrun \
	dllpcheck.findings.record dllpcheck.findings.link $vc.PH_CC >>"$tmpdir/v"
python3 "$reader" "$o" at 2400000 dllpcheck.findings.fc_credit_overrun \
	dllpcheck.link0.port_down.vc0.CplH_available dllpcheck.link0.state \
	$vc.init >>"$tmpdir/v"
cat >"$tmpdir/v.expected" <<EOF
$vc.PH_CL 6
$vc.PH_CC 6
$vc.PH_available 0
dllpcheck.findings.fc_credit_overrun 1
dllpcheck.findings.record 22
dllpcheck.findings.link 0
$vc.PH_CC 7
dllpcheck.findings.fc_credit_overrun 0
dllpcheck.link0.port_down.vc0.CplH_available -1
dllpcheck.link0.state 3
$vc.init 4
EOF
compare_golden "$tmpdir/v.expected" "$tmpdir/v" "the overrun's values in the waveform"

# the checks can fail: the findings of one capture against another's
# waveform, a value written twice, a time going back
run_dllpcheck --format=jsonl "$samples/overrun.trace"
cp "$tmpdir/out" "$tmpdir/o.jsonl"
run_dllpcheck --vcd "$tmpdir/other.vcd" "$scen/fc.credit.overrun/fire.trace"
if python3 "$reader" "$tmpdir/other.vcd" findings "$tmpdir/o.jsonl" >/dev/null; then
	fail "vcd-read.py findings accepts another capture's waveform"
else
	pass
fi
cat >"$tmpdir/twice.vcd" <<'EOF'
$timescale 1 ps $end
$scope module m $end
$var wire 4 ! v [3:0] $end
$upscope $end
$enddefinitions $end
#0
b1 !
#5
b1 !
EOF
if python3 "$reader" "$tmpdir/twice.vcd" check >"$tmpdir/check"; then
	fail "vcd-read.py accepts a value written twice"
else
	expect_grep "$tmpdir/check" "written again with its value" "a value written twice is named"
fi
{ cat "$o"; echo "#5"; } >"$tmpdir/back.vcd"
if python3 "$reader" "$tmpdir/back.vcd" check >"$tmpdir/check"; then
	fail "vcd-read.py accepts a time going back"
else
	expect_grep "$tmpdir/check" "time 5 after" "a time going back is named"
fi

# ---- 3. a batch: one waveform per input, -j 2 as -j 1 -------------------------
mkdir "$tmpdir/j1" "$tmpdir/j2"
batch="$samples/overrun.trace $samples/lost-completion.trace $samples/crc-errors.pcap"
# shellcheck disable=SC2086
run_dllpcheck --vcd "$tmpdir/j1/run.vcd" $batch
[ "$status" -le 1 ] && pass || fail "batch: exit status $status"
# shellcheck disable=SC2086
run_dllpcheck -j 2 --vcd "$tmpdir/j2/run.vcd" $batch
[ "$status" -le 1 ] && pass || fail "batch -j 2: exit status $status"
(cd "$tmpdir/j1" && ls) >"$tmpdir/ls"
printf '%s\n' run-1.gtkw run-1.vcd run-2.gtkw run-2.vcd run-3.gtkw run-3.vcd >"$tmpdir/ls.expected"
compare_golden "$tmpdir/ls.expected" "$tmpdir/ls" "the batch's files (and nothing else)"
i=0
for f in $batch; do
	i=$((i + 1))
	expect_grep "$tmpdir/j1/run-$i.vcd" "^	input: $f\$" "run-$i.vcd is the waveform of input $i"
	expect_grep "$tmpdir/j1/run-$i.gtkw" "^\[dumpfile\] \"$tmpdir/j1/run-$i.vcd\"\$" \
		"run-$i.gtkw names run-$i.vcd"
	read_back "$tmpdir/j1/run-$i.vcd" "batch input $i"
	for ext in vcd gtkw; do
		if cmp -s "$tmpdir/j1/run-$i.$ext" "$tmpdir/j2/run-$i.$ext" ||
			[ "$ext" = gtkw ]; then
			pass
		else
			fail "run-$i.$ext differs between -j 1 and -j 2"
		fi
	done
done
# --gtkw FILE: the save file there (FILE-N for a batch)
# shellcheck disable=SC2086
run_dllpcheck --vcd "$tmpdir/j1/g.vcd" --gtkw "$tmpdir/j1/view.gtkw" $batch
[ -s "$tmpdir/j1/view-2.gtkw" ] && [ ! -e "$tmpdir/j1/g-2.gtkw" ] && pass ||
	fail "--gtkw FILE in a batch: no view-2.gtkw"

# ---- 4. what is never written ---------------------------------------------------
mkdir "$tmpdir/w"
printf '# nothing but a comment\n' >"$tmpdir/w/empty.trace"
run_dllpcheck --vcd "$tmpdir/w/empty.vcd" "$tmpdir/w/empty.trace"
expect_status 2 "an input with no record"
(cd "$tmpdir/w" && ls) >"$tmpdir/ls"
echo empty.trace >"$tmpdir/ls.expected"
compare_golden "$tmpdir/ls.expected" "$tmpdir/ls" "no VCD (nor temporary file) for an input with no record"
cp "$samples/overrun.trace" "$tmpdir/w/in.trace"
cp "$tmpdir/w/in.trace" "$tmpdir/w/in.copy"
run_dllpcheck --vcd "$tmpdir/w/in.trace" "$tmpdir/w/in.trace"
expect_status 2 "--vcd naming the input"
expect_grep "$tmpdir/err" "in.trace.*refusing to overwrite" "--vcd naming the input: the message"
cmp -s "$tmpdir/w/in.trace" "$tmpdir/w/in.copy" && pass || fail "--vcd overwrote its input"
run_dllpcheck --vcd "$tmpdir/w/x.vcd" --gtkw "$tmpdir/w/in.trace" "$tmpdir/w/in.trace"
expect_status 2 "--gtkw naming the input"
cmp -s "$tmpdir/w/in.trace" "$tmpdir/w/in.copy" && pass || fail "--gtkw overwrote its input"
[ ! -e "$tmpdir/w/x.vcd" ] && pass || fail "--gtkw refused, but the VCD was written"
run_dllpcheck --vcd "$tmpdir/w/x.vcd" --gtkw "$tmpdir/w/x.vcd" "$samples/overrun.trace"
expect_status 2 "--gtkw naming the VCD itself"
[ ! -e "$tmpdir/w/x.vcd" ] && pass || fail "--gtkw naming the VCD: a file was written"
# a VCD to a device: written in place, no save file beside it
run_dllpcheck --vcd /dev/null "$samples/overrun.trace"
expect_status 1 "--vcd /dev/null"
[ ! -e /dev/null.gtkw ] && pass || fail "--vcd /dev/null wrote /dev/null.gtkw"
touch "$tmpdir/w/file"
run_dllpcheck --vcd "$tmpdir/w/file/x.vcd" "$samples/overrun.trace"
expect_status 2 "--vcd in a place that cannot be written"
expect_grep "$tmpdir/err" "$tmpdir/w/file/x.vcd" "the message names the VCD"
(cd "$tmpdir/w" && ls) >"$tmpdir/ls"
printf '%s\n' empty.trace file in.copy in.trace >"$tmpdir/ls.expected"
compare_golden "$tmpdir/ls.expected" "$tmpdir/ls" "nothing left behind by refused runs"

# ---- 6. what a review found: stale credits after a port-reset, outputs that
# are one file, a device for a batch, credits known at the first record, two
# findings at one time -------------------------------------------------------
head -n 14 "$srcdir/samples/overrun.trace" >"$tmpdir/reset.trace"
printf '2us down EVENT port-reset\n3us up TLP MWr32 seq=1 len=16\n4us up TLP MWr32 seq=2 len=16\n' \
	>>"$tmpdir/reset.trace"
"$DLLPCHECK" -q --vcd "$tmpdir/reset.vcd" "$tmpdir/reset.trace" || true
v=$(python3 "$reader" "$tmpdir/reset.vcd" before 2000000 dllpcheck.link0.port_up.vc0.PH_available)
[ "$v" = "dllpcheck.link0.port_up.vc0.PH_available 4" ] && pass ||
	fail "before the port-reset: $v"
v=$(python3 "$reader" "$tmpdir/reset.vcd" at 4000000 dllpcheck.link0.port_up.vc0.PH_available \
	dllpcheck.link0.port_up.vc0.PH_CC dllpcheck.link0.state | tr '\n' ' ')
[ "$v" = "dllpcheck.link0.port_up.vc0.PH_available x dllpcheck.link0.port_up.vc0.PH_CC x dllpcheck.link0.state x " ] &&
	pass || fail "after a port-reset the credits are stale, not known: $v"
for clash in "-o $tmpdir/same.out --vcd $tmpdir/same.out" \
	"--vcd $tmpdir/x.vcd --gtkw $tmpdir/./x.vcd" "-o $tmpdir/o.gtkw --vcd $tmpdir/o.vcd"; do
	# shellcheck disable=SC2086
	rc=0
	"$DLLPCHECK" $clash "$tmpdir/reset.trace" >/dev/null 2>"$tmpdir/err" || rc=$?
	[ $rc = 2 ] && grep -q "would be one file" "$tmpdir/err" && pass ||
		fail "$clash: status $rc, $(cat "$tmpdir/err")"
done
[ ! -e "$tmpdir/same.out" ] && [ ! -e "$tmpdir/x.vcd" ] && pass ||
	fail "a refused run wrote a file"
rc=0
"$DLLPCHECK" -q --vcd /dev/null "$tmpdir/reset.trace" "$srcdir/samples/overrun.trace" || rc=$?
[ $rc = 1 ] && [ ! -e /dev/null-1 ] && [ ! -e /dev/null-1.gtkw ] && pass ||
	fail "--vcd /dev/null for a batch: a file beside the device"
"$DLLPCHECK" -q --vcd "$tmpdir/given.vcd" --initial-credits=down:1:PH=2 \
	"$srcdir/tests/golden/tlp-classes.trace" || true
v=$(python3 "$reader" "$tmpdir/given.vcd" at 1000000 dllpcheck.link0.port_up.vc1.PH_CL)
[ "$v" = "dllpcheck.link0.port_up.vc1.PH_CL 2" ] && pass ||
	fail "credits given by option are not drawn from the first record: $v"
# that capture has findings at one time: record and link change once there
python3 "$reader" "$tmpdir/given.vcd" check >"$tmpdir/check" && pass ||
	{ fail "findings at one time: the VCD does not parse"; head -3 "$tmpdir/check"; }

# ---- 5. memory independent of the capture's length ------------------------------
# peak RSS with --vcd, and what --vcd adds to the analysis's own, at two
# lengths: the VCD grows six-fold, its memory not
# (a sanitizer's allocator and shadow memory make RSS mean little: not
# there, as bench/run warns)
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
		peak_rss -q --vcd "$tmpdir/long$n.vcd" "$tmpdir/long$n.trace"
		eval "rss_$n=$rss"
		eval "size_$n=$(wc -c <"$tmpdir/long$n.vcd")"
	done
	# shellcheck disable=SC2154
	echo "peak RSS with --vcd: $rss_10000 KB (analysis alone $plain_10000 KB) for a VCD of" \
		"$size_10000 bytes; $rss_60000 KB ($plain_60000 KB) for $size_60000 bytes"
	[ "$size_60000" -gt $((size_10000 * 4)) ] && pass ||
		fail "the long capture's VCD ($size_60000 bytes) is not much longer than the short one's"
	# 1 MB of slack: the allocator's and stdio's peaks vary by a few hundred
	# KB from run to run (seen +60 KB then +404 KB in CI under load), while
	# memory that grew with the capture would grow with the VCD, which
	# grows by 4.6 MB between these lengths
	if [ $((rss_60000 - plain_60000)) -le $((rss_10000 - plain_10000 + 1024)) ]; then pass; else
		fail "the VCD's memory grows with the capture: +$((rss_10000 - plain_10000)) KB," \
			"then +$((rss_60000 - plain_60000)) KB"
	fi
	[ "$rss_60000" -le $((rss_10000 + 1024)) ] && pass ||
		fail "peak RSS grows with the capture: $rss_10000 KB, then $rss_60000 KB"
	python3 "$reader" "$tmpdir/long60000.vcd" check >"$tmpdir/check" && pass ||
		{ fail "the long capture's VCD does not parse"; head -3 "$tmpdir/check"; }
else
	echo "NOTE: /usr/bin/time -v not available: peak memory not measured"
fi

# ---- 7. a long VCD: the header in the room kept for it ------------------------
# the values written once, after room for the declarations that a comment
# of newlines fills; without that comment, the file is the one written to
# a FIFO (its values copied after the header at the end); GTKWave reads it
sh "$srcdir/tests/gen-long-clean.sh" 10000 >"$tmpdir/long.trace"
run_dllpcheck --vcd "$tmpdir/long.vcd" "$tmpdir/long.trace"
[ "$status" -le 1 ] && pass || fail "the long capture: --vcd exit status $status"
mkfifo "$tmpdir/fifo"
cat "$tmpdir/fifo" >"$tmpdir/long-fifo.vcd" &
reader_pid=$!
rc=0
"$DLLPCHECK" -q --vcd "$tmpdir/fifo" "$tmpdir/long.trace" || rc=$?
# a run that failed before opening the FIFO leaves cat waiting for a writer
[ "$rc" -le 1 ] || kill "$reader_pid" 2>/dev/null || true
wait "$reader_pid" || true
[ "$rc" -le 1 ] && pass || fail "the long capture to a FIFO: --vcd exit status $rc"
expect_grep "$tmpdir/long.vcd" '^	room kept for the declarations above' "a long VCD keeps room for its header"
awk '/^\$comment$/ { c = 1; buf = $0 "\n"; next }
	c && /^\$end$/ { c = 0; if (buf !~ /room kept/) printf "%s%s\n", buf, $0; next }
	c { buf = buf $0 "\n"; next } { print }' "$tmpdir/long.vcd" >"$tmpdir/long-noroom.vcd"
if [ "$(wc -c <"$tmpdir/long-fifo.vcd")" -gt 65536 ] &&
	cmp -s "$tmpdir/long-noroom.vcd" "$tmpdir/long-fifo.vcd"; then
	pass
else
	fail "a long VCD, but for the room's comment, is not the one written to a FIFO"
fi
read_back "$tmpdir/long.vcd" "a long VCD with room for its header"

finish
