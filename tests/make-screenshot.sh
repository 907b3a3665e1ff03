#!/bin/sh
# make-screenshot.sh [DLLPCHECK [OUT.png]]: the README's picture of the HTML
# report, doc/html-report.png: dllpcheck --format=html on
# samples/overrun.trace (the sample that shows the most: port up's PH
# credits falling to 0, the UpdateFC that raises them, the overrun marked on
# the chart and listed in the table), shot in headless Chromium at
# 1280 x 1200.  Run from anywhere after make; commit the PNG (under 300 KB).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dllpcheck=${1:-$top/dllpcheck}
out=${2:-$top/doc/html-report.png}
command -v chromium >/dev/null 2>&1 || { echo "make-screenshot.sh: chromium is needed" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/make-screenshot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# from the top, so the page names the sample as the README does
cd "$top"
status=0
"$dllpcheck" --format=html -o "$tmp/report.html" samples/overrun.trace || status=$?
[ "$status" -le 1 ] || { echo "make-screenshot.sh: dllpcheck failed ($status)" >&2; exit 1; }
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--hide-scrollbars --user-data-dir="$tmp/profile" --window-size=1280,1200 \
	--screenshot="$out" "file://$tmp/report.html" 2>"$tmp/log" ||
	{ cat "$tmp/log" >&2; exit 1; }
size=$(wc -c <"$out")
echo "$out: $size bytes"
[ "$size" -lt 300000 ] || { echo "make-screenshot.sh: $out is over 300 KB" >&2; exit 1; }
