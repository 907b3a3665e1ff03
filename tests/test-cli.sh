#!/bin/sh
# Command-line behaviour: help, version, usage errors, exit statuses,
# standard input, and that the man page documents every option and rule.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
man1="$srcdir/man/dllpcheck.1"

run_dllpcheck --help
expect_status 0 "--help"
expect_grep "$tmpdir/out" '--decode' "--help lists --decode"
# Every long option in --help is documented in the man page (as \-\-name).
sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p' "$tmpdir/out" | sort -u >"$tmpdir/opts"
[ -s "$tmpdir/opts" ] && pass || fail "no long options found in --help"
while read -r opt; do
	pat=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
	if grep -q -- "\\\\-\\\\-$pat" "$man1"; then pass; else fail "man page lacks --$opt"; fi
done <"$tmpdir/opts"

run_dllpcheck --version
expect_status 0 "--version"
expect_grep "$tmpdir/out" '^dllpcheck [0-9]' "--version prints the version"
# and the libraries it runs with, as they answer at run time
expect_grep "$tmpdir/out" '^libpcap version [0-9]' "--version names libpcap's version"
expect_grep "$tmpdir/out" '^Jansson [0-9]' "--version names Jansson's version"
expect_grep "$tmpdir/out" '^zlib [0-9]' "--version names zlib's version"
expect_grep "$tmpdir/out" '^libzstd [0-9]' "--version names libzstd's version"
run_dllpcheck -V
expect_status 0 "-V"
expect_grep "$tmpdir/out" '^libpcap version [0-9]' "-V is --version"

run_dllpcheck --usage
expect_status 0 "--usage"

run_dllpcheck
expect_status 2 "no input"

run_dllpcheck --no-such-option x
expect_status 2 "unknown option"

run_dllpcheck "$tmpdir/does-not-exist.pcap"
expect_status 2 "missing file"
expect_grep "$tmpdir/err" 'does-not-exist\.pcap: cannot open' "missing file named"

run_dllpcheck --dlt 146 x
expect_status 2 "--dlt out of range"
run_dllpcheck --fail-on fatal x
expect_status 2 "--fail-on junk"
run_dllpcheck --disable no.such.rule x
expect_status 2 "--disable unknown rule"
expect_grep "$tmpdir/err" "unknown rule 'no.such.rule'" "unknown rule named"

# A pcap of a link type no reader reads (802.11, 105; Ethernet is a
# network capture since issue 17) is refused, naming both types.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\151\000\000\000' >"$tmpdir/wlan.pcap"
run_dllpcheck "$tmpdir/wlan.pcap"
expect_status 2 "wrong link type"
expect_grep "$tmpdir/err" 'link type 105 \(IEEE802_11\) found, 147 \(LINKTYPE_USER0\) expected' "link types named"
# ... unless --dlt names it wrongly too: 150 expected.
run_dllpcheck --dlt 150 "$tmpdir/wlan.pcap"
expect_grep "$tmpdir/err" '150 \(LINKTYPE_USER3\) expected' "--dlt changes the expected type"

# --list-rules lists every rule once; the man page names each.
run_dllpcheck --list-rules
expect_status 0 "--list-rules"
n=$(wc -l <"$tmpdir/out")
[ "$n" -gt 5 ] && pass || fail "--list-rules printed $n lines"
cut -d' ' -f1 "$tmpdir/out" >"$tmpdir/rules"
while read -r rule; do
	pat=$(printf '%s' "$rule" | sed 's/-/\\\\-/g; s/\./\\./g')
	if grep -q -- "$pat" "$man1"; then pass; else fail "man page lacks rule $rule"; fi
done <"$tmpdir/rules"

# Standard input: a text trace and a pcap, detected by magic number.
printf '0 down EVENT link-up\n10ns down Ack seq=0xFFF\n' >"$tmpdir/a.trace"
run_dllpcheck --decode - <"$tmpdir/a.trace"
expect_status 0 "text on stdin"
expect_grep "$tmpdir/out" 'DLLP Ack seq=0xFFF crc=ok' "text on stdin decoded"
run_dllpcheck --write-pcap "$tmpdir/a.pcap" "$tmpdir/a.trace"
expect_status 0 "--write-pcap"
run_dllpcheck --decode - <"$tmpdir/a.pcap"
expect_status 0 "pcap on stdin"
expect_grep "$tmpdir/out" 'DLLP Ack seq=0xFFF crc=ok' "pcap on stdin decoded"
# --write-pcap to standard output
run_dllpcheck --write-pcap - "$tmpdir/a.trace"
cmp -s "$tmpdir/out" "$tmpdir/a.pcap" && pass || fail "--write-pcap - differs from the file"

# A clean input exits 0; one with an error finding exits 1; -q prints nothing.
run_dllpcheck "$tmpdir/a.trace"
expect_status 0 "clean trace"
expect_grep "$tmpdir/out" '2 records read, 2 decoded, 0 malformed' "record accounting"
printf '0 down DLLP 00000000B363\n' >"$tmpdir/bad.trace"
run_dllpcheck "$tmpdir/bad.trace"
expect_status 1 "bad CRC"
expect_grep "$tmpdir/out" 'error dllp\.crc' "bad CRC reported"
run_dllpcheck -q "$tmpdir/bad.trace"
expect_status 1 "-q bad CRC"
[ ! -s "$tmpdir/out" ] && pass || fail "-q printed something"
run_dllpcheck --disable dllp.crc "$tmpdir/bad.trace"
expect_status 0 "--disable dllp.crc"
# --fail-on: an info finding fails only with --fail-on info.
printf '0 down NOP\n0 down TLP MWr32 seq=0 len=1 nullified\n' >"$tmpdir/info.trace"
run_dllpcheck "$tmpdir/info.trace"
expect_status 0 "info finding, default --fail-on"
expect_grep "$tmpdir/out" 'info tlp\.nullified' "nullified reported as info"
run_dllpcheck --fail-on info "$tmpdir/info.trace"
expect_status 1 "info finding, --fail-on info"

# A malformed line is reported with file, line and column, and reading goes on.
printf '0 down NOP\n5ns sideways NOP\n10ns down NOP\n' >"$tmpdir/mal.trace"
run_dllpcheck "$tmpdir/mal.trace"
expect_status 1 "malformed line"
expect_grep "$tmpdir/out" 'mal\.trace:2:[0-9]+: record 2: error capture\.malformed' "malformed named"
expect_grep "$tmpdir/out" '3 records read, 2 decoded, 1 malformed' "malformed counted"

# A region skipped (capture.resync, a warning) counts in --decode and
# --write-pcap as in a check: exit 0, 1 with --fail-on warning.
{ cat "$srcdir/samples/clean-init.pcap"; printf 'garbage after the last record'; } >"$tmpdir/tail.pcap"
run_dllpcheck --decode "$tmpdir/tail.pcap"
expect_status 0 "--decode, bytes left unread"
expect_grep "$tmpdir/out" 'no record follows; 29 bytes left unread' "--decode shows the bytes left unread"
run_dllpcheck --decode --fail-on warning "$tmpdir/tail.pcap"
expect_status 1 "--decode --fail-on warning, bytes left unread"
run_dllpcheck --fail-on warning --write-pcap "$tmpdir/tail-out.pcap" "$tmpdir/tail.pcap"
expect_status 1 "--write-pcap --fail-on warning, bytes left unread"
finish
