#!/bin/sh
# The JSON reports validate against the JSON Schemas shipped in schema/:
# --format=json against dllpcheck-report.schema.json, every line of
# --format=jsonl against dllpcheck-jsonl.schema.json, every line of
# --decode --format=jsonl against dllpcheck-decode.schema.json; on the
# samples, the golden traces and every scenario, with and without --stats,
# one input and many, and inputs that cannot be read.  The counts in the
# reports must also agree with each other (validate-json.py --check-counts).
# Needs python3 with jsonschema (Debian: python3-jsonschema); without them
# the test fails: it does not skip.
. "${srcdir:-.}/tests/test-subr.sh"
set -e

if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL: python3 is missing; this test needs python3 and python3-jsonschema (apt-get install python3 python3-jsonschema)"
	exit 1
fi
if ! python3 -c 'from jsonschema import Draft202012Validator' 2>"$tmpdir/err"; then
	echo "FAIL: the Python module jsonschema (4.0 or later, for draft 2020-12) is missing; install the Debian package python3-jsonschema"
	sed 's/^/  /' "$tmpdir/err" | tail -2
	exit 1
fi

schemadir="$srcdir/schema"
validator="$srcdir/tests/validate-json.py"
: >"$tmpdir/types"

# The checks are collected in $tmpdir/checks and run by one Python at the
# end (starting Python and jsonschema takes long).
mkdir "$tmpdir/v"
: >"$tmpdir/checks"
nchecks=0

# check valid|invalid SCHEMA FILE WHAT [OPTION...]: FILE must (or must not)
# validate against schema/dllpcheck-SCHEMA.schema.json; OPTIONs
# (--lines, --check-counts) go to validate-json.py.
check() {
	c_expect=$1 c_schema=$2 c_what=$4
	nchecks=$((nchecks + 1))
	cp "$3" "$tmpdir/v/$nchecks"
	shift 4
	c_opts=$(echo "${*:--}" | tr ' ' ,)
	printf '%s\t%s\t%s\t%s\t%s\n' "$c_expect" "$schemadir/dllpcheck-$c_schema.schema.json" \
		"$tmpdir/v/$nchecks" "$c_opts" "$c_what" >>"$tmpdir/checks"
	# remember which line types were seen
	[ "$c_expect" = invalid ] || sed -n 's/^{"type":"\([a-z]*\)".*/\1/p' "$tmpdir/v/$nchecks" | sort -u >>"$tmpdir/types"
}
validate() { check valid "$@"; }
reject() { check invalid "$@"; }

# run_ok WHAT ARGS...: runs dllpcheck; exit status 0 or 1 (findings) only.
run_ok() {
	r_what=$1
	shift
	run_dllpcheck "$@"
	if [ "$status" -le 1 ]; then pass; else
		fail "$r_what: exit status $status"; sed 's/^/  stderr: /' "$tmpdir/err" | head -5
	fi
}

# The schemas are valid draft 2020-12 schemas, and the definitions the
# report and the JSON Lines schema share are the same in both.
if python3 - "$schemadir" >"$tmpdir/verr" 2>&1 <<'EOF'
import json, sys
from jsonschema import Draft202012Validator
d = sys.argv[1]
s = {}
for name in ("report", "jsonl", "decode"):
    with open("%s/dllpcheck-%s.schema.json" % (d, name)) as f:
        s[name] = json.load(f)
    Draft202012Validator.check_schema(s[name])
    assert s[name]["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
common = set(s["report"]["$defs"]) & set(s["jsonl"]["$defs"])
for key in ("finding_fields", "input_fields", "input_error_fields", "counts", "link"):
    assert key in common, "%s not in both schemas" % key
for key in sorted(common):
    assert s["report"]["$defs"][key] == s["jsonl"]["$defs"][key], \
        "$defs/%s differs between dllpcheck-report and dllpcheck-jsonl" % key
EOF
then pass; else fail "the schemas"; sed 's/^/  /' "$tmpdir/verr" | tail -5; fi

# Every input on its own: the samples (pcap and text), the golden decode
# traces, each scenario's fire and miss cases (with its args).
set --
for f in "$srcdir"/samples/*.pcap "$srcdir"/samples/*.trace "$srcdir"/tests/golden/*.trace; do
	set -- "$@" "$f"
done
for f in "$@"; do
	name=${f#"$srcdir"/}
	for stats in "" --stats; do
		# shellcheck disable=SC2086
		run_ok "json $stats $name" $stats --format=json "$f"
		validate report "$tmpdir/out" "--format=json $stats $name" --check-counts
		# shellcheck disable=SC2086
		run_ok "jsonl $stats $name" $stats --format=jsonl "$f"
		validate jsonl "$tmpdir/out" "--format=jsonl $stats $name" --lines --check-counts
	done
	run_ok "decode $name" --decode --format=jsonl "$f"
	validate decode "$tmpdir/out" "--decode --format=jsonl $name" --lines
done

scenarios=""
for dir in "$srcdir"/tests/scenarios/*/; do
	rule=$(basename "$dir")
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	for case in fire miss; do
		input="$dir$case.trace"
		[ -f "$input" ] || input="$dir$case.pcap"
		[ -f "$input" ] || continue
		[ "$case" = fire ] && [ -z "$args" ] && scenarios="$scenarios $input"
		# shellcheck disable=SC2086
		run_ok "json $rule/$case" $args --fail-on info --stats --format=json "$input"
		validate report "$tmpdir/out" "--format=json --stats $rule/$case" --check-counts
		# shellcheck disable=SC2086
		run_ok "jsonl $rule/$case" $args --fail-on info --format=jsonl "$input"
		validate jsonl "$tmpdir/out" "--format=jsonl $rule/$case" --lines --check-counts
		run_ok "decode $rule/$case" --decode --format=jsonl "$input"
		validate decode "$tmpdir/out" "--decode --format=jsonl $rule/$case" --lines
	done
done

# Many inputs at once, in order and in parallel: one document; JSON Lines
# with a batch line at the end.
# shellcheck disable=SC2086
for jobs in 1 4; do
	run_ok "json -j $jobs" -j "$jobs" --fail-on info --format=json "$@" $scenarios
	validate report "$tmpdir/out" "--format=json -j $jobs over all inputs" --check-counts
	run_ok "jsonl -j $jobs" -j "$jobs" --fail-on info --stats --format=jsonl "$@" $scenarios
	validate jsonl "$tmpdir/out" "--format=jsonl -j $jobs over all inputs" --lines --check-counts
	expect_grep "$tmpdir/out" '^\{"type":"batch",' "--format=jsonl -j $jobs ends with a batch line"
	run_ok "decode -j $jobs" -j "$jobs" --decode --format=jsonl "$@"
	validate decode "$tmpdir/out" "--decode --format=jsonl -j $jobs over all inputs" --lines
done

# Inputs that cannot be read: an error entry in the document, an error
# line in JSON Lines; the others are still reported; exit status 2.
printf '\324\303\262\241\002\000\004\000\000\000\000\000\000\000\000\000\377\377\000\000\001\000\000\000' >"$tmpdir/eth.pcap"
: >"$tmpdir/empty.trace"
for bad in "$tmpdir/missing.pcap" "$tmpdir/eth.pcap" "$tmpdir/empty.trace" "$tmpdir"; do
	run_dllpcheck --format=json "$bad"
	expect_status 2 "--format=json on unreadable $bad"
	validate report "$tmpdir/out" "--format=json on unreadable $bad" --check-counts
	expect_grep "$tmpdir/out" '"error":"' "--format=json: error entry for $bad"
	run_dllpcheck --format=jsonl "$bad"
	expect_status 2 "--format=jsonl on unreadable $bad"
	validate jsonl "$tmpdir/out" "--format=jsonl on unreadable $bad" --lines --check-counts
done
run_dllpcheck --format=json "$srcdir/samples/overrun.pcap" "$tmpdir/missing.pcap" "$srcdir/samples/clean-init.trace"
expect_status 2 "--format=json with a missing input"
validate report "$tmpdir/out" "--format=json with a missing input" --check-counts
expect_grep "$tmpdir/out" '"fc.credit.overrun"' "--format=json reports the readable inputs too"
run_dllpcheck -j 4 --format=jsonl "$srcdir/samples/overrun.pcap" "$tmpdir/missing.pcap" "$srcdir/samples/clean-init.trace"
expect_status 2 "--format=jsonl with a missing input"
validate jsonl "$tmpdir/out" "--format=jsonl with a missing input" --lines --check-counts
expect_grep "$tmpdir/out" '^\{"type":"error","file":"[^"]*missing\.pcap"' "--format=jsonl error line"
expect_grep "$tmpdir/out" '"exit_status":2\}$' "--format=jsonl batch exit status 2"

# --with-charts: the page's charts as lines, between an input's findings
# and its summary; the error line of an input that opened names its format
printf 'not a capture\n' >"$tmpdir/unreadable.trace"
# shellcheck disable=SC2086
run_dllpcheck -j 2 --with-charts --fail-on info --format=jsonl "$@" $scenarios "$tmpdir/unreadable.trace" "$tmpdir/missing.pcap"
expect_status 2 "--with-charts --format=jsonl"
validate jsonl "$tmpdir/out" "--with-charts --format=jsonl over all inputs" --lines --check-counts
expect_grep "$tmpdir/out" '^\{"type":"error","file":"[^"]*unreadable\.trace","error":"[^"]*","format":"text"' "--with-charts: the error line's format"
grep -v '"type":"summary"' "$tmpdir/out" | grep '"type":"chart"' | head -1 | sed 's/"bucket_ps":[0-9]*/"bucket_ps":0/' >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "a chart line with a bucket of 0 ps" --lines

# Every line type was seen (so that each part of the schemas was used).
for t in finding summary error batch record malformed charts chart; do
	if grep -qx "$t" "$tmpdir/types"; then pass; else fail "no \"type\":\"$t\" line was validated"; fi
done

# The validator rejects what breaks the contract, so this test can fail.
run_dllpcheck --format=jsonl "$srcdir/samples/crc-errors.pcap"
cp "$tmpdir/out" "$tmpdir/good.jsonl"
sed '1s/"severity":"error"/"severity":"fatal"/' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "a finding with severity fatal" --lines
sed '1s/"port":"up",//' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "a finding without port" --lines
sed '1s/"rule":"dllp.crc"/"rule":"DLLP CRC"/' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "a rule id that is no rule id" --lines
sed '1s/"type":"finding"/"type":"warning"/' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "an unknown line type" --lines
sed '1d' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "a summary that counts a finding not reported" --lines --check-counts
run_dllpcheck --format=json "$srcdir/samples/overrun.pcap"
sed 's/"credit_type":"PH"/"credit_type":"XH"/' "$tmpdir/out" >"$tmpdir/bad.json"
reject report "$tmpdir/bad.json" "a finding with credit type XH"
sed 's/"findings":\[/"findings":[{"file":"x"},/' "$tmpdir/out" >"$tmpdir/bad.json"
reject report "$tmpdir/bad.json" "a finding with only a file"
sed 's/,"summary":{"by_severity[^}]*},"by_rule":{[^}]*},"inputs":1,"exit_status":1}}$/}/' "$tmpdir/out" >"$tmpdir/bad.json"
reject report "$tmpdir/bad.json" "a document without summary"
head -c 200 "$tmpdir/out" >"$tmpdir/bad.json"
reject report "$tmpdir/bad.json" "a cut-off document"
# The transactions of --stats (links[].transactions): the schema and the
# count checks see them.
run_dllpcheck --stats --format=jsonl "$srcdir/samples/overrun.trace"
cp "$tmpdir/out" "$tmpdir/good.jsonl"
expect_grep "$tmpdir/good.jsonl" '"transactions":{"down":{"requests":{' "--stats --format=jsonl has links[].transactions"
sed 's/"outstanding_max":0/"outstanding_max":-1/' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "transactions with outstanding_max -1" --lines
sed 's/,"status":{[^}]*}//' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "transactions without status" --lines
sed 's/"requests_total":0/"requests_total":1/' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "transactions whose requests_total is not the sum by type" --lines --check-counts
sed 's/"completions":0/"completions":1/' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "transactions whose completions are not the sum by status" --lines --check-counts
sed 's/"latency_first_ps":{"count":0,"min":null,"median":null,"max":null}/"latency_first_ps":{"count":1,"min":5,"median":4,"max":6}/' "$tmpdir/good.jsonl" >"$tmpdir/bad.jsonl"
reject jsonl "$tmpdir/bad.jsonl" "a latency whose median is below its min" --lines --check-counts
run_dllpcheck --decode --format=jsonl "$srcdir/samples/overrun.trace"
sed '2s/"direction":"down"/"direction":"sideways"/' "$tmpdir/out" >"$tmpdir/bad.jsonl"
reject decode "$tmpdir/bad.jsonl" "a record with direction sideways" --lines
sed '2s/,"dllp":{.*}}$/}/' "$tmpdir/out" >"$tmpdir/bad.jsonl"
reject decode "$tmpdir/bad.jsonl" "a DLLP record without its dllp object" --lines

set +e
python3 "$validator" --batch "$tmpdir/checks" >"$tmpdir/results" 2>"$tmpdir/err"
set -e
while IFS= read -r line; do
	case $line in
	ok:*) pass ;;
	*) fail "${line#FAIL: }" ;;
	esac
done <"$tmpdir/results"
n=$(wc -l <"$tmpdir/results")
if [ "$n" -eq "$nchecks" ]; then pass; else
	fail "validate-json.py --batch gave $n results for $nchecks checks"; sed 's/^/  /' "$tmpdir/err" | tail -5
fi
finish
