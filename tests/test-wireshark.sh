#!/bin/sh
# test-wireshark.sh: the Wireshark dissector contrib/wireshark/dllpcheck.lua
# (issue 17) against dllpcheck itself.  tshark runs the script on our
# captures (the samples, the golden and scenario pcaps, the pcap seeds of the
# fuzzers, the golden traces written with --write-pcap, and the hostile
# records of tests/wireshark-cases.py), and tests/wireshark-compare.py
# compares every record field for field with `dllpcheck --decode
# --format=jsonl`, the Info column with the `--decode` line and the expert
# infos with the CRC and malformed verdicts; the CRC verdicts on the golden
# vectors (tests/vectors) as well.  Then: the link-type preference
# (as --dlt), a display filter, and that the comparison fails when the
# dissector is wrong (a copy of it with one field broken).
#
# Skips (77) without tshark or python3, or with DLLPCHECK_TEST_NO_VIEWERS
# set (CI's sanitizer stage).  tshark reads no profile of the
# user: HOME and XDG_CONFIG_HOME point into the test's directory.  As root,
# Debian's tshark warns ("Running as user root") and runs Lua scripts
# (init.lua: run_user_scripts_when_superuser = true); where an init.lua
# refuses them the test skips, saying so.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
skip_viewer "the Wireshark dissector is not run in tshark"

TSHARK=${TSHARK:-tshark}
if ! command -v "$TSHARK" >/dev/null 2>&1; then
	echo "SKIP: tshark not found (Debian/Ubuntu: apt-get install tshark): the Wireshark dissector is not tested"
	exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 not found: tests/wireshark-compare.py cannot run"
	exit 77
fi

lua="$srcdir/contrib/wireshark/dllpcheck.lua"
mkdir -p "$tmpdir/home"
HOME="$tmpdir/home"
XDG_CONFIG_HOME="$tmpdir/home"
export HOME XDG_CONFIG_HOME

# Does tshark run the script at all?
set +e
"$TSHARK" -G protocols -X "lua_script:$lua" >"$tmpdir/protocols" 2>"$tmpdir/err"
set -e
if ! grep -q "	dllpcheck\$" "$tmpdir/protocols"; then
	if grep -qi 'superuser\|lua.*disabled\|disabled.*lua' "$tmpdir/err"; then
		echo "SKIP: this tshark refuses Lua scripts (as $(id -un)): $(head -1 "$tmpdir/err")"
		exit 77
	fi
	fail "tshark did not load $lua"
	sed 's/^/  stderr: /' "$tmpdir/err" | head -10
	finish
	exit 1
fi
"$TSHARK" --version 2>/dev/null | head -1

compare() {
	if python3 "$srcdir/tests/wireshark-compare.py" --dllpcheck "$DLLPCHECK" \
		--tshark "$TSHARK" --lua "$lua" "$@" >"$tmpdir/cmp" 2>&1; then
		pass
	else
		fail "the dissector and dllpcheck disagree"
	fi
	cat "$tmpdir/cmp"
}

# The captures in the tree.  Not capture.resync's: their record headers are
# damaged on purpose, and libpcap (dllpcheck) and wiretap (tshark) read such
# headers differently (wiretap stops; a snapshot length below a record's
# captured length cuts it in libpcap only): that is the readers, not the
# dissector.  tests/fuzz/corpus/pipeline holds fuzz inputs, not pcaps.
set --
for f in "$srcdir"/samples/*.pcap "$srcdir"/tests/golden/*.pcap \
	"$srcdir"/tests/fuzz/corpus/pcap/*.pcap "$srcdir"/tests/fuzz/corpus/pcap/*.pcapng \
	"$srcdir"/tests/scenarios/*/*.pcap; do
	# (the fuzz seeds are not in a release tarball: a pattern may match none)
	[ -f "$f" ] || continue
	case "$f" in
	*/capture.resync*) continue ;;
	esac
	# only our encapsulation: a capture of another tool's (a network
	# capture's scenario, an Agilent export, a network capture of no
	# PCIe traffic at all) is not the dissector's
	"$DLLPCHECK" --format=json "$f" 2>&1 | grep -q '"encapsulation"\|with no PCIe traffic' && continue
	set -- "$@" "$f"
done
# Every DLLP type and TLP class of the golden traces, and the samples'
# traces, as --write-pcap writes them.
for trace in "$srcdir"/tests/golden/*.trace "$srcdir"/samples/*.trace; do
	name=$(basename "$trace" .trace)
	run_dllpcheck --write-pcap "$tmpdir/$name.written.pcap" "$trace"
	set -- "$@" "$tmpdir/$name.written.pcap"
done
# The records a text trace cannot give (damaged pseudo-headers, truncated
# records, flags, reserved encodings) and 400 pseudo-random ones.
python3 "$srcdir/tests/wireshark-cases.py" "$tmpdir/cases.pcap"
set -- "$@" "$tmpdir/cases.pcap"
# The golden vectors (below) as records.
python3 "$srcdir/tests/wireshark-vectors.py" "$srcdir/tests/vectors" "$tmpdir/vectors.pcap" \
	>/dev/null
set -- "$@" "$tmpdir/vectors.pcap"
compare "$@"

# The dissector's CRC-16, LCRC and ECRC against the golden vectors
# themselves (tests/vectors, copies of shared/vectors): 38 good DLLPs and a
# corrupted one, 20 good TLPs (one with an ECRC) and a nullified one.
python3 "$srcdir/tests/wireshark-vectors.py" "$srcdir/tests/vectors" "$tmpdir/vectors.pcap" \
	>"$tmpdir/vectors.expected"
"$TSHARK" -n -X "lua_script:$lua" -r "$tmpdir/vectors.pcap" -T fields -e dllpcheck.dllp.crc \
	-e dllpcheck.tlp.lcrc -e dllpcheck.tlp.ecrc >"$tmpdir/vectors.got" 2>/dev/null || true
if diff "$tmpdir/vectors.expected" "$tmpdir/vectors.got" >"$tmpdir/diff" &&
	[ "$(wc -l <"$tmpdir/vectors.got")" -eq 60 ]; then
	pass
	echo "ok   the CRC verdicts of the 60 golden vectors"
else
	fail "the dissector's CRC verdicts differ from tests/vectors (expected, got):"
	head -20 "$tmpdir/diff"
fi

# The link type is a preference, as --dlt: the same records on
# LINKTYPE_USER3 (150) decode with -o dllpcheck.dlt:150 and --dlt 150 alike,
# and without the preference the dissector leaves them alone.
python3 "$srcdir/tests/wireshark-cases.py" "$tmpdir/cases150.pcap" 150
compare --dlt 150 "$tmpdir/cases150.pcap"
n=$("$TSHARK" -n -X "lua_script:$lua" -r "$tmpdir/cases150.pcap" -T fields -e dllpcheck.kind \
	2>/dev/null | grep -c . || true)
if [ "$n" -eq 0 ]; then pass; else
	fail "LINKTYPE_USER3 decoded as dllpcheck's without -o dllpcheck.dlt:150 ($n records)"
fi

# Without bit32 (a Wireshark whose Lua has LuaBitOp's signed bit instead)
# the dissector decodes the same.
sed 's/^	if bit32 then return bit32 end$/	if false then return bit32 end/' "$lua" \
	>"$tmpdir/bitop.lua"
if cmp -s "$lua" "$tmpdir/bitop.lua"; then
	fail "bitop.lua: the sed did not change the dissector"
else
	lua_saved=$lua
	lua="$tmpdir/bitop.lua"
	compare "$tmpdir/cases.pcap" "$tmpdir/vectors.pcap"
	lua=$lua_saved
fi

# A display filter of the README: as many UpdateFC-P as dllpcheck decodes.
all_dllp="$tmpdir/all-dllp.written.pcap"
want=$("$DLLPCHECK" --decode --format=jsonl "$all_dllp" | grep -c '"type":"UpdateFC-P"' || true)
got=$("$TSHARK" -n -X "lua_script:$lua" -r "$all_dllp" -Y 'dllpcheck.dllp.type == "UpdateFC-P"' \
	2>/dev/null | grep -c . || true)
if [ "$want" -gt 0 ] && [ "$got" -eq "$want" ]; then pass; else
	fail "filter dllpcheck.dllp.type == \"UpdateFC-P\": $got packets, dllpcheck decodes $want"
fi
got=$("$TSHARK" -n -X "lua_script:$lua" -r "$srcdir/samples/crc-errors.pcap" \
	-Y 'dllpcheck.dllp.crc_bad || dllpcheck.tlp.lcrc_bad' 2>/dev/null | grep -c . || true)
want=$("$DLLPCHECK" --decode --format=jsonl "$srcdir/samples/crc-errors.pcap" |
	grep -c '"crc":"bad"\|"lcrc":"bad"' || true)
if [ "$want" -gt 0 ] && [ "$got" -eq "$want" ]; then pass; else
	fail "filter on the bad-CRC expert infos: $got packets, dllpcheck has $want bad CRCs"
fi

# The comparison can fail: a dissector that reads TC as 2 bits, and one
# that gets the DLLP CRC-16 wrong, must each disagree.
sed 's/t.tc = band(rshift(b\[h + 1\], 4), 7)/t.tc = band(rshift(b[h + 1], 4), 3)/' "$lua" \
	>"$tmpdir/broken-tc.lua"
sed 's/0xD008/0xD009/' "$lua" >"$tmpdir/broken-crc.lua"
for broken in broken-tc broken-crc; do
	if cmp -s "$lua" "$tmpdir/$broken.lua"; then
		fail "$broken: the sed did not change the dissector"
		continue
	fi
	set +e
	python3 "$srcdir/tests/wireshark-compare.py" --dllpcheck "$DLLPCHECK" --tshark "$TSHARK" \
		--lua "$tmpdir/$broken.lua" "$tmpdir/cases.pcap" "$all_dllp" >"$tmpdir/cmp" 2>&1
	status=$?
	set -e
	if [ "$status" -eq 1 ] && grep -q '^FAIL' "$tmpdir/cmp"; then
		pass
		grep '^FAIL' "$tmpdir/cmp" | head -1 | sed "s/^/  $broken.lua, as it should: /"
	else
		fail "$broken.lua: the comparison did not fail (status $status)"
		cat "$tmpdir/cmp"
	fi
done
finish
