# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, the drop-in side: Debian's rdma_cm, rdma_ucm and rdma-core
# tools on compat/ib_cm.ko (pdcm), first as servers for the peer's clients,
# then as clients of its servers.  The peer is ibcm_peer (stock CM) or
# ibcm_pdcm_a (the drop-in again).
. /pdcm/scenarios/ibcm_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_pdcm
ibcm_stack pdcm
ibcm_pair server
suite_end
