#!/usr/bin/env python3
"""txn-stats.py REPORT.json COUNTS: the transaction numbers of dllpcheck's
JSON report (--stats --format=json: links[].transactions.down/up, see
dllpcheck(1), JSON REPORTS) against the counts bench/gen printed (lines
"txn DIR requests N completed N outstanding N completions N messages N
max-latency-ns N kinds K=N ...", per direction of the requests).

Per direction: the requests by kind and their total, completed, still
outstanding at the end, completions sent back, none unmatched, all of
them SC, nothing ended by an epoch or timed out, and the longest latency
to the last completion the generator's.  Prints one line per difference;
exits 1 on any.
"""
import json
import sys


def find_transactions(obj, found):
    if isinstance(obj, dict):
        if "transactions" in obj:
            found.append(obj["transactions"])
        for v in obj.values():
            find_transactions(v, found)
    elif isinstance(obj, list):
        for v in obj:
            find_transactions(v, found)


def main():
    text = open(sys.argv[1]).read()
    docs = []
    try:
        docs.append(json.loads(text))
    except json.JSONDecodeError:
        docs = [json.loads(line) for line in text.splitlines() if line.strip()]
    found = []
    for d in docs:
        find_transactions(d, found)
    if len(found) != 1:
        raise SystemExit(f"{sys.argv[1]}: {len(found)} links with transactions, 1 expected")
    tl = found[0]
    bad = []
    for line in open(sys.argv[2]):
        w = line.split()
        d = w[1]
        gen = dict(zip(w[2:14:2], (int(x) for x in w[3:14:2])))
        kinds = {k: int(v) for k, v in (x.split("=") for x in w[w.index("kinds") + 1:])}
        got = tl.get(d)
        if got is None:
            bad.append(f"{d}: no transaction numbers")
            continue

        def same(what, want, have):
            if want != have:
                bad.append(f"{d}: {what}: generated {want}, the report says {have}")

        same("requests by kind", kinds, got.get("requests"))
        same("requests_total", gen["requests"], got.get("requests_total"))
        same("completed", gen["completed"], got.get("completed"))
        same("outstanding", gen["outstanding"], got.get("outstanding"))
        same("completions", gen["completions"], got.get("completions"))
        same("unmatched", 0, got.get("unmatched"))
        same("ended_by_epoch", 0, got.get("ended_by_epoch"))
        same("timed_out", 0, got.get("timed_out"))
        status = got.get("status", {})
        same("status SC", gen["completions"], status.get("SC"))
        last = got.get("latency_last_ps") or {}
        same("latency_last_ps count", gen["completed"], last.get("count"))
        if gen["completed"]:
            same("latency_last_ps max", gen["max-latency-ns"] * 1000, last.get("max"))
    for b in bad:
        print(b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
