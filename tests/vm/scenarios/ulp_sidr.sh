# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# SIDR over UD on rxe loopback: a UD service answers SIDR_REQs with its
# QPN and Q_Key; the active side resolves it, sends a patterned datagram
# through an address handle built from the path, and gets it echoed.
. /pdcm/scenarios/ulp_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin ulp_sidr
ulp_setup
res0=$(rdma_res)
check sidr_listen ulp sidr_listen udp:7174
check sidr_resolve ulp sidr udp:7174 "$VM_IP" size=512
ulp_note "sidr_listener "
ulp_note "sidr 1 "
check status_success ulp_is "sidr 1 " status 0
check qpn_is_the_services ulp_is "sidr 1 " qpn "$(ulp_get 'sidr_listener ' qpn)"
check qkey_is_the_services ulp_is "sidr 1 " qkey "$(ulp_get 'sidr_listener ' qkey)"
check datagram_sent ulp_is "sidr 1 " sent 1
check passive_got_request ulp_is "sidr_listener " reqs 1
check passive_verified_datagram ulp_is "sidr_listener " verified 1
check passive_no_bad ulp_is "sidr_listener " bad 0
check echo_received ulp_is "sidr 1 " echoed 1
check echo_verified ulp_is "sidr 1 " verified 1
check sidr_again ulp sidr udp:7174 "$VM_IP" size=1024
check again_verified ulp_is "sidr 2 " verified 1
check passive_two_requests ulp_is "sidr_listener " reqs 2
check no_ids_left ulp_is "live " ids 1
# requests of the other kind (issue 12 defect 17): the handler says "not
# mine", pdcm answers at once and frees the id
check rc_listen ulp listen X tcp:7181 any mode=accept
check sidr_to_rc_listen ulp sidr tcp:7181 "$VM_IP" timeout=5 retries=1
ulp_note "sidr 3 "
check sidr_to_rc_rejected ulp_is "sidr 3 " status 2
check req_to_sidr_listen ulp connect 1 udp:7174 "$VM_IP" timeout=5 retries=1
ulp_note "run 4 "
check req_to_sidr_rej_28 ulp_is "run 4 " rej_reasons 28:1
check rc_listen_holds_nothing ulp_is "listener X " live 0
check only_the_two_listens_ids ulp_is "live " ids 2
ulp_teardown "$res0"
suite_end
