# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ib_pdcm's module parameters (Documentation/install.rst, "Parameters"):
# modinfo describes each, a value outside max_cm_retries' 0..15 is refused
# with a message naming the range and the module does not load, values in
# range load and read back; dump_mads is writable at run time, and
# max_cm_retries is not.  The cap works on the wire: a REQ that asks for
# 15 retries, sent to ourselves and dropped on arrival (test_drop_reqs),
# arrives 1 + 3 times with max_cm_retries=3, and then the connect fails.
P=/sys/module/ib_pdcm/parameters

loaded() { grep -q "^$1 " /proc/modules; }
described() {	# described NAME WORDS: modinfo's description of NAME has WORDS
	modinfo -F parm ib_pdcm | grep "^$1:" | grep -q -- "$2"
}
param_is() {	# param_is NAME VALUE
	_v=$(cat "$P/$1")
	[ "$_v" = "$2" ] || { echo "$1 is '$_v', expected '$2'"; return 1; }
}
param_is_file() {	# param_is_file FILE VALUE
	_v=$(cat "$1")
	[ "$_v" = "$2" ] || { echo "$1 is '$_v', expected '$2'"; return 1; }
}
refused() {	# refused VALUE: the load fails and says why
	dmesg -c >/dev/null
	modprobe ib_pdcm "max_cm_retries=$1" && { echo "loaded with $1"; return 1; }
	loaded ib_pdcm && { echo "left loaded"; return 1; }
	dmesg | grep -q "ib_pdcm: max_cm_retries=$1 refused: must be an integer 0..15" ||
		{ dmesg | tail -n 5; return 1; }
}
loads_with() {	# loads_with VALUE: loads, reads back VALUE, unloads
	modprobe ib_pdcm "max_cm_retries=$1" || return 1
	param_is max_cm_retries "$1" || return 1
	rmmod ib_pdcm
}

net_up
rxe_add rxe0 eth0
suite_begin params
check described_max_cm_retries described max_cm_retries "0..15"
check described_dump_mads described dump_mads "Hex-dump"
check typed_max_cm_retries sh -c "modinfo -F parmtype ib_pdcm | grep -qx max_cm_retries:uint"
check refuses_16 refused 16
check refuses_negative refused -1
check refuses_garbage refused abc
check loads_with_0 loads_with 0
check loads_with_15 loads_with 15
check loads_with_3 modprobe ib_pdcm max_cm_retries=3
check reads_back_3 param_is max_cm_retries 3
check claims_rxe0 wait_for "grep -q '^rxe0 1 claimed' /sys/kernel/debug/pdcm/ports" 5
check_not max_cm_retries_read_only sh -c "echo 5 >$P/max_cm_retries"
check still_3 param_is max_cm_retries 3
check dump_mads_default_off param_is dump_mads N
check dump_mads_writable sh -c "echo 1 >$P/dump_mads"
check dump_mads_on param_is dump_mads Y
check_not dump_mads_refuses_garbage sh -c "echo maybe >$P/dump_mads"
check dump_mads_off sh -c "echo 0 >$P/dump_mads"
check described_early_mra_pct described early_mra_pct "0..99"
check early_mra_pct_default param_is early_mra_pct 75
check_err early_mra_pct_refuses_100 "Invalid argument" sh -c "echo 100 >$P/early_mra_pct"
check early_mra_pct_writable sh -c "echo 0 >$P/early_mra_pct && [ \$(cat $P/early_mra_pct) = 0 ] && echo 75 >$P/early_mra_pct"
check described_max_pending_reqs described max_pending_reqs "64..1048576"
check max_pending_reqs_default param_is max_pending_reqs 16384
check_err max_pending_reqs_refuses_63 "Invalid argument" sh -c "echo 63 >$P/max_pending_reqs"
check max_pending_reqs_still_16384 param_is max_pending_reqs 16384
check described_wq_highpri described wq_highpri "default Y"
check wq_highpri_default param_is wq_highpri Y
check_not wq_highpri_read_only sh -c "echo N >$P/wq_highpri"
C=/sys/class/infiniband/rxe0/ports/1
U=/sys/kernel/debug/pdcm_ulp
check retries_ulp_loads modprobe pdcm_ulp
check drop_every_req sh -c "echo 100 >$P/test_drop_reqs"
check unanswered_req_sent sh -c "echo 'connect 1 tcp:7000 $VM_IP cm_timeout=16 retries=15' >$U/ctl"
check unanswered_req_failed grep -q '^conn 1 0 .* result=req_error ' $U/conns
check req_arrived_4_times param_is test_drop_reqs 96
check req_drops_counted_4 param_is_file $C/pdcm/rx_dropped 4
check req_retries_counted_3 param_is_file $C/cm_tx_retries/req 3
# as ib_cm's: every transmission, the first and the 3 retries (issue 12 defect 16)
check req_sent_counted_4_times param_is_file $C/cm_tx_msgs/req 4
# no REQ reached the listener's queue, so none was withdrawn (the counter is there)
check req_withdrawn_counted_0 param_is_file $C/pdcm/req_withdrawn 0
check stop_dropping sh -c "echo 0 >$P/test_drop_reqs"
check retries_ulp_unloads sh -c "echo reset >$U/ctl && rmmod pdcm_ulp"
check rmmod_ib_pdcm rmmod ib_pdcm
# default_backlog: the limit of a listen that asks for 0, 1..1048576
check described_default_backlog described default_backlog "1..1048576"
check_not default_backlog_0_refused modprobe ib_pdcm default_backlog=0
check default_backlog_0_says_why dmesg_has "default_backlog=0 refused: must be an integer 1..1048576"
check loads_with_backlog_2 modprobe ib_pdcm default_backlog=2
check backlog_reads_back_2 param_is default_backlog 2
check listen_takes_default sh -c "modprobe pdcm_ulp && echo 'listen A tcp:7000 any' >/sys/kernel/debug/pdcm_ulp/ctl"
check listen_limit_is_2 grep -q "backlog 0/2 flags" /sys/kernel/debug/pdcm/listens
check unload_ulp sh -c "echo reset >/sys/kernel/debug/pdcm_ulp/ctl && rmmod pdcm_ulp"
check rmmod_ib_pdcm_again rmmod ib_pdcm
suite_end
