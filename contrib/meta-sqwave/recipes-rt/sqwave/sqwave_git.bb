# SPDX-License-Identifier: GPL-2.0-or-later
SUMMARY = "Self-checking real-time square-wave source on a GPIO line"
DESCRIPTION = "A SCHED_FIFO, memory-locked thread woken by an absolute timerfd \
toggles a libgpiod output line every half period and logs every edge; sqwave \
predicts what a scope on the pin shows (Tmin/Tmax, missed periods, latency \
percentiles) and checks scope and logic-analyzer captures against it."
SECTION = "devel"
LICENSE = "GPL-2.0-or-later"
LIC_FILES_CHKSUM = "file://COPYING;md5=b234ee4d69f5fce4486a80fdaf4a4263"

# Where the sources come from: set SQWAVE_GIT_URI (a git:// URI with its
# protocol=) and SRCREV in local.conf or a bbappend, or build a checkout
# with externalsrc (README.md).
SQWAVE_GIT_URI ??= "git://git.example.org/sqwave.git;protocol=https"
SQWAVE_GIT_BRANCH ??= "main"
SRC_URI = "${SQWAVE_GIT_URI};branch=${SQWAVE_GIT_BRANCH} \
           file://run-ptest \
           "
SRCREV ??= "${AUTOREV}"
PV = "0.1.0+git${SRCPV}"
S = "${WORKDIR}/git"

DEPENDS = "libyaml zlib"

inherit pkgconfig ptest bash-completion

# The libgpiod API. "gpiod" builds against the libgpiod recipe, with the API
# it provides (v2 if pkg-config finds libgpiod >= 2, else v1.6); add
# gpiod-v1 or gpiod-v2 to insist on one (the build fails if the libgpiod
# recipe provides the other). Without "gpiod", only the simulated backend.
PACKAGECONFIG ??= "gpiod"
PACKAGECONFIG[gpiod] = ",GPIOD=none,libgpiod"
PACKAGECONFIG[gpiod-v1] = "GPIOD=v1,,"
PACKAGECONFIG[gpiod-v2] = "GPIOD=v2,,"
PACKAGECONFIG_CONFLICTS[gpiod-v1] = "gpiod-v2"

# The unit tests (cmocka) for ptest.
DEPENDS += "${@bb.utils.contains('PTEST_ENABLED', '1', 'cmocka', '', d)}"

# CC, CFLAGS, LDFLAGS (and so GNU_HASH) and pkg-config come from the
# environment: sqwave's Makefile keeps its required flags in front of them.
# PREFIX is given at build time too: the board and profile directory
# (${datadir}/sqwave) is compiled in.
EXTRA_OEMAKE = "BUILD=${B}/build PREFIX=${prefix} BINDIR=${bindir} MANDIR=${mandir} \
                DOCDIR=${docdir}/${BPN} SYSCONFDIR=${sysconfdir} \
                SYSTEMDUNITDIR=${systemd_system_unitdir} PTESTDIR=${PTEST_PATH} \
                ${PACKAGECONFIG_CONFARGS}"

do_compile() {
	oe_runmake all
}

do_compile_ptest() {
	oe_runmake unit-build
}

do_install() {
	oe_runmake install DESTDIR=${D}
	if ! ${@bb.utils.contains('DISTRO_FEATURES', 'systemd', 'true', 'false', d)}; then
		rm -rf ${D}${systemd_system_unitdir}
		rmdir --ignore-fail-on-non-empty -p ${D}$(dirname ${systemd_system_unitdir}) || true
	fi
}

# run-ptest itself is installed by ptest.bbclass from ${WORKDIR}.
do_install_ptest() {
	oe_runmake install-ptest DESTDIR=${D}
}

# The board and profile files go with the program; the docs and man page
# to ${PN}-doc, the completion to ${PN}-bash-completion, the unit tests to
# ${PN}-ptest (the defaults).
FILES:${PN} += "${datadir}/sqwave ${systemd_system_unitdir}/sqwave@.service"

# The unit tests check JSON and XML with python3 when it is there (else
# they say skipped).
RRECOMMENDS:${PN}-ptest += "python3-core python3-json python3-xml"
