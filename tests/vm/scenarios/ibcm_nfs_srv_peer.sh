# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests: NFS server (nfsd, RDMA port 20049) on the stock CM over rdma_cm,
# for the drop-in guest (ibcm_nfs_cli_pdcm).
# A tree and an 8 MiB file written, unmounted, mounted again, compared;
# nfsd restarted under the mounted client, compared again; a clean
# unmount (ibcm_nfs_lib.sh).
. /pdcm/scenarios/ibcm_nfs_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_nfs_srv_peer
ibcm_stack stock
nfs_server
cm_counters_note
sleep 2
suite_end
