# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# softib (tests/softib, Documentation/testing.rst "softib"): a software
# InfiniBand device with two ports joined by an in-memory wire, LIDs 1
# and 2, no SM.  The kernel's MAD layer opens QP0/QP1 on it (ib_umad's
# devices), the kernel's ib_cm attaches to it, then pdcm runs CM
# handshakes between its two ports over hand-built IB paths: LID-routed
# (no GRH on any CM MAD, as the wire's counters and log show) and with a
# GRH; UD datagrams are delivered, or dropped and counted on a Q_Key or
# P_Key mismatch.  The same handshake on <rdma/ib_cm.h> (softib_ibcm)
# runs on the kernel's ib_cm, the reference, and on pdcm's drop-in.
# Finally softib is unloaded under the MAD layer's and pdcm's agents.
D=/sys/class/infiniband/sib0
DBG=/sys/kernel/debug/softib
CM=/sys/kernel/debug/softib_cm
IBCM=/sys/kernel/debug/softib_ibcm

# sysfs_is FILE VALUE: FILE's content is VALUE
sysfs_is() {
	_v=$(cat "$1") || return 1
	[ "$_v" = "$2" ] && return 0
	echo "$1: '$_v', expected '$2'"
	return 1
}

# cnt PORT NAME: softib counter NAME of sib0's port PORT
cnt() {
	kv_get "$DBG/sib0/counters" "port=$1 " "$2"
}

cnt_is() {	# cnt_is PORT NAME V
	_v=$(cnt "$1" "$2")
	[ "$_v" = "$3" ] && return 0
	echo "port $1: $2=$_v, expected $3"
	cat "$DBG/sib0/counters"
	return 1
}

cnt_ge() {	# cnt_ge PORT NAME N
	_v=$(cnt "$1" "$2")
	[ -n "$_v" ] && [ "$_v" -ge "$3" ] && return 0
	echo "port $1: $2=$_v, expected at least $3"
	cat "$DBG/sib0/counters"
	return 1
}

scm() {
	echo "$*" >"$CM/ctl"
}

# sib0's restrack counts (pd, cq, qp, ...): what the runs leave behind
sib_res() {
	rdma resource show 2>&1 | sed -n 's/^[0-9]*: \(sib0: \)/\1/p'
}

res_back() {	# res_back BEFORE
	_r=$(sib_res)
	[ "$_r" = "$1" ] && return 0
	echo "sib0 resources: '$_r', before the runs '$1'"
	return 1
}

# scm_is PREFIX FIELD V: FIELD of softib_cm's result line PREFIX is V
scm_is() { dbg_is "$CM" "$@"; }

# wire_has ATTR: the wire log has a CM MAD (class 0x07) with ATTR sent
# without a GRH and delivered
wire_has() {
	grep -q "grh=0 class=0x07 method=0x03 attr=$1 delivered" "$DBG/wire" && return 0
	echo "no LID-routed CM MAD attr=$1 in the wire log:"
	cat "$DBG/wire"
	return 1
}

wire_no_grh_cm() {
	! grep -q 'grh=1 class=0x07' "$DBG/wire" || { cat "$DBG/wire"; return 1; }
}

# ibcm_conn NAME: softib_ibcm's "connect sib0 1 2" on whichever ib_cm is
# loaded, then the same checks as for pdcm's own API below: the REQ's
# path as the passive side saw it, both QPs at RTS with LID-routed RTR
# addresses, the five CM MADs on the wire with no GRH
ibcm_conn() {
	echo >"$DBG/wire"
	check $1_connect sh -c "echo connect sib0 1 2 >$IBCM/ctl"
	_l="conn $(grep -c '^conn ' $IBCM/results) "
	dbg_note "$IBCM" "$_l"
	check $1_ok dbg_is "$IBCM" "$_l" result ok
	check $1_req_on_port2 dbg_is "$IBCM" "$_l" req_port 2
	check $1_req_path_lids sh -c "grep '^$_l' $IBCM/results | grep -q 'req_slid=2 req_dlid=1 req_hop_limit=0 req_qpn_ok=1 rep_qpn_ok=1'"
	check $1_rtr_lid_routed sh -c "grep '^$_l' $IBCM/results | grep -q 'rtr_dlid_a=2 rtr_grh_a=0 rtr_dlid_b=1 rtr_grh_b=0 qp_a=3 qp_b=3'"
	for _a in 0x0010 0x0013 0x0014 0x0015 0x0016; do
		check $1_wire_attr_$_a wire_has $_a
	done
	check $1_no_cm_mad_with_grh wire_no_grh_cm
}

suite_begin softib
check load_softib modprobe softib
check device_registered test -d $D
check node_type_ca sysfs_is $D/node_type "1: CA"
for p in 1 2; do
	check port${p}_link_layer_ib sysfs_is $D/ports/$p/link_layer InfiniBand
	check port${p}_active sysfs_is $D/ports/$p/state "4: ACTIVE"
	check port${p}_phys_link_up sysfs_is $D/ports/$p/phys_state "5: LinkUp"
	check port${p}_lid sysfs_is $D/ports/$p/lid "0x$p"
	check port${p}_lmc0 sysfs_is $D/ports/$p/lid_mask_count 0
	check port${p}_no_sm sysfs_is $D/ports/$p/sm_lid 0x0
	check port${p}_gid0 sysfs_is $D/ports/$p/gids/0 "fe80:0000:0000:0000:0200:5e00:00a1:000$p"
	check port${p}_pkey0 sysfs_is $D/ports/$p/pkeys/0 0xffff
	check port${p}_pkey1 sysfs_is $D/ports/$p/pkeys/1 0x8001
	check port${p}_rate_readable cat $D/ports/$p/rate
done
# the MAD layer opened QP0 and QP1 on both ports: ib_umad's per-port
# devices appear only on ports where ib_mad is bound
check load_ib_umad modprobe ib_umad
check umad0_is_sib0_port1 sh -c "grep -qx sib0 /sys/class/infiniband_mad/umad0/ibdev && grep -qx 1 /sys/class/infiniband_mad/umad0/port"
check umad1_is_sib0_port2 sh -c "grep -qx sib0 /sys/class/infiniband_mad/umad1/ibdev && grep -qx 2 /sys/class/infiniband_mad/umad1/port"
check umad_dev_nodes test -c /dev/infiniband/umad0 -a -c /dev/infiniband/umad1
# the kernel's own ib_cm attaches (its GSI agent, IB_PORT_CM_SUP through
# modify_port), then lets go
check stock_ib_cm_loads modprobe ib_cm
check stock_ib_cm_counters_on_sib0 test -d $D/ports/1/cm_rx_msgs -a -d $D/ports/2/cm_tx_msgs
check stock_ib_cm_sets_cm_sup sysfs_is $D/ports/1/cap_mask 0x00010000
# the reference: the handshake on the kernel's ib_cm
check load_softib_ibcm_on_stock modprobe softib_ibcm
ibcm_conn stock_ib_cm
check unload_softib_ibcm rmmod softib_ibcm
check stock_ib_cm_unloads rmmod ib_cm
check cm_sup_cleared sysfs_is $D/ports/1/cap_mask 0x00000000

# pdcm: handshakes between port 1 (active) and port 2 (passive)
check load_pdcm modprobe ib_pdcm
check pdcm_sets_cm_sup sysfs_is $D/ports/2/cap_mask 0x00010000
check load_softib_cm modprobe softib_cm
res0=$(sib_res)
check restrack_sees_sib0 test -n "$res0"
echo >"$DBG/sib0/counters"
echo >"$DBG/wire"
check connect_lid_routed scm connect sib0 1 2
dbg_note "$CM" "conn 1 "
check conn1_ok scm_is "conn 1 " result ok
check conn1_req_on_port2 scm_is "conn 1 " req_port 2
check conn1_req_path_slid scm_is "conn 1 " req_slid 2
check conn1_req_path_dlid scm_is "conn 1 " req_dlid 1
check conn1_req_no_grh scm_is "conn 1 " req_hop_limit 0
check conn1_req_carried_qpn scm_is "conn 1 " req_qpn_ok 1
check conn1_rep_carried_qpn scm_is "conn 1 " rep_qpn_ok 1
check conn1_rtr_active_dlid scm_is "conn 1 " rtr_dlid_a 2
check conn1_rtr_active_no_grh scm_is "conn 1 " rtr_grh_a 0
check conn1_rtr_passive_dlid scm_is "conn 1 " rtr_dlid_b 1
check conn1_rtr_passive_no_grh scm_is "conn 1 " rtr_grh_b 0
check conn1_qp_a_rts scm_is "conn 1 " qp_a 3
check conn1_qp_b_rts scm_is "conn 1 " qp_b 3
for a in 0x0010 0x0013 0x0014 0x0015 0x0016; do
	check conn1_wire_attr_$a wire_has $a
done
check conn1_no_cm_mad_with_grh wire_no_grh_cm
# REQ, RTU, DREQ from port 1; REP, DREP from port 2; none with a GRH
check port1_cm_lid cnt_ge 1 tx_cm_lid 3
check port2_cm_lid cnt_ge 2 tx_cm_lid 2
check port1_cm_grh0 cnt_is 1 tx_cm_grh 0
check port2_cm_grh0 cnt_is 2 tx_cm_grh 0
check port1_no_drops cnt_is 1 drop_qkey 0
check port2_no_drops cnt_is 2 drop_pkey 0
check no_cq_overflow cnt_is 1 cq_overflow 0
# pdcm's own counters (the in-tree CM's sysfs groups) saw the same
check pdcm_port1_sent_req sysfs_is $D/ports/1/cm_tx_msgs/req 1
check pdcm_port2_got_req sysfs_is $D/ports/2/cm_rx_msgs/req 1
check pdcm_port2_sent_rep sysfs_is $D/ports/2/cm_tx_msgs/rep 1
kmsg "    # $(grep . "$DBG/sib0/counters" | tr '\n' ' ')"
# the same with a GRH in the path: every CM MAD carries one
echo >"$DBG/sib0/counters"
check connect_with_grh scm connect sib0 1 2 grh=1
dbg_note "$CM" "conn 2 "
check conn2_ok scm_is "conn 2 " result ok
# the passive path's hop limit is the reply's (0xff), not the REQ's (2),
# as ib_cm completes it from the packet (issue 34 #1)
check conn2_req_hop_limit scm_is "conn 2 " req_hop_limit 255
check conn2_rtr_active_grh scm_is "conn 2 " rtr_grh_a 1
check port1_cm_grh cnt_ge 1 tx_cm_grh 3
check port2_cm_grh cnt_ge 2 tx_cm_grh 2
check port1_cm_lid0 cnt_is 1 tx_cm_lid 0
check port2_cm_lid0 cnt_is 2 tx_cm_lid 0
# nothing listens: REJ 8 (invalid service ID)
check connect_no_listener scm connect sib0 1 2 listen=0
check conn3_rejected scm_is "conn 3 " result rej
check conn3_rej_8 scm_is "conn 3 " rej 8

# the second P_Key (0x8001, index 1) in the path: pdcm sends every CM MAD
# with it, and the passive side reads it from the BTH and the REQ
check conn1_bth_pkey_default scm_is "conn 1 " bth_pkey 0xffff
check connect_pkey_8001 scm connect sib0 1 2 pkey=0x8001
dbg_note "$CM" "conn 4 "
check conn4_ok scm_is "conn 4 " result ok
check conn4_bth_pkey scm_is "conn 4 " bth_pkey 0x8001
check conn4_path_pkey scm_is "conn 4 " path_pkey 0x8001
check conn4_wire_pkey sh -c "grep -q 'pkey=0x8001 grh=0 class=0x07 method=0x03 attr=0x0013 delivered' $DBG/wire || { cat $DBG/wire; false; }"

# UD between the ports: delivered, then dropped on Q_Key and P_Key
echo >"$DBG/sib0/counters"
check ud_send scm ud sib0 1 2
dbg_note "$CM" "ud 5 "
check ud_received scm_is "ud 5 " received 1
check ud_data scm_is "ud 5 " data_ok 1
check ud_slid scm_is "ud 5 " slid 1
check ud_src_qp scm_is "ud 5 " src_qp_ok 1
check ud_no_grh scm_is "ud 5 " grh 0
check ud_byte_len_with_grh_slot scm_is "ud 5 " byte_len 104
check ud_grh_send scm ud sib0 1 2 grh=1
check ud_grh_received scm_is "ud 6 " grh 1
check ud_bad_qkey scm ud sib0 1 2 qkey=0x22220000
check ud_bad_qkey_lost scm_is "ud 7 " received 0
check ud_bad_qkey_counted cnt_is 2 drop_qkey 1
check ud_bad_pkey scm ud sib0 1 2 pkey_index=1
check ud_bad_pkey_lost scm_is "ud 8 " received 0
check ud_bad_pkey_counted cnt_is 2 drop_pkey 1
check ud_rx_counted cnt_is 2 rx 2
check ud_to_no_lid_counted sh -c "! grep -q ' drop_lid=[1-9]' $DBG/sib0/counters"
# SIDR, LID-routed: SIDR_REQ and SIDR_REP without a GRH
echo >"$DBG/wire"
check sidr_lid_routed scm sidr sib0 1 2
dbg_note "$CM" "sidr 9 "
check sidr_answered scm_is "sidr 9 " status 0
check sidr_qpn scm_is "sidr 9 " qpn_ok 1
check sidr_qkey scm_is "sidr 9 " qkey_ok 1
check sidr_on_port2 scm_is "sidr 9 " req_port 2
check sidr_pkey scm_is "sidr 9 " req_pkey 0xffff
check sidr_wire_req wire_has 0x0017
check sidr_wire_rep wire_has 0x0018
check sidr_no_grh wire_no_grh_cm

# every PD, CQ, QP and AH of those runs is gone
check resources_back res_back "$res0"
kmsg "    # sib0: $res0"

# the same on pdcm's ib_cm drop-in
check load_dropin ibcm_load
check load_softib_ibcm_on_dropin modprobe softib_ibcm
ibcm_conn dropin
check dropin_went_through_pdcm sysfs_is $D/ports/1/cm_tx_msgs/req 5
check dropin_unload sh -c "rmmod softib_ibcm && rmmod ib_cm"

# unload softib under the MAD layer's, ib_umad's and pdcm's agents
check unload_softib_cm rmmod softib_cm
check unload_softib_under_agents rmmod softib
check device_gone test ! -e $D
check umad_gone test ! -e /sys/class/infiniband_mad/umad0
check unload_pdcm rmmod ib_pdcm
check unload_ib_umad rmmod ib_umad
# two devices (sib0: LIDs 1 and 2, sib1: 3 and 4): the wire routes by
# LID across them, and each device has its own GUIDs (the CM's
# stale-connection key)
check load_two_devices modprobe softib ndevs=2
check sib1_port2_lid sysfs_is /sys/class/infiniband/sib1/ports/2/lid 0x4
check sib1_node_guid sysfs_is /sys/class/infiniband/sib1/node_guid 0200:5e00:00a1:0100
check sib1_port2_gid0 sysfs_is /sys/class/infiniband/sib1/ports/2/gids/0 "fe80:0000:0000:0000:0200:5e00:00a1:0102"
check load_pdcm_two_devices sh -c "modprobe ib_pdcm && modprobe softib_cm"
check connect_across_devices scm connect sib0 1 sib1:2
dbg_note "$CM" "conn 1 "
check across_ok scm_is "conn 1 " result ok
check across_req_on_port2 scm_is "conn 1 " req_port 2
check across_req_path_lids sh -c "grep '^conn 1 ' $CM/results | grep -q 'req_slid=4 req_dlid=1 req_hop_limit=0'"
check across_rtr_lid_routed sh -c "grep '^conn 1 ' $CM/results | grep -q 'rtr_dlid_a=4 rtr_grh_a=0 rtr_dlid_b=1 rtr_grh_b=0 qp_a=3 qp_b=3'"
check across_sib1_cm_lid sh -c "grep -q '^port=2 lid=4 tx_lid=2 tx_grh=0 tx_cm_lid=2 tx_cm_grh=0 ' $DBG/sib1/counters || { cat $DBG/sib1/counters; false; }"
check ud_across_devices scm ud sib1 1 sib0:2
check ud_across_received sh -c "grep '^ud 2 ' $CM/results | grep -q 'received=1 status=0 byte_len=104 slid=3 src_qp_ok=1'"
# an alternate path over the other ports (issue 34 #13): sib0 port 1 ->
# sib1 port 1 (LIDs 1 -> 3), alternate sib0 port 2 -> sib1 port 2 (2 ->
# 4).  The passive side gets the REQ's alternate path, both QPs load it
# (alternate port 2) and arm it; after both sides' PATH_MIG the DREQ
# leaves from sib0's port 2 and the DREP from sib1's port 2.
P=/sys/class/infiniband
dreq1=$(cat $P/sib0/ports/1/cm_tx_msgs/dreq)
dreq2=$(cat $P/sib0/ports/2/cm_tx_msgs/dreq)
drep2=$(cat $P/sib1/ports/2/cm_tx_msgs/drep)
check connect_alt_path scm connect sib0 1 sib1:1 alt=2:2
dbg_note "$CM" "conn 3 "
check alt_ok scm_is "conn 3 " result ok
check alt_req_on_port1 scm_is "conn 3 " req_port 1
check alt_req_path scm_is "conn 3 " req_alt_dlid 2
check alt_rtr_active scm_is "conn 3 " rtr_alt_a 4/2
check alt_rtr_passive scm_is "conn 3 " rtr_alt_b 2/2
check alt_rts_rearm sh -c "grep '^conn 3 ' $CM/results | grep -q 'rearm_a=1 rearm_b=1'"
check alt_migrated sh -c "grep '^conn 3 ' $CM/results | grep -q 'mig_a=0 mig_b=0'"
check alt_qps_rts sh -c "grep '^conn 3 ' $CM/results | grep -q 'qp_a=3 qp_b=3'"
check alt_dreq_over_port2 sysfs_is $P/sib0/ports/2/cm_tx_msgs/dreq $((dreq2 + 1))
check alt_no_dreq_over_port1 sysfs_is $P/sib0/ports/1/cm_tx_msgs/dreq $dreq1
check alt_drep_over_port2 sysfs_is $P/sib1/ports/2/cm_tx_msgs/drep $((drep2 + 1))
check unload_two_devices sh -c "rmmod softib_cm && rmmod softib && rmmod ib_pdcm"
check no_warn_or_bug sh -c "! dmesg | grep -E 'WARNING:|BUG:|Oops|already in use'"
suite_end
