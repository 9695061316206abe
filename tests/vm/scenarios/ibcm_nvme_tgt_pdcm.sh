# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests: NVMe/RDMA target (nvmet-rdma) on the ib_cm drop-in; the host is a
# stock-CM guest (ibcm_nvme_host_peer).
# Write a 4 MiB pattern, read it back, compare, disconnect
# (ibcm_nvme_lib.sh).
. /pdcm/scenarios/ibcm_nvme_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_nvme_tgt_pdcm
ibcm_stack pdcm
nvme_target
cm_counters_note
sleep 2
suite_end
