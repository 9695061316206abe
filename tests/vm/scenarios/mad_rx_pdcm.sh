# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, pdcm side: pdcm's agent owns the CM class and receives the
# REQ and SIDR_REQ that the peer's stock rdma_cm sends (rping, udaddy);
# with no listen it answers REJ 8 and SIDR_REP UNSUPPORTED, and counts
# both in the sysfs groups the in-tree CM uses.
# With dump_mads=1 the MADs are hex-dumped; tests/kunit/captures/ holds two
# such dumps, kept as the wire codec's golden vectors.
net_up
rxe_add rxe0 eth0
suite_begin mad_rx_pdcm
# the REJs pdcm sends are traced (pdcm_send_rej, with the reason) from the
# moment it loads: the peer's REQ follows it by seconds
check load sh -c "modprobe ib_pdcm dump_mads=1 && echo 1 >/sys/kernel/tracing/events/pdcm/pdcm_send_rej/enable"
check rx_req_from_rping wait_for "dmesg | grep -q 'attr 0x0010 len 256'" 30
check rx_sidr_req_from_udaddy wait_for "dmesg | grep -q 'attr 0x0017 len 256'" 30
c=/sys/class/infiniband/rxe0/ports/1
check rej_8_sent wait_for "grep -q 'pdcm_send_rej: .* reason=8 ' /sys/kernel/tracing/trace" 10
# every REJ sent was a reason-8 one, and each is counted (a fresh module:
# the counter started at 0)
check rej_8_counted sh -c "n=\$(grep -c 'pdcm_send_rej: .* reason=8 ' /sys/kernel/tracing/trace); echo \"traced \$n, counted \$(cat $c/cm_tx_msgs/rej)\"; [ \$n -ge 1 ] && [ \$(grep -c 'pdcm_send_rej: ' /sys/kernel/tracing/trace) -eq \$n ] && [ \$(cat $c/cm_tx_msgs/rej) -eq \$n ]"
check sidr_rep_sent_and_counted wait_for "[ \$(cat $c/cm_tx_msgs/sidr_rep) -ge 1 ]" 10
check rx_counters sh -c "[ \$(cat $c/cm_rx_msgs/req) -ge 1 ] && [ \$(cat $c/cm_rx_msgs/sidr_req) -ge 1 ]"
check rx_counted sh -c "awk '/^rxe0 1 claimed/ { split(\$4, a, \"=\"); exit !(a[2] >= 2) }' /sys/kernel/debug/pdcm/ports"
check rmmod rmmod ib_pdcm
suite_end
