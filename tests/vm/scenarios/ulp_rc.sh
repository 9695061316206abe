# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm on both ends over rxe loopback: 100 RC connections opened at once,
# each moving verified data, then disconnected (DREQ, DREP, timewait);
# then 100 connect/disconnect cycles without data; nothing left behind.
. /pdcm/scenarios/ulp_lib.sh

N=100 MSGS=20 SIZE=4096
BYTES=$((N * MSGS * SIZE))

net_up
rxe_add rxe0 eth0
suite_begin ulp_rc
ulp_setup
res0=$(rdma_res)
check listen ulp listen L tcp:7471 "$VM_IP"
check connect_100 ulp connect $N tcp:7471 "$VM_IP" $MSGS $SIZE timeout=90
ulp_note "run 1 "
check all_connected ulp_is "run 1 " connected $N
check none_failed ulp_is "run 1 " failed 0
check data_verified ulp_is "run 1 " verified $BYTES
check all_drep ulp_is "run 1 " disconnected $N
check all_timewait_exit ulp_is "run 1 " timewait $N
check rep_names_listener ulp_is "run 1 " listeners L:$N
check passive_reqs ulp_is "listener L " reqs $N
check passive_established ulp_is "listener L " established $N
check passive_verified ulp_is "listener L " bytes $BYTES
check passive_no_bad ulp_is "listener L " bad 0
check passive_no_errors ulp_is "listener L " errors 0
check passive_addr_parsed ulp_is "listener L " addr_errors 0
check passive_addrs_as_sent ulp_req_addrs L "$(ulp_get 'run 1 ' src)" "$VM_IP:7471"
check passive_disconnected ulp_is "listener L " disconnected $N
check passive_timewait_gone wait_for "ulp_is 'listener L ' live 0" 20
check passive_timewait_exits ulp_is "listener L " timewait $N
check connect_100_no_data ulp connect $N tcp:7471 "$VM_IP" 0 timeout=90
ulp_note "run 2 "
check no_data_connected ulp_is "run 2 " connected $N
check no_data_none_failed ulp_is "run 2 " failed 0
check no_data_cps ulp_ge "run 2 " cps 1
check no_conns_between_runs wait_for "ulp_is 'live ' conns 0" 20
# UC: the REQ names the transport, the passive side makes a UC QP, and
# the QP attributes pdcm_init_qp_attr() gives must suit one (ib_modify_qp()
# refuses a UC QP the RC-only ones); data echoed over it.  rxe on 6.1
# has no XRC QPs (rxe_qp.c takes RC, UC, UD and GSI): KUnit's pdcm_fsm
# checks XRC's attributes.
check connect_uc ulp connect 10 tcp:7471 "$VM_IP" 5 1024 uc=1 timeout=60
ulp_note "run 3 "
check uc_connected ulp_is "run 3 " connected 10
check uc_none_failed ulp_is "run 3 " failed 0
check uc_data_verified ulp_is "run 3 " verified $((10 * 5 * 1024))
check uc_reqs_delivered_as_uc ulp_is "listener L " uc_reqs 10
check uc_all_timewait ulp_is "run 3 " timewait 10
ulp_teardown "$res0"
suite_end
