#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make demo`: install what is missing, fetch Debian's stock kernel, build
# ib_pdcm.ko and the test ULP for it, boot a guest with soft-RoCE and show
# three listeners on one port (two IPs and a wildcard) taking connections
# (tests/vm/scenarios/ulp_demo.sh).
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"
cd "$PDCM_TOP"

scripts/deps.sh
stock=$(scripts/stock-kernel.sh)
kver=$(cat "$stock/kver")
dir=$PDCM_TOP/build/demo
log "building ib_pdcm.ko and the test ULP for $kver"
pdcm_build demo "/usr/src/linux-headers-$kver" build/logs/demo-build.log \
	CONFIG_IB_PDCM=m CONFIG_IB_PDCM_TEST_ULP=m ||
	{ cat build/logs/demo-build.log; die "build failed"; }
scripts/initramfs.sh stock "$stock" "$dir" build/demo.cpio.gz
log "booting Debian $kver under qemu (TCG) with rdma_rxe"
log=build/logs/demo.log
VM_MEM=512 vm_run "$log" "$stock/vmlinux" build/demo.cpio.gz 120 "pdcmvm.scenario=ulp_demo" || true
sed -n 's/^\[[ 0-9.]*\] pdcm-demo: //p' "$log"
python3 tests/vm/ktap.py "$log" demo >build/logs/demo.ktap || { cat build/logs/demo.ktap; die "demo failed (see $log)"; }
log "demo passed; console log: $log"
