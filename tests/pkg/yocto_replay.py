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

Before any task, what parsing the recipe would do: bitbake resolves an SCM
entry's SRCREV while parsing (for the task hashes), so SRCREV = AUTOREV
runs `git ls-remote` on every bitbake command, and a missing SRCREV is a
parse error. The recipe must parse offline unless --allow-network-parse
(AUTOREV asked for). --set NAME=VALUE stands for local.conf; --parse-only
stops after these checks (no toolchain needed). --host native builds with
this machine's compiler (the externalsrc route, without a sysroot).

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
            m = re.match(r'^([\w:${}\-\[\]]+)\s*(\?\?=|\?=|\+=|=\+|:=|=|\.=)\s*"(.*)"\s*$', line)
            if m:
                assigns.append(m.groups())
        i += 1
    return assigns, funcs


# Names whose value is only a weak default (??=): a later ??= replaces it,
# and any other assignment makes it a value.
WEAK = set()


def apply_assigns(v, assigns):
    for name, op, value in assigns:
        if op == ":=":
            v[name] = expand(v, value)
        elif op == "??=":
            if name not in v or name in WEAK:
                v[name] = value
                WEAK.add(name)
            continue
        elif op == "?=":
            if name not in v or name in WEAK:
                v[name] = value
        elif op == "+=":
            v[name] = (v.get(name, "") + " " + value).strip()
        elif op == "=+":
            v[name] = (value + " " + v.get(name, "")).strip()
        else:
            v[name] = value
        WEAK.discard(name)


class _Data:
    """The datastore as a recipe's inline Python sees it (d.getVar)."""
    def __init__(self, v, depth):
        self.v, self.depth = v, depth

    def getVar(self, name, expand_it=True):
        if name not in self.v:
            return None
        return expand(self.v, self.v[name], self.depth + 1) if expand_it else self.v[name]


class _Utils:
    @staticmethod
    def contains(var, item, yes, no, d):
        return yes if item in (d.getVar(var) or "").split() else no


class _Bb:
    utils = _Utils


def expand(v, s, depth=0):
    """${VAR} and ${@python} as bitbake expands them: variable references
    inside the Python first, then the Python evaluated with d, os, bb."""
    if depth > 20:
        raise RuntimeError("expansion too deep: " + s)
    out, i = [], 0
    while i < len(s):
        if s.startswith("${@", i):
            level, j = 1, i + 3
            while j < len(s) and level:
                level += {"{": 1, "}": -1}.get(s[j], 0)
                j += 1
            code = expand(v, s[i + 3:j - 1], depth + 1)
            out.append(str(eval(code, {"d": _Data(v, depth), "os": os, "bb": _Bb})))
            i = j
            continue
        m = re.match(r"\$\{([\w:\-]+)\}", s[i:])
        if m:
            out.append(expand(v, v[m.group(1)], depth + 1) if m.group(1) in v else m.group(0))
            i += m.end()
            continue
        out.append(s[i])
        i += 1
    return "".join(out)


def finalize_overrides(v, overrides):
    """NAME:OVERRIDE and NAME:append:OVERRIDE for the active overrides
    (class-target, pn-PN), as bitbake's finalisation applies them."""
    for k in list(v):
        for o in overrides:
            if k.endswith(":append:" + o):
                base = k[:-len(":append:" + o)]
                v[base] = v.get(base, "") + v[k]
            elif k.endswith(":" + o) and ":append:" not in k:
                v[k[:-len(":" + o)]] = v[k]


SCM_SCHEMES = ("git", "gitsm", "svn", "hg", "bzr", "cvs", "p4", "repo")


def parse_network(v):
    """What parsing the recipe asks of the network: (network, errors), each
    a list of sentences. bitbake computes every SCM entry's revision while
    parsing; AUTOREV (get_autorev: "AUTOINC") means asking the server."""
    network, errors = [], []
    for uri in expand(v, v.get("SRC_URI", "")).split():
        scheme = uri.split("://", 1)[0]
        params = dict(p.split("=", 1) for p in uri.split(";")[1:] if "=" in p)
        if scheme in SCM_SCHEMES:
            name = params.get("name")
            rev = expand(v, v.get("SRCREV_" + name, v.get("SRCREV", "INVALID")) if name
                         else v.get("SRCREV", "INVALID"))
            if "AUTOINC" in rev:
                network.append("%s: SRCREV is AUTOREV (git ls-remote while parsing)" % uri)
            elif not re.match(r"^[0-9a-f]{40}$", rev):
                errors.append("%s: SRCREV %r is not a commit (bitbake: set a valid SRCREV)" % (uri, rev))
        elif scheme in ("http", "https", "ftp") and "sha256sum" not in params and \
                not v.get("SRC_URI[%ssha256sum]" % (params["name"] + "." if "name" in params else "")):
            errors.append("%s: no sha256sum" % uri)
    return network, errors


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


def packageconfig_depends(v):
    """What PACKAGECONFIG[flag]'s third field adds to DEPENDS."""
    enabled = expand(v, v.get("PACKAGECONFIG", "")).split()
    deps = []
    for k in v:
        m = re.match(r"^PACKAGECONFIG\[(.+)\]$", k)
        if m and m.group(1) in enabled:
            deps += ((expand(v, v[k]).split(",") + ["", "", ""])[2]).split()
    return deps


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
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE, as in local.conf")
    ap.add_argument("--native-bindir", default=None,
                    help="STAGING_BINDIR_NATIVE: where sqwave-native's sqwave is")
    ap.add_argument("--parse-only", action="store_true")
    ap.add_argument("--allow-network-parse", action="store_true")
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
    v["THISDIR"] = os.path.dirname(os.path.abspath(a.recipe))
    v["AUTOREV"] = "AUTOINC"
    v["SRCREV"] = "INVALID"   # bitbake.conf's weak default
    WEAK.add("SRCREV")
    if a.native_bindir:
        v["STAGING_BINDIR_NATIVE"] = os.path.abspath(a.native_bindir)
    for kv in a.set:          # local.conf comes before the recipe
        k, val = kv.split("=", 1)
        v[k] = val
    assigns, funcs = parse_recipe(a.recipe)
    apply_assigns(v, assigns)
    finalize_overrides(v, ["class-target", "pn-" + pn])
    # bbclasses the recipe inherits: ptest and bash-completion add packages
    inherits = re.findall(r"^inherit\s+(.*)$", open(a.recipe).read(), re.M)
    inherits = expand(v, " ".join(inherits)).split()

    # what parsing needs: the network (AUTOREV), or a parse error
    network, errors = parse_network(v)
    res(not errors, "yocto: parses (a SRCREV for every SCM entry, a checksum for every tarball)" +
        ("" if not errors else ": " + "; ".join(errors)))
    if network and a.allow_network_parse:
        res(True, "yocto: needs the network to parse, as asked: " + "; ".join(network))
    else:
        res(not network, "yocto: parses offline" if not network else
            "yocto: needs the network to parse: " + "; ".join(network))
    if "externalsrc" in inherits:
        # externalsrc.bbclass: S is the tree, B apart from it unless EXTERNALSRC_BUILD
        v["S"] = expand(v, v["EXTERNALSRC"])
        v["B"] = expand(v, v.get("EXTERNALSRC_BUILD", "${WORKDIR}/${BPN}-${PV}/"))
        os.makedirs(v["B"], exist_ok=True)
    print("replay: S=%s B=%s inherits=%s" % (expand(v, v["S"]), expand(v, v["B"]), " ".join(inherits)),
          flush=True)
    if a.packageconfig is not None:
        v["PACKAGECONFIG"] = a.packageconfig
    v["PACKAGECONFIG_CONFARGS"] = packageconfig_confargs(v)
    # what PACKAGECONFIG makes of the build: its make arguments, DEPENDS
    # (the recipe's and the flags'), and the DOCGEN the target is given
    docgen = re.findall(r"DOCGEN=(\S+)", expand(v, v.get("EXTRA_OEMAKE", "")))
    print("replay: PACKAGECONFIG=%s CONFARGS=%s DEPENDS=%s DOCGEN=%s" % (
        ",".join(expand(v, v.get("PACKAGECONFIG", "")).split()),
        ",".join(v["PACKAGECONFIG_CONFARGS"].split()),
        ",".join(expand(v, v.get("DEPENDS", "")).split() + packageconfig_depends(v)),
        docgen[-1] if docgen else ""), flush=True)
    if a.parse_only:
        return 0 if ok else 1
    if "ptest" in inherits:
        v["PACKAGES"] = "${PN}-ptest " + v["PACKAGES"]
        v["FILES:${PN}-ptest"] = "${PTEST_PATH}"
    if "bash-completion" in inherits:
        v["PACKAGES"] = "${PN}-bash-completion " + v["PACKAGES"]
        v["FILES:${PN}-bash-completion"] = "${datadir}/bash-completion ${sysconfdir}/bash_completion.d"

    sysroot = os.path.abspath(a.sysroot)
    arch_libdir = "/usr/lib/" + a.host
    # The task environment of a Yocto build for an armv7 hard-float machine
    # (values as bitbake.conf and the toolchain tune files make them).
    debug_map = ("-fmacro-prefix-map=%s=/usr/src/debug/%s -fdebug-prefix-map=%s=/usr/src/debug/%s "
                 "-fdebug-prefix-map=%s=" % (v["S"], pn, v["S"], pn, sysroot))
    env = dict(os.environ)
    native = a.host == "native"
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
    if native:   # this machine's compiler and libraries: the build steps alone
        env.update({"CC": "gcc", "AR": "gcc-ar"})
        for k in list(env):
            if k.startswith("PKG_CONFIG"):
                del env[k]
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
        hdr = subprocess.run(["readelf" if native else "%s-readelf" % a.host, "-h", "-d", f],
                             capture_output=True, text=True).stdout
        if not native and ("Machine:" not in hdr or "ARM" not in hdr.split("Machine:")[1].split("\n")[0]):
            wrong.append(f)
        if "(GNU_HASH)" not in hdr:
            nohash.append(f)
    res(len(elfs) > 1, "yocto: %d ELF files installed (sqwave and the unit tests)" % len(elfs))
    res(not wrong, "yocto: every ELF file is for " + ("this machine" if native else "ARM") + ("" if not wrong else ": " + " ".join(wrong)))
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
