#!/bin/sh
# Output files (issue 12 item 11): --write-pcap OUT and -o FILE never
# overwrite an input (the same device and inode, whatever the path), and
# an output appears only when complete: written beside it under another
# name and renamed, removed when the run fails; a symbolic link is
# written through, a device is written in place.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
t="$tmpdir"
cp "$srcdir/samples/clean-init.trace" "$t/in.trace"
sum() { cksum <"$1"; }
before=$(sum "$t/in.trace")
mkdir "$t/sub"
ln -s ../in.trace "$t/sub/link.trace"
ln "$t/in.trace" "$t/hard.trace"

# refuse_case WHAT OUTPUT-OPTION...: refused, naming output and input,
# and the input unchanged
refuse_case() {
	what=$1
	shift
	run_dllpcheck "$@"
	expect_status 2 "$what"
	expect_grep "$t/err" 'the output is the input .*in\.trace.* \(the same file: device [0-9]+, inode [0-9]+\); refusing to overwrite it' "$what: message"
	[ "$(sum "$t/in.trace")" = "$before" ] && pass || fail "$what: the input was changed"
}
refuse_case "--write-pcap onto its input" --write-pcap "$t/in.trace" "$t/in.trace"
refuse_case "--write-pcap through another path" --write-pcap "$t/sub/../in.trace" "$t/in.trace"
refuse_case "--write-pcap through a symbolic link" --write-pcap "$t/sub/link.trace" "$t/in.trace"
refuse_case "--write-pcap onto a hard link" --write-pcap "$t/hard.trace" "$t/in.trace"
expect_grep "$t/err" '--write-pcap .*hard\.trace: the output is the input .*in\.trace' "hard link: both named"
refuse_case "-o onto an input" -o "$t/in.trace" "$srcdir/samples/overrun.trace" "$t/in.trace"
refuse_case "-o through a symbolic link" -o "$t/sub/link.trace" "$t/in.trace"
set +e
"$DLLPCHECK" --write-pcap "$t/in.trace" - <"$t/in.trace" >"$t/out" 2>"$t/err"
status=$?
set -e
expect_status 2 "--write-pcap onto standard input's file"
expect_grep "$t/err" 'the output is the input - \(standard input\)' "standard input: message"
[ "$(sum "$t/in.trace")" = "$before" ] && pass || fail "standard input: the input was changed"

# no_leftover DIR WHAT: no temporary file was left in DIR
no_leftover() {
	if ls "$1" | grep -q 'dllpcheck-'; then fail "$2: a temporary file was left: $(ls "$1")"; else pass; fi
}

# a failed run leaves the old output as it was, and nothing else
printf 'old\n' >"$t/out.pcap"
chmod 640 "$t/out.pcap"
printf 'not a trace line\n' >"$t/bad.trace"
for input in "$t/bad.trace" "$t/missing.trace"; do
	run_dllpcheck --write-pcap "$t/out.pcap" "$input"
	expect_status 2 "--write-pcap from $(basename "$input")"
	[ "$(cat "$t/out.pcap")" = old ] && pass || fail "--write-pcap from $(basename "$input"): the old output was replaced"
	no_leftover "$t" "--write-pcap from $(basename "$input")"
done
run_dllpcheck --write-pcap "$t/new.pcap" "$t/bad.trace"
[ ! -e "$t/new.pcap" ] && pass || fail "a failed --write-pcap made its output"
# a good run replaces it, keeping its mode; the pcap is the one written to
# standard output
run_dllpcheck --write-pcap "$t/out.pcap" "$t/in.trace"
expect_status 0 "--write-pcap"
"$DLLPCHECK" --write-pcap - "$t/in.trace" >"$t/stdout.pcap"
cmp -s "$t/out.pcap" "$t/stdout.pcap" && pass || fail "--write-pcap: the file differs from standard output"
[ "$(stat -c %a "$t/out.pcap")" = 640 ] && pass || fail "--write-pcap: mode $(stat -c %a "$t/out.pcap"), was 640"
no_leftover "$t" "--write-pcap"
# a new file gets the mode of the umask
rm -f "$t/new.pcap"
(umask 027 && "$DLLPCHECK" --write-pcap "$t/new.pcap" "$t/in.trace")
[ "$(stat -c %a "$t/new.pcap")" = 640 ] && pass || fail "new output: mode $(stat -c %a "$t/new.pcap") under umask 027"
# through a symbolic link: the file it names is replaced, the link stays
printf 'old\n' >"$t/target.pcap"
ln -s target.pcap "$t/sub/../pcap.link"
run_dllpcheck --write-pcap "$t/pcap.link" "$t/in.trace"
expect_status 0 "--write-pcap through a symbolic link"
[ -L "$t/pcap.link" ] && pass || fail "--write-pcap replaced the symbolic link"
cmp -s "$t/target.pcap" "$t/stdout.pcap" && pass || fail "--write-pcap through a link: the target was not written"
# a device is written in place, never renamed over
run_dllpcheck --write-pcap /dev/null "$t/in.trace"
expect_status 0 "--write-pcap /dev/null"
[ -c /dev/null ] && pass || fail "/dev/null is no longer a device"
# a directory that cannot be written
run_dllpcheck --write-pcap "$t/no/such/dir.pcap" "$t/in.trace"
expect_status 2 "--write-pcap into a missing directory"
expect_grep "$t/err" 'cannot write' "--write-pcap into a missing directory: message"

# -o: the report as on standard output; the old file kept when the
# report cannot be written; a report of an input error is a report
run_dllpcheck --format=json "$t/in.trace"
cp "$t/out" "$t/want.json"
printf 'old\n' >"$t/report.json"
run_dllpcheck --format=json -o "$t/report.json" "$t/in.trace"
expect_status 0 "-o"
cmp -s "$t/report.json" "$t/want.json" && pass || fail "-o: the file differs from standard output"
no_leftover "$t" "-o"
run_dllpcheck --format=json -o "$t/report.json" "$t/bad.trace"
expect_status 2 "-o with an input error"
expect_grep "$t/report.json" '"error":' "-o with an input error: the report tells of it"
if [ -w /dev/full ]; then
	printf 'old\n' >"$t/report.json"
	run_dllpcheck -o /dev/full "$t/in.trace"
	expect_status 2 "-o /dev/full"
	expect_grep "$t/err" 'error writing the report' "-o /dev/full: message"
fi
run_dllpcheck -o "$t/no/such/dir.txt" "$t/in.trace"
expect_status 2 "-o into a missing directory"

# a run ended by a signal leaves no temporary file beside its outputs (a
# compressed trace that takes seconds; SIGTERM, as a background job of a
# script ignores SIGINT), with -j 1 and with -j 2
{
	head -13 "$srcdir/samples/clean-init.trace"
	awk 'BEGIN { for (i = 0; i < 2000000; i++) print "5us down UpdateFC-P vc=0 hdr=32 data=256" }'
} | gzip -1 >"$t/slow.trace.gz"
for j in 1 2; do
	rm -rf "$t/sig" && mkdir -p "$t/sig"
	"$DLLPCHECK" -j $j -o "$t/sig/rep.txt" --vcd "$t/sig/rep.vcd" "$t/slow.trace.gz" "$t/in.trace" \
		>/dev/null 2>&1 &
	pid=$!
	n=0
	while [ $n -lt 100 ] && ! ls "$t/sig" | grep -q 'dllpcheck-'; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep 0.2
	kill -TERM "$pid"
	wait "$pid" 2>/dev/null || true
	sleep 0.2 # (the workers end after the main process)
	# (a batch's outputs of inputs finished before the signal stay)
	left=$(ls "$t/sig" | grep 'dllpcheck-' || true)
	[ -z "$left" ] && pass || fail "-j $j: ended by SIGTERM, temporary files left: $left"
done
finish
