#!/bin/bash
# The corrupt-input corpus: each case is made here, byte by byte, into the
# test's temporary directory (a binary corpus would hide what each file
# is), and checks the class of the message, the exit status, and the
# accounting
#   records read = records decoded + records malformed
# in the text summary and in the JSON report.  The inputs are made here,
# byte by byte, from samples/clean-init.pcap and printf.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
good="$srcdir/samples/clean-init.pcap"

# le32 N / le16 N: little-endian bytes as printf escapes
le32() { printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)) $((($1 >> 16) & 255)) $((($1 >> 24) & 255)); }
le16() { printf '\\x%02x\\x%02x' $(($1 & 255)) $((($1 >> 8) & 255)); }
# pcap_header [LINKTYPE [SNAPLEN]]: a nanosecond pcap file header
pcap_header() { printf "\\xa1\\xb2\\x3c\\x4d" | rev_bytes; printf "$(le16 2)$(le16 4)$(le32 0)$(le32 0)$(le32 ${2:-65535})$(le32 ${1:-147})"; }
rev_bytes() { od -An -tx1 | tr -s ' ' '\n' | grep . | tac | sed 's/^/\\x/' | tr -d '\n' | xargs -0 printf; }
# pcap_record TIME_NS HEXBYTES [ORIGLEN]: a record whose data is HEXBYTES
pcap_record() {
	local hex=$2 n=$(( ${#2} / 2 ))
	printf "$(le32 0)$(le32 $1)$(le32 $n)$(le32 ${3:-$n})"
	printf "$(echo "$hex" | sed 's/../\\x&/g')"
}
# accounting FILE WHAT: the text summary and the JSON report add up
accounting() {
	local line read dec mal
	run_dllpcheck "$1"
	line=$(grep -E '^== .* records read' "$tmpdir/out" | head -1)
	read=$(echo "$line" | sed -E 's/.*: ([0-9]+) records read, ([0-9]+) decoded, ([0-9]+) malformed.*/\1/')
	dec=$(echo "$line" | sed -E 's/.*: ([0-9]+) records read, ([0-9]+) decoded, ([0-9]+) malformed.*/\2/')
	mal=$(echo "$line" | sed -E 's/.*: ([0-9]+) records read, ([0-9]+) decoded, ([0-9]+) malformed.*/\3/')
	if [ -n "$line" ] && [ "$read" -eq $((dec + mal)) ]; then pass; else
		fail "$2: text accounting '$line'"
	fi
	run_dllpcheck --format=json "$1"
	if grep -Eq "\"records\":\\{\"read\":$read,\"decoded\":$dec,\"malformed\":$mal," "$tmpdir/out"; then pass; else
		fail "$2: JSON accounting differs from the text (read=$read decoded=$dec malformed=$mal)"
	fi
	run_dllpcheck --format=jsonl "$1"
	if grep -Eq "\"type\":\"summary\".*\"records\":\\{\"read\":$read,\"decoded\":$dec,\"malformed\":$mal," "$tmpdir/out"; then pass; else
		fail "$2: JSON Lines accounting differs from the text"
	fi	# pcap: every byte accounted for, bytes read + bytes skipped = file size
	# (capture-format.md section 1)
	local size bread bskip
	size=$(wc -c <"$1")
	bread=$(sed -n 's/.*"bytes_read":\([0-9]*\).*/\1/p' "$tmpdir/out" | head -1)
	bskip=$(sed -n 's/.*"bytes_skipped":\([0-9]*\).*/\1/p' "$tmpdir/out" | head -1)
	if [ -n "$bread" ]; then
		if [ $((bread + bskip)) -eq "$size" ]; then pass; else
			fail "$2: $bread bytes read + $bskip skipped != file size $size"
		fi
	fi
}
# expect_case FILE STATUS PATTERN WHAT [OPTIONS...]
expect_case() {
	local file=$1 want=$2 pattern=$3 what=$4
	shift 4
	run_dllpcheck "$@" "$file"
	expect_status "$want" "$what"
	if [ "$want" -eq 2 ]; then
		expect_grep "$tmpdir/err" "$pattern" "$what: message"
	else
		expect_grep "$tmpdir/out" "$pattern" "$what: message"
		accounting "$file" "$what"
	fi
}
c="$tmpdir/case"

# pcap cut in the middle of a record header, and in the middle of a packet:
# a damaged record header with no record after it (capture.resync, a
# warning), the bytes left unread counted (capture-format.md section 1)
head -c 56 "$good" >"$c-cut-header.pcap"
expect_case "$c-cut-header.pcap" 0 'record 2 offset 48: warning capture\.resync: damaged record header \(the file ends 8 bytes into it\): no record follows; 8 bytes left unread' "pcap cut in a record header"
expect_grep "$tmpdir/out" '"bytes_read":48,"bytes_skipped":8' "pcap cut in a record header: bytes"
head -c 69 "$good" >"$c-cut-packet.pcap"
expect_case "$c-cut-packet.pcap" 0 'record 2 offset 48: warning capture\.resync: damaged record header \(captured length 10 runs past the end of the file, 5 bytes on\): no record follows; 21 bytes left unread' "pcap cut in a packet"
run_dllpcheck "$c-cut-packet.pcap"
expect_grep "$tmpdir/out" '1 records read, 1 decoded, 0 malformed, 48 bytes read, 21 skipped;' "pcap cut in a packet: summary line"

# a damaged record header in the middle (issue 12 item 9): the records
# after it are read, and the bytes between are reported
# rec_at N: the offset of record N of the good sample (1-based)
rec_at() {
	local off=24 n=1 cap
	while [ "$n" -lt "$1" ]; do
		cap=$(od -An -tu4 -j $((off + 8)) -N4 "$good" | tr -d ' ')
		off=$((off + 16 + cap)); n=$((n + 1))
	done
	echo "$off"
}
r6=$(rec_at 6); r7=$(rec_at 7); size=$(wc -c <"$good")
{ head -c $((r6 + 8)) "$good"; printf "$(le32 2147483647)"; tail -c +$((r6 + 13)) "$good"; } >"$c-damaged.pcap"
expect_case "$c-damaged.pcap" 1 "record 6 offset $r6: warning capture\.resync: damaged record header \(captured length 2147483647 is above the largest a pcap record can have \(262144\)\): $((r7 - r6)) bytes skipped to the next record, at offset $r7" "damaged record header" --fail-on info
expect_grep "$tmpdir/out" "\"bytes_read\":$((size - r7 + r6)),\"bytes_skipped\":$((r7 - r6))" "damaged record header: bytes"
run_dllpcheck "$c-damaged.pcap"
expect_grep "$tmpdir/out" '24 records read, 24 decoded, 0 malformed' "damaged record header: the 24 other records are read"
n=$(grep -c 'capture\.resync' "$tmpdir/out" || true)
[ "$n" -eq 2 ] && pass || fail "damaged record header: $n capture.resync lines, expected the finding and its count"
# the reports with a capture.resync finding and the byte counts fit the schemas
run_dllpcheck --format=json "$c-damaged.pcap"
cp "$tmpdir/out" "$tmpdir/damaged.json"
run_dllpcheck --format=jsonl "$c-damaged.pcap"
cp "$tmpdir/out" "$tmpdir/damaged.jsonl"
if python3 "$srcdir/tests/validate-json.py" --check-counts "$srcdir/schema/dllpcheck-report.schema.json" "$tmpdir/damaged.json" >"$tmpdir/verr" 2>&1 &&
	python3 "$srcdir/tests/validate-json.py" --lines --check-counts "$srcdir/schema/dllpcheck-jsonl.schema.json" "$tmpdir/damaged.jsonl" >>"$tmpdir/verr" 2>&1; then pass; else
	fail "damaged record header: the reports do not fit the schemas"; head -5 "$tmpdir/verr"
fi
expect_grep "$tmpdir/damaged.jsonl" '"rule":"capture.resync",.*"evidence":\{"byte_offset":'"$r6"',"bytes_skipped":'"$((r7 - r6))"',"resume_offset":'"$r7"'\}' "damaged record header: JSON Lines evidence"
# the same through a pipe: no seek, the search reads ahead in its window
run_dllpcheck - <"$c-damaged.pcap"
expect_grep "$tmpdir/out" "^-: record 6 offset $r6: warning capture\.resync: .*at offset $r7\$" "damaged record header on standard input"
# the first record's header damaged: no earlier time to compare with
{ head -c 32 "$good"; printf "$(le32 300000)"; tail -c +37 "$good"; } >"$c-damaged-first.pcap"
expect_case "$c-damaged-first.pcap" 1 "record 1 offset 24: warning capture\.resync: .*: $(( $(rec_at 2) - 24 )) bytes skipped to the next record, at offset $(rec_at 2)" "first record header damaged" --fail-on info
# a damaged header followed by 3 MB that hold no record (more than the
# search's window), then the rest: found, every byte counted
{ head -c $((r6 + 8)) "$good"; printf "$(le32 4000000000)"; head -c 3000000 /dev/zero | tr '\0' '\321'; tail -c +$((r6 + 13)) "$good"; } >"$c-gap.pcap"
expect_case "$c-gap.pcap" 1 "record 6 offset $r6: warning capture\.resync: .*: $((r7 - r6 + 3000000)) bytes skipped to the next record, at offset $((r7 + 3000000))" "3 MB gap after a damaged header" --fail-on info
# a candidate whose bytes run past the end is no record: to the end
{ head -c $((r6 + 8)) "$good"; printf "$(le32 2147483647)"; printf "$(le32 0)$(le32 9999)$(le32 20)$(le32 20)\xd1\x03\x00\x00\x01\x00\x00"; } >"$c-tail.pcap"
expect_case "$c-tail.pcap" 1 "record 6 offset $r6: warning capture\.resync: .*: no record follows; [0-9]+ bytes left unread" "damaged header, only a cut record after it" --fail-on info

# a zero-length file, and an empty standard input
: >"$c-empty"
expect_case "$c-empty" 2 'empty input \(0 bytes\)' "zero-length file"
run_dllpcheck - <"$c-empty"
expect_status 2 "empty standard input"

# a wrong magic number: not a pcap, and binary: refused at open, saying
# what it seems to be (rules.md, exit status), not a malformed line per
# newline byte; forced to pcap it is refused by libpcap
{ printf '\x12\x34\x56\x78'; tail -c +5 "$good"; } >"$c-magic.pcap"
expect_case "$c-magic.pcap" 2 'binary data, not a pcap/pcapng, gzip, zstd or text trace \(first bytes 12 34 56 78' "wrong magic: binary data"
expect_case "$c-magic.pcap" 2 'not a readable pcap/pcapng file' "wrong magic as pcap" --input-format pcap

# the wrong link type (802.11: no reader reads it; Ethernet is a network
# capture since issue 17)
{ pcap_header 105; tail -c +25 "$good"; } >"$c-wlan.pcap"
expect_case "$c-wlan.pcap" 2 'link type 105 \(IEEE802_11\) found, 147 \(LINKTYPE_USER0\) expected' "wrong link type"

# caplen larger than the file's snap length: libpcap cuts it to the snap
# length, so the record is truncated, not lost
{ pcap_header 147 8; pcap_record 0 D103000001000000; pcap_record 10 D101000040080100A4E7; } >"$c-snap.pcap"
expect_case "$c-snap.pcap" 0 'warning capture\.truncated: DLLP captured with 4 of its 6 bytes' "caplen above the snap length" --fail-on error

# records of every kind one byte too short and one byte too long
dllp=40080100A4E7           # InitFC1-P VC0 hdr=32 data=256, good CRC
event=01000000              # link-up
tlp=0000400000010100000FF7D00000123456781EACCFE5   # MWr32 1 DW, from the vectors
{
	pcap_header
	pcap_record 0 "D1030000${event%??}"         # event 3 bytes
	pcap_record 1 "D1030000${event}00"           # event 5 bytes
	pcap_record 2 "D1010000${dllp%??}"          # DLLP 5 bytes
	pcap_record 3 "D1010000${dllp}00"            # DLLP 7 bytes
	pcap_record 4 "D1010200${dllp%????}00"      # DLLP without CRC, 5 bytes
	pcap_record 5 "D1020000${tlp:0:34}"          # TLP 17 bytes: below seq + 3 DW + LCRC
	pcap_record 6 "D1020000$(head -c 8310 /dev/zero | tr '\0' '0')" # TLP 4155 bytes
	pcap_record 7 "D2010000${dllp}"              # unknown pseudo-header version
	pcap_record 8 "D1070000${dllp}"              # unknown kind
	pcap_record 9 "D1011000${dllp}"              # reserved flag bits
	pcap_record 10 "D103"                        # shorter than the pseudo-header
	pcap_record 11 "D1030000${event}"            # and one good record
} >"$c-sizes.pcap"
expect_case "$c-sizes.pcap" 1 'record 11 offset [0-9]+: error capture\.malformed: record of 2 bytes is shorter than the 4-byte pseudo-header' "record sizes"
for want in 'a link event is 4 bytes, this record has 3' 'a link event is 4 bytes, this record has 5' \
	'a DLLP is 6 bytes, this record has 5' 'a DLLP is 6 bytes, this record has 7' \
	'a DLLP without CRC is 4 bytes, this record has 5' 'a TLP is 18 to 4154 bytes, this record has 17' \
	'a TLP is 18 to 4154 bytes, this record has 4155' 'pseudo-header version 0xD2' \
	'pseudo-header kind 7' 'set reserved bits 7:4'; do
	run_dllpcheck "$c-sizes.pcap"
	expect_grep "$tmpdir/out" "$want" "record sizes: $want"
done
expect_grep "$tmpdir/out" '12 records read, 1 decoded, 11 malformed' "record sizes: counted"

# a pcapng with two interfaces of different link types
{
	printf '\x0a\x0d\x0d\x0a'; printf "$(le32 28)"; printf '\x4d\x3c\x2b\x1a'; printf "$(le16 1)$(le16 0)"
	printf '\xff\xff\xff\xff\xff\xff\xff\xff'; printf "$(le32 28)"
	printf "$(le32 1)$(le32 20)$(le16 147)$(le16 0)$(le32 65535)$(le32 20)"
	printf "$(le32 1)$(le32 20)$(le16 1)$(le16 0)$(le32 65535)$(le32 20)"
	printf "$(le32 6)$(le32 40)$(le32 0)$(le32 0)$(le32 0)$(le32 10)$(le32 10)"
	printf '\xd1\x01\x00\x00\x40\x08\x01\x00\xa4\xe7\x00\x00'; printf "$(le32 40)"
	printf "$(le32 6)$(le32 40)$(le32 1)$(le32 0)$(le32 1)$(le32 10)$(le32 10)"
	printf '\xd1\x01\x00\x00\x40\x08\x01\x00\xa4\xe7\x00\x00'; printf "$(le32 40)"
} >"$c-two-if.pcapng"
# libpcap stops at the second interface, before the first packet: not
# one record, so an input error that gives libpcap's reason
expect_case "$c-two-if.pcapng" 2 'no record could be read from this pcapng file: its one record is malformed: record 1 offset 48: an interface has a type 1 different from the type of the first interface' "pcapng with two link types"

# pcapng: a block whose length cannot be (issue 12 item 9): capture.resync
# at the block, reading goes on at the next block that verifiably starts;
# and a pcapng cut inside its last block
ng_epb() { # ng_epb TIME_NS HEX [LENGTH]: an EPB of a link event (28 + 12 = 40 bytes)
	printf "$(le32 6)$(le32 ${3:-40})$(le32 0)$(le32 0)$(le32 $1)$(le32 8)$(le32 8)"
	printf "$(echo "$2" | sed 's/../\\x&/g')"; printf "$(le32 40)"
}
{
	printf '\x0a\x0d\x0d\x0a'; printf "$(le32 28)"; printf '\x4d\x3c\x2b\x1a'; printf "$(le16 1)$(le16 0)"
	printf '\xff\xff\xff\xff\xff\xff\xff\xff'; printf "$(le32 28)"
	printf "$(le32 1)$(le32 20)$(le16 147)$(le16 0)$(le32 65535)$(le32 20)"
	ng_epb 0 D103000001000000
	ng_epb 10 D103000004000000 2147483644
	ng_epb 20 D103000004000000
} >"$c-damaged.pcapng"
expect_case "$c-damaged.pcapng" 1 'record 2 offset 88: warning capture\.resync: damaged block \(pcapng block size 2147483644 > maximum 16777216\): 40 bytes skipped to the next block, at offset 128' "pcapng block length damaged" --fail-on info
expect_grep "$tmpdir/out" '"bytes_read":128,"bytes_skipped":40' "pcapng block length damaged: bytes"
run_dllpcheck - <"$c-damaged.pcapng"
expect_grep "$tmpdir/out" '^-: record 2 offset 88: warning capture\.resync: .*at offset 128$' "pcapng block length damaged, on standard input"
head -c 150 "$c-damaged.pcapng" >"$c-cut.pcapng"
expect_case "$c-cut.pcapng" 1 'record 2 offset 88: warning capture\.resync: damaged block \(pcapng block size 2147483644 > maximum 16777216\): no block follows; 62 bytes left unread' "pcapng damaged and cut" --fail-on info

# garbage and binary data fed as text; NUL bytes; a 1 MB line
head -c 4096 "$good" | tail -c +200 >"$c-binary.trace"
expect_case "$c-binary.trace" 2 'binary data, not a pcap/pcapng, gzip, zstd or text trace' "binary data as text"
# forced to text, every line is malformed: not one record, an input error
expect_case "$c-binary.trace" 2 'no record could be read from this text trace: [0-9]+ lines, all malformed; first: line 1' "binary data forced to text" --input-format text
printf '0 down NOP\n10ns down \0NOP\n20ns down NOP\n' >"$c-nul.trace"
expect_case "$c-nul.trace" 1 ':2:[0-9]+: record 2: error capture\.malformed: NUL byte' "NUL byte in a line"
{ printf '0 down NOP\n'; head -c 1048576 /dev/zero | tr '\0' 'x'; printf '\n20ns down NOP\n'; } >"$c-long.trace"
expect_case "$c-long.trace" 1 ':2:[0-9]+: record 2: error capture\.malformed: line longer than 65536 bytes' "1 MB line"
run_dllpcheck "$c-long.trace"
expect_grep "$tmpdir/out" '3 records read, 2 decoded, 1 malformed' "1 MB line: the next line is read"

# times going backwards
printf '0 down NOP\n20ns down NOP\n10ns up NOP\n30ns up link=1 NOP\n25ns down link=2 NOP\n' >"$c-back.trace"
expect_case "$c-back.trace" 0 ':3: record 3: t=0\.000000010000 link 0 up: warning capture\.time-backwards' "time backwards"
run_dllpcheck --fail-on info "$c-back.trace"
n=$(grep -c 'capture\.time-backwards' "$tmpdir/out" || true)
[ "$n" -eq 2 ] && pass || fail "time backwards: $n findings, expected 2 (other links keep their own time)"
# lane-level VCDs (capture-format.md section 4), from the small x1 sample
# of tests/vcd: every case an exit status and a message naming the line
vcd="$srcdir/tests/vcd/small-x1.vcd"
head -n 10 "$vcd" >"$c-vcd-header.vcd"
expect_case "$c-vcd-header.vcd" 2 'vcd-header\.vcd:10: VCD header: the file ends in the header: no \$enddefinitions' "VCD cut in its header"
printf '$date\n today\n' >"$c-vcd-date.vcd"
expect_case "$c-vcd-date.vcd" 2 'vcd-date\.vcd:1: VCD header: the file ends inside \$date \(line 1\)' "VCD cut in its \$date"
sed '7s/.*/$var reg one # symclk $end/' "$vcd" >"$c-vcd-var.vcd"
expect_case "$c-vcd-var.vcd" 2 'vcd-var\.vcd:7: VCD header: \$var size .one. is not a number of bits' "VCD \$var without a size"
sed '5s/.*/$timescale 3 ps $end/' "$vcd" >"$c-vcd-ts.vcd"
expect_case "$c-vcd-ts.vcd" 2 'vcd-ts\.vcd:5: VCD header: \$timescale .3 ps. is not one' "VCD bad timescale"
sed -n '1,/enddefinitions/p' "$vcd" >"$c-vcd-empty.vcd"
expect_case "$c-vcd-empty.vcd" 2 'VCD of lanes with no packet on its lanes' "VCD with no value changes"
expect_case "$vcd" 2 "--lanes down code 'nosuch\\*' matches no variable of the VCD" "VCD mapping that matches nothing" --lanes 'down:code=nosuch*'
# cut inside a TLP: the TLP is reported (the decoder's reason and the size
# it had), and a vector cut before its identifier code names its line
n=$(grep -n '^#1084000$' "$vcd" | cut -d: -f1)
{ head -n "$n" "$vcd"; printf 'b0101'; } >"$c-vcd-cut.vcd"
expect_case "$c-vcd-cut.vcd" 1 "vcd-cut\\.vcd:$((n - 5)): record 14: t=0\\.000001080000 lane 0: error capture\\.malformed: down lane 0, t=0\\.000001080000s: the capture ends inside the packet: a TLP is 18 to 4154 bytes, this record has 0" "VCD cut inside a TLP"
run_dllpcheck "$c-vcd-cut.vcd"
expect_grep "$tmpdir/out" "vcd-cut\\.vcd:$((n + 1)): record 15: t=0\\.000001084000: error capture\\.malformed: VCD line $((n + 1)): vector value 'b0101' without an identifier code on its line" "VCD cut inside a value change"
# malformed lines in the changes: each named, the rest read
awk 'NR==300{print "#12x"} NR==400{print "b0102 !"} NR==500{print "#100"} NR==600{print "$foo bar $end"} {print}' "$vcd" >"$c-vcd-lines.vcd"
expect_case "$c-vcd-lines.vcd" 1 "vcd-lines\\.vcd:300: record 1: t=0\\.000000226000: error capture\\.malformed: VCD line 300: '#12x' is not a time step" "VCD bad time step"
run_dllpcheck "$c-vcd-lines.vcd"
expect_grep "$tmpdir/out" "vcd-lines\\.vcd:401: record 2: .*VCD line 401: vector value 'b0102': '2' is not a bit value" "VCD bad vector bit"
expect_grep "$tmpdir/out" "vcd-lines\\.vcd:502: record 3: .*VCD line 502: time goes backwards \\(#100 is 100 ps, after 398000 ps\\): the changes that follow are taken at 398000 ps" "VCD time backwards"
expect_grep "$tmpdir/out" "vcd-lines\\.vcd:603: record 4: .*VCD line 603: '\\\$foo' in the value changes: skipped to its \\\$end" "VCD unknown section"
expect_grep "$tmpdir/out" '21 records read, 17 decoded, 4 malformed' "VCD malformed lines: every record read"
# a code group damaged on a lane: capture.malformed with its time and lane
sed '944s/.*/b1111111111 !/' "$vcd" >"$c-vcd-code.vcd"
expect_case "$c-vcd-code.vcd" 1 'vcd-code\.vcd:949: record 6: t=0\.000000724000 lane 0: error capture\.malformed: down lane 0, t=0\.000000724000s: invalid 8b/10b code 3FFh' "VCD invalid code group"
run_dllpcheck --format=jsonl "$c-vcd-code.vcd"
expect_grep "$tmpdir/out" '"rule":"capture.malformed","severity":"error","time_ps":724000,"link":null,"port":null,"lane":0,' "VCD invalid code group: JSON time and lane"
cp "$tmpdir/out" "$tmpdir/vcd.jsonl"
run_dllpcheck --format=json "$c-vcd-code.vcd"
cp "$tmpdir/out" "$tmpdir/vcd.json"
run_dllpcheck --decode --format=jsonl "$c-vcd-code.vcd"
cp "$tmpdir/out" "$tmpdir/vcd-decode.jsonl"
expect_grep "$tmpdir/vcd-decode.jsonl" '"type":"malformed",.*"lane":0,' "VCD invalid code group: --decode JSON lane"
if python3 "$srcdir/tests/validate-json.py" --check-counts "$srcdir/schema/dllpcheck-report.schema.json" "$tmpdir/vcd.json" >"$tmpdir/verr" 2>&1 &&
	python3 "$srcdir/tests/validate-json.py" --lines --check-counts "$srcdir/schema/dllpcheck-jsonl.schema.json" "$tmpdir/vcd.jsonl" >>"$tmpdir/verr" 2>&1 &&
	python3 "$srcdir/tests/validate-json.py" --lines "$srcdir/schema/dllpcheck-decode.schema.json" "$tmpdir/vcd-decode.jsonl" >>"$tmpdir/verr" 2>&1; then pass; else
	fail "VCD invalid code group: the reports do not fit the schemas"; head -5 "$tmpdir/verr"
fi
finish
