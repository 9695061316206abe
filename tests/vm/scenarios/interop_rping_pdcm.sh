# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, pdcm side of interop_rping_peer: the test ULP speaks rping.
#   1. rping server: a listener on tcp:7174 with a compare on this guest's
#      address; the peer's rping -c does 10 pings of 64 bytes: we RDMA
#      READ its source (checked against rping's pattern here), send "go",
#      RDMA WRITE it into its sink, send "go"; its DREQ, our DREP, our
#      timewait exit
#   2. rping client against the peer's rping -s: source and sink
#      registered with IB_WR_REG_MR, 10 pings each compared, our DREQ,
#      its DREP, our timewait exit
# pdcm's tracepoints are this side's wire transcript, on the console.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/interop_lib.sh

# rping_last: the number of the last "rping" record
rping_last() {
	grep '^rping ' $ULP/results | tail -n 1 | cut -d' ' -f2
}

# rping_ok ARGS...: one "rping" run; ok if it ended well
rping_ok() {
	ulp rping "$@" || return 1
	ulp_is "rping $(rping_last) " result ok
}

L="listener S "

net_up
rxe_add rxe0 eth0
suite_begin interop_rping_pdcm
ulp_setup
res0=$(rdma_res)
check enable_pdcm_events sh -c "echo 1 > $T/events/pdcm/enable"
check rping_listen ulp listen S tcp:7174 "$VM_IP" mode=rping
check_err rping_listen_twice "File exists" ulp listen S tcp:7174 "$VM_IP" mode=rping
check_err rping_size_too_small "Invalid argument" ulp rping tcp:7174 "$VM_PEER" size=25
# 1. the peer's rping client
check client_connected wait_for "[ \"\$(ulp_get '$L' established)\" = 1 ]" 90
check client_timewait wait_for "[ \"\$(ulp_get '$L' timewait)\" = 1 ]" 60
check one_req ulp_is "$L" reqs 1
# the REQ's responder resources became our QP's RDMA READ depth
check qp_max_rd_atomic_1 ulp_is "$L" rd_atomic 1
check served_10_pings ulp_is "$L" pings 10
check pattern_verified_10 ulp_is "$L" verified 10
check pattern_bad_0 ulp_is "$L" bad 0
check read_640_bytes ulp_is "$L" read 640
check written_640_bytes ulp_is "$L" written 640
check dreq_from_peer ulp_is "$L" dreq 1
check no_errors ulp_is "$L" errors 0
check conn_freed ulp_is "$L" live 0
ulp_note "$L"
# 2. our client; the peer's CM answers REJ 8 until its server listens
check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
check rping_run retry 90 rping_ok tcp:7174 "$VM_PEER" "$VM_IP" count=10 timeout=30
n=$(rping_last)
ulp_note "rping $n "
check rping_established ulp_is "rping $n " established 1
# the REQ granted the peer one RDMA READ into our QP, and the REP took it
check rping_qp_max_dest_rd_atomic_1 ulp_is "rping $n " dest_rd_atomic 1
check rping_10_pings ulp_is "rping $n " pings 10
check rping_10_verified ulp_is "rping $n " verified 10
check rping_bad_0 ulp_is "rping $n " bad 0
check rping_drep ulp_is "rping $n " drep 1
check rping_timewait ulp_is "rping $n " timewait 1
check mrs_freed ulp_is "live " mrs 0
echo 0 >$T/events/pdcm/enable
trace_to_console
for m in "rx REQ" "tx REP" "rx RTU" "rx DREQ" "tx DREP" "tx REQ" "rx REP" "tx RTU" "tx DREQ" "rx DREP"; do
	check "mad_${m% *}_${m#* }" grep -q "pdcm_mad: $m " /tmp/trace
done
ulp_teardown "$res0"
suite_end
