#!/bin/sh
# Every report format on the bundled samples, and what scripts and CI rely
# on: the reports on each samples/NAME.pcap in every format are exactly
# tests/golden-reports/NAME.FORMAT (text: samples/NAME.expected, which
# test-samples.sh also checks); JUnit XML is well-formed with a testcase per
# input and a failure per finding at or above --fail-on; -j 4 writes what
# -j 1 writes; -o FILE writes what standard output gets; -q prints nothing;
# and the exit statuses.  UPDATE_GOLDEN=1 rewrites the golden reports
# (review the diff).  Needs python3 (for the XML checks): without it the
# test fails.
. "${srcdir:-.}/tests/test-subr.sh"
set -e

if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL: python3 is missing; this test needs it to check the JUnit XML (Debian package python3)"
	exit 1
fi

cd "$srcdir"
golden=tests/golden-reports

# The version is in the JSON reports (and ends the JSON Lines summary and
# error lines): the goldens say VERSION.
normalise() {
	sed -e 's/^{"tool":"dllpcheck","version":"[^"]*"/{"tool":"dllpcheck","version":"VERSION"/' \
		-e 's/^\({"type":"\(summary\|error\)".*\),"version":"[^"]*"}$/\1,"version":"VERSION"}/' "$1"
}

# ---------------------------------------------------------------- goldens
for pcap in samples/*.pcap; do
	name=$(basename "$pcap" .pcap)
	want=$(cat "samples/$name.status")
	for fmt in text json jsonl junit stats.text stats.json; do
		case $fmt in
		stats.*) run_dllpcheck --stats --format="${fmt#stats.}" "$pcap" ;;
		*) run_dllpcheck --format="$fmt" "$pcap" ;;
		esac
		expect_status "$want" "--format=$fmt $pcap"
		[ -s "$tmpdir/err" ] && fail "--format=$fmt $pcap wrote to standard error: $(head -1 "$tmpdir/err")"
		normalise "$tmpdir/out" >"$tmpdir/report"
		if [ "$fmt" = text ]; then
			compare_golden "samples/$name.expected" "$tmpdir/report" "--format=text $pcap"
		else
			compare_golden "$golden/$name.$fmt" "$tmpdir/report" "--format=$fmt $pcap"
		fi
	done
	# The text trace the pcap was made from reports the same findings (but
	# for the file name, the format and the byte offsets).
	run_dllpcheck --format=jsonl "samples/$name.trace"
	expect_status "$want" "--format=jsonl samples/$name.trace"
	sed -n 's/^{"type":"finding","file":"[^"]*","record":\([0-9]*\),\("line":[0-9]*,\)\{0,1\}"byte_offset":[0-9]*,/\1 /p' \
		"$tmpdir/out" >"$tmpdir/from-trace"
	sed -n 's/^{"type":"finding","file":"[^"]*","record":\([0-9]*\),"byte_offset":[0-9]*,/\1 /p' \
		"$golden/$name.jsonl" >"$tmpdir/from-pcap"
	if cmp -s "$tmpdir/from-trace" "$tmpdir/from-pcap"; then pass; else
		fail "the findings on samples/$name.trace differ from those on $pcap"
		diff "$tmpdir/from-pcap" "$tmpdir/from-trace" | head -10
	fi
done

# ---------------------------------------------------------------- inputs
# All samples and every scenario trace: many findings of every rule.
set -- samples/*.pcap samples/*.trace
for f in tests/scenarios/*/fire.trace tests/scenarios/*/fire.pcap \
	tests/scenarios/*/miss.trace tests/scenarios/*/miss.pcap; do
	[ -f "$f" ] && set -- "$@" "$f"
done
[ "$#" -gt 40 ] && pass || fail "only $# inputs found"

# ---------------------------------------------------------------- JUnit
# junit_check XML JSONL FAIL_ON: XML is well-formed; one testsuite with
# tests = the number of inputs; per input (in order) a testcase named after
# it with a <failure type=RULE> per finding at or above FAIL_ON (in the
# order of JSONL, the same run as JSON Lines) or an <error> if unreadable.
junit_check() {
	python3 - "$@" <<'EOF'
import json, sys
from xml.dom import minidom
xml_path, jsonl_path, fail_on = sys.argv[1:]
rank = {"info": 0, "warning": 1, "error": 2}
try:
    dom = minidom.parse(xml_path)
except Exception as e:
    sys.exit("JUnit XML not well-formed: %s" % e)
root = dom.documentElement
if root.tagName != "testsuites":
    sys.exit("root element <%s>, expected <testsuites>" % root.tagName)
suites = root.getElementsByTagName("testsuite")
if len(suites) != 1:
    sys.exit("%d testsuites, expected 1" % len(suites))
cases = [c for c in suites[0].childNodes if c.nodeType == c.ELEMENT_NODE]
want = []   # (file, [rule...] or None for an unreadable input)
findings = []
for line in open(jsonl_path, encoding="utf-8"):
    o = json.loads(line)
    if o["type"] == "finding":
        if rank[o["severity"]] >= rank[fail_on]:
            findings.append(o["rule"])
    elif o["type"] == "summary":
        want.append((o["file"], findings))
        findings = []
    elif o["type"] == "error":
        want.append((o["file"], None))
if suites[0].getAttribute("tests") != str(len(want)):
    sys.exit("testsuite tests=%r, expected %d" % (suites[0].getAttribute("tests"), len(want)))
if len(cases) != len(want):
    sys.exit("%d testcases, expected %d (one per input)" % (len(cases), len(want)))
for case, (name, rules) in zip(cases, want):
    if case.tagName != "testcase" or case.getAttribute("name") != name:
        sys.exit("<%s name=%r>, expected <testcase name=%r>" % (case.tagName, case.getAttribute("name"), name))
    failures = [f.getAttribute("type") for f in case.getElementsByTagName("failure")]
    errors = case.getElementsByTagName("error")
    if rules is None:
        if len(errors) != 1 or failures:
            sys.exit("%s: unreadable, expected one <error> and no <failure>" % name)
    elif failures != rules or errors:
        sys.exit("%s: failures %s, expected %s (findings at or above %s)" % (name, failures, rules, fail_on))
    for f in case.getElementsByTagName("failure"):
        if not f.getAttribute("message") or not f.firstChild:
            sys.exit("%s: a <failure> without message or text" % name)
EOF
}

for fail_on in error warning info; do
	run_dllpcheck --fail-on "$fail_on" --format=junit "$@" does-not-exist.pcap
	expect_status 2 "--format=junit --fail-on $fail_on with a missing input"
	cp "$tmpdir/out" "$tmpdir/junit.xml"
	run_dllpcheck --fail-on "$fail_on" --format=jsonl "$@" does-not-exist.pcap
	cp "$tmpdir/out" "$tmpdir/junit.jsonl"
	if junit_check "$tmpdir/junit.xml" "$tmpdir/junit.jsonl" "$fail_on" 2>"$tmpdir/why"; then pass; else
		fail "--format=junit --fail-on $fail_on: $(cat "$tmpdir/why")"
	fi
done
# A file name that needs escaping in XML.
cp samples/overrun.pcap "$tmpdir/a&b<c>\"d'.pcap"
run_dllpcheck --format=junit "$tmpdir/a&b<c>\"d'.pcap"
cp "$tmpdir/out" "$tmpdir/junit.xml"
run_dllpcheck --format=jsonl "$tmpdir/a&b<c>\"d'.pcap"
cp "$tmpdir/out" "$tmpdir/junit.jsonl"
if junit_check "$tmpdir/junit.xml" "$tmpdir/junit.jsonl" error 2>"$tmpdir/why"; then pass; else
	fail "--format=junit with XML special characters in the file name: $(cat "$tmpdir/why")"
fi

# ---------------------------------------------------------------- -j
for fmt in text json jsonl junit; do
	for stats in "" --stats; do
		# shellcheck disable=SC2086
		run_dllpcheck -j 1 --fail-on info $stats --format=$fmt "$@"
		expect_status 1 "-j 1 --format=$fmt $stats"
		cp "$tmpdir/out" "$tmpdir/j1"
		# shellcheck disable=SC2086
		run_dllpcheck -j 4 --fail-on info $stats --format=$fmt "$@"
		expect_status 1 "-j 4 --format=$fmt $stats"
		if cmp -s "$tmpdir/j1" "$tmpdir/out"; then pass; else
			fail "-j 4 --format=$fmt $stats differs from -j 1"
			diff "$tmpdir/j1" "$tmpdir/out" | head -10
		fi
	done
done
run_dllpcheck -j 1 --decode --format=jsonl "$@"
cp "$tmpdir/out" "$tmpdir/j1"
run_dllpcheck -j 4 --decode --format=jsonl "$@"
cmp -s "$tmpdir/j1" "$tmpdir/out" && pass || fail "-j 4 --decode --format=jsonl differs from -j 1"

# ---------------------------------------------------------------- -o, -q
for fmt in text json jsonl junit; do
	run_dllpcheck --format=$fmt samples/crc-errors.pcap samples/clean-init.pcap
	cp "$tmpdir/out" "$tmpdir/stdout"
	for jobs in 1 4; do
		rm -f "$tmpdir/report"
		run_dllpcheck -j $jobs -o "$tmpdir/report" --format=$fmt samples/crc-errors.pcap samples/clean-init.pcap
		expect_status 1 "-o --format=$fmt"
		[ -s "$tmpdir/out" ] && fail "-o --format=$fmt also wrote to standard output"
		if cmp -s "$tmpdir/stdout" "$tmpdir/report"; then pass; else
			fail "-j $jobs -o FILE --format=$fmt differs from standard output"
		fi
	done
	for f in samples/clean-init.pcap samples/crc-errors.pcap; do
		run_dllpcheck -q --format=$fmt --stats "$f"
		expect_status "$(cat "${f%.pcap}.status")" "-q --format=$fmt $f"
		if [ -s "$tmpdir/out" ] || [ -s "$tmpdir/err" ]; then
			fail "-q --format=$fmt $f printed something"
		else pass; fi
	done
done
run_dllpcheck -q -o "$tmpdir/quiet" samples/crc-errors.pcap
expect_status 1 "-q -o"
[ -s "$tmpdir/out" ] && fail "-q -o wrote to standard output" || pass
[ ! -s "$tmpdir/quiet" ] && pass || fail "-q -o FILE wrote a report to FILE"

# ---------------------------------------------------------------- exit status
# expect_exit N WHAT ARGS...: exit status N in every report format.
expect_exit() {
	e_want=$1 e_what=$2
	shift 2
	for e_fmt in text json jsonl junit; do
		run_dllpcheck --format=$e_fmt "$@"
		expect_status "$e_want" "$e_what (--format=$e_fmt)"
	done
}
clean=samples/clean-init.pcap
errors=samples/overrun.pcap                         # one error finding
warning=tests/scenarios/fc.init.order/fire.trace     # one warning finding
info=tests/scenarios/dllp.reserved-type/fire.trace   # one info finding
for f in "$warning" "$info"; do [ -f "$f" ] && pass || fail "$f is missing"; done
expect_exit 0 "clean input" "$clean"
expect_exit 0 "clean input, --fail-on info" --fail-on info "$clean"
expect_exit 1 "error finding" "$errors"
expect_exit 1 "error finding, --fail-on warning" --fail-on warning "$errors"
expect_exit 1 "error finding, --fail-on info" --fail-on info "$errors"
expect_exit 0 "warning finding" "$warning"
expect_exit 0 "warning finding, --fail-on error" --fail-on error "$warning"
expect_exit 1 "warning finding, --fail-on warning" --fail-on warning "$warning"
expect_exit 1 "warning finding, --fail-on info" --fail-on info "$warning"
expect_exit 0 "info finding" "$info"
expect_exit 0 "info finding, --fail-on warning" --fail-on warning "$info"
expect_exit 1 "info finding, --fail-on info" --fail-on info "$info"
expect_exit 2 "missing file" does-not-exist.pcap
expect_exit 2 "usage error: unknown option" --no-such-option "$clean"
expect_exit 2 "usage error: bad --fail-on" --fail-on fatal "$clean"
expect_exit 2 "usage error: bad -j" -j 0 "$clean"
expect_exit 2 "usage error: no input"
run_dllpcheck --format=xml "$clean"
expect_status 2 "usage error: --format=xml"
run_dllpcheck --decode --format=json "$clean"
expect_status 2 "usage error: --decode --format=json"
# A batch exits with its worst input's status...
expect_exit 0 "batch: clean, warning, info" "$clean" "$warning" "$info"
expect_exit 1 "batch: clean, error" "$clean" "$errors"
expect_exit 1 "batch: error, clean" "$errors" "$clean"
expect_exit 1 "batch: warning, clean, --fail-on warning" --fail-on warning "$warning" "$clean"
expect_exit 2 "batch: clean, missing" "$clean" does-not-exist.pcap
expect_exit 2 "batch: missing, error, clean" does-not-exist.pcap "$errors" "$clean"
expect_exit 2 "batch: missing, error, -j 4" -j 4 does-not-exist.pcap "$errors" "$clean"
# ... and still reports the inputs it could read.
run_dllpcheck does-not-exist.pcap "$errors"
expect_grep "$tmpdir/out" '^samples/overrun\.pcap: record 22 .* error fc\.credit\.overrun' "batch with a missing file: text report of the others"
expect_grep "$tmpdir/err" 'does-not-exist\.pcap: cannot open' "batch with a missing file: the error on standard error"
run_dllpcheck --format=json does-not-exist.pcap "$errors"
expect_grep "$tmpdir/out" '"rule":"fc\.credit\.overrun"' "batch with a missing file: JSON report of the others"
expect_grep "$tmpdir/out" '"exit_status":2\}\}$' "batch with a missing file: JSON exit_status 2"
run_dllpcheck --format=jsonl does-not-exist.pcap "$errors"
expect_grep "$tmpdir/out" '^\{"type":"finding",.*"rule":"fc\.credit\.overrun"' "batch with a missing file: JSON Lines of the others"
expect_grep "$tmpdir/out" '^\{"type":"batch",.*"exit_status":2\}$' "batch with a missing file: batch line exit_status 2"
run_dllpcheck --format=junit does-not-exist.pcap "$errors"
expect_grep "$tmpdir/out" '<failure type="fc\.credit\.overrun"' "batch with a missing file: JUnit of the others"

# ---------------------------------------------------------------- signature
# A finding's signature is what stays the same when the same fault shows in
# another capture: the overrun of samples/overrun.* has one signature in
# the pcap, the text trace and the export (their records, offsets and lines
# differ), and it names rule, link, port, VC and type.
sigs() { grep -o '"signature":"[^"]*"' "$tmpdir/out" | sort -u | tr '\n' ' '; }
run_dllpcheck --format=jsonl samples/overrun.pcap
want=$(sigs)
[ "$want" = '"signature":"fc.credit.overrun/0/up/0/PH" ' ] && pass || fail "overrun.pcap signatures: $want"
for f in samples/overrun.trace samples/overrun-export.csv; do
	run_dllpcheck --format=jsonl "$f"
	[ "$(sigs)" = "$want" ] && pass || fail "$f: signatures $(sigs), the pcap's: $want"
	run_dllpcheck --format=json "$f"
	[ "$(sigs)" = "$want" ] && pass || fail "$f JSON: signatures $(sigs), the pcap's: $want"
done
# a finding that names no VC or type: '-' in their place
run_dllpcheck --format=jsonl samples/crc-errors.pcap
expect_grep "$tmpdir/out" '"rule":"dllp\.crc".*"signature":"dllp\.crc/0/up/-/-"' "dllp.crc's signature has no VC or type"
finish
