# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, stock-CM side: send one rping REQ and one udaddy SIDR_REQ to
# the pdcm guest, where nothing listens: pdcm must answer at once, REJ
# reason 8 (invalid service ID) and SIDR_REP status 1 (unsupported), well
# before the stock CM's first retry (6 s for a REQ, 4 s for a SIDR_REQ).
net_up
rxe_add rxe0 eth0
suite_begin mad_rx_peer
check stock_cm_loads modprobe rdma_ucm
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
sleep 2
rping_out=$(timeout 4 rping -c -a "$VM_PEER" -C 1 -S 100 2>&1)
kmsg "    # rping: $(echo "$rping_out" | tr '\n' '|')"
check rping_rejected_reason_8 sh -c "echo '$rping_out' | grep -q 'RDMA_CM_EVENT_REJECTED, error 8'"
udaddy_out=$(timeout 3 udaddy -s "$VM_PEER" 2>&1)
kmsg "    # udaddy: $(echo "$udaddy_out" | tr '\n' '|')"
check udaddy_sidr_status_1 sh -c "echo '$udaddy_out' | grep -q 'RDMA_CM_EVENT_UNREACHABLE, error: 1'"
suite_end
