#!/usr/bin/env python3
"""wireshark-compare.py --dllpcheck PROG --tshark PROG --lua FILE [--dlt N] CAPTURE...

Compares, record by record and field by field, what the Wireshark
dissector contrib/wireshark/dllpcheck.lua shows for each capture with what
`dllpcheck --decode --format=jsonl` says about it:

  * every key of a record's JSON object against the field of the same
    name (dllpcheck.dllp.KEY, dllpcheck.tlp.KEY, dllpcheck.event.KEY;
    link, direction, kind, truncated, phy_error, time_ps, captured_bytes
    and wire_bytes against dllpcheck.* and frame.*), and every dllpcheck.*
    field the dissector shows against a JSON key (but the few listed in
    WS_ONLY, which have none);
  * the Info column against the `dllpcheck --decode` line after its record
    number and time (a malformed record: "malformed: REASON");
  * the expert infos: an error for each bad CRC, LCRC and ECRC, malformed
    record and malformed TLP, a note for a nullified TLP, a warning for a
    truncated record and for PHY_ERROR, and nothing else of those.

Prints one line per capture and a total; exits 1 on any disagreement, 2
when a program cannot be run.  Two readings of dllpcheck are not the
dissector's, and are counted apart (KNOWN_DIFFERENCES below)."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

# Fields of the dissector that no JSON key has: the raw pseudo-header, the
# bits dllpcheck does not print, the data bytes.  (hdr_infinite and
# data_infinite are checked against a null hdr_credits / data_credits.)
WS_ONLY = {
    "dllpcheck.version", "dllpcheck.flags", "dllpcheck.flags.no_crc",
    "dllpcheck.flags.no_seq", "dllpcheck.flags.reserved", "dllpcheck.malformed",
    "dllpcheck.dllp.hdr_infinite", "dllpcheck.dllp.data_infinite",
    "dllpcheck.dllp.immediate_readiness", "dllpcheck.tlp.seq_reserved",
    "dllpcheck.tlp.prefix_dw", "dllpcheck.tlp.th", "dllpcheck.tlp.at",
    "dllpcheck.tlp.steering_tag", "dllpcheck.tlp.data", "dllpcheck.event.code",
    "dllpcheck.event.arg", "dllpcheck.event.reserved",
}

# Keys of a TLP's JSON object that come from its first header DW.
DW0_KEYS = ("fmt", "type_field", "header_dw", "tc", "td", "ep", "attr", "length_field",
            "length_dw", "payload_dw")

KNOWN_DIFFERENCES = """\
  dw0-absent: a TLP record cut before its first header DW: dllpcheck gives
    fmt, type_field, header_dw, tc, td, ep, attr, Length as 0; the dissector
    shows none of them (the record does not hold them)
  seq-absent: a TLP record cut before its 2-byte sequence field: dllpcheck
    gives seq 0 (src/wire/tlp.c sets has_seq from the flag alone); the
    dissector shows no sequence number"""

SEV_ERROR, SEV_WARN, SEV_NOTE = 8388608, 6291456, 4194304


class Mismatch(Exception):
    pass


def run(cmd, env=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    except OSError as exc:
        print(f"cannot run {cmd[0]}: {exc}", file=sys.stderr)
        sys.exit(2)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def ws_fields(args, env):
    """The dllpcheck.* field names the dissector registers."""
    rc, out, err = run([args.tshark, "-G", "fields", "-X", "lua_script:" + args.lua], env)
    # (the expert infos are FT_NONE fields: they are checked apart)
    rows = [ln.split("\t") for ln in out.splitlines() if ln.startswith("F\t")]
    names = [r[2] for r in rows if r[2].startswith("dllpcheck.") and r[3] != "FT_NONE"]
    if rc != 0 or not names:
        print(f"tshark -G fields found no dllpcheck field: {err.strip()}", file=sys.stderr)
        sys.exit(2)
    return names


def tshark_records(args, env, names, path):
    cmd = [args.tshark, "-n", "-X", "lua_script:" + args.lua, "-r", path, "-T", "json"]
    if args.dlt is not None:
        cmd += ["-o", f"dllpcheck.dlt:{args.dlt}"]
    for n in ["frame.number", "frame.time_epoch", "frame.len", "frame.cap_len", "_ws.col.Info",
              "_ws.expert.message", "_ws.expert.severity"] + names:
        cmd += ["-e", n]
    rc, out, err = run(cmd, env)
    if rc != 0:
        raise Mismatch(f"tshark failed ({rc}): {err.strip()}")
    return [pkt["_source"]["layers"] for pkt in json.loads(out or "[]")]


def dllpcheck_records(args, path):
    opts = ["--dlt", str(args.dlt)] if args.dlt is not None else []
    rc, out, err = run([args.dllpcheck, "--decode", "--format=jsonl"] + opts + [path])
    objs = [json.loads(ln) for ln in out.splitlines() if ln.strip()]
    rc2, text, _ = run([args.dllpcheck, "--decode"] + opts + [path])
    if rc > 1 or rc2 > 1 or not objs:
        raise Mismatch(f"dllpcheck --decode failed ({rc}): {err.strip()}")
    return objs, text.splitlines()


def one(layers, name):
    v = layers.get(name)
    if v is None:
        return None
    if len(v) != 1:
        raise Mismatch(f"{name} shown {len(v)} times: {v}")
    return v[0]


def same(key, jval, wval):
    """A JSON value and the field's text as tshark -T json gives it."""
    if wval is None:
        return False
    if isinstance(jval, bool):
        return wval == ("1" if jval else "0")
    if isinstance(jval, int):
        try:
            return int(wval, 0) == jval
        except ValueError:
            return False
    if key == "address":
        return int(wval, 0) == int(jval, 16)
    return wval == jval


class Compare:
    def __init__(self):
        self.fields = 0
        self.records = 0
        self.known = {"dw0-absent": 0, "seq-absent": 0}

    def field(self, layers, used, key, jval, name):
        used.add(name)
        if jval is None:
            if name in layers:
                raise Mismatch(f"{name}: dllpcheck has null, the dissector {layers[name]}")
        elif isinstance(jval, list):
            got = [int(x, 0) for x in layers.get(name, [])]
            if got != jval:
                raise Mismatch(f"{name}: dllpcheck {jval}, the dissector {got}")
        else:
            w = one(layers, name)
            if not same(key, jval, w):
                raise Mismatch(f"{name}: dllpcheck {jval!r}, the dissector {w!r}")
        self.fields += 1

    def section(self, layers, used, prefix, obj, skip=()):
        for key, jval in obj.items():
            if key in skip:
                continue
            name = prefix + key
            if key == "credits":
                (hk, hv), (dk, dv) = list(jval.items())
                self.field(layers, used, hk, hv, prefix + "hdr_credits")
                self.field(layers, used, dk, dv, prefix + "data_credits")
                continue
            if key in ("hdr_credits", "data_credits") and prefix == "dllpcheck.dllp.":
                inf = prefix + key.split("_")[0] + "_infinite"
                used.add(inf)
                if (jval is None) != (one(layers, inf) == "1"):
                    raise Mismatch(f"{name}: dllpcheck {jval}, the dissector {inf} "
                                   f"{one(layers, inf)}")
            self.field(layers, used, key, jval, name)

    def record(self, obj, layers, text_line, base_s):
        used = set()
        rec_no = obj["record"]
        info = one(layers, "_ws.col.Info") or ""
        experts = list(zip(layers.get("_ws.expert.severity", []),
                           layers.get("_ws.expert.message", [])))
        want = []  # (severity, message prefix)
        cap = int(one(layers, "frame.cap_len"))
        wire = max(int(one(layers, "frame.len")), cap)
        if obj["type"] == "malformed":
            self.field(layers, used, "reason", obj["reason"], "dllpcheck.malformed")
            expect_info = "malformed: " + obj["reason"]
            want.append((SEV_ERROR, "Malformed record: " + obj["reason"]))
            # the pseudo-header as it stands: dllpcheck's object has no keys for it
            used.update(("dllpcheck.kind", "dllpcheck.direction", "dllpcheck.link",
                         "dllpcheck.flags.phy_error"))
        else:
            # the record's own keys
            sec, _, frac = one(layers, "frame.time_epoch").partition(".")
            time_ps = (int(sec) - base_s) * 10**12 + int((frac + "000000000")[:9]) * 1000
            if time_ps != obj["time_ps"]:
                raise Mismatch(f"time_ps: dllpcheck {obj['time_ps']}, frame.time_epoch "
                               f"{one(layers, 'frame.time_epoch')}")
            if obj["captured_bytes"] != cap - 4 or obj["wire_bytes"] != wire - 4:
                raise Mismatch(f"captured/wire bytes {obj['captured_bytes']}/"
                               f"{obj['wire_bytes']}, frame {cap}/{wire}")
            self.fields += 3
            self.field(layers, used, "link", obj["link"], "dllpcheck.link")
            self.field(layers, used, "direction", {"down": 0, "up": 1}[obj["direction"]],
                       "dllpcheck.direction")
            self.field(layers, used, "kind", {"dllp": 1, "tlp": 2, "event": 3}[obj["kind"]],
                       "dllpcheck.kind")
            self.field(layers, used, "truncated", obj["truncated"], "dllpcheck.truncated")
            self.field(layers, used, "phy_error", obj["phy_error"], "dllpcheck.flags.phy_error")
            expect_info = text_line.split(" ", 2)[2]
            if obj["truncated"]:
                want.append((SEV_WARN, "Record truncated"))
            if obj["phy_error"]:
                want.append((SEV_WARN, "The capture hardware saw"))
            if "dllp" in obj:
                d = obj["dllp"]
                self.section(layers, used, "dllpcheck.dllp.", d)
                if d["crc"] == "bad":
                    want.append((SEV_ERROR, "Bad DLLP CRC-16"))
            elif obj["kind"] == "dllp":
                used.add("dllpcheck.dllp.type_byte")  # truncated: in the Info only
            if "event" in obj:
                self.section(layers, used, "dllpcheck.event.", obj["event"])
            if "tlp" in obj:
                t = obj["tlp"]
                skip = set()
                if "dllpcheck.tlp.fmt" not in layers:
                    if any(t[k] not in (0, False) for k in DW0_KEYS):
                        raise Mismatch("the dissector shows no first header DW, "
                                       f"dllpcheck decoded one: {t}")
                    skip.update(DW0_KEYS)
                    self.known["dw0-absent"] += 1
                if "seq" in t and obj["captured_bytes"] < 2:
                    if t["seq"] != 0 or "dllpcheck.tlp.seq" in layers:
                        raise Mismatch(f"seq of a record of {obj['captured_bytes']} bytes")
                    skip.add("seq")
                    expect_info = expect_info.replace(" TLP seq=0x000 ", " TLP ", 1)
                    self.known["seq-absent"] += 1
                self.section(layers, used, "dllpcheck.tlp.", t, skip)
                if t["lcrc"] == "bad":
                    want.append((SEV_ERROR, "Bad LCRC"))
                if t["lcrc"] == "nullified":
                    want.append((SEV_NOTE, "Nullified TLP"))
                if t.get("ecrc") == "bad":
                    want.append((SEV_ERROR, "Bad ECRC"))
                if t["status"] not in ("ok", "the capture holds fewer bytes than the TLP had"):
                    want.append((SEV_ERROR, "Malformed TLP: " + t["status"]))
        if info != expect_info:
            raise Mismatch(f"Info column:\n    dllpcheck:  {expect_info}\n"
                           f"    dissector:  {info}")
        self.fields += 1
        # every field the dissector shows is one of dllpcheck's
        for name in layers:
            if name.startswith("dllpcheck.") and name not in used and name not in WS_ONLY:
                raise Mismatch(f"the dissector shows {name} = {layers[name]}, "
                               "dllpcheck has no such key")
        # the expert infos: the reserved-bits notes are the dissector's own
        got = [(int(s), m) for s, m in experts
               if not (int(s) == SEV_NOTE and not m.startswith("Nullified"))]
        for sev, prefix in want:
            hit = [g for g in got if g[0] == sev and g[1].startswith(prefix)]
            if not hit:
                raise Mismatch(f"no expert info '{prefix}...' (severity {sev}); got {got}")
            got.remove(hit[0])
        if got:
            raise Mismatch(f"expert infos dllpcheck does not explain: {got}")
        self.fields += 1
        self.records += 1


def compare_file(args, env, names, path, cmp):
    objs, text = dllpcheck_records(args, path)
    frames = tshark_records(args, env, names, path)
    by_no = {int(one(fr, "frame.number")): fr for fr in frames}
    lines = {}
    for ln in text:
        if ln.startswith("#"):
            continue  # a reader's note (--decode's "# note ..."), no record
        no, _, _ = ln.partition(" ")
        lines[int(no)] = ln
    if sorted(by_no) != [o["record"] for o in objs]:
        raise Mismatch(f"dllpcheck has records {[o['record'] for o in objs][:10]}..., "
                       f"tshark frames {sorted(by_no)[:10]}...")
    base_s = 0
    if frames:
        first = int(one(frames[0], "frame.time_epoch").partition(".")[0])
        base_s = first if first >= 10000000 else 0
    for obj in objs:
        no = obj["record"]
        try:
            cmp.record(obj, by_no[no], lines[no], base_s)
        except Mismatch as exc:
            raise Mismatch(f"record {no}: {exc}")
    return len(objs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dllpcheck", required=True)
    ap.add_argument("--tshark", required=True)
    ap.add_argument("--lua", required=True)
    ap.add_argument("--dlt", type=int)
    ap.add_argument("captures", nargs="+")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dllpcheck-wshark.") as home:
        # no personal profile, preferences or plugins of whoever runs this
        env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=home, LC_ALL="C")
        names = ws_fields(args, env)
        cmp = Compare()
        bad = 0
        for path in args.captures:
            before = cmp.fields
            try:
                n = compare_file(args, env, names, path, cmp)
                print(f"ok   {path}: {n} records, {cmp.fields - before} fields")
            except Mismatch as exc:
                print(f"FAIL {path}: {exc}")
                bad += 1
    print(f"{cmp.records} records, {cmp.fields} fields compared in {len(args.captures)} "
          f"captures; {bad} disagreeing; known differences: "
          + ", ".join(f"{k} {v}" for k, v in cmp.known.items()))
    if any(cmp.known.values()):
        print(KNOWN_DIFFERENCES)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
