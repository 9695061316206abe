# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two pdcm guests, SDP, the connecting side (A, 10.0.0.1; the other half
# is shim_sdp_pair_b).  A connects to B's 10.0.0.5 (only B's wildcard
# listener covers it), then to .2, .3 and .4 (one listener each), all on
# port 5001: each Hello Ack carries the ext_max_adverts of the listener
# that answered, and verified data moves both ways before A disconnects.
# A listens on 10.0.0.1:5001 too, and B connects to it.
. /pdcm/scenarios/shim_lib.sh
. /pdcm/scenarios/interop_lib.sh

# address, the ext_max_adverts of the listener that should answer, N
CONNS="10.0.0.5:7:1 10.0.0.2:4:2 10.0.0.3:5:3 10.0.0.4:6:4"

sdp_ok() {
	st sdp_connect "$@" || return 1
	st_is "sdp_conn $(st_last sdp_conn) " result ok
}

addr_is() {
	st_get "$1" "$2" | grep -q "^$3:[1-9][0-9]*\$" && return 0
	grep "^$1" "$ST/results"
	return 1
}

st_setup shim_sdp_pair_a "$VM_IP"
check listen_a st sdp_listen LA "$VM_IP" 5001 adverts=9
check b_addresses_reachable wait_for "ping -c1 -W1 10.0.0.5 && ping -c1 -W1 $VM_PEER" 60
for c in $CONNS; do
	ip=${c%%:*} rest=${c#*:}
	adv=${rest%:*} n=${rest#*:}
	args="$ip 5001 src=$VM_IP remote=1 msgs=$((n + 2)) size=$((n * 512)) adverts=$n desrem=$((n * 4096))"
	if [ "$n" = 1 ]; then
		# B's wildcard is its last listener: REJ 8 until it is up
		check "connect_$ip" retry 60 sdp_ok $args timeout=5
	else
		check "connect_$ip" sdp_ok $args
	fi
	r="sdp_conn $(st_last sdp_conn) "
	check "to_${ip}_local" addr_is "$r" a_local "$VM_IP"
	check "to_${ip}_peer" st_is "$r" a_peer "$ip:5001"
	check "to_${ip}_hello_ack_bufs" st_is "$r" a_peer_bufs $((n + 2))
	check "to_${ip}_hello_ack_adverts_of_its_listener" st_is "$r" a_peer_adverts "$adv"
	check "to_${ip}_hello_ack_actrcvsz" st_is "$r" a_peer_rcvsz $((n * 512))
	check "to_${ip}_data_verified" st_is "$r" a_rx "$((n + 2))/$((n + 2))"
	check "to_${ip}_data_acked" st_is "$r" a_tx "$((n + 2))/$((n + 2))"
	check "to_${ip}_sends_ok" st_is "$r" tx_bad 0
done
st_note "sdp_conn "

# B connects back to 10.0.0.1
check b_connected_and_closed wait_for "st_is 'sdp_pconn 1 ' closed 1" 90
r="sdp_pconn 1 "
st_note "$r"
check from_b_on_la st_is "$r" listener LA
check from_b_local st_is "$r" p_local "$VM_IP:5001"
check from_b_peer addr_is "$r" p_peer "$VM_PEER"
check from_b_hello_bufs st_is "$r" p_peer_bufs 5
check from_b_hello_max_adverts st_is "$r" p_peer_adverts 2
check from_b_hello_desremrcvsz st_is "$r" p_peer_desrem 8192
check from_b_hello_localrcvsz st_is "$r" p_peer_rcvsz 1536
check from_b_data_verified st_is "$r" p_rx 5/5
check from_b_data_acked st_is "$r" p_tx 5/5
check from_b_disconnected st_is "$r" disconnected 1
check listener_la_one_request st_is "sdp_listener LA " reqs 1
check_not only_one_pconn grep -q '^sdp_pconn 2 ' "$ST/results"
st_teardown
