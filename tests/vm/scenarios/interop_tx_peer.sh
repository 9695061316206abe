# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, stock-CM side of interop_tx_pdcm (pdcm active): rdma-core's
# rdma_server, then a ucmatose server, each for one client: the test ULP
# on the pdcm guest.  rdma_server takes 16 bytes, sends 16 back and
# disconnects; ucmatose sends 10 x 100 bytes, takes as many back and
# disconnects; a udaddy server answers one SIDR_REQ and echoes one
# datagram; rdma_server again on fd00::1 for an IPv6 client.  Its
# rdma_cm accepts a REQ only if the RDMA CM header in it matches this
# guest's address and port.
. /pdcm/scenarios/interop_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin interop_tx_peer
check stock_cm_loads modprobe rdma_ucm
check trace_ib_cma sh -c "echo 1 > $T/events/ib_cma/enable"
check trace_mad_rx sh -c "echo 1 > $T/events/ib_mad/ib_mad_recv_done_handler/enable"
check rdma_server_one_client timeout 60 rdma_server -s "$VM_IP"
note rdma_server "$_out"
check rdma_server_end_0 sh -c "echo '$_out' | grep -q 'rdma_server: end 0'"
check ucmatose_server timeout 60 ucmatose -b "$VM_IP" -p 7174
note ucmatose "$_out"
check udaddy_server timeout 60 udaddy -b "$VM_IP" -C 1
note udaddy "$_out"
# rdma_server once more, on IPv6: the pdcm guest's REQ carries an IPv6
# RDMA CM header and a GRH with the IPv6 GIDs
echo 0 >/proc/sys/net/ipv6/conf/eth0/accept_dad
check ipv6_address ip -6 addr add fd00::1/64 dev eth0
check rdma_server_ipv6 timeout 60 rdma_server -s fd00::1
note rdma_server_ipv6 "$_out"
check rdma_server_ipv6_end_0 sh -c "echo '$_out' | grep -q 'rdma_server: end 0'"
c=/sys/class/infiniband/rxe0/ports/1
check cm_counters sh -c "[ \$(cat $c/cm_rx_msgs/req) -ge 2 ] && [ \$(cat $c/cm_tx_msgs/rep) -ge 2 ] && [ \$(cat $c/cm_rx_msgs/rtu) -ge 2 ]"
# rdma_server disconnected first: its DREQ answered by the pdcm guest
check rdma_server_dreq_answered sh -c "[ \$(cat $c/cm_tx_msgs/dreq) -ge 1 ] && [ \$(cat $c/cm_rx_msgs/drep) -ge 1 ]"
for f in req rep rtu rej dreq drep; do
	kmsg "    # cm_tx_msgs/$f=$(cat $c/cm_tx_msgs/$f) cm_rx_msgs/$f=$(cat $c/cm_rx_msgs/$f)"
done
echo 0 >$T/events/ib_cma/enable
echo 0 >$T/events/ib_mad/ib_mad_recv_done_handler/enable
trace_to_console
# let the last MADs leave before the guest stops
sleep 2
suite_end
