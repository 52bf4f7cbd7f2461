#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""keep-json's watcher: once sqwave (PID) has gone, keep a copy of each JSON
document it wrote (FILE, or FILE.LINE.ext of a run of several lines).

Woken by the process's pidfd at its exit, not by polling: a test's next
command may rewrite the same file moments later, and a copy taken then
would be a half-written document blamed on this run. A file written after
the exit was seen, or changed while it was copied, is not kept (it is not
this run's document, or not whole).
Usage: keep_json_watch.py PID FILE KEEPDIR CMD BEFORE SINCE_NS
BEFORE: "INODE SIZE MTIME" of FILE before the run ("" if none); SINCE_NS:
CLOCK_REALTIME ns when the run started."""
import glob
import os
import select
import stat
import sys
import tempfile
import time


def sign(st):
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def parse_before(text):
    f = text.split()
    if len(f) != 3:
        return None
    return (int(f[0]), int(f[1]), int(f[2].replace(".", "")))


def keep(path, keepdir, cmd, exit_ns):
    try:
        st1 = os.stat(path, follow_symlinks=False)
        if not stat.S_ISREG(st1.st_mode) or st1.st_mtime_ns > exit_ns:
            return
        with open(path, "rb") as f:
            data = f.read()
        if sign(os.stat(path, follow_symlinks=False)) != sign(st1) or len(data) != st1.st_size:
            return
    except OSError:
        return
    fd, name = tempfile.mkstemp(suffix=".json", dir=keepdir)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    with open(name + ".cmd", "w") as out:
        out.write(cmd + "\n")


def main():
    pid, path, keepdir, cmd, before, since = sys.argv[1:7]
    try:
        pfd = os.pidfd_open(int(pid))
        p = select.poll()
        p.register(pfd, select.POLLIN)
        p.poll()
        os.close(pfd)
    except ProcessLookupError:
        pass        # gone already
    exit_ns = time.time_ns()
    try:
        now = sign(os.stat(path, follow_symlinks=False))
    except OSError:
        now = None
    if now is not None and now != parse_before(before):
        keep(path, keepdir, cmd, exit_ns)
    # a run of several lines writes FILE.LINE.ext instead (docs/lines.md)
    base = os.path.basename(path)
    stem, ext = (path[:-len(base)] + base.rsplit(".", 1)[0], "." + base.rsplit(".", 1)[1]) \
        if "." in base else (path, "")
    for f in glob.glob(glob.escape(stem) + ".*" + glob.escape(ext)):
        try:
            if f == path or os.stat(f, follow_symlinks=False).st_mtime_ns < int(since):
                continue
        except OSError:
            continue
        keep(f, keepdir, cmd, exit_ns)


main()
