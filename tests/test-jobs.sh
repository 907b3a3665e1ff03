#!/bin/sh
# -j N, the pool of worker processes (cli/run_pool.c): the report is byte
# for byte that of -j 1 in every format, for any number of inputs and
# workers, with inputs that fail, large parts of the report arriving out of
# order, and a worker that dies (its input fails, the others go on).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
s="$srcdir/samples"
t="$tmpdir"

# inputs of every kind: clean, with findings, an export, unreadable,
# missing, no record, and a large report part (3000 malformed lines)
head -c 600 /dev/urandom >"$t/random.bin"
printf '# nothing\n' >"$t/empty.trace"
awk 'BEGIN { for (i = 0; i < 3000; i++) print "1 ns down bogus-record " i }' >"$t/late.trace"
cat "$s/clean-init.trace" >>"$t/late.trace"
set -- "$s/clean-init.trace" "$s/overrun.pcap" "$s/crc-errors.pcap" "$s/overrun-export.csv" \
	"$t/random.bin" "$t/missing.pcap" "$t/empty.trace" "$t/late.trace" "$s/lost-completion.trace"
# 150 inputs: the list repeated, the large part among small ones
inputs=""
i=0
while [ $i -lt 17 ]; do
	for f in "$@"; do inputs="$inputs $f"; done
	i=$((i + 1))
done
inputs="$inputs $s/overrun.trace $t/late.trace $s/overrun.pcap"
count=$(echo $inputs | wc -w)
[ "$count" -eq 156 ] && pass || fail "expected 156 inputs, have $count"

for fmt in text json jsonl junit html; do
	# shellcheck disable=SC2086
	run_dllpcheck --format=$fmt -j 1 $inputs
	want=$status
	cp "$t/out" "$t/j1.$fmt"
	sort "$t/err" >"$t/j1err.$fmt"
	[ "$want" -eq 2 ] && pass || fail "$fmt -j 1: status $want, expected 2"
	for j in 2 3 8; do
		# shellcheck disable=SC2086
		run_dllpcheck --format=$fmt -j $j $inputs
		[ "$status" -eq "$want" ] && pass || fail "$fmt -j $j: status $status, -j 1 gave $want"
		cmp -s "$t/j1.$fmt" "$t/out" && pass || fail "$fmt -j $j: the report differs from -j 1"
		# the messages are the same (each worker writes its own, so
		# their order may differ)
		sort "$t/err" | cmp -s "$t/j1err.$fmt" - && pass ||
			fail "$fmt -j $j: the messages differ from -j 1"
	done
done

# more workers than inputs, and one input
run_dllpcheck -j 64 "$s/overrun.pcap" "$s/clean-init.trace"
[ "$status" -eq 1 ] && pass || fail "-j 64 with two inputs: status $status"
"$DLLPCHECK" -j 1 "$s/overrun.pcap" "$s/clean-init.trace" >"$t/two" || true
cmp -s "$t/two" "$t/out" && pass || fail "-j 64 with two inputs differs from -j 1"

# a worker that dies: its input (a FIFO nobody writes, so the worker
# waits on it) fails with a message, the inputs after it are reported
mkfifo "$t/stuck.fifo"
# a writer that never writes (a process of its own: dllpcheck must not
# inherit it), so the worker's read of the FIFO waits
sleep 60 >"$t/stuck.fifo" &
writer=$!
"$DLLPCHECK" -j 2 --format=jsonl "$s/overrun.pcap" "$t/stuck.fifo" "$s/clean-init.trace" \
	"$s/crc-errors.pcap" >"$t/dead.out" 2>"$t/dead.err" &
parent=$!
worker=""
n=0
while [ -z "$worker" ] && [ $n -lt 100 ]; do
	for p in $(pgrep -P "$parent" 2>/dev/null); do
		if ls -l "/proc/$p/fd" 2>/dev/null | grep -q 'stuck\.fifo'; then worker=$p; fi
	done
	[ -n "$worker" ] || sleep 0.1
	n=$((n + 1))
done
if [ -n "$worker" ]; then
	pass
	kill -9 "$worker"
else
	fail "no worker opened the FIFO"
fi
kill "$writer" 2>/dev/null || true # (a worker still reading it sees the end)
set +e
wait "$parent"
status=$?
set -e
[ "$status" -eq 2 ] && pass || fail "a worker killed: status $status, expected 2"
grep -q 'stuck\.fifo: the analysis process failed' "$t/dead.err" && pass ||
	fail "a worker killed: no message naming its input"
# every other input is reported, in order
grep -o '"file":"[^"]*"' "$t/dead.out" | awk '!seen[$0]++' | sed 's/.*\///; s/"$//' | tr '\n' ' ' >"$t/order"
[ "$(cat "$t/order")" = "overrun.pcap stuck.fifo clean-init.trace crc-errors.pcap " ] && pass ||
	fail "a worker killed: inputs reported: $(cat "$t/order")"
finish
