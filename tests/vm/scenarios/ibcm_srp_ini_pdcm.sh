# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests: SRP initiator (ib_srp) on the ib_cm drop-in over rdma_cm,
# against a stock-CM guest (ibcm_srp_tgt_peer).
# Log in, write a 4 MiB pattern, read it back, log in again, the target's
# port removed and made again, ib_srp reconnecting, log out
# (ibcm_srp_lib.sh).
. /pdcm/scenarios/ibcm_srp_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_srp_ini_pdcm
ibcm_stack pdcm
srp_initiator
cm_counters_note
sleep 2
suite_end
