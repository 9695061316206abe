# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Nothing is left behind: the handler's error path, a listener destroyed
# mid-handshake (REQs delivered, not yet answered) and in the middle of
# data transfer (the active side sees REJ or DREQ), and the device
# removed under live connections.  The ULP's live-object counters and
# rxe0's restrack counts return to where they started, and both modules
# unload cleanly.
. /pdcm/scenarios/ulp_lib.sh

N=8

net_up
rxe_add rxe0 eth0
suite_begin ulp_leak
ulp_setup
res0=$(rdma_res)

# 0. The handler's error path: QP made and in RTR, then REJ and free.
check listen_failing ulp listen F tcp:7099 any mode=fail
check connect_failing ulp connect $N tcp:7099 "$VM_IP"
ulp_note "run 1 "
check failing_rejected ulp_is "run 1 " rej $N
check failing_reason_3 ulp_is "run 1 " rej_reasons 3:$N
check failing_counted ulp_is "listener F " errors $N
check failing_nothing_kept ulp_is "live " conns 0
check destroy_failing ulp destroy_listener F
check idle_after_error_path ulp_wait_idle
check resources_back_0 rdma_res_is "$res0"

# 1. REQs held unanswered by the handler, then the listener goes.
check listen_hold ulp listen H tcp:7100 any mode=hold
ulp connect $N tcp:7100 "$VM_IP" timeout=60 &
pid=$!
check held_reqs_delivered wait_for "ulp_is 'listener H ' live $N" 15
check both_sides_allocated ulp_is "live " conns $((2 * N))
check passive_qps_exist ulp_ge "live " qps $((2 * N))
check destroy_mid_handshake ulp destroy_listener H
wait $pid
check connect_returned_ok test $? -eq 0
ulp_note "run 2 "
check active_rejected ulp_is "run 2 " rej $N
check reject_consumer_defined ulp_is "run 2 " rej_reasons 28:$N
check none_connected ulp_is "run 2 " connected 0
check listener_marked_destroyed ulp_is "listener H " state destroyed
check idle_after_handshake_destroy ulp_wait_idle
check resources_back_1 rdma_res_is "$res0"

# 2. Connections moving data, then the listener goes: DREQ to the peer.
check listen_accept ulp listen D tcp:7101 any
ulp connect $N tcp:7101 "$VM_IP" 1000000 1024 timeout=60 &
pid=$!
check all_established wait_for "ulp_is 'listener D ' established $N" 20
check data_flowing wait_for "ulp_ge 'listener D ' bytes $((N * 1024 * 10))" 20
check destroy_mid_transfer ulp destroy_listener D
wait $pid
check connect_returned_ok_2 test $? -eq 0
ulp_note "run 3 "
check all_were_connected ulp_is "run 3 " connected $N
check all_cut_off ulp_is "run 3 " failed $N
check none_timed_out ulp_is "run 3 " timedout 0
check idle_after_transfer_destroy ulp_wait_idle
check resources_back_2 rdma_res_is "$res0"

# 3. The device goes away under established connections: the ULP's
#    ib_client removal aborts the run and destroys everything.
check listen_for_removal ulp listen R tcp:7102 any
ulp connect $N tcp:7102 "$VM_IP" 1000000 1024 timeout=60 &
pid=$!
check established_before_removal wait_for "ulp_is 'listener R ' established $N" 20
check device_removed rdma link delete rxe0
wait $pid
check connect_returned_ok_3 test $? -eq 0
ulp_note "run 4 "
check run_cut_short ulp_is "run 4 " failed $N
check idle_after_removal ulp_wait_idle
check listener_gone_with_device ulp_is "listener R " state destroyed
check device_readded rxe_add rxe0 eth0
check port_reclaimed wait_for "grep -q '^rxe0 1 claimed' /sys/kernel/debug/pdcm/ports" 5
check listen_after_readd ulp listen R2 tcp:7103 any
check connect_after_readd ulp connect 2 tcp:7103 "$VM_IP" 2
check works_after_readd ulp_is "run 5 " failed 0

# 4. Same name again after destroy; reset forgets every record.
check relisten_same_name ulp listen H tcp:7100 any
check reset ulp reset
check reset_forgets_records sh -c "! grep -q '^run\|^listener' $ULP/results"
ulp_teardown "$res0"
suite_end
