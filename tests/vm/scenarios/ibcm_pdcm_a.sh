# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, the drop-in on the A side (10.0.0.1) against ibcm_pdcm:
# pdcm to pdcm through Debian's rdma_cm, clients first.
. /pdcm/scenarios/ibcm_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_pdcm_a
ibcm_stack pdcm
ibcm_pair client
suite_end
