# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave: installing and packaging: install, install-ptest, deb, yocto.
# Included by the Makefile, after its build variables and rules.

.PHONY: install install-strip uninstall install-ptest deb test-install yocto yocto-parse

# make install: the binary, the man page, the docs, the board and profile
# files, the JSON schemas of the outputs (SQWDATADIR/schema: data a program
# reads, so not under DOCDIR, which packagers may leave out), bash
# completion and the systemd unit template; never the network.
# install-strip strips the binary ($(STRIP)); packagers strip themselves.
INSTALL      ?= install
INSTALL_STRIP ?=
DOCS         := README.md COPYING $(wildcard docs/*.md)

$(BUILD)/sqwave@.service: contrib/systemd/sqwave@.service.in $(BUILD)/flags
	@mkdir -p $(@D)
	sed -e 's|@BINDIR@|$(BINDIR)|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' $< > $@

install: all docs $(BUILD)/sqwave@.service
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR) \
		$(DESTDIR)$(SQWDATADIR)/boards $(DESTDIR)$(SQWDATADIR)/config \
		$(DESTDIR)$(SQWDATADIR)/schema \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(DOCDIR)/examples
	$(INSTALL) -m 0755 $(INSTALL_STRIP) $(OUT)/sqwave $(DESTDIR)$(BINDIR)/sqwave
	$(INSTALL) -m 0644 $(OUT)/sqwave.1 $(DESTDIR)$(MANDIR)/man1/sqwave.1
	$(INSTALL) -m 0644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 0644 boards/*.yaml $(DESTDIR)$(SQWDATADIR)/boards/
	$(INSTALL) -m 0644 config/*.yaml $(DESTDIR)$(SQWDATADIR)/config/
	$(INSTALL) -m 0644 docs/schema/*.schema.json $(DESTDIR)$(SQWDATADIR)/schema/
	$(INSTALL) -m 0644 $(OUT)/sqwave.bash-completion $(DESTDIR)$(BASHCOMPDIR)/sqwave
	$(INSTALL) -m 0644 $(BUILD)/sqwave@.service $(DESTDIR)$(SYSTEMDUNITDIR)/sqwave@.service
	$(INSTALL) -m 0644 contrib/systemd/non-root.conf $(DESTDIR)$(DOCDIR)/examples/non-root.conf
	$(INSTALL) -m 0644 contrib/udev/60-sqwave.rules $(DESTDIR)$(UDEVRULESDIR)/60-sqwave.rules
	$(INSTALL) -m 0644 contrib/sysusers/sqwave.conf $(DESTDIR)$(SYSUSERSDIR)/sqwave.conf

install-strip:
	@$(MAKE) --no-print-directory install INSTALL_STRIP="-s --strip-program=$(STRIP)"

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sqwave $(DESTDIR)$(MANDIR)/man1/sqwave.1 \
		$(DESTDIR)$(BASHCOMPDIR)/sqwave $(DESTDIR)$(SYSTEMDUNITDIR)/sqwave@.service \
		$(DESTDIR)$(UDEVRULESDIR)/60-sqwave.rules $(DESTDIR)$(SYSUSERSDIR)/sqwave.conf
	rm -rf $(DESTDIR)$(SQWDATADIR) $(DESTDIR)$(DOCDIR)

# The unit tests as Yocto's ptest (or any target) runs them: the binaries
# (unit-build, in the Makefile), built like sqwave (cross too), and the
# files they read, under PTESTDIR; the runner is the recipe's run-ptest
# (contrib/meta-sqwave).
install-ptest: $(UNIT_BINS)
	$(INSTALL) -d $(DESTDIR)$(PTESTDIR)/tests/unit $(DESTDIR)$(PTESTDIR)/boards \
		$(DESTDIR)$(PTESTDIR)/config
	$(INSTALL) -m 0755 $(UNIT_BINS) $(DESTDIR)$(PTESTDIR)/tests/unit/
	for f in $$(cd tests/data && find . -type f | LC_ALL=C sort); do \
		$(INSTALL) -D -m 0644 tests/data/$$f $(DESTDIR)$(PTESTDIR)/tests/data/$$f || exit 1; \
	done
	$(INSTALL) -m 0644 boards/*.yaml $(DESTDIR)$(PTESTDIR)/boards/
	$(INSTALL) -m 0644 config/*.yaml $(DESTDIR)$(PTESTDIR)/config/

# The Debian package, against libgpiod 2.x and 1.6: built, lintian, installed
# and run (tests/pkg/deb; docs/packaging.md). Packages in build-deb/API/.
deb:
	@tests/pkg/deb

# make install as a packager and a user meet it: DESTDIR staging, the
# installed binary with short names, completion, install-strip, uninstall,
# systemd-analyze verify and the unit's ExecStart (tests/pkg/install).
test-install:
	@scripts/install-deps systemd
	@tests/pkg/install

# The Yocto recipe (contrib/meta-sqwave) without bitbake: its compile and
# install tasks replayed against tests/vm's armhf sysroots, GNU_HASH and
# FILES checked, run-ptest in the QEMU armhf guest (tests/pkg/yocto).
yocto:
	@tests/pkg/yocto

# The recipe as bitbake parses it: offline by default, AUTOREV only when
# asked for (tests/pkg/yocto-parse; fast, no toolchain).
yocto-parse:
	@tests/pkg/yocto-parse
