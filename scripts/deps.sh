#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Install what pdcm's build and tests need, from Debian's mirror, and only
# what is missing.  Runs as root without prompts; prints nothing when all
# is there.  Every package the project uses is listed here, with why.
set -euo pipefail

pkgs=(
	linux-source-6.1	# KUnit kernel, UML kunit.py run, checkpatch, kernel-doc
	linux-headers-amd64	# stock Debian headers: ib_pdcm.ko for the stock kernel
	linux-source-6.12	# the 6.12 LTS (bookworm-security): its KUnit kernel
	linux-headers-6.12-amd64	# its stock headers (they depend on its
				# linux-image, which is installed, never booted here)
	zstd			# 6.12's bzImage payload is zstd: vmlinux extraction
	qemu-system-x86		# every guest (TCG)
	busybox-static		# guest userland
	cpio			# initramfs
	xz-utils		# linux-source tarball
	flex bison bc		# kernel build
	libelf-dev libssl-dev	# kernel build (objtool, certs)
	dwarves			# pahole, for BTF of modules on the stock kernel
	kmod			# depmod/modinfo on the host side
	sparse			# make sparse (C=1)
	python3			# KTAP parser, vmlinux extraction, kunit.py
	iproute2		# the `rdma` tool, copied into guests
	rdma-core		# guest: rdma-core libraries
	ibverbs-providers	# guest: librxe
	ibverbs-utils		# guest: ibv_devinfo, ibv_rc_pingpong
	rdmacm-utils		# guest: rping, ucmatose, udaddy, rdma_client/server
	nvme-cli		# guest: nvme connect/disconnect (NVMe over RDMA scenarios)
	rsync			# per-kernel build copies of the tree
	ccache			# pdcm's own builds, three per kernel line (common.sh)
	debootstrap		# the trixie build root (scripts/trixie-root.sh): 7.3's headers need trixie's libc
	dkms			# check.sh dkms: DKMS build/install into a throwaway root
	e2fsprogs		# mke2fs -d: the disk of the pdcm-dkms guest (scripts/deb.sh)
	openssl			# dkms: signs the module with a throwaway key, as on a host
	python3-docutils	# make docs: rst2html, errors and warnings fail the build
	libibumad-dev		# tests/hostile: the hostile CM peer is built against libibumad
	librdmacm-dev		# tests/bench: cmdemux, the rdma_cm side of the dispatch benchmark
	# (nfs-common, nfs-kernel-server, open-iscsi and the libraries the
	# host lacks: the NFS over RDMA and iSER guests' tools, fetched and
	# unpacked by scripts/ulp-tools.sh, never installed here: their
	# postinsts start nfsd and iscsid, which load modules into the host's
	# kernel)
)

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "pdcm: installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
