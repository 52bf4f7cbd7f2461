#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A scripted SCPI oscilloscope for the tests of `sqwave scope` and
`compare --scope`: it answers one dialect the way its programming guide
documents it (docs/instruments.md), and its +width/-width statistics are
those of a sample of a real run's pulses (the log read with sqwlog.py):
acquisitions of --record consecutive pulses, --dead pulses unseen between
them (the scope's dead time). An unknown command queues -113,"Undefined
header"; an unknown query gets no reply (the client times out), as
instruments do.

Usage: scpi_instrument.py --dialect D --log RUN.sqwlog --ready FILE
         [--record N --dead N] [--shift-tmax NS] [--invalid] [--mute]
         [--no-cnt] [--pty] [--live]
It listens on a free localhost port (or makes a pty with --pty) and writes
the target (127.0.0.1:PORT or the pty's path) to --ready, and its truth
(the sample's min, max and count per polarity, the run's pulses) to
--ready.truth as JSON (--live: when first asked for statistics, from the
log as written so far: the run beside it is writing it); then serves until
killed."""
import argparse
import json
import os
import pty
import socket
import sys
import termios
import tty

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sqwlog  # noqa: E402

WARMUP, WRITE_ERR, SATURATED = 0x01, 0x04, 0x02


def pulses(log):
    """(polarity, est_ns, lo_ns, hi_ns) of each counted pulse, in order: as
    stats/edgestats.c counts them (both edges counted, consecutive seqs,
    no write error, no offset clamped to 32 bits); positive when its first
    edge rose."""
    e = sqwlog.read(log)["edges"]
    out = []

    def usable(r):
        clamped = r[7] & SATURATED and any(v in (2**31 - 1, -2**31) for v in r[2:5])
        return not r[7] & (WARMUP | WRITE_ERR) and not clamped

    for a, b in zip(e, e[1:]):
        if b[0] != a[0] + 1 or not usable(a) or not usable(b):
            continue
        if a[6] == b[6]:
            continue
        wb_a, we_a = a[1] + a[3], a[1] + a[4]
        wb_b, we_b = b[1] + b[3], b[1] + b[4]
        est = ((b[1] * 2 + b[3] + b[4]) - (a[1] * 2 + a[3] + a[4])) // 2
        out.append(("pos" if a[6] else "neg", est, wb_b - we_a, we_b - wb_a))
    return out


def sample(ps, record, dead):
    """The pulses the scope measured: record on, dead off, from the first."""
    if record <= 0:
        return list(ps)
    return [p for i, p in enumerate(ps) if i % (record + dead) < record]


class Scope:
    def __init__(self, args, seen):
        self.a = args
        self.err = []
        self._st = None
        if seen is not None:
            self._st = self.stats(seen)

    @property
    def st(self):
        if self._st is None:
            # --live: the run is writing the log; its pulses so far, now
            ps = pulses(self.a.log)
            self._st = self.stats(sample(ps, self.a.record, self.a.dead))
            write_truth(self.a, ps, self._st)
        return self._st

    def stats(self, seen):
        args = self.a
        st = {}
        for pol in ("pos", "neg"):
            w = [p[1] for p in seen if p[0] == pol]
            st[pol] = {"min_ns": min(w), "max_ns": max(w), "count": len(w)} if w else None
        if args.shift_tmax and st["pos"]:
            st["pos"]["max_ns"] += args.shift_tmax
        return st

    def val(self, pol, what):
        s = self.st[pol]
        if self.a.invalid or not s:
            return {"rigol": "9.9e37", "siglent": "****", "keysight": "9.9E+37",
                    "tek": "9.91E37"}[self.family()]
        if what == "count":
            return "%d" % s["count"]
        x = s["min_ns" if what == "min" else "max_ns"] * 1e-9
        return {"rigol": "%e", "siglent": "%.6E", "keysight": "%+.6E", "tek": "%.10E"}[
            self.family()] % x

    def family(self):
        return self.a.dialect.split("-")[0]

    def idn(self):
        return {"rigol-ds1000z": "RIGOL TECHNOLOGIES,DS1054Z,DS1ZA0000000001,00.04.04.SP4",
                "rigol-mso5000": "RIGOL TECHNOLOGIES,MSO5074,MS5A000000001,00.01.03.00.02",
                "siglent": "Siglent Technologies,SDS2104X Plus,SDS2PAAAA00001,1.3.9R6",
                "keysight": "KEYSIGHT TECHNOLOGIES,DSOX3024T,MY00000001,07.50.2021102830",
                "tek": "TEKTRONIX,MSO54,C000001,CF:91.1CT FV:1.28.14.8"}[self.a.dialect]

    def answer(self, line):
        """The reply line, or None: no reply (a command, or an unknown query)."""
        u = line.upper()
        if u == "*IDN?":
            return self.idn()
        if self.a.mute:
            return None
        if u == "*OPC?":
            return "1"
        if u in (":SYSTEM:ERROR?", "ALLEV?"):
            return self.err.pop(0) if self.err else '0,"No error"'
        if "?" not in line:
            if self.known_command(u):
                return None
            self.err.append('-113,"Undefined header"')
            return None
        r = self.query(u)
        if r is None:
            self.err.append('-113,"Undefined header"')
        return r

    def known_command(self, u):
        f = self.family()
        prefix = {"rigol": ":MEASURE:STATISTIC:", "siglent": ":MEASURE",
                  "keysight": ":MEASURE:", "tek": ""}[f]
        return u.startswith(prefix)

    def query(self, u):
        f = self.family()
        what = {"MINIMUM": "min", "MAXIMUM": "max", "CNT": "count", "COUNT": "count",
                "POPULATION?": "count", "MINIMUM?": "min", "MAXIMUM?": "max"}
        if f == "rigol" and u.startswith(":MEASURE:STATISTIC:ITEM? "):
            typ, item = u.split(" ", 1)[1].split(",")[:2]
            if typ == "CNT" and (self.a.dialect == "rigol-ds1000z" or self.a.no_cnt):
                return None
            return self.val("pos" if item == "PWIDTH" else "neg", what[typ])
        if f == "siglent" and u.startswith(":MEASURE:ADVANCED:P"):
            slot, rest = u[len(":MEASURE:ADVANCED:P"):].split(":", 1)
            pol = "pos" if slot == "1" else "neg"
            if rest == "TYPE?":
                return "PWID" if pol == "pos" else "NWID"
            if rest.startswith("STATISTICS? "):
                return self.val(pol, what[rest.split(" ", 1)[1]])
        if f == "keysight" and u == ":MEASURE:RESULTS?":
            g = []
            for pol, label in (("neg", "- Width(1)"), ("pos", "+ Width(1)")):
                v = self.val(pol, "max")
                g += [label, v, self.val(pol, "min"), v, v, "+0.0E+00",
                      self.val(pol, "count") if not self.a.invalid else "+0"]
            return ",".join(g)
        if f == "tek" and u.startswith("MEASUREMENT:MEAS"):
            slot, rest = u[len("MEASUREMENT:MEAS"):].split(":", 1)
            pol = "pos" if slot == "1" else "neg"
            if rest == "TYPE?":
                return "PWIDTH" if pol == "pos" else "NWIDTH"
            if rest.startswith("RESULTS:ALLACQS:"):
                return self.val(pol, what[rest[len("RESULTS:ALLACQS:"):]])
        return None


def write_truth(a, ps, st):
    truth = {"run": {pol: len([p for p in ps if p[0] == pol]) for pol in ("pos", "neg")},
             "sample": st,
             "pulses": {pol: [[p[1], p[2], p[3]] for p in ps if p[0] == pol]
                        for pol in ("pos", "neg")}}
    json.dump(truth, open(a.ready + ".truth.tmp", "w"))
    os.rename(a.ready + ".truth.tmp", a.ready + ".truth")


def serve(scope, rfile, wfile):
    for raw in rfile:
        line = raw.decode(errors="replace").strip()
        if not line:
            continue
        r = scope.answer(line)
        if r is not None:
            wfile.write((r + "\n").encode())
            wfile.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialect", required=True,
                    choices=["rigol-ds1000z", "rigol-mso5000", "siglent", "keysight", "tek"])
    ap.add_argument("--log", required=True)
    ap.add_argument("--ready", required=True)
    ap.add_argument("--record", type=int, default=0, help="pulses per acquisition (0: all)")
    ap.add_argument("--dead", type=int, default=0, help="pulses unseen between acquisitions")
    ap.add_argument("--shift-tmax", type=int, default=0, help="ns added to the +width max")
    ap.add_argument("--invalid", action="store_true")
    ap.add_argument("--mute", action="store_true", help="answer *IDN? only")
    ap.add_argument("--no-cnt", action="store_true", help="a Rigol MSO5000 without CNT")
    ap.add_argument("--pty", action="store_true")
    ap.add_argument("--live", action="store_true",
                    help="the log is being written: read it at the first statistics query")
    a = ap.parse_args()
    if a.live:
        scope = Scope(a, None)
    else:
        ps = pulses(a.log)
        scope = Scope(a, sample(ps, a.record, a.dead))
        write_truth(a, ps, scope.st)
    if a.pty:
        master, slave = pty.openpty()
        tty.setraw(slave)
        attrs = termios.tcgetattr(slave)
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        open(a.ready + ".tmp", "w").write(os.ttyname(slave))
        os.rename(a.ready + ".tmp", a.ready)
        f = os.fdopen(master, "rb+", buffering=0)
        while True:
            try:
                serve(scope, f, f)
            except OSError:
                pass
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    open(a.ready + ".tmp", "w").write("127.0.0.1:%d" % srv.getsockname()[1])
    os.rename(a.ready + ".tmp", a.ready)
    while True:
        c, _ = srv.accept()
        with c:
            f = c.makefile("rwb", buffering=0)
            try:
                serve(scope, f, f)
            except OSError:
                pass


if __name__ == "__main__":
    main()
