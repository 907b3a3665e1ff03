#!/usr/bin/env python3
"""annotate-compare.py: checks an --annotate capture (test-annotate.sh).

  annotate-compare.py batch MANIFEST
      the checks below, one a line of MANIFEST (WHAT, then the command and its files,
      tab-separated): PASS WHAT or FAIL WHAT and the differences

  annotate-compare.py comments FRAMES.json FILE.json DECODE.jsonl FINDINGS.jsonl SUMMARY.txt
      FRAMES.json: tshark -T json -e frame.number -e frame.comment (or pkt_comment) of OUT;
      FILE.json: tshark -X read_format:'MIME Files Format' -T json of OUT (Wireshark's own
      dissection of the pcapng blocks); DECODE.jsonl: dllpcheck --decode --format=jsonl of the
      input (frame N is its N-th record); FINDINGS.jsonl: dllpcheck --format=jsonl of the input;
      SUMMARY.txt: the text report's summary lines of the input.
      Every finding is one comment, on the frame of its record or saying which record it is
      about ("about record N"), or on the section header; the section header's first comment is
      the verdict and the summary; Wireshark finds nothing malformed in the blocks.
  annotate-compare.py decode IN.jsonl OUT.jsonl
      the records of the annotated capture are the input's: kind, direction, link, flags, bytes
      and fields, and the time to the nanosecond (the pcapng has if_tsresol 9)
  annotate-compare.py findings IN.jsonl OUT.jsonl
      dllpcheck finds the same findings in the annotated capture as in the input (record
      numbers, times, messages, evidence), position in the file aside
"""
import codecs
import json
import re
import sys

POSITION = ("file", "line", "byte_offset", "column")
PREFIX_RECORD = re.compile(r"^about record (\d+)(?: \(line \d+\))?: ")
PREFIX_UNWRITTEN = re.compile(
    r"^about record (\d+) \((?:line \d+, )?byte offset \d+\), not in this file: ")
PREFIX_BYTES = re.compile(
    r"^about the bytes from offset \d+ \((before|after) record (\d+)\), not in this file: ")
FINDING = re.compile(r"^(\S+) (error|warning|info): (.*)$", re.S)
OMITTED = re.compile(r"^dllpcheck: (\d+) more findings here are not in this block")

failures = []


def _escape(err):
    bad = err.object[err.start:err.end]
    return ("".join(f"\\x{b:02X}" for b in bad), err.end)


codecs.register_error("dllpcheck-escape", _escape)


def fail(msg):
    failures.append(msg)


def lines(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def tshark_frames(path):
    """[(frame number, [comments])] of tshark -T json -e frame.number -e frame.comment."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = []
    for p in doc:
        layers = p["_source"]["layers"]
        number = int(layers["frame.number"][0])
        comments = layers.get("frame.comment", layers.get("pkt_comment", []))
        out.append((number, list(comments)))
    return out


def pcapng_blocks(path):
    """The blocks of Wireshark's file-pcapng dissection: [(type, [comments], tree)]."""
    with open(path, encoding="utf-8") as f:
        doc = json.load(f, object_pairs_hook=lambda pairs: pairs)
    blocks = []

    def comments_of(node, acc):
        if isinstance(node, list):
            for item in node:
                if isinstance(item, tuple):
                    k, v = item
                    if k == "pcapng.options.option.data.comment":
                        acc.append(v)
                    else:
                        comments_of(v, acc)
                else:
                    comments_of(item, acc)

    def walk(node):
        if isinstance(node, list):
            for item in node:
                if isinstance(item, tuple):
                    k, v = item
                    if k == "pcapng.block":
                        btype = dict((x for x in v if isinstance(x, tuple))).get(
                            "pcapng.block.type")
                        acc = []
                        comments_of(v, acc)
                        blocks.append((btype, acc, v))
                    elif k.startswith("_ws.expert") or k.startswith("_ws.malformed"):
                        fail(f"Wireshark's pcapng dissection reports {k}: {json.dumps(v)[:200]}")
                    else:
                        walk(v)
                else:
                    walk(item)

    walk(doc)
    return blocks


def parse_comment(text, frame_record):
    """(record, rule, severity, message) of a comment, or ("omitted", n)."""
    m = OMITTED.match(text)
    if m:
        return ("omitted", int(m.group(1)))
    record = frame_record
    rest = text
    for pat in (PREFIX_UNWRITTEN, PREFIX_RECORD):
        m = pat.match(text)
        if m:
            record = int(m.group(1))
            rest = text[m.end():]
            break
    else:
        m = PREFIX_BYTES.match(text)
        if m:
            record = int(m.group(2)) + (1 if m.group(1) == "after" else 0)
            rest = text[m.end():]
    m = FINDING.match(rest)
    if not m:
        fail(f"a comment that is not a finding: {text!r}")
        return None
    if record is None:
        fail(f"a finding on the section header that does not say its record: {text!r}")
    return (record, m.group(1), m.group(2), m.group(3))


def cmd_comments(frames_path, file_path, decode_path, findings_path, summary_path):
    records = [r["record"] for r in lines(decode_path) if r.get("type") == "record"]
    findings = [f for f in lines(findings_path) if f.get("type") == "finding"]
    want = sorted((f["record"], f["rule"], f["severity"], f["message"]) for f in findings)
    frames = tshark_frames(frames_path)
    if len(frames) != len(records):
        fail(f"{len(frames)} frames, the input has {len(records)} records")
    got, omitted = [], 0
    for number, comments in frames:
        rec = records[number - 1] if 0 < number <= len(records) else None
        for c in comments:
            p = parse_comment(c, rec)
            if p and p[0] == "omitted":
                omitted += p[1]
            elif p:
                got.append(p)
    blocks = pcapng_blocks(file_path)
    types = [b[0] for b in blocks]
    if types[:2] != ["0x0a0d0d0a", "0x00000001"] or any(t != "0x00000006" for t in types[2:]):
        fail(f"blocks are not SHB, IDB, EPB...: {types[:5]}")
    # the EPBs' comments as the file holds them: the same as tshark's frames
    epb = [b[1] for b in blocks if b[0] == "0x00000006"]
    if epb != [c for _, c in frames]:
        fail("the comments of the EPBs in the file differ from tshark's frame comments")
    shb = blocks[0][1] if blocks else []
    if not shb:
        fail("the section header has no comment")
    else:
        summary = shb[0].split("\n")
        # comments are UTF-8: what is not (a file name in Latin-1) is
        # written as \xNN, each byte of it
        with open(summary_path, encoding="utf-8", errors="dllpcheck-escape") as f:
            text = f.read().rstrip("\n").split("\n")
        if not re.match(r"^dllpcheck \S+: (pass: no finding|FAIL: findings) at or above "
                        r"--fail-on=(error|warning|info) \(exit status [01]\)$", summary[0]):
            fail(f"the summary's verdict: {summary[0]!r}")
        if summary[1:1 + len(text)] != text:
            fail("the summary is not the text report's:\n  " + "\n  ".join(summary[1:]) +
                 "\nwanted:\n  " + "\n  ".join(text))
        for c in shb[1:]:
            p = parse_comment(c, None)
            if p and p[0] == "omitted":
                omitted += p[1]
            elif p:
                got.append(p)
    got.sort()
    if omitted:
        # a bounded block: what it carries is the findings', and it says
        # how many it does not
        missing = list(want)
        for g in got:
            if g in missing:
                missing.remove(g)
            else:
                fail(f"a comment that is no finding of the input: {g}")
        if len(missing) != omitted:
            fail(f"{len(missing)} findings not in the comments, the blocks say {omitted}")
    elif got != want:
        extra = [g for g in got if g not in want]
        lost = [w for w in want if w not in got]
        fail(f"comments and findings differ: {len(got)} comments, {len(want)} findings; "
             f"not findings: {extra[:3]}; not comments: {lost[:3]}")
    return len(got)


def strip(obj):
    return {k: v for k, v in obj.items() if k not in POSITION}


def cmd_decode(in_path, out_path):
    a = [r for r in lines(in_path) if r.get("type") == "record"]
    b = [r for r in lines(out_path) if r.get("type") == "record"]
    if len(a) != len(b):
        fail(f"{len(b)} records read back, the input has {len(a)}")
    for i, (x, y) in enumerate(zip(a, b), 1):
        x, y = strip(x), strip(y)
        # frames are numbered without the records that could not be read
        x.pop("record", None)
        y.pop("record", None)
        # the input's own packet numbers are not in a pcapng
        x.pop("source_packet", None)
        # if_tsresol 9: the time to the nanosecond
        x["time_ps"] -= x["time_ps"] % 1000
        if x != y:
            fail(f"record {i} differs:\n  input {json.dumps(x)}\n  read back {json.dumps(y)}")
            break
    return len(a)


def cmd_findings(in_path, out_path):
    a = [strip(f) for f in lines(in_path) if f.get("type") == "finding"]
    b = [strip(f) for f in lines(out_path) if f.get("type") == "finding"]
    for f in a:
        f.pop("source_packet", None)
        # if_tsresol 9: the time to the nanosecond
        if isinstance(f.get("time_ps"), int):
            f["time_ps"] -= f["time_ps"] % 1000
    if a != b:
        fail(f"{len(a)} findings in the input, {len(b)} in the annotated capture; first "
             f"difference: {next((json.dumps(x) + ' / ' + json.dumps(y) for x, y in zip(a, b) if x != y), 'in the count')}")
    return len(a)


COMMANDS = {"comments": cmd_comments, "decode": cmd_decode, "findings": cmd_findings}


def cmd_batch(manifest):
    """Each line of manifest: WHAT, a tab, a command and its files (tab-separated); prints
    PASS WHAT or FAIL WHAT and the differences (indented), one Python for a whole test."""
    bad = 0
    with open(manifest, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            what, cmd, *args = line.rstrip("\n").split("\t")
            failures.clear()
            try:
                COMMANDS[cmd](*args)
            except Exception as e:  # a file tshark did not write, a parse error
                fail(f"{type(e).__name__}: {e}")
            if failures:
                bad += 1
                print(f"FAIL {what}")
                for msg in failures[:5]:
                    print("  " + msg.replace("\n", "\n  "))
            else:
                print(f"PASS {what}")
    return bad


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "batch":
        sys.exit(1 if cmd_batch(*args) else 0)
    n = COMMANDS[cmd](*args)
    for f in failures:
        print(f)
    if failures:
        sys.exit(1)
    print(f"ok: {n}")


if __name__ == "__main__":
    main()
