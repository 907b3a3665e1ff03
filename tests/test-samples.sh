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
# The README shows the report on samples/overrun.pcap as it is.
while IFS= read -r line; do
	if grep -Fqx -- "$line" README.md; then pass; else
		fail "README.md does not show this line of samples/overrun.expected: $line"
	fi
done <samples/overrun.expected
finish
