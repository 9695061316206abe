# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-storm`, the target (10.0.0.1): for each round and CM in the
# order bench_storm_host.sh follows, load the stack, export K NVMe
# subsystems over nvmet-rdma until the host is done with them, then
# serve cmtime until the host's clients are done; print this side's CM
# counters for each phase (bench_storm_lib.sh).
. /pdcm/scenarios/bench_storm_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin bench_storm_target
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 60
bs_slot() {
	_c0=$(bc_counters)
	check "r$1_$2_subsystems_up" bs_target_up
	check "r$1_$2_host_go" timeout 900 nc -l -p $BS_READY
	bc_drops_start
	check "r$1_$2_host_done" timeout 3600 nc -l -p $BS_DONE
	bc_drops_end "$2" "$1" nvme_target
	kmsg "bench_storm: side=target cm=$2 round=$1 phase=nvme controllers=$(dmesg | grep -c "nvm controller [0-9]* for subsystem $BS_NQN") $(kv_delta "$_c0" "$(bc_counters)")"
	check "r$1_$2_subsystems_down" bs_target_down
	dmesg -c >/dev/null
	bc_server_start
	# the host's go comes after its warm-up, which is not counted
	check "r$1_$2_m2o_go" timeout 900 nc -l -p $BS_M2O_READY
	_c0=$(bc_counters)
	bc_drops_start
	check "r$1_$2_m2o_done" timeout 3600 nc -l -p $BS_M2O_DONE
	bc_server_stop
	bc_drops_end "$2" "$1" m2o_target
	kmsg "bench_storm: side=target cm=$2 round=$1 phase=m2o $(kv_delta "$_c0" "$(bc_counters)")"
}
bc_rounds bs_slot
suite_end
