# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-conn` in one guest (Documentation/performance.rst): over rxe
# loopback, rdma-core's cmtime on the stock ib_cm and on pdcm's ib_cm
# drop-in, and the test ULP's connect on pdcm natively, each stack loaded
# and unloaded in turn, in alternating order for each round, at every N
# of pdcmvm.bench_n.  Then (pdcmvm.bench_mem=N) N connections held live
# on each CM and their slab memory measured.  A measurement, not a test:
# the checks are only that every stack loads and every run completes.
. /pdcm/scenarios/bench_conn_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin bench_conn
echo 30 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
# one CM's slot of one round (bc_rounds loads and unloads the stack)
bc_slot() {
	if [ "$2" = native ]; then
		check "r$1_native_listen" ulp listen L tcp:$BC_PORT "$VM_IP"
		for n in $BC_NS; do
			check "r$1_native_$n" bc_native "$1" $n
		done
		return
	fi
	bc_server_start
	check "r$1_$2_warmup" bc_warmup "$VM_IP"
	for n in $BC_NS; do
		check "r$1_$2_$n" bc_cmtime "$2" "$1" $n "$VM_IP"
		# (not in a check's subshell: it may restart the server)
		bc_server_alive
	done
	if [ "$BC_MEM" -gt 0 ] && [ "$1" -eq 1 ]; then
		check "r$1_$2_mem" bc_mem "$2" "$1" "$BC_MEM"
	fi
	bc_server_stop
}
bc_rounds bc_slot
suite_end
