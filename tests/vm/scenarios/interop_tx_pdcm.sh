# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, pdcm side of interop_tx_peer (pdcm active): the test ULP
# connects to the peer's rdma_server (one 16-byte message and its reply)
# (it disconnects first: the ULP waits for its DREQ, peer_disc=1) and to
# its ucmatose server (10 x 100 bytes; ucmatose sends first, the
# ULP's one-at-a-time exchange meets it, RNR retries covering the gaps),
# then resolves the peer's udaddy server with SIDR (rdma_cm's Q_Key) and
# gets one datagram echoed, then connects to rdma_server over IPv6.
# The tools send their own data, so only the lengths are checked
# (verify=0).  Until a server listens the peer's CM answers REJ 8 at once
# and the run is retried.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/interop_lib.sh

# ulp_run ARGS...: one "connect" run; ok if its connections all ended well
ulp_run() {
	ulp connect "$@" || return 1
	n=$(ulp_last run)
	ulp_is "run $n " failed 0
}

# ulp_sidr_ok ARGS...: one "sidr"; ok if it resolved and got its echo
ulp_sidr_ok() {
	ulp sidr "$@" || return 1
	n=$(ulp_last sidr)
	ulp_is "sidr $n " status 0 && ulp_is "sidr $n " verified 1
}

net_up
rxe_add rxe0 eth0
suite_begin interop_tx_pdcm
ulp_setup
res0=$(rdma_res)
check enable_pdcm_events sh -c "echo 1 > $T/events/pdcm/enable"
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
check rdma_server_run retry 40 ulp_run 1 tcp:7471 "$VM_PEER" "$VM_IP" 1 16 verify=0 peer_disc=1
n=$(ulp_last run)
check rdma_server_connected ulp_is "run $n " connected 1
check rdma_server_16_bytes_back ulp_is "run $n " verified 16
# peer_disc=1: rdma_server disconnects, this side only answers
check rdma_server_sent_the_dreq grep "^conn $n 0 .* result=ok .* drep=0 dreq_rcvd=1 " $ULP/conns
ulp_note "run $n "
check ucmatose_run retry 40 ulp_run 1 tcp:7174 "$VM_PEER" "$VM_IP" 10 100 verify=0 timeout=40
n=$(ulp_last run)
check ucmatose_connected ulp_is "run $n " connected 1
check ucmatose_1000_bytes_back ulp_is "run $n " verified 1000
ulp_note "run $n "
check udaddy_sidr retry 20 ulp_sidr_ok udp:7174 "$VM_PEER" "$VM_IP" size=100 qkey=0x01234567 verify=0
n=$(ulp_last sidr)
ulp_note "sidr "
check udaddy_qkey ulp_is "sidr $n " qkey 0x1234567
check udaddy_echoed ulp_is "sidr $n " echoed 1
# IPv6: the peer's rdma_server on fd00::1
echo 0 >/proc/sys/net/ipv6/conf/eth0/accept_dad
check ipv6_address ip -6 addr add fd00::2/64 dev eth0
check rdma_server_ipv6_run retry 40 ulp_run 1 tcp:7471 fd00::1 fd00::2 1 16 verify=0 peer_disc=1
n=$(ulp_last run)
check rdma_server_ipv6_connected ulp_is "run $n " connected 1
check rdma_server_ipv6_16_bytes_back ulp_is "run $n " verified 16
check rdma_server_ipv6_sent_the_dreq grep "^conn $n 0 .* result=ok .* drep=0 dreq_rcvd=1 " $ULP/conns
ulp_note "run $n "
grep '^conn ' $ULP/conns | tail -n 3 | while IFS= read -r l; do kmsg "    # $l"; done
echo 0 >$T/events/pdcm/enable
trace_to_console
for m in "tx REQ" "rx REP" "tx RTU" "tx SIDR_REQ" "rx SIDR_REP"; do
	check "mad_${m% *}_${m#* }" grep -q "pdcm_mad: $m " /tmp/trace
done
ulp_teardown "$res0"
suite_end
