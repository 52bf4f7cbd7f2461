# SPDX-License-Identifier: GPL-2.0-or-later
# sqwave: a real LAVA job on this machine: test-lava.
# Included by the Makefile, after its build variables and rules.

# Debian's lava-dispatcher (installed when missing) runs lava-run on LAVA's
# qemu device type with make test-vm's armhf board, and the working tree's
# contrib/lava/sqwave.yaml; the test holds the test cases LAVA recorded
# against sqwave's result lines (tests/lava/run, docs/ci.md "A real LAVA
# job"), then the MultiNode definition on two such boards through a local
# lava-coordinator (docs/lava-multinode.md, Tested). Skipped, with the reason, where lava-run cannot run. Its files
# are in build-lava/; the downloads in make test-vm's cache.
.PHONY: test-lava
test-lava:
	@tests/lava/run
