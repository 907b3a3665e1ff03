#!/bin/sh
# Scenario tests: a directory per rule, tests/scenarios/RULE-ID/, holding
#   fire.trace      a short trace that must fire RULE-ID and nothing else
#                   (or fire.pcap, for what a text trace cannot express)
#   fire.expected   the finding lines it must give, exactly
#   miss.trace      a near miss that must not fire RULE-ID
#   miss.expected   the finding lines it must give (usually none)
#   args            optional: extra command-line options for both traces
# A new case is just a new directory.  UPDATE_GOLDEN=1 rewrites the
# .expected files (review the diff).
. "${srcdir:-.}/tests/test-subr.sh"
set -e

count=0
for dir in "$srcdir"/tests/scenarios/*/; do
	rule=$(basename "$dir")
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	for case in fire miss; do
		input="$case.trace"
		[ -f "$dir/$input" ] || input="$case.pcap"
		if [ ! -f "$dir/$input" ]; then
			fail "$rule: no $case.trace or $case.pcap"
			continue
		fi
		cd "$dir"
		# shellcheck disable=SC2086
		run_dllpcheck $args --fail-on info "$input"
		cd - >/dev/null
		[ "$status" -le 1 ] && pass || fail "$rule/$case: exit status $status"
		# finding lines only: the summary starts with "==" or spaces
		grep -v -e '^==' -e '^ ' "$tmpdir/out" >"$tmpdir/findings" || true
		compare_golden "$dir/$case.expected" "$tmpdir/findings" "$rule/$case"
		rules_fired=$(sed -n 's/^[^ ]*: record [0-9]*[^:]*:.* \(error\|warning\|info\) \([a-z0-9.-]*\): .*/\2/p' "$tmpdir/findings" | sort -u)
		if [ "$case" = fire ]; then
			if [ "$rules_fired" = "$rule" ]; then pass; else
				fail "$rule/$input fires [$(echo $rules_fired)], expected exactly $rule"
			fi
			# fired means exit status 1 with --fail-on info
			[ "$status" -eq 1 ] && pass || fail "$rule/fire: exit status $status, expected 1"
		else
			if echo "$rules_fired" | grep -qx -- "$rule"; then
				fail "$rule/$input fires $rule"
			else pass; fi
		fi
	done
	count=$((count + 1))
done
[ "$count" -gt 0 ] && pass || fail "no scenarios found"
echo "$count scenarios"
finish
