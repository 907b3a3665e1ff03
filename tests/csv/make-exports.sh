#!/bin/sh
# make-exports.sh DLLPCHECK TRACE OUTDIR: writes the records of a text
# trace as a protocol-analyzer export of each layout dllpcheck reads, so
# tests/test-csv.sh can check that every export gives the findings of the
# trace it came from.  POSIX sh, od and awk (mawk is enough).
#
# The bytes come from dllpcheck itself (--write-pcap: exactly what the text
# reader built, CRCs included) and the decoded fields from --decode
# --format=jsonl; awk pairs them record by record.  Outputs, for NAME.trace:
#   NAME.raw.csv      headered CSV with banner lines, a "Radix - Hex" line,
#                     framed raw bytes (SDP/STP .. END/EDB), times in s
#   NAME.fields.tsv   headered TSV of decoded fields only (no bytes): type
#                     names in several spellings, VC in the name or a
#                     column, DataFC of UpdateFCs in bytes, times in ns
#   NAME.agilent.txt  "DS Record N @ 0.000000100000s (+100ns): 5c...fd"
#   NAME.fpga.csv     "->, 100, ns, 0x5c, 0x40, ..."
#   NAME.aligned.txt  aligned text columns, right-aligned packet numbers,
#                     times as "0.000 000 100 000 s", unframed bytes
#   NAME.quoted.csv   every cell quoted, commas and "" inside cells,
#                     scientific times, bytes as "40,00,20,..."
#   NAME.ticks.psv    '|'-delimited, sample numbers (read with
#                     --clock-period 2ns) and channels 0/1 (--dir-map)
#   NAME.custom.csv   ';'-delimited with column names no alias knows (read
#                     with --map-file custom.map)
# The headerless layouts (agilent, fpga) cannot hold link events: their
# event records are left out.
set -eu

if [ $# -ne 3 ]; then
	echo "usage: $0 DLLPCHECK TRACE OUTDIR" >&2
	exit 2
fi
dllpcheck=$1
trace=$2
outdir=$3
name=$(basename "$trace" .trace)
work=$(mktemp -d "${TMPDIR:-/tmp}/make-exports.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$dllpcheck" --write-pcap "$work/t.pcap" "$trace"
"$dllpcheck" --decode --format=jsonl "$trace" >"$work/t.jsonl"
od -An -v -tu1 "$work/t.pcap" >"$work/t.od"

awk -v out="$outdir/$name" '
# ---- helpers ----
function ui(x) { return sprintf("%.0f", x) }
function pad0(s, w) { while (length(s) < w) s = "0" s; return s }
function padr(s, w) { while (length(s) < w) s = s " "; return s }
function padl(s, w) { while (length(s) < w) s = " " s; return s }
function secs(t,   s) { s = int(t / 1e12); return ui(s) "." pad0(ui(t - s * 1e12), 12) }
function nsec(t,   s) { s = int(t / 1e3); return ui(s) "." pad0(ui(t - s * 1e3), 3) }
function usec(t,   s) { s = int(t / 1e6); return ui(s) "." pad0(ui(t - s * 1e6), 6) }
function grouped(t,   f) {
	f = secs(t)
	return substr(f, 1, index(f, ".")) substr(f, index(f, ".") + 1, 3) " " \
	       substr(f, index(f, ".") + 4, 3) " " substr(f, index(f, ".") + 7, 3) " " \
	       substr(f, index(f, ".") + 10, 3) " s"
}
# The value of "key": in s (a string without its quotes, or a number).
function jval(s, key,   re, m) {
	re = "\"" key "\":"
	m = index(s, re)
	if (m == 0)
		return ""
	s = substr(s, m + length(re))
	if (substr(s, 1, 1) == "\"") {
		s = substr(s, 2)
		return substr(s, 1, index(s, "\"") - 1)
	}
	match(s, /^[^,}]*/)
	return substr(s, 1, RLENGTH)
}
function sect(s, key,   m) {
	m = index(s, "\"" key "\":{")
	return m ? substr(s, m) : ""
}
function le32(i) { return B[i] + B[i + 1] * 256 + B[i + 2] * 65536 + B[i + 3] * 16777216 }
function be32(i) { return B[i] * 16777216 + B[i + 1] * 65536 + B[i + 2] * 256 + B[i + 3] }

# ---- the pcap: bytes of each record ----
FILENAME ~ /\.od$/ { for (i = 1; i <= NF; i++) B[nb++] = $i; next }

# ---- the decode: one record per line ----
/"type":"record"/ {
	if (!pcap_done) { read_pcap(); pcap_done = 1 }
	n++
	T[n] = jval($0, "time_ps") + 0
	DIR[n] = jval($0, "direction")
	K[n] = jval($0, "kind")
	if (K[n] == "dllp") {
		s = sect($0, "dllp")
		NAME[n] = jval(s, "type"); VC[n] = jval(s, "vc")
		HDR[n] = jval(s, "hdr_fc"); DATA[n] = jval(s, "data_fc")
		HS[n] = jval(s, "hdr_scale"); DS[n] = jval(s, "data_scale")
		SEQ[n] = jval(s, "acknak_seq"); TB[n] = jval(s, "type_byte") + 0
		END_SYM[n] = "FD"
	} else if (K[n] == "tlp") {
		s = sect($0, "tlp")
		NAME[n] = jval(s, "type"); SEQ[n] = jval(s, "seq")
		LEN[n] = jval(s, "length_dw"); TC[n] = jval(s, "tc")
		END_SYM[n] = jval(s, "lcrc") == "nullified" ? "FE" : "FD"
	} else {
		NAME[n] = jval(sect($0, "event"), "name")
	}
	next
}

function read_pcap(   i, r, incl, p, j, h, le) {
	le = B[0] == 212 || B[0] == 77   # d4 or 4d: little-endian
	i = 24
	r = 0
	while (i + 16 <= nb) {
		incl = le ? le32(i + 8) : be32(i + 8)
		p = i + 16
		r++
		h = ""
		for (j = p + 4; j < p + incl; j++)
			h = h (h == "" ? "" : " ") sprintf("%02X", B[j])
		HEX[r] = h
		i = p + incl
	}
}

function dir_ds(d) { return d == "down" ? "DS" : "US" }
function dir_long(d) { return d == "down" ? "Downstream" : "Upstream" }
function framed(r) { return (K[r] == "dllp" ? "5C " : "FB ") HEX[r] " " END_SYM[r] }
function event_name(r,   s) { s = NAME[r]; sub(/^link-up$/, "Link-Up", s); return s }
function kind_word(r) { return K[r] == "dllp" ? "DLLP" : K[r] == "tlp" ? "TLP" : event_name(r) }
function nospace(s) { gsub(/ /, "", s); return s }

# A DLLP type in one of the spellings analyzers use.
function dllp_type_text(r,   s) {
	s = NAME[r]
	if (s == "Reserved")
		return sprintf("0x%02X", TB[r])
	if (s ~ /^UpdateFC/)
		return s " (VC" VC[r] ")"
	if (s ~ /^InitFC1/) { s = toupper(s); gsub(/-/, "_", s); return s }
	return s
}

END {
	raw = out ".raw.csv"; fields = out ".fields.tsv"; ag = out ".agilent.txt"
	fpga = out ".fpga.csv"; al = out ".aligned.txt"; qu = out ".quoted.csv"
	ti = out ".ticks.psv"; cu = out ".custom.csv"

	print "FooAnalyzer Protocol Suite 3.2 - Packet export" > raw
	print "Exported,2024-01-01 12:00:00,Link 0 x4" > raw
	print "" > raw
	print "Packet #,Time Stamp,Link Dir,Packet Type,Raw Data" > raw
	print "Radix - Hex" > raw

	print "# decoded-fields export (no raw bytes)" > fields
	print "Time (ns)\tDir\tType\tDLLP Type\tVC\tHdrFC\tDataFC\tTLP Type\tSeq Num\tLength\tTC" > fields

	print padl("Packet", 8) "  " padr("Time", 22) padr("Direction", 12) padr("Type", 10) "Raw" > al
	print "--------  --------------------  ----------  --------  ------" > al

	print "\"Time\",\"Direction\",\"Type\",\"Summary\",\"Raw Bytes\"" > qu

	print "Sample|Ch|Protocol|Bytes" > ti

	print "Idx;When (us);Initiator;What;Bytes" > cu

	prev = 0
	for (r = 1; r <= n; r++) {
		t = T[r]; d = DIR[r]
		# raw.csv
		printf "%d,%s,%s,%s,%s\n", r, secs(t), dir_ds(d), kind_word(r),
		       K[r] == "event" ? "" : framed(r) > raw
		# fields.tsv
		if (K[r] == "event") {
			printf "%s\t%s\t%s\t\t\t\t\t\t\t\t\n", nsec(t), dir_long(d), "Link Up" > fields
		} else if (K[r] == "dllp") {
			vc = NAME[r] ~ /^InitFC/ ? VC[r] : ""
			data = DATA[r]
			if (NAME[r] ~ /^UpdateFC/ && DS[r] == 0 && data > 0)
				data = (data * 16) " data bytes"
			printf "%s\t%s\tDLLP\t%s\t%s\t%s\t%s\t\t%s\t\t\n", nsec(t), dir_long(d),
			       dllp_type_text(r), vc, HDR[r], NAME[r] ~ /FC/ ? data : "",
			       SEQ[r] > fields
		} else {
			printf "%s\t%s\tTLP\t\t\t\t\t%s\t%s\t%s\t%s\n", nsec(t), dir_long(d),
			       NAME[r], SEQ[r], LEN[r], TC[r] > fields
		}
		# aligned.txt
		printf "%s  %s%s%s%s\n", padl(r, 8), padr(grouped(t), 22),
		       padr(dir_long(d), 12), padr(kind_word(r), 10),
		       K[r] == "event" ? "" : nospace(HEX[r]) > al
		# quoted.csv
		summ = K[r] == "event" ? NAME[r] : NAME[r] ", \"" d "\", rec " r
		gsub(/"/, "\"\"", summ)
		bytes = HEX[r]
		gsub(/ /, ",", bytes)
		printf "\"%.12e\",\"%s\",\"%s\",\"%s\",\"%s\"\n", t / 1e12, dir_ds(d),
		       kind_word(r), summ, K[r] == "event" ? "" : bytes > qu
		# ticks.psv: 2 ns samples
		if (t % 2000 != 0) {
			print "make-exports: time " t " ps is not a whole 2 ns sample" > "/dev/stderr"
			exit 1
		}
		printf "%s|%d|%s|%s\n", ui(t / 2000), d == "down" ? 0 : 1, kind_word(r),
		       K[r] == "event" ? "" : framed(r) > ti
		# custom.csv
		printf "%d;%s;%s;%s;%s\n", r, usec(t), d == "down" ? "RC" : "EP",
		       kind_word(r), K[r] == "event" ? "" : tolower(nospace(HEX[r])) > cu
		# the headerless layouts: packets only
		if (K[r] != "event") {
			h = tolower(nospace(framed(r)))
			printf "%s Record %d @ %ss (+%sns): %s\n", dir_ds(d), 1000 + r, secs(t),
			       ui((t - prev) / 1000), h > ag
			b = framed(r)
			gsub(/ /, ", 0x", b)
			unit = t % 1000 == 0 ? "ns" : "ps"
			printf "%s, %s, %s, 0x%s\n", d == "down" ? "->" : "<-",
			       ui(unit == "ns" ? t / 1000 : t), unit, tolower(b) > fpga
		}
		prev = t
	}
}
' "$work/t.od" "$work/t.jsonl"
