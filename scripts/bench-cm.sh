#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-cm`: the CM against the CM, without rxe.  softib_ibcm's
# bench mode (tests/softib/bench.c), one kernel client written against
# <rdma/ib_cm.h>, runs N handshakes between the two ports of a softib
# device through the kernel's ib_cm and through pdcm's ib_cm drop-in, in
# one stock Debian guest, one CM loaded at a time, alternating
# (tests/vm/scenarios/bench_cm.sh).  Prints one table
# (scripts/bench_cm_table.py); Documentation/performance.rst says how it
# is measured and how to read it.
#
#   BENCH_N="1000 10000 100000"   the handshake counts
#   BENCH_CONC="1 64 N"           the concurrencies (N: all at once)
#   BENCH_ROUNDS=1                rounds (each CM once a round, the order
#                                 alternating)
#   BENCH_MEM=10000               N of the held pass: all established at
#                                 once, slab memory per connection (0: none)
#   BENCH_PERF=1                  every run under perf (the CM's CPU time
#                                 per handshake); 0: without
#   BENCH_LINE=6.1                the kernel line (6.1 or 6.12)
#   BENCH_VM_MEM                  the guest's MB (default: 1024, or 3072
#                                 if an N is 100,000 or more)
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"
cd "$PDCM_TOP"

BENCH_N=${BENCH_N:-1000 10000 100000}
BENCH_CONC=${BENCH_CONC:-1 64 N}
BENCH_ROUNDS=${BENCH_ROUNDS:-1}
BENCH_MEM=${BENCH_MEM:-10000}
BENCH_PERF=${BENCH_PERF:-1}
BENCH_LINE=${BENCH_LINE:-6.1}

scripts/deps.sh
stock=$(scripts/stock-kernel.sh "$BENCH_LINE")
kdir=$(stock_kdir "$BENCH_LINE")
kver=$(cat "$stock/kver")
dir=$PDCM_TOP/build/bench-cm
pdcm_build bench-cm "$kdir" build/logs/bench-cm-build.log \
	CONFIG_IB_PDCM=m CONFIG_IB_PDCM_IBCM=m CONFIG_IB_PDCM_SOFTIB=m ||
	{ cat build/logs/bench-cm-build.log; die "build failed"; }
scripts/ibcm-crc.sh "$dir/Module.symvers" "$kdir" >/dev/null ||
	die "the ib_cm drop-in's CRCs do not match $kver's ib_cm (scripts/ibcm-crc.sh)"
tools=
[ "$BENCH_PERF" = 1 ] && tools=perf
PDCM_INITRAMFS_TOOLS=$tools scripts/initramfs.sh stock "$stock" "$dir" build/bench-cm.cpio.gz

max=0
for n in $BENCH_N $BENCH_MEM; do [ "$n" -gt "$max" ] && max=$n; done
mem=${BENCH_VM_MEM:-$([ "$max" -ge 100000 ] && echo 3072 || echo 1024)}
words="pdcmvm.scenario=bench_cm pdcmvm.bcm_n=$(echo $BENCH_N | tr ' ' ,)"
words+=" pdcmvm.bcm_conc=$(echo $BENCH_CONC | tr ' ' ,) pdcmvm.bcm_rounds=$BENCH_ROUNDS"
words+=" pdcmvm.bcm_mem=$BENCH_MEM pdcmvm.bcm_perf=$BENCH_PERF"
log "bench-cm: N = $BENCH_N, concurrency $BENCH_CONC, $BENCH_ROUNDS round(s), $kver (qemu TCG, 1 vCPU, ${mem} MB)"
t0=$SECONDS
VM_MEM=$mem vm_run build/logs/bench-cm.log "$stock/vmlinux" build/bench-cm.cpio.gz 14400 "$words" || true
log "bench-cm: $((SECONDS - t0)) s"
# (the case count tests/vm/expected declares is the smoke run's: knobs
# that leave out an N or a concurrency run fewer)
python3 tests/vm/ktap.py build/logs/bench-cm.log bench_cm bench_cm >build/logs/bench-cm.ktap ||
	if grep '^FAIL' build/logs/bench-cm.ktap | grep -qv '^FAIL bench_cm\.declared$'; then
		grep -v '^PASS' build/logs/bench-cm.ktap
		log "the run failed (build/logs/bench-cm.log); its numbers follow"
	fi
python3 scripts/bench_cm_table.py build/logs/bench-cm.log | tee build/logs/bench-cm.table
