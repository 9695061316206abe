# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests: SRP initiator (ib_srp) on the stock CM over rdma_cm,
# for the drop-in guest (ibcm_srp_tgt_pdcm).
# Log in, write a 4 MiB pattern, read it back, log in again, the target's
# port removed and made again, ib_srp reconnecting, log out
# (ibcm_srp_lib.sh).
. /pdcm/scenarios/ibcm_srp_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_srp_ini_peer
ibcm_stack stock
srp_initiator
cm_counters_note
sleep 2
suite_end
