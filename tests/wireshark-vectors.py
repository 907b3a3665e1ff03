#!/usr/bin/env python3
"""wireshark-vectors.py VECTORS_DIR OUT.pcap: writes the golden vectors of
tests/vectors (dllp_vectors.txt: 6 DLLP bytes; tlp_vectors.txt: sequence
field, TLP, LCRC) as records of the dllpcheck encapsulation
(capture-format.md section 1), and prints, one line per record, the CRC
verdicts the vector files give, as `tshark -T fields -e dllpcheck.dllp.crc
-e dllpcheck.tlp.lcrc -e dllpcheck.tlp.ecrc` prints the dissector's: so the
dissector's CRC-16, LCRC and ECRC are checked against the vectors
themselves, not against dllpcheck's C code."""
import os
import struct
import sys


def vectors(path):
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                hexbytes, rest = line.split(None, 1)
                yield bytes.fromhex(hexbytes), rest.split("#", 1)[0]


def main():
    vdir, out = sys.argv[1], sys.argv[2]
    pcap = bytearray(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 147))
    expected = []
    ns = 0

    def rec(kind, payload):
        nonlocal ns
        ns += 10
        data = bytes([0xD1, kind, 0, 0]) + payload
        pcap.extend(struct.pack("<IIII", 0, ns, len(data), len(data)) + data)

    for b, fields in vectors(os.path.join(vdir, "dllp_vectors.txt")):
        rec(1, b)
        expected.append(("ok" if "crc_ok" in fields else "bad") + "\t\t")
    for b, fields in vectors(os.path.join(vdir, "tlp_vectors.txt")):
        rec(2, b)
        lcrc = fields.split("lcrc=", 1)[1].split()[1]  # "ok" or "nullified"
        ecrc = "ok" if " td=1 " in fields else ""
        expected.append(f"\t{lcrc}\t{ecrc}")
    with open(out, "wb") as f:
        f.write(pcap)
    print("\n".join(expected))


if __name__ == "__main__":
    main()
