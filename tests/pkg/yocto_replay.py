#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Replay a recipe's compile and install tasks the way bitbake runs them,
without bitbake: the recipe's variables and shell tasks are read from the
.bb file, expanded with oe-core's defaults, and run with a Yocto-like task
environment (CC with --sysroot and the tune flags, CFLAGS, LDFLAGS with
--hash-style=gnu, pkg-config confined to the recipe sysroot). Then the
checks of do_package_qa that matter here: every ELF file has GNU_HASH
(insane.bbclass "ldflags"), is built for the target, and every installed
file belongs to one of the recipe's packages (FILES, "installed-vs-shipped"),
with the files listed by --expect in the package named.

tests/pkg/yocto drives it; prints PASS/FAIL lines, exits 1 on a failure.
"""
import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys

# oe-core's conf/bitbake.conf and classes, as far as this recipe reads them.
def oe_defaults(pn, work, src, dest, usrmerge):
    base_libdir = "/usr/lib" if usrmerge else "/lib"
    v = {
        "PN": pn, "BPN": pn, "WORKDIR": work, "S": src, "B": src, "D": dest,
        "prefix": "/usr", "exec_prefix": "/usr", "base_prefix": "",
        "bindir": "/usr/bin", "sbindir": "/usr/sbin", "libexecdir": "/usr/libexec",
        "libdir": "/usr/lib", "base_libdir": base_libdir, "base_bindir": "/bin",
        "base_sbindir": "/sbin", "includedir": "/usr/include", "datadir": "/usr/share",
        "sysconfdir": "/etc", "localstatedir": "/var", "sharedstatedir": "/com",
        "docdir": "/usr/share/doc", "mandir": "/usr/share/man", "infodir": "/usr/share/info",
        "systemd_unitdir": base_libdir + "/systemd",
        "systemd_system_unitdir": base_libdir + "/systemd/system",
        "SOLIBS": ".so.*", "SOLIBSDEV": ".so", "PACKAGE_BEFORE_PN": "",
        "DISTRO_FEATURES": "systemd ptest usrmerge" if usrmerge else "systemd ptest",
        "PTEST_ENABLED": "1",
        "PARALLEL_MAKE": "-j2",
    }
    v["PTEST_PATH"] = "${libdir}/${BPN}/ptest"
    v["FILES_SOLIBSDEV"] = "${base_libdir}/lib*${SOLIBSDEV} ${libdir}/lib*${SOLIBSDEV}"
    v["PACKAGES"] = ("${PN}-src ${PN}-dbg ${PN}-staticdev ${PN}-dev ${PN}-doc ${PN}-locale "
                     "${PACKAGE_BEFORE_PN} ${PN}")
    v["FILES:${PN}"] = ("${bindir}/* ${sbindir}/* ${libexecdir}/* ${libdir}/lib*${SOLIBS} "
                        "${sysconfdir} ${sharedstatedir} ${localstatedir} ${base_bindir}/* "
                        "${base_sbindir}/* ${base_libdir}/*${SOLIBS} ${base_prefix}/lib/udev "
                        "${prefix}/lib/udev ${base_libdir}/udev ${libdir}/udev ${datadir}/${BPN} "
                        "${libdir}/${BPN}/* ${datadir}/pixmaps ${datadir}/applications "
                        "${datadir}/idl ${datadir}/omf ${datadir}/sounds ${libdir}/bonobo/servers")
    v["FILES:${PN}-dbg"] = "/usr/src/debug ${bindir}/.debug ${libdir}/.debug ${libdir}/${BPN}/.debug"
    v["FILES:${PN}-dev"] = ("${includedir} ${FILES_SOLIBSDEV} ${libdir}/*.la ${libdir}/*.o "
                            "${libdir}/pkgconfig ${datadir}/pkgconfig ${datadir}/aclocal "
                            "${libdir}/cmake ${datadir}/cmake")
    v["FILES:${PN}-staticdev"] = "${libdir}/*.a ${base_libdir}/*.a ${libdir}/${BPN}/*.a"
    v["FILES:${PN}-doc"] = "${docdir} ${mandir} ${infodir} ${datadir}/gtk-doc ${datadir}/gnome/help"
    v["FILES:${PN}-locale"] = "${datadir}/locale"
    v["FILES:${PN}-src"] = ""
    return v


def parse_recipe(path):
    """Assignments (in order: name, operator, value) and shell tasks."""
    text = open(path).read()
    text = re.sub(r"\\\n", " ", text)
    assigns, funcs = [], {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(do_\w+|\w+)\(\)\s*\{\s*$", line)
        if m:
            body = []
            i += 1
            while i < len(lines) and lines[i] != "}":
                body.append(lines[i])
                i += 1
            funcs[m.group(1)] = "\n".join(body)
        else:
            m = re.match(r'^([\w:${}\-\[\]]+)\s*(\?\?=|\?=|\+=|=\+|=|\.=)\s*"(.*)"\s*$', line)
            if m:
                assigns.append(m.groups())
        i += 1
    return assigns, funcs


def apply_assigns(v, assigns):
    for name, op, value in assigns:
        if op == "??=" or op == "?=":
            if name not in v:
                v[name] = value
        elif op == "+=":
            v[name] = (v.get(name, "") + " " + value).strip()
        elif op == "=+":
            v[name] = (value + " " + v.get(name, "")).strip()
        else:
            v[name] = value


def expand(v, s, depth=0):
    if depth > 20:
        raise RuntimeError("expansion too deep: " + s)

    def contains(m):
        var, item, yes, no = m.group(1), m.group(2), m.group(3), m.group(4)
        return yes if item in expand(v, v.get(var, ""), depth + 1).split() else no

    s = re.sub(r"\$\{@bb\.utils\.contains\('(\w+)',\s*'([^']*)',\s*'([^']*)',\s*'([^']*)',\s*d\)\}",
               contains, s)
    return re.sub(r"\$\{([\w:\-]+)\}", lambda m: expand(v, v[m.group(1)], depth + 1)
                  if m.group(1) in v else m.group(0), s)


def packageconfig_confargs(v):
    """PACKAGECONFIG_CONFARGS from PACKAGECONFIG[flag] = "on,off,depends"."""
    enabled = expand(v, v.get("PACKAGECONFIG", "")).split()
    args = []
    for k in v:
        m = re.match(r"^PACKAGECONFIG\[(.+)\]$", k)
        if not m:
            continue
        parts = (expand(v, v[k]).split(",") + ["", ""])[:3]
        args.append(parts[0] if m.group(1) in enabled else parts[1])
    return " ".join(a for a in args if a)


def owner(v, pn, path):
    """The package that gets @path (PACKAGES order, FILES globs)."""
    for pkg in expand(v, v["PACKAGES"]).split():
        key = "FILES:" + pkg.replace(pn, "${PN}", 1)
        pats = expand(v, v.get(key, "") + " " + v.get("FILES:" + pkg, "")).split()
        for p in pats:
            if fnmatch.fnmatch(path, p) or path.startswith(p.rstrip("/") + "/"):
                return pkg
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--recipe", required=True)
    ap.add_argument("--files", required=True, help="the recipe's files/ (run-ptest)")
    ap.add_argument("--src", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--sysroot", required=True)
    ap.add_argument("--host", required=True, help="toolchain prefix, e.g. arm-linux-gnueabihf")
    ap.add_argument("--tune", default="-march=armv7ve -mthumb -mfpu=neon-vfpv4 -mfloat-abi=hard")
    ap.add_argument("--packageconfig", default=None)
    ap.add_argument("--usrmerge", action="store_true")
    ap.add_argument("--expect", action="append", default=[], help="PATH=PACKAGE")
    a = ap.parse_args()

    ok = True

    def res(good, what):
        nonlocal ok
        print(("PASS " if good else "FAIL ") + what, flush=True)
        ok = ok and good

    work = os.path.abspath(a.work)
    dest = os.path.join(work, "image")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    pn = re.sub(r"_.*", "", os.path.basename(a.recipe))
    v = oe_defaults(pn, work, os.path.abspath(a.src), dest, a.usrmerge)
    assigns, funcs = parse_recipe(a.recipe)
    # bbclasses the recipe inherits: ptest and bash-completion add packages
    inherits = re.findall(r"^inherit\s+(.*)$", open(a.recipe).read(), re.M)
    inherits = " ".join(inherits).split()
    if "ptest" in inherits:
        v["PACKAGES"] = "${PN}-ptest " + v["PACKAGES"]
        v["FILES:${PN}-ptest"] = "${PTEST_PATH}"
    if "bash-completion" in inherits:
        v["PACKAGES"] = "${PN}-bash-completion " + v["PACKAGES"]
        v["FILES:${PN}-bash-completion"] = "${datadir}/bash-completion ${sysconfdir}/bash_completion.d"
    apply_assigns(v, assigns)
    if a.packageconfig is not None:
        v["PACKAGECONFIG"] = a.packageconfig
    v["PACKAGECONFIG_CONFARGS"] = packageconfig_confargs(v)

    sysroot = os.path.abspath(a.sysroot)
    arch_libdir = "/usr/lib/" + a.host
    # The task environment of a Yocto build for an armv7 hard-float machine
    # (values as bitbake.conf and the toolchain tune files make them).
    debug_map = ("-fmacro-prefix-map=%s=/usr/src/debug/%s -fdebug-prefix-map=%s=/usr/src/debug/%s "
                 "-fdebug-prefix-map=%s=" % (v["S"], pn, v["S"], pn, sysroot))
    env = dict(os.environ)
    # Yocto's gcc links with --hash-style=sysv unless told otherwise (its
    # LDFLAGS say gnu, and insane.bbclass checks for GNU_HASH): Debian's
    # defaults to gnu, so CC carries sysv here, as the toolchain's default,
    # and only a link that honours LDFLAGS gets GNU_HASH.
    env.update({
        "CC": "%s-gcc %s --sysroot=%s -Wl,--hash-style=sysv" % (a.host, a.tune, sysroot),
        "AR": "%s-gcc-ar" % a.host,
        "CFLAGS": "-O2 -pipe -g -feliminate-unused-debug-types " + debug_map +
                  " -fstack-protector-strong -O2 -D_FORTIFY_SOURCE=2 -Wformat -Wformat-security "
                  "-Werror=format-security",
        "LDFLAGS": "-Wl,-O1 -Wl,--hash-style=gnu -Wl,--as-needed " + debug_map +
                   " -fstack-protector-strong -Wl,-z,relro,-z,now",
        "CPPFLAGS": "",
        "PKG_CONFIG_SYSROOT_DIR": sysroot,
        "PKG_CONFIG_LIBDIR": sysroot + arch_libdir + "/pkgconfig:" + sysroot + "/usr/share/pkgconfig",
        "PKG_CONFIG_PATH": "",
        "PKG_CONFIG_SYSTEM_LIBRARY_PATH": arch_libdir + ":/lib/" + a.host,
        "PKG_CONFIG_SYSTEM_INCLUDE_PATH": "/usr/include",
        "PKG_CONFIG_DISABLE_UNINSTALLED": "yes",
    })
    for k in ("GPIOD", "SYSROOT", "CROSS_COMPILE", "MAKEFLAGS", "MFLAGS", "MAKELEVEL"):
        env.pop(k, None)
    oe_runmake = "oe_runmake() { make %s %s \"$@\"; }" % (v["PARALLEL_MAKE"], expand(v, v.get("EXTRA_OEMAKE", "")))
    print("replay: EXTRA_OEMAKE=" + " ".join(expand(v, v.get("EXTRA_OEMAKE", "")).split()), flush=True)

    def task(name, body, cwd):
        script = "set -e\n%s\n%s\n" % (oe_runmake, expand(v, body))
        r = subprocess.run(["sh", "-c", script], cwd=cwd, env=env,
                           stdout=open(os.path.join(work, "log." + name), "w"), stderr=subprocess.STDOUT)
        res(r.returncode == 0, "yocto: %s (log %s)" % (name, os.path.join(work, "log." + name)))
        if r.returncode:
            print(open(os.path.join(work, "log." + name)).read()[-3000:])
            sys.exit(1)

    task("do_compile", funcs.get("do_compile", "oe_runmake"), v["B"])
    if "ptest" in inherits and "do_compile_ptest" in funcs:
        task("do_compile_ptest", funcs["do_compile_ptest"], v["B"])
    task("do_install", funcs["do_install"], v["B"])
    if "ptest" in inherits:
        # ptest.bbclass's do_install_ptest_base: run-ptest from WORKDIR, then the recipe's
        base = ("install -D %s/run-ptest ${D}${PTEST_PATH}/run-ptest\n" % os.path.abspath(a.files) +
                funcs.get("do_install_ptest", ""))
        task("do_install_ptest_base", base, v["B"])

    # QA: ELF files for the target, each with GNU_HASH (the "ldflags" check)
    files = []
    for root, _, names in os.walk(dest):
        for n in names:
            files.append(os.path.join(root, n))
    elfs, nohash, wrong = [], [], []
    for f in files:
        with open(f, "rb") as fh:
            if fh.read(4) != b"\x7fELF":
                continue
        elfs.append(f)
        hdr = subprocess.run(["%s-readelf" % a.host, "-h", "-d", f], capture_output=True, text=True).stdout
        if "Machine:" not in hdr or "ARM" not in hdr.split("Machine:")[1].split("\n")[0]:
            wrong.append(f)
        if "(GNU_HASH)" not in hdr:
            nohash.append(f)
    res(len(elfs) > 1, "yocto: %d ELF files installed (sqwave and the unit tests)" % len(elfs))
    res(not wrong, "yocto: every ELF file is for ARM" + ("" if not wrong else ": " + " ".join(wrong)))
    res(not nohash, "yocto: every ELF file has GNU_HASH (LDFLAGS honoured)" +
        ("" if not nohash else "; missing in " + " ".join(nohash)))

    # QA: every installed file is shipped in a package; the expected ones where expected
    pkgs = {}
    unshipped = []
    for f in sorted(files):
        rel = "/" + os.path.relpath(f, dest)
        p = owner(v, pn, rel)
        if p is None:
            unshipped.append(rel)
        else:
            pkgs.setdefault(p, []).append(rel)
    for p in sorted(pkgs):
        print("  %-22s %3d files, e.g. %s" % (p, len(pkgs[p]), pkgs[p][0]))
    res(not unshipped, "yocto: every installed file is in a package (installed-vs-shipped)" +
        ("" if not unshipped else ": not shipped: " + " ".join(unshipped)))
    for e in a.expect:
        path, want = e.split("=", 1)
        path = expand(v, path)
        got = owner(v, pn, path) if os.path.lexists(dest + path) else "(not installed)"
        res(got == want, "yocto: %s in %s%s" % (path, want, "" if got == want else ", but: " + str(got)))
    print("replay: image in " + dest)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
