# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm side of hostile_storm_peer: after the storm of stale-QPN REQs every
# connection ends and the module unloads (no hung destroy: a task stuck
# in D state fails console_clean).
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/hostile_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin hostile_storm_pdcm
ulp_setup
res0=$(rdma_res)
check listen_l ulp listen L tcp:7471 "$VM_IP" mode=accept
check listen_s ulp listen S tcp:7478 "$VM_IP" mode=accept
check storm_over wait_for "ulp_is 'listener S ' established 1" 120
ulp_note "listener "
check stale_counted cnt_is cm_tx_msgs/rej -ge 4
check l_established ulp_ge "listener L " established 5
ulp_teardown "$res0"
suite_end
