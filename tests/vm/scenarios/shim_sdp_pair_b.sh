# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two pdcm guests, SDP, the listening side (B, 10.0.0.2; the other half is
# shim_sdp_pair_a).  B's netdev also has 10.0.0.3, .4 and .5, each with
# its RoCE GID; on port 5001 it listens for .2, .3 and .4 and on 0.0.0.0.
# A connects to .5 (only the wildcard covers it), then .2, .3 and .4:
# each lands on its own listener, which sees the addresses and Hello
# fields A sent, and verified data moves both ways.  Then B connects to
# A's listener the other way round.
. /pdcm/scenarios/shim_lib.sh
. /pdcm/scenarios/interop_lib.sh

# the wildcard last: A's first connect (to .5) gets REJ 8 from the
# catch-all until it exists, so once it is through every listener is up
LISTENERS="L2:10.0.0.2:4 L3:10.0.0.3:5 L4:10.0.0.4:6 W:0.0.0.0:7"
# A's connects in order: address, listener, and the Hello A sends
# (bufs msgs=N+2, localrcvsz size=N*512, max_adverts N, desremrcvsz N*4096)
CONNS="10.0.0.5:W:1 10.0.0.2:L2:2 10.0.0.3:L3:3 10.0.0.4:L4:4"

pconns_closed() {
	[ "$(grep -c '^sdp_pconn .* closed=1$' "$ST/results")" -eq "$1" ]
}

# addr_is PREFIX FIELD IP: the field is IP with a port other than 0
addr_is() {
	st_get "$1" "$2" | grep -q "^$3:[1-9][0-9]*\$" && return 0
	grep "^$1" "$ST/results"
	return 1
}

# sdp_ok ARGS...: one sdp_connect whose connection ended well
sdp_ok() {
	st sdp_connect "$@" || return 1
	st_is "sdp_conn $(st_last sdp_conn) " result ok
}

st_setup shim_sdp_pair_b 10.0.0.3 10.0.0.4 10.0.0.5
for l in $LISTENERS; do
	name=${l%%:*} rest=${l#*:}
	check "listen_${name}_${rest%:*}" st sdp_listen "$name" "${rest%:*}" 5001 adverts="${rest##*:}"
done
check_err same_address_twice_refused "Address already in use" st sdp_listen X 10.0.0.3 5001
check a_connected_4_times wait_for "pconns_closed 4" 120
st_note "sdp_pconn "
i=0
for c in $CONNS; do
	ip=${c%%:*} rest=${c#*:}
	want=${rest%:*} n=${rest#*:}
	i=$((i + 1))
	r="sdp_pconn $i "
	check "from_a_to_${ip}_on_$want" st_is "$r" listener "$want"
	check "to_${ip}_local_address" st_is "$r" p_local "$ip:5001"
	check "to_${ip}_peer_is_a" addr_is "$r" p_peer "$VM_PEER"
	check "to_${ip}_hello_bufs" st_is "$r" p_peer_bufs $((n + 2))
	check "to_${ip}_hello_max_adverts" st_is "$r" p_peer_adverts "$n"
	check "to_${ip}_hello_desremrcvsz" st_is "$r" p_peer_desrem $((n * 4096))
	check "to_${ip}_hello_localrcvsz" st_is "$r" p_peer_rcvsz $((n * 512))
	check "to_${ip}_data_from_a_verified" st_is "$r" p_rx "$((n + 2))/$((n + 2))"
	check "to_${ip}_data_to_a_acked" st_is "$r" p_tx "$((n + 2))/$((n + 2))"
	check "to_${ip}_no_bad_messages" st_is "$r" rx_bad 0
	check "to_${ip}_disconnected" st_is "$r" disconnected 1
done
for l in $LISTENERS; do
	name=${l%%:*}
	check "listener_${name}_one_request" st_is "sdp_listener $name " reqs 1
	check "listener_${name}_one_accept" st_is "sdp_listener $name " accepted 1
done
check shim_counted_4_accepts st_is "sdp_stats " accepted 4
check shim_nothing_malformed st_is "sdp_stats " malformed 0

# the other way: B connects to A's listener on 10.0.0.1
check connect_to_a retry 30 sdp_ok "$VM_PEER" 5001 src="$VM_IP" remote=1 msgs=5 size=1536 adverts=2 desrem=8192 timeout=10
r="sdp_conn $(st_last sdp_conn) "
st_note "$r"
check to_a_local_is_ours addr_is "$r" a_local "$VM_IP"
check to_a_peer st_is "$r" a_peer "$VM_PEER:5001"
check to_a_hello_ack_bufs st_is "$r" a_peer_bufs 5
check to_a_hello_ack_adverts st_is "$r" a_peer_adverts 9
check to_a_hello_ack_actrcvsz st_is "$r" a_peer_rcvsz 1536
check to_a_data_verified st_is "$r" a_rx 5/5
check to_a_data_acked st_is "$r" a_tx 5/5
check to_a_sends_ok st_is "$r" tx_bad 0
st_note "sdp_stats "
st_teardown
