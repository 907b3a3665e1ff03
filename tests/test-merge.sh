#!/bin/sh
# The GNU parallel recipe of dllpcheck(1), DISTRIBUTED RUNS, run on this
# machine (parallel -j2, no ssh): the samples' JSON Lines parts written by
# parallel jobs, one part per capture and one part of all the jobs' output
# (-k), then --merge: the report must be what one run over the captures
# prints, in each format, with its exit status.  And the recipes of
# contrib/ that cannot run here (Slurm, the CI examples): their shell is
# checked with bash -n.  Skipped (77) without GNU parallel (Debian package
# parallel).
. "${srcdir:-.}/tests/test-subr.sh"
set -e
cd "$srcdir"

# the contrib shell scripts parse (whether or not parallel is here)
if command -v bash >/dev/null 2>&1; then
	for f in contrib/slurm/dllpcheck-array.sbatch contrib/slurm/dllpcheck-merge.sbatch \
		contrib/slurm/submit.sh; do
		if bash -n "$f" 2>"$tmpdir/bash-n"; then pass; else
			fail "bash -n $f: $(head -1 "$tmpdir/bash-n")"
		fi
	done
fi

if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
	echo "SKIP: GNU parallel is not installed (Debian package parallel): the recipe cannot run"
	exit 77
fi

set -- samples/*.pcap samples/*.trace samples/*.csv tests/scenarios/fc.credit.overrun/*.trace
mkdir "$tmpdir/parts"
export DLLPCHECK
# one part per capture, numbered by its place (the shell glob sorts them)
parallel --will-cite -j2 '"$DLLPCHECK" --format=jsonl {} > '"$tmpdir"'/parts/$(printf %04d {#}).jsonl' \
	::: "$@" || true
# one part: every job's output in the order of the captures (-k)
parallel --will-cite -j2 -k '"$DLLPCHECK" --format=jsonl {}' ::: "$@" >"$tmpdir/all.jsonl" || true
[ "$(ls "$tmpdir/parts" | wc -l)" -eq "$#" ] && pass || fail "parallel wrote $(ls "$tmpdir/parts" | wc -l) parts for $# captures"

for fmt in text json jsonl junit; do
	set +e
	"$DLLPCHECK" --format=$fmt "$@" >"$tmpdir/single" 2>/dev/null
	want=$?
	set -e
	for merged in parts all; do
		case $merged in
		parts) run_dllpcheck --merge --format=$fmt "$tmpdir"/parts/*.jsonl ;;
		all) run_dllpcheck --merge --format=$fmt "$tmpdir/all.jsonl" ;;
		esac
		expect_status "$want" "parallel then --merge --format=$fmt ($merged)"
		if cmp -s "$tmpdir/single" "$tmpdir/out"; then pass; else
			fail "parallel then --merge --format=$fmt ($merged) differs from one run"
			diff "$tmpdir/single" "$tmpdir/out" | head -5
		fi
	done
done
finish
