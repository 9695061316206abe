# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, pdcm side of interop_drop_peer: lost messages between pdcm
# and the stock CM, each lost on purpose on arrival here (the test_drop
# knob, Documentation/robustness.rst), and each recovered by a
# retransmission of the stock CM's or of pdcm's own:
#   lost REP       the ULP connects to the peer's rdma_server; its first
#                  four REPs are dropped: the stock CM re-sends its REP
#                  every second (the REQ's local CM response timeout),
#                  pdcm re-sends its REQ after 3 s (2 x packet lifetime +
#                  the remote CM response timeout), which the stock CM
#                  counts as a duplicate; the fifth REP connects
#   lost DREQ      the ULP connects to a ucmatose server, which
#                  disconnects; its first DREQ is dropped: the stock CM
#                  re-sends it and pdcm answers DREP
#   lost SIDR_REQ  the peer's udaddy resolves our UD QP; its first
#                  SIDR_REQ is dropped, its rdma_cm retries, we answer
#   lost DREP      pdcm passive to ucmatose, pdcm sends the DREQ; the
#                  DREP is dropped: pdcm re-sends its DREQ to the stock
#                  CM, which answers it again
# Each shows in the counters: what was dropped in pdcm/rx_dropped, the
# retransmission in cm_rx_msgs (twice) and, for pdcm's own, in
# cm_tx_retries.  The CM response timeout is 2^18 x 4.096 us (1 s), so
# each retransmission takes about a second.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/interop_lib.sh

P=/sys/module/ib_pdcm/parameters
C=/sys/class/infiniband/rxe0/ports/1

# ulp_run ARGS...: one "connect" run; ok if its connections all ended well
ulp_run() {
	ulp connect "$@" || return 1
	n=$(ulp_last run)
	ulp_is "run $n " failed 0
}

# grew NAME BEFORE N: counter NAME is BEFORE + N now
grew() {
	_v=$(cnt "$1")
	[ "$_v" -eq $(($2 + $3)) ] && return 0
	echo "$1=$_v, expected $2 + $3"
	return 1
}

net_up
rxe_add rxe0 eth0
suite_begin interop_drop_pdcm
ulp_setup
res0=$(rdma_res)
check enable_pdcm_events sh -c "echo 1 > $T/events/pdcm/enable"
# the passive cases' listeners and knobs first: the peer's clients come
# after its servers, whenever they come
check sidr_listen ulp sidr_listen udp:7174 qkey=0x01234567 verify=0
check listen_serve ulp listen U tcp:7174 "$VM_IP" mode=serve msgs=10 size=100
check drop_sidr_req_and_drep sh -c "echo sidr_req:1,drep:1 > $P/test_drop"
check knob_reads_back grep -qx "drep:1,sidr_req:1" $P/test_drop
check knob_rejects_garbage sh -c "! echo bogus:1 > $P/test_drop"
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30

# lost REP
drop0=$(cnt pdcm/rx_dropped) rep0=$(cnt cm_rx_msgs/rep) reqr0=$(cnt cm_tx_retries/req)
check drop_four_reps sh -c "echo rep:4 > $P/test_drop"
check rep_lost_run retry 40 ulp_run 1 tcp:7471 "$VM_PEER" "$VM_IP" 1 16 verify=0 peer_disc=1 cm_timeout=18 retries=5 timeout=40
n=$(ulp_last run)
ulp_note "run $n "
check rep_lost_connected ulp_is "run $n " connected 1
check rep_lost_16_bytes_back ulp_is "run $n " verified 16
check rep_lost_reps_used_up sh -c "! grep -qE '(^|,)rep:' $P/test_drop"
check rep_lost_five_reps grew cm_rx_msgs/rep "$rep0" 5
check rep_lost_four_dropped grew pdcm/rx_dropped "$drop0" 4
check rep_lost_req_retransmitted cnt_is cm_tx_retries/req -gt "$reqr0"

# lost DREQ
drop0=$(cnt pdcm/rx_dropped) dreq0=$(cnt cm_rx_msgs/dreq) drep0=$(cnt cm_tx_msgs/drep)
check drop_one_dreq sh -c "echo dreq:1 > $P/test_drop"
check dreq_lost_run retry 40 ulp_run 1 tcp:7174 "$VM_PEER" "$VM_IP" 10 100 verify=0 peer_disc=1 cm_timeout=18 timeout=40
n=$(ulp_last run)
ulp_note "run $n "
check dreq_lost_connected ulp_is "run $n " connected 1
check dreq_lost_1000_bytes_back ulp_is "run $n " verified 1000
check dreq_lost_dreq_answered grep "^conn $n 0 .* result=ok .* dreq_rcvd=1 " $ULP/conns
check dreq_lost_two_dreqs grew cm_rx_msgs/dreq "$dreq0" 2
check dreq_lost_dropped cnt_is pdcm/rx_dropped -gt "$drop0"
check dreq_lost_drep_sent cnt_is cm_tx_msgs/drep -gt "$drep0"

# lost SIDR_REQ (udaddy), then lost DREP (ucmatose): the peer's clients
check sidr_req_lost_delivered_once wait_for "[ \"\$(ulp_get 'sidr_listener ' reqs)\" = 1 ]" 60
check sidr_req_lost_10_echoed wait_for "[ \"\$(ulp_get 'sidr_listener ' echoed)\" = 10 ]" 30
check sidr_req_lost_two_arrived cnt_is cm_rx_msgs/sidr_req -eq 2
check sidr_req_lost_one_answer cnt_is cm_tx_msgs/sidr_rep -eq 1
check drep_lost_timewait wait_for "[ \"\$(ulp_get 'listener U ' timewait)\" = 1 ]" 60
check drep_lost_established ulp_is "listener U " established 1
check drep_lost_1000_bytes_back ulp_is "listener U " bytes 1000
check drep_lost_drep_received ulp_is "listener U " disconnected 1
check drep_lost_dreq_retransmitted cnt_is cm_tx_retries/dreq -ge 1
check drep_lost_two_dreps cnt_is cm_rx_msgs/drep -eq 2
check knobs_used_up sh -c "[ -z \"\$(cat $P/test_drop)\" ]"
ulp_note "listener "
ulp_note "sidr_listener "
for f in req rep rtu rej dreq drep sidr_req sidr_rep; do
	kmsg "    # cm_tx_msgs/$f=$(cnt cm_tx_msgs/$f) cm_rx_msgs/$f=$(cnt cm_rx_msgs/$f) cm_tx_retries/$f=$(cnt cm_tx_retries/$f)"
done
kmsg "    # pdcm/rx_dropped=$(cnt pdcm/rx_dropped)"
echo 0 >$T/events/pdcm/enable
trace_to_console
for m in REP DREQ SIDR_REQ DREP; do
	check "drop_traced_$m" grep -q "pdcm_drop: $m .*dropped: test_drop" /tmp/trace
done
ulp_teardown "$res0"
suite_end
