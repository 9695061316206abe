# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# iSER between two guests: Debian's LIO iSCSI target with ib_isert, set
# up through configfs, and open-iscsi's iscsid/iscsiadm with ib_iser
# (scripts/ulp-tools.sh), over rdma_cm; either side may run rdma_cm on
# the ib_cm drop-in (pdcm) or on the stock ib_cm.  Sourced by the
# ibcm_iser_* scenarios.
#
#   iser_target      a 16 MiB ramdisk (rd_mcp), target ISER_IQN with one
#                    LUN, an ACL for the initiator's IQN and a portal on
#                    this guest's address, port 3260, with iSER on; when
#                    the initiator asks, the portal removed and made again
#                    (its sessions closed: DREQ); everything removed at
#                    the end
#   iser_initiator   iscsid; SendTargets discovery and login over iSER
#                    (iscsiadm -I iser, retried until the target listens):
#                    a 4 MiB numbered pattern written with O_DIRECT, read
#                    back, compared; logout and login, compared again; the
#                    target's portal restarted under the session, which
#                    iscsid logs in again by itself, compared again and
#                    1 MiB more written and compared; logout
. /pdcm/scenarios/ibcm_lib.sh

CFS=/sys/kernel/config
ISER_IQN=iqn.2026-12.org.pdcm:iser-target
ISER_INI=iqn.2026-12.org.pdcm:iser-initiator
ISER_RESTART=7971	# busybox nc: the initiator asks for a portal restart
ISER_RESTARTED=7972	# ... the target says its portal is back
ISER_DONE=7973		# ... the initiator logged out
ISER_BYTES=/tmp/iser_bytes	# one line per byte count compared
ISER_TPG=$CFS/target/iscsi/$ISER_IQN/tpgt_1

_iser_np() { echo "$ISER_TPG/np/$VM_IP:3260"; }

_iser_portal_make() {
	mkdir "$(_iser_np)" && echo 1 >"$(_iser_np)/iser" && echo 1 >"$ISER_TPG/enable"
}

_iser_portal_remove() {
	echo 0 >"$ISER_TPG/enable" && echo 0 >"$(_iser_np)/iser" && rmdir "$(_iser_np)"
}

_iser_target_make() {
	mkdir -p "$ISER_TPG" && mkdir "$ISER_TPG/lun/lun_0" &&
		ln -s $CFS/target/core/rd_mcp_0/r0 "$ISER_TPG/lun/lun_0/r0" &&
		mkdir "$ISER_TPG/acls/$ISER_INI" && mkdir "$ISER_TPG/acls/$ISER_INI/lun_0" &&
		ln -s "$ISER_TPG/lun/lun_0" "$ISER_TPG/acls/$ISER_INI/lun_0/lun_0" &&
		echo 0 >"$ISER_TPG/attrib/authentication"
}

_iser_target_remove() {
	_a=$ISER_TPG/acls/$ISER_INI
	rm "$_a/lun_0/lun_0" && rmdir "$_a/lun_0" && rmdir "$_a" &&
		rm "$ISER_TPG/lun/lun_0/r0" && rmdir "$ISER_TPG/lun/lun_0" &&
		rmdir "$ISER_TPG" && rmdir "${ISER_TPG%/tpgt_1}"
}

# _cm_rx_req_ge N: this port's CM received at least N REQs
_cm_rx_req_ge() {
	_v=$(cm_count cm_rx_msgs/req)
	[ "$_v" -ge "$1" ] || { echo "cm_rx_msgs/req $_v, expected at least $1"; return 1; }
}

iser_target() {
	check configfs_mounted sh -c "mount -t configfs none $CFS 2>/dev/null || grep -q ' $CFS configfs' /proc/mounts"
	# iSCSI logins set up a crc32c digest even when none is negotiated;
	# crc32c-intel needs SSE4.2, which qemu's CPU lacks
	check crc32c_loads modprobe crc32c_generic
	check ib_isert_loads modprobe ib_isert
	check ib_isert_on_rdma_cm test -e /sys/module/rdma_cm/holders/ib_isert
	check ramdisk_16mib sh -c "mkdir -p $CFS/target/core/rd_mcp_0/r0 && echo rd_pages=4096 >$CFS/target/core/rd_mcp_0/r0/control && echo 1 >$CFS/target/core/rd_mcp_0/r0/enable"
	check target_lun_acl _iser_target_make
	check portal_iser _iser_portal_make
	check portal_is_iser grep -qx 1 "$(_iser_np)/iser"
	note portal "$(_iser_np)"
	# the initiator discovers, logs in, writes, reads, logs out and in
	check initiator_asks_restart timeout 240 nc -l -p $ISER_RESTART
	note session "$(cat $ISER_TPG/acls/$ISER_INI/info 2>&1 | head -4)"
	check session_on_acl grep -q "LIO Session ID" $ISER_TPG/acls/$ISER_INI/info
	# discovery, login, login again: three connections through the CM
	check three_connections _cm_rx_req_ge 3
	check portal_removed _iser_portal_remove
	check portal_made_again _iser_portal_make
	check tell_initiator_restarted wait_for "echo back | nc $VM_PEER $ISER_RESTARTED" 30
	check initiator_done timeout 240 nc -l -p $ISER_DONE
	check four_connections _cm_rx_req_ge 4
	kmsg "    # iser target: $(cm_count cm_rx_msgs/req) connection requests received, $(cm_count cm_tx_msgs/rep) accepted"
	check portal_removed_at_end _iser_portal_remove
	check target_removed _iser_target_remove
	check ramdisk_removed sh -c "rmdir $CFS/target/core/rd_mcp_0/r0 && rmdir $CFS/target/core/rd_mcp_0"
	check iscsi_fabric_removed rmdir $CFS/target/iscsi
	check ib_isert_unloads wait_for "rmmod ib_isert" 20
	check lio_unloads sh -c "rmmod iscsi_target_mod && rmmod target_core_mod"
}

_iser_disk() {
	for _d in /sys/block/sd*; do
		[ -e "$_d" ] && { basename "$_d"; return 0; }
	done
	return 1
}

# _iser_session_up: one session, logged in, with its disk
_iser_session_up() {
	for _s in /sys/class/iscsi_session/session*; do
		[ -e "$_s" ] && grep -qx LOGGED_IN "$_s/state" && _iser_disk >/dev/null && return 0
	done
	return 1
}

# _iser_readback: the disk's first 4 MiB, read with O_DIRECT, are the pattern
_iser_readback() {
	_d=$(_iser_disk) || { echo "no disk"; return 1; }
	rm -f /tmp/readback
	dd if=/dev/$_d of=/tmp/readback bs=64k count=64 iflag=direct 2>&1 &&
		cmp /tmp/pattern /tmp/readback && count /tmp/readback "^pdcm-iser [0-9]\{10\} " 65536 &&
		echo 4194304 >>$ISER_BYTES
}

_iser_node() {
	iscsiadm -m node -T $ISER_IQN -p "$VM_PEER:3260" -I iser "$@"
}

iser_initiator() {
	rm -f $ISER_BYTES
	check ib_iser_loads modprobe ib_iser
	check sd_mod_loads modprobe sd_mod
	check ib_iser_on_rdma_cm test -e /sys/module/rdma_cm/holders/ib_iser
	# iscsid answers iscsiadm only for a user it finds by uid: root in /etc/passwd
	check passwd_root sh -c "grep -q '^root:' /etc/passwd 2>/dev/null || echo 'root:x:0:0:root:/root:/bin/sh' >>/etc/passwd"
	check iscsi_config sh -c "mkdir -p /etc/iscsi /run/lock/iscsi && echo InitiatorName=$ISER_INI >/etc/iscsi/initiatorname.iscsi && printf '%s\n' 'node.startup = manual' 'node.session.timeo.replacement_timeout = 120' 'node.conn[0].timeo.login_timeout = 15' 'node.session.initial_login_retry_max = 4' >/etc/iscsi/iscsid.conf"
	# in the foreground, its log in /tmp/iscsid.log (no syslog here), in
	# a session of its own: stopping, it signals its whole process group
	setsid iscsid -f -d 1 >/tmp/iscsid.log 2>&1 &
	check iscsid_running wait_for "pidof iscsid" 10
	check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
	check discovery retry 60 timeout 60 iscsiadm -m discovery -t st -p "$VM_PEER:3260" -I iser
	note discovery "$_out"
	note iscsid "$(tail -n 40 /tmp/iscsid.log)"
	check target_discovered sh -c "iscsiadm -m node | grep -q '$VM_PEER:3260,1 $ISER_IQN'"
	check login retry 10 timeout 60 iscsiadm -m node -T $ISER_IQN -p "$VM_PEER:3260" -I iser --login
	check session_up wait_for _iser_session_up 30
	check session_is_iser sh -c "iscsiadm -m session | grep -q '^iser: .*$ISER_IQN'"
	note session "$(iscsiadm -m session 2>&1)"
	_d=$(_iser_disk)
	kmsg "    # iser disk $_d: $(cat /sys/block/$_d/size) sectors, $(cat /sys/block/$_d/device/vendor) $(cat /sys/block/$_d/device/model)"
	check disk_16mib grep -qx 32768 /sys/block/$_d/size
	check pattern sh -c "awk 'BEGIN { for (i = 0; i < 65536; i++) printf \"pdcm-iser %010d %s\\n\", i, \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop\" }' >/tmp/pattern"
	check pattern_4mib sh -c "[ \$(wc -c </tmp/pattern) -eq 4194304 ]"
	check write_4mib dd if=/tmp/pattern of=/dev/$_d bs=64k count=64 oflag=direct
	check flush sh -c "sync && echo 3 >/proc/sys/vm/drop_caches"
	check readback_1_matches _iser_readback
	check logout _iser_node --logout
	check disk_gone wait_for "! _iser_disk" 30
	check login_again retry 10 timeout 60 iscsiadm -m node -T $ISER_IQN -p "$VM_PEER:3260" -I iser --login
	check session_up_again wait_for _iser_session_up 30
	check readback_2_matches _iser_readback
	# the target's portal removed and made again under this session:
	# iscsid sees the connection fail and logs in again by itself
	_errs=$(dmesg | grep -c ' detected conn error')
	check ask_target_restart wait_for "echo restart | nc $VM_PEER $ISER_RESTART" 30
	check target_restarted timeout 120 nc -l -p $ISER_RESTARTED
	check conn_error_seen wait_for "[ \$(dmesg | grep -c ' detected conn error') -gt $_errs ]" 60
	check session_up_after_restart wait_for _iser_session_up 150
	note recovery "$(dmesg | grep -E ' (connection|session)[0-9]+:' | tail -n 6)"
	_d=$(_iser_disk)
	check readback_3_matches _iser_readback
	check write_1mib_at_8mib dd if=/tmp/pattern of=/dev/$_d bs=64k count=16 seek=128 oflag=direct
	check read_1mib_at_8mib sh -c "dd if=/dev/$_d of=/tmp/readback2 bs=64k count=16 skip=128 iflag=direct && head -c 1048576 /tmp/pattern | cmp - /tmp/readback2 && echo 1048576 >>$ISER_BYTES"
	kmsg "    # iser initiator: $(awk '{ n += $1 } END { print n + 0 }' $ISER_BYTES 2>/dev/null) bytes read back and compared, $(cm_count cm_tx_msgs/req) connection requests sent (discovery, login, login again, recovery)"
	check logout_at_end _iser_node --logout
	check disk_gone_at_end wait_for "! _iser_disk" 30
	check tell_target_done wait_for "echo done | nc $VM_PEER $ISER_DONE" 30
	check iscsid_stops iscsiadm -k 0
	check iscsid_gone wait_for "! pidof iscsid" 10
	check ib_iser_unloads wait_for "rmmod ib_iser" 20
}
