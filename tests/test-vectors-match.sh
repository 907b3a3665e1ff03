#!/bin/sh
# tests/vectors/ holds verbatim copies of the project's golden vectors
# (shared/vectors/ beside the repository), so that the unit tests and
# 'make distcheck' find them.  Where shared/ is present, the copies must be
# byte-identical to it.
. "${srcdir:-.}/tests/test-subr.sh"
set -e
shared="$srcdir/../shared/vectors"
if [ ! -d "$shared" ]; then
	echo "SKIP: $shared not present (a release tarball): nothing to compare"
	exit 77
fi
for f in dllp_vectors.txt tlp_vectors.txt; do
	if cmp -s "$shared/$f" "$srcdir/tests/vectors/$f"; then pass; else
		fail "tests/vectors/$f differs from $shared/$f"
	fi
done
finish
