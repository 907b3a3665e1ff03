#!/bin/sh
# The bundled samples: each samples/NAME.pcap is exactly what --write-pcap
# makes of samples/NAME.trace, and the report on each is samples/NAME.expected
# (with the exit status it must give in samples/NAME.status).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
cd "$srcdir"
for trace in samples/*.trace; do
	name=${trace%.trace}
	run_dllpcheck --write-pcap "$tmpdir/x.pcap" "$trace"
	expect_status 0 "--write-pcap $trace"
	if cmp -s "$tmpdir/x.pcap" "$name.pcap"; then pass; else
		fail "$name.pcap is not what --write-pcap makes of $trace (regenerate it)"
	fi
	run_dllpcheck "$name.pcap"
	want=$(cat "$name.status")
	expect_status "$want" "report on $name.pcap"
	cp "$tmpdir/out" "$tmpdir/report"
	compare_golden "$name.expected" "$tmpdir/report" "report on $name.pcap"
done
# Each samples/NAME.vcd (lanes of a simulation) is exactly what the encoder
# makes with the command in its first $comment, and, with a lane-level
# reader, the report on it is samples/NAME.expected (status NAME.status).
lanes=no
if "$DLLPCHECK" --help 2>/dev/null | grep -q -- '--lanes'; then lanes=yes; fi
for vcd in samples/*.vcd; do
	[ -f "$vcd" ] || continue
	name=${vcd%.vcd}
	# shellcheck disable=SC2016
	cmd=$(sed -n '1s/^\$comment made by: tests\/lanes\/pcap2vcd.py \(.*\) \$end$/\1/p' "$vcd")
	# shellcheck disable=SC2086
	set -- $cmd
	if [ $# -lt 2 ]; then
		fail "$vcd: no 'made by: tests/lanes/pcap2vcd.py IN OUT ...' in its first line"
		continue
	fi
	src=$1
	shift 2
	if ! ${PYTHON:-python3} tests/lanes/pcap2vcd.py "$src" "$tmpdir/x.vcd" "$@" \
		--comment "made by: tests/lanes/pcap2vcd.py $cmd"; then
		fail "$vcd: its 'made by' command fails"
	elif cmp -s "$tmpdir/x.vcd" "$vcd"; then pass; else
		fail "$vcd is not what its 'made by' command makes (regenerate it)"
	fi
	if [ "$lanes" = no ] || [ ! -f "$name.expected" ]; then continue; fi
	run_dllpcheck "$vcd"
	expect_status "$(cat "$name.status")" "report on $vcd"
	cp "$tmpdir/out" "$tmpdir/report"
	compare_golden "$name.expected" "$tmpdir/report" "report on $vcd"
done
# The README shows the report on samples/overrun.pcap as it is.
while IFS= read -r line; do
	if grep -Fqx -- "$line" README.md; then pass; else
		fail "README.md does not show this line of samples/overrun.expected: $line"
	fi
done <samples/overrun.expected
finish
