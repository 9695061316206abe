# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, stock-CM side of interop_demux_pdcm: rdma_client (rdma-core)
# to each address of the pdcm guest on one port, tcp:7471: 10.0.0.2,
# 10.0.0.3, fd00::2 (IPv6), 10.0.0.4 (a listener on destination and
# source) and 10.0.0.5 (only the wildcard); each echo must come back.
# Then two rdma_clients at once to a backlog-1 listener: this ib_cm must
# retransmit the dropped REQ until the pdcm guest has room.  Then one
# rdma_client to a listener that answers only late: this ib_cm re-sends
# the REQ and must receive the MRA the duplicate is answered with.
. /pdcm/scenarios/interop_lib.sh

C=/sys/class/infiniband/rxe0/ports/1

net_up
rxe_add rxe0 eth0
suite_begin interop_demux_peer
echo 0 >/proc/sys/net/ipv6/conf/eth0/accept_dad
check ipv6_address ip -6 addr add fd00::1/64 dev eth0
check stock_cm_loads modprobe rdma_ucm
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
check trace_ib_cma sh -c "echo 1 > $T/events/ib_cma/enable"
# the pdcm guest opens its wildcard last, and only the wildcard takes
# 10.0.0.5: once that answers, all listeners are up (a specific address
# would be no barrier: until its listener exists the wildcard takes it)
check to_10_0_0_5 retry 40 timeout 20 rdma_client -s 10.0.0.5
note "rdma_client 10.0.0.5" "$_out"
check to_10_0_0_5_end_0 sh -c "echo '$_out' | grep -q 'rdma_client: end 0'"
check peer6_reachable wait_for "ping -c1 -W1 fd00::2" 20
for a in "$VM_PEER" 10.0.0.3 fd00::2 10.0.0.4; do
	n=$(echo "$a" | tr ':.' '__')
	check "to_$n" timeout 20 rdma_client -s "$a"
	note "rdma_client $a" "$_out"
	check "to_${n}_end_0" sh -c "echo '$_out' | grep -q 'rdma_client: end 0'"
done

# backlog 1: the second REQ is dropped until the first is accepted
r0=$(cat $C/cm_tx_retries/req)
t0=$(date +%s)
timeout 40 rdma_client -s "$VM_PEER" -p 7476 >/tmp/bl1 2>&1 &
p1=$!
sleep 1
timeout 40 rdma_client -s "$VM_PEER" -p 7476 >/tmp/bl2 2>&1 &
p2=$!
wait $p1
rc1=$?
wait $p2
rc2=$?
t=$(($(date +%s) - t0))
note backlog_client_1 "rc=$rc1 $(cat /tmp/bl1)"
note backlog_client_2 "rc=$rc2 $(cat /tmp/bl2)"
kmsg "    # two rdma_clients to the backlog-1 listener took $t s"
check backlog_both_clients_end_0 sh -c "[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && grep -q 'end 0' /tmp/bl1 && grep -q 'end 0' /tmp/bl2"
check backlog_req_retransmitted sh -c "[ \$(cat $C/cm_tx_retries/req) -gt $r0 ]"

# a late REP: the duplicate REQ gets the MRA
r0=$(cat $C/cm_tx_retries/req)
m0=$(cat $C/cm_rx_msgs/mra)
t0=$(date +%s)
check mra_client timeout 60 rdma_client -s "$VM_PEER" -p 7477
note rdma_client_mra "$_out"
t=$(($(date +%s) - t0))
kmsg "    # rdma_client -p 7477 took $t s"
check mra_req_retransmitted sh -c "[ \$(cat $C/cm_tx_retries/req) -gt $r0 ]"
check mra_received sh -c "[ \$(cat $C/cm_rx_msgs/mra) -gt $m0 ]"
check mra_waited_for_the_rep test "$t" -ge 9
for f in req mra rep rtu rej dreq drep; do
	kmsg "    # cm_tx_msgs/$f=$(cat $C/cm_tx_msgs/$f) cm_rx_msgs/$f=$(cat $C/cm_rx_msgs/$f) cm_tx_retries/$f=$(cat $C/cm_tx_retries/$f)"
done
echo 0 >$T/events/ib_cma/enable
trace_to_console
# let the last MADs leave before the guest stops
sleep 2
suite_end
