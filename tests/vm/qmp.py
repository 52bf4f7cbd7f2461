#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Press QEMU's power button when the guest asks: each time '@@SQW powerdown N'
appears on the guest's console (tests/vm/guest-init), send N system_powerdown
commands over QMP, PRESS_GAP_S apart: one batch per mark, over one
connection. On the virt machine without ACPI each one pulses the PL061's
line 3 (about 100 ms), which the guest sees as two kernel edge events.
Prints what it did; exits when the guest ends or after --timeout seconds.
Usage: qmp.py --console FILE --socket PATH [--timeout S]
"""
import argparse
import json
import re
import socket
import sys
import time

# A press holds line 3 for about 100 ms of guest time; on a busy host that
# can last longer than a short gap in host time, and a press during the last
# one's hold makes no edge at all (seen at 0.4 s: 5 events for 3 presses).
PRESS_GAP_S = 1.2
MARK = re.compile(r"^@@SQW powerdown (\d+)\s*$", re.M)
END = re.compile(r"^@@SQW end \S+\s*$", re.M)      # not "@@SQW endfile"


def qmp_call(f, sock, cmd):
    sock.sendall((json.dumps({"execute": cmd}) + "\n").encode())
    while True:
        line = f.readline()
        if not line:
            raise OSError("QMP closed")
        msg = json.loads(line)
        if "return" in msg or "error" in msg:   # events in between are skipped
            return msg


def connect(path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    f = sock.makefile("r")
    json.loads(f.readline())                    # the greeting
    qmp_call(f, sock, "qmp_capabilities")
    return sock, f


def press(sock, f, batch, n):
    """One batch of n presses. The host time printed before each command
    (the trace's clock, gettimeofday) lets check.py tell which of the
    trace's line-3 changes belong to which batch."""
    print("qmp: batch %d of %d presses from %.6f" % (batch, n, time.time()), flush=True)
    for i in range(n):
        t = time.time()
        r = qmp_call(f, sock, "system_powerdown")
        print("qmp: system_powerdown %d/%d at %.6f: %s" % (i + 1, n, t, r), flush=True)
        time.sleep(PRESS_GAP_S)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--console", required=True)
    p.add_argument("--socket", required=True)
    p.add_argument("--timeout", type=float, default=300)
    a = p.parse_args()
    end = time.time() + a.timeout
    done, conn = 0, None   # marks answered so far; the QMP connection, kept
    while time.time() < end:
        try:
            with open(a.console, errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        marks = MARK.findall(text)
        if len(marks) > done:
            if conn is None:
                conn = connect(a.socket)
            press(conn[0], conn[1], done + 1, int(marks[done]))
            done += 1
            continue
        if END.search(text):
            print("qmp: the guest ended%s" % ("" if done else " without asking"))
            return 0
        time.sleep(0.05)
    print("qmp: timed out waiting for the guest")
    return 1


if __name__ == "__main__":
    sys.exit(main())
