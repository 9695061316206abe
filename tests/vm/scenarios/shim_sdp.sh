# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm_sdp with real RC QPs over rxe loopback: listeners on one port for
# 10.0.0.11, 10.0.0.12 and 0.0.0.0; a connect to each address lands on its
# listener, which sees the parsed addresses, ports and Hello fields, and
# the active side the Hello Ack's; data both ways, disconnect, timewait.
# A port nobody listens on answers REJ 8.
. /pdcm/scenarios/shim_lib.sh

peer_is_source() {
	st_get "$1" p_peer | grep -q "^$VM_IP:[0-9]"
}

# the active side's local and peer are the passive side's peer and local
ports_match() {
	[ "$(st_get "$1" a_local)" = "$(st_get "$1" p_peer)" ] &&
		[ "$(st_get "$1" a_peer)" = "$2:5001" ]
}

st_setup shim_sdp
check listen_a st sdp_listen A 10.0.0.11 5001 adverts=5
check listen_b st sdp_listen B 10.0.0.12 5001 adverts=6
check listen_wildcard st sdp_listen W 0.0.0.0 5001 adverts=7
check_err same_address_twice_refused "Address already in use" st sdp_listen A2 10.0.0.11 5001
n=0
for d in 10.0.0.11:A:5 10.0.0.12:B:6 "$VM_IP:W:7"; do
	ip=${d%%:*} rest=${d#*:}
	want=${rest%%:*} adv=${rest#*:}
	n=$((n + 1))
	r="sdp_conn $n "
	check "connect_$ip" st sdp_connect "$ip" 5001 src="$VM_IP" msgs=$((n + 2)) size=$((n * 512)) adverts=$n desrem=$((n * 4096))
	check "to_${ip}_ok" st_is "$r" result ok
	check "to_${ip}_lands_on_$want" st_is "$r" listener $want
	check "to_${ip}_passive_local" st_is "$r" p_local "$ip:5001"
	check "to_${ip}_passive_peer_is_source" peer_is_source "$r"
	check "to_${ip}_active_sees_same_ports" ports_match "$r" "$ip"
	check "to_${ip}_hello_bufs" st_is "$r" p_peer_bufs $((n + 2))
	check "to_${ip}_hello_max_adverts" st_is "$r" p_peer_adverts $n
	check "to_${ip}_hello_desremrcvsz" st_is "$r" p_peer_desrem $((n * 4096))
	check "to_${ip}_hello_localrcvsz" st_is "$r" p_peer_rcvsz $((n * 512))
	check "to_${ip}_hello_ack_bufs" st_is "$r" a_peer_bufs $((n + 2))
	check "to_${ip}_hello_ack_adverts" st_is "$r" a_peer_adverts "$adv"
	check "to_${ip}_hello_ack_actrcvsz" st_is "$r" a_peer_rcvsz $((n * 512))
	check "to_${ip}_data_to_passive" st_is "$r" p_rx "$((n + 2))/$((n + 2))"
	check "to_${ip}_data_to_active" st_is "$r" a_rx "$((n + 2))/$((n + 2))"
	check "to_${ip}_sends_ok" st_is "$r" tx_bad 0
done
st_note "sdp_conn "
check connect_unlistened_port st sdp_connect 10.0.0.11 5002 src="$VM_IP"
check unlistened_port_rej st_is "sdp_conn 4 " result rej
check unlistened_port_rej_8 st_is "sdp_conn 4 " status 8
check destroy_a st sdp_unlisten A
check connect_a_after_destroy st sdp_connect 10.0.0.11 5001 src="$VM_IP"
check a_falls_to_wildcard st_is "sdp_conn 5 " listener W
check shim_counted_no_listener st_is "sdp_stats " no_listener 1
check shim_counted_accepts st_is "sdp_stats " accepted 4
st_note "sdp_"
st_teardown
