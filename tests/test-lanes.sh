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
	inputs="$inputs $p"
done

# A dllpcheck run that must not crash: exit status 0, 1 or 2, and a message
# with 2.
sane() { # WHAT STATUS
	if [ "$2" -gt 2 ]; then
		fail "$1: exit status $2 (a crash?)"
		sed 's/^/  stderr: /' "$w/err" | head -5
		return 1
	fi
	if [ "$2" -eq 2 ] && [ ! -s "$w/err" ]; then
		fail "$1: exit status 2 without a message"
		return 1
	fi
	return 0
}

# roundtrip NAME PCAP MODE PCAP2VCD-OPTIONS...: MODE is map (the --lanes
# arguments pcap2vcd.py prints) or auto (the names found by the reader)
roundtrip() {
	name=$1 pcap=$2 mode=$3
	shift 3
	vcd="$w/rt.vcd"
	if ! map=$($PY "$enc" "$pcap" "$vcd" --expect "$w/exp.pcap" --map "$@" 2>"$w/enc.err"); then
		fail "$name: pcap2vcd.py $*"
		sed 's/^/  /' "$w/enc.err" | head -5
		return 0
	fi
	if [ "$mode" = auto ]; then
		# only the clock or the symbol period
		map=$(echo "$map" | sed 's/--lanes [^ ]* //g')
	fi
	case ${COMPRESS:-} in
	gzip) gzip -c "$vcd" >"$vcd.gz" && vcd="$vcd.gz" ;;
	zstd) zstd -q -c "$vcd" >"$vcd.zst" && vcd="$vcd.zst" ;;
	esac
	set +e
	# shellcheck disable=SC2086
	"$DLLPCHECK" $map --write-pcap "$w/got.pcap" "$vcd" >/dev/null 2>"$w/err"
	st=$?
	set -e
	sane "$name: --write-pcap" "$st" || return 0
	if [ "$st" -eq 2 ]; then
		fail "$name: the reader gave up: $(head -1 "$w/err") [pcap2vcd.py $*]"
		return 0
	fi
	if ! $PY "$cmp" pcap "$w/exp.pcap" "$w/got.pcap" >"$w/diff"; then
		fail "$name: the records differ [pcap2vcd.py $* ($mode)]"
		sed 's/^/  /' "$w/diff" | head -4
		return 0
	fi
	pass
	set +e
	# shellcheck disable=SC2086
	"$DLLPCHECK" $map --format=json "$vcd" >"$w/got.json" 2>"$w/err"
	st1=$?
	"$DLLPCHECK" --format=json "$w/exp.pcap" >"$w/exp.json" 2>/dev/null
	st2=$?
	set -e
	sane "$name: report" "$st1" || return 0
	if [ "$st1" -ne "$st2" ]; then
		fail "$name: exit status $st1 on the VCD, $st2 on the expected pcap"
	elif ! $PY "$cmp" findings "$w/exp.json" "$w/got.json" >"$w/diff"; then
		fail "$name: the findings differ [pcap2vcd.py $* ($mode)]"
		sed 's/^/  /' "$w/diff" | head -4
	else
		pass
	fi
}

# ---- round trips over every input, rotating through the matrix ---------
forms="code10 sym9 pipe8 pipe16 pipe32 gen3-8 gen3-16 gen3-32"
i=0
for p in $inputs; do
	form=$(echo $forms | cut -d' ' -f$((i % 8 + 1)))
	lanes=$(echo "1 2 4 8 12 16 4" | cut -d' ' -f$((i % 7 + 1)))
	dialect=$(echo "icarus sv noisy" | cut -d' ' -f$((i % 3 + 1)))
	clock=$(echo "--clock --symbol-period" | cut -d' ' -f$((i / 8 % 2 + 1)))
	scr=$(echo "yes no" | cut -d' ' -f$((i / 3 % 2 + 1)))
	gen=$(echo "1 2" | cut -d' ' -f$((i / 5 % 2 + 1)))
	mode=$(echo "map auto" | cut -d' ' -f$((i / 2 % 2 + 1)))
	roundtrip "$(basename "$p")" "$p" "$mode" --form "$form" --lanes "$lanes" \
		--dialect "$dialect" "$clock" --scrambled "$scr" --gen "$gen"
	i=$((i + 1))
done

ci="$srcdir/samples/clean-init.pcap"
# every form at x1 and x16 on the clean sample, and x32 once
for form in $forms; do
	roundtrip "clean-init $form x1" "$ci" map --form "$form" --lanes 1
	roundtrip "clean-init $form x16" "$ci" auto --form "$form" --lanes 16 --dialect sv
done
roundtrip "clean-init x32" "$ci" map --form pipe8 --lanes 32
roundtrip "clean-init gen3 x32" "$ci" map --form gen3-32 --lanes 32 --symbol-period
# the other autodetected name families
roundtrip "clean-init intel names" "$ci" auto --form pipe16 --lanes 4 --names intel
roundtrip "clean-init xilinx names" "$ci" auto --form pipe8 --lanes 2 --names xilinx
# compressed
COMPRESS=gzip roundtrip "clean-init gzip" "$ci" map --form code10 --lanes 4
if command -v zstd >/dev/null 2>&1; then
	COMPRESS=zstd roundtrip "clean-init zstd" "$ci" auto --form gen3-16 --lanes 8
fi

# ---- damage ------------------------------------------------------------
# damage NAME PCAP2VCD-OPTIONS...: on samples/clean-init; record 14 is its
# first TLP (MWr32), record 2 its first DLLP
damage() {
	name=$1
	shift
	vcd="$w/dm.vcd"
	if ! map=$($PY "$enc" "$ci" "$vcd" --expect "$w/exp.pcap" --map \
		--compare-args "$w/args" "$@" 2>"$w/enc.err"); then
		fail "damage $name: pcap2vcd.py $*"
		sed 's/^/  /' "$w/enc.err" | head -5
		return 0
	fi
	set +e
	# shellcheck disable=SC2086
	"$DLLPCHECK" $map --write-pcap "$w/got.pcap" "$vcd" >/dev/null 2>"$w/err"
	st=$?
	# shellcheck disable=SC2086
	"$DLLPCHECK" $map --format=json "$vcd" >"$w/got.json" 2>"$w/err2"
	st2=$?
	set -e
	sane "damage $name: --write-pcap" "$st" || return 0
	cp "$w/err2" "$w/err"
	sane "damage $name: report" "$st2" || return 0
	# shellcheck disable=SC2046
	if $PY "$cmp" pcap "$w/exp.pcap" "$w/got.pcap" --findings "$w/got.json" \
		$(cat "$w/args") >"$w/diff"; then
		pass
	else
		fail "damage $name [pcap2vcd.py $*]"
		sed 's/^/  /' "$w/diff" | head -4
	fi
}
damage "flip, code10" --form code10 --lanes 4 --damage flip:14
damage "flip, DLLP, code10 x1" --form code10 --lanes 1 --damage flip:2 --gen 2
damage "flip, pipe16" --form pipe16 --lanes 2 --damage flip:14
damage "no END" --form code10 --lanes 8 --damage noend:14
damage "no END, DLLP" --form pipe8 --lanes 1 --damage noend:2
damage "EDB, 8b/10b" --form pipe16 --lanes 4 --damage edb:14
damage "EDB, 128b/130b" --form gen3-16 --lanes 4 --damage edb:14
damage "frame CRC" --form gen3-8 --lanes 4 --damage fcrc:14
damage "frame CRC x1" --form gen3-32 --lanes 1 --damage fcrc:14
damage "lane drop, 8b/10b" --form code10 --lanes 4 --damage drop:2:3150
damage "lane drop, 128b/130b" --form gen3-16 --lanes 8 --damage drop:5:1100

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
finish
