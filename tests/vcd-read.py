#!/usr/bin/env python3
"""vcd-read.py: an independent reader of the VCDs dllpcheck writes (--vcd),
for the tests: no project code, only IEEE 1364-2005 clause 18.

  vcd-read.py FILE check
      parses FILE strictly and prints "signals N times T changes C", then
      one line per signal: "PATH TYPE WIDTH".  Fails (status 1, a message
      naming the line) on anything clause 18 or dllpcheck's contract
      (man dllpcheck, THE WAVEFORM) does not allow:
        - a $var after $enddefinitions, an identifier code outside
          printable ASCII 33..126 or declared twice, a path declared twice;
        - a time not greater than the one before (one #t per time);
        - a value change of an undeclared code, wider than its variable, or
          of a finding's signal already changed at the same time;
        - a value change that writes the value the signal already had.
  vcd-read.py FILE at T PATH...      the values after every change at <= T
  vcd-read.py FILE before T PATH...  the values after every change at < T
      one line per PATH: "PATH VALUE", VALUE decimal (signed for an
      integer), x when unknown, "none" when never written.
  vcd-read.py FILE names
      only the header (any VCD, e.g. fst2vcd's): "PATH TYPE WIDTH" sorted.
  vcd-read.py FILE gtkw GTKW
      checks the GTKWave save file GTKW against FILE: every trace names a
      signal of FILE as GTKWave names it (PATH, PATH[W-1:0] for a vector or
      an integer), every signal is shown, groups are balanced, the findings
      group comes first, and every _available trace is an analog step in
      signed decimal.
  vcd-read.py FILE findings JSONL
      checks every finding of dllpcheck's --format=jsonl output JSONL
      against FILE (the same run's --vcd): its rule's pulse is 1 at its
      time, record and link equal its own, and the evidence of the rules
      below equals the model's values in the waveform.  Prints one line
      per finding checked and "checked N findings, M with evidence".
"""
import json
import sys


class VcdError(Exception):
    pass


class Signal:
    def __init__(self, path, vtype, width, code):
        self.path, self.vtype, self.width, self.code = path, vtype, width, code
        self.changes = []  # (time, value string of 0/1/x/z bits)


def parse(path, header_only=False):
    with open(path, "r", encoding="ascii") as fp:
        text = fp.read()
    lines = text.split("\n")
    signals = {}  # code -> Signal
    by_path = {}
    scopes = []
    header = True
    time = None
    times = 0
    changes = 0
    seen_at_time = set()
    timescale = None
    # the header: tokens up to $enddefinitions
    tokens = []
    lineno_of = []
    for n, line in enumerate(lines, 1):
        for tok in line.split():
            tokens.append(tok)
            lineno_of.append(n)
    k = 0

    def take_until_end(start):
        j = start
        while j < len(tokens) and tokens[j] != "$end":
            j += 1
        if j >= len(tokens):
            raise VcdError("line %d: %s without $end" % (lineno_of[start - 1], tokens[start - 1]))
        return tokens[start:j], j + 1

    while k < len(tokens) and header:
        tok = tokens[k]
        ln = lineno_of[k]
        if tok in ("$date", "$version", "$comment"):
            _, k = take_until_end(k + 1)
        elif tok == "$timescale":
            body, k = take_until_end(k + 1)
            timescale = "".join(body)
        elif tok == "$scope":
            body, k = take_until_end(k + 1)
            if len(body) != 2 or body[0] != "module":
                raise VcdError("line %d: $scope %s" % (ln, " ".join(body)))
            scopes.append(body[1])
        elif tok == "$upscope":
            body, k = take_until_end(k + 1)
            if body or not scopes:
                raise VcdError("line %d: $upscope without a scope" % ln)
            scopes.pop()
        elif tok == "$var":
            body, k = take_until_end(k + 1)
            if len(body) not in (4, 5):
                raise VcdError("line %d: $var %s" % (ln, " ".join(body)))
            vtype, width, code, name = body[0], int(body[1]), body[2], body[3]
            if vtype not in ("wire", "integer", "reg"):
                raise VcdError("line %d: var type %s" % (ln, vtype))
            if vtype == "integer" and width != 32:
                raise VcdError("line %d: integer of %d bits" % (ln, width))
            if width < 1:
                raise VcdError("line %d: width %d" % (ln, width))
            if len(body) == 5 and body[4] != "[%d:0]" % (width - 1):
                raise VcdError("line %d: range %s for %d bits" % (ln, body[4], width))
            if width > 1 and vtype == "wire" and len(body) != 5:
                raise VcdError("line %d: a vector without its range" % ln)
            if any(ord(c) < 33 or ord(c) > 126 for c in code):
                raise VcdError("line %d: identifier code %r" % (ln, code))
            if code in signals:
                raise VcdError("line %d: identifier code %s declared twice" % (ln, code))
            if not scopes:
                raise VcdError("line %d: $var outside a scope" % ln)
            full = ".".join(scopes + [name])
            if full in by_path:
                raise VcdError("line %d: %s declared twice" % (ln, full))
            s = Signal(full, vtype, width, code)
            signals[code] = s
            by_path[full] = s
        elif tok == "$enddefinitions":
            body, k = take_until_end(k + 1)
            if scopes:
                raise VcdError("line %d: $enddefinitions inside a scope" % ln)
            header = False
        else:
            raise VcdError("line %d: %s in the header" % (ln, tok))
    if header:
        raise VcdError("no $enddefinitions")
    if header_only:
        return by_path, 0, 0
    if timescale != "1ps":
        raise VcdError("timescale %r, not 1 ps" % timescale)
    while k < len(tokens):
        tok = tokens[k]
        ln = lineno_of[k]
        k += 1
        if tok.startswith("#"):
            t = int(tok[1:])
            if time is not None and t <= time:
                raise VcdError("line %d: time %d after %d" % (ln, t, time))
            time = t
            times += 1
            seen_at_time = set()
            continue
        if tok.startswith("$"):
            raise VcdError("line %d: %s after the header (no $dumpvars expected)" % (ln, tok))
        if time is None:
            raise VcdError("line %d: a value change before any time" % ln)
        if tok[0] in "01xzXZ":
            value, code = tok[0].lower(), tok[1:]
        elif tok[0] in "bB":
            if k >= len(tokens):
                raise VcdError("line %d: vector value without code" % ln)
            value, code = tok[1:].lower(), tokens[k]
            k += 1
            if not value or any(c not in "01xz" for c in value):
                raise VcdError("line %d: vector value %s" % (ln, tok))
        else:
            raise VcdError("line %d: %s" % (ln, tok))
        s = signals.get(code)
        if s is None:
            raise VcdError("line %d: undeclared code %s" % (ln, code))
        if tok[0] not in "bB" and s.width != 1:
            raise VcdError("line %d: scalar change of %s, %d bits" % (ln, s.path, s.width))
        if len(value) > s.width:
            raise VcdError("line %d: %d bits for %s of %d" % (ln, len(value), s.path, s.width))
        # left-extension [18.2.1]: 0 and 1 extend with 0, x and z with themselves
        fill = value[0] if value[0] in "xz" else "0"
        value = value.rjust(s.width, fill)
        # two records at one time may change a value twice (a glitch in a
        # viewer), never a finding's pulse (it stays 1)
        if code in seen_at_time and s.path.startswith("dllpcheck.findings."):
            raise VcdError("line %d: %s changed twice at %d" % (ln, s.path, time))
        seen_at_time.add(code)
        if s.changes and s.changes[-1][1] == value:
            raise VcdError("line %d: %s written again with its value" % (ln, s.path))
        s.changes.append((time, value))
        changes += 1
    return by_path, times, changes


def value_of(s, t, strict):
    """The signal's value after every change at <= t (strict: < t)."""
    v = None
    for ct, cv in s.changes:
        if ct < t or (not strict and ct == t):
            v = cv
        else:
            break
    if v is None:
        return None
    if any(c in "xz" for c in v):
        return "x"
    n = int(v, 2)
    if s.vtype == "integer" and n >= 1 << 31:
        n -= 1 << 32
    return n


def show(v):
    return "none" if v is None else str(v)


# What each rule's evidence says about the model, as (when, key, signal,
# transform): when "before" the values before the finding's time, "at"
# after its record.  sig names are below link<N>.port_<port>[.vc<N>];
# "{T}" is the finding's credit type.
EVIDENCE = {
    "fc.credit.overrun": [
        ("before", "CL", "vc.{T}_CL"),
        ("before", "CC", "vc.{T}_CC"),
        ("before", "available", "vc.{T}_available"),
    ],
    # an UpdateFC's port is its sender: the credits are its partner's
    # transmitter's
    "fc.update.over-grant": [
        ("at", "CL", "partner.vc.{T}_CL"),
        ("at", "CC", "partner.vc.{T}_CC"),
    ],
    "fc.update.limit-regress": [
        ("before", "old_CL", "partner.vc.{T}_CL"),
    ],
    # an Ack names the partner's transmitter: the other port's sequence numbers
    "dl.ack.unknown-seq": [
        ("before", "ACKD_SEQ", "partner.ackd_seq"),
        ("before", "NEXT_TRANSMIT_SEQ", "partner.next_transmit_seq"),
    ],
    # a request outstanding past the timeout: the requester's count
    "tlp.cpl.timeout": [
        ("before", "requests_outstanding>0", "requests_outstanding"),
    ],
}


def check_findings(by_path, jsonl):
    findings = []
    with open(jsonl, encoding="utf-8") as fp:
        for line in fp:
            o = json.loads(line)
            if o.get("type") == "finding":
                findings.append(o)
    bad = 0
    with_evidence = 0
    for f in findings:
        where = "%s record %s at %s ps" % (f["rule"], f["record"], f["time_ps"])
        t = f["time_ps"]
        problems = []

        def get(path, when):
            s = by_path.get(path)
            if s is None:
                problems.append("no signal %s" % path)
                return None
            return value_of(s, t, when == "before")

        pulse = "dllpcheck.findings." + f["rule"].replace(".", "_").replace("-", "_")
        # the pulse, the record and the link at the finding's time, or,
        # for a finding raised later than its record (a timeout found at
        # the end), at the first time after it where they all match
        if t is None:
            t = 0  # a finding without time: where it was raised
        rec_sig = by_path.get("dllpcheck.findings.record")
        candidates = sorted({ct for ct, _ in rec_sig.changes if ct >= t} | {t}) if rec_sig else [t]
        want_link = f.get("link") if f.get("link") is not None and f.get("link") >= 0 else "x"
        found = None
        for ct in candidates:
            if (by_path.get(pulse) and value_of(by_path[pulse], ct, False) == 1 and
                    value_of(rec_sig, ct, False) == f["record"] and
                    value_of(by_path["dllpcheck.findings.link"], ct, False) == want_link):
                found = ct
                break
            # record and link hold the first finding drawn at a time: an
            # earlier finding at the same time (or, for one without a time,
            # drawn where it was raised, any other) may hold them
            if (by_path.get(pulse) and value_of(by_path[pulse], ct, False) == 1 and
                    (ct == t or f["time_ps"] is None) and
                    value_of(rec_sig, ct, False) in
                    [g["record"] for g in findings
                     if f["time_ps"] is None or g["time_ps"] == f["time_ps"]]):
                found = ct
                break
        if found is None:
            problems.append("no time >= %d where %s is 1, record %s and link %s" %
                            (t, pulse, f["record"], want_link))
        checks = EVIDENCE.get(f["rule"], [])
        if checks and f.get("link") is not None and f.get("port"):
            ev = f.get("evidence", {})
            base = "dllpcheck.link%d" % f["link"]
            port = f["port"]
            partner = "up" if port == "down" else "down"
            used = 0
            for when, key, sig in checks:
                sig = sig.replace("{T}", str(f.get("credit_type")))
                vc = "vc%s." % f.get("vc")
                if sig.startswith("partner."):
                    sig = "%s.port_%s.%s" % (base, partner, sig[len("partner."):])
                elif sig.startswith("port."):
                    sig = "%s.port_%s.%s" % (base, port, sig[len("port."):])
                else:
                    sig = "%s.port_%s.%s" % (base, port, sig)
                sig = sig.replace(".vc.", "." + vc)
                got = get(sig, when)
                if key == "available":
                    if "available" in ev:
                        want = ev["available"]
                    elif "CL" in ev and "CC" in ev and "width" in ev:
                        want = (ev["CL"] - ev["CC"]) % (1 << ev["width"])
                    else:
                        continue
                elif key.endswith(">0"):
                    if got is None or got == "x" or got <= 0:
                        problems.append("%s %s %s, expected > 0" % (sig, when, show(got)))
                    used += 1
                    continue
                elif key in ev:
                    want = ev[key]
                else:
                    continue
                used += 1
                if got != want:
                    problems.append("%s %s %d: %s, evidence %s=%s" %
                                    (sig, when, t, show(got), key, want))
            if used:
                with_evidence += 1
        if problems:
            bad += 1
            print("BAD %s: %s" % (where, "; ".join(problems)))
        else:
            print("ok %s" % where)
    print("checked %d findings, %d with evidence" % (len(findings), with_evidence))
    return bad == 0


# GTKWave's trace flags (its analyzer.h)
TR_SIGNED = 0x400
TR_ANALOG_STEP = 0x8000
TR_GRP_BEGIN = 0x800000
TR_GRP_END = 0x1000000


def check_gtkw(by_path, gtkw):
    names = {}
    for p, sig in by_path.items():
        names[p if sig.width == 1 else "%s[%d:0]" % (p, sig.width - 1)] = p
    problems = []
    flags = 0
    depth = 0
    groups = []
    shown = set()
    dumpfile = None
    with open(gtkw, encoding="utf-8") as fp:
        for n, line in enumerate(fp, 1):
            line = line.rstrip("\n")
            if line.startswith("[dumpfile]"):
                dumpfile = line.split(None, 1)[1].strip('"')
            elif line.startswith("[") or line.startswith("*") or not line:
                continue
            elif line.startswith("@"):
                flags = int(line[1:], 16)
            elif line.startswith("-"):
                if flags & TR_GRP_BEGIN:
                    depth += 1
                    groups.append(line[1:])
                elif flags & TR_GRP_END:
                    depth -= 1
                    if depth < 0:
                        problems.append("line %d: a group ends that did not begin" % n)
            else:
                if line not in names:
                    problems.append("line %d: %s is no signal of the VCD" % (n, line))
                    continue
                shown.add(names[line])
                if "_available" in line and not (flags & TR_ANALOG_STEP and flags & TR_SIGNED):
                    problems.append("line %d: %s not an analog signed trace (@%x)" %
                                    (n, line, flags))
    if depth:
        problems.append("%d groups not ended" % depth)
    if set(by_path) - shown:
        problems.append("not shown: %s" % sorted(set(by_path) - shown)[:5])
    if any(p.startswith("dllpcheck.findings.") for p in by_path):
        if not groups or groups[0] != "findings":
            problems.append("the first group is %s, not findings" % (groups[:1] or "none"))
    for p in problems:
        print("BAD %s" % p)
    print("gtkw traces %d groups %d dumpfile %s" % (len(shown), len(groups), dumpfile))
    return not problems


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    if argv[2] == "names":
        by_path, times, changes = {}, 0, 0
    else:
        try:
            by_path, times, changes = parse(argv[1])
        except (VcdError, ValueError, UnicodeDecodeError, OSError) as e:
            print("%s: %s" % (argv[1], e))
            return 1
    cmd = argv[2]
    if cmd == "names":
        try:
            by_path, _, _ = parse(argv[1], header_only=True)
        except (VcdError, ValueError, UnicodeDecodeError, OSError) as e:
            print("%s: %s" % (argv[1], e))
            return 1
        for p in sorted(by_path):
            print("%s %s %d" % (p, by_path[p].vtype, by_path[p].width))
        return 0
    if cmd == "gtkw" and len(argv) == 4:
        return 0 if check_gtkw(by_path, argv[3]) else 1
    if cmd == "check":
        print("signals %d times %d changes %d" % (len(by_path), times, changes))
        for p, s in by_path.items():
            print("%s %s %d" % (p, s.vtype, s.width))
        return 0
    if cmd in ("at", "before") and len(argv) >= 4:
        t = int(argv[3])
        for p in argv[4:]:
            s = by_path.get(p)
            print("%s %s" % (p, show(value_of(s, t, cmd == "before")) if s else "undeclared"))
        return 0
    if cmd == "findings" and len(argv) == 4:
        return 0 if check_findings(by_path, argv[3]) else 1
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
