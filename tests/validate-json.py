#!/usr/bin/env python3
"""validate-json.py: checks dllpcheck's JSON output against a JSON Schema
(draft 2020-12) with the jsonschema package (Debian: python3-jsonschema).

  validate-json.py [--lines] [--check-counts] SCHEMA FILE
  validate-json.py --batch LIST

FILE holds one JSON document, or with --lines JSON Lines (one object per
line, each validated on its own).  The input must be UTF-8 and plain JSON:
no duplicate keys, no NaN or Infinity.  With --check-counts the counts are
also checked against each other: per input, the findings against its
summary; the run's totals against the inputs; the batch line against the
inputs' lines.  Exits 0 if all is well, 1 with the first error, 2 on a
usage error or when jsonschema is missing.

With --batch, each line of LIST is a check, tab-separated:
  EXPECT SCHEMA FILE OPTIONS WHAT
EXPECT is "valid" or "invalid", OPTIONS "-" or a comma-separated list of
--lines and --check-counts.  One line is printed per check, "ok: WHAT" or
"FAIL: WHAT: why"; exits 1 if any check failed.  (One Python for many
files: starting Python and jsonschema is slow.)
"""
import json
import sys
from collections import Counter

try:
    import jsonschema
except ImportError:
    sys.stderr.write("validate-json.py: the Python module jsonschema is missing "
                     "(Debian/Ubuntu: apt-get install python3-jsonschema)\n")
    sys.exit(2)


class Invalid(Exception):
    pass


def no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise Invalid("duplicate key %r" % key)
        seen[key] = value
    return seen


def no_constant(name):
    raise Invalid("%s is not JSON" % name)


def parse(text):
    return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)


def where(error):
    path = "".join("[%s]" % json.dumps(p) for p in error.absolute_path)
    return path or "(top level)"


def explain(errors):
    """The error to report.  For a oneOf over line types, the error of the
    branch whose "type" matched, rather than "not valid under any of the
    given schemas"."""
    error = next((e for e in errors if e.validator == "oneOf" and e.context), None)
    if error is None:
        return jsonschema.exceptions.best_match(errors)
    while error.validator == "oneOf" and error.context:
        branches = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        wrong = [e for e in error.context if list(e.relative_path) == ["type"] and e.validator == "const"]
        wrong_branches = {e.relative_schema_path[0] for e in wrong}
        matching = [errs for b, errs in branches.items() if b not in wrong_branches]
        if not matching and len(wrong_branches) == len(error.validator_value):
            types = ", ".join(json.dumps(e.validator_value) for e in wrong)
            error.message = "type %s is none of %s" % (json.dumps(error.instance.get("type")), types)
            return error
        if len(matching) != 1:
            break
        error = jsonschema.exceptions.best_match(matching[0])
    return error


def validate(validator, value, what):
    errors = list(validator.iter_errors(value))
    if errors:
        best = explain(errors)
        message = best.message if len(best.message) < 400 else best.message[:200] + " ... " + best.message[-150:]
        raise Invalid("%s: %s: %s" % (what, where(best), message))


def counts_of(findings):
    by_severity = Counter({"info": 0, "warning": 0, "error": 0})
    by_rule = Counter()
    for f in findings:
        by_severity[f["severity"]] += 1
        by_rule[f["rule"]] += 1
    return dict(by_severity), dict(by_rule)


def check_input(entry, findings, what):
    sev, rule = counts_of(findings)
    summary = entry["summary"]
    if sev != {k: summary["by_severity"][k] for k in sev}:
        raise Invalid("%s: findings by severity %s, summary says %s" % (what, sev, summary["by_severity"]))
    if rule != summary["by_rule"]:
        raise Invalid("%s: findings by rule %s, summary says %s" % (what, rule, summary["by_rule"]))
    for f in findings:
        if f["file"] != entry["file"]:
            raise Invalid("%s: a finding of %r in the report on %r" % (what, f["file"], entry["file"]))
    r = entry["records"]
    if r["read"] != r["decoded"] + r["malformed"]:
        raise Invalid("%s: records read %d != decoded %d + malformed %d"
                      % (what, r["read"], r["decoded"], r["malformed"]))
    if r["decoded"] != r["dllps"] + r["tlps"] + r["events"]:
        raise Invalid("%s: records decoded %d != dllps + tlps + events" % (what, r["decoded"]))
    for link in entry.get("links", []):
        for port, t in link.get("transactions", {}).items():
            check_transactions(t, "%s: link %d transactions.%s" % (what, link["link"], port))


def check_transactions(t, what):
    """The numbers of one direction's transaction layer agree (--stats)."""
    if t["requests_total"] != sum(t["requests"].values()):
        raise Invalid("%s: requests_total %d, the requests by type add up to %d"
                      % (what, t["requests_total"], sum(t["requests"].values())))
    if sum(t["status"].values()) != t["completions"]:
        raise Invalid("%s: completions %d, by status %s" % (what, t["completions"], t["status"]))
    if t["unmatched"] > t["completions"]:
        raise Invalid("%s: unmatched %d > completions %d" % (what, t["unmatched"], t["completions"]))
    if t["outstanding"] > t["outstanding_max"]:
        raise Invalid("%s: outstanding %d > outstanding_max %d"
                      % (what, t["outstanding"], t["outstanding_max"]))
    for key in ("latency_first_ps", "latency_last_ps"):
        lat = t[key]
        if (lat["count"] == 0) != (lat["median"] is None):
            raise Invalid("%s: %s count %d, median %r" % (what, key, lat["count"], lat["median"]))
        if lat["count"] and not lat["min"] <= lat["median"] <= lat["max"]:
            raise Invalid("%s: %s not min <= median <= max: %s" % (what, key, lat))


def add_totals(totals, summary):
    for key in ("by_severity", "by_rule"):
        for k, v in summary[key].items():
            totals[key][k] = totals[key].get(k, 0) + v


def check_totals(totals, summary, what):
    for key in ("by_severity", "by_rule"):
        want = {k: v for k, v in totals[key].items() if v or key == "by_severity"}
        got = dict(summary[key])
        if key == "by_severity":
            want = {k: want.get(k, 0) for k in got}
        if want != got:
            raise Invalid("%s: %s is %s, the inputs add up to %s" % (what, key, got, want))


def check_document(doc):
    totals = {"by_severity": {}, "by_rule": {}}
    for i, entry in enumerate(doc["inputs"]):
        if "error" in entry:
            continue
        check_input(entry, entry["findings"], "inputs[%d]" % i)
        add_totals(totals, entry["summary"])
    check_totals(totals, doc["summary"], "summary")
    if doc["summary"]["inputs"] != len(doc["inputs"]):
        raise Invalid("summary: inputs is %d, the document has %d"
                      % (doc["summary"]["inputs"], len(doc["inputs"])))
    if any("error" in e for e in doc["inputs"]) and doc["summary"]["exit_status"] != 2:
        raise Invalid("summary: an input could not be read, yet exit_status is %d"
                      % doc["summary"]["exit_status"])


def check_lines(objs):
    """A run's JSON Lines: per input its findings, with --with-charts its
    charts line and the chart lines it counts, then its summary (or an
    error line); a batch line last when there were several inputs."""
    totals = {"by_severity": {}, "by_rule": {}}
    pending = []
    charts = None  # (file, chart lines still to come) after a charts line
    inputs = []   # (file, "summary"|"error")
    for n, o in objs:
        what = "line %d" % n
        if o["type"] != "chart" and charts is not None and charts[1]:
            raise Invalid("%s: %d chart lines of %r missing" % (what, charts[1], charts[0]))
        if o["type"] == "finding":
            if charts is not None:
                raise Invalid("%s: a finding after the charts line of %r" % (what, charts[0]))
            pending.append(o)
        elif o["type"] == "charts":
            if charts is not None or any(f["file"] != o["file"] for f in pending):
                raise Invalid("%s: a charts line of %r out of place" % (what, o["file"]))
            charts = (o["file"], o["charts"])
        elif o["type"] == "chart":
            if charts is None or not charts[1] or charts[0] != o["file"]:
                raise Invalid("%s: a chart line of %r out of place" % (what, o["file"]))
            charts = (charts[0], charts[1] - 1)
        elif o["type"] == "summary":
            if charts is not None and charts[0] != o["file"]:
                raise Invalid("%s: the summary of %r after charts of %r" % (what, o["file"], charts[0]))
            charts = None
            check_input(o, pending, what)
            add_totals(totals, o["summary"])
            inputs.append((o["file"], "summary"))
            pending = []
        elif o["type"] == "error":
            if pending or charts is not None:
                raise Invalid("%s: findings before the error line of %r" % (what, o["file"]))
            inputs.append((o["file"], "error"))
        elif o["type"] == "batch":
            if n != objs[-1][0]:
                raise Invalid("%s: the batch line is not the last" % what)
            check_totals(totals, o, what)
            files = [e["file"] for e in o["inputs"]]
            if files != [f for f, _ in inputs]:
                raise Invalid("%s: batch inputs %s, the lines reported %s" % (what, files, inputs))
            for e, (_, kind) in zip(o["inputs"], inputs):
                if (kind == "error") != (e["exit_status"] == 2):
                    raise Invalid("%s: exit_status %d for %r" % (what, e["exit_status"], e["file"]))
            if o["exit_status"] != max(e["exit_status"] for e in o["inputs"]):
                raise Invalid("%s: exit_status %d is not the worst input's" % (what, o["exit_status"]))
    if pending:
        raise Invalid("findings of %r with no summary line after them" % pending[0]["file"])
    if len(inputs) > 1 and (not objs or objs[-1][1]["type"] != "batch"):
        raise Invalid("%d inputs but no batch line at the end" % len(inputs))


def check_file(validator, path, lines, check):
    """Raises Invalid with the first error of FILE."""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Invalid("not UTF-8: %s" % e)
    if not lines:
        try:
            doc = parse(text)
        except (ValueError, Invalid) as e:
            raise Invalid("not JSON: %s" % e)
        validate(validator, doc, "document")
        if check:
            check_document(doc)
        return
    if text and not text.endswith("\n"):
        raise Invalid("the last line has no newline")
    objs = []
    for n, line in enumerate(text.splitlines(), 1):
        try:
            o = parse(line)
        except (ValueError, Invalid) as e:
            raise Invalid("line %d: not JSON: %s" % (n, e))
        validate(validator, o, "line %d" % n)
        objs.append((n, o))
    if check:
        check_lines(objs)


validators = {}


def validator_for(schema_path):
    if schema_path not in validators:
        with open(schema_path, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validators[schema_path] = jsonschema.Draft202012Validator(schema)
    return validators[schema_path]


def batch(list_path):
    failed = 0
    with open(list_path, encoding="utf-8") as f:
        for n, row in enumerate(f, 1):
            fields = row.rstrip("\n").split("\t")
            if len(fields) != 5 or fields[0] not in ("valid", "invalid"):
                sys.stderr.write("%s:%d: expected EXPECT SCHEMA FILE OPTIONS WHAT\n" % (list_path, n))
                return 2
            expect, schema_path, path, options, what = fields
            options = [] if options == "-" else options.split(",")
            try:
                check_file(validator_for(schema_path), path, "--lines" in options,
                           "--check-counts" in options)
                error = None
            except Invalid as e:
                error = str(e)
            if expect == "valid" and error is None:
                print("ok: %s" % what)
            elif expect == "valid":
                print("FAIL: %s: %s" % (what, error))
                failed += 1
            elif error is not None:
                print("ok: %s (rejected: %s)" % (what, error))
            else:
                print("FAIL: %s: accepted, but it breaks the schema" % what)
                failed += 1
    return 1 if failed else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--batch":
        return batch(argv[2])
    lines = check = False
    args = []
    for a in argv[1:]:
        if a == "--lines":
            lines = True
        elif a == "--check-counts":
            check = True
        else:
            args.append(a)
    if len(args) != 2:
        sys.stderr.write("usage: validate-json.py [--lines] [--check-counts] SCHEMA FILE\n"
                         "       validate-json.py --batch LIST\n")
        return 2
    schema_path, path = args
    try:
        check_file(validator_for(schema_path), path, lines, check)
    except Invalid as e:
        sys.stderr.write("%s: %s\n" % (path, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
