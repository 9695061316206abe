# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm side of hostile_teardown_peer: R rejects every REQ; once the peer's
# handshake to S says it is ready, `ulp close` destroys every connection
# (DREQs the peer does not answer; its own DREQs cross them); then 4
# connects to the peer, whose DREQ crosses each of ours.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/hostile_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin hostile_teardown_pdcm
ulp_setup
res0=$(rdma_res)
check listen_l ulp listen L tcp:7471 "$VM_IP" mode=accept
check listen_r ulp listen R tcp:7472 "$VM_IP" mode=reject
check listen_s ulp listen S tcp:7478 "$VM_IP" mode=accept
check r_rejected_2 wait_for "ulp_is 'listener R ' rejected 2" 120
check ready wait_for "ulp_is 'listener S ' established 1" 60
check close_crossed ulp close
check pdcm_ids_gone wait_for pdcm_no_ids 30
ulp_note "listener "
check connect_crossed ulp connect 4 tcp:7490 "$VM_PEER" 0 retries=10 timeout=60
ulp_note "run 1 "
check crossed_connected ulp_is "run 1 " connected 4
check crossed_none_failed ulp_is "run 1 " failed 0
# the peer's DREQ ended each connection: DREQ_RECEIVED, our DREP
check crossed_dreq_each sh -c "[ \$(grep -c '^conn 1 .* dreq_rcvd=1 ' $ULP/conns) = 4 ]"
check crossed_ids_gone wait_for pdcm_no_ids 20
ulp_teardown "$res0"
suite_end
