#!/bin/sh
# Inputs that are compressed, or from which not one record can be read
# (issue 12 item 10; capture-format.md section 5; rules.md, exit status):
#  - gzip and zstd, recognised by their magic bytes whatever the name, also
#    on standard input, concatenated members and frames: the same report,
#    byte for byte, as the plain input (file name aside) in every format;
#  - corrupt, truncated or padded compressed data: an input error when
#    nothing could be read, else a fatal capture.malformed with the
#    uncompressed offset;
#  - no record at all (binary data, a pcap header alone, comments only,
#    every line malformed): exit 2 with what the file seems to be, in
#    every report format and in --decode, never counted as findings;
#  - the held report of an input whose first record comes after many
#    malformed ones: every finding, in order, the same with -j.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
s="$srcdir/samples"
t="$tmpdir"

if ! command -v gzip >/dev/null || ! command -v zstd >/dev/null; then
	echo "gzip and zstd are needed (Debian packages gzip and zstd)"; exit 77
fi

# same_report WHAT PLAIN-ARGS -- OTHER-ARGS: the two runs give the same
# status and output once the compressed file's name is the plain one's
same_report() {
	sr_what=$1 sr_plain=$2 sr_other=$3 sr_name=$4 sr_plainname=$5
	shift 5
	run_dllpcheck "$@" "$sr_plain"
	cp "$t/out" "$t/plain.out"
	sr_status=$status
	run_dllpcheck "$@" "$sr_other"
	sed "s|$sr_name|$sr_plainname|g" "$t/out" >"$t/other.out"
	if [ "$status" -eq "$sr_status" ] && cmp -s "$t/plain.out" "$t/other.out"; then pass; else
		fail "$sr_what: status $status (plain $sr_status) or report differs"
		diff "$t/plain.out" "$t/other.out" | head -5
	fi
}

for name in clean-init crc-errors overrun; do
	for ext in pcap trace; do
		f="$s/$name.$ext"
		gzip -c -n "$f" >"$t/$name.$ext.gz"
		zstd -q -c "$f" >"$t/$name.$ext.zst"
		# a name that says nothing: the magic bytes decide
		cp "$t/$name.$ext.zst" "$t/$name-$ext.data"
		for fmt in text json jsonl junit; do
			same_report "$name.$ext.gz --format=$fmt" "$f" "$t/$name.$ext.gz" \
				"$t/$name.$ext.gz" "$f" --format=$fmt --stats
			same_report "$name.$ext.zst --format=$fmt" "$f" "$t/$name.$ext.zst" \
				"$t/$name.$ext.zst" "$f" --format=$fmt
		done
		same_report "$name-$ext.data (zstd)" "$f" "$t/$name-$ext.data" "$t/$name-$ext.data" "$f"
		same_report "$name.$ext --decode gzip" "$f" "$t/$name.$ext.gz" "$t/$name.$ext.gz" "$f" --decode
		# standard input: both runs name the input "-"
		set +e
		"$DLLPCHECK" --format=jsonl - <"$f" >"$t/plain.out" 2>&1; st1=$?
		"$DLLPCHECK" --format=jsonl - <"$t/$name.$ext.gz" >"$t/gz.out" 2>&1; st2=$?
		"$DLLPCHECK" --format=jsonl - <"$t/$name.$ext.zst" >"$t/zst.out" 2>&1; st3=$?
		set -e
		if [ $st1 -eq $st2 ] && [ $st1 -eq $st3 ] && cmp -s "$t/plain.out" "$t/gz.out" &&
			cmp -s "$t/plain.out" "$t/zst.out"; then pass; else
			fail "$name.$ext on standard input: gzip/zstd differ from plain ($st1 $st2 $st3)"
		fi
	done
done

# a pcapng (offsets asked of the stream, not computed): the same offsets
# from a file, a pipe and gzip'd data
le32() { printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }
{
	printf '\012\015\015\012'; printf "$(le32 28)"; printf '\115\074\053\032\001\000\000\000'
	printf '\377\377\377\377\377\377\377\377'; printf "$(le32 28)"
	printf "$(le32 1)$(le32 20)"; printf '\223\000\000\000'; printf "$(le32 65535)$(le32 20)"
	for v in 321 322; do # a good InitFC1-P, then the same with pseudo-header version 0xD2
		printf "$(le32 6)$(le32 44)$(le32 0)$(le32 0)$(le32 $v)$(le32 10)$(le32 10)"
		printf "\\$v"'\001\000\000\100\010\001\000\244\347\000\000'
		printf "$(le32 44)"
	done
} >"$t/two.pcapng"
run_dllpcheck "$t/two.pcapng"
expect_grep "$t/out" 'two\.pcapng: record 2 offset 92: error capture\.malformed: pseudo-header version 0xD2' "pcapng: the offset of record 2"
gzip -c -n "$t/two.pcapng" >"$t/two.pcapng.gz"
same_report "pcapng gzip'd" "$t/two.pcapng" "$t/two.pcapng.gz" "$t/two.pcapng.gz" "$t/two.pcapng"
set +e
"$DLLPCHECK" - <"$t/two.pcapng" >"$t/pipe.out" 2>&1
set -e
expect_grep "$t/pipe.out" '^-: record 2 offset 92: error capture\.malformed' "pcapng on a pipe: the offset of record 2"

# several gzip members, several zstd frames: one stream
f="$s/overrun.trace"
n=$(wc -l <"$f")
head -n $((n / 2)) "$f" >"$t/half1"
tail -n +$((n / 2 + 1)) "$f" >"$t/half2"
{ gzip -c -n "$t/half1"; gzip -c -n "$t/half2"; } >"$t/members.gz"
same_report "two gzip members" "$f" "$t/members.gz" "$t/members.gz" "$f" --format=jsonl
{ zstd -q -c "$t/half1"; zstd -q -c "$t/half2"; } >"$t/frames.zst"
same_report "two zstd frames" "$f" "$t/frames.zst" "$t/frames.zst" "$f" --format=jsonl
# a gzip'd gzip is not read twice: it says so
gzip -c -n "$t/members.gz" >"$t/twice.gz"
run_dllpcheck "$t/twice.gz"
expect_status 2 "gzip inside gzip"
expect_grep "$t/err" 'gzip data holding not a capture .*gzip data inside compressed data' "gzip inside gzip: message"

# ---- damaged compressed data ----
g="$t/clean-init.pcap.gz"
size=$(wc -c <"$g")
# the method byte of the header: nothing can be decompressed
{ head -c 2 "$g"; printf '\007'; tail -c +4 "$g"; } >"$t/method.gz"
run_dllpcheck "$t/method.gz"
expect_status 2 "corrupt gzip header"
expect_grep "$t/err" 'method\.gz: gzip data corrupt \(unknown compression method\) at uncompressed byte 0 .*not one byte could be decompressed' "corrupt gzip header: message"
# the CRC-32 of the trailer: every record is read, then the data is known bad
{ head -c $((size - 8)) "$g"; printf '\377\377\377\377'; tail -c 4 "$g"; } >"$t/crc.gz"
run_dllpcheck "$t/crc.gz"
expect_status 1 "gzip CRC damaged"
expect_grep "$t/out" 'record [0-9]+ offset 1008: error capture\.malformed: .*crc\.gz: gzip data corrupt \(incorrect data check\) at uncompressed byte 1008' "gzip CRC damaged: fatal at the uncompressed offset"
# cut in the middle: the records before, then a fatal read error
sh "$srcdir/tests/gen-long-clean.sh" 20000 >"$t/long.trace"
gzip -c -n "$t/long.trace" >"$t/long.gz"
zstd -q -c "$t/long.trace" >"$t/long.zst"
gzip -c -n "$s/overrun.trace" >"$t/ov.gz"
head -c $(( $(wc -c <"$t/long.gz") / 2 )) "$t/long.gz" >"$t/cut.gz"
run_dllpcheck "$t/cut.gz"
expect_status 1 "truncated gzip"
expect_grep "$t/out" 'error capture\.malformed: .*cut\.gz: gzip data truncated: the file ends inside a member at uncompressed byte [0-9]+' "truncated gzip: message"
expect_grep "$t/out" '[1-9][0-9]* decoded, 1 malformed' "truncated gzip: the records before are read"
# cut inside the header: nothing
head -c 10 "$g" >"$t/cut10.gz"
run_dllpcheck "$t/cut10.gz"
expect_status 2 "gzip cut in its header"
expect_grep "$t/err" 'gzip data truncated.*not one byte could be decompressed' "gzip cut in its header: message"
# zstd cut, and bytes after the last member: no byte unaccounted for
head -c $(( $(wc -c <"$t/long.zst") / 2 )) "$t/long.zst" >"$t/cut.zst"
run_dllpcheck "$t/cut.zst"
expect_status 1 "truncated zstd"
expect_grep "$t/out" 'error capture\.malformed: .*zstd data truncated: the file ends inside a frame at uncompressed byte [0-9]+' "truncated zstd: message"
{ cat "$t/ov.gz"; printf '\0\0\0\0\0\0\0\0'; } >"$t/padded.gz"
run_dllpcheck "$t/padded.gz"
expect_status 1 "gzip with trailing bytes"
expect_grep "$t/out" 'capture\.malformed: .*gzip data ends with bytes that are not a gzip member' "gzip with trailing bytes: message"
# an empty gzip
: | gzip -c -n >"$t/empty.gz"
run_dllpcheck "$t/empty.gz"
expect_status 2 "empty gzip"
expect_grep "$t/err" 'gzip data that decompresses to nothing \(0 bytes\)' "empty gzip: message"

# ---- not one record ----
# ten megabytes of random bytes (a fixed seed), with the malformed rule off too
python3 -c 'import random,sys; r=random.Random(12); sys.stdout.buffer.write(bytes(r.getrandbits(8) for _ in range(1<<20))*10)' \
	>"$t/random.bin" 2>/dev/null || head -c 10485760 /dev/urandom >"$t/random.bin"
for opt in --fail-on=error --disable=capture.malformed; do
	run_dllpcheck $opt "$t/random.bin"
	expect_status 2 "random bytes $opt"
	expect_grep "$t/err" 'random\.bin: binary data, not a pcap/pcapng, gzip, zstd or text trace \(first bytes [0-9a-f ]+;' "random bytes $opt: message"
	[ ! -s "$t/out" ] && pass || fail "random bytes $opt: a report was printed"
done
gzip -c -n "$t/random.bin" >"$t/random.gz"
run_dllpcheck - <"$t/random.gz"
expect_status 2 "gzip'd random bytes on standard input"
expect_grep "$t/err" '^dllpcheck: -: gzip data holding binary data' "gzip'd random bytes: message"
# file types by magic
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000' >"$t/prog"
run_dllpcheck "$t/prog"
expect_status 2 "ELF"
expect_grep "$t/err" 'first bytes 7f 45 4c 46 02 01 01 00: looks like an ELF file' "ELF: message"
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$t/img"
run_dllpcheck "$t/img"
expect_grep "$t/err" 'looks like a PNG image' "PNG: message"
printf 'PK\003\004\024\000' >"$t/a.zip"
run_dllpcheck "$t/a.zip"
expect_grep "$t/err" 'looks like a zip archive' "zip: message"
xz -c "$s/clean-init.trace" >"$t/c.xz" 2>/dev/null || printf '\3757zXZ\000\000' >"$t/c.xz"
run_dllpcheck "$t/c.xz"
expect_status 2 "xz"
expect_grep "$t/err" 'xz-compressed data; dllpcheck reads gzip and zstd' "xz: message"

# a pcap with its header alone, plain and gzip'd
head -c 24 "$s/clean-init.pcap" >"$t/header.pcap"
run_dllpcheck "$t/header.pcap"
expect_status 2 "header-only pcap"
expect_grep "$t/err" 'header\.pcap: pcap file with its 24-byte header and no records' "header-only pcap: message"
gzip -c -n "$t/header.pcap" >"$t/header.pcap.gz"
run_dllpcheck "$t/header.pcap.gz"
expect_status 2 "gzip'd header-only pcap"
expect_grep "$t/err" 'gzip data holding a pcap file with its 24-byte header and no records' "gzip'd header-only pcap: message"
# a text trace of comments only; one of malformed lines only
printf '# nothing\n\n   # here\n' >"$t/comments.trace"
run_dllpcheck "$t/comments.trace"
expect_status 2 "comments only"
expect_grep "$t/err" 'text trace with no records \(only blank lines and comments\)' "comments only: message"
printf 'foo\n0 sideways NOP\n10ns down Frob\n' >"$t/bad.trace"
for fmt in text json jsonl junit; do
	run_dllpcheck --format=$fmt "$t/bad.trace"
	expect_status 2 "malformed lines only, --format=$fmt"
	expect_grep "$t/err" 'bad\.trace: no record could be read from this text trace: 3 lines, all malformed; first: line 1 column 1: ' "malformed lines only, $fmt: message"
	if grep -q 'capture\.malformed' "$t/out"; then fail "malformed lines only, $fmt: findings reported"; else pass; fi
done
run_dllpcheck --format=json "$t/bad.trace"
expect_grep "$t/out" '"error":"[^"]*no record could be read' "malformed lines only: the JSON input error"
expect_grep "$t/out" '"by_severity":\{"info":0,"warning":0,"error":0\}' "malformed lines only: not counted as findings"
run_dllpcheck --format=jsonl "$t/bad.trace"
expect_grep "$t/out" '^\{"type":"error","file":"[^"]*bad\.trace","error":' "malformed lines only: the JSON Lines input error"
run_dllpcheck --format=junit "$t/bad.trace"
expect_grep "$t/out" '<error type="input" message="[^"]*no record could be read' "malformed lines only: the JUnit input error"
run_dllpcheck --decode "$t/bad.trace"
expect_status 2 "malformed lines only, --decode"
[ ! -s "$t/out" ] && pass || fail "malformed lines only, --decode: lines printed"
run_dllpcheck --decode --format=jsonl "$t/bad.trace"
expect_status 2 "malformed lines only, --decode --format=jsonl"
[ ! -s "$t/out" ] && pass || fail "malformed lines only, --decode --format=jsonl: lines printed"
run_dllpcheck --write-pcap "$t/bad.pcap" "$t/bad.trace"
expect_status 2 "malformed lines only, --write-pcap"
[ ! -e "$t/bad.pcap" ] && pass || fail "malformed lines only, --write-pcap: an output was left"
# the one line of a file
printf 'nonsense\n' >"$t/one.trace"
run_dllpcheck "$t/one.trace"
expect_grep "$t/err" 'its one line is malformed: line 1' "one malformed line: message"

# ---- batch: the input error is that input's, the run's status 2 ----
for j in 1 2; do
	run_dllpcheck -j $j "$s/clean-init.trace" "$t/random.bin" "$s/overrun.trace"
	expect_status 2 "batch -j $j"
	cp "$t/out" "$t/batch$j.out"
	expect_grep "$t/out" 'random\.bin +- +- +- +-  ERROR' "batch -j $j: the input is an error"
	run_dllpcheck -j $j --format=json "$s/clean-init.trace" "$t/bad.trace"
	expect_status 2 "batch -j $j json"
	expect_grep "$t/out" '"exit_status":2' "batch -j $j json: exit status 2"
done
cmp -s "$t/batch1.out" "$t/batch2.out" && pass || fail "batch: -j 2 differs from -j 1"

# ---- the held findings: many malformed lines before the first record ----
# more than the 64 KiB held in memory, so the rest spills to a temporary
# file; every finding comes out, in order, as without the hold
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "%dns down Frob%d\n", i, i; print "3000ns down NOP" }' >"$t/late.trace"
for j in 1 2; do
	run_dllpcheck -j $j --format=jsonl "$t/late.trace" "$s/clean-init.trace"
	expect_status 1 "record after 3000 malformed lines -j $j"
	n=$(grep -c '"rule":"capture.malformed"' "$t/out" || true)
	[ "$n" -eq 3000 ] && pass || fail "record after 3000 malformed lines -j $j: $n findings"
	lines=$(grep '"rule":"capture.malformed"' "$t/out" | sed -E 's/.*"line":([0-9]+).*/\1/' | tr '\n' ' ')
	want=$(seq 1 3000 | tr '\n' ' ')
	[ "$lines" = "$want" ] && pass || fail "record after 3000 malformed lines -j $j: not in order"
	cp "$t/out" "$t/late$j.out"
done
cmp -s "$t/late1.out" "$t/late2.out" && pass || fail "held findings: -j 2 differs from -j 1"

# ---- a FIFO or a device (a shell's <(zcat cap.gz)): not seekable, its
# first bytes replayed after the format is detected; every format, plain
# and gzip ----
mkfifo "$t/in.fifo"
for f in "$srcdir/samples/overrun.pcap" "$srcdir/samples/overrun.trace" \
	"$srcdir/samples/overrun-export.csv" "$srcdir/samples/overrun.pcap.gz"; do
	[ -f "$f" ] || { gzip -c "$srcdir/samples/overrun.pcap" >"$t/overrun.pcap.gz"; f="$t/overrun.pcap.gz"; }
	cat "$f" >"$t/in.fifo" &
	run_dllpcheck --format=jsonl "$t/in.fifo"
	wait
	expect_status 1 "$(basename "$f") through a FIFO"
	grep -q '"rule":"fc.credit.overrun"' "$t/out" && pass ||
		fail "$(basename "$f") through a FIFO: no fc.credit.overrun"
done

# ---- streaming: memory does not grow with a compressed file ----
# (the peak RSS of each within 16 MiB of the plain file's: the buffers and
# the zstd window, not the file)
if [ -x /usr/bin/time ] && [ -z "${VALGRIND:-}" ]; then
	for f in "$t/long.trace" "$t/long.gz" "$t/long.zst"; do
		set +e
		/usr/bin/time -f '%M' -o "$t/rss" "$DLLPCHECK" -q "$f"
		st=$?
		set -e
		[ "$st" -eq 0 ] && pass || fail "$(basename "$f"): status $st"
		rss=$(tail -1 "$t/rss")
		echo "$(basename "$f"): $(wc -c <"$f") bytes, max RSS $rss KiB"
		[ "$f" = "$t/long.trace" ] && plain_rss=$rss
		[ "$rss" -lt $((plain_rss + 16384)) ] && pass || fail "$(basename "$f"): max RSS $rss KiB, plain $plain_rss KiB"
	done
fi
finish
