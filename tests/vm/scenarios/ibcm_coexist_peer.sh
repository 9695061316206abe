# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, the stock-CM side of ibcm_coexist_pdcm: once both of the
# pdcm guest's listens on tcp:7471 are up, rping -c to 10.0.0.12 (the
# native pdcm listen's address) and to 10.0.0.2 (rdma_cm's), 10 verified
# pings each.
. /pdcm/scenarios/ibcm_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_coexist_peer
ibcm_stack stock
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
check both_listening wait_for "echo go | nc $VM_PEER 7998" 60
for dst in 10.0.0.12 10.0.0.2; do
	check "rping_to_$dst" retry 20 timeout 30 rping -c -v -V -C 10 -S 64 -a $dst -p 7471
	printf '%s\n' "$_out" >/tmp/rping.$dst
	note "rping_$dst" "$_out"
	check "rping_to_${dst}_10_pings" count /tmp/rping.$dst "^ping data: rdma-ping-" 10
done
sleep 2
suite_end
