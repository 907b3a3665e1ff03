#!/bin/sh
# The transaction layer's numbers of --stats, end to end: a small trace
# (tests/tl-stats/transactions.trace) through the transaction model, the
# text section and links[].transactions of the JSON summary; then the
# same trace ended by a link-down, with a completion nobody asked for,
# with a --cpl-timeout it outlives, and cut to begin mid-stream.  The
# latencies are exact in the trace; the medians are the middles of their
# histogram buckets (to within 1/16).
. "${srcdir:-.}/tests/test-subr.sh"
set -e

trace="$srcdir/tests/tl-stats/transactions.trace"
roles="--role down=root-port,up=endpoint"

# expect_line FILE LINE WHAT: FILE has LINE, exactly.
expect_line() {
	if grep -qxF -- "$2" "$1"; then pass; else
		fail "$3: no line '$2'"; grep -E 'port (down|up) +(sent [0-9]+ non|latency|received [0-9]+ compl)' "$1" | sed 's/^/  got: /'
	fi
}

# expect_json FILE WHAT PYTHON-DICT: links[0].transactions of the summary
# line of FILE (JSON Lines) has these values; a median given as
# ("~", V) must be within V/16 of V.
expect_json() {
	if python3 - "$1" "$3" >"$tmpdir/pyerr" 2>&1 <<'EOF'
import ast, json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
summary = [o for o in lines if o["type"] == "summary"][0]
got = summary["links"][0]["transactions"]
want = ast.literal_eval(sys.argv[2])
def walk(w, g, path):
    if isinstance(w, dict):
        for k, v in w.items():
            if not isinstance(g, dict) or k not in g:
                raise SystemExit("%s.%s missing" % (path, k))
            walk(v, g[k], path + "." + k)
    elif isinstance(w, tuple):
        if g is None or abs(g - w[1]) > w[1] / 16:
            raise SystemExit("%s is %r, not ~%d" % (path, g, w[1]))
    elif w != g:
        raise SystemExit("%s is %r, not %r" % (path, g, w))
walk(want, got, "transactions")
EOF
	then pass; else fail "$2: $(cat "$tmpdir/pyerr")"; fi
}

# --- the trace as it is: no finding -------------------------------------
# shellcheck disable=SC2086
run_dllpcheck $roles --stats "$trace"
expect_status 0 "transactions.trace"
out="$tmpdir/text"
cp "$tmpdir/out" "$out"
expect_line "$out" "    port down sent 4 non-posted requests: 3 MRd, 1 CfgRd0; completed 3, outstanding at the end 1, most at once 4" "port D's requests"
# (the medians are the middles of their histogram buckets: 1.9 us is in
# [1835008, 1966080) ps, 2.9 us in [2883584, 3145728) ps)
expect_line "$out" "    port down latency to the first completion min 0.000001000000s median ~0.000001900544s max 0.000003800000s; to the last min 0.000001000000s median ~0.000003014656s max 0.000003800000s" "port D's latencies"
expect_line "$out" "    port down received 4 completions for its requests: 3 SC, 1 UR" "port D's completions"
expect_line "$out" "    port up   sent 1 non-posted request: 1 MRd; completed 1, outstanding at the end 0, most at once 1" "port U's requests"
expect_line "$out" "    port up   latency to the first completion min 0.000001000000s median ~0.000001000000s max 0.000001000000s; to the last min 0.000001000000s median ~0.000001000000s max 0.000001000000s" "port U's latencies"
expect_line "$out" "    port up   received 1 completion for its requests: 1 SC" "port U's completions"
# without --stats, no section
# shellcheck disable=SC2086
run_dllpcheck $roles "$trace"
if grep -q 'non-posted' "$tmpdir/out"; then fail "the transaction section without --stats"; else pass; fi

# shellcheck disable=SC2086
run_dllpcheck $roles --stats --format=jsonl "$trace"
expect_status 0 "transactions.trace --format=jsonl"
expect_json "$tmpdir/out" "links[0].transactions" '{
 "down": {"requests": {"MRd": 3, "CfgRd0": 1}, "requests_total": 4, "completed": 3,
          "ended_by_epoch": 0, "timed_out": 0, "outstanding": 1, "outstanding_max": 4,
          "latency_first_ps": {"count": 3, "min": 1000000, "median": ("~", 1900000), "max": 3800000},
          "latency_last_ps": {"count": 3, "min": 1000000, "median": ("~", 2900000), "max": 3800000},
          "completions": 4, "unmatched": 0,
          "status": {"SC": 3, "UR": 1, "CRS": 0, "CA": 0, "other": 0}, "requesters_untracked": 0},
 "up": {"requests": {"MRd": 1}, "requests_total": 1, "completed": 1, "outstanding": 0,
        "outstanding_max": 1,
        "latency_first_ps": {"count": 1, "min": 1000000, "median": 1000000, "max": 1000000},
        "latency_last_ps": {"count": 1, "min": 1000000, "median": 1000000, "max": 1000000},
        "completions": 1, "unmatched": 0, "status": {"SC": 1, "UR": 0}}}'
# the --format=json document carries the same
# shellcheck disable=SC2086
run_dllpcheck $roles --stats --format=json "$trace"
expect_grep "$tmpdir/out" '"transactions":\{"down":\{"requests":\{"MRd":3,"CfgRd0":1\},"requests_total":4,"completed":3,' "--format=json transactions"

# --- a link-down ends the CfgRd0 unanswered, without a finding ----------
cp "$trace" "$tmpdir/down.trace"
echo "8us      down EVENT link-down" >>"$tmpdir/down.trace"
# shellcheck disable=SC2086
run_dllpcheck $roles --stats "$tmpdir/down.trace"
expect_status 0 "a link-down"
expect_line "$tmpdir/out" "    port down sent 4 non-posted requests: 3 MRd, 1 CfgRd0; completed 3, ended unanswered by a new epoch 1, outstanding at the end 0, most at once 4" "a link-down: port D's requests"
# shellcheck disable=SC2086
run_dllpcheck $roles --stats --format=jsonl "$tmpdir/down.trace"
expect_json "$tmpdir/out" "a link-down" '{"down": {"ended_by_epoch": 1, "outstanding": 0, "completed": 3}}'

# --- a completion for a tag never requested ------------------------------
cp "$trace" "$tmpdir/unexpected.trace"
echo "8us      up   TLP CplD seq=5 len=1 req=0000 tag=9 completer=0100 bc=4 la=0" >>"$tmpdir/unexpected.trace"
# shellcheck disable=SC2086
run_dllpcheck $roles --stats "$tmpdir/unexpected.trace"
expect_status 1 "an unexpected completion"
expect_grep "$tmpdir/out" 'error tlp\.cpl\.unexpected' "an unexpected completion is reported"
expect_line "$tmpdir/out" "    port down received 5 completions for its requests: 4 SC, 1 UR; 1 matched no outstanding request" "an unexpected completion: port D's completions"
# shellcheck disable=SC2086
run_dllpcheck $roles --stats --format=jsonl "$tmpdir/unexpected.trace"
expect_json "$tmpdir/out" "an unexpected completion" '{"down": {"completions": 5, "unmatched": 1, "completed": 3, "status": {"SC": 4, "UR": 1}}}'

# --- the CfgRd0 outlives a 5 us completion timeout ------------------------
# shellcheck disable=SC2086
run_dllpcheck $roles --stats --cpl-timeout 5 "$trace"
expect_status 0 "--cpl-timeout 5 (a warning)"
expect_grep "$tmpdir/out" 'warning tlp\.cpl\.timeout' "--cpl-timeout 5 reports the CfgRd0"
expect_line "$tmpdir/out" "    port down sent 4 non-posted requests: 3 MRd, 1 CfgRd0; completed 3, outstanding at the end 1, most at once 4; timed out (tlp.cpl.timeout) 1" "--cpl-timeout 5: port D's requests"
# shellcheck disable=SC2086
run_dllpcheck $roles --stats --cpl-timeout 5 --format=jsonl "$trace"
expect_json "$tmpdir/out" "--cpl-timeout 5" '{"down": {"timed_out": 1, "outstanding": 1}, "up": {"timed_out": 0}}'

# --- mid-stream (no link-up, no InitFC): counted, and said not judged ----
grep -v 'EVENT link-up\|InitFC' "$trace" >"$tmpdir/mid.trace"
run_dllpcheck --stats "$tmpdir/mid.trace"
expect_status 0 "mid-stream"
expect_line "$tmpdir/out" "    port down sent 4 non-posted requests: 3 MRd, 1 CfgRd0; completed 3, outstanding at the end 1, most at once 4" "mid-stream: port D's requests"
expect_grep "$tmpdir/out" '^    partial: port down: 8 of its requests and of the completions for them came while the transaction state was unknown' "mid-stream: port D's partial line"
expect_grep "$tmpdir/out" '^    partial: port up: 2 of its requests' "mid-stream: port U's partial line"
run_dllpcheck --stats --format=jsonl "$tmpdir/mid.trace"
expect_json "$tmpdir/out" "mid-stream" '{"down": {"while_unknown": 8, "requests_total": 4}, "up": {"while_unknown": 2}}'
# a capture from the start says nothing of the kind
run_dllpcheck --stats "$trace"
if grep -q 'partial: port' "$tmpdir/out"; then fail "a partial: port line for a capture seen from its link-up"; else pass; fi

finish
