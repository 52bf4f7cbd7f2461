#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A second, independent reader of the sqwave log (docs/log-format.md), for
tests: the header's metadata, the edges, the events (format 2) and the
footer, straight from the bytes, every CRC checked (format 3: the header
with its metadata, each event's header with its payload, the footer; 2:
event payloads only). Usage as a module: read(path) -> dict;
as a script: sqwlog.py LOG prints a JSON summary of its events, and
sqwlog.py --wait-edges N LOG PID waits until the run PID has written N
edges to LOG, --wait-footer LOG PID until it has closed LOG (exit 1 if the
run ended first)."""
import json
import struct
import sys
import zlib

EVENT_MARKER = 0xFFFFFFFFFFFFFFFE
FOOTER_MARKER = 0xFFFFFFFFFFFFFFFF
EVENT_TYPES = {1: "phase", 2: "load", 3: "sample", 4: "break", 5: "loopback", 6: "note"}


def read(path):
    data = open(path, "rb").read()
    magic, version, rsize, roff, tlen, clock, hcrc, half, start, start_rt = \
        struct.unpack_from("<8sIIIIiIQQQ", data, 0)
    assert magic == b"SQWAVLOG", magic
    assert version <= 3, version
    v3 = version >= 3
    if v3:
        h = bytearray(data[:56])
        h[28:32] = bytes(4)
        assert zlib.crc32(bytes(h) + data[56:56 + tlen]) == hcrc, "header crc"
    else:
        assert hcrc == 0
    text = data[56:56 + tlen].decode()
    meta = dict(l.split("=", 1) for l in text.splitlines() if "=" in l)
    out = {"version": version, "clock_id": clock, "half_period_ns": half, "start_ns": start,
           "meta": meta,
           "edges": [], "events": [], "footer": None}
    off = roff
    while off + 32 <= len(data):
        seq, = struct.unpack_from("<Q", data, off)
        if seq == FOOTER_MARKER:
            f = struct.unpack_from("<QQQQQQiIII", data, off)
            assert f[8] == (zlib.crc32(data[off:off + 56]) if v3 else 0), "footer crc"
            assert f[9] == 0
            out["footer"] = {"records": f[2], "dropped": f[3], "missed_periods": f[4],
                             "exit_code": f[6], "stop_reason": f[7]}
            break
        if seq == EVENT_MARKER:
            _, t, etype, res0, ln, crc, res1 = struct.unpack_from("<QQHHIII", data, off)
            payload = data[off + 32:off + 32 + ln]
            assert len(payload) == ln, "event cut short"
            h = bytearray(data[off:off + 32])
            h[24:28] = bytes(4)
            assert zlib.crc32((bytes(h) if v3 else b"") + payload) == crc, "event crc"
            assert res0 == 0 and res1 == 0
            ev = {"t_ns": t, "type": EVENT_TYPES.get(etype, str(etype)), "len": ln}
            if etype != 5:
                ev["kv"] = dict(l.split("=", 1) for l in payload.decode().splitlines()
                                if "=" in l)
            else:
                # (seq, event_ns) pairs, as the run logged them (unpaired by time)
                ev["pairs"] = [struct.unpack_from("<QQ", payload, i) for i in range(0, ln, 16)]
            out["events"].append(ev)
            off += 32 + (ln + 31) // 32 * 32
            continue
        seq, intended, wake, wb, we, exp, level, flags = \
            struct.unpack_from("<QQiiiHBB", data, off)
        out["edges"].append((seq, intended, wake, wb, we, exp, level, flags))
        off += 32
    return out


def written(path):
    """(edge records, whether the footer is there) of a log its run may
    still be writing: a record or an event cut at the end is not counted
    (no CRC checked)."""
    try:
        data = open(path, "rb").read()
    except FileNotFoundError:
        return 0, False
    if len(data) < 56:
        return 0, False
    off, n = struct.unpack_from("<I", data, 16)[0], 0
    while off + 32 <= len(data):
        seq, = struct.unpack_from("<Q", data, off)
        if seq == FOOTER_MARKER:
            return n, off + 56 <= len(data)
        if seq == EVENT_MARKER:
            off += 32 + (struct.unpack_from("<I", data, off + 20)[0] + 31) // 32 * 32
            continue
        n += 1
        off += 32
    return n, False


def wait_for(path, pid, edges=0, footer=False):
    """Until the log of the run @pid holds @edges edges (and its footer, if
    @footer): 0; 1 when the run ended first. A test signals a run once it
    runs, however long its start took on this machine; two minutes only turn
    a hang into a failure (2)."""
    import os
    import time
    end = time.monotonic() + 120
    while True:
        n, done = written(path)
        if n >= edges and (done or not footer):
            return 0
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return 1
        if time.monotonic() > end:
            return 2
        time.sleep(0.05)


if __name__ == "__main__":
    if sys.argv[1] == "--wait-edges":
        # sqwlog.py --wait-edges N LOG PID
        sys.exit(wait_for(sys.argv[3], int(sys.argv[4]), edges=int(sys.argv[2])))
    if sys.argv[1] == "--wait-footer":
        # sqwlog.py --wait-footer LOG PID
        sys.exit(wait_for(sys.argv[2], int(sys.argv[3]), footer=True))
    log = read(sys.argv[1])
    counts = {}
    for e in log["events"]:
        counts[e["type"]] = counts.get(e["type"], 0) + 1
    print(json.dumps({"edges": len(log["edges"]), "events": counts, "footer": log["footer"]}))
