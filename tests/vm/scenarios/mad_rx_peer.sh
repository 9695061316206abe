# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, stock-CM side: send one rping REQ and one udaddy SIDR_REQ to
# the pdcm guest.  Nothing answers them yet, so both clients must give up.
net_up
rxe_add rxe0 eth0
suite_begin mad_rx_peer
check stock_cm_loads modprobe rdma_ucm
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
sleep 2
check_not rping_unanswered timeout 4 rping -c -a "$VM_PEER" -C 1 -S 100
check_not udaddy_unanswered timeout 4 udaddy -s "$VM_PEER"
suite_end
