# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-storm`, the host (10.0.0.2): for each round and CM
# (bench_storm_target.sh's order), load the stack and nvme_rdma, wait
# until the target has its K subsystems up, connect all K at once with Q
# I/O queues each, disconnect; then P cmtime clients at once against the
# target's cmtime server.  bench_storm_lib.sh says what is measured.
. /pdcm/scenarios/bench_storm_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin bench_storm_host
check hostnqn sh -c "mkdir -p /etc/nvme && echo nqn.2014-08.org.nvmexpress:uuid:\$(cat /proc/sys/kernel/random/uuid) >/etc/nvme/hostnqn && cat /proc/sys/kernel/random/uuid >/etc/nvme/hostid"
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 60
kmsg "    # $(nproc) vCPUs: nvme connect $(bs_queue_args)"
# bs_run CASE R CM FUNC: FUNC's result as CASE; on the stock ib_cm a
# failure (clients rejected or timed out) is what the benchmark measured,
# counted in the table, and skips CASE instead of failing the run
bs_run() {
	if [ "$3" != stock ]; then
		check "$1" "$4" "$2" "$3"
	elif "$4" "$2" "$3" >/tmp/bs_run.err 2>&1; then
		check "$1" true
	else
		skip "$1" "ib_cm failed here: counted in the table"
	fi
}
bs_slot() {
	check "r$1_$2_nvme_rdma_loads" modprobe nvme_rdma
	check "r$1_$2_target_ready" retry 300 sh -c "echo go | nc $VM_PEER $BS_READY"
	bs_run "r$1_$2_nvme_storm" "$1" "$2" bs_nvme_storm
	check "r$1_$2_nvme_done" retry 60 sh -c "echo done | nc $VM_PEER $BS_DONE"
	check "r$1_$2_nvme_rdma_unloads" retry 30 rmmod nvme_rdma
	# warmed up (retried until the server listens) before the target
	# starts counting
	check "r$1_$2_m2o_warmup" bc_warmup "$VM_PEER"
	check "r$1_$2_m2o_ready" retry 300 sh -c "echo go | nc $VM_PEER $BS_M2O_READY"
	bs_run "r$1_$2_m2o" "$1" "$2" bs_m2o
	check "r$1_$2_m2o_done" retry 60 sh -c "echo done | nc $VM_PEER $BS_M2O_DONE"
}
bc_rounds bs_slot
suite_end
