#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench`: the listen table, in two guests of Debian's stock kernel
# (not the KUnit one: KASAN and lockdep would measure the debug machinery).
#
#   1. pdcm_bench.ko: ns per lookup for 1 ... 100,000 listeners, pdcm's
#      table against a linear walk (rdma_cm) and the 2006 ib_cm tree.
#   2. bench_demux: REQ dispatch among 1 ... 500 per-IP listeners in the
#      real stacks, MAD receive to the listener's handler: stock ib_cm +
#      rdma_cm (one rdma_listen() per IP) against pdcm's native listens.
#
#   BENCH_DEMUX_N="1 100 500"   listener counts of part 2
#   BENCH_DEMUX_REQS=200        REQs per count, CM and round
#   BENCH_ROUNDS=3              rounds of part 2 (order alternating)
#   BENCH_PARTS="table demux"   which parts
#
# Prints both tables; Documentation/performance.rst says how to read them.
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"
cd "$PDCM_TOP"

BENCH_DEMUX_N=${BENCH_DEMUX_N:-1 100 500}
BENCH_DEMUX_REQS=${BENCH_DEMUX_REQS:-200}
BENCH_ROUNDS=${BENCH_ROUNDS:-3}
BENCH_PARTS=${BENCH_PARTS:-table demux}

scripts/deps.sh
stock=$(scripts/stock-kernel.sh)
kver=$(cat "$stock/kver")
dir=$PDCM_TOP/build/bench
pdcm_build bench "/usr/src/linux-headers-$kver" build/logs/bench-build.log \
	CONFIG_IB_PDCM=m CONFIG_IB_PDCM_BENCHMARK=m CONFIG_IB_PDCM_IBCM=m \
	CONFIG_IB_PDCM_TEST_ULP=m ||
	{ cat build/logs/bench-build.log; die "build failed"; }
scripts/ibcm-crc.sh "$dir/Module.symvers" "/usr/src/linux-headers-$kver" >/dev/null ||
	die "the ib_cm drop-in's CRCs do not match $kver's ib_cm (scripts/ibcm-crc.sh)"
scripts/initramfs.sh stock "$stock" "$dir" build/bench.cpio.gz
failed=0

case " $BENCH_PARTS " in *" table "*)
	log=build/logs/bench.log
	log "lookup table: a $kver guest (qemu TCG, 1 vCPU)"
	VM_MEM=1024 vm_run "$log" "$stock/vmlinux" build/bench.cpio.gz 900 "pdcmvm.scenario=bench" || true
	sed -n 's/^\[[ 0-9.]*\] pdcm_bench: //p' "$log"
	python3 tests/vm/ktap.py "$log" bench >build/logs/bench.ktap ||
		{ cat build/logs/bench.ktap; log "benchmark run failed (see $log)"; failed=1; }
	;;
esac

case " $BENCH_PARTS " in *" demux "*)
	log=build/logs/bench-demux.log
	log "REQ dispatch: a $kver guest, N = $BENCH_DEMUX_N listeners, $BENCH_DEMUX_REQS REQs, $BENCH_ROUNDS rounds"
	VM_MEM=1024 vm_run "$log" "$stock/vmlinux" build/bench.cpio.gz 1800 \
		"pdcmvm.scenario=bench_demux pdcmvm.demux_n=$(echo $BENCH_DEMUX_N | tr ' ' ,) pdcmvm.demux_reqs=$BENCH_DEMUX_REQS pdcmvm.bench_rounds=$BENCH_ROUNDS" || true
	python3 scripts/bench_demux_table.py "$log" | tee build/logs/bench-demux.table
	python3 tests/vm/ktap.py "$log" bench_demux >build/logs/bench-demux.ktap ||
		{ grep -v '^PASS' build/logs/bench-demux.ktap; log "dispatch run failed (see $log)"; failed=1; }
	;;
esac
exit $failed
