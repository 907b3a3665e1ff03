#!/usr/bin/env python3
"""html-check.py: checks a page of dllpcheck --format=html against the
data contract (the man page's THE HTML REPORT) for tests/test-html-out.sh.

  html-check.py page PAGE [DOC.json]   the page's structure and blocks; with
                                       DOC.json (--format=json of the same
                                       run) the findings and summaries match
  html-check.py pages PAGE DOC.json...  the same for each pair
  html-check.py raw PAGE               no markup of the capture's outside the
                                       page's own: inside the JSON blocks no
                                       "<", ">", "&", U+2028/2029 at all
  html-check.py get PAGE EXPR          prints EXPR (Python) of the parsed blocks
                                       (run, inputs, batch)

Prints one line per failure and exits 1 when there is any."""
import json
import re
import sys

BUCKETS = 2048
FINDINGS_MAX = 10000
CHARTS_MAX = 256
TYPES = ["PH", "PD", "NPH", "NPD", "CplH", "CplD"]

failures = []


def fail(msg):
    failures.append(msg)


HEAD = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        'script-src \'unsafe-inline\'; style-src \'unsafe-inline\'; img-src data:">\n')
BLOCK = re.compile(rb'<script type="application/json" (id="dllpcheck-run"|class="dllpcheck-input"|'
                   rb'id="dllpcheck-batch")>(.*?)</script>\n', re.S)


def split(raw):
    """The page's blocks in order, as (attribute, raw bytes), and the
    bytes around them (the page's own markup, style and script)."""
    blocks, outside, pos = [], [], 0
    for m in BLOCK.finditer(raw):
        outside.append(raw[pos:m.start()])
        blocks.append((m.group(1).decode(), m.group(2)))
        pos = m.end()
    outside.append(raw[pos:])
    return blocks, outside


def parse(raw):
    blocks, outside = split(raw)
    if not raw.startswith(HEAD.encode()):
        fail("the page does not begin with the contract's head and CSP")
    if not raw.endswith(b"</script>\n</body></html>\n"):
        fail("the page does not end with its script and </body></html>")
    attrs = [a for a, _ in blocks]
    if not attrs or attrs[0] != 'id="dllpcheck-run"' or attrs[-1] != 'id="dllpcheck-batch"' or \
            any(a != 'class="dllpcheck-input"' for a in attrs[1:-1]):
        fail("blocks not run, inputs..., batch: %s" % attrs)
        return None
    # between the blocks nothing but a newline; after the batch one <script>
    for gap in outside[1:-1]:
        if gap:
            fail("bytes between two blocks: %r" % gap[:80])
    if not outside[-1].startswith(b"<script>\n") or outside[-1].count(b"</script") != 1:
        fail("after the batch block: not one inline script")
    if outside[0].count(b"<script") != 0:
        fail("a script element before the run block")
    parsed = []
    for a, b in blocks:
        try:
            parsed.append(json.loads(b.decode("utf-8")))
        except ValueError as e:
            fail("block %s does not parse: %s" % (a, e))
            return None
    return {"run": parsed[0], "inputs": parsed[1:-1], "batch": parsed[-1]}


def owner(f):
    """The transmitter whose credits finding f is about: the sender of its
    record, but its partner at an InitFC or UpdateFC (fc.adv.*,
    fc.update.*: the receiver advertises its partner's limit)."""
    if f["port"] is not None and f["rule"].startswith(("fc.adv.", "fc.update.")):
        return {"down": "up", "up": "down"}[f["port"]]
    return f["port"]


def check_series(where, inp, chart, s):
    pts = s["points"]
    width, bucket = s["width"], s["bucket_ps"]
    if len(pts) > BUCKETS:
        fail("%s: %d points > %d" % (where, len(pts), BUCKETS))
    if not pts:
        fail("%s: a series without points" % where)
        return
    if bucket < 1:
        fail("%s: bucket_ps %d" % (where, bucket))
    t0 = pts[0][0]
    prev = None
    for p in pts:
        t, lo, hi, last, flags = p
        if prev is not None and t <= prev:
            fail("%s: times not increasing at %d" % (where, t))
        prev = t
        if (t - t0) % bucket or (t - t0) // bucket >= BUCKETS:
            fail("%s: point %d not on a bucket of %d from %d" % (where, t, bucket, t0))
        if not 0 <= flags <= 7:
            fail("%s: flags %r" % (where, flags))
        if inp["time_start_ps"] is not None and t + bucket <= inp["time_start_ps"]:
            fail("%s: point %d before the input's start" % (where, t))
        if inp["time_end_ps"] is not None and t > inp["time_end_ps"]:
            fail("%s: point %d after the input's end" % (where, t))
        vals = [v for v in (lo, hi, last) if v is not None]
        if any(not 0 <= v < 1 << width for v in vals):
            fail("%s: a value outside 0..2^%d: %r" % (where, width, p))
        if (lo is None) != (hi is None):
            fail("%s: min and max not both known: %r" % (where, p))
        if lo is not None and lo > hi:
            fail("%s: min > max: %r" % (where, p))
        if lo is not None and last is not None and not lo <= last <= hi:
            fail("%s: last outside min..max: %r" % (where, p))
        if lo is None and not flags & 3:
            fail("%s: no value and neither unknown nor infinite: %r" % (where, p))
    starts = {p[0] for p in pts}
    for t, n in s["updates"]:
        if t not in starts or n < 1:
            fail("%s: update [%d, %d] not on a point's bucket" % (where, t, n))
    for t, i in s["findings"]:
        if not 0 <= i < inp["findings_shown"]:
            fail("%s: finding index %d" % (where, i))
            continue
        f = inp["findings"][i]
        if (f["link"], owner(f), f.get("vc"), f.get("credit_type")) != \
                (chart["link"], s["port"], chart["vc"], chart["type"]):
            fail("%s: finding %d is not on this series" % (where, i))


def check_input(k, inp, doc_inp=None):
    where = "input %d (%s)" % (k, inp.get("file"))
    if "error" in inp:
        if set(inp) - {"file", "format", "error"}:
            fail("%s: an error block with %s" % (where, sorted(inp)))
        if doc_inp is not None and doc_inp.get("error") != inp["error"]:
            fail("%s: error %r, the JSON document's %r" % (where, inp["error"], doc_inp.get("error")))
        return
    keys = ["file", "format", "exit_status", "summary", "findings", "findings_total",
            "findings_shown", "time_start_ps", "time_end_ps", "charts", "charts_dropped"]
    # a merge of a part made without --with-charts: no charts, and why
    missing = list(inp) == keys + ["charts_missing"]
    if list(inp) != keys and not missing:
        fail("%s: keys %s" % (where, list(inp)))
        return
    if missing and (not isinstance(inp["charts_missing"], str) or inp["charts"] or
                    inp["charts_dropped"] or inp["time_start_ps"] is not None):
        fail("%s: charts_missing with charts or times" % where)
    if inp["findings_shown"] != len(inp["findings"]) or \
            inp["findings_shown"] != min(inp["findings_total"], FINDINGS_MAX):
        fail("%s: findings_shown %d, findings %d, total %d" %
             (where, inp["findings_shown"], len(inp["findings"]), inp["findings_total"]))
    if len(inp["charts"]) > CHARTS_MAX:
        fail("%s: %d charts" % (where, len(inp["charts"])))
    seen = set()
    for c in inp["charts"]:
        key = (c["link"], c["vc"], c["type"])
        if key in seen or c["type"] not in TYPES:
            fail("%s: chart %s twice or of no type" % (where, key))
        seen.add(key)
        ports = [s["port"] for s in c["series"]]
        if not ports or len(set(ports)) != len(ports) or set(ports) - {"down", "up"}:
            fail("%s: chart %s series %s" % (where, key, ports))
        for s in c["series"]:
            check_series("%s chart %s %s" % (where, key, s["port"]), inp, c, s)
    # every VC and type advertised has its chart (unless charts were dropped)
    if not inp["charts_dropped"] and not missing:
        for link in inp["summary"]["links"]:
            for vc in link["vcs"]:
                for port in ("down", "up"):
                    for t, cr in vc[port]["credits"].items():
                        if cr["advertised"] is not None and \
                                (link["link"], vc["vc"], t) not in seen:
                            fail("%s: no chart for link %d VC %d %s" %
                                 (where, link["link"], vc["vc"], t))
    # every finding naming a link, port, VC and type has its marker where
    # the series exists, and no other finding has one
    marked = {i for c in inp["charts"] for s in c["series"] for _, i in s["findings"]}
    series = {(c["link"], c["vc"], c["type"], s["port"])
              for c in inp["charts"] for s in c["series"]}
    for i, f in enumerate(inp["findings"]):
        if f["link"] is None or f["port"] is None or "vc" not in f or "credit_type" not in f:
            if i in marked:
                fail("%s: finding %d marked without a link, port, VC and type" % (where, i))
        elif (f["link"], f["vc"], f["credit_type"], owner(f)) in series and i not in marked:
            fail("%s: finding %d (%s) not marked on its series" % (where, i, f["rule"]))
    if doc_inp is None:
        return
    doc_findings = doc_inp["findings"]
    if inp["findings_total"] != len(doc_findings):
        fail("%s: %d findings, the JSON document %d" %
             (where, inp["findings_total"], len(doc_findings)))
    if json.dumps(inp["findings"]) != json.dumps(doc_findings[:inp["findings_shown"]]):
        fail("%s: the findings differ from the JSON document's" % where)
    summary = {k: v for k, v in doc_inp.items() if k != "findings"}
    if json.dumps(inp["summary"]) != json.dumps(summary):
        fail("%s: the summary differs from the JSON document's input minus findings" % where)
    if inp["file"] != doc_inp["file"]:
        fail("%s: file differs from the JSON document's" % where)


def cmd_page(path, doc_path=None):
    raw = open(path, "rb").read()
    page = parse(raw)
    if page is None:
        return
    run, inputs, batch = page["run"], page["inputs"], page["batch"]
    if run.get("tool") != "dllpcheck" or run.get("inputs") != len(inputs):
        fail("run block %r for %d inputs" % (run, len(inputs)))
    if len(batch["inputs"]) != len(inputs):
        fail("batch of %d inputs, %d input blocks" % (len(batch["inputs"]), len(inputs)))
    for b, inp in zip(batch["inputs"], inputs):
        if b["file"] != inp["file"]:
            fail("batch entry %r for input %r" % (b["file"], inp["file"]))
        if "error" in inp and (b["status"] != 2 or b.get("error") != inp["error"]):
            fail("batch entry of %r: %r" % (b["file"], b))
        if "error" not in inp and b["status"] != inp["exit_status"]:
            fail("batch status %r, input's %r" % (b["status"], inp["exit_status"]))
    doc = json.load(open(doc_path)) if doc_path else None
    if doc is not None and len(doc["inputs"]) != len(inputs):
        fail("%d inputs, the JSON document %d" % (len(inputs), len(doc["inputs"])))
    for k, inp in enumerate(inputs):
        check_input(k, inp, doc["inputs"][k] if doc else None)
    if doc is not None and doc["summary"]["exit_status"] != batch["exit_status"]:
        fail("exit status %r, the JSON document's %r" %
             (batch["exit_status"], doc["summary"]["exit_status"]))


def cmd_raw(path):
    raw = open(path, "rb").read()
    blocks, outside = split(raw)
    for a, b in blocks:
        for bad in (b"<", b">", b"&", "\u2028".encode(), "\u2029".encode()):
            if bad in b:
                fail("block %s holds %r" % (a, bad))
    # outside the blocks, only the page's own markup: no capture string
    # there ("<img", "<!--" or a second script of theirs)
    own = b"".join(outside)
    for bad in (b"<img", b"<!--", b"alert(", b"onerror"):
        if bad in own:
            fail("%r outside the JSON blocks" % bad)
    scripts = own.count(b"<script")
    if scripts != 1:  # the page's one inline script
        fail("%d script elements outside the blocks" % scripts)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "page":
        cmd_page(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else None)
    elif len(sys.argv) >= 4 and len(sys.argv) % 2 == 0 and sys.argv[1] == "pages":
        for k in range(2, len(sys.argv), 2):
            before = len(failures)
            cmd_page(sys.argv[k], sys.argv[k + 1])
            failures[before:] = [sys.argv[k] + ": " + f for f in failures[before:]]
    elif len(sys.argv) == 3 and sys.argv[1] == "raw":
        cmd_raw(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "get":
        page = parse(open(sys.argv[2], "rb").read())
        if page is None:
            fail("the page does not parse")
        else:
            print(json.dumps(eval(sys.argv[3], {}, page)))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for f in failures[:40]:
        print("FAIL: " + f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
