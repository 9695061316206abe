# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, pdcm side of interop_demux_peer: demux, backlog and
# duplicate REQs on real traffic from the stock CM.  This guest has four
# IPv4 addresses (10.0.0.2-5) and one IPv6 address (fd00::2); the test
# ULP listens on rdma_client's port, tcp:7471, once per address plus:
#   L2 10.0.0.2   L3 10.0.0.3   L6 fd00::2        (destination address)
#   S  10.0.0.4 from 10.0.0.1                     (destination and source)
#   W  any                                        (the rest: 10.0.0.5)
# and a listen on any destination from 10.0.0.1 is refused: its mask is
# incomparable with L2's and both would match one REQ (EADDRINUSE).
# The peer's rdma_client to each address must land on that listener.
#   BL tcp:7476, backlog 1, REP 3 s late: of two REQs at once the second
#      is dropped (backlog full) until the first is accepted; the peer's
#      ib_cm retransmits it and it connects too.
#   DM tcp:7477, REP 10 s late, MRA delayed (PDCM_MRA_FLAG_DELAY): the
#      peer's ib_cm re-sends the REQ after its timeout, and this duplicate
#      is answered with the MRA; the REP follows.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/interop_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin interop_demux_pdcm
ulp_setup
for a in 3 4 5; do
	ip addr add 10.0.0.$a/24 dev eth0
done
# no duplicate address detection: the address is usable at once
echo 0 >/proc/sys/net/ipv6/conf/eth0/accept_dad
check ipv6_address ip -6 addr add fd00::2/64 dev eth0
check gids_for_all_addresses wait_for "rxe_has_gids 10.0.0.3 10.0.0.4 10.0.0.5 fd00:0000:0000:0000:0000:0000:0000:0002" 20
note gids "$(rxe_gids)"
res0=$(rdma_res)
C=/sys/class/infiniband/rxe0/ports/1
check enable_pdcm_events sh -c "echo 1 > $T/events/pdcm/enable"
# the wildcard last: the peer's first client goes to 10.0.0.5, which only
# the wildcard takes, so once it connects every listener is up
check listen_backlog ulp listen BL tcp:7476 "$VM_IP" mode=echo backlog=1 delay=3000
bd0=$(cat $C/pdcm/backlog_dropped)
# DM's delayed MRA waits for the peer's copy of the REQ (as ib_cm's would):
# with the default early_mra_pct=75 it goes out before the copy is sent
check early_mra_off sh -c "echo 0 >/sys/module/ib_pdcm/parameters/early_mra_pct"
check listen_mra ulp listen DM tcp:7477 "$VM_IP" mode=echo delay=10000 mra=20 mra_delay=1
dup0=$(cat $C/cm_rx_duplicates/req) mra0=$(cat $C/cm_tx_msgs/mra)
check listen_l2 ulp listen L2 tcp:7471 10.0.0.2 mode=echo
check listen_l3 ulp listen L3 tcp:7471 10.0.0.3 mode=echo
check listen_l6 ulp listen L6 tcp:7471 fd00::2 mode=echo
check listen_s ulp listen S tcp:7471 10.0.0.4 from=10.0.0.1 mode=echo
out=$(ulp listen X tcp:7471 any from=10.0.0.1 2>&1)
note ambiguous "$out"
check ambiguous_listen_refused sh -c "echo '$out' | grep -q 'Address already in use'"
check ambiguous_listen_not_kept sh -c "! grep -q '^listener X .*state=listening' $ULP/results"
check listen_wildcard ulp listen W tcp:7471 any mode=echo

# demux: one rdma_client each, in this order, from the peer
for l in W L2 L3 L6 S; do
	check "${l}_connected" wait_for "[ \"\$(ulp_get 'listener $l ' timewait)\" = 1 ]" 60
	check "${l}_one_req" ulp_is "listener $l " reqs 1
	check "${l}_16_bytes" ulp_is "listener $l " bytes 16
	check "${l}_header_parsed" ulp_is "listener $l " addr_errors 0
done
# what the peer's rdma_client sent (interop_demux_peer): from 10.0.0.1
# (fd00::1 over IPv6) to each address, port 7471
check W_addrs_as_sent ulp_req_addrs W 10.0.0.1 10.0.0.5:7471
check L2_addrs_as_sent ulp_req_addrs L2 10.0.0.1 10.0.0.2:7471
check L3_addrs_as_sent ulp_req_addrs L3 10.0.0.1 10.0.0.3:7471
check L6_addrs_as_sent ulp_req_addrs L6 fd00::1 "[fd00::2]:7471"
check S_addrs_as_sent ulp_req_addrs S 10.0.0.1 10.0.0.4:7471
check ambiguous_got_nothing sh -c "! grep -q '^listener X .* reqs=[1-9]' $ULP/results"
listens=$(cat /sys/kernel/debug/pdcm/listens)
note listens "$listens"

# backlog 1, two REQs: one dropped, then both connect
check backlog_both_connected wait_for "[ \"\$(ulp_get 'listener BL ' timewait)\" = 2 ]" 60
check backlog_two_reqs_delivered ulp_is "listener BL " reqs 2
check backlog_32_bytes ulp_is "listener BL " bytes 32
check backlog_drop_counted sh -c "[ \$(cat $C/pdcm/backlog_dropped) -gt $bd0 ]"
# BL's own line (sid of tcp:7476), its limit exactly 1
bl_line="sid $(printf %016x $((0x1060000 + 7476)))/"
check backlog_drop_on_the_listen sh -c "grep '$bl_line' /sys/kernel/debug/pdcm/listens | grep -Eq ' dropped [1-9][0-9]* backlog 0/1( |\$)'"
check backlog_no_errors ulp_is "listener BL " errors 0

# the duplicate REQ: answered with the (delayed) MRA, then the REP
check mra_connected wait_for "[ \"\$(ulp_get 'listener DM ' timewait)\" = 1 ]" 60
check mra_one_req_delivered ulp_is "listener DM " reqs 1
check mra_16_bytes ulp_is "listener DM " bytes 16
check duplicate_req_counted sh -c "[ \$(cat $C/cm_rx_duplicates/req) -gt $dup0 ]"
check mra_sent sh -c "[ \$(cat $C/cm_tx_msgs/mra) -gt $mra0 ]"
for f in req mra rep rtu dreq drep; do
	kmsg "    # cm_tx_msgs/$f=$(cat $C/cm_tx_msgs/$f) cm_rx_msgs/$f=$(cat $C/cm_rx_msgs/$f) cm_rx_duplicates/$f=$(cat $C/cm_rx_duplicates/$f)"
done
kmsg "    # pdcm/backlog_dropped=$(cat $C/pdcm/backlog_dropped) pdcm/rx_dropped=$(cat $C/pdcm/rx_dropped)"
ulp_note "listener "
echo 0 >$T/events/pdcm/enable
trace_to_console
check mad_tx_MRA grep -q "pdcm_mad: tx MRA " /tmp/trace
check backlog_drop_traced grep -q "pdcm_drop: REQ .*backlog full" /tmp/trace
ulp_teardown "$res0"
suite_end
