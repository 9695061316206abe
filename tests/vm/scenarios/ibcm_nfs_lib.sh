# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# NFS over RDMA between two guests: Debian's nfsd with its RDMA transport
# (rpcrdma, svcrdma) and the NFSv4.1 client (nfsv4, xprtrdma) over
# rdma_cm, with nfs-utils' rpc.nfsd, rpc.mountd, exportfs and mount.nfs
# (scripts/ulp-tools.sh); either side may run rdma_cm on the ib_cm
# drop-in (pdcm) or on the stock ib_cm.  Sourced by the ibcm_nfs_*
# scenarios.  NFSv4 only: no rpcbind, statd or lockd.
#
#   nfs_server   nfsd on a tmpfs export (grace and lease 10 s), RDMA on
#                port 20049 (/proc/fs/nfsd/portlist); checks what the
#                client wrote on the export itself; restarts nfsd
#                (threads to 0 and back, the RDMA listener again) while
#                the client stays mounted; checks the client's later file
#   nfs_client   mount -o rdma,port=20049: a tree of 64 files of 4 KiB
#                and one of 8 MiB written, synced, unmounted, mounted
#                again, read back and compared; after the server's
#                restart (same mount) read back and compared again, 1 MiB
#                more written; a clean unmount
. /pdcm/scenarios/ibcm_lib.sh

NFS_PORT=20049
NFS_READY=7981		# busybox nc: the server exports and listens
NFS_WRITTEN=7982	# ... the client wrote and remounted: check, restart
NFS_RESTARTED=7983	# ... the server's nfsd is back
NFS_DONE=7984		# ... the client wrote its last file and unmounted
NFS_BYTES=/tmp/nfs_bytes	# one line per byte count compared
MNT=/mnt/nfs
NFS_OPTS=rdma,port=$NFS_PORT,vers=4.1

# _nfs_ref DIR: the reference data both sides make: tree/dK/fN (8 x 8
# files of 64 numbered 64-byte lines, 4 KiB each) and big (131072
# numbered lines, 8 MiB)
_nfs_ref() {
	mkdir -p "$1" && cd "$1" && awk 'BEGIN {
		for (d = 0; d < 8; d++) {
			system("mkdir -p tree/d" d)
			for (f = 0; f < 8; f++) {
				p = "tree/d" d "/f" f
				for (i = 0; i < 64; i++)
					printf "pdcm-nfs %s line %04d %s\n", p, i, "abcdefghijklmnopqrstuvwxyzABCDEF" >p
				close(p)
			}
		}
		for (i = 0; i < 131072; i++)
			printf "pdcm-nfs big %010d %s\n", i, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklm" >"big"
	}' && cd /
}

# _nfs_cmp REF DIR [FILE...]: DIR has REF's files (or these), byte for
# byte; their size is added to NFS_BYTES
_nfs_cmp() {
	_r=$1 _d=$2
	shift 2
	[ $# -gt 0 ] || set -- $(cd "$_r" && find . -type f | sort)
	[ $# -gt 0 ] || { echo "nothing to compare in $_r"; return 1; }
	_b=0
	for _f; do
		cmp "$_r/$_f" "$_d/$_f" || return 1
		_b=$((_b + $(wc -c <"$_r/$_f")))
	done
	echo "$# files, $_b bytes"
	echo $_b >>$NFS_BYTES
}

_nfs_bytes() { awk '{ n += $1 } END { print n + 0 }' $NFS_BYTES 2>/dev/null; }

_nfsd_start() {
	rpc.nfsd -N 3 4 && echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist
}

nfs_server() {
	rm -f $NFS_BYTES
	check nfsd_loads modprobe nfsd
	check rpcrdma_loads modprobe rpcrdma
	check rpcrdma_on_rdma_cm test -e /sys/module/rdma_cm/holders/rpcrdma
	check nfsd_fs mount -t nfsd nfsd /proc/fs/nfsd
	check export_tmpfs sh -c "mkdir -p /export && mount -t tmpfs -o size=64m tmpfs /export && chmod 1777 /export"
	check exports sh -c "echo '/export $VM_PEER(rw,no_root_squash,insecure,no_subtree_check,fsid=1)' >/etc/exports"
	# the client's state survives nfsd's restart in the legacy recovery
	# directory; a grace period of 10 s, not 90
	check recovery_dir mkdir -p /var/lib/nfs/v4recovery
	check grace_10s sh -c "echo 10 >/proc/fs/nfsd/nfsv4leasetime && echo 10 >/proc/fs/nfsd/nfsv4gracetime"
	check mountd_starts rpc.mountd -N 2 -N 3
	check exportfs exportfs -ra
	check export_listed sh -c "exportfs -v | grep -q '^/export'"
	check nfsd_starts _nfsd_start
	check portlist_has_rdma grep -qx "rdma $NFS_PORT" /proc/fs/nfsd/portlist
	note portlist "$(cat /proc/fs/nfsd/portlist)"
	check reference _nfs_ref /tmp/ref
	check tell_client_ready wait_for "echo ready | nc $VM_PEER $NFS_READY" 60
	# the client writes, syncs, unmounts, mounts again and reads back
	check client_wrote timeout 240 nc -l -p $NFS_WRITTEN
	note clients "$(cat /proc/fs/nfsd/clients/*/info 2>&1 | head -12)"
	check export_has_clients_tree _nfs_cmp /tmp/ref /export
	# nfsd restarted under the mounted client: threads to 0 (every
	# connection closed, the state gone), then back with a new grace period
	check nfsd_stops rpc.nfsd 0
	check nfsd_threads_0 grep -qx 0 /proc/fs/nfsd/threads
	check rdma_listener_gone sh -c "! grep -q rdma /proc/fs/nfsd/portlist"
	check nfsd_starts_again _nfsd_start
	check portlist_has_rdma_again grep -qx "rdma $NFS_PORT" /proc/fs/nfsd/portlist
	check tell_client_restarted wait_for "echo back | nc $VM_PEER $NFS_RESTARTED" 60
	check client_done timeout 240 nc -l -p $NFS_DONE
	check export_has_clients_later_file _nfs_cmp /tmp/ref/tree/d7 /export/later f0 f1 f2 f3 f4 f5 f6 f7
	check export_still_has_big _nfs_cmp /tmp/ref /export big
	kmsg "    # nfs server: $(_nfs_bytes) bytes the client wrote compared on the export"
	check nfsd_stops_at_end rpc.nfsd 0
	check unexport exportfs -ua
	check mountd_stops sh -c "kill \$(pidof rpc.mountd)"
	check nfsd_fs_unmounted wait_for "umount /proc/fs/nfsd" 10
	check export_unmounted umount /export
	check nfsd_unloads wait_for "rmmod nfsd" 20
	check rpcrdma_unloads wait_for "rmmod rpcrdma" 20
}

_nfs_mounted() {
	grep " $MNT nfs4 " /proc/mounts | grep -q "proto=rdma,port=$NFS_PORT"
}

nfs_client() {
	rm -f $NFS_BYTES
	check nfsv4_loads modprobe nfsv4
	check rpcrdma_loads modprobe rpcrdma
	check rpcrdma_on_rdma_cm test -e /sys/module/rdma_cm/holders/rpcrdma
	check mount_point sh -c "mkdir -p $MNT && { [ -e /etc/mtab ] || ln -s /proc/mounts /etc/mtab; }"
	check reference _nfs_ref /tmp/ref
	check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
	check server_ready timeout 200 nc -l -p $NFS_READY
	check mount retry 30 timeout 60 mount.nfs "$VM_PEER:/export" $MNT -o $NFS_OPTS
	check mounted_over_rdma _nfs_mounted
	note mount "$(grep " $MNT " /proc/mounts)"
	check write_tree cp -r /tmp/ref/tree $MNT/
	check write_big_8mib dd if=/tmp/ref/big of=$MNT/big bs=64k
	check sync sync
	check umount umount $MNT
	check unmounted sh -c "! grep -q ' $MNT ' /proc/mounts"
	check drop_caches sh -c "echo 3 >/proc/sys/vm/drop_caches"
	check mount_again retry 10 timeout 60 mount.nfs "$VM_PEER:/export" $MNT -o $NFS_OPTS
	check mounted_over_rdma_again _nfs_mounted
	check readback_1_matches _nfs_cmp /tmp/ref $MNT
	check tell_server_written wait_for "echo written | nc $VM_PEER $NFS_WRITTEN" 60
	# the server's nfsd restarts; this mount stays
	check server_restarted timeout 200 nc -l -p $NFS_RESTARTED
	check drop_caches_again sh -c "echo 3 >/proc/sys/vm/drop_caches"
	check readback_2_matches _nfs_cmp /tmp/ref $MNT
	check write_later_files sh -c "mkdir $MNT/later && cp /tmp/ref/tree/d7/* $MNT/later/ && sync"
	check still_mounted_over_rdma _nfs_mounted
	check umount_at_end umount $MNT
	check unmounted_at_end sh -c "! grep -q ' $MNT ' /proc/mounts"
	kmsg "    # nfs client: $(_nfs_bytes) bytes read back over NFS/RDMA and compared (2 mounts, 1 nfsd restart)"
	check tell_server_done wait_for "echo done | nc $VM_PEER $NFS_DONE" 60
	check nfsv4_unloads wait_for "rmmod nfsv4" 20
}
