# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, pdcm side of interop_rx_peer (pdcm passive): the test ULP
# listens on rdma_cm's TCP service IDs with a compare on this guest's
# address, as the peer's rdma-core tools expect a server to:
#   tcp:7471 mode=echo     rdma_client: 16 bytes echoed, its DREQ answered
#   tcp:7174 mode=serve    ucmatose: 10 x 100 bytes each way, then our DREQ
#   tcp:7472 mode=reject   REJ 28 to rdma_client and ucmatose
#   tcp:7473 mode=hold     no REP; the peer's killed client sends REJ
#                          TIMEOUT and the held connection is freed
#   tcp:7475 mode=echo     rdma_client again, its first REQ dropped
#                          (test_drop_reqs=1): the retransmission connects
#   udp:7174 SIDR          udaddy: SIDR_REP with rdma_cm's Q_Key
#                          (0x01234567, which its rdma_cm insists on),
#                          10 datagrams echoed
# pdcm's tracepoints are this side's wire transcript, on the console.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/interop_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin interop_rx_pdcm
ulp_setup
res0=$(rdma_res)
check enable_pdcm_events sh -c "echo 1 > $T/events/pdcm/enable"
check sidr_listen ulp sidr_listen udp:7174 qkey=0x01234567 verify=0
check listen_retry ulp listen D tcp:7475 "$VM_IP" mode=echo
check listen_hold ulp listen H tcp:7473 "$VM_IP" mode=hold
check listen_reject ulp listen R tcp:7472 "$VM_IP" mode=reject
check listen_serve ulp listen U tcp:7174 "$VM_IP" mode=serve msgs=10 size=100
check listen_echo ulp listen C tcp:7471 "$VM_IP" mode=echo
# rdma_client: REQ, REP, RTU, 16 bytes each way, its DREQ, our DREP
check rdma_client_connected wait_for "[ \"\$(ulp_get 'listener C ' established)\" = 1 ]" 60
check rdma_client_timewait wait_for "[ \"\$(ulp_get 'listener C ' timewait)\" = 1 ]" 30
check rdma_client_one_req ulp_is "listener C " reqs 1
check rdma_client_16_bytes ulp_is "listener C " bytes 16
check rdma_client_disconnected ulp_is "listener C " disconnected 1
check rdma_client_header_parsed ulp_is "listener C " addr_errors 0
check rdma_client_addrs_as_sent ulp_req_addrs C "$VM_PEER" "$VM_IP:7471"
# ucmatose: we send 10 x 100, it sends them back, we send DREQ
check ucmatose_timewait wait_for "[ \"\$(ulp_get 'listener U ' timewait)\" = 1 ]" 60
check ucmatose_established ulp_is "listener U " established 1
check ucmatose_1000_bytes_back ulp_is "listener U " bytes 1000
check ucmatose_drep_received ulp_is "listener U " disconnected 1
check ucmatose_no_errors ulp_is "listener U " errors 0
# rejections: ucmatose, then rdma_client
check rejected_both wait_for "[ \"\$(ulp_get 'listener R ' rejected)\" = 2 ]" 40
# the held REQ: the peer's ib_cm sends REJ TIMEOUT when its client dies
check hold_req_received wait_for "[ \"\$(ulp_get 'listener H ' reqs)\" = 1 ]" 30
check hold_rej_received wait_for "[ \"\$(ulp_get 'listener H ' errors)\" = 1 ]" 20
check hold_freed ulp_is "listener H " live 0
# the peer's next REQ (to D) is dropped; its ib_cm re-sends it
P=/sys/module/ib_pdcm/parameters
C=/sys/class/infiniband/rxe0/ports/1
drop0=$(cat $C/pdcm/rx_dropped)
check drop_next_req sh -c "echo 1 > $P/test_drop_reqs"
check retry_connected wait_for "[ \"\$(ulp_get 'listener D ' timewait)\" = 1 ]" 40
check retry_one_req_delivered ulp_is "listener D " reqs 1
check retry_16_bytes ulp_is "listener D " bytes 16
check knob_used_up sh -c "[ \$(cat $P/test_drop_reqs) = 0 ]"
check drop_counted_once sh -c "[ \$(cat $C/pdcm/rx_dropped) -eq $((drop0 + 1)) ]"
check udaddy_sidr_req wait_for "[ \"\$(ulp_get 'sidr_listener ' reqs)\" = 1 ]" 30
check udaddy_10_echoed wait_for "[ \"\$(ulp_get 'sidr_listener ' echoed)\" = 10 ]" 20
ulp_note "listener "
ulp_note "sidr_listener "
echo 0 >$T/events/pdcm/enable
trace_to_console
for m in "rx SIDR_REQ" "tx SIDR_REP" "rx REQ" "tx REP" "rx RTU" "rx DREQ" "tx DREP" "tx DREQ" "rx DREP" "tx REJ" "rx REJ"; do
	check "mad_${m% *}_${m#* }" grep -q "pdcm_mad: $m " /tmp/trace
done
check req_drop_traced grep -q "pdcm_drop: REQ .*dropped: test_drop" /tmp/trace
ulp_teardown "$res0"
suite_end
