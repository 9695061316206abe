# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, stock-CM side of interop_rping_pdcm: rdma-core's rping both
# ways against the test ULP's rping code on the pdcm guest.
#   1. rping -c (client, -V validating) against the ULP's rping listener:
#      10 pings, each an RDMA READ of our source and an RDMA WRITE into
#      our sink by pdcm's side; our DREQ, its DREP
#   2. rping -s (server) for the ULP's rping client: 10 pings, the
#      client's DREQ, our DREP
# The ib_cma tracepoints (sent) and ib_mad_recv_done_handler (received)
# are this side's wire transcript, on the console.
. /pdcm/scenarios/interop_lib.sh

# lines LINE_PREFIX FILE N: exactly N lines of FILE start with LINE_PREFIX
lines() {
	_c=$(grep -c "^$1" "$2")
	[ "$_c" -eq "$3" ] && return 0
	echo "$_c lines start with '$1', expected $3"
	cat "$2"
	return 1
}

# cm_is DIR/COUNTER N: an ib_cm port counter is N
cm_is() {
	_v=$(cat "/sys/class/infiniband/rxe0/ports/1/$1")
	[ "$_v" -eq "$2" ] && return 0
	echo "$1=$_v, expected $2"
	return 1
}

net_up
rxe_add rxe0 eth0
suite_begin interop_rping_peer
check stock_cm_loads modprobe rdma_ucm
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
check trace_ib_cma sh -c "echo 1 > $T/events/ib_cma/enable"
check trace_mad_rx sh -c "echo 1 > $T/events/ib_mad/ib_mad_recv_done_handler/enable"
# 1. until the pdcm guest listens its CM answers REJ 8 and rping exits
check rping_client retry 60 timeout 30 rping -c -v -V -C 10 -a "$VM_PEER" -p 7174
printf '%s\n' "$_out" >/tmp/rping_client
note rping_client "$_out"
check rping_client_10_pings lines "ping data: rdma-ping-" /tmp/rping_client 10
check rping_client_last_ping lines "ping data: rdma-ping-9: JKLMNOPQ" /tmp/rping_client 1
check client_dreq_sent cm_is cm_tx_msgs/dreq 1
check client_drep_received cm_is cm_rx_msgs/drep 1
# 2. the pdcm guest's client retries until this server listens
timeout 90 rping -s -v -C 10 -a "$VM_IP" -p 7174 >/tmp/rping_server 2>&1
rc=$?
note rping_server "rc=$rc $(cat /tmp/rping_server)"
check rping_server_exit_0 test "$rc" -eq 0
check rping_server_10_pings lines "server ping data: rdma-ping-" /tmp/rping_server 10
check rping_server_last_ping lines "server ping data: rdma-ping-9: JKLMNOPQ" /tmp/rping_server 1
check server_dreq_received cm_is cm_rx_msgs/dreq 1
check server_drep_sent cm_is cm_tx_msgs/drep 1
c=/sys/class/infiniband/rxe0/ports/1
for f in req rep rtu rej dreq drep; do
	kmsg "    # cm_tx_msgs/$f=$(cat $c/cm_tx_msgs/$f) cm_rx_msgs/$f=$(cat $c/cm_rx_msgs/$f) cm_tx_retries/$f=$(cat $c/cm_tx_retries/$f)"
done
echo 0 >$T/events/ib_cma/enable
echo 0 >$T/events/ib_mad/ib_mad_recv_done_handler/enable
trace_to_console
check trace_dreq_sent grep -q 'icm_send_dreq:' /tmp/trace
check trace_drep_sent grep -q 'icm_send_drep:' /tmp/trace
# let the last MADs leave before the guest stops
sleep 2
suite_end
