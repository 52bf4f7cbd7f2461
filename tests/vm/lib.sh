# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings for the tests/vm scripts (sourced, not run). Every path is
# relative to the repository top, which the scripts cd to first.

# Downloads and sysroots, kept between runs and between clones: outside the
# tree (a fresh CI clone then reuses them; `git clean` and `make clean-vm`
# leave them), under the user's cache directory. VM_CACHE=DIR overrides.
VM_CACHE=${VM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/sqwave/vm}
VM_OUT=${VM_OUT:-build-vm}               # initramfs, console logs, traces of the last run
VM_TRIPLET=arm-linux-gnueabihf
VM_APIS=${VM_APIS:-"v2 v1"}              # libgpiod builds to test

# Packages unpacked into both sysroots; per-API ones are added by the fetch script.
VM_COMMON_DEBS="busybox-static libc6 libgcc-s1 libyaml-0-2 libyaml-dev libcmocka0 libcmocka-dev zlib1g zlib1g-dev"

# Kernel modules the guest loads for the 9p shared folder (tests/vm/shell, and
# its test), in load order: virtio-mmio transport, 9p client, file system.
# 6.1 (v1 guest) has a separate fscache; on 6.12 (v2 guest) it is part of netfs,
# and 9pnet itself needs netfs first.
vm_modules() {
	case $1 in
	v1) echo "virtio_mmio 9pnet 9pnet_virtio netfs fscache 9p" ;;
	*) echo "virtio_mmio netfs 9pnet 9pnet_virtio 9p" ;;
	esac
}

vm_say() { printf 'test-vm: %s\n' "$*"; }
vm_die() { printf 'test-vm: error: %s\n' "$*" >&2; exit 1; }

# The sysroot for one libgpiod API (v1 | v2).
vm_sysroot() { printf '%s/sysroot-%s' "$VM_CACHE" "$1"; }

# The kernel directory one API's guest boots: v1 gets bookworm's 6.1, v2
# bookworm-backports' 6.12 (timerlat_fd needs >= 6.5).
vm_kernel() { case $1 in v1) printf '%s/kernel' "$VM_CACHE" ;; *) printf '%s/kernel-bpo' "$VM_CACHE" ;; esac; }

# Environment that points pkg-config at a sysroot's armhf .pc files only.
vm_pkg_env() {
	s=$(cd "$(vm_sysroot "$1")" && pwd)
	printf 'PKG_CONFIG_SYSROOT_DIR=%s PKG_CONFIG_LIBDIR=%s PKG_CONFIG_PATH= PKG_CONFIG_SYSTEM_INCLUDE_PATH=/nonexistent PKG_CONFIG_SYSTEM_LIBRARY_PATH=/nonexistent' \
		"$s" "$s/usr/lib/$VM_TRIPLET/pkgconfig:$s/usr/share/pkgconfig"
}
