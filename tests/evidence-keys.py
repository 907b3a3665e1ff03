#!/usr/bin/env python3
"""evidence-keys.py RULES_DEF JSONL: checks the findings of a JSONL report
(the scenarios, collected by tests/test-evidence.sh) against the evidence
keys that src/core/rules.def lists for each rule:
  - every key of a finding is listed for its rule;
  - every listed key is used by some finding, unless it is marked optional
    (a trailing '?'), and no key marked optional is used (a stale mark).
Prints one line per problem and exits 1 when there is any."""
import json
import re
import sys


def read_catalogue(path):
    """rule id -> (keys in order, set of optional keys), from the RULE(...)
    entries: the id is the second argument, the keys the last."""
    text = open(path, encoding="utf-8").read()
    # drop the comments: the header's table names keys too
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    rules = {}
    for m in re.finditer(r"RULE\((.*?)\)\s*$", text, flags=re.S | re.M):
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))
        if len(strings) != 4:
            sys.exit(f"rules.def: cannot read the entry {m.group(0)[:60]!r}")
        rule_id, keys = strings[0], strings[3].split()
        rules[rule_id] = ([k.rstrip("?") for k in keys],
                          {k.rstrip("?") for k in keys if k.endswith("?")})
    return rules


def main():
    rules = read_catalogue(sys.argv[1])
    used = {r: set() for r in rules}
    problems = []
    findings = 0
    with open(sys.argv[2], encoding="utf-8") as fp:
        for n, line in enumerate(fp, 1):
            obj = json.loads(line)
            if obj.get("type") != "finding":
                continue
            findings += 1
            rule = obj["rule"]
            if rule not in rules:
                problems.append(f"line {n}: rule {rule} is not in rules.def")
                continue
            listed = rules[rule][0]
            for key in obj["evidence"]:
                if key not in listed:
                    problems.append(f"{rule}: evidence key '{key}' is not listed "
                                    f"(record {obj['record']} of {obj['file']})")
                used[rule].add(key)
    for rule, (listed, optional) in rules.items():
        for key in listed:
            if key in optional and key in used[rule]:
                problems.append(f"{rule}: key '{key}' is marked optional ('?') "
                                "but a scenario uses it: drop the '?'")
            elif key not in optional and key not in used[rule]:
                problems.append(f"{rule}: listed key '{key}' is used by no finding "
                                "of the scenarios (add a case, or mark it '?')")
    for p in problems:
        print(p)
    print(f"{findings} findings checked against the evidence keys of {len(rules)} rules")
    if findings == 0:
        print("no findings read")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
