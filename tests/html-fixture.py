#!/usr/bin/env python3
"""html-fixture.py SRCDIR OUT.html [edge|big|single]: a --format=html page
assembled in Python from the page's data contract (report_html.c: the
skeleton, the JSON blocks with < > & U+2028 U+2029 escaped, page.css and
page.js inline), so the renderer is tested on its edge cases whatever the
C writer does:

  edge    a batch of 3: an input error (its file name and message hold
          markup), an input with zero findings whose series are infinite
          or unknown for spans, and one with findings (a message holding
          </script> and markup, findings_shown < findings_total, uncertain
          buckets, min/max bands, UpdateFCs, a dropped chart, integers past
          2^53)
  single  one input (no batch table): the third input of edge
  big     one input, 10^5 points over 4 charts (one series of 50000) and
          10000 findings (HTML_FINDINGS_MAX): the timing case
  points  one chart, two series of 50000 points each, no findings: the
          cost of 10^5 points alone

Prints the number of findings rows the page must show."""
import json
import os
import random
import sys

HOSTILE = '<img src=x onerror=document.body.dataset.pwned=1>'


def esc(obj):
    """JSON for a <script type="application/json"> block, as the contract says."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    for a, b in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                 ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(a, b)
    return text


def page(srcdir, run, inputs, batch):
    with open(os.path.join(srcdir, "src/report/html/page.css"), encoding="utf-8") as f:
        css = f.read()
    js = "(function () {\n"
    for part in ("page.js", "page_charts.js", "page_summary.js"):  # as Makefile.am builds it
        with open(os.path.join(srcdir, "src/report/html", part), encoding="utf-8") as f:
            js += f.read()
    js += "})();\n"
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">\n'
           '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
           'script-src \'unsafe-inline\'; style-src \'unsafe-inline\'; img-src data:">\n'
           '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
           '<title>dllpcheck report</title>\n<style>' + css + '</style></head>\n'
           '<body><noscript>This report draws itself with JavaScript; the same data is in '
           'dllpcheck --format=json.</noscript>\n<div id="app"></div>\n'
           '<script type="application/json" id="dllpcheck-run">' + esc(run) + '</script>\n']
    for i in inputs:
        out.append('<script type="application/json" class="dllpcheck-input">' + esc(i) + '</script>\n')
    out.append('<script type="application/json" id="dllpcheck-batch">' + esc(batch) + '</script>\n')
    out.append('<script>' + js + '</script>\n</body></html>\n')
    return "".join(out)


def credits(adv, limit, consumed, width=8):
    return {"advertised": adv, "limit": limit, "consumed": consumed, "width": width,
            "min_available": None if limit is None else max(0, limit - consumed), "tlps_charged": consumed,
            "credits_charged": consumed, "longest_wait_ps": 0}


def summary(fmt, records, by_rule, stats=False):
    sev = {"info": 0, "warning": 0, "error": 0}
    for rule, (severity, n) in by_rule.items():
        sev[severity] += n
    vc = {"vc": 0, "state": "initialised", "epochs_joined": 1, "tlps_while_unknown": 2,
          "fc_dllps_while_unknown": 0,
          "down": {"fi1": True, "complete": True,
                   "credits": {"PH": credits(32, 32, 3), "CplH": credits("inf", None, 0),
                               "NPH": credits(None, None, 0)}},
          "up": {"fi1": True, "complete": True,
                 "credits": {"PH": credits(4, 6, 7), "PD": credits(64, 80, 28, 12)}}}
    link = {"link": 0, "scaled_fc": False, "tlps_not_charged": {"down": 0, "up": 1},
            "data_link": {p: {"tlps_new": 7, "tlps_replayed": 1, "tlps_nullified": 0,
                              "tlps_unreadable": 0, "acks_received": 2, "naks_received": 0,
                              "outstanding_high_water": 4} for p in ("down", "up")},
            "damaged": {"down": {"dllps": 1, "tlps": 0}, "up": {"dllps": 0, "tlps": 0}},
            "vcs": [vc]}
    if stats:
        none = {"count": 0, "min": None, "median": None, "max": None}
        link["stats"] = {p: {"tlps_by_type": {"MRd": 3} if p == "up" else {},
                             "vcs": [{"vc": 0, "time_at_zero_ps": {"PH": 700000, "PD": 0},
                                      "updatefc": {"P": {"count": 3, "interval_min_ps": 1000,
                                                         "interval_median_ps": 2000,
                                                         "interval_max_ps": 5000},
                                                   "NP": {"count": 0, "interval_min_ps": None,
                                                          "interval_median_ps": None,
                                                          "interval_max_ps": None}}}]}
                         for p in ("down", "up")}
        link["transactions"] = {
            "down": {"requests": {}, "requests_total": 0, "completions": 0},
            "up": {"requests": {"MRd": 3}, "requests_total": 3, "completed": 2,
                   "ended_by_epoch": 0, "timed_out": 1, "outstanding": 1, "outstanding_max": 3,
                   "latency_first_ps": {"count": 2, "min": 1000000, "median": 1015808,
                                        "max": 1100000},
                   "latency_last_ps": none, "completions": 3, "unmatched": 0,
                   "status": {"SC": 3, "UR": 0}, "requesters_untracked": 1,
                   "while_unknown": 2}}
    return {"format": fmt,
            "records": {"read": records, "decoded": records, "malformed": 0, "truncated": 0,
                        "dllps": records // 2, "tlps": records // 2, "events": 1,
                        "time_base_s": 0},
            "summary": {"by_severity": sev,
                        "by_rule": {r: n for r, (s, n) in by_rule.items()}},
            "options": {"role_down": "unknown", "role_up": "unknown", "mps": None,
                        "tc_to_vc": [0] * 8},
            "links": [link]}


def finding(i, t, rule="fc.credit.overrun", severity="error", port="up", ctype="PH",
            message=None):
    return {"file": "x", "record": 10 + i, "line": 20 + i, "byte_offset": 100 * i, "rule": rule,
            "severity": severity, "time_ps": t, "link": 0, "port": port, "vc": 0,
            "credit_type": ctype,
            "message": message or "CL=0x06 CC=0x06 need=1: gap 0xFF > 0x80 (finding %d)" % i,
            "evidence": {"CL": 6, "CC": 6, "need": 1, "gap": 255, "width": 8}}


def edge_inputs():
    """The three inputs of the edge case (see the docstring)."""
    err = {"file": "missing " + HOSTILE + ".trace", "format": "text",
           "error": "cannot open '" + HOSTILE + "': No such file or directory </script><!--"}
    # zero findings: an infinite series, unknown spans (a null bucket, a
    # partly unknown one), and a series whose value holds from before
    quiet = {"file": "quiet\u2028line.trace", "format": "pcap", "exit_status": 0,
             "summary": summary("pcap", 40, {}), "findings": [], "findings_total": 0,
             "findings_shown": 0, "time_start_ps": 0, "time_end_ps": 100000000,
             "charts": [{"link": 0, "vc": 0, "type": "CplH", "series": [
                 {"port": "down", "width": 8, "bucket_ps": 1000000,
                  "points": [[0, None, None, None, 2], [60000000, None, None, None, 2]],
                  "updates": [[0, 1]], "findings": []},
                 {"port": "up", "width": 8, "bucket_ps": 1000000,
                  "points": [[0, 16, 16, 16, 0], [20000000, None, None, None, 1],
                             [50000000, 12, 16, 14, 1], [70000000, 14, 14, 14, 0]],
                  "updates": [[0, 1], [50000000, 2]], "findings": []}]}],
             "charts_dropped": 0}
    random.seed(16)
    fs = []
    t = 1000000
    for i in range(40):
        t += random.randrange(10000, 200000)
        rule, sev = [("fc.credit.overrun", "error"), ("fc.update.period", "warning"),
                     ("tlp.cpl.timeout", "info")][i % 3]
        fs.append(finding(i, t, rule, sev, ["up", "down"][i % 2], ["PH", "PD"][i % 2]))
    fs[3]["message"] = "cell '" + HOSTILE + "' </script><script>document.body.dataset.pwned=2</script> & <!--"
    fs[4]["time_ps"] = None
    # past 2^53: the exact digits (9007199254740.999 us), not the double's
    # (9007199254741.000)
    fs[5]["time_ps"] = 9007199254740999999
    fs[6]["port"] = None
    fs[6]["link"] = None
    fs[7]["lane"] = 3
    pts_up, pts_down, upd = [], [], []
    v = 6
    for b in range(400):
        tb = 1000000 + b * 20000
        if b % 7 == 0:
            upd.append([tb, 1])
            v = min(6, v + 3)
        lo = max(0, v - 2)
        flags = 4 if 100 <= b < 120 else 0
        flags |= 1 if 300 <= b < 310 else 0
        pts_up.append([tb, lo, v, lo, flags])
        v = lo
        pts_down.append([tb, 30 - (b % 5), 32, 31, 0])
    fchart = [[f["time_ps"], i] for i, f in enumerate(fs)
              if f["time_ps"] is not None and f["time_ps"] < 2**53 and f["port"] == "up"]
    busy = {"file": "busy " + HOSTILE + ".trace", "format": "csv", "exit_status": 1,
            "summary": summary("csv", 900, {"fc.credit.overrun": ("error", 20),
                                            "fc.update.period": ("warning", 15),
                                            "tlp.cpl.timeout": ("info", 15)}, stats=True),
            "findings": fs, "findings_total": 50, "findings_shown": len(fs),
            "time_start_ps": 0, "time_end_ps": 10000000,
            "charts": [{"link": 0, "vc": 0, "type": "PH", "series": [
                           {"port": "down", "width": 8, "bucket_ps": 20000, "points": pts_down,
                            "updates": [], "findings": []},
                           {"port": "up", "width": 8, "bucket_ps": 20000, "points": pts_up,
                            "updates": upd, "findings": fchart}]},
                       {"link": 0, "vc": 0, "type": "PD", "series": [
                           {"port": "up", "width": 12, "bucket_ps": 20000,
                            "points": [[p[0], p[1] * 16, p[2] * 16, p[3] * 16, p[4]] for p in pts_up],
                            "updates": upd, "findings": []}]}],
            "charts_dropped": 3}
    return [err, quiet, busy]


def big_input(points_only=False):
    random.seed(5)
    charts, fs = [], []
    n_per = [50000, 25000, 15000, 10000]
    t_end = 10**10
    for c, n in enumerate(n_per):
        b = t_end // n
        pts, v = [], 100
        for k in range(n):
            v = max(0, min(255, v + random.randrange(-9, 10)))
            pts.append([k * b, max(0, v - 3), v, v - 1 if v else 0, 0])
        charts.append({"link": 0, "vc": c % 2, "type": ["PH", "PD", "NPH", "CplD"][c],
                       "series": [{"port": "up" if c % 2 else "down", "width": 8, "bucket_ps": b,
                                   "points": pts, "updates": [[k * b, 1] for k in range(0, n, 40)],
                                   "findings": []}]})
    for i in range(10000):
        t = i * (t_end // 10000)
        fs.append(finding(i, t, port="down", ctype="PH"))
        charts[0]["series"][0]["findings"].append([t, i])
    if points_only:
        two = [dict(charts[0]["series"][0], findings=[]), dict(charts[0]["series"][0], port="up", findings=[])]
        two[1]["points"] = [[p[0], max(0, p[1] - 40), max(0, p[2] - 40), max(0, p[3] - 40), p[4]] for p in two[0]["points"]]
        charts, fs = [{"link": 0, "vc": 0, "type": "PH", "series": two}], []
    return {"file": "big.pcap", "format": "pcap", "exit_status": 1,
            "summary": summary("pcap", 10**7, {"fc.credit.overrun": ("error", 123456)}),
            "findings": fs, "findings_total": 123456, "findings_shown": len(fs),
            "time_start_ps": 0, "time_end_ps": t_end, "charts": charts, "charts_dropped": 0}


def batch_of(inputs):
    rows = []
    for i in inputs:
        if "error" in i:
            rows.append({"file": i["file"], "status": 2, "format": i["format"], "records": None,
                         "findings": None, "error": i["error"]})
        else:
            rows.append({"file": i["file"], "status": i["exit_status"], "format": i["format"],
                         "records": i["summary"]["records"]["read"],
                         "findings": i["summary"]["summary"]["by_severity"]})
    return {"inputs": rows, "exit_status": max(r["status"] for r in rows)}


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    srcdir, out = sys.argv[1], sys.argv[2]
    case = sys.argv[3] if len(sys.argv) == 4 else "edge"
    if case == "edge":
        inputs = edge_inputs()
    elif case == "single":
        inputs = edge_inputs()[2:]
    elif case == "big":
        inputs = [big_input()]
    elif case == "points":
        inputs = [big_input(True)]
    else:
        sys.exit("unknown case " + case)
    run = {"tool": "dllpcheck", "version": "fixture", "inputs": len(inputs)}
    with open(out, "w", encoding="utf-8") as f:
        f.write(page(srcdir, run, inputs, batch_of(inputs)))
    print(sum(len(i.get("findings", [])) for i in inputs))


if __name__ == "__main__":
    main()
