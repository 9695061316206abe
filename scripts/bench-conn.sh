#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-conn`: connection setup, the stock ib_cm against pdcm's
# ib_cm drop-in under the same rdma_cm and the same cmtime binary, plus
# pdcm's native figure (the test ULP), in one stock Debian guest; then
# the same across two guests.  Prints one table (scripts/bench_table.py);
# Documentation/performance.rst says how it is measured and how to read it.
#
#   BENCH_N="100 1000 5000 10000"  the connection counts
#   BENCH_ROUNDS=3                  rounds (each CM once a round, the
#                                   order alternating)
#   BENCH_MEM=1000                  N of the memory pass (0: none)
#   BENCH_CMS="stock pdcm native"   the stacks (pdcm1024: the drop-in with
#                                   ib_pdcm's default listen backlog;
#                                   pdcm0: early_mra_pct=0; pdcmlo:
#                                   wq_highpri=0)
#   BENCH_PAIR=1                    also the two-guest run (default 0)
#   BENCH_ONE=0                     without the one-guest run (with
#                                   BENCH_PAIR=1: the two guests only)
#   BENCH_PAIR_N="1000 5000"        its connection counts
#   BENCH_PROFILE=1                 instead: perf's profile of one cmtime
#                                   run of the first N on each CM
#   BENCH_LINE=6.1                  the kernel line whose stock kernel the
#                                   guests boot (6.1, 6.12 or 7.3: its own
#                                   ib_cm, rdma_cm and rxe against the
#                                   drop-in built for it)
#   BENCH_SCALE=N                   instead: N connections held at once
#                                   pdcm-to-pdcm (test ULP), memory per
#                                   connection, teardown and timewait
#                                   (BENCH_SCALE_MEM MB, default 8192)
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"
cd "$PDCM_TOP"

BENCH_N=${BENCH_N:-100 1000 5000 10000}
BENCH_ROUNDS=${BENCH_ROUNDS:-3}
BENCH_MEM=${BENCH_MEM:-1000}
BENCH_CMS=${BENCH_CMS:-stock pdcm native}
# (the two-guest run boots two guests at once: off unless asked for)
BENCH_PAIR=${BENCH_PAIR:-0}
BENCH_PAIR_N=${BENCH_PAIR_N:-1000 5000}
BENCH_PAIR_ROUNDS=${BENCH_PAIR_ROUNDS:-$BENCH_ROUNDS}
BENCH_ONE=${BENCH_ONE:-1}

BENCH_LINE=${BENCH_LINE:-6.1}

scripts/deps.sh
stock=$(scripts/stock-kernel.sh "$BENCH_LINE")
kdir=$(stock_kdir "$BENCH_LINE")
kver=$(cat "$stock/kver")
dir=$PDCM_TOP/build/bench-conn
pdcm_build bench-conn "$kdir" build/logs/bench-conn-build.log \
	CONFIG_IB_PDCM=m CONFIG_IB_PDCM_IBCM=m CONFIG_IB_PDCM_TEST_ULP=m ||
	{ cat build/logs/bench-conn-build.log; die "build failed"; }
scripts/ibcm-crc.sh "$dir/Module.symvers" "$kdir" >/dev/null ||
	die "the ib_cm drop-in's CRCs do not match $kver's ib_cm (scripts/ibcm-crc.sh)"
if [ "${BENCH_PROFILE:-0}" = 1 ]; then
	PDCM_INITRAMFS_TOOLS=perf scripts/initramfs.sh stock "$stock" "$dir" build/bench-prof.cpio.gz
	VM_MEM=${BENCH_VM_MEM:-3072} vm_run build/logs/bench-prof.log "$stock/vmlinux" \
		build/bench-prof.cpio.gz 1800 \
		"pdcmvm.scenario=bench_conn_prof pdcmvm.bench_n=${BENCH_N%% *}" || true
	sed -n 's/^\[[ 0-9.]*\] bench_prof: //p' build/logs/bench-prof.log
	exit 0
fi
scripts/initramfs.sh stock "$stock" "$dir" build/bench-conn.cpio.gz
if [ -n "${BENCH_SCALE:-}" ]; then
	mem=${BENCH_SCALE_MEM:-8192}
	log "scale: $BENCH_SCALE connections held pdcm-to-pdcm (qemu TCG, 1 vCPU, ${mem} MB)"
	t0=$SECONDS
	VM_MEM=$mem vm_run build/logs/bench-scale.log "$stock/vmlinux" build/bench-conn.cpio.gz \
		$((1800 + BENCH_SCALE / 10)) "pdcmvm.scenario=bench_scale pdcmvm.scale_n=$BENCH_SCALE pdcmvm.scale_batch=${BENCH_SCALE_BATCH:-5000}" || true
	log "scale: $((SECONDS - t0)) s"
	sed -n 's/^\[[ 0-9.]*\] \(bench_scale: .*\|    # conn_states: .*\)/\1/p' build/logs/bench-scale.log
	python3 tests/vm/ktap.py build/logs/bench-scale.log bench_scale bench_scale \
		>build/logs/bench-scale.ktap || { grep -v '^PASS' build/logs/bench-scale.ktap; exit 1; }
	exit 0
fi

words() {	# words NS ROUNDS MEM
	# no_hash_pointers: the memory pass matches frees to allocations by
	# the pointers the kmem tracepoints print (bench_conn_lib.sh)
	echo "no_hash_pointers pdcmvm.bench_n=$(echo $1 | tr ' ' ,) pdcmvm.bench_rounds=$2 pdcmvm.bench_mem=$3 pdcmvm.bench_cms=$(echo $BENCH_CMS | tr ' ' ,)"
}

# rxe's QPs for 10,000 connections on each end, and cmtime's, need memory
mem=${BENCH_VM_MEM:-3072}
logs=()
if [ "$BENCH_ONE" = 1 ]; then
	log "one guest: N = $BENCH_N, $BENCH_ROUNDS rounds (qemu TCG, 1 vCPU, ${mem} MB)"
	t0=$SECONDS
	VM_MEM=$mem vm_run build/logs/bench-conn.log "$stock/vmlinux" build/bench-conn.cpio.gz 7200 \
		"pdcmvm.scenario=bench_conn $(words "$BENCH_N" "$BENCH_ROUNDS" "$BENCH_MEM")" || true
	log "one guest: $((SECONDS - t0)) s"
	python3 tests/vm/ktap.py build/logs/bench-conn.log bench_conn bench_conn \
		>build/logs/bench-conn.ktap || { grep -v '^PASS' build/logs/bench-conn.ktap; \
		log "the one-guest run failed (build/logs/bench-conn.log); its numbers follow"; }
	logs+=(build/logs/bench-conn.log)
fi

if [ "$BENCH_PAIR" = 1 ]; then
	log "two guests: N = $BENCH_PAIR_N, $BENCH_PAIR_ROUNDS rounds"
	t0=$SECONDS
	port=$((20000 + RANDOM % 20000))
	w=$(words "$BENCH_PAIR_N" "$BENCH_PAIR_ROUNDS" 0)
	VM_MEM=$mem vm_run build/logs/bench-conn-b.log "$stock/vmlinux" build/bench-conn.cpio.gz 7200 \
		"pdcmvm.scenario=bench_conn_client pdcmvm.ip=10.0.0.2 pdcmvm.peer=10.0.0.1 $w" \
		$(vm_dgram_nic B $port) &
	bpid=$!
	VM_MEM=$mem vm_run build/logs/bench-conn-a.log "$stock/vmlinux" build/bench-conn.cpio.gz 7200 \
		"pdcmvm.scenario=bench_conn_server pdcmvm.ip=10.0.0.1 pdcmvm.peer=10.0.0.2 $w" \
		$(vm_dgram_nic A $port) || true
	wait $bpid || true
	log "two guests: $((SECONDS - t0)) s"
	for g in a:server b:client; do
		python3 tests/vm/ktap.py "build/logs/bench-conn-${g%%:*}.log" "bench_conn_${g#*:}" \
			"bench_conn_${g#*:}" >"build/logs/bench-conn-${g%%:*}.ktap" ||
			{ grep -v '^PASS' "build/logs/bench-conn-${g%%:*}.ktap"; \
			  log "the two-guest run failed (build/logs/bench-conn-${g%%:*}.log)"; }
	done
	logs+=(build/logs/bench-conn-b.log:build/logs/bench-conn-a.log)
fi
python3 scripts/bench_table.py "${logs[@]}" | tee build/logs/bench-conn.table
