# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests: NVMe/RDMA host (nvme-rdma, nvme-cli) on the stock CM, against the
# drop-in guest's target (ibcm_nvme_tgt_pdcm).
# Write a 4 MiB pattern, read it back, compare, disconnect
# (ibcm_nvme_lib.sh).
. /pdcm/scenarios/ibcm_nvme_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_nvme_host_peer
ibcm_stack stock
nvme_host
cm_counters_note
sleep 2
suite_end
