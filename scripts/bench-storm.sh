#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-storm`: the connect storms users hit (Documentation/
# performance.rst "Connect storms"), the stock ib_cm against pdcm's
# ib_cm drop-in under the same rdma_cm, in one boot of two stock guests
# joined over 127.0.0.1, both on the same CM at a time, the order
# alternating by round:
#
#  - NVMe over RDMA: K `nvme connect`s at once to K subsystems of one
#    nvmet-rdma target, Q I/O queues each (K x (Q + 1) connections);
#  - many-to-one: P cmtime clients at once, C connections each, against
#    one cmtime server.
#
# Prints one table (scripts/bench_storm_table.py).
#
#   STORM_K=16 STORM_Q=16       subsystems, I/O queues per controller
#   STORM_SMP=8                 the host guest's vCPUs (nvme-rdma gives a
#                               controller at most that many queues of each
#                               kind: read, write, poll; Q <= 3 x STORM_SMP)
#   STORM_P=8 STORM_C=500       many-to-one: clients, connections each
#   STORM_ROUNDS=1              rounds
#   STORM_CMS="stock pdcm"      the stacks (bench_conn_lib.sh's names)
#   BENCH_LINE=6.1              the stock kernel line (6.1, 6.12, 7.3)
#   STORM_MEM=3072              each guest's memory, MB
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"
cd "$PDCM_TOP"

STORM_K=${STORM_K:-16}
STORM_Q=${STORM_Q:-16}
STORM_SMP=${STORM_SMP:-8}
STORM_P=${STORM_P:-8}
STORM_C=${STORM_C:-500}
STORM_ROUNDS=${STORM_ROUNDS:-1}
STORM_CMS=${STORM_CMS:-stock pdcm}
STORM_MEM=${STORM_MEM:-3072}
BENCH_LINE=${BENCH_LINE:-6.1}
[ "$STORM_Q" -le $((3 * STORM_SMP)) ] ||
	die "STORM_Q=$STORM_Q needs STORM_SMP >= $(((STORM_Q + 2) / 3)) (nvme-rdma's queues per kind <= CPUs)"

scripts/deps.sh
stock=$(scripts/stock-kernel.sh "$BENCH_LINE")
kdir=$(stock_kdir "$BENCH_LINE")
kver=$(cat "$stock/kver")
dir=$PDCM_TOP/build/bench-storm
pdcm_build bench-storm "$kdir" build/logs/bench-storm-build.log \
	CONFIG_IB_PDCM=m CONFIG_IB_PDCM_IBCM=m ||
	{ cat build/logs/bench-storm-build.log; die "build failed"; }
scripts/ibcm-crc.sh "$dir/Module.symvers" "$kdir" >/dev/null ||
	die "the ib_cm drop-in's CRCs do not match $kver's ib_cm (scripts/ibcm-crc.sh)"
scripts/initramfs.sh stock "$stock" "$dir" build/bench-storm.cpio.gz

w="pdcmvm.storm_k=$STORM_K pdcmvm.storm_q=$STORM_Q pdcmvm.storm_p=$STORM_P pdcmvm.storm_c=$STORM_C"
w="$w pdcmvm.bench_rounds=$STORM_ROUNDS pdcmvm.bench_cms=$(echo $STORM_CMS | tr ' ' ,)"
log "storm: $BENCH_LINE, $STORM_K subsystems x $STORM_Q I/O queues (host: $STORM_SMP vCPUs);" \
    "$STORM_P clients x $STORM_C connections; $STORM_ROUNDS round(s), CMs: $STORM_CMS"
t0=$SECONDS
port=$((20000 + RANDOM % 20000))
VM_SMP=$STORM_SMP VM_MEM=$STORM_MEM vm_run build/logs/bench-storm-host.log "$stock/vmlinux" \
	build/bench-storm.cpio.gz 7200 \
	"pdcmvm.scenario=bench_storm_host pdcmvm.ip=10.0.0.2 pdcmvm.peer=10.0.0.1 $w" \
	$(vm_dgram_nic B $port) &
hpid=$!
VM_MEM=$STORM_MEM vm_run build/logs/bench-storm-target.log "$stock/vmlinux" \
	build/bench-storm.cpio.gz 7200 \
	"pdcmvm.scenario=bench_storm_target pdcmvm.ip=10.0.0.1 pdcmvm.peer=10.0.0.2 $w" \
	$(vm_dgram_nic A $port) || true
wait $hpid || true
log "storm: $((SECONDS - t0)) s"
rc=0
for g in host target; do
	python3 tests/vm/ktap.py "build/logs/bench-storm-$g.log" "bench_storm_$g" \
		"bench_storm_$g" >"build/logs/bench-storm-$g.ktap" ||
		{ grep -v '^PASS' "build/logs/bench-storm-$g.ktap"; rc=1;
		  log "the $g guest's run failed (build/logs/bench-storm-$g.log); its numbers follow"; }
done
python3 scripts/bench_storm_table.py build/logs/bench-storm-host.log \
	build/logs/bench-storm-target.log | tee build/logs/bench-storm.table
exit $rc
