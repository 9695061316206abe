# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# kDAPL against the in-tree CM, the stock side (A, 10.0.0.1; the other
# half is shim_kdapl_pdcm): rdma-core's rdma_client connects to B's kDAPL
# PSP on port 7471, sends 16 bytes and gets them back, and disconnects;
# the source port its rdma_cm put in the RDMA CM header (rdma_cma's
# cm_send_req trace) goes to B over TCP for B's check.  Then rdma_server
# takes B's kDAPL connect (its rdma_cm checks the header B's shim built),
# receives 16 bytes, answers 16 and disconnects.
. /pdcm/scenarios/interop_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin shim_kdapl_peer
check stock_cm_loads modprobe rdma_ucm
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
check trace_rdma_cma sh -c "echo 1 > $T/events/rdma_cma/enable"
check trace_ib_cma sh -c "echo 1 > $T/events/ib_cma/enable"
# REJ 8 from B until its PSP is up
check rdma_client_to_psp retry 60 timeout 10 rdma_client -s "$VM_PEER"
note rdma_client "$_out"
check rdma_client_end_0 sh -c "echo '$_out' | grep -q 'rdma_client: end 0'"
# the last REQ's source port is the one that connected
grep -v '^#' $T/trace >/tmp/trace1
port=$(sed -n "s/.*cm_send_req: .* src=$VM_IP:\([0-9]*\) dst=$VM_PEER:7471 .*/\1/p" /tmp/trace1 | tail -n 1)
kmsg "    # rdma_client's source port: $port"
check rdma_client_port_traced test -n "$port"
check port_to_b sh -c "echo $port | nc -w 5 $VM_PEER 9471"
check rdma_server_one_client timeout 90 rdma_server -s "$VM_IP"
note rdma_server "$_out"
check rdma_server_end_0 sh -c "echo '$_out' | grep -q 'rdma_server: end 0'"
echo 0 >$T/events/rdma_cma/enable
echo 0 >$T/events/ib_cma/enable
trace_to_console
# A's rdma_cm parsed the header of B's REQ: B's address and a port from
# the shim's ephemeral range (32768..60999), to A's 7471
bport=$(sed -n "s/.*cm_event_handler: .* src=$VM_IP:7471 dst=$VM_PEER:\([0-9]*\) .*CONNECT_REQUEST.*/\1/p" /tmp/trace | head -n 1)
kmsg "    # B's source port in its REQ's header: $bport"
check req_header_from_b test -n "$bport"
check req_header_port_ephemeral sh -c "[ '$bport' -ge 32768 ] && [ '$bport' -le 60999 ]"
c=/sys/class/infiniband/rxe0/ports/1
check cm_counters sh -c "[ \$(cat $c/cm_rx_msgs/rep) -ge 1 ] && [ \$(cat $c/cm_rx_msgs/req) -ge 1 ] && [ \$(cat $c/cm_tx_msgs/dreq) -ge 2 ] && [ \$(cat $c/cm_rx_msgs/drep) -ge 2 ]"
for f in req rep rtu rej dreq drep; do
	kmsg "    # cm_tx_msgs/$f=$(cat $c/cm_tx_msgs/$f) cm_rx_msgs/$f=$(cat $c/cm_rx_msgs/$f)"
done
# let the last MADs leave before the guest stops
sleep 2
suite_end
