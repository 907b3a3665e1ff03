#!/bin/sh
# Scenario tests: a directory per rule, tests/scenarios/RULE-ID/, holding
#   fire.trace      a short trace that must fire RULE-ID and nothing else
#                   (or fire.pcap, for what a text trace cannot express)
#   fire.expected   the finding lines it must give, exactly
#   miss.trace      a near miss that must not fire RULE-ID
#   miss.expected   the finding lines it must give (usually none)
#   args            optional: extra command-line options for every case
#   CASE.args       optional: the options for that case alone (instead)
#   fire-NAME.trace, miss-NAME.trace (or .pcap), with NAME.expected beside:
#                   more cases of the same rule; a fire-NAME case must fire
#                   RULE-ID (others may fire too: the .expected pins them all),
#                   a miss-NAME case must not
# A new case is just a new directory or file.  UPDATE_GOLDEN=1 rewrites the
# .expected files (review the diff).
. "${srcdir:-.}/tests/test-subr.sh"
set -e

count=0
for dir in "$srcdir"/tests/scenarios/*/; do
	rule=$(basename "$dir")
	args=""
	[ -f "$dir/args" ] && args=$(cat "$dir/args")
	for case in fire miss; do
		[ -f "$dir/$case.trace" ] || [ -f "$dir/$case.pcap" ] ||
			fail "$rule: no $case.trace or $case.pcap"
	done
	for input_path in "$dir"/fire.trace "$dir"/fire.pcap "$dir"/miss.trace "$dir"/miss.pcap \
	                  "$dir"/fire-*.trace "$dir"/fire-*.pcap "$dir"/miss-*.trace "$dir"/miss-*.pcap; do
		[ -f "$input_path" ] || continue
		input=$(basename "$input_path")
		case=${input%.*}
		case_args=$args
		[ -f "$dir/$case.args" ] && case_args=$(cat "$dir/$case.args")
		cd "$dir"
		# shellcheck disable=SC2086
		run_dllpcheck $case_args --fail-on info "$input"
		cd - >/dev/null
		[ "$status" -le 1 ] && pass || fail "$rule/$case: exit status $status"
		# finding lines only: the summary starts with "==" or spaces
		grep -v -e '^==' -e '^ ' "$tmpdir/out" >"$tmpdir/findings" || true
		compare_golden "$dir/$case.expected" "$tmpdir/findings" "$rule/$case"
		rules_fired=$(sed -n 's/^[^ ]*: record [0-9]*[^:]*:.* \(error\|warning\|info\) \([a-z0-9.-]*\): .*/\2/p' "$tmpdir/findings" | sort -u)
		case $case in
		fire)
			if [ "$rules_fired" = "$rule" ]; then pass; else
				fail "$rule/$input fires [$(echo $rules_fired)], expected exactly $rule"
			fi
			# fired means exit status 1 with --fail-on info
			[ "$status" -eq 1 ] && pass || fail "$rule/fire: exit status $status, expected 1"
			;;
		fire-*)
			if echo "$rules_fired" | grep -qx -- "$rule"; then pass; else
				fail "$rule/$input fires [$(echo $rules_fired)], not $rule"
			fi
			;;
		*)
			if echo "$rules_fired" | grep -qx -- "$rule"; then
				fail "$rule/$input fires $rule"
			else pass; fi
			;;
		esac
	done
	count=$((count + 1))
done
[ "$count" -gt 0 ] && pass || fail "no scenarios found"
echo "$count scenarios"
finish
