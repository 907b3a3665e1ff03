# test-subr.sh: helpers for the shell tests (sourced).
# Environment from Makefile.am: DLLPCHECK (the built program), srcdir
# (the source tree), VALGRIND (optional wrapper).
set -u
: "${DLLPCHECK:?DLLPCHECK must name the dllpcheck program}"
: "${srcdir:?srcdir must name the source tree}"
export LC_ALL=C TZ=UTC

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/dllpcheck-test.XXXXXX")
trap 'rm -rf "$tmpdir"' EXIT

failures=0
passes=0

pass() { passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# skip_viewer WHAT: a test whose work is an outside viewer reading
# dllpcheck's output (Chromium, tshark) skips (77) when
# DLLPCHECK_TEST_NO_VIEWERS is set: CI's sanitizer stage sets it, as the
# dllpcheck runs of those tests make the same outputs other tests make
# there, and the viewers run in make check and make distcheck.
skip_viewer() {
	if [ -n "${DLLPCHECK_TEST_NO_VIEWERS:-}" ]; then
		echo "SKIP: DLLPCHECK_TEST_NO_VIEWERS is set: $1"
		exit 77
	fi
}

# run_dllpcheck ARGS...: runs the program (under $VALGRIND if set),
# stdout to $tmpdir/out, stderr to $tmpdir/err, status in $status.
run_dllpcheck() {
	set +e
	${VALGRIND:-} "$DLLPCHECK" "$@" >"$tmpdir/out" 2>"$tmpdir/err"
	status=$?
	set -e
}

# expect_status N WHAT: checks $status.
expect_status() {
	if [ "$status" -eq "$1" ]; then pass; else
		fail "$2: exit status $status, expected $1"; sed 's/^/  stderr: /' "$tmpdir/err" | head -5
	fi
}

# expect_grep FILE PATTERN WHAT: FILE must contain PATTERN (grep -E).
expect_grep() {
	if grep -Eq -- "$2" "$1"; then pass; else fail "$3: '$2' not found in output"; fi
}

# compare_golden EXPECTED ACTUAL WHAT: diff, or regenerate with UPDATE_GOLDEN=1.
compare_golden() {
	if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$2" "$1"; echo "updated $1"; pass; return
	fi
	if diff -u "$1" "$2" >"$tmpdir/diff"; then pass; else
		fail "$3 differs from $1"; head -40 "$tmpdir/diff"
	fi
}

finish() {
	echo "$passes passed, $failures failed"
	[ "$failures" -eq 0 ] && [ "$passes" -gt 0 ]
}

# need_phy_ref: sets $ref to ../shared/vectors/phy_ref.py (the project's
# checked physical-layer reference, beside the repository, not in it), or
# skips the test (77) where it or python3 is absent (a release tarball, CI).
need_phy_ref() {
	ref="$srcdir/../shared/vectors/phy_ref.py"
	if [ ! -f "$ref" ]; then
		echo "SKIP: $ref not present (it is not part of the repository): nothing to compare"
		exit 77
	fi
	if ! command -v python3 >/dev/null 2>&1; then
		echo "SKIP: python3 is needed to run $ref"
		exit 77
	fi
}
