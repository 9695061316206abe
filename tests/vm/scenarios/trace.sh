# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm's tracepoints through tracefs: one connection over rxe loopback
# (the test ULP), then the transitions each side went through, in order,
# and the MADs on the wire.  The trace is kept on the console: it is the
# wire transcript of one connection.
. /pdcm/scenarios/ulp_lib.sh

T=/sys/kernel/tracing
# seq ID: the transitions of the id with local ID $1, one per line
seq_of() {
	sed -n "s/.*pdcm_fsm_transition: local_id=$1 remote_id=[^ ]* //p" /tmp/trace
}
# has_seq WANT: some local ID went through exactly the lines of WANT
has_seq() {
	for id in $(sed -n 's/.*pdcm_fsm_transition: local_id=\([^ ]*\) .*/\1/p' /tmp/trace | sort -u); do
		[ "$(seq_of "$id")" = "$1" ] && return 0
	done
	echo "no id went through:"; echo "$1"
	return 1
}

active="IDLE -> REQ_SENT on send_req
REQ_SENT -> REP_RCVD on rx_rep
REP_RCVD -> ESTABLISHED on send_rtu
ESTABLISHED -> DREQ_SENT on send_dreq
DREQ_SENT -> TIMEWAIT on rx_drep
TIMEWAIT -> IDLE on timewait_done"
passive="IDLE -> REQ_RCVD on rx_req
REQ_RCVD -> REP_SENT on send_rep
REP_SENT -> ESTABLISHED on rx_rtu
ESTABLISHED -> DREQ_RCVD on rx_dreq
DREQ_RCVD -> TIMEWAIT on send_drep
TIMEWAIT -> IDLE on timewait_done"

net_up
rxe_add rxe0 eth0
suite_begin trace
ulp_setup
res0=$(rdma_res)
check tracefs_has_pdcm test -d $T/events/pdcm
check enable_pdcm_events sh -c "echo 1 > $T/events/pdcm/enable"
check listen ulp listen A tcp:7100 any
check connect_one ulp connect 1 tcp:7100 "$VM_IP"
check connected ulp_is "run 1 " connected 1
check both_left_timewait ulp_is "run 1 " timewait 1
echo 0 >$T/events/pdcm/enable
grep -v '^#' $T/trace >/tmp/trace
while IFS= read -r l; do kmsg "    # trace: $l"; done </tmp/trace
check listen_traced grep -q 'IDLE -> LISTEN on listen' /tmp/trace
check active_side_in_order has_seq "$active"
check passive_side_in_order has_seq "$passive"
for m in "tx REQ" "rx REQ" "tx REP" "rx REP" "tx RTU" "rx RTU" "tx DREQ" "rx DREQ" "tx DREP" "rx DREP"; do
	check "mad_${m% *}_${m#* }" grep -q "pdcm_mad: $m " /tmp/trace
done
# every event handed to the ULP, once (TIMEWAIT_EXIT on each side)
for e in REQ_RECEIVED REP_RECEIVED RTU_RECEIVED DREQ_RECEIVED DREP_RECEIVED; do
	check "event_$e" sh -c "[ \$(grep -c 'pdcm_event: .* $e ' /tmp/trace) = 1 ]"
done
check event_TIMEWAIT_EXIT_twice sh -c "[ \$(grep -c 'pdcm_event: .* TIMEWAIT_EXIT ' /tmp/trace) = 2 ]"
check nothing_refused sh -c "! grep -q pdcm_fsm_refused /tmp/trace"
ulp_teardown "$res0"
suite_end
