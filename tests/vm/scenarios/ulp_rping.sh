# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The test ULP's rping code against itself on rxe loopback (pdcm on both
# ends): the server's RDMA READs of a source registered with IB_WR_REG_MR,
# its RDMA WRITEs into the registered sink, rping's pattern checked on
# both sides, at rping's smallest and largest sizes; a server whose
# buffers are too small disconnects; no listener gives REJ 8; a listener
# destroyed mid-run and a close mid-run leave nothing behind.
# (interop_rping_* runs the same code against rdma-core's rping.)
. /pdcm/scenarios/ulp_lib.sh

S="listener S "
T="listener T "

net_up
rxe_add rxe0 eth0
suite_begin ulp_rping
ulp_setup
res0=$(rdma_res)
check listen ulp listen S tcp:7174 "$VM_IP" mode=rping
check rping_100 ulp rping tcp:7174 "$VM_IP" count=100 size=1000
ulp_note "rping 1 "
check run_ok ulp_is "rping 1 " result ok
check run_100_pings ulp_is "rping 1 " pings 100
check run_100_verified ulp_is "rping 1 " verified 100
check run_rd_depths eval "ulp_is 'rping 1 ' rd_atomic 1 && ulp_is 'rping 1 ' dest_rd_atomic 1"
check server_timewait wait_for "ulp_is '$S' timewait 1" 10
ulp_note "$S"
check server_100_pings ulp_is "$S" pings 100
check server_pattern_100 ulp_is "$S" verified 100
check server_read ulp_is "$S" read 100000
check server_written ulp_is "$S" written 100000
check server_got_dreq ulp_is "$S" dreq 1
check rping_min_size ulp rping tcp:7174 "$VM_IP" count=3 size=26
check min_size_ok ulp_is "rping 2 " verified 3
check rping_max_size ulp rping tcp:7174 "$VM_IP" count=3 size=65535
check max_size_ok ulp_is "rping 3 " verified 3
check server_all_verified wait_for "ulp_is '$S' verified 106" 10
check server_no_bad ulp_is "$S" bad 0
check server_no_errors ulp_is "$S" errors 0
# a source larger than the server's buffers: the server disconnects
check listen_small ulp listen T tcp:7175 "$VM_IP" mode=rping size=64
check rping_too_big ulp rping tcp:7175 "$VM_IP" count=3 size=1000
ulp_note "rping 4 "
check too_big_cut_off ulp_is "rping 4 " result peer_disconnect
check too_big_no_pings ulp_is "rping 4 " pings 0
check small_server_error wait_for "ulp_is '$T' errors 1" 10
check small_server_drep wait_for "ulp_is '$T' drep 1" 10
check rping_no_listener ulp rping tcp:7176 "$VM_IP" count=1
check no_listener_rej_8 eval "ulp_is 'rping 5 ' result rej && ulp_is 'rping 5 ' rej_reason 8"
# the listener destroyed while pinging: pdcm's DREQ ends the client
ulp rping tcp:7174 "$VM_IP" count=1000000 timeout=60 &
pid=$!
check pinging wait_for "ulp_ge '$S' pings 130" 30
check destroy_mid_run ulp destroy_listener S
wait $pid
check rping_returned test $? -eq 0
ulp_note "rping 6 "
check mid_run_cut_off eval "ulp_is 'rping 6 ' result peer_disconnect || ulp_is 'rping 6 ' result data_error"
check listener_destroyed ulp_is "$S" state destroyed
check conns_freed wait_for "ulp_is 'live ' conns 0" 20
check only_T_left eval "ulp_is 'live ' listeners 1 && ulp_is 'live ' ids 1 && ulp_is 'live ' mrs 0"
check resources_back_1 rdma_res_is "$res0"
check listen_again ulp listen S tcp:7174 "$VM_IP" mode=rping
# close while pinging: the run is aborted, the listener goes
ulp rping tcp:7174 "$VM_IP" count=1000000 timeout=60 &
pid=$!
check pinging_again wait_for "ulp_ge '$S' pings 10" 30
check close_mid_run ulp close
wait $pid
check rping_returned_2 test $? -eq 0
ulp_note "rping 7 "
check aborted ulp_is "rping 7 " result timeout
check nothing_live_after_close ulp_wait_idle 20
check resources_back_2 rdma_res_is "$res0"
ulp_teardown "$res0"
suite_end
