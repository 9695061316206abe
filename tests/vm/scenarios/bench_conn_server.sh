# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-conn` across two guests, the server (10.0.0.1): for each
# round and CM in the order bench_conn_client.sh follows, load the stack,
# run a cmtime server until the client says it is done, print this side's
# counters for the slot, unload.  Both guests run the same CM at a time.
. /pdcm/scenarios/bench_conn_lib.sh

BC_CMS=$(echo "$BC_CMS" | sed 's/native//')
net_up
rxe_add rxe0 eth0
suite_begin bench_conn_server
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 60
bc_slot() {
	_c0=$(bc_counters)
	bc_server_start
	# the client's "done" (it retries until this listens)
	check "r$1_$2_client_done" timeout 3600 nc -l -p $SYNC_PORT
	bc_server_stop
	kmsg "bench_conn: side=server cm=$2 round=$1 $(kv_delta "$_c0" "$(bc_counters)")"
	# what the cmtime server said last (errors it saw, a crash)
	kmsg "bench_conn_server_out: cm=$2 round=$1 $(grep -c . /tmp/cmtime.server) lines; last: $(tail -n 3 /tmp/cmtime.server | tr '\n' '|' | cut -c1-300)"
}
bc_rounds bc_slot
suite_end
