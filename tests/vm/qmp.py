#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Press QEMU's power button when the guest asks: wait for '@@SQW powerdown N'
on the guest's console (tests/vm/guest-init), then send N system_powerdown
commands over QMP, PRESS_GAP_S apart. On the virt machine without ACPI each one
pulses the PL061's line 3 (about 100 ms), which the guest sees as two kernel
edge events. Prints what it did; exits when done, when the guest ends, or
after --timeout seconds.
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


def press(path, n):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    f = sock.makefile("r")
    json.loads(f.readline())                    # the greeting
    qmp_call(f, sock, "qmp_capabilities")
    for i in range(n):
        r = qmp_call(f, sock, "system_powerdown")
        print("qmp: system_powerdown %d/%d at %.3f: %s" % (i + 1, n, time.time(), r), flush=True)
        time.sleep(PRESS_GAP_S)
    sock.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--console", required=True)
    p.add_argument("--socket", required=True)
    p.add_argument("--timeout", type=float, default=300)
    a = p.parse_args()
    end = time.time() + a.timeout
    while time.time() < end:
        try:
            with open(a.console, errors="replace") as f:
                text = f.read()
        except OSError:
            text = ""
        m = MARK.search(text)
        if m:
            press(a.socket, int(m.group(1)))
            return 0
        if END.search(text):
            print("qmp: the guest ended without asking")
            return 0
        time.sleep(0.05)
    print("qmp: timed out waiting for the guest")
    return 1


if __name__ == "__main__":
    sys.exit(main())
