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
r=1
while [ $r -le "$BC_ROUNDS" ]; do
	for cm in $(bc_order $r); do
		# the old-backlog comparison only once
		[ $cm = pdcm1024 ] && [ $r -gt 1 ] && continue
		check "r${r}_${cm}_up" bc_up $cm
		if [ $cm = native ]; then
			check "r${r}_native_listen" ulp listen L tcp:$BC_PORT "$VM_IP"
			for n in $BC_NS; do
				check "r${r}_native_$n" bc_native $r $n
			done
		else
			bc_server_start
			check "r${r}_${cm}_warmup" bc_warmup "$VM_IP"
			for n in $BC_NS; do
				check "r${r}_${cm}_$n" bc_cmtime $cm $r $n "$VM_IP"
				# (not in a check's subshell: it may restart the server)
				bc_server_alive
			done
			if [ "$BC_MEM" -gt 0 ] && [ $r -eq 1 ]; then
				check "r${r}_${cm}_mem" bc_mem $cm $r "$BC_MEM"
			fi
			bc_server_stop
		fi
		# connections in timewait end before the module goes
		sleep 1
		check "r${r}_${cm}_down" retry 30 bc_down $cm
	done
	r=$((r + 1))
done
suite_end
