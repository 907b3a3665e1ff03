#!/usr/bin/python3
"""pyloop.py FILE.pcap: the script a user would otherwise write.

A minimal loop over a capture in dllpcheck's encapsulation
(capture-format.md section 1) with Debian's python3-dpkt: it counts the
DLLPs by type byte and checks each TLP's LCRC with zlib's CRC-32 (the LCRC
is the zlib CRC of sequence field + TLP, sent least significant byte first).
No flow-control model: much less than dllpcheck does.
"""
import sys
import zlib
from collections import Counter

import dpkt


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: pyloop.py FILE.pcap")
    dllps = Counter()
    tlps = bad_lcrc = records = 0
    crc32 = zlib.crc32
    with open(sys.argv[1], "rb") as f:
        for _ts, buf in dpkt.pcap.Reader(f):
            records += 1
            kind = buf[1]
            if kind == 1:
                dllps[buf[4]] += 1
            elif kind == 2:
                tlps += 1
                if crc32(buf[4:-4]) != int.from_bytes(buf[-4:], "little"):
                    bad_lcrc += 1
    print(f"{records} records, {tlps} TLPs ({bad_lcrc} bad LCRC), "
          f"{sum(dllps.values())} DLLPs in {len(dllps)} type bytes")


if __name__ == "__main__":
    main()
