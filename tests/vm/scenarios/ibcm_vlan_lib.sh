# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the ibcm_vlan_* pair (issue 34 #3): both guests put VLAN
# $VLAN on eth0, the rxe netdev, so that rxe0 has the same IPv6 link-local
# GID twice, on eth0 and on eth0.$VLAN (a VLAN netdev takes its parent's
# MAC, and the link-local address derives from the MAC).  rping, ucmatose
# and udaddy then connect over the VLAN's link-local address
# (fe80::...%eth0.$VLAN), both ways, while rocetos -v counts the RoCE
# frames that cross eth0 by VLAN tag: every CM MAD and every data packet
# must be tagged.  ib_cm passes rdma_cm's GID entry (ppath_sgid_attr,
# sidr's sgid_attr) to the address of the REQ; a lookup of the GID by value
# finds eth0's entry first, and the REQ leaves untagged.  Sourced, not a
# scenario.
#
#   vlan_up                 eth0.$VLAN, with 10.0.100.N/24 (N: VM_IP's)
#   vlan_gids_checks        rxe0 has the link-local GID on both netdevs
#   vlan_pair FIRST         the tools over the VLAN, this guest FIRST
#                           (server or client), then the other way round
. /pdcm/scenarios/ibcm_lib.sh

VLAN=100
VDEV=eth0.$VLAN
VLAN_IP=10.0.100.${VM_IP##*.}
VLAN_PEER=10.0.100.${VM_PEER##*.}
VLAN_TOOLS="rping ucmatose udaddy"

vlan_up() {
	modprobe 8021q &&
		ip link add link eth0 name $VDEV type vlan id $VLAN &&
		# no duplicate address detection: the link-local address
		# is usable (and a GID) at once
		echo 0 >/proc/sys/net/ipv6/conf/$VDEV/accept_dad &&
		ip addr add "$VLAN_IP/24" dev $VDEV &&
		ip link set $VDEV up
}

# mac_gid MAC: the IPv6 link-local address (EUI-64) of MAC, written as
# rxe's sysfs writes GIDs (fe80:0000:0000:0000:5054:00ff:fe00:000a)
mac_gid() {
	set -- $(echo "$1" | tr : ' ')
	printf 'fe80:0000:0000:0000:%02x%s:%sff:fe%s:%s%s\n' \
		$((0x$1 ^ 2)) "$2" "$3" "$4" "$5" "$6"
}

# gid_rows: rxe0 port 1's GID entries in use, "INDEX GID TYPE NDEV"
gid_rows() {
	_g=/sys/class/infiniband/rxe0/ports/1
	for _i in $(seq 0 15); do
		_v=$(cat $_g/gids/$_i 2>/dev/null)
		[ "$_v" = 0000:0000:0000:0000:0000:0000:0000:0000 ] && continue
		echo "$_i $_v $(tr ' ' _ <$_g/gid_attrs/types/$_i) $(cat $_g/gid_attrs/ndevs/$_i 2>/dev/null)"
	done
}

# gid_on NDEV: rxe0 has the link-local GID as RoCE v2 on NDEV
gid_on() {
	gid_rows | grep -q "^[0-9]* $LL_GID RoCE_v2 $1\$"
}

vlan_gids_checks() {
	LL_GID=$(mac_gid "$(cat /sys/class/net/eth0/address)")
	check vlan_same_mac sh -c "[ $(cat /sys/class/net/$VDEV/address) = $(cat /sys/class/net/eth0/address) ]"
	check vlan_gid_on_eth0 wait_for "gid_on eth0" 10
	check vlan_gid_on_vlan wait_for "gid_on $VDEV" 10
	note gids "$(gid_rows)"
	check vlan_peer_reachable wait_for "ping -c1 -W1 $VLAN_PEER" 30
	PEER_MAC=$(awk -v ip="$VLAN_PEER" '$1 == ip && $6 == "'$VDEV'" {print $4}' /proc/net/arp)
	PEER_LL=$(mac_gid "$PEER_MAC")
	note vlan_peer "$VLAN_PEER $PEER_MAC $PEER_LL"
}

# vlan_only FILE DIR KIND: FILE (rocetos -v) has DIR's (out, in) KIND (mad,
# data) frames, all of them tagged with $VLAN
vlan_only() {
	grep -q "^$2 $3 vlan $VLAN packets" "$1" &&
		! grep "^$2 $3 vlan" "$1" | grep -qv " vlan $VLAN " && return 0
	cat "$1"
	return 1
}

# vlan_frames_checks TOOL ROLE: TOOL's frames in ROLE, counted by rocetos
# -v on eth0 while it ran (/tmp/TOOL.ROLE.vlan): CM MADs both ways and
# connection traffic tagged, none untagged.  Not udaddy's replies (the
# server's data out, the client's in): the server's address for them is
# libibverbs' ibv_create_ah_from_wc(), which looks the GID up by value
# itself (the lowest index: eth0's), on the stock ib_cm as well; the
# client's data is the CM's (rdma_cm's address from the SIDR_REP event).
vlan_frames_checks() {
	vf_f=/tmp/$1.$2.vlan
	note "$1.$2.vlan" "$(cat $vf_f)"
	check "vlan_${1}_${2}_out_mad_tagged" vlan_only $vf_f out mad
	check "vlan_${1}_${2}_in_mad_tagged" vlan_only $vf_f in mad
	[ "$1.$2" = udaddy.server ] ||
		check "vlan_${1}_${2}_out_data_tagged" vlan_only $vf_f out data
	[ "$1.$2" = udaddy.client ] ||
		check "vlan_${1}_${2}_in_data_tagged" vlan_only $vf_f in data
}

# vlan_pair FIRST: every tool of VLAN_TOOLS over the link-local addresses
# on the VLAN, this guest in role FIRST, then the other; rocetos -v on eth0
# around each run
vlan_pair() {
	_ip=$VM_IP
	for vp_role in $1 $( [ "$1" = server ] && echo client || echo server); do
		for vp_t in $VLAN_TOOLS; do
			vp_f=/tmp/$vp_t.$vp_role.vlan
			rocetos -v eth0 300 >$vp_f 2>&1 &
			vp_cnt=$!
			wait_for "grep -q listening $vp_f" 10
			if [ "$vp_role" = server ]; then
				# _server_cmd binds to $VM_IP
				# (and a client that gives up costs 30 s, not
				# 120: the next tool's server is up in step)
				VM_IP="$LL_GID%$VDEV"
				SERVER_TMO=30 tool_server $vp_t
				VM_IP=$_ip
			else
				# the server is up (nc to its READY_PORT) before
				# the first try: a few tries, not 60, so that a
				# REQ that the peer rejects fails soon
				CLIENT_TRIES=3 tool_client $vp_t "$PEER_LL%$VDEV" "$VM_PEER"
			fi
			# the last DREQ/DREP before the count stops
			sleep 1
			kill -TERM $vp_cnt 2>/dev/null
			wait $vp_cnt 2>/dev/null
			tool_checks $vp_t $vp_role
			vlan_frames_checks $vp_t $vp_role
		done
	done
	cm_counters_note
	# the tools' connections each way: rping 1, ucmatose 4 (REP), and
	# udaddy's two SIDR exchanges
	check vlan_cm_rep_5_each_way sh -c "[ $(cm_count cm_tx_msgs/rep) -ge 5 ] && [ $(cm_count cm_rx_msgs/rep) -ge 5 ]"
	check vlan_cm_sidr_both_ways sh -c "[ $(cm_count cm_tx_msgs/sidr_rep) -ge 2 ] && [ $(cm_count cm_rx_msgs/sidr_rep) -ge 2 ]"
	sleep 2
}
