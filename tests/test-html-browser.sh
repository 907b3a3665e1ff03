#!/bin/sh
# --format=html in a real browser (issue 16: "Tested in a real browser"):
# tests/html-browser-check.py opens each page in headless Chromium and checks
# that page.js drew it (data-rendered, no script or console error), one
# findings row per finding of the page's data, every chart with points
# drawn, nothing injected (only the page's own elements and attributes, no
# on* or URL attribute, no data-pwn*), and keeps a screenshot in
# tests/html-artefacts/ (under the build directory).
#  - tests/html-fixture.py pages: a batch of 3 with an input error, zero
#    findings, infinite and unknown spans, markup in names and messages;
#    one input; 10^5 points and 10^4 findings, and 10^5 points alone (the
#    timing cases); page.js itself for the calls the contract forbids;
#    and pages the check must refuse (a script that throws, an <img>);
#  - dllpcheck's own pages: overrun (and --interact: hover, zoom, reset,
#    marker and row clicks, filter, sort), lost-completion --stats, a batch
#    of every sample and a missing file, a file named
#    "<img src=x onerror=alert(1)>.trace", a --merge page of a part
#    without charts, a CSV export whose cells hold
#    markup that reaches the messages: nothing of theirs runs and the text
#    shows as text.
# SKIP (77) without chromium or python3, or with DLLPCHECK_TEST_NO_VIEWERS set.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
skip_viewer "the pages are not opened in Chromium"
t="$tmpdir"
s="$srcdir/samples"
check="$srcdir/tests/html-browser-check.py"
fixture="$srcdir/tests/html-fixture.py"
if ! command -v python3 >/dev/null 2>&1; then
	echo "SKIP: python3 is needed to run tests/html-browser-check.py"
	exit 77
fi
if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: chromium is not installed (Debian package chromium): the HTML report is not tested in a browser"
	exit 77
fi
art=${HTML_ARTEFACTS:-tests/html-artefacts}
mkdir -p "$art"

# browse WHAT PAGE ARGS...: html-browser-check.py on PAGE, screenshot kept.
browse() {
	what=$1
	page=$2
	shift 2
	if python3 "$check" "$page" --screenshot "$art/$what.png" "$@" >"$t/check" 2>&1; then
		pass
		tail -1 "$t/check"
	else
		fail "$what: in the browser"
		sed 's/^/  /' "$t/check" | head -20
	fi
}

pwn='<img src=x onerror=document.body.dataset.pwned=1>'

# ---- the renderer on the fixture's edge cases ------------------------------
python3 "$fixture" "$srcdir" "$t/fx-edge.html" edge >"$t/rows"
browse fixture-edge "$t/fx-edge.html" --rows "$(cat "$t/rows")" --interact \
	--text "missing $pwn.trace" --text "cell '$pwn' </script><script>document.body.dataset.pwned=2</script> & <!--" \
	--text "9007199254740.999"
python3 "$fixture" "$srcdir" "$t/fx-single.html" single >"$t/rows"
browse fixture-single "$t/fx-single.html" --rows "$(cat "$t/rows")"
# 10^5 points, 10^4 findings: page.js within 5 s even on a loaded machine
# (about 0.3 s for the charts and 0.4 s for the rows when it is not)
python3 "$fixture" "$srcdir" "$t/fx-big.html" big >"$t/rows"
browse fixture-big "$t/fx-big.html" --rows 10000 --max-render-ms 5000 --interact
python3 "$fixture" "$srcdir" "$t/fx-points.html" points >"$t/rows"
browse fixture-points "$t/fx-points.html" --rows 0 --max-render-ms 5000

# ---- page.js itself: no markup API, nothing that ends its <script> ------------
js="$srcdir/src/report/html/page.js $srcdir/src/report/html/page_charts.js $srcdir/src/report/html/page_summary.js"
# shellcheck disable=SC2086
if grep -nE 'innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|Function\(|set(Timeout|Interval)\( *["'"'"'`]|</script|<!--|onerror' $js >"$t/grep"; then
	fail "page.js uses what the contract forbids:"; cat "$t/grep"
else pass; fi

# ---- the renderer must be able to fail --------------------------------------
# a page whose script throws, and one whose data injects an element
sed 's|document.body.dataset.rendered = "1";|throw new Error("boom");|' "$t/fx-single.html" >"$t/bad1.html"
if python3 "$check" "$t/bad1.html" >"$t/check" 2>&1; then fail "a throwing page passed the check"; else
	grep -q 'data-rendered' "$t/check" && pass || fail "a throwing page: $(cat "$t/check")"
fi
sed 's|<div id="app"></div>|<div id="app"></div><img src=x onerror=document.body.dataset.pwned=1>|' \
	"$t/fx-single.html" >"$t/bad2.html"
if python3 "$check" "$t/bad2.html" >"$t/check" 2>&1; then fail "an injected <img> passed the check"; else
	grep -q 'element <img>' "$t/check" && grep -q 'data-pwned' "$t/check" && pass ||
		fail "an injected <img>: $(cat "$t/check")"
fi

# ---- dllpcheck's own pages ----------------------------------------------------
run_dllpcheck --format=html "$s/overrun.trace"
if grep -q 'format=html is not built yet' "$t/out"; then
	# the fixture's failures still fail the test
	finish || exit 1
	echo "SKIP: dllpcheck --format=html prints the placeholder (the C writer is not merged): only the fixture was tested"
	exit 77
fi
cp "$t/out" "$t/overrun.html"
browse overrun "$t/overrun.html" --interact --text "fc.credit.overrun"

run_dllpcheck --format=html --stats "$s/lost-completion.trace"
cp "$t/out" "$t/lost.html"
browse lost-completion "$t/lost.html" --text "Transactions (non-posted requests each port sent)"

set -- "$s"/*.pcap "$s"/*.trace "$s"/*.csv "$s"/*.vcd "$t/missing.pcap"
run_dllpcheck --format=html "$@"
expect_status 2 "a batch with a missing file"
cp "$t/out" "$t/batch.html"
browse batch "$t/batch.html" --text "Batch: $# inputs" --text "$t/missing.pcap"

# --merge --format=html of a part made with --with-charts (the page of one
# run, byte for byte: tests/test-merge-parts.sh) and one without: that
# input's chart area says why it has none
"$DLLPCHECK" --with-charts --format=jsonl "$s/overrun.trace" >"$t/with.jsonl" 2>/dev/null || true
"$DLLPCHECK" --format=jsonl "$s/lost-completion.trace" >"$t/without.jsonl" 2>/dev/null || true
run_dllpcheck --merge --format=html "$t/with.jsonl" "$t/without.jsonl"
cp "$t/out" "$t/merged.html"
browse merged "$t/merged.html" --text "No charts: made without --with-charts: its part carried no charts."

mkdir "$t/esc"
evil="$t/esc/<img src=x onerror=alert(1)>.trace"
cp "$s/overrun.trace" "$evil"
run_dllpcheck --format=html "$evil"
cp "$t/out" "$t/evil-name.html"
browse evil-name "$t/evil-name.html" --text "<img src=x onerror=alert(1)>.trace"

# an export whose cells hold markup: the Dir cell and the type cells are
# quoted into capture.malformed messages (cut at 32 characters, so the
# payloads are short: a <svg onload> that would set data-pwn, an <img>)
{
	echo 'Time,Dir,DLLP Type,VC,HdrFC,DataFC,Raw'
	echo '0 ns,DS,Link-Up,,,,'
	echo '10ns,DS,InitFC1-P,0,8,64,'
	echo '12ns,<svg onload=body.dataset.pwn=1>,InitFC1-P,0,8,64,'
	echo '16ns,US,</script><img src=x onerror=alert(1)>,0,1,1,'
	echo '18ns,US,<!-- x,0,1,1,'
	echo '20ns,US,<img src=x onerror=alert(2)>,0,1,1,'
} >"$t/esc/markup.csv"
run_dllpcheck --format=html "$t/esc/markup.csv"
cp "$t/out" "$t/markup.html"
browse csv-markup "$t/markup.html" --rows 4 \
	--text "'<svg onload=body.dataset.pwn=1>' is not a direction" \
	--text "unknown packet type '</script><img src=x onerror=aler...'" \
	--text "unknown packet type '<!-- x'" --text "unknown packet type '<img src=x onerror=alert(2)>'"

finish
