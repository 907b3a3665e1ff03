#!/bin/sh
# The test-side lane encoder on its own (tests/lanes/pcap2vcd.py), before
# and beside the C reader: its 8b/10b codes, scramblers, frame CRC and STP
# packing against the checked reference ../shared/vectors/phy_ref.py when
# that is there (tests/lanes/crosscheck.py; CI has no ../shared), and its
# VCDs read back by the small Python reader tests/lanes/refread.py in every
# form, which must give the records pcap2vcd.py --expect wrote.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
PY=${PYTHON:-python3}
lanes="$srcdir/tests/lanes"
set +e
$PY "$lanes/crosscheck.py" ${PHY_REF_DIR:+"$PHY_REF_DIR"} >"$tmpdir/cc" 2>&1
st=$?
set -e
case $st in
0) pass ;;
77) echo "crosscheck skipped: $(cat "$tmpdir/cc")" ;;
*) fail "crosscheck against phy_ref.py"; head -20 "$tmpdir/cc" ;;
esac

run_dllpcheck --write-pcap "$tmpdir/ci.pcap" "$srcdir/samples/clean-init.trace"
expect_status 0 "clean-init.trace"
run_dllpcheck --write-pcap "$tmpdir/rc.pcap" "$srcdir/tests/scenarios/fc.init.reinit/miss.trace"
for c in "code10 4 --dialect noisy" "sym9 8 --scrambled no" "pipe8 1 --symbol-period" \
	"pipe16 12 --gen 2 --dialect sv" "pipe32 16" "gen3-8 2 --dialect noisy" \
	"gen3-16 8 --symbol-period" "gen3-32 4 --dialect sv"; do
	# shellcheck disable=SC2086
	set -- $c
	form=$1 n=$2
	shift 2
	for p in ci rc; do
		# shellcheck disable=SC2086
		if map=$($PY "$lanes/pcap2vcd.py" "$tmpdir/$p.pcap" "$tmpdir/x.vcd" --form "$form" \
			--lanes "$n" --expect "$tmpdir/exp.pcap" --map "$@" 2>"$tmpdir/err") &&
			$PY "$lanes/refread.py" "$tmpdir/x.vcd" "$tmpdir/got.pcap" $map 2>>"$tmpdir/err" &&
			$PY "$lanes/compare.py" pcap "$tmpdir/exp.pcap" "$tmpdir/got.pcap" >"$tmpdir/diff"; then
			pass
		else
			fail "$p: $form x$n $*"
			head -5 "$tmpdir/err" "$tmpdir/diff" 2>/dev/null
		fi
	done
done
finish
