# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# SRP over RoCE between two guests, on Debian's own ib_srpt (LIO target)
# and ib_srp (initiator) over rdma_cm; either side may run rdma_cm on the
# ib_cm drop-in (pdcm) or on the stock ib_cm.  Sourced by the ibcm_srp_*
# scenarios.  ib_srpt answers ib_cm itself only on InfiniBand ports; on
# RoCE it takes logins through rdma_cm on the port its configfs attribute
# discovery_auth/rdma_cm_port names (kernels-and-ulps.md).
#
#   srp_target      ib_srpt with a fixed service GUID, a 16 MiB ramdisk
#                   (rd_mcp), this guest's port (by its GUID) with one
#                   LUN and its ACL, rdma_cm on port 5555; then, when the
#                   initiator asks, the port removed and made again (its
#                   channels disconnected: DREQ) while the initiator stays;
#                   then, when the initiator is done, everything removed
#   srp_initiator   ib_srp add_target dest=PEER:5555 (retried until the
#                   target listens): write a 4 MiB numbered pattern with
#                   O_DIRECT, read it back, compare; log out and in again
#                   (delete the remote port, add_target) and compare
#                   again; ask the target to restart its port and wait for
#                   ib_srp to reconnect by itself, compare again and write
#                   and compare 1 MiB more; log out (DREQ), tell the target
. /pdcm/scenarios/ibcm_lib.sh

CFS=/sys/kernel/config
SRP_GUID=5044434d00000001	# ib_srpt's srpt_service_guid: the login's target port ID
SRP_PORT=5555			# rdma_cm_port
SRP_RESTART=7991		# busybox nc: the initiator asks for a target restart
SRP_RESTARTED=7992		# ... the target says its port is back
SRP_DONE=7993			# ... the initiator says it is done
SRP_TPG=			# the target's tpgt_1 (srp_target sets it)
SRP_BYTES=/tmp/srp_bytes	# one line per byte count read back and compared

# _srp_tport: this guest's SRP target port name, as ib_srpt formats it
# from GID 0's interface ID (fe80::5054:ff:fe00:a -> 5054:00ff:fe00:000a)
_srp_tport() {
	cut -d: -f5-8 /sys/class/infiniband/rxe0/ports/1/gids/0
}

# _srp_port_make: the port, its TPG, the LUN on the ramdisk and the ACL.
# 6.1's ib_srpt names an rdma_cm session after the rdma_cm id's source
# address (%pIS of route.addr.src_addr), which on the passive side is the
# local one: the ACL that admits the initiator is this guest's own
# address, not the initiator's (a login is refused without it).
_srp_port_make() {
	mkdir "${SRP_TPG%/tpgt_1}" && mkdir "$SRP_TPG" && mkdir "$SRP_TPG/lun/lun_0" &&
		ln -s $CFS/target/core/rd_mcp_0/r0 "$SRP_TPG/lun/lun_0/r0" || return 1
	_a=$SRP_TPG/acls/$VM_IP
	mkdir "$_a" && mkdir "$_a/lun_0" && ln -s "$SRP_TPG/lun/lun_0" "$_a/lun_0/lun_0" &&
		echo 1 >"$SRP_TPG/enable"
}

# _srp_port_remove: disable (ib_srpt disconnects every channel) and remove
_srp_port_remove() {
	echo 0 >"$SRP_TPG/enable" || return 1
	_a=$SRP_TPG/acls/$VM_IP
	rm "$_a/lun_0/lun_0" && rmdir "$_a/lun_0" && rmdir "$_a" || return 1
	rm "$SRP_TPG/lun/lun_0/r0" && rmdir "$SRP_TPG/lun/lun_0" && rmdir "$SRP_TPG" &&
		rmdir "${SRP_TPG%/tpgt_1}"
}

# _srp_logins N: ib_srpt received at least N SRP_LOGIN_REQs through rdma_cm
_srp_logins() {
	_c=$(dmesg | grep -c "Received SRP_LOGIN_REQ")
	[ "$_c" -ge "$1" ] || { echo "$_c logins, expected at least $1"; return 1; }
}

srp_target() {
	check configfs_mounted sh -c "mount -t configfs none $CFS 2>/dev/null || grep -q ' $CFS configfs' /proc/mounts"
	check ib_srpt_loads modprobe ib_srpt srpt_service_guid=0x$SRP_GUID
	check ib_srpt_on_rdma_cm test -e /sys/module/rdma_cm/holders/ib_srpt
	# LIO makes a fabric's configfs group on its first mkdir
	check srpt_fabric mkdir -p $CFS/target/srpt
	SRP_TPG=$CFS/target/srpt/$(_srp_tport)/tpgt_1
	check ramdisk_16mib sh -c "mkdir -p $CFS/target/core/rd_mcp_0/r0 && echo rd_pages=4096 >$CFS/target/core/rd_mcp_0/r0/control && echo 1 >$CFS/target/core/rd_mcp_0/r0/enable"
	check target_port _srp_port_make
	note target_port "$(_srp_tport) $(ls $SRP_TPG/acls | tr '\n' ' ')"
	check rdma_cm_port sh -c "echo $SRP_PORT >$CFS/target/srpt/discovery_auth/rdma_cm_port"
	check rdma_cm_port_reads_back grep -qx $SRP_PORT $CFS/target/srpt/discovery_auth/rdma_cm_port
	# the initiator logs in, writes, reads, logs out and in again
	check initiator_asks_restart timeout 240 nc -l -p $SRP_RESTART
	check two_logins _srp_logins 2
	check port_removed _srp_port_remove
	# disabling the port closed the initiator's channel (ib_srpt's DREQ)
	check channel_closed dmesg_has "Closing channel $VM_IP-[0-9]* because target .* has been disabled"
	note channel "$(dmesg | grep 'Closing channel')"
	check port_made_again _srp_port_make
	check tell_initiator_restarted wait_for "echo back | nc $VM_PEER $SRP_RESTARTED" 30
	check initiator_done timeout 240 nc -l -p $SRP_DONE
	check three_logins _srp_logins 3
	kmsg "    # srp target: $(dmesg | grep -c 'Received SRP_LOGIN_REQ') logins received, $(dmesg | grep -c 'Rejecting login') rejected"
	check_not no_rejected_logins_on_port dmesg_has "invalid target port identifier"
	check port_removed_at_end _srp_port_remove
	check rdma_cm_port_off sh -c "echo 0 >$CFS/target/srpt/discovery_auth/rdma_cm_port"
	check ramdisk_removed sh -c "rmdir $CFS/target/core/rd_mcp_0/r0 && rmdir $CFS/target/core/rd_mcp_0"
	# the fabric's configfs group holds ib_srpt
	check srpt_fabric_removed rmdir $CFS/target/srpt
	check ib_srpt_unloads wait_for "rmmod ib_srpt" 20
	check target_core_unloads rmmod target_core_mod
}

# _srp_disk: the SCSI disk ib_srp brought (the only one in these guests)
_srp_disk() {
	for _d in /sys/block/sd*; do
		[ -e "$_d" ] && { basename "$_d"; return 0; }
	done
	return 1
}

_srp_rport() {
	for _r in /sys/class/srp_remote_ports/port-*; do
		[ -e "$_r" ] && { echo "$_r"; return 0; }
	done
	return 1
}

_srp_add() {
	echo "id_ext=$SRP_GUID,ioc_guid=$SRP_GUID,dest=$VM_PEER:$SRP_PORT" \
		>/sys/class/infiniband_srp/srp-rxe0-1/add_target
}

# _srp_readback N: the disk's first 4 MiB, read with O_DIRECT, are the
# pattern (the N-th read)
_srp_readback() {
	_d=$(_srp_disk) || { echo "no disk"; return 1; }
	rm -f /tmp/readback
	dd if=/dev/$_d of=/tmp/readback bs=64k count=64 iflag=direct 2>&1 &&
		cmp /tmp/pattern /tmp/readback && count /tmp/readback "^pdcm-srp [0-9]\{10\} " 65536 &&
		echo 4194304 >>$SRP_BYTES
}

# _srp_session_up: a remote port running, with its disk
_srp_session_up() {
	_r=$(_srp_rport) && grep -qx running "$_r/state" && _srp_disk >/dev/null
}

srp_initiator() {
	rm -f $SRP_BYTES
	check ib_srp_loads modprobe ib_srp
	check sd_mod_loads modprobe sd_mod
	check ib_srp_on_rdma_cm test -e /sys/module/rdma_cm/holders/ib_srp
	check srp_host_for_rxe0 test -e /sys/class/infiniband_srp/srp-rxe0-1/add_target
	check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
	# until the target's port and rdma_cm listener are there: the stock
	# CM and pdcm both answer REJ 8 at once while nothing listens
	check login retry 90 _srp_add
	check session_up wait_for _srp_session_up 30
	_d=$(_srp_disk)
	kmsg "    # srp disk $_d: $(cat /sys/block/$_d/size) sectors, $(cat /sys/block/$_d/device/vendor) $(cat /sys/block/$_d/device/model), $(basename "$(_srp_rport)")"
	check disk_16mib grep -qx 32768 /sys/block/$_d/size
	# 4 MiB of a known pattern (the ramdisk is zeros): 65536 numbered
	# 64-byte lines
	check pattern sh -c "awk 'BEGIN { for (i = 0; i < 65536; i++) printf \"pdcm-srp %010d %s\\n\", i, \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq\" }' >/tmp/pattern"
	check pattern_4mib sh -c "[ \$(wc -c </tmp/pattern) -eq 4194304 ]"
	check write_4mib dd if=/tmp/pattern of=/dev/$_d bs=64k count=64 oflag=direct
	check flush sh -c "sync && echo 3 >/proc/sys/vm/drop_caches"
	check readback_1_matches _srp_readback
	# log out (the initiator's DREQ) and in again: a new session, and the
	# target kept the data
	check logout sh -c "echo 1 >$(_srp_rport)/delete"
	check disk_gone wait_for "! _srp_disk" 30
	check rport_gone wait_for "! _srp_rport" 30
	check login_again retry 30 _srp_add
	check session_up_again wait_for _srp_session_up 30
	check readback_2_matches _srp_readback
	# the target's port removed and made again while this initiator
	# stays: ib_srp sees the target's DREQ and reconnects on its own
	# (reconnect_delay 1 s: a new login every second until the port is back)
	check reconnect_delay_1s sh -c "echo 1 >$(_srp_rport)/reconnect_delay"
	check ask_target_restart wait_for "echo restart | nc $VM_PEER $SRP_RESTART" 30
	check target_disconnected wait_for "dmesg_has 'received DREQ'" 60
	check target_restarted timeout 120 nc -l -p $SRP_RESTARTED
	check reconnected wait_for "dmesg_has 'ib_srp: reconnect succeeded'" 120
	_reconnects=$(dmesg | grep -c 'ib_srp: reconnect succeeded')
	check session_up_after_restart wait_for _srp_session_up 60
	note reconnect "$(dmesg | grep -E 'ib_srp|scsi host' | tail -n 8)"
	check readback_3_matches _srp_readback
	# and new data after the reconnect: 1 MiB at 8 MiB
	check write_1mib_at_8mib dd if=/tmp/pattern of=/dev/$_d bs=64k count=16 seek=128 oflag=direct
	check read_1mib_at_8mib sh -c "dd if=/dev/$_d of=/tmp/readback2 bs=64k count=16 skip=128 iflag=direct && head -c 1048576 /tmp/pattern | cmp - /tmp/readback2 && echo 1048576 >>$SRP_BYTES"
	kmsg "    # srp initiator: $(awk '{ n += $1 } END { print n + 0 }' $SRP_BYTES 2>/dev/null) bytes read back and compared, 3 sessions (login, login again, reconnect), $_reconnects reconnect(s)"
	check logout_at_end sh -c "echo 1 >$(_srp_rport)/delete"
	check disk_gone_at_end wait_for "! _srp_disk" 30
	check tell_target_done wait_for "echo done | nc $VM_PEER $SRP_DONE" 30
	check ib_srp_unloads rmmod ib_srp
}
