#!/bin/sh
# Network captures (issue 17 part 3; dllpcheck-capture(5) NETWORK CAPTURES,
# NETTLP): tests/net/make-net.py builds NetTLP captures from the format's
# description, with ARP, ICMP, DNS and SSH packets between:
#   - eth4.pcap (Ethernet, IPv4): the --decode golden; NO_SEQ/NO_CRC TLPs,
#     the LibTLP host's requests up and the adapter's completions down on
#     0x3000+, the reverse on 0x4000+; the other packets one
#     capture.not-pcie note (count, first packet), no error, no warning
#     (an RTP datagram with one port in NetTLP's range among them);
#     their bytes accounted as skipped (read + skipped = size);
#   - eth6.pcapng (IPv6 in a VLAN, pcapng), sll2.pcap (LINUX_SLL2,
#     nanoseconds) and null.pcap (BSD loopback) give the same records;
#   - --dir-map adapter=up turns the directions round; --warp-pipe-port
#     takes the SSH segment out of the note (to Warp Pipe);
#   - damage.pcap: the --decode golden (a bad IPv4 checksum, a datagram
#     shorter than the NetTLP header, a fragment of a NetTLP datagram, a
#     cut frame: malformed, naming packet and offset; a snapshot-length
#     cut: truncated), and the analysis' findings.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
PY=${PYTHON:-python3}
d="$srcdir/tests/net"
w=$tmpdir
$PY "$d/make-net.py" "$w" || fail "make-net.py"

# records without their number, time and packet: the same in every capture
plain() { grep -v '^#' "$1" | sed 's/^[0-9]* [0-9.]* //; s/ packet=[0-9]*$//'; }

run_dllpcheck --decode "$w/eth4.pcap"
expect_status 0 "eth4: --decode"
cp "$tmpdir/out" "$w/eth4.decode"
compare_golden "$d/eth4.expected" "$w/eth4.decode" "eth4: --decode"
expect_grep "$w/eth4.decode" '^# note packet 1 offset 40: 5 packets of no PCIe traffic' "eth4: --decode shows the note"
run_dllpcheck --decode "$w/eth6.pcapng"
expect_grep "$tmpdir/out" '^# note packet 2 offset [0-9]+: 4 packets .* the first packet 2 \(ipv4 protocol 1\)' "eth6: the note names ICMP's protocol"
plain "$w/eth4.decode" >"$w/eth4.plain"
for f in eth6.pcapng sll2.pcap; do
	run_dllpcheck --decode "$w/$f"
	expect_status 0 "$f: --decode"
	plain "$tmpdir/out" >"$w/$f.plain"
	if cmp -s "$w/eth4.plain" "$w/$f.plain"; then pass; else
		fail "$f: other records than eth4.pcap"; diff "$w/eth4.plain" "$w/$f.plain" | head
	fi
done
# the loopback capture: the same, and one IPv6 datagram (a second pair)
run_dllpcheck --decode "$w/null.pcap"
expect_status 0 "null: --decode"
plain "$tmpdir/out" | head -7 >"$w/null.plain"
if cmp -s "$w/eth4.plain" "$w/null.plain"; then pass; else
	fail "null: other records than eth4.pcap"; diff "$w/eth4.plain" "$w/null.plain" | head
fi
expect_grep "$tmpdir/out" '^8 [0-9.]+ link1 up TLP MWr32 ' "null: the IPv6 pair is link 1"

run_dllpcheck "$w/eth4.pcap"
expect_status 0 "eth4: analysis"
expect_grep "$tmpdir/out" 'findings: 0 error, 0 warning, 1 info' "eth4: only the note"
expect_grep "$tmpdir/out" 'packet 1: info capture.not-pcie: 5 packets of no PCIe traffic .* skipped, the first packet 1 \(ethernet: ethertype 0x0806\)' "eth4: the note"
expect_grep "$tmpdir/out" '\(pcap, network\)' "eth4: the encapsulation"
run_dllpcheck --format=json "$w/eth4.pcap"
expect_grep "$tmpdir/out" '"encapsulation": *"network"' "eth4: JSON names the encapsulation"
expect_grep "$tmpdir/out" '"packets": *5' "eth4: the note's evidence"
size=$(wc -c <"$w/eth4.pcap")
got=$(tr -d '\n' <"$tmpdir/out" | sed -n 's/.*"bytes_read": *\([0-9]*\), *"bytes_skipped": *\([0-9]*\).*/\1 \2/p')
set -- $got
if [ $# -eq 2 ] && [ $(($1 + $2)) -eq "$size" ] && [ "$2" -gt 0 ]; then pass; else
	fail "eth4: bytes read + skipped ($got) is not the size $size"
fi

# what could not be checked: NetTLP's TLPs carry no sequence number and no
# LCRC, and the report says so for each port (text and JSON)
run_dllpcheck "$w/eth4.pcap"
for port in down up; do
	expect_grep "$tmpdir/out" "partial: port $port: its TLPs were captured without sequence numbers and LCRCs .*: the data link layer's rules .* not checked" "eth4: the unchecked rules of port $port"
done
run_dllpcheck --format=json "$w/eth4.pcap"
n=$(grep -o '"no_sequence_numbers": *true' "$tmpdir/out" | wc -l)
[ "$n" -eq 2 ] && pass || fail "eth4 JSON: no_sequence_numbers on $n ports, expected 2"
n=$(grep -o '"no_lcrc": *true' "$tmpdir/out" | wc -l)
[ "$n" -eq 2 ] && pass || fail "eth4 JSON: no_lcrc on $n ports, expected 2"
# ... and a Warp Pipe capture, which carries both, says nothing of the kind
run_dllpcheck "$srcdir/tests/net/warp-pipe-eth4.pcap"
if grep -q 'captured without' "$tmpdir/out"; then fail "warp pipe: a partial line on sequence numbers"; else pass; fi

# near miss: RTP between two ports in NetTLP's range is not NetTLP
# (no record at all: an input error that says why, not "no records")
run_dllpcheck --decode "$w/rtp.pcap"
if grep -q ' TLP ' "$tmpdir/out"; then fail "rtp: read as TLPs"; else pass; fi
expect_status 2 "rtp: no PCIe record"
expect_grep "$tmpdir/err" 'rtp\.pcap: pcap file with no PCIe traffic: 3 packets of no PCIe traffic .*udp port 16384 to 16386' "rtp: the error says it is not PCIe"
# a Warp Pipe capture read with the wrong port: the error names the port
run_dllpcheck --warp-pipe-port 9999 "$srcdir/tests/net/warp-pipe-eth4.pcap"
expect_status 2 "warp pipe on the wrong port"
expect_grep "$tmpdir/err" 'with no PCIe traffic: .*TCP port 9999 .*tcp port [0-9]+ to 2115' "wrong port: the error shows the port the capture used"

# directions
run_dllpcheck --dir-map adapter=up --decode "$w/eth4.pcap"
expect_grep "$tmpdir/out" '^1 [0-9.]+ link0 down TLP MRd32 ' "adapter=up: LibTLP's request down"
expect_grep "$tmpdir/out" '^2 [0-9.]+ link0 up TLP CplD ' "adapter=up: the adapter's completion up"
run_dllpcheck --dir-map libtlp=down --decode "$w/eth4.pcap"
expect_grep "$tmpdir/out" '^1 [0-9.]+ link0 down TLP MRd32 ' "libtlp=down: as adapter=up"
# the TCP segment of port 22 goes to Warp Pipe with --warp-pipe-port 22
run_dllpcheck --warp-pipe-port 22 "$w/eth4.pcap"
expect_grep "$tmpdir/out" 'capture.not-pcie: 4 packets' "--warp-pipe-port 22: SSH is not in the note"

# damage
run_dllpcheck --decode "$w/damage.pcap"
expect_status 1 "damage: --decode"
compare_golden "$d/damage.expected" "$tmpdir/out" "damage: --decode"
run_dllpcheck "$w/damage.pcap"
expect_status 1 "damage: analysis"
expect_grep "$tmpdir/out" 'packet 2: error capture.malformed: ipv4: header checksum 0x[0-9a-f]{4} is wrong' "damage: the checksum"
expect_grep "$tmpdir/out" 'packet 3: error capture.malformed: nettlp: a UDP datagram of 4 bytes to port 0x3001: shorter than the 6-byte NetTLP header' "damage: short datagram"
expect_grep "$tmpdir/out" 'packet 4: error capture.malformed: a NetTLP datagram lost: ipv4: a fragment' "damage: the fragment"
expect_grep "$tmpdir/out" 'packet 6: .*warning capture.truncated: TLP captured with 14 of its 16 bytes' "damage: the snapshot length"
expect_grep "$tmpdir/out" 'packet 7: error capture.malformed: ipv4: header cut at offset 14' "damage: the cut frame"
expect_grep "$tmpdir/out" 'capture.not-pcie: 2 packets .* the first packet 5 \(an IP fragment' "damage: the later fragment and ARP in the note"
expect_grep "$tmpdir/out" 'findings: 4 error, 1 warning, 1 info' "damage: the counts"
finish
