#!/bin/sh
# Evidence keys are part of the contract (src/core/rules.def): every
# scenario input under tests/scenarios/ is run as tests/test-scenarios.sh
# runs it (its directory's args, or CASE.args instead), with
# --format=jsonl --fail-on info, and tests/evidence-keys.py checks that
#   - every finding's evidence keys are among its rule's listed keys;
#   - every listed key is used by at least one finding of the scenarios,
#     unless rules.def marks it optional ('?'), and no optional key is:
#     a '?' on a key the scenarios reach is stale.
. "${srcdir:-.}/tests/test-subr.sh"
set -e

if ! command -v python3 >/dev/null 2>&1; then
	echo "FAIL: python3 is missing; this test needs it (apt-get install python3)"
	exit 1
fi

: >"$tmpdir/all.jsonl"
inputs=0
for dir in "$srcdir"/tests/scenarios/*/; do
	rule=$(basename "$dir")
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	for input_path in "$dir"/*.trace "$dir"/*.pcap; do
		[ -f "$input_path" ] || continue
		input=$(basename "$input_path")
		case=${input%.*}
		case_args=$args
		[ -f "$dir/$case.args" ] && case_args=$(cat "$dir/$case.args")
		cd "$dir"
		# shellcheck disable=SC2086
		run_dllpcheck $case_args --format=jsonl --fail-on info "$input"
		cd - >/dev/null
		[ "$status" -le 1 ] && pass || fail "$rule/$case: exit status $status"
		cat "$tmpdir/out" >>"$tmpdir/all.jsonl"
		inputs=$((inputs + 1))
	done
done
[ "$inputs" -gt 0 ] && pass || fail "no scenario inputs found"

if python3 "$srcdir/tests/evidence-keys.py" "$srcdir/src/core/rules.def" \
	"$tmpdir/all.jsonl" >"$tmpdir/py.out" 2>&1; then
	pass
else
	fail "evidence keys disagree with src/core/rules.def"
fi
sed 's/^/  /' "$tmpdir/py.out"
echo "$inputs scenario inputs"
finish
