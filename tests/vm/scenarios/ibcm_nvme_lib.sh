# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# NVMe over Fabrics with the RDMA transport between two guests, on
# Debian's own nvmet-rdma and nvme-rdma over rdma_cm; either side may run
# rdma_cm on the ib_cm drop-in (pdcm) or on the stock ib_cm.  Sourced by
# the ibcm_nvme_* scenarios.
#
#   nvme_target        nvmet + nvmet-rdma through configfs: subsystem
#                      nqn.2026-12.pdcm:test, namespace 1 on a 16 MiB file
#                      in tmpfs (buffered: tmpfs has no O_DIRECT), port 4420 on this guest's address; waits
#                      until the host says it is done
#   nvme_host          nvme-rdma: connect (nvme-cli, retried until the
#                      target listens), write a 4 MiB pattern with
#                      O_DIRECT, read it back, compare, disconnect
. /pdcm/scenarios/ibcm_lib.sh

NQN=nqn.2026-12.pdcm:test
NVME_SYNC=7997
CFS=/sys/kernel/config

nvme_target() {
	check configfs_mounted sh -c "mount -t configfs none $CFS 2>/dev/null || grep -q ' $CFS configfs' /proc/mounts"
	check nvmet_rdma_loads modprobe nvmet_rdma
	check backing_file dd if=/dev/zero of=/tmp/ns1.img bs=1M count=16
	_s=$CFS/nvmet/subsystems/$NQN
	_p=$CFS/nvmet/ports/1
	check subsystem sh -c "mkdir $_s && echo 1 >$_s/attr_allow_any_host"
	check namespace sh -c "mkdir $_s/namespaces/1 && echo -n /tmp/ns1.img >$_s/namespaces/1/device_path && echo 1 >$_s/namespaces/1/buffered_io && echo 1 >$_s/namespaces/1/enable"
	check port sh -c "mkdir $_p && echo rdma >$_p/addr_trtype && echo ipv4 >$_p/addr_adrfam && echo $VM_IP >$_p/addr_traddr && echo 4420 >$_p/addr_trsvcid"
	check port_enabled ln -s "$_s" "$_p/subsystems/$NQN"
	check target_listening dmesg_has "nvmet_rdma: enabling port 1 ($VM_IP:4420)"
	check host_done timeout 200 nc -l -p $NVME_SYNC
	# (6.1 and 6.12 say "creating nvm controller 1 for subsystem NQN",
	# 7.3 "Created nvm controller 1 for subsystem NQN")
	check host_connected_once dmesg_has "nvmet: [Cc]reat[a-z]* nvm controller [0-9]* for subsystem $NQN"
	check port_disabled rm "$_p/subsystems/$NQN"
	check teardown sh -c "rmdir $_p && echo 0 >$_s/namespaces/1/enable && rmdir $_s/namespaces/1 && rmdir $_s"
	check nvmet_rdma_unloads rmmod nvmet_rdma
}

_nvme_dev() {
	for _d in /sys/class/nvme/nvme*; do
		[ "$(cat "$_d/subsysnqn" 2>/dev/null)" = "$NQN" ] && { basename "$_d"; return 0; }
	done
	return 1
}

nvme_host() {
	check hostnqn sh -c "mkdir -p /etc/nvme && echo nqn.2014-08.org.nvmexpress:uuid:\$(cat /proc/sys/kernel/random/uuid) >/etc/nvme/hostnqn && cat /proc/sys/kernel/random/uuid >/etc/nvme/hostid"
	check nvme_rdma_loads modprobe nvme_rdma
	check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
	check nvme_connect retry 90 timeout 30 nvme connect -t rdma -a "$VM_PEER" -s 4420 -n "$NQN"
	note nvme_connect "$_out"
	check controller_live wait_for "_nvme_dev" 20
	_c=$(_nvme_dev)
	check namespace_appears wait_for "test -b /dev/${_c}n1" 20
	kmsg "    # controller $_c: $(cat /sys/class/nvme/$_c/transport) $(cat /sys/class/nvme/$_c/address) queues $(ls -d /sys/class/nvme/$_c/${_c}n1/mq/* 2>/dev/null | wc -l)"
	check transport_is_rdma grep -qx rdma "/sys/class/nvme/$_c/transport"
	# 4 MiB of a known pattern (not zeros: the backing file is zero):
	# 65536 numbered 64-byte lines
	check pattern sh -c "awk 'BEGIN { for (i = 0; i < 65536; i++) printf \"pdcm-nvme %010d %s\\n\", i, \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop\" }' >/tmp/pattern"
	check pattern_4mib sh -c "[ \$(wc -c </tmp/pattern) -eq 4194304 ]"
	check write_4mib dd if=/tmp/pattern of=/dev/${_c}n1 bs=64k count=64 oflag=direct
	check flush sh -c "sync && echo 3 >/proc/sys/vm/drop_caches"
	check read_4mib dd if=/dev/${_c}n1 of=/tmp/readback bs=64k count=64 iflag=direct
	check readback_matches cmp /tmp/pattern /tmp/readback
	check readback_65536_numbered_lines count /tmp/readback "^pdcm-nvme [0-9]\{10\} " 65536
	check nvme_disconnect nvme disconnect -n "$NQN"
	note nvme_disconnect "$_out"
	check controller_gone wait_for "! _nvme_dev" 20
	check tell_target wait_for "echo done | nc $VM_PEER $NVME_SYNC" 30
	check nvme_rdma_unloads rmmod nvme_rdma
}
