# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, stock-CM side of interop_rx_pdcm (pdcm passive): rdma-core's
# rdma_client and ucmatose connect to listeners of the test ULP on the
# pdcm guest and move data; a rejecting listener makes both tools fail
# with a consumer-defined REJ (28); udaddy resolves the ULP's UD QP with
# SIDR and gets its datagrams echoed; rdma_client killed while its REQ is
# unanswered (a holding listener) makes this ib_cm send REJ TIMEOUT; a
# REQ the pdcm guest drops on purpose is retransmitted by this ib_cm.
# The ib_cma tracepoints (sent) and ib_mad_recv_done_handler (received)
# are this side's wire transcript, on the console.
. /pdcm/scenarios/interop_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin interop_rx_peer
check stock_cm_loads modprobe rdma_ucm
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
check trace_ib_cma sh -c "echo 1 > $T/events/ib_cma/enable"
check trace_mad_rx sh -c "echo 1 > $T/events/ib_mad/ib_mad_recv_done_handler/enable"
# the pdcm guest opens its echo listener last: once it answers, all are up
check rdma_client_echo retry 30 timeout 10 rdma_client -s "$VM_PEER"
note rdma_client "$_out"
check rdma_client_end_0 sh -c "echo '$_out' | grep -q 'rdma_client: end 0'"
# what pdcm sends from here on is counted from this baseline (the echo
# above may have taken several tries while the listeners came up)
for f in rep rej dreq drep; do eval "base_$f=\$(cnt cm_rx_msgs/$f)"; done
check ucmatose_client timeout 30 ucmatose -s "$VM_PEER" -p 7174
note ucmatose "$_out"
out=$(timeout 30 ucmatose -s "$VM_PEER" -p 7472 2>&1)
note ucmatose_rej "$out"
check ucmatose_rejected_28 sh -c "echo '$out' | grep -q 'RDMA_CM_EVENT_REJECTED, error: 28'"
check_err rdma_client_rejected "rdma_connect: Connection refused" timeout 10 rdma_client -s "$VM_PEER" -p 7472
note rdma_client_rej "$_out"
timeout 3 rdma_client -s "$VM_PEER" -p 7473 >/tmp/hold 2>&1
rc=$?
note rdma_client_hold "rc=$rc $(cat /tmp/hold)"
# killed by timeout(1): 124 (coreutils) or 143 (busybox)
check rdma_client_killed_unanswered sh -c "[ $rc -eq 124 ] || [ $rc -eq 143 ]"
# SIDR: udaddy (port 7174 in the UDP space) sends 10 x 100 bytes to the
# ULP's UD QP, which echoes them with rdma_cm's Q_Key
check udaddy_client timeout 30 udaddy -s "$VM_PEER"
note udaddy "$_out"
# retransmission: the pdcm guest drops the next REQ once it has seen the
# REJ TIMEOUT above (test_drop_reqs=1); this ib_cm re-sends it (after
# about 6 s) and the connection forms
sleep 2
retries0=$(cnt cm_tx_retries/req)
t0=$(date +%s)
check rdma_client_after_retry timeout 40 rdma_client -s "$VM_PEER" -p 7475
note rdma_client_retry "$_out"
t=$(($(date +%s) - t0))
kmsg "    # rdma_client -p 7475 took $t s"
check req_was_retransmitted test "$t" -ge 3
# one REQ dropped once: exactly one retransmission
check req_retry_counted cnt_is cm_tx_retries/req -eq $((retries0 + 1))
# since the baseline: a REP for ucmatose and for the retried rdma_client,
# exactly the two consumer REJs, and their disconnects' DREQ/DREP
d_rep=$(($(cnt cm_rx_msgs/rep) - base_rep)) d_rej=$(($(cnt cm_rx_msgs/rej) - base_rej))
d_dis=$(($(cnt cm_rx_msgs/dreq) - base_dreq + $(cnt cm_rx_msgs/drep) - base_drep))
kmsg "    # since the baseline: rep=$d_rep rej=$d_rej dreq+drep=$d_dis"
check cm_rx_rep_2 test "$d_rep" -eq 2
check cm_rx_rej_2 test "$d_rej" -eq 2
check cm_rx_disconnects test "$d_dis" -ge 2
for f in req rep rtu rej dreq drep sidr_req sidr_rep; do
	kmsg "    # cm_tx_msgs/$f=$(cnt cm_tx_msgs/$f) cm_rx_msgs/$f=$(cnt cm_rx_msgs/$f) cm_tx_retries/$f=$(cnt cm_tx_retries/$f)"
done
echo 0 >$T/events/ib_cma/enable
echo 0 >$T/events/ib_mad/ib_mad_recv_done_handler/enable
trace_to_console
check rej_timeout_sent grep -q 'icm_send_rej: .* state=REQ_SENT reason=REJ_TIMEOUT' /tmp/trace
# let the last MADs leave before the guest stops
sleep 2
suite_end
