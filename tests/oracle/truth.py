# SPDX-License-Identifier: GPL-2.0-or-later
"""What the pins did, from the simulated chip's record (sim.history_file,
docs/gpio-backends.md): every write, stimulus change, wire event and event
a full queue dropped, and the figures a scope on the pins would give.
Shares nothing with sqwave's statistics: widths, counts, slots and delays
are recomputed here from the record's times."""
import csv

# Log record flags (docs/log-format.md)
F_WARMUP, F_CLAMPED, F_WRITE_ERR, F_NOEVENT = 0x01, 0x02, 0x04, 0x40


class History:
    """One history file: its rows by kind, cut into stretches (each ends at
    an "end" row: a time the chip was held, e.g. check's probes, then its
    run)."""

    def __init__(self, path):
        self.stretches = []
        cur = self._stretch()
        self.ends = []
        with open(path) as f:
            rows = csv.reader(f)
            head = next(rows)
            assert head[:6] == ["kind", "t_ns", "offset", "level", "value_or_reported",
                                "seqno_or_call"], head
            for r in rows:
                k = r[0]
                if k == "write":
                    cur["write"].append({"t": int(r[1]), "off": int(r[2]), "level": int(r[3]),
                                         "value": int(r[4]), "call": int(r[5])})
                elif k == "stim":
                    cur["stim"].append({"t": int(r[1]), "off": int(r[2]), "level": int(r[3]),
                                        "queued": int(r[4]), "seqno": int(r[5]),
                                        "event": int(r[6]) if r[6] else None,
                                        "due": int(r[7]), "note": r[8]})
                elif k == "wire":
                    cur["wire"].append({"t": int(r[1]), "off": int(r[2]), "value": int(r[3]),
                                        "queued": int(r[4]), "seqno": int(r[5]),
                                        "event": int(r[6]) if r[6] else None,
                                        "call": int(r[7]), "fate": r[8]})
                elif k == "drop":
                    cur["drop"].append({"t": int(r[1]), "off": int(r[2]), "rising": int(r[3]),
                                        "seqno": int(r[5]), "event": int(r[6])})
                elif k == "gap":
                    cur["gap"].append(r)
                elif k == "end":
                    self.ends.append({"t": int(r[1]), "complete": r[4] == "1"})
                    self.stretches.append(self._dropped(cur))
                    cur = self._stretch()
        if any(cur.values()):
            self.stretches.append(self._dropped(cur))   # no end row: the run did not release
        self.complete = bool(self.ends) and all(e["complete"] for e in self.ends) and \
            not any(s["gap"] for s in self.stretches) and not any(cur.values())

    @staticmethod
    def _stretch():
        return {"write": [], "stim": [], "wire": [], "drop": [], "gap": []}

    @staticmethod
    def _dropped(cur):
        """A queued event a full queue later pushed out (a drop row, the same
        number and stamp) was never read: its stimulus change or wire change
        is marked so (queued 0, the wire's fate "dropped"), as if the queue
        had never taken it."""
        out = {(d["seqno"], d["event"]) for d in cur["drop"]}
        for x in cur["stim"] + cur["wire"]:
            if x["seqno"] and (x["seqno"], x["event"]) in out:
                x["queued"] = 0
                if "fate" in x:
                    x["fate"] = "dropped"
        return cur

    def last(self):
        return self.stretches[-1] if self.stretches else self._stretch()

    def writes(self, off, stretch=None):
        s = stretch if stretch is not None else self.last()
        return [w for w in s["write"] if w["off"] == off]


def pin_changes(writes, idle=0):
    """The pin's level changes: (write index, time, new level). A write of
    the level the pin already has is no change (what a scope sees)."""
    out, level = [], idle
    for i, w in enumerate(writes):
        if w["value"] != level:
            out.append((i, w["t"], w["value"]))
            level = w["value"]
    return out


def true_pulses(writes, counted, idle=0):
    """Every pulse the pin made between two changes whose writes are both
    counted records (@counted: indexes), as (width, polarity, end index):
    polarity 1 for a high pulse. The pulse is numbered by the write that
    ends it, as sqwave numbers pulses by their ending edge."""
    ch = pin_changes(writes, idle)
    out = []
    for (ia, ta, va), (ib, tb, _) in zip(ch, ch[1:]):
        if ia in counted and ib in counted:
            out.append((tb - ta, va, ib))
    return out


def widths_of_ending(writes, idle=0):
    """For each write that changed the pin, the width of the pulse it ended
    (None for the first change): {write index: (width, polarity)}."""
    ch = pin_changes(writes, idle)
    return {ib: (tb - ta, va) for (ia, ta, va), (ib, tb, _) in zip(ch, ch[1:])}


def analyzer_vcd(path, writes, nrecs, ppm, lead_ns=100000):
    """Write to @path the VCD an analyzer on the pin records of a run whose
    log has @nrecs records (@writes: the line's writes; only the records'
    are captured, the stop's idle write is after the capture): the pin's
    level changes on a clock of its own (another offset, @ppm fast, 10 ns
    samples), from @lead_ns before the first change to @lead_ns after
    the last. Returns the changes (truth.pin_changes), or None (nothing
    written) when there are fewer than 3: no capture compare can place."""
    W, res_ps = writes, 10000
    changes = pin_changes(W[:nrecs], idle=1 - W[0]["value"]) if nrecs else []
    if len(changes) < 3:
        return None
    t0 = changes[0][1] - lead_ns
    tail = W[nrecs]["t"] if len(W) > nrecs else changes[-1][1] + 2 * lead_ns
    end = min(changes[-1][1] + lead_ns, (changes[-1][1] + tail) // 2)

    def cap(t):
        # the sample at or after the change, in the VCD's unit (one sample)
        return -(-int((t - t0) * (1 + ppm * 1e-6) * 1000) // res_ps)

    with open(path, "w") as f:
        f.write("$timescale 10 ns $end\n$scope module oracle $end\n$var wire 1 ! pin $end\n"
                "$upscope $end\n$enddefinitions $end\n#0\n$dumpvars %d! $end\n" % (1 - changes[0][2]))
        for _, t, v in changes:
            f.write("#%d\n%d!\n" % (cap(t), v))
        f.write("#%d\n" % cap(end))
    return changes


class Grid:
    """A line's slots: slot 0 (rising) at @start, then high and low in turn."""

    def __init__(self, start, high, low):
        self.start, self.high, self.low = start, high, low

    def time(self, k):
        q, r = divmod(k, 2)
        return self.start + q * (self.high + self.low) + (self.high if r else 0)

    def slot_at(self, t):
        """The latest slot due at @t (-1 before slot 0)."""
        if t < self.start:
            return -1
        q, r = divmod(t - self.start, self.high + self.low)
        return 2 * q + (1 if r >= self.high else 0)

    def slot_of(self, intended):
        k = self.slot_at(intended)
        return k if self.time(k) == intended else None



if __name__ == "__main__":
    # tests/e2e's scripts make the analyzer's capture of a simulated run:
    # truth.py analyzer-vcd HISTORY LOG OUT.vcd [PPM]
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
    import sqwlog
    if len(sys.argv) not in (5, 6) or sys.argv[1] != "analyzer-vcd":
        sys.exit("usage: truth.py analyzer-vcd HISTORY LOG OUT.vcd [PPM]")
    H, recs = History(sys.argv[2]), sqwlog.read(sys.argv[3])["edges"]
    offs = sorted({w["off"] for w in H.last()["write"]})
    if len(offs) != 1:
        sys.exit("truth.py: the record's last run wrote %d lines; one is captured" % len(offs))
    if analyzer_vcd(sys.argv[4], H.writes(offs[0]), len(recs),
                    float(sys.argv[5]) if len(sys.argv) == 6 else 0.0) is None:
        sys.exit("truth.py: fewer than 3 level changes: no capture")
