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
bc_slot() {
	check "r$1_$2_warmup" bc_warmup "$VM_PEER"
	for n in $BC_NS; do
		check "r$1_$2_$n" bc_cmtime "$2" "$1" $n "$VM_PEER"
	done
	check "r$1_$2_done" retry 60 sh -c "echo done | nc $VM_PEER $SYNC_PORT"
}
bc_rounds bc_slot
suite_end
