# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, stock-CM side of interop_drop_pdcm: the pdcm guest drops a
# REP, a DREQ, a SIDR_REQ and a DREP of this side's on arrival; this ib_cm
# re-sends the first three on its own timers, and answers pdcm's
# re-sent DREQ with a second DREP.  rdma_server and a ucmatose server for
# pdcm's ULP, then udaddy and ucmatose as clients of its listeners.
. /pdcm/scenarios/interop_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin interop_drop_peer
check stock_cm_loads modprobe rdma_ucm
check trace_ib_cma sh -c "echo 1 > $T/events/ib_cma/enable"
# lost REP: the pdcm guest drops four; the stock CM's REP timer re-sends
# it, pdcm's REQ comes again meanwhile (a duplicate, not answered)
check rdma_server_one_client timeout 90 rdma_server -s "$VM_IP"
note rdma_server "$_out"
check rdma_server_end_0 sh -c "echo '$_out' | grep -q 'rdma_server: end 0'"
check rep_retransmitted cnt_is cm_tx_retries/rep -ge 4
check dup_req_seen cnt_is cm_rx_duplicates/req -ge 1
# lost DREQ: ucmatose's server disconnects; the stock CM re-sends it
check ucmatose_server timeout 90 ucmatose -b "$VM_IP" -p 7174
note ucmatose "$_out"
check dreq_retransmitted cnt_is cm_tx_retries/dreq -ge 1
# lost SIDR_REQ: rdma_cm's SIDR timer (4 s) re-sends it
check udaddy_client retry 20 timeout 60 udaddy -s "$VM_PEER"
note udaddy "$_out"
check sidr_req_retransmitted cnt_is cm_tx_retries/sidr_req -ge 1
# lost DREP: pdcm's DREQ comes twice, both answered
check ucmatose_client retry 20 timeout 60 ucmatose -s "$VM_PEER" -p 7174
note ucmatose_client "$_out"
check second_dreq_answered wait_for "cnt_is cm_tx_msgs/drep -ge 2" 30
for f in req rep rtu rej dreq drep sidr_req sidr_rep; do
	kmsg "    # cm_tx_msgs/$f=$(cnt cm_tx_msgs/$f) cm_rx_msgs/$f=$(cnt cm_rx_msgs/$f) cm_tx_retries/$f=$(cnt cm_tx_retries/$f) cm_rx_duplicates/$f=$(cnt cm_rx_duplicates/$f)"
done
echo 0 >$T/events/ib_cma/enable
trace_to_console
# let the last MADs leave before the guest stops
sleep 2
suite_end
