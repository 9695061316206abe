# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm side of hostile_flood_peer: listener F (backlog 64) takes a flood of
# REQs that are never completed.  What pdcm and the ULP hold for it stays
# bounded by F's backlog, whatever the flood's size: at most 64 half-open
# connections (REQ_RCVD or REP_SENT), the rest refused or, once their
# REPs have gone unanswered for halfopen_evict_ms, evicting the oldest of
# them (pdcm/backlog_evicted); slab growth within 64 connections' worth.
# L, a second listen, keeps serving meanwhile, and F takes the peer's
# handshake after the flood.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/hostile_lib.sh

BACKLOG=64
net_up
rxe_add rxe0 eth0
suite_begin hostile_flood_pdcm
ulp_setup
res0=$(rdma_res)
check listen_l ulp listen L tcp:7471 "$VM_IP" mode=accept
check listen_f ulp listen F tcp:7480 "$VM_IP" mode=accept backlog=$BACKLOG
check listen_s ulp listen S tcp:7478 "$VM_IP" mode=accept
echo 3 >/proc/sys/vm/drop_caches
slab0=$(slab_kb)
t0=$(date +%s)
check flood_over wait_for "ulp_is 'listener S ' established 1" 900
t1=$(date +%s)
slab1=$(slab_kb)
ids=$(pdcm_conns)
flive=$(ulp_get 'listener F ' live)
C=$PORTDIR
kmsg "    # flood: $((t1 - t0)) s; slab ${slab0} kB -> ${slab1} kB (+$((slab1 - slab0)) kB); pdcm ids $ids; F live $flive; reqs rx $(cnt cm_rx_msgs/req), rep tx $(cnt cm_tx_msgs/rep), rej tx $(cnt cm_tx_msgs/rej), backlog dropped $(cnt pdcm/backlog_dropped) rejected $(cnt pdcm/backlog_rejected) evicted $(cnt pdcm/backlog_evicted)"
ulp_note "listener "
check half_open_bounded_by_backlog sh -c "[ $flive -le $BACKLOG ]"
# F's half-open ones, L's probes and the barriers
check pdcm_ids_bounded sh -c "[ $ids -le $((BACKLOG + 20)) ]"
# 64 connections with their QPs and buffers, and slack for the rest
check slab_growth_bounded sh -c "[ $((slab1 - slab0)) -le $((BACKLOG * 160 + 16384)) ]"
check l_served ulp_ge "listener L " established 2
check l_no_errors ulp_is "listener L " errors 0
check f_evicted_some cnt_is pdcm/backlog_evicted -ge 1
check f_served_after_flood ulp_ge "listener F " established 1
# F's REPs were re-sent while nobody answered; once they are all over,
# cm_tx_msgs/rep counts every transmission, as ib_cm's does (issue 12
# defect 16): one REP per delivered REQ plus cm_tx_retries/rep
# A REP's re-sends are counted when the send completes, after its last
# try.  The flood's REQs ask for a CM response timeout of 2^20 * 4.096 us
# (4.3 s) and 15 retries, so the REPs posted before the flood ended have
# all completed 16 * 4.3 s = 69 s after it; a fast flood (2 s) ends long
# before the first one does.  Wait for that span, with slack.
REP_SPAN=$((16 * ((4096 << 20) / 1000000000 + 1)))
check rep_retries_happened wait_for "cnt_is cm_tx_retries/rep -ge 1" $((REP_SPAN + 30))
reps=$(($(ulp_get 'listener L ' reqs) + $(ulp_get 'listener F ' reqs) + $(ulp_get 'listener S ' reqs)))
check close_all ulp close
check all_closed ulp_wait_idle 30
tx_counts_retries() {
	_t=$(cnt cm_tx_msgs/rep) _r=$(cnt cm_tx_retries/rep)
	[ "$_t" -eq $((reps + _r)) ] && return 0
	echo "cm_tx_msgs/rep=$_t, expected $reps REPs + $_r retries"
	return 1
}
check tx_counts_retries tx_counts_retries
ulp_teardown "$res0"
suite_end
