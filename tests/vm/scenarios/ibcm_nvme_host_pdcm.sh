# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests: NVMe/RDMA host (nvme-rdma, nvme-cli) on the ib_cm drop-in, against a
# stock-CM guest's target (ibcm_nvme_tgt_peer).
# Write a 4 MiB pattern, read it back, compare, disconnect
# (ibcm_nvme_lib.sh).
. /pdcm/scenarios/ibcm_nvme_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_nvme_host_pdcm
ibcm_stack pdcm
nvme_host
cm_counters_note
sleep 2
suite_end
