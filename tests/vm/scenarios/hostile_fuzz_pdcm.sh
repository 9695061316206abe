# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm side of hostile_fuzz_peer, on the KUnit kernel: listener L
# (accept), a SIDR listen on the fuzzer's UDP service ID, and S, the
# peer's "done" barrier.  After the fuzz and the peer's last handshake and
# DREQ: every id goes, nothing leaks (ULP objects, verbs resources, pdcm
# ids), the module unloads; console_clean catches any KASAN report,
# lockdep splat or warning (panic_on_warn would end the guest first).
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/hostile_lib.sh

net_up
rxe_add rxe0 eth0
suite_begin hostile_fuzz_pdcm
ulp_setup
res0=$(rdma_res)
check listen_l ulp listen L tcp:7471 "$VM_IP" mode=accept
check listen_s ulp listen S tcp:7478 "$VM_IP" mode=accept
check sidr_listen ulp sidr_listen udp:7471
slab0=$(slab_kb)
t0=$(date +%s)
check fuzz_over wait_for "ulp_is 'listener S ' established 1" 3000
t1=$(date +%s)
check disconnect_after wait_for "ulp_ge 'listener S ' disconnected 1" 60
C=$PORTDIR
kmsg "    # fuzz: $((t1 - t0)) s; slab ${slab0} kB -> $(slab_kb) kB; pdcm ids $(pdcm_conns); rx malformed $(cnt pdcm/rx_malformed) dropped $(cnt pdcm/rx_dropped)"
for g in cm_rx_msgs cm_tx_msgs cm_rx_duplicates; do
	kmsg "    # $g: $(cd $C/$g && for a in *; do printf '%s=%s ' $a $(cat $a); done)"
done
ulp_note "listener "
ulp_note "sidr_listener "
check l_served_after ulp_ge "listener L " established 9
ulp_teardown "$res0"
suite_end
