# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, the drop-in side of ibcm_vlan (issue 34 #3): Debian's
# rdma_cm and rdma-core tools on compat/ib_cm.ko (pdcm) over a VLAN on the
# rxe netdev, whose link-local GID is also eth0's: first as servers for
# ibcm_vlan_peer's clients, then as clients of its servers.  Every CM MAD
# and data packet must cross eth0 tagged (ibcm_vlan_lib.sh).
. /pdcm/scenarios/ibcm_vlan_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ibcm_vlan_pdcm
ibcm_stack pdcm
check vlan_up vlan_up
vlan_gids_checks
vlan_pair server
suite_end
