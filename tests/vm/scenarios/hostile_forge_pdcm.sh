# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm side of hostile_forge_peer: forged REJ/DREQ/RTU/MRA/DREP/REP with a
# wrong sender comm ID are ignored and counted; the connections they aim
# at stay as they were and end normally.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/hostile_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin hostile_forge_pdcm
ulp_setup
res0=$(rdma_res)
check listen_l ulp listen L tcp:7471 "$VM_IP" mode=accept
check listen_p ulp listen P tcp:7472 "$VM_IP" mode=accept
check listen_s ulp listen S tcp:7478 "$VM_IP" mode=accept
ign0=$(pdcm_ignored)
check l_established wait_for "ulp_is 'listener L ' established 8" 120
check p_reqs wait_for "ulp_is 'listener P ' reqs 4" 30
# the forgeries come now; S's handshake says they are over
check forging_done wait_for "ulp_is 'listener S ' established 1" 60
ulp_note "listener "
check forged_rej_dreq_drep_ignored ulp_is "listener L " errors 0
check forged_dreq_no_disconnect ulp_is "listener L " disconnected 0
check forged_rtu_no_establish ulp_is "listener P " established 0
check forged_rej_p_ignored ulp_is "listener P " errors 0
check l_conns_live ulp_is "listener L " live 8
# 6 forged types x 12 conns, each ignored and counted
ign1=$(pdcm_ignored)
kmsg "    # ignored+duplicates: $ign0 -> $ign1"
check forged_counted sh -c "[ $((ign1 - ign0)) -ge 72 ]"
check listen_g ulp listen G tcp:7479 "$VM_IP" mode=accept
# now the real DREQs (L, S, G) and REJs (P)
check l_disconnected wait_for "ulp_is 'listener L ' disconnected 8" 60
check p_rejected wait_for "ulp_is 'listener P ' errors 4" 30
check l_no_errors ulp_is "listener L " errors 0
check l_timewait wait_for "ulp_is 'listener L ' live 0" 30
ulp_note "listener "
check pdcm_holds_only_live_ids wait_for "[ \$(pdcm_conns) -le 6 ]" 20
ulp_teardown "$res0"
suite_end
