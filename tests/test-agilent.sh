#!/bin/sh
# The Agilent/Keysight analyzer export (LINKTYPE_USER11, issue 17 part 3;
# dllpcheck-capture(5) CAPTURES FROM OTHER TOOLS) and the seam that reads other
# tools' captures in a pcap/pcapng (src/read/link_decoder.h):
#   - tests/agilent/make-agilent.py builds the captures from the format's
#     description out of samples/clean-init.pcap;
#   - clean: the same DLLPs and TLPs as the sample, a nullified TLP, the
#     ordered sets left out; no error or warning; pcapng gives the records
#     pcap gives; the report keeps "format": "pcap"/"pcapng" and says
#     "encapsulation": "agilent";
#   - damage: the --decode golden (PHY_ERROR on flagged symbol/disparity
#     errors, a K symbol inside a packet, a lost END; malformed for a cut
#     header, a bad metadata offset, a truncated and a garbage record);
#     findings fire; every byte accounted for (read + skipped = size);
#   - --dlt 158 reads the file as our encapsulation (no decoder); another
#     link type keeps today's message.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
PY=${PYTHON:-python3}
d="$srcdir/tests/agilent"
w=$tmpdir
$PY "$d/make-agilent.py" "$srcdir/samples/clean-init.pcap" "$w" || fail "make-agilent.py"

# clean: the sample's packets, nothing more (its link-up event aside)
run_dllpcheck --decode "$w/clean.pcap"
expect_status 0 "clean: --decode"
cp "$tmpdir/out" "$w/clean.decode"
compare_golden "$d/clean.expected" "$w/clean.decode" "clean: --decode"
"$DLLPCHECK" --decode "$srcdir/samples/clean-init.pcap" | grep -v ' EVENT ' |
	sed 's/^[0-9]* //' >"$w/sample.decode"
# the nullified copy aside, the records are the sample's
grep -v 'lcrc=nullified' "$w/clean.decode" | sed 's/^[0-9]* //; s/ packet=[0-9]*$//' >"$w/clean.plain"
if cmp -s "$w/sample.decode" "$w/clean.plain"; then pass; else
	fail "clean: the records differ from samples/clean-init.pcap"; diff "$w/sample.decode" "$w/clean.plain" | head
fi
run_dllpcheck --decode "$w/clean.pcapng"
expect_status 0 "clean pcapng: --decode"
if cmp -s "$w/clean.decode" "$tmpdir/out"; then pass; else
	fail "clean: pcapng gives other records than pcap"; diff "$w/clean.decode" "$tmpdir/out" | head
fi
run_dllpcheck "$w/clean.pcap"
expect_status 0 "clean: analysis"
expect_grep "$tmpdir/out" 'findings: 0 error, 0 warning, 1 info' "clean: no error, no warning (the nullified TLP is info)"
expect_grep "$tmpdir/out" '\(pcap, agilent\)' "clean: the text report names the encapsulation"
run_dllpcheck --format=json "$w/clean.pcapng"
expect_grep "$tmpdir/out" '"format": *"pcapng"' "clean: JSON format stays the container's"
expect_grep "$tmpdir/out" '"encapsulation": *"agilent"' "clean: JSON names the encapsulation"
# the reports hold to their schemas with the new key
cp "$tmpdir/out" "$w/clean.json"
"$DLLPCHECK" --format=jsonl "$w/damage.pcap" >"$w/damage.jsonl" || true
if $PY -c 'import jsonschema' 2>/dev/null; then
	if $PY "$srcdir/tests/validate-json.py" --check-counts "$srcdir/schema/dllpcheck-report.schema.json" "$w/clean.json" >"$w/v1" 2>&1 &&
		$PY "$srcdir/tests/validate-json.py" --lines --check-counts "$srcdir/schema/dllpcheck-jsonl.schema.json" "$w/damage.jsonl" >"$w/v2" 2>&1; then
		pass
	else
		fail "the JSON reports do not hold to their schemas: $(cat "$w/v1" "$w/v2" | head -3)"
	fi
	grep -q '"encapsulation":"agilent"' "$w/damage.jsonl" && pass || fail "JSON Lines: no encapsulation"
else
	echo "# python3-jsonschema missing: the schemas not checked"
fi
# our own encapsulation: no encapsulation key
run_dllpcheck --format=json "$srcdir/samples/clean-init.pcap"
if grep -q '"encapsulation"' "$tmpdir/out"; then fail "our pcap: an encapsulation key"; else pass; fi

# --write-pcap keeps the records in our encapsulation
run_dllpcheck --write-pcap "$w/ours.pcap" "$w/clean.pcap"
expect_status 0 "clean: --write-pcap"
"$DLLPCHECK" --decode "$w/ours.pcap" >"$w/ours.decode" || fail "--decode of the written pcap"
sed 's/ packet=[0-9]*$//' "$w/clean.decode" >"$w/clean.nopacket"
if cmp -s "$w/clean.nopacket" "$w/ours.decode"; then pass; else
	fail "clean: --write-pcap changed the records"; diff "$w/clean.nopacket" "$w/ours.decode" | head
fi

# damage
run_dllpcheck --decode "$w/damage.pcap"
expect_status 1 "damage: --decode"
compare_golden "$d/damage.expected" "$tmpdir/out" "damage: --decode"
run_dllpcheck "$w/damage.pcap"
expect_status 1 "damage: analysis"
expect_grep "$tmpdir/out" 'error capture.malformed: Agilent record: 10 bytes, fewer than the 20-byte header' "damage: cut header"
expect_grep "$tmpdir/out" 'warning dl.ack.unreceived' "damage: the model sees the damaged TLPs"
expect_grep "$tmpdir/out" 'findings: 5 error' "damage: 5 malformed records"
expect_grep "$tmpdir/out" "40 symbols after the packet's end" "damage: two packets in one record"
run_dllpcheck --format=json "$w/damage.pcap"
size=$(wc -c <"$w/damage.pcap")
got=$(sed -n 's/.*"bytes_read": *\([0-9]*\).*"bytes_skipped": *\([0-9]*\).*/\1 \2/p' "$tmpdir/out" | head -1)
[ -z "$got" ] && got=$(tr -d '\n' <"$tmpdir/out" | sed -n 's/.*"bytes_read": *\([0-9]*\), *"bytes_skipped": *\([0-9]*\).*/\1 \2/p')
set -- $got
if [ $# -eq 2 ] && [ $(($1 + $2)) -eq "$size" ] && [ "$2" -gt 0 ]; then pass; else
	fail "damage: bytes read + skipped ($got) is not the size $size"
fi

# --dlt 158: the file is taken as our encapsulation, every record malformed
run_dllpcheck --dlt 158 --decode "$w/clean.pcap"
expect_status 2 "--dlt 158: no record of ours"
expect_grep "$tmpdir/err" 'all malformed; first: record 1 offset 24: pseudo-header version' "--dlt 158: read as ours"
if grep -q 'DLLP InitFC' "$tmpdir/out"; then fail "--dlt 158: decoded as Agilent"; else pass; fi
# an Agilent pcap read with --dlt 148 is still Agilent (USER11 is not --dlt)
run_dllpcheck --dlt 148 --decode "$w/clean.pcap"
expect_status 0 "--dlt 148: Agilent"
# a link type no decoder reads: today's message
$PY -c 'import sys; b=bytearray(open(sys.argv[1],"rb").read()); b[20]=159; open(sys.argv[2],"wb").write(b)' "$w/clean.pcap" "$w/user12.pcap"
run_dllpcheck "$w/user12.pcap"
expect_status 2 "USER12: refused"
expect_grep "$tmpdir/err" 'link type 159 \(unknown\) found, 147 \(LINKTYPE_USER0\) expected' "USER12: today's message"
finish
