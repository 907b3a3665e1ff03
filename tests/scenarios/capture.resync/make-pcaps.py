#!/usr/bin/env python3
"""Makes fire.pcap and miss.pcap for the capture.resync scenario (a text
trace has no record headers to damage).  Run once; the pcaps are committed.

fire.pcap: link-up and recovery events 10 ns apart; the header of the third
record is damaged (captured length 0x7fffffff, which libpcap refuses), and
after its payload come 600 bytes that are no record: random bytes (with
0xD1 in them) and a well-formed record at 5 ns, before the last record
read (10 ns), which the search must pass over.  Reading goes on at the fourth
record: one capture.resync, 624 bytes skipped.
miss.pcap: the near miss: a snapshot length of 8 and a DLLP record whose
captured length (10) is above it but within the file and below 262144:
libpcap cuts it to 8 bytes and skips the rest, and so does dllpcheck (a
capture.truncated record, no resync); the events around it are read.
fire-unread.pcap: the file ends 8 bytes into the third record's header: no
record follows, the 8 bytes are left unread (the evidence key bytes_unread).
"""
import random
import struct

def crc16(b):
    reg = 0xFFFF
    for x in b:
        reg ^= x
        for _ in range(8):
            reg = (reg >> 1) ^ 0xD008 if reg & 1 else reg >> 1
    r = (~reg) & 0xFFFF
    return bytes([r & 0xFF, r >> 8])

def rec(t_ns, kind, payload, caplen=None):
    data = bytes([0xD1, kind, 0, 0]) + payload
    cap = len(data) if caplen is None else caplen
    return struct.pack('<IIII', t_ns // 10**9, t_ns % 10**9, cap, len(data)) + data

def hdr(snaplen=65535):
    return struct.pack('<IHHiIII', 0xa1b23c4d, 2, 4, 0, 0, snaplen, 147)

link_up = bytes([1, 0, 0, 0])
recovery = bytes([4, 0, 0, 0])
rng = random.Random(12)
junk = bytes(rng.choice([0xD1, 0x00, 0x03, rng.randrange(256)]) for _ in range(300))
junk += rec(5, 3, recovery)                      # a record, but earlier in time
junk += bytes(rng.randrange(256) for _ in range(600 - len(junk)))
damaged = rec(20, 3, recovery)
damaged = damaged[:8] + struct.pack('<I', 0x7fffffff) + damaged[12:]
with open('fire.pcap', 'wb') as f:
    f.write(hdr() + rec(0, 3, link_up) + rec(10, 3, recovery) + damaged + junk
            + rec(30, 3, recovery) + rec(40, 3, recovery))

dllp = bytes([0x40, 0x08, 0x01, 0x00])           # InitFC1-P VC0 hdr=32 data=256
dllp += crc16(dllp)
with open('miss.pcap', 'wb') as f:
    f.write(hdr(8) + rec(0, 3, link_up) + rec(10, 1, dllp) + rec(20, 3, recovery))

with open('fire-unread.pcap', 'wb') as f:
    f.write(hdr() + rec(0, 3, link_up) + rec(10, 3, recovery) + rec(20, 3, recovery)[:8])
