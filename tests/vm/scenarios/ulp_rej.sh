# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Rejections the active side must see with the right reason: a REQ to a
# service ID nobody listens on (REJ 8, INVALID_SERVICE_ID, at once), a
# REQ whose RDMA CM header matches no listener's compare (also 8), and a
# listener that rejects (28, CONSUMER_DEFINED); a SIDR_REQ to an unbound
# service ID gets a SIDR_REP with status 1 (UNSUPPORTED).
. /pdcm/scenarios/ulp_lib.sh

net_up
rxe_add rxe0 eth0
ip addr add 10.0.0.11/24 dev eth0
suite_begin ulp_rej
ulp_setup
res0=$(rdma_res)
check connect_unbound ulp connect 4 tcp:9999 "$VM_IP"
ulp_note "run 1 "
check unbound_rejected ulp_is "run 1 " rej 4
check unbound_reason_8 ulp_is "run 1 " rej_reasons 8:4
check unbound_none_connected ulp_is "run 1 " connected 0
check unbound_fast sh -c "[ $(ulp_get 'run 1 ' elapsed_us) -lt 5000000 ]"
check listen_other_address ulp listen A tcp:7000 10.0.0.11
check connect_address_mismatch ulp connect 2 tcp:7000 "$VM_IP"
check mismatch_reason_8 ulp_is "run 2 " rej_reasons 8:2
check mismatch_not_delivered ulp_is "listener A " reqs 0
check listen_rejecting ulp listen R tcp:7001 any mode=reject
check connect_rejecting ulp connect 3 tcp:7001 "$VM_IP"
ulp_note "run 3 "
check consumer_rejected ulp_is "run 3 " rej 3
check consumer_reason_28 ulp_is "run 3 " rej_reasons 28:3
check rejecting_listener_counted ulp_is "listener R " rejected 3
check_err duplicate_name_refused "File exists" ulp listen R tcp:7002 any
check_err identical_listen_refused "Address already in use" ulp listen R2 tcp:7001 any
check sidr_unbound ulp sidr udp:9998 "$VM_IP"
ulp_note "sidr 4 "
check sidr_unbound_status_1 ulp_is "sidr 4 " status 1
check sidr_unbound_nothing_sent ulp_is "sidr 4 " sent 0
# a P_Key rxe0 does not have (issue 12 defect 10): no REQ goes out
tx0=$(cat /sys/class/infiniband/rxe0/ports/1/cm_tx_msgs/req)
ulp connect 1 tcp:7001 "$VM_IP" pkey=0x1234 2>/dev/null
ulp_note "run 5 "
check foreign_pkey_failed ulp_is "run 5 " failed 1
check foreign_pkey_not_rejected ulp_is "run 5 " rej 0
check foreign_pkey_no_req sh -c "[ \$(cat /sys/class/infiniband/rxe0/ports/1/cm_tx_msgs/req) = $tx0 ]"
ulp_teardown "$res0"
suite_end
