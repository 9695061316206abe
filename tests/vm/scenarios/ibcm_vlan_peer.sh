# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, the stock-CM side of ibcm_vlan_pdcm: Debian's ib_cm,
# rdma_cm and rdma-core tools over the VLAN's link-local addresses, as
# clients of the drop-in guest's servers, then as servers for its clients.
. /pdcm/scenarios/ibcm_vlan_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_vlan_peer
ibcm_stack stock
check vlan_up vlan_up
vlan_gids_checks
vlan_pair client
suite_end
