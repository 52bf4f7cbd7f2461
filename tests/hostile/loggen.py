#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write a sqwave log (docs/log-format.md) as a run would, then damage it on
request, for the hostile-input tests. Small and deterministic.

    loggen.py OUT [--edges N] [--half NS] [--stall I:SLOTS] [--drop-end N]
              [--no-footer] [--footer-records N] [--event I:TYPE:TEXT]
              [--meta KEY=VALUE] [--set I:FIELD:VALUE] [--zero-tail BYTES]
              [--append HEX] [--records-offset N] [--version V]

--stall I:SLOTS   edge I comes SLOTS slots after edge I-1 (the RT loop's
                  16-bit expirations saturate at 65535 and flag it, as the
                  RT loop does); the footer counts the real missed periods
--drop-end N      N more edges happened after the last record (ring
                  overflow): the footer says dropped N
--set I:F:V       overwrite field F (seq, intended, wake, wb, we, exp, level,
                  flags) of record I after everything else is computed
--version V       the format: 3 (the default, what sqwave writes) has CRCs over
                  the header and metadata, each event's header and payload,
                  and the footer; 2 over event payloads only; 1 no events
"""
import argparse
import struct
import zlib

HDR = struct.Struct("<8sIIIIiIQQQ")
REC = struct.Struct("<QQiiiHBB")
FOOT = struct.Struct("<QQQQQQiIQ")
EVH = struct.Struct("<QQHHIII")
FOOTER_MAGIC = 0x544F4F4656575153
EVENT_MARKER = 2**64 - 2
FIELDS = ["seq", "intended", "wake", "wb", "we", "exp", "level", "flags"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--edges", type=int, default=200)
    ap.add_argument("--half", type=int, default=500000)
    ap.add_argument("--start", type=int, default=10**12 + 250000)
    ap.add_argument("--stall", action="append", default=[])
    ap.add_argument("--drop-end", type=int, default=0)
    ap.add_argument("--no-footer", action="store_true")
    ap.add_argument("--footer-records", type=int)
    ap.add_argument("--event", action="append", default=[])
    ap.add_argument("--meta", action="append", default=[])
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--zero-tail", type=int, default=0)
    ap.add_argument("--append", default="")
    ap.add_argument("--records-offset", type=int)
    ap.add_argument("--version", type=int, default=3)
    a = ap.parse_args()

    stalls = {int(i): int(k) for i, k in (s.split(":") for s in a.stall)}
    events = {}
    for e in a.event:
        i, t, text = e.split(":", 2)
        events.setdefault(int(i), []).append((int(t), text.encode().decode("unicode_escape").encode("latin-1")))
    kv = {"sqwave.version": "test", "board.name": "hostile", "run.board_file": "hostile.yaml"}
    for m in a.meta:
        k, v = m.split("=", 1)
        kv[k] = v
    meta = "".join(f"{k}={v}\n" for k, v in kv.items())
    meta = meta.encode().decode("unicode_escape").encode("latin-1")
    roff = (HDR.size + len(meta) + 1 + 31) // 32 * 32
    if a.records_offset is not None:
        roff_hdr = a.records_offset
    else:
        roff_hdr = roff

    recs = []
    slot = -1
    missed = 0
    for i in range(a.edges):
        adv = stalls.get(i, 1)
        slot += adv
        missed += adv - 1
        exp, flags = (adv, 0) if adv <= 65535 else (65535, 2)
        recs.append([i, a.start + slot * a.half, 5000, 5200, 6000, exp, (i + 1) % 2, flags])
    for s in a.set:
        i, f, v = s.split(":")
        recs[int(i)][FIELDS.index(f)] = int(v, 0)
    out = bytearray()
    v3 = a.version >= 3
    hdr = [b"SQWAVLOG", a.version, 32, roff_hdr, len(meta), 1, 0, a.half, a.start, 0]
    if v3:
        hdr[6] = zlib.crc32(HDR.pack(*hdr) + meta)
    out += HDR.pack(*hdr)
    out += meta + b"\0" * (roff - HDR.size - len(meta))
    for i, r in enumerate(recs):
        for t, text in events.get(i, []):
            ev = [EVENT_MARKER, a.start + i * a.half, t, 0, len(text), 0, 0]
            ev[5] = zlib.crc32(EVH.pack(*ev) + text) if v3 else zlib.crc32(text)
            out += EVH.pack(*ev)
            out += text + b"\0" * ((32 - len(text) % 32) % 32)
        out += REC.pack(*r)
    if not a.no_footer:
        n = a.footer_records if a.footer_records is not None else len(recs)
        ft = [2**64 - 1, FOOTER_MAGIC, n, a.drop_end, missed, 0, 0, 0, 0]
        if v3:
            ft[8] = zlib.crc32(FOOT.pack(*ft)[:56])
        out += FOOT.pack(*ft)
    out += b"\0" * a.zero_tail
    out += bytes.fromhex(a.append)
    with open(a.out, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
