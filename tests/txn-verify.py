#!/usr/bin/env python3
"""txn-verify.py [--mps BYTES] [--mrrs BYTES] PCAP: an oracle of the transaction
layer, apart from dllpcheck, over a clean capture of bench/gen or
tests/gen-long-clean.sh: a TLP is new when its sequence number is the next
of its direction (the first one seen starts it), else a replay, skipped.

It checks the capture against the spec facts the generator claims to
follow (notes/tl-facts.md; rules.md "The transaction layer"), with its own
decoding of the header bytes, so that a clean report of dllpcheck on it
means something:

  - a non-posted request never reuses a Requester ID and Tag outstanding
    in its direction; memory requests do not cross 4 KB; memory reads ask
    for at most MRRS (512 bytes); byte enables follow section 3; I/O and
    configuration requests are 1 DW on TC0; AtomicOp addresses are
    naturally aligned to the operand;
  - every completion goes the other way and answers an outstanding request
    with its Requester ID, Tag and TC, status SC; a memory read's pieces
    return the bytes in order, each with Byte Count = the bytes still owed
    and Lower Address = the low 7 bits of its first byte, each ending at
    the end of the request or at a multiple of the completer's RCB (64
    bytes down, from the Root Port; 128 up), with at most MPS (256 bytes)
    of data; the other kinds get one completion: CplD for I/O and
    configuration reads (Byte Count 4) and AtomicOps (the operand size),
    Cpl for writes and DMWr (Byte Count 4), Lower Address 0;
  - messages carry the routing of their code, go the right way (INTx,
    to-RC, gathered: up; broadcast, Set_Slot_Power_Limit: down) on TC0;
  - every request is answered within 50 ms.
--mps and --mrrs give Max_Payload_Size and Max_Read_Request_Size (default
256 and 512 bytes, bench/gen's).

Prints "txn DIR requests N completed N outstanding N completions N
messages N max-latency-ns N kinds K=N..." per direction of the requests
(the format of bench/gen's closing counts, which the caller compares),
then "coverage tag10 N split N rcb64 N la64 N zero-length N requesters N"
(10-bit tags, pieces ending at an RCB boundary before the end, of them
those not on a 128-byte one, later pieces with Lower Address 64, zero-length
reads, Requester IDs that sent requests), then any violation as "BAD: record N: why"; exits 1 on a violation.
"""
import struct
import sys

MPS, MRRS = 256, 512
RCB = {0: 64, 1: 128}  # by the completer's direction: down = the Root Port

# (fmt, type) -> kind; fmt bit 0 (4 DW) varies for memory kinds
KINDS = {
    (0, 0x00): "MRd", (1, 0x00): "MRd", (0, 0x01): "MRdLk", (1, 0x01): "MRdLk",
    (2, 0x00): "MWr", (3, 0x00): "MWr", (0, 0x02): "IORd", (2, 0x02): "IOWr",
    (0, 0x04): "CfgRd0", (2, 0x04): "CfgWr0", (0, 0x05): "CfgRd1", (2, 0x05): "CfgWr1",
    (0, 0x0A): "Cpl", (2, 0x0A): "CplD", (0, 0x0B): "CplLk", (2, 0x0B): "CplDLk",
    (2, 0x0C): "FetchAdd", (3, 0x0C): "FetchAdd", (2, 0x0D): "Swap", (3, 0x0D): "Swap",
    (2, 0x0E): "CAS", (3, 0x0E): "CAS", (2, 0x1B): "DMWr", (3, 0x1B): "DMWr",
}
NONPOSTED = ["MRd", "MRdLk", "IORd", "IOWr", "CfgRd0", "CfgWr0", "CfgRd1", "CfgWr1",
             "FetchAdd", "Swap", "CAS", "DMWr"]
# message code -> (routing, direction it may go: 1 up, 0 down, None both)
MSGS = {0x20: (4, 1), 0x21: (4, 1), 0x22: (4, 1), 0x23: (4, 1), 0x24: (4, 1), 0x25: (4, 1),
        0x26: (4, 1), 0x27: (4, 1), 0x14: (4, 0), 0x18: (0, 1), 0x19: (3, 0), 0x1B: (5, 1),
        0x30: (0, 1), 0x31: (0, 1), 0x33: (0, 1), 0x00: (3, 0), 0x50: (4, 0), 0x10: (4, 1),
        0x12: (4, 0), 0x7E: (None, None), 0x7F: (None, None)}


def low_zero(be):
    return (be & -be).bit_length() - 1 if be else 4


def read_bytes(length, fbe, lbe):
    """Table 2-40, computed the long way: the enabled byte span."""
    if length == 1:
        if fbe == 0:
            return 1
        bits = [i for i in range(4) if fbe >> i & 1]
        return bits[-1] - bits[0] + 1
    hi = max(i for i in range(4) if lbe >> i & 1)
    return 4 * length - low_zero(fbe) - (3 - hi)


def records(path):
    data = open(path, "rb").read()
    endian = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    nano = data[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    off, n = 24, 0
    while off + 16 <= len(data):
        sec, frac, incl = struct.unpack(endian + "III", data[off:off + 12])
        n += 1
        yield n, sec * 10**9 + (frac if nano else frac * 1000), data[off + 16:off + 16 + incl]
        off += 16 + incl


def main():
    global MPS, MRRS
    args = sys.argv[1:]
    while len(args) >= 3 and args[0] in ("--mps", "--mrrs"):
        if args[0] == "--mps":
            MPS = int(args[1])
        else:
            MRRS = int(args[1])
        args = args[2:]
    if len(args) != 1:
        raise SystemExit("usage: txn-verify.py [--mps BYTES] [--mrrs BYTES] PCAP")
    next_seq = {}
    bad = []
    out = {d: {} for d in (0, 1)}   # outstanding by requester's dir: (req, tag) -> state
    cov = {"tag10": 0, "split": 0, "rcb64": 0, "la64": 0, "zero-length": 0, "requesters": set()}
    cnt = {d: {"requests": {}, "completed": 0, "completions": 0, "messages": 0, "lat": 0}
           for d in (0, 1)}
    for n, t_ns, rec in records(args[0]):
        if len(rec) < 4 or rec[1] != 2:
            continue
        d = rec[2] & 1
        seq = (rec[4] & 0xF) << 8 | rec[5]
        if d in next_seq and seq != next_seq[d]:
            continue  # a replay
        next_seq[d] = (seq + 1) % 4096
        h = rec[4 + 2:]  # after the pseudo-header and the sequence number
        fmt, typ = h[0] >> 5, h[0] & 0x1F
        tc = h[1] >> 4 & 7
        tag8 = (h[1] >> 7 & 1) << 9 | (h[1] >> 3 & 1) << 8
        length = ((h[2] & 3) << 8 | h[3]) or 1024
        why = lambda s: bad.append(f"record {n}: {s}")
        if typ & 0x18 == 0x10:  # Msg / MsgD
            code, rr = h[7], typ & 7
            cnt[d]["messages"] += 1
            want = MSGS.get(code)
            if want is None:
                why(f"message code {code:#x} not generated")
            elif want[0] is not None and rr != want[0]:
                why(f"message {code:#x} with routing {rr}, not {want[0]}")
            elif want[1] is not None and d != want[1]:
                why(f"message {code:#x} the wrong way")
            if rr in (0, 5) and d == 0 or rr == 3 and d == 1:
                why(f"routing {rr} the wrong way")
            if code != 0x7F and code != 0x7E and tc:
                why(f"message {code:#x} on TC{tc}")
            if code == 0x50 and (fmt != 3 or length != 1):
                why("Set_Slot_Power_Limit is not a MsgD of 1 DW")
            continue
        kind = KINDS.get((fmt, typ))
        if kind is None:
            why(f"Fmt {fmt} Type {typ:#x} unknown")
            continue
        four = fmt & 1
        if kind.startswith("Cpl"):
            completer, = struct.unpack(">H", h[4:6])
            status, bc = h[6] >> 5, (h[6] & 0xF) << 8 | h[7]
            bc = bc or 4096
            req, = struct.unpack(">H", h[8:10])
            tag, la = tag8 | h[10], h[11] & 0x7F
            rd = 1 - d
            st = out[rd].get((req, tag))
            cnt[rd]["completions"] += 1
            if st is None:
                why(f"completion of {req:04x}/{tag} answers nothing outstanding")
                continue
            if status:
                why(f"status {status}")
            if tc != st["tc"]:
                why(f"TC{tc}, the request was TC{st['tc']}")
            data = fmt & 2
            if st["kind"] in ("MRd", "MRdLk"):
                if kind != ("CplDLk" if st["kind"] == "MRdLk" else "CplD"):
                    why(f"{kind} answers {st['kind']}")
                if bc != st["end"] - st["cur"]:
                    why(f"Byte Count {bc}, {st['end'] - st['cur']} still owed")
                if la != st["cur"] & 0x7F:
                    why(f"Lower Address {la}, the first byte is at {st['cur'] & 0x7F}")
                if 4 * length > MPS:
                    why(f"{4 * length} bytes of data, over MPS")
                end = (st["cur"] & ~3) + 4 * length
                if end >= st["end"]:
                    if end - st["end"] > 3:
                        why("data past the end of the request")
                    end = st["end"]
                elif end % RCB[d]:
                    why(f"a piece ends at {end:#x}, no multiple of RCB {RCB[d]}")
                else:
                    cov["split"] += 1
                    cov["rcb64"] += end % 128 != 0
                cov["la64"] += st["cur"] != st["start"] and la == 64
                st["cur"] = end
                done = end == st["end"]
            else:
                want_dw, want_bc = st["cpl"]
                if bool(data) != bool(want_dw) or (data and length != want_dw):
                    why(f"{kind} of {length} DW answers {st['kind']}")
                if bc != want_bc or la:
                    why(f"{st['kind']} completion with Byte Count {bc}, Lower Address {la}")
                done = True
            if done:
                del out[rd][(req, tag)]
                cnt[rd]["completed"] += 1
                cnt[rd]["lat"] = max(cnt[rd]["lat"], t_ns - st["t"])
                if t_ns - st["t"] > 50 * 10**6:
                    why("answered after 50 ms")
            continue
        req, = struct.unpack(">H", h[4:6])
        tag, fbe, lbe = tag8 | h[6], h[7] & 0xF, h[7] >> 4
        if kind in ("CfgRd0", "CfgWr0", "CfgRd1", "CfgWr1"):
            addr = 0
        elif four:
            addr = struct.unpack(">Q", h[8:16])[0] & ~3
            if addr < 1 << 32:
                why("a 64-bit address below 4 GiB")
        else:
            addr = struct.unpack(">I", h[8:12])[0] & ~3
        mem = kind in ("MRd", "MRdLk", "MWr", "DMWr", "FetchAdd", "Swap", "CAS")
        if mem and kind not in ("FetchAdd", "Swap", "CAS"):
            if length == 1 and lbe or length > 1 and (not fbe or not lbe):
                why(f"byte enables {fbe:x}/{lbe:x} for {length} DW")
        if mem and addr // 4096 != (addr + 4 * length - 1) // 4096:
            if kind != "CAS" or addr // 4096 != (addr + 2 * length - 1) // 4096:
                why(f"{kind} at {addr:#x} of {length} DW crosses 4 KB")
        if kind == "MWr":
            if 4 * length > MPS:
                why("MWr over MPS")
            continue
        if kind not in NONPOSTED:
            why(f"{kind} unexpected")
            continue
        cnt[d]["requests"][kind] = cnt[d]["requests"].get(kind, 0) + 1
        if (req, tag) in out[d]:
            why(f"{kind} reuses {req:04x}/{tag}, outstanding since record {out[d][(req, tag)]['n']}")
        st = {"kind": kind, "tc": tc, "t": t_ns, "n": n}
        cov["tag10"] += tag >= 256
        cov["requesters"].add((d, req))
        if kind in ("MRd", "MRdLk"):
            nbytes = read_bytes(length, fbe, lbe)
            if nbytes > MRRS:
                why("read over MRRS")
            st["cur"] = addr + (low_zero(fbe) if fbe else 0)
            st["end"] = st["cur"] + nbytes
            st["start"] = st["cur"]
            cov["zero-length"] += length == 1 and fbe == 0
        elif kind in ("FetchAdd", "Swap", "CAS"):
            op = 4 * length // (2 if kind == "CAS" else 1)
            if addr % op:
                why(f"{kind} at {addr:#x} not aligned to its {op}-byte operand")
            st["cpl"] = (op // 4, op)
        else:
            if kind != "DMWr" and (length != 1 or lbe or tc):
                why(f"{kind} of {length} DW, Last DW BE {lbe:x}, TC{tc}")
            st["cpl"] = (1 if kind in ("IORd", "CfgRd0", "CfgRd1") else 0, 4)
        out[d][(req, tag)] = st
    for d, name in ((0, "down"), (1, "up")):
        c = cnt[d]
        kinds = " ".join(f"{k}={c['requests'][k]}" for k in NONPOSTED if k in c["requests"])
        print(f"txn {name} requests {sum(c['requests'].values())} completed {c['completed']} "
              f"outstanding {len(out[d])} completions {c['completions']} messages "
              f"{c['messages']} max-latency-ns {c['lat']} kinds {kinds}")
    cov["requesters"] = len(cov["requesters"])
    print("coverage " + " ".join(f"{k} {v}" for k, v in cov.items()))
    for b in bad[:40]:
        print("BAD: " + b)
    if len(bad) > 40:
        print(f"BAD: ... {len(bad) - 40} more")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
