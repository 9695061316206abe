# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests: iSER initiator (open-iscsi, ib_iser) on the ib_cm drop-in over rdma_cm,
# against a stock-CM guest (ibcm_iser_tgt_peer).
# Discover and log in, write a 4 MiB pattern, read it back, log in again,
# the target's portal removed and made again, iscsid logging in again,
# log out (ibcm_iser_lib.sh).
. /pdcm/scenarios/ibcm_iser_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_iser_ini_pdcm
ibcm_stack pdcm
iser_initiator
cm_counters_note
sleep 2
suite_end
