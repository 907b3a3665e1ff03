#!/bin/sh
# -j N, the pool of worker processes (cli/run_pool.c): the report and the
# messages are byte for byte those of -j 1 in every format, for any number of inputs and
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
	cp "$t/err" "$t/j1err.$fmt"
	[ "$want" -eq 2 ] && pass || fail "$fmt -j 1: status $want, expected 2"
	for j in 2 3 8; do
		# shellcheck disable=SC2086
		run_dllpcheck --format=$fmt -j $j $inputs
		[ "$status" -eq "$want" ] && pass || fail "$fmt -j $j: status $status, -j 1 gave $want"
		cmp -s "$t/j1.$fmt" "$t/out" && pass || fail "$fmt -j $j: the report differs from -j 1"
		# the messages too, in the same order
		cmp -s "$t/j1err.$fmt" "$t/err" && pass ||
			fail "$fmt -j $j: the messages differ from -j 1"
	done
done

# more workers than inputs, and one input
run_dllpcheck -j 64 "$s/overrun.pcap" "$s/clean-init.trace"
[ "$status" -eq 1 ] && pass || fail "-j 64 with two inputs: status $status"
"$DLLPCHECK" -j 1 "$s/overrun.pcap" "$s/clean-init.trace" >"$t/two" || true
cmp -s "$t/two" "$t/out" && pass || fail "-j 64 with two inputs differs from -j 1"

# inputs that are not regular files are read by the main process at
# their turn, as -j 1 reads them: a FIFO, and standard input given twice
# (the second time it is empty, as with -j 1)
mkfifo "$t/feed.fifo"
cat "$s/overrun.trace" >"$t/feed.fifo" &
"$DLLPCHECK" -j 2 --format=jsonl "$s/overrun.pcap" "$t/feed.fifo" "$s/clean-init.trace" \
	>"$t/fifo.out" 2>"$t/fifo.err" && status=0 || status=$?
wait
cat "$s/overrun.trace" >"$t/feed.fifo" &
"$DLLPCHECK" -j 1 --format=jsonl "$s/overrun.pcap" "$t/feed.fifo" "$s/clean-init.trace" \
	>"$t/fifo1.out" 2>"$t/fifo1.err" || true
wait
[ "$status" -eq 1 ] && pass || fail "a FIFO with -j 2: status $status, expected 1"
cmp -s "$t/fifo.out" "$t/fifo1.out" && pass || fail "a FIFO with -j 2: the report differs from -j 1"
for j in 1 2 3; do
	"$DLLPCHECK" -j $j --format=jsonl - "$s/overrun.pcap" - <"$s/overrun.trace" \
		>"$t/stdin$j.out" 2>"$t/stdin$j.err" && status=0 || status=$?
	[ "$status" -eq 2 ] && pass || fail "standard input twice, -j $j: status $status, expected 2"
	[ $j -eq 1 ] || cmp -s "$t/stdin1.out" "$t/stdin$j.out" && pass ||
		fail "standard input twice, -j $j: the report differs from -j 1"
done
grep -q '"type":"error","file":"-".*empty input' "$t/stdin1.out" && pass ||
	fail "standard input twice: the second is not the empty input"

# a worker that dies: the input it was on fails with a message, the
# inputs after it are reported (a compressed trace that takes seconds,
# a task of its own, taken by the worker from the back while the main
# process reads another from the front; the worker killed while it reads it)
{
	head -13 "$s/clean-init.trace"
	awk 'BEGIN { for (i = 0; i < 2000000; i++) print "5us down UpdateFC-P vc=0 hdr=32 data=256" }'
} | gzip -1 >"$t/slow.trace.gz"
cp "$t/slow.trace.gz" "$t/slow2.trace.gz"
"$DLLPCHECK" -j 2 --format=jsonl "$t/slow.trace.gz" "$s/overrun.pcap" "$s/clean-init.trace" \
	"$s/crc-errors.pcap" "$s/overrun.trace" "$t/slow2.trace.gz" >"$t/dead.out" 2>"$t/dead.err" &
parent=$!
worker=""
n=0
while [ -z "$worker" ] && [ $n -lt 200 ]; do
	for p in $(pgrep -P "$parent" 2>/dev/null); do
		if ls -l "/proc/$p/fd" 2>/dev/null | grep -q 'slow2\.trace\.gz'; then worker=$p; fi
	done
	[ -n "$worker" ] || sleep 0.05
	n=$((n + 1))
done
if [ -n "$worker" ]; then
	pass
	kill -9 "$worker"
else
	fail "no worker opened the slow input"
fi
set +e
wait "$parent"
status=$?
set -e
[ "$status" -eq 2 ] && pass || fail "a worker killed: status $status, expected 2"
grep -q 'slow2\.trace\.gz: the analysis process failed' "$t/dead.err" && pass ||
	fail "a worker killed: no message naming its input"
[ "$(grep -c 'the analysis process failed' "$t/dead.err")" -eq 1 ] && pass ||
	fail "a worker killed: more than its input failed: $(cat "$t/dead.err")"
# every other input is reported, in order
grep -o '"file":"[^"]*"' "$t/dead.out" | awk '!seen[$0]++' | sed 's/.*\///; s/"$//' | tr '\n' ' ' >"$t/order"
[ "$(cat "$t/order")" = "slow.trace.gz overrun.pcap clean-init.trace crc-errors.pcap overrun.trace slow2.trace.gz " ] && pass ||
	fail "a worker killed: inputs reported: $(cat "$t/order")"

# an input handed to a worker that has not started it is taken back by the
# main process at its turn rather than waited for: a 2 MB file that is not
# a capture first (refused at once, but it makes the main process hand the
# worker 4 MB of work first), the slow input then, which the worker is
# handed behind the other slow one, read by the main process
if command -v strace >/dev/null 2>&1; then
	head -c 2000000 /dev/zero >"$t/zeros.bin"
	strace -f -qq -e trace=openat -o "$t/strace-back" "$DLLPCHECK" -q -j 2 "$t/zeros.bin" \
		"$t/slow.trace.gz" "$t/slow2.trace.gz" 2>/dev/null || true
	main_pid=$(awk 'NR == 1 { print $1 }' "$t/strace-back")
	grep -E "^$main_pid .*slow\.trace\.gz" "$t/strace-back" >/dev/null && pass ||
		fail "an input not started by its worker was not taken back by the main process"
	grep -E "^$main_pid .*slow2\.trace\.gz" "$t/strace-back" >/dev/null &&
		fail "the worker's input was read by the main process" || pass
fi

# a small batch is spread over the processes (a task is at most a
# 2 * (workers + 1)'th of the inputs waiting): with the main process busy
# on a slow first input, the worker analyses the small ones after it (the
# main process takes back what the worker has not started, so with small
# inputs only it may rightly do them all, when the worker starts late)
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -e trace=openat -o "$t/strace" "$DLLPCHECK" -q -j 2 "$t/slow.trace.gz" \
		"$s/overrun.pcap" "$s/clean-init.trace" "$s/crc-errors.pcap" "$s/overrun.trace" || true
	# the first input is the main process's own (strace's first line is its)
	main_pid=$(awk 'NR == 1 { print $1 }' "$t/strace")
	grep -E "^$main_pid .*slow\.trace\.gz" "$t/strace" >/dev/null && pass ||
		fail "5 inputs, -j 2: the main process did not analyse the first input"
	others=$(grep -E 'samples/(overrun|clean-init|crc-errors)' "$t/strace" | awk -v m="$main_pid" '$1 != m' | wc -l)
	[ "$others" -ge 1 ] && pass || fail "5 inputs, -j 2: the worker analysed none of them"
fi

# the worker dies with the main process (no orphan reading on)
# (six slow inputs: about 1.5 s at -j 2, well after the kill)
"$DLLPCHECK" -j 2 -q "$t/slow.trace.gz" "$t/slow.trace.gz" "$t/slow.trace.gz" "$t/slow.trace.gz" \
	"$t/slow.trace.gz" "$t/slow.trace.gz" 2>/dev/null &
parent=$!
sleep 0.5
kids=$(pgrep -P "$parent" | tr '\n' ' ')
kill -9 "$parent"
wait "$parent" 2>/dev/null || true
sleep 0.5
alive=0
for k in $kids; do
	# gone, or a zombie waiting for whoever took it over
	state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$k/status" 2>/dev/null || true)
	[ -z "$state" ] || [ "$state" = Z ] || alive=1
done
[ -n "$kids" ] && [ $alive -eq 0 ] && pass || fail "workers [$kids] outlived the main process"
finish
