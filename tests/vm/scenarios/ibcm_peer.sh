# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, the stock-CM side of ibcm_pdcm: Debian's ib_cm, rdma_cm and
# rdma-core tools as clients of the drop-in guest's servers, then as
# servers for its clients.
. /pdcm/scenarios/ibcm_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_peer
ibcm_stack stock
ibcm_pair client
suite_end
