#!/usr/bin/env python3
"""properties.py DLLPCHECK PCAP...: the two properties that keep the model
honest [rules.md "How the model reads a trace"], over clean captures:

  mid-stream      every suffix of a clean capture (its first k records
                  dropped, for every k) yields no error and no warning;
  one damaged     a capture in which exactly one DLLP's CRC or one TLP's
  packet          LCRC is damaged (each in turn) yields exactly one error,
                  that CRC error, and no other error;
  one damaged     a capture in which one record header is damaged (its
  header          captured length past the file, each in turn) yields one
                  capture.resync and no error: what the skipped bytes held
                  is unknown [capture-format.md section 1].

Each PCAP must be a classic pcap in the dllpcheck encapsulation
(capture-format.md section 1) that dllpcheck reports clean.  The captures
are rewritten here record by record; dllpcheck reads each variant on
standard input and reports in JSON Lines.  Prints one line per failure and
closes with 'N passed, N failed'; exits 1 on any failure.
"""
import json
import struct
import subprocess
import sys

KIND_DLLP, KIND_TLP = 1, 2
FLAG_NO_CRC = 0x02


def read_pcap(path):
    with open(path, "rb") as f:
        data = f.read()
    magic = data[:4]
    if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
        endian = "<"
    elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
        endian = ">"
    else:
        raise SystemExit(f"{path}: not a classic pcap")
    header, records, off = data[:24], [], 24
    while off + 16 <= len(data):
        incl = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        records.append(bytearray(data[off:off + 16 + incl]))
        off += 16 + incl
    if off != len(data):
        raise SystemExit(f"{path}: {len(data) - off} bytes after the last record")
    return header, records


def run(dllpcheck, header, records, name):
    blob = header + b"".join(bytes(r) for r in records)
    proc = subprocess.run([dllpcheck, "--format=jsonl", "--fail-on", "info", "-"],
                          input=blob, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        return None, f"{name}: exit status {proc.returncode}: {proc.stderr.decode(errors='replace').strip()}"
    findings = []
    for line in proc.stdout.decode().splitlines():
        obj = json.loads(line)
        if obj.get("type") == "finding":
            findings.append(obj)
    return findings, None


def describe(findings):
    return "; ".join(f"record {f['record']} {f['severity']} {f['rule']}" for f in findings[:6])


def check_capture(dllpcheck, path):
    header, records = read_pcap(path)
    passed = failed = 0

    def fail(msg):
        nonlocal failed
        failed += 1
        print(f"FAIL: {path}: {msg}")

    findings, err = run(dllpcheck, header, records, "whole")
    bad = [f for f in (findings or []) if f["severity"] in ("error", "warning")]
    if err or bad:
        fail(err or f"the capture itself is not clean: {describe(bad)}")
        return passed, failed + 1
    passed += 1

    # Mid-stream: every suffix.
    for k in range(1, len(records)):
        findings, err = run(dllpcheck, header, records[k:], f"suffix {k}")
        bad = [f for f in (findings or []) if f["severity"] in ("error", "warning")]
        if err or bad:
            fail(err or f"first {k} records dropped: {describe(bad)}")
        else:
            passed += 1

    # One damaged packet: the last CRC byte of each DLLP and TLP in turn.
    for i, rec in enumerate(records):
        payload = rec[16:]
        if len(payload) < 5 or payload[0] != 0xD1:
            continue
        kind, flags = payload[1], payload[2]
        if kind not in (KIND_DLLP, KIND_TLP) or flags & FLAG_NO_CRC:
            continue
        damaged = list(records)
        damaged[i] = bytearray(rec)
        damaged[i][-1] ^= 0x01
        findings, err = run(dllpcheck, header, damaged, f"record {i + 1} damaged")
        if err:
            fail(err)
            continue
        errors = [f for f in findings if f["severity"] == "error"]
        want = "dllp.crc" if kind == KIND_DLLP else "tlp.lcrc"
        if len(errors) == 1 and errors[0]["rule"] == want and errors[0]["record"] == i + 1:
            passed += 1
        else:
            fail(f"record {i + 1} damaged: expected exactly one error, {want} on it; got "
                 f"{len(errors)}: {describe(errors)}")

    # One damaged record header: the reader skips to the next record.
    endian = "<" if header[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    for i, rec in enumerate(records):
        damaged = list(records)
        damaged[i] = bytearray(rec)
        damaged[i][8:12] = struct.pack(endian + "I", 0x7FFFFFFF)
        findings, err = run(dllpcheck, header, damaged, f"record {i + 1} header damaged")
        if err:
            fail(err)
            continue
        errors = [f for f in findings if f["severity"] == "error"]
        resyncs = [f for f in findings if f["rule"] == "capture.resync"]
        if not errors and len(resyncs) == 1:
            passed += 1
        else:
            fail(f"record {i + 1} header damaged: expected one capture.resync and no error; "
                 f"got {len(resyncs)} resyncs, errors: {describe(errors)}")
    return passed, failed


def main():
    if len(sys.argv) < 3:
        raise SystemExit("usage: properties.py DLLPCHECK PCAP...")
    passed = failed = 0
    for path in sys.argv[2:]:
        p, f = check_capture(sys.argv[1], path)
        passed, failed = passed + p, failed + f
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
