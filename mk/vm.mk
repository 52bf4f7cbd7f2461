# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave: the armhf board under QEMU: test-vm, clean-vm.
# Included by the Makefile, after its build variables and rules.

# sqwave cross-built for armhf (libgpiod v2 and v1) on Debian's PREEMPT_RT
# kernel and QEMU's PL061 GPIO controller; recipe in docs/qemu-vm.md.
# Downloads are cached outside the tree, in VM_CACHE (tests/vm/lib.sh:
# $XDG_CACHE_HOME/sqwave/vm, else ~/.cache/sqwave/vm); `make clean-vm` keeps them
# and removes the builds, make test-lava's build-lava/ too (mk/lava.mk).
.PHONY: test-vm clean-vm
test-vm:
	@tests/vm/run
clean-vm:
	rm -rf build-arm-v1 build-arm-v2 build-vm build-lava
