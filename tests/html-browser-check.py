#!/usr/bin/env python3
"""html-browser-check.py PAGE [options]: opens a dllpcheck --format=html page in
headless Chromium and checks what the browser made of it:

  - the page drew itself (body data-rendered="1"), with no script error
    (body data-errors empty, no console message or "Uncaught" on Chromium's
    stderr: page.js logs nothing, so any console line is a failure)
  - the findings tables have exactly the expected rows (--rows N, or the
    sum of the JSON blocks' "findings" arrays) and one svg.chart per chart
    of the JSON blocks, each with data-points > 0
  - nothing the data could inject is in the DOM: only the elements and
    attributes page.js makes (an allow-list), no on* attribute, no URL
    attribute, no script beyond the page's own, no data-pwn* anywhere
  - the JSON blocks of the page's source hold no raw < > & (the contract's
    escaping, so no </script> or <!-- can end them)
  - each --text STRING shows as text in the drawn DOM (not in a script)

--interact runs tests/html-interact.js after page.js (in a copy of the
page, so two code scripts): hover, zoom, reset, a marker's and a row's
click, a filter, the sort, each checked.

--screenshot PNG keeps a screenshot (1280 px wide) as an artefact.  Prints
what the page load cost (the browser run's wall time and page.js's own
data-render-ms).  Exit 0 when every check passed, 1 otherwise, 77 when
Chromium is missing."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--window-size=1280,2000"]

# Every element page.js (and the page's skeleton) makes; any other one came
# from somewhere else.
ELEMENTS = {"html", "head", "meta", "title", "style", "body", "noscript", "div", "script",
            "header", "h1", "h2", "h3", "h4", "p", "span", "b", "section", "table", "thead",
            "tbody", "tr", "th", "td", "label", "select", "option", "button",
            "svg", "g", "path", "rect", "text"}
ATTRIBUTES = {"lang", "charset", "http-equiv", "content", "name", "type", "id", "class", "title",
              "value", "tabindex", "hidden", "disabled", "aria-sort", "aria-label", "role", "style",
              "x", "y", "width", "height", "d", "viewbox", "transform", "visibility"}
URL_ATTRS = {"href", "src", "xlink:href", "action", "formaction", "srcdoc", "data", "poster",
             "background", "srcset", "ping", "manifest", "codebase", "cite"}


class Dom(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.elements = []          # (tag, attrs dict)
        self.text = []
        self.script_depth = 0

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))
        if tag in ("script", "style"):
            self.script_depth += 1
        if tag not in ("meta", "path", "rect"):
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.script_depth = max(0, self.script_depth - 1)
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass

    def handle_data(self, data):
        if not self.script_depth:
            self.text.append(data)


def chromium_path(given):
    for c in ([given] if given else []) + ["chromium", "chromium-browser", "google-chrome"]:
        p = shutil.which(c) if c else None
        if p:
            return p
    return None


def run_chromium(exe, args, timeout):
    with tempfile.TemporaryDirectory(prefix="html-check-profile.") as prof:
        cmd = [exe] + FLAGS + ["--user-data-dir=" + prof, "--enable-logging=stderr", "--v=0"] + args
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p, time.monotonic() - t0


def json_blocks(source):
    """The page's JSON blocks (run, inputs, batch) from its source."""
    blocks = []
    for m in re.finditer(r'<script type="application/json"([^>]*)>(.*?)</script>', source, re.S):
        blocks.append((m.group(1), m.group(2)))
    return blocks


def main():
    ap = argparse.ArgumentParser(description="check a dllpcheck HTML page in headless Chromium")
    ap.add_argument("page")
    ap.add_argument("--rows", type=int, help="findings rows expected (default: from the page's JSON)")
    ap.add_argument("--text", action="append", default=[], help="a string that must show as text")
    ap.add_argument("--screenshot", help="PNG to write")
    ap.add_argument("--chromium", help="the browser (default: chromium on PATH)")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--max-render-ms", type=float, help="fail when page.js took longer")
    ap.add_argument("--interact", action="store_true", help="drive the page (tests/html-interact.js)")
    a = ap.parse_args()

    exe = chromium_path(a.chromium)
    if not exe:
        print("SKIP: chromium is not installed (Debian package chromium)")
        return 77
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAIL: " + what)

    page = Path(a.page).resolve()
    source = page.read_text(encoding="utf-8")
    blocks = json_blocks(source)
    inputs = []
    for attrs, text in blocks:
        check(not re.search(r"[<>&]", text), "a JSON block holds a raw < > or &: " + attrs)
        try:
            v = json.loads(text)
        except ValueError as e:
            check(False, "a JSON block does not parse (%s): %s" % (e, attrs))
            continue
        if "dllpcheck-input" in attrs:
            inputs.append(v)
    want_rows = a.rows if a.rows is not None else sum(len(i.get("findings", [])) for i in inputs)
    want_charts = sum(len(i.get("charts", [])) for i in inputs)
    for i in inputs:
        if "findings_shown" in i:
            check(i["findings_shown"] == len(i.get("findings", [])),
                  "findings_shown %s != %d findings in %s" % (i["findings_shown"],
                                                             len(i.get("findings", [])), i.get("file")))

    target = page
    tmp = None
    if a.interact:
        js = (Path(__file__).resolve().parent / "html-interact.js").read_text(encoding="utf-8")
        at = source.rindex("</body>")
        tmp = tempfile.NamedTemporaryFile("w", suffix=".html", delete=False, encoding="utf-8")
        tmp.write(source[:at] + "<script>" + js + "</script>\n" + source[at:])
        tmp.close()
        target = Path(tmp.name)
    try:
        p, wall = run_chromium(exe, ["--dump-dom", target.as_uri()], a.timeout)
    finally:
        if tmp:
            os.unlink(tmp.name)
    check(p.returncode == 0, "chromium --dump-dom exit status %d" % p.returncode)
    err = p.stderr.decode("utf-8", "replace")
    console = [l for l in err.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
    check(not console, "console output:\n  " + "\n  ".join(console[:10]))
    dom = Dom()
    dom.feed(p.stdout.decode("utf-8", "replace"))
    body = next((at for tag, at in dom.elements if tag == "body"), {})
    check(body.get("data-rendered") == "1", "body data-rendered is %r, not \"1\"" % body.get("data-rendered"))
    check(not body.get("data-errors"), "script errors: %s" % body.get("data-errors"))

    rows = 0
    charts = []
    scripts = {"json": 0, "code": 0}
    for tag, at in dom.elements:
        check(tag in ELEMENTS, "element <%s> the page does not make (injected?) %r" % (tag, at))
        for k, v in at.items():
            check(not k.startswith("on"), "event attribute %s=%r on <%s>" % (k, v, tag))
            check(k not in URL_ATTRS, "URL attribute %s=%r on <%s>" % (k, v, tag))
            check(k in ATTRIBUTES or k.startswith("data-"), "attribute %s on <%s>" % (k, tag))
            check("pwn" not in k, "%s set on <%s>: a script of the data ran" % (k, tag))
            if k == "style":
                check(not re.search(r"url\s*\(|expression|@import", v or "", re.I),
                      "style attribute with a URL on <%s>: %r" % (tag, v))
        if tag == "tr" and "data-index" in at:
            rows += 1
        if tag == "svg" and "chart" in at.get("class", "").split():
            charts.append(at)
        if tag == "script":
            scripts["json" if at.get("type") == "application/json" else "code"] += 1
    check(rows == want_rows, "findings rows: %d, expected %d" % (rows, want_rows))
    check(len(charts) == want_charts, "chart svgs: %d, expected %d" % (len(charts), want_charts))
    points = 0
    for c in charts:
        n = int(c.get("data-points") or 0)
        points += n
        check(n > 0, "chart link %s VC%s %s drew no points" % (c.get("data-link"), c.get("data-vc"), c.get("data-type")))
        check(c.get("data-series", "") not in ("", "0"), "chart without data-series")
    want_code = 2 if a.interact else 1
    check(scripts["code"] == want_code, "%d code scripts, expected %d" % (scripts["code"], want_code))
    if a.interact:
        try:
            res = json.loads(body.get("data-interact") or "")
        except ValueError:
            res = {"ok": [], "fail": ["no result from html-interact.js"]}
        for f in res["fail"]:
            check(False, "interaction: " + f)
        check(res["ok"], "interaction: nothing checked")
        print("interactions checked: " + "; ".join(res["ok"]))
    check(scripts["json"] == len(blocks), "%d JSON scripts in the DOM, %d in the source" % (scripts["json"], len(blocks)))
    text = "".join(dom.text)
    for t in a.text:
        check(t in text, "the text %r does not show as text" % t)
    ms = body.get("data-render-ms")
    if a.max_render_ms is not None and ms is not None:
        check(float(ms) <= a.max_render_ms, "page.js took %s ms, more than %s" % (ms, a.max_render_ms))

    if a.screenshot:
        shot = Path(a.screenshot).resolve()
        if shot.exists():
            shot.unlink()
        p2, _ = run_chromium(exe, ["--screenshot=" + str(shot), page.as_uri()], a.timeout)
        check(shot.exists() and shot.stat().st_size > 0, "no screenshot written to %s" % shot)
    size = page.stat().st_size
    print("%s: %d bytes, %d findings rows, %d charts, %d points drawn; browser run %.2f s, page.js %s ms (%s)%s" %
          (a.page, size, rows, len(charts), points, wall, ms, body.get("data-timing"),
           ", screenshot " + a.screenshot if a.screenshot else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
