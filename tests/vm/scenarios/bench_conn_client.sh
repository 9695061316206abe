# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-conn` across two guests, the client (10.0.0.2): for each
# round and CM (bench_conn_server.sh's order), load the stack, warm up
# against the server (retried until it listens on the same CM), one
# cmtime run per N, tell the server it is done, unload.
. /pdcm/scenarios/bench_conn_lib.sh

BC_CMS=$(echo "$BC_CMS" | sed 's/native//')
net_up
rxe_add rxe0 eth0
suite_begin bench_conn_client
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 60
r=1
while [ $r -le "$BC_ROUNDS" ]; do
	for cm in $(bc_order $r); do
		check "r${r}_${cm}_up" bc_up $cm
		check "r${r}_${cm}_warmup" bc_warmup "$VM_PEER"
		for n in $BC_NS; do
			check "r${r}_${cm}_$n" bc_cmtime $cm $r $n "$VM_PEER"
		done
		check "r${r}_${cm}_done" retry 60 sh -c "echo done | nc $VM_PEER $SYNC_PORT"
		sleep 1
		check "r${r}_${cm}_down" retry 30 bc_down $cm
	done
	r=$((r + 1))
done
suite_end
