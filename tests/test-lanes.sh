#!/bin/sh
# The lane-level reader against the test-side encoder (issue 14 "Tests";
# capture-format.md section 4).  tests/lanes/pcap2vcd.py turns a capture
# into a VCD of the lanes of both directions, in one of the forms the reader
# takes, and writes the records the reader must give back (--expect):
#   - round trip: over the samples and the scenario traces, the records the
#     reader rebuilds from the VCD (dllpcheck --write-pcap) equal the
#     expected ones (kind, direction, flags, bytes, time), and the findings
#     on the VCD equal those on the expected pcap; the cases rotate through
#     every form, every width, scrambled or not, every dialect, a lane clock
#     or a fixed symbol period, explicit --lanes or the autodetected names;
#     plus a gzip'd and a zstd'd VCD;
#   - damage: a flipped bit, a missing END, a corrupt STP frame CRC, an
#     EDB-ended TLP, a lane that drops out: the expected PHY_ERROR record or
#     capture.malformed, never a crash (exit status <= 2, with a message);
#   - the properties of tests/properties.py on the records rebuilt from a
#     VCD of samples/clean-init.
# Skipped (77) while the dllpcheck under test reads no VCD.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
if ! "$DLLPCHECK" --help 2>/dev/null | grep -q -- '--lanes'; then
	echo "SKIP: $DLLPCHECK has no lane-level (VCD) reader (no --lanes in --help)"
	exit 77
fi
PY=${PYTHON:-python3}
enc="$srcdir/tests/lanes/pcap2vcd.py"
cmp="$srcdir/tests/lanes/compare.py"
w=$tmpdir

# the inputs: the samples (pcap as they are, traces through --write-pcap)
# and the scenario traces
inputs=""
n=0
for f in "$srcdir"/samples/*.pcap "$srcdir"/samples/*.trace "$srcdir"/tests/scenarios/*/*.trace; do
	n=$((n + 1))
	case $f in
	*.pcap) p=$f ;;
	*)
		p="$w/in-$n.pcap"
		"$DLLPCHECK" --write-pcap "$p" "$f" >/dev/null 2>&1 || true
		[ -s "$p" ] || continue
		;;
	esac
	# a waveform holds every symbol time, idle ones too: a capture of
	# milliseconds (samples/lost-completion, 60 ms) would be millions of
	# clock edges; the round trip takes the inputs under 1 ms
	last=$("$DLLPCHECK" --decode --format=jsonl "$p" 2>/dev/null | tail -n 1 |
		sed -n 's/.*"time_ps":\([0-9]*\).*/\1/p')
	if [ -n "$last" ] && [ "$last" -gt 1000000000 ]; then
		echo "# $(basename "$f"): spans more than 1 ms, not encoded"
		continue
	fi
	inputs="$inputs $p"
done

# The cases go to a list first; pcap2vcd.py makes every VCD in one process
# (--batch) and compare.py makes every comparison in one process: a Python
# start per case would be most of the time of the test.
: >"$w/cases"
: >"$w/encode"
ncase=0
# case KIND MODE NAME PCAP PCAP2VCD-OPTIONS...: KIND rt (round trip) or dm
# (damage); MODE map (the --lanes arguments pcap2vcd.py prints) or auto
# (the names the reader finds itself); $COMPRESS gzip or zstd
case_() {
	kind=$1 mode=$2 name=$3 pcap=$4
	shift 4
	ncase=$((ncase + 1))
	c="$w/c$ncase"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$ncase" "$kind" "$mode" "${COMPRESS:-none}" "$name" "$*" \
		>>"$w/cases"
	echo "'$pcap' '$c.vcd' --expect '$c.exp.pcap' --map-file '$c.map' --compare-args '$c.args' $*" \
		>>"$w/encode"
}

# ---- round trips over every input, rotating through the matrix ---------
forms="code10 sym9 pipe8 pipe16 pipe32 gen3-8 gen3-16 gen3-32"
# LANES_ROTATE=K shifts the rotation: other inputs meet other combinations
i=${LANES_ROTATE:-0}
for p in $inputs; do
	form=$(echo "$forms" | cut -d' ' -f$((i % 8 + 1)))
	lanes=$(echo "1 2 4 8 12 16 4" | cut -d' ' -f$((i % 7 + 1)))
	dialect=$(echo "icarus sv noisy" | cut -d' ' -f$((i % 3 + 1)))
	clock=$(echo "--clock --symbol-period" | cut -d' ' -f$((i / 8 % 2 + 1)))
	scr=$(echo "yes no" | cut -d' ' -f$((i / 3 % 2 + 1)))
	gen=$(echo "1 2" | cut -d' ' -f$((i / 5 % 2 + 1)))
	mode=$(echo "map auto" | cut -d' ' -f$((i / 2 % 2 + 1)))
	# the 9-bit form has no name the reader looks for (capture-format.md
	# section 4 lists the 10-bit *lane<N>)
	[ "$form" = sym9 ] && mode=map
	case_ rt "$mode" "$(basename "$p")" "$p" --form "$form" --lanes "$lanes" \
		--dialect "$dialect" "$clock" --scrambled "$scr" --gen "$gen"
	i=$((i + 1))
done

ci="$srcdir/samples/clean-init.pcap"
# every form at x1 and x16 on the clean sample, and x32 once
for form in $forms; do
	case_ rt map "clean-init $form x1" "$ci" --form "$form" --lanes 1
	mode=auto
	[ "$form" = sym9 ] && mode=map
	case_ rt $mode "clean-init $form x16" "$ci" --form "$form" --lanes 16 --dialect sv
done
case_ rt map "clean-init x32" "$ci" --form pipe8 --lanes 32
case_ rt map "clean-init gen3 x32" "$ci" --form gen3-32 --lanes 32 --symbol-period
# the other autodetected name families
case_ rt auto "clean-init intel names" "$ci" --form pipe16 --lanes 4 --names intel
case_ rt auto "clean-init xilinx names" "$ci" --form pipe8 --lanes 2 --names xilinx
case_ rt auto "clean-init xilinx names, 128b/130b" "$ci" --form gen3-16 --lanes 2 --names xilinx
# compressed
COMPRESS=gzip case_ rt map "clean-init gzip" "$ci" --form code10 --lanes 4
if command -v zstd >/dev/null 2>&1; then
	COMPRESS=zstd case_ rt auto "clean-init zstd" "$ci" --form gen3-16 --lanes 8
fi

# ---- damage, on samples/clean-init: record 14 is its first TLP (MWr32),
# record 2 its first DLLP ------------------------------------------------
case_ dm map "flip, code10" "$ci" --form code10 --lanes 4 --damage flip:14
case_ dm map "flip, DLLP, code10 x1" "$ci" --form code10 --lanes 1 --damage flip:2 --gen 2
case_ dm map "flip, pipe16" "$ci" --form pipe16 --lanes 2 --damage flip:14
case_ dm map "no END" "$ci" --form code10 --lanes 8 --damage noend:14
case_ dm map "no END, DLLP" "$ci" --form pipe8 --lanes 1 --damage noend:2
case_ dm map "EDB, 8b/10b" "$ci" --form pipe16 --lanes 4 --damage edb:14
case_ dm map "EDB, 128b/130b" "$ci" --form gen3-16 --lanes 4 --damage edb:14
# an EDB after an intact LCRC: the ending was damaged, the record PHY_ERROR
case_ dm map "EDB after an intact LCRC, 8b/10b" "$ci" --form pipe16 --lanes 4 --damage edbkeep:14
case_ dm map "EDB after an intact LCRC, 128b/130b" "$ci" --form gen3-16 --lanes 4 --damage edbkeep:14
case_ dm map "frame CRC" "$ci" --form gen3-8 --lanes 4 --damage fcrc:14
case_ dm map "frame CRC x1" "$ci" --form gen3-32 --lanes 1 --damage fcrc:14
case_ dm map "lane drop, 8b/10b" "$ci" --form code10 --lanes 4 --damage drop:2:3150
case_ dm map "lane drop, 128b/130b" "$ci" --form gen3-16 --lanes 8 --damage drop:5:1100

if ! $PY "$enc" --batch "$w/encode" 2>"$w/enc.err"; then
	fail "pcap2vcd.py --batch"
	grep 'failed' "$w/enc.err" | head -5
fi

# A dllpcheck run that must not crash: exit status 0, 1 or 2, and a
# message with 2.
sane() { # WHAT STATUS ERRFILE
	if [ "$2" -gt 2 ]; then
		fail "$1: exit status $2 (a crash?)"
		sed 's/^/  stderr: /' "$3" | head -5
		return 1
	fi
	if [ "$2" -eq 2 ] && [ ! -s "$3" ]; then
		fail "$1: exit status 2 without a message"
		return 1
	fi
	return 0
}

: >"$w/compare"
while IFS='	' read -r id kind mode compress name opts; do
	c="$w/c$id"
	[ -f "$c.map" ] || { fail "$name: no VCD [pcap2vcd.py $opts]"; continue; }
	map=$(cat "$c.map")
	if [ "$mode" = auto ]; then
		map=$(echo "$map" | sed 's/--lanes [^ ]* //g') # the clock or the period only
	fi
	vcd="$c.vcd"
	case $compress in
	gzip) gzip -c "$vcd" >"$vcd.gz" && vcd="$vcd.gz" ;;
	zstd) zstd -q -c "$vcd" >"$vcd.zst" && vcd="$vcd.zst" ;;
	esac
	set +e
	# shellcheck disable=SC2086
	"$DLLPCHECK" $map --write-pcap "$c.got.pcap" "$vcd" >/dev/null 2>"$c.err"
	st=$?
	# shellcheck disable=SC2086
	"$DLLPCHECK" $map --format=json "$vcd" >"$c.got.json" 2>"$c.err2"
	st1=$?
	set -e
	sane "$name: --write-pcap" "$st" "$c.err" || continue
	sane "$name: report" "$st1" "$c.err2" || continue
	what="[pcap2vcd.py $opts ($mode${compress#none})]"
	if [ "$kind" = dm ]; then
		printf '%s\tpcap %s %s --findings %s %s\n' "damage $name $what" "$c.exp.pcap" \
			"$c.got.pcap" "$c.got.json" "$(cat "$c.args")" >>"$w/compare"
		continue
	fi
	if [ "$st" -eq 2 ]; then
		fail "$name: the reader gave up: $(head -1 "$c.err") $what"
		continue
	fi
	set +e
	"$DLLPCHECK" --format=json "$c.exp.pcap" >"$c.exp.json" 2>/dev/null
	st2=$?
	set -e
	if [ "$st1" -ne "$st2" ]; then
		fail "$name: exit status $st1 on the VCD, $st2 on the expected pcap $what"
	else
		pass
	fi
	printf '%s\tpcap %s %s\n' "$name: records $what" "$c.exp.pcap" "$c.got.pcap" >>"$w/compare"
	printf '%s\tfindings %s %s\n' "$name: findings $what" "$c.exp.json" "$c.got.json" \
		>>"$w/compare"
done <"$w/cases"
set +e
$PY "$cmp" batch "$w/compare" >"$w/compared"
set -e
grep -v '^[0-9]* passed' "$w/compared" || true
np=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$w/compared")
nf=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$w/compared")
passes=$((passes + ${np:-0}))
failures=$((failures + ${nf:-1}))

# ---- the properties on records rebuilt from lanes ----------------------
map=$($PY "$enc" "$srcdir/samples/clean-init.pcap" "$w/p.vcd" --map --form pipe16 --lanes 4)
# shellcheck disable=SC2086
run_dllpcheck $map --write-pcap "$w/rebuilt.pcap" "$w/p.vcd"
expect_status 0 "clean-init from lanes"
if $PY "$srcdir/tests/properties.py" "$DLLPCHECK" "$w/rebuilt.pcap" >"$w/props" 2>&1; then
	pass
else
	fail "properties on the records rebuilt from lanes"
	grep -v '^[0-9]* passed' "$w/props" | head -20 || true
fi

# ---- a framing error at 128b/130b: what follows is not known, not absent --
# One Data Block of the down direction, early in flow-control initialisation,
# gets the invalid sync header 11b: the stream stops until the next SKP
# ordered set (phy-digest 4.6), which the reader says ("not decoded from
# here"), and the model takes the stretch as any number of damaged packets:
# no flow-control or data-link error may rest on the InitFCs and Acks lost
# in it (before, fc.init.init2-early, dl.ack.unknown-seq, tlp-before-init).
$PY "$enc" "$srcdir/samples/clean-init.pcap" "$w/g.vcd" --form gen3-32 --lanes 1 2>/dev/null
$PY - "$w/g.vcd" "$w/gbad.vcd" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
ids = {}
for l in lines:
    f = l.split()
    if len(f) >= 5 and f[0] == "$var":
        ids[f[4]] = f[3]
sync, start = ids["TxSyncHeader0"], ids["TxStartBlock0"]
first = lines.index("b10 " + sync)  # the data stream begins
starts = [i for i in range(first, len(lines)) if lines[i] == "1" + start]
a, b = starts[3], starts[4]
out = lines[:a + 1] + ["b11 " + sync] + lines[a + 1:b + 1] + ["b10 " + sync] + lines[b + 1:]
open(sys.argv[2], "w").write("\n".join(out))
PY
run_dllpcheck "$w/gbad.vcd"
expect_status 1 "a bad sync header at 128b/130b"
expect_grep "$tmpdir/out" 'invalid sync header 11b' "a bad sync header at 128b/130b: the error"
expect_grep "$tmpdir/out" 'not decoded from here' "a bad sync header at 128b/130b: the stretch lost"
if grep ': error ' "$tmpdir/out" | grep -v ': error capture\.malformed' | grep -q .; then
	fail "a bad sync header at 128b/130b: an error resting on lost packets"
	grep ': error ' "$tmpdir/out" | grep -v 'capture\.malformed' | head -3
else
	pass
fi

# ---- a link-up after link-down is a link-up, a retrain a recovery --------
# At 2.5/5 GT/s a link that went down trains again from Polling (port D's
# TS1 with the Link number PAD), which proves the data link layer went
# down: the reader writes link-up, and the fc.init.reinit near miss (a
# re-initialisation after link-down) stays clean.  A retrain (TS with link
# numbers: a recovery event on the lanes) keeps the flow-control state, so
# the fire trace with a recovery before its InitFC1 restart still fires.
sed 's/^1us /990ns down EVENT recovery\n1us /' "$srcdir/tests/scenarios/fc.init.reinit/fire.trace" |
	tr '\r' ' ' >"$w/reinit-fire.trace"
cp "$srcdir/tests/scenarios/fc.init.reinit/miss.trace" "$w/reinit-miss.trace"
for t in miss fire; do
	run_dllpcheck -q --write-pcap "$w/reinit-$t.pcap" "$w/reinit-$t.trace"
	$PY "$enc" "$w/reinit-$t.pcap" "$w/reinit-$t.vcd" --form pipe16 --lanes 4 2>/dev/null
	run_dllpcheck --decode "$w/reinit-$t.vcd"
	ups=$(grep -c 'EVENT link-up' "$tmpdir/out" || true)
	recs=$(grep -c 'EVENT recovery' "$tmpdir/out" || true)
	if [ $t = miss ]; then want="2 0"; else want="1 1"; fi
	[ "$ups $recs" = "$want" ] && pass ||
		fail "fc.init.reinit $t from lanes: $ups link-up and $recs recovery events, want $want"
	run_dllpcheck "$w/reinit-$t.vcd"
	expect_status 0 "fc.init.reinit $t from lanes (a warning at most)"
	if [ $t = miss ]; then
		# link-down, Polling, link-up: no finding at all
		expect_grep "$tmpdir/out" 'findings: 0 error, 0 warning, 0 info' "fc.init.reinit near miss from lanes"
	else
		# a recovery keeps the state: the restart fires
		expect_grep "$tmpdir/out" 'warning fc\.init\.reinit' "fc.init.reinit fire from lanes"
	fi
done
finish
