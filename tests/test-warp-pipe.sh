#!/bin/sh
# Warp Pipe over TCP (issue 17 part 3; dllpcheck-capture(5) WARP PIPE):
# tests/net/make-warp-pipe.py builds the captures from samples/clean-init.pcap
# (the format's description: a protocol byte, 2 DLLP or 3 TLP, then the
# DLLP with its CRC, or the sequence field, the TLP and its LCRC):
#   - the script makes the committed captures and fuzz seeds, byte for byte;
#   - warp-pipe-eth4.pcap (Ethernet, IPv4; a DLLP split over two segments,
#     two TLPs in one, a retransmission, an out-of-order pair, a completion
#     over three segments, frames merged across a segment boundary, the
#     server's numbers wrapping past 2^32): the --decode golden, the same
#     records as the sample they were made from, every check applied and
#     clean (DLLP CRCs, sequence numbers, LCRCs, flow control); the
#     retransmitted copy counted skipped, read + skipped = size;
#   - warp-pipe-eth6.pcapng, -null.pcap, -sll2.pcap give the same records;
#   - --dir-map server=up turns the directions round; --warp-pipe-port
#     elsewhere leaves no Warp Pipe traffic;
#   - warp-pipe-lost.pcap (the completion's middle segment not captured,
#     acknowledged by the server): the --decode golden and the analysis:
#     the cut frame, the gap between its packets, the bytes skipped to the
#     next verified frame with where reading went on.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
PY=${PYTHON:-python3}
d="$srcdir/tests/net"
w=$tmpdir/w
mkdir -p "$w"

$PY "$d/make-warp-pipe.py" "$srcdir/samples/clean-init.pcap" "$w" "$w/seeds" ||
	fail "make-warp-pipe.py"
for f in warp-pipe-eth4.pcap warp-pipe-eth6.pcapng warp-pipe-null.pcap warp-pipe-sll2.pcap \
	warp-pipe-lost.pcap; do
	if cmp -s "$d/$f" "$w/$f"; then pass; else fail "$f: not what make-warp-pipe.py makes"; fi
done
# (the fuzz seeds are not in a release tarball: checked where they are)
for f in clean.bin lost.bin clean-up.bin; do
	[ -d "$srcdir/tests/fuzz/corpus/warp_pipe" ] || break
	if cmp -s "$srcdir/tests/fuzz/corpus/warp_pipe/$f" "$w/seeds/$f"; then pass; else
		fail "fuzz seed $f: not what make-warp-pipe.py makes"
	fi
done

# records without their number, time and packet
plain() { sed 's/^[0-9]* [0-9.]* //; s/ packet=[0-9]*$//' "$1"; }

run_dllpcheck --decode "$d/warp-pipe-eth4.pcap"
expect_status 0 "eth4: --decode"
cp "$tmpdir/out" "$w/eth4.decode"
compare_golden "$d/warp-pipe.expected" "$w/eth4.decode" "eth4: --decode"
for f in warp-pipe-eth6.pcapng warp-pipe-null.pcap warp-pipe-sll2.pcap; do
	run_dllpcheck --decode "$d/$f"
	expect_status 0 "$f: --decode"
	if cmp -s "$w/eth4.decode" "$tmpdir/out"; then pass; else
		fail "$f: other records than warp-pipe-eth4.pcap"; diff "$w/eth4.decode" "$tmpdir/out" | head
	fi
done
# the records are the sample's (less its link event, which Warp Pipe cannot carry)
run_dllpcheck --decode "$srcdir/samples/clean-init.pcap"
plain "$tmpdir/out" | grep -v ' EVENT ' >"$w/sample.plain"
plain "$w/eth4.decode" >"$w/eth4.plain"
if cmp -s "$w/sample.plain" "$w/eth4.plain"; then pass; else
	fail "eth4: other records than the sample"; diff "$w/sample.plain" "$w/eth4.plain" | head
fi
expect_grep "$w/eth4.decode" '^16 0\.000001310000 link0 down TLP seq=0x002 MRd32 .* packet=21$' \
	"eth4: the out-of-order TLP at its head's time and packet"
expect_grep "$w/eth4.decode" '^22 0\.000003000000 link0 up TLP seq=0x001 MWr32 .* packet=27$' \
	"eth4: the TLP begun in a merged segment"

run_dllpcheck "$d/warp-pipe-eth4.pcap"
expect_status 0 "eth4: analysis"
expect_grep "$tmpdir/out" '\(pcap, network\): 24 records read, 24 decoded, 0 malformed, 2846 bytes read, 7 skipped; findings: 0 error, 0 warning, 0 info' \
	"eth4: clean, the retransmitted copy skipped"
expect_grep "$tmpdir/out" 'port down sent 3 new TLPs, 0 replayed, 0 nullified, 0 unreadable; received 2 Acks' \
	"eth4: the data link layer checked"
size=$(wc -c <"$d/warp-pipe-eth4.pcap")
[ "$size" -eq $((2846 + 7)) ] && pass || fail "eth4: read + skipped is not the size $size"

run_dllpcheck --dir-map server=up --decode "$d/warp-pipe-eth4.pcap"
expect_grep "$tmpdir/out" '^1 [0-9.]+ link0 up DLLP InitFC1-P vc=0 hdr=32 data=256 ' \
	"server=up: the server's DLLP up"
# another port: no record at all, an input error as for any capture of none
run_dllpcheck --warp-pipe-port 2116 "$d/warp-pipe-eth4.pcap"
expect_status 2 "--warp-pipe-port 2116: no Warp Pipe"
run_dllpcheck --warp-pipe-port 2116 --decode "$d/warp-pipe-eth4.pcap"
if [ -s "$tmpdir/out" ]; then fail "--warp-pipe-port 2116: records decoded"; else pass; fi

run_dllpcheck --decode "$d/warp-pipe-lost.pcap"
expect_status 1 "lost: --decode"
compare_golden "$d/warp-pipe-lost.expected" "$tmpdir/out" "lost: --decode"
run_dllpcheck "$d/warp-pipe-lost.pcap"
expect_status 1 "lost: analysis"
expect_grep "$tmpdir/out" 'record 18 offset 2000 packet 23: .* error capture.malformed: Warp Pipe TLP frame cut by a gap in the TCP stream: 30 of its 83 bytes there' \
	"lost: the cut frame, at its first byte"
expect_grep "$tmpdir/out" 'packet 24: .* error capture.malformed: TCP stream gap: 30 bytes never captured \(acknowledged by the peer\) between packet 23 and packet 24' \
	"lost: the gap and its packets"
expect_grep "$tmpdir/out" 'offset 2100 packet 24: warning capture.resync: damaged Warp Pipe stream \(a gap in the TCP stream\): 23 bytes skipped to the next verified frame, at offset 2270' \
	"lost: the bytes skipped to the next verified frame"
expect_grep "$tmpdir/out" 'findings: 2 error, 2 warning, 0 info' "lost: the counts"
run_dllpcheck --format=json "$d/warp-pipe-lost.pcap"
expect_grep "$tmpdir/out" '"rule":"capture.resync".*"evidence":\{"byte_offset":2100,"bytes_skipped":23,"resume_offset":2270\}' \
	"lost: resume_offset is where reading went on, not byte_offset + bytes_skipped"
size=$(wc -c <"$d/warp-pipe-lost.pcap")
got=$(tr -d '\n' <"$tmpdir/out" | sed -n 's/.*"bytes_read": *\([0-9]*\), *"bytes_skipped": *\([0-9]*\).*/\1 \2/p')
set -- $got
if [ $# -eq 2 ] && [ $(($1 + $2)) -eq "$size" ]; then pass; else
	fail "lost: bytes read + skipped ($got) is not the size $size"
fi
finish
