#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench`: build pdcm_bench.ko for Debian's stock kernel and run it in
# a guest.  The stock kernel, not the KUnit one: KASAN and lockdep would
# measure the debug machinery, not the table.  Prints the benchmark table.
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"
cd "$PDCM_TOP"

scripts/deps.sh
stock=$(scripts/stock-kernel.sh)
kver=$(cat "$stock/kver")
dir=$PDCM_TOP/build/bench
pdcm_build bench "/usr/src/linux-headers-$kver" build/logs/bench-build.log \
	CONFIG_IB_PDCM=m CONFIG_IB_PDCM_BENCHMARK=m ||
	{ cat build/logs/bench-build.log; die "build failed"; }
scripts/initramfs.sh stock "$stock" "$dir" build/bench.cpio.gz
log=build/logs/bench.log
log "running the benchmark in a $kver guest (qemu TCG, 1 vCPU)"
VM_MEM=1024 vm_run "$log" "$stock/vmlinux" build/bench.cpio.gz 900 "pdcmvm.scenario=bench" || true
sed -n 's/^\[[ 0-9.]*\] pdcm_bench: //p' "$log"
python3 tests/vm/ktap.py "$log" bench >build/logs/bench.ktap || { cat build/logs/bench.ktap; die "benchmark run failed (see $log)"; }
