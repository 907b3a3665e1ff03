#!/bin/sh
# --format=html, the page's side in C (man/dllpcheck.1 THE HTML REPORT;
# the data contract of the page's blocks): tests/html-check.py reads each
# <script type="application/json"> block back and checks
#  - the page's structure (head and CSP, the run block, one block per
#    input in input order, the batch block, the page's one script);
#  - per input: the findings equal --format=json's (all of them up to
#    10000, the first 10000 beyond with findings_total counting all), the
#    summary equals the JSON document's input object minus its findings,
#    charts for every VC and credit type advertised, each series within
#    its bounds (at most 2048 buckets, min <= last <= max, values below
#    2^width, times inside the input's), UpdateFC ticks, finding markers
#    on the series of their link, port, VC and type;
#  - every sample (pcap, text, CSV, lanes VCD) and scenario, a batch (and -j 2 giving
#    the same bytes), input errors as error blocks, -o FILE, -q;
#  - escaping: a file named "<img src=x onerror=alert(1)>.trace" and a CSV
#    export whose cells hold markup and U+2028: no "<", ">", "&",
#    U+2028/2029 inside the blocks' bytes, nothing of theirs outside the
#    blocks, and the strings intact in the decoded JSON;
#  - a 1 M-record capture (bench/gen): the page under 5 MB, and memory
#    that does not grow with the capture (peak RSS at 1 M records within
#    8 MiB of that at 250 k).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
t="$tmpdir"
s="$srcdir/samples"
check="$srcdir/tests/html-check.py"
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is needed to read the page's JSON blocks"
	exit 77
fi

# page_vs_json WHAT ARGS...: the page of ARGS against their JSON document.
page_vs_json() {
	what=$1
	shift
	run_dllpcheck --format=json "$@"
	cp "$t/out" "$t/doc.json"
	json_status=$status
	run_dllpcheck --format=html "$@"
	cp "$t/out" "$t/page.html"
	expect_status "$json_status" "$what: the exit status of --format=json"
	if python3 "$check" page "$t/page.html" "$t/doc.json" >"$t/check"; then pass; else
		fail "$what: the page"
		sed 's/^/  /' "$t/check" | head -20
	fi
}

# get PAGE EXPR: a value of the page's blocks (tests/html-check.py get).
get() { python3 "$check" get "$1" "$2"; }

# ---- one input, every sample --------------------------------------------
for f in "$s"/*.pcap "$s"/*.trace "$s"/*.csv "$s"/*.vcd; do
	page_vs_json "$(basename "$f")" "$f"
done
page_vs_json "overrun.trace --stats" --stats "$s/overrun.trace"
page_vs_json "lost-completion.trace --stats" --stats "$s/lost-completion.trace"

# every scenario's cases, with their options (tests/test-scenarios.sh):
# every rule's findings, and their markers on the charts (the pages read
# by one run of html-check.py)
mkdir "$t/sc"
pairs=""
n=0
for dir in "$srcdir"/tests/scenarios/*/; do
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	for input_path in "$dir"/fire*.trace "$dir"/fire*.pcap "$dir"/miss*.trace "$dir"/miss*.pcap; do
		[ -f "$input_path" ] || continue
		case=$(basename "${input_path%.*}")
		case_args=$args
		[ -f "$dir/$case.args" ] && case_args=$(cat "$dir/$case.args")
		what="$(basename "$dir")/$case"
		n=$((n + 1))
		cd "$dir"
		# shellcheck disable=SC2086
		run_dllpcheck --format=json $case_args "$(basename "$input_path")"
		cp "$t/out" "$t/sc/$n.json"
		json_status=$status
		# shellcheck disable=SC2086
		run_dllpcheck --format=html $case_args "$(basename "$input_path")"
		cp "$t/out" "$t/sc/$n.html"
		cd - >/dev/null
		expect_status "$json_status" "$what: the exit status of --format=json"
		pairs="$pairs $t/sc/$n.html $t/sc/$n.json"
	done
done
# shellcheck disable=SC2086
if python3 "$check" pages $pairs >"$t/check"; then pass; else
	fail "the scenarios' pages"
	sed 's/^/  /' "$t/check" | head -20
fi

# overrun.trace: its credits charted, the UpdateFC ticked on port U's PH
# and PD, and the overrun marked on port U's PH series
run_dllpcheck --format=html "$s/overrun.trace"
cp "$t/out" "$t/overrun.html"
ph_up='[s for c in inputs[0]["charts"] if (c["vc"], c["type"]) == (0, "PH") for s in c["series"] if s["port"] == "up"][0]'
v=$(get "$t/overrun.html" "$ph_up[\"updates\"]")
# InitFC1 (the limit from unknown) and the UpdateFC at 2 us
[ "$v" = "[[98304, 1], [1998848, 1]]" ] && pass || fail "overrun.trace: PH ticks of port U: $v"
v=$(get "$t/overrun.html" "[u for c in inputs[0]['charts'] for s in c['series'] for u in s['updates']] != []")
[ "$v" = true ] && pass || fail "overrun.trace: no UpdateFC tick at all"
v=$(get "$t/overrun.html" "$ph_up[\"findings\"]")
[ "$v" = "[[2300000, 0]]" ] && pass || fail "overrun.trace: the overrun's marker: $v"
# the last bucket holds the overrun's 0 available (after 1, 0 from before)
v=$(get "$t/overrun.html" "$ph_up[\"points\"][-1]")
[ "$v" = "[2299904, 0, 0, 0, 0]" ] && pass || fail "overrun.trace: the last PH point of port U: $v"
v=$(get "$t/overrun.html" "sorted((c['vc'], c['type']) for c in inputs[0]['charts'])")
[ "$v" = '[[0, "CplD"], [0, "CplH"], [0, "NPD"], [0, "NPH"], [0, "PD"], [0, "PH"]]' ] && pass ||
	fail "overrun.trace: the charts are VC0's six types only: $v"
# infinite completion credits of port D (advertised 0 by port U)
v=$(get "$t/overrun.html" "[s['points'] for c in inputs[0]['charts'] if c['type'] == 'CplH' for s in c['series'] if s['port'] == 'down']")
[ "$v" = "[[[149888, null, null, null, 2]]]" ] && pass || fail "overrun.trace: infinite CplH: $v"

# ---- a batch, -j 2, input errors ----------------------------------------
page_vs_json "batch" "$s/overrun.trace" "$s/clean-init.pcap" "$t/missing.pcap" "$s/crc-errors.trace"
cp "$t/page.html" "$t/batch1.html"
v=$(get "$t/batch1.html" "[len(inputs), len(batch['inputs']), batch['exit_status']]")
[ "$v" = "[4, 4, 2]" ] && pass || fail "batch: inputs, batch entries, exit status: $v"
v=$(get "$t/batch1.html" "sorted(inputs[2])")
[ "$v" = '["error", "file"]' ] && pass || fail "batch: the missing input's block: $v"
expect_grep "$t/batch1.html" 'class="dllpcheck-input">\{"file":"[^"]*missing.pcap","error":"[^"]*missing.pcap: cannot open' "batch: the error block"
run_dllpcheck --format=html -j 2 "$s/overrun.trace" "$s/clean-init.pcap" "$t/missing.pcap" "$s/crc-errors.trace"
if cmp -s "$t/out" "$t/batch1.html"; then pass; else fail "batch: -j 2 differs from -j 1"; fi
# an input of which no record decodes: an error block with its format
printf '# nothing\n' >"$t/empty.trace"
run_dllpcheck --format=html "$t/empty.trace" "$s/overrun.trace"
cp "$t/out" "$t/empty.html"
expect_status 2 "an empty input"
v=$(get "$t/empty.html" "[sorted(inputs[0]), inputs[0]['format'], batch['inputs'][0]['status']]")
[ "$v" = '[["error", "file", "format"], "text", 2]' ] && pass || fail "an empty input's block: $v"
if python3 "$check" page "$t/empty.html" >"$t/check"; then pass; else
	fail "an empty input: the page"; cat "$t/check"
fi

# ---- the style and the script: src/report/html/page.css and page.js,
# page_charts.js, page_summary.js in a function, byte for byte (embedded at
# build time) ---------------------------------------------------------------
v=$(python3 -c '
import sys
page = open(sys.argv[1], "rb").read()
css = open(sys.argv[2], "rb").read()
js = b"(function () {\n" + b"".join(open(f, "rb").read() for f in sys.argv[3:]) + b"})();\n"
style = page.split(b"<style>\n", 1)[1].split(b"</style>", 1)[0]
script = page.rsplit(b"<script>\n", 1)[1].rsplit(b"</script>", 1)[0]
print(style == css, script == js)
' "$t/overrun.html" "$srcdir/src/report/html/page.css" "$srcdir/src/report/html/page.js" \
	"$srcdir/src/report/html/page_charts.js" "$srcdir/src/report/html/page_summary.js")
[ "$v" = "True True" ] && pass || fail "the page's style and script are not page.css and page.js: $v"

# ---- -o FILE, -q -----------------------------------------------------------
run_dllpcheck --format=html -o "$t/o.html" "$s/overrun.trace"
if [ ! -s "$t/out" ] && cmp -s "$t/o.html" "$t/overrun.html"; then pass; else
	fail "-o FILE: the page goes to FILE, nothing to standard output"
fi
run_dllpcheck --format=html -q "$s/overrun.trace"
if [ ! -s "$t/out" ] && [ ! -s "$t/err" ] && [ "$status" -eq 1 ]; then pass; else
	fail "-q: nothing written, exit status 1"
fi

# ---- more findings than the page keeps --------------------------------------
{
	echo "0 down EVENT link-up"
	i=0
	while [ $i -lt 10005 ]; do echo "1ns down bogus-$i"; i=$((i + 1)); done
} >"$t/many.trace"
page_vs_json "10005 findings" "$t/many.trace"
v=$(get "$t/page.html" "[inputs[0]['findings_total'], inputs[0]['findings_shown'], inputs[0]['findings'][-1]['record']]")
[ "$v" = "[10005, 10000, 10001]" ] && pass || fail "10005 findings: total, shown, last record: $v"

# ---- escaping -----------------------------------------------------------------
mkdir "$t/esc"
evil="$t/esc/<img src=x onerror=alert(1)>.trace"
cp "$s/overrun.trace" "$evil"
sep=$(printf '\342\200\250')
cp "$s/overrun.trace" "$t/esc/line${sep}sep&.trace"
printf 'Time,Dir,DLLP Type,VC,HdrFC,DataFC,Raw\n0 ns,DS,Link-Up,,,,\n10ns,DS,InitFC1-P,0,8,64,\n16ns,US,</script><script>alert(1)</script>,0,1,1,\n18ns,US,<!-- x,0,1,1,\n20ns,US,<img src=y onerror=alert(2)>,0,1,1,\n' >"$t/esc/markup.csv"
page_vs_json "escaping" "$evil" "$t/esc/line${sep}sep&.trace" "$t/esc/markup.csv"
cp "$t/page.html" "$t/esc.html"
if python3 "$check" raw "$t/esc.html" >"$t/check"; then pass; else
	fail "escaping: markup of the inputs' in the page"; cat "$t/check"
fi
expect_grep "$t/esc.html" '\\u003cimg src=x onerror=alert\(1\)\\u003e\.trace' "escaping: the file name as \\u escapes"
expect_grep "$t/esc.html" 'line\\u2028sep\\u0026\.trace' "escaping: U+2028 and & in a file name"
v=$(get "$t/esc.html" "[inputs[0]['file'].endswith('/<img src=x onerror=alert(1)>.trace'), inputs[0]['summary']['file'] == inputs[0]['file'], batch['inputs'][0]['file'] == inputs[0]['file'], inputs[0]['findings'][0]['file'] == inputs[0]['file'], inputs[1]['file'].endswith('/line\\u2028sep&.trace')]")
[ "$v" = "[true, true, true, true, true]" ] && pass || fail "escaping: the file names intact: $v"
v=$(get "$t/esc.html" "[m for f in inputs[2]['findings'] for m in [f['message']] if '</script><script>alert(1)' in m or '<!-- x' in m or '<img src=y onerror=alert(2)>' in m]")
n=$(echo "$v" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$n" = 3 ] && pass || fail "escaping: the cells' markup intact in the messages: $v"

# ---- a long capture: size and memory bounded -------------------------------------
gen=$(dirname "$DLLPCHECK")/bench/gen
if [ -x "$gen" ]; then
	"$gen" -n 250000 -p "$t/q.pcap" 2>/dev/null
	"$gen" -n 1000000 -p "$t/m.pcap" 2>/dev/null
	/usr/bin/time -f '%M' -o "$t/rss.q" "$DLLPCHECK" --format=html -o "$t/q.html" "$t/q.pcap" || true
	/usr/bin/time -f '%M' -o "$t/rss.m" "$DLLPCHECK" --format=html -o "$t/m.html" "$t/m.pcap" || true
	rm -f "$t/q.pcap" "$t/m.pcap"
	size=$(wc -c <"$t/m.html")
	rq=$(tail -1 "$t/rss.q")
	rm=$(tail -1 "$t/rss.m")
	echo "1 M records: page $size bytes, peak RSS $rm KiB (250 k records: $rq KiB)"
	[ "$size" -lt 5000000 ] && pass || fail "1 M records: the page is $size bytes"
	[ "$rm" -lt $((rq + 8192)) ] && pass || fail "1 M records: peak RSS $rm KiB, 250 k: $rq KiB"
	if python3 "$check" page "$t/m.html" >"$t/check"; then pass; else
		fail "1 M records: the page"; cat "$t/check"
	fi
	v=$(get "$t/m.html" "[max(len(s['points']) for c in inputs[0]['charts'] for s in c['series']) > 1000, len(inputs[0]['charts'])]")
	[ "$v" = "[true, 6]" ] && pass || fail "1 M records: the charts' buckets used: $v"
else
	fail "bench/gen not built ($gen)"
fi

finish
