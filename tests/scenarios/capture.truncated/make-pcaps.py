#!/usr/bin/env python3
"""Makes fire.pcap and miss.pcap for the capture.truncated scenario (a text
trace cannot express a snap length).  Run once; the pcaps are committed.

fire.pcap: link-up, then an InitFC1-P DLLP captured with 4 of its 6 bytes
and an MWr32 TLP (16 DW) captured with 20 of its 82 bytes (snap length):
both are capture.truncated and neither is applied to the model (the TLP
would otherwise be fc.init.tlp-before-init).
miss.pcap: the same link-up and DLLP captured whole; the TLP left out.
"""
import struct

def crc16(b):
    reg = 0xFFFF
    for x in b:
        reg ^= x
        for _ in range(8):
            reg = (reg >> 1) ^ 0xD008 if reg & 1 else reg >> 1
    r = (~reg) & 0xFFFF
    return bytes([r & 0xFF, r >> 8])

def rec(t_ns, kind, flags, payload, caplen=None):
    data = bytes([0xD1, kind, flags, 0]) + payload
    cap = len(data) if caplen is None else caplen
    return struct.pack('<IIII', t_ns // 10**9, t_ns % 10**9, cap, len(data)) + data[:cap]

hdr = struct.pack('<IHHiIII', 0xa1b23c4d, 2, 4, 0, 0, 65535, 147)
dllp = bytes([0x40, 0x08, 0x01, 0x00])  # InitFC1-P VC0 hdr=32 data=256
dllp += crc16(dllp)
tlp = bytes([0x00, 0x00, 0x40, 0x00, 0x00, 0x10, 0x01, 0x00, 0x00, 0xFF,
             0xF7, 0xD0, 0x00, 0x00]) + bytes(64) + bytes(4)
event = bytes([1, 0, 0, 0])
with open('fire.pcap', 'wb') as f:
    f.write(hdr + rec(0, 3, 0, event) + rec(10, 1, 0, dllp, caplen=8)
            + rec(20, 2, 0, tlp, caplen=24))
with open('miss.pcap', 'wb') as f:
    f.write(hdr + rec(0, 3, 0, event) + rec(10, 1, 0, dllp))
