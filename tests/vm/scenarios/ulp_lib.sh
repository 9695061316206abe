# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the ulp_* scenarios, which drive the test ULP pdcm_ulp.ko
# through /sys/kernel/debug/pdcm_ulp/ (Documentation/testing.rst, "Test
# ULP").  Sourced by them, not a scenario itself.
#
#   ulp CMD...               one ctl command; fails if the write fails
#   ulp_get PREFIX FIELD     FIELD=value of the first results line that
#                            starts with PREFIX ("run 1 ", "listener A ")
#   ulp_is PREFIX FIELD V    that value is V (prints the line if not)
#   ulp_ge PREFIX FIELD N    that value is at least N
#   ulp_req_addrs L SRC DST  listener L's last REQ carried SRC (host only:
#                            the source port is the sender's) and DST
#                            (host:port), as pdcm parsed them
#   ulp_idle                 every "live" counter is 0
#   ulp_wait_idle [S]        ... within S seconds (default 10)
#   ulp_note PREFIX          copy matching results lines to the console
#   ulp_last KIND            the number of the last "run"/"sidr"/... record
#   rdma_res                 rxe0's restrack counts (pd, cq, qp, mr, ...)

ULP=/sys/kernel/debug/pdcm_ulp

ulp() {
	echo "$*" >"$ULP/ctl"
}

ulp_get() { dbg_get "$ULP" "$@"; }

ulp_is() { dbg_is "$ULP" "$@"; }

ulp_ge() {
	_v=$(ulp_get "$1" "$2")
	[ -n "$_v" ] && [ "$_v" -ge "$3" ] && return 0
	echo "$1: $2=$_v, expected at least $3"
	grep "^$1" "$ULP/results"
	return 1
}

ulp_req_addrs() {
	_s=$(ulp_get "listener $1 " req_src) _d=$(ulp_get "listener $1 " req_dst)
	case $2 in
	*:*) _h="[$2]" ;;
	*) _h=$2 ;;
	esac
	case $_s in
	"$_h":[0-9]*) ;;
	*) echo "listener $1: req_src=$_s, expected $_h:PORT"; return 1 ;;
	esac
	[ "$_d" = "$3" ] && return 0
	echo "listener $1: req_dst=$_d, expected $3"
	return 1
}

ulp_idle() { dbg_idle "$ULP"; }

ulp_wait_idle() {
	wait_for ulp_idle "${1:-10}" || ulp_idle
}

ulp_note() { dbg_note "$ULP" "$@"; }

ulp_last() { dbg_last "$ULP" "$@"; }

rdma_res() {
	rdma resource show 2>&1 | sed -n 's/^[0-9]*: \(rxe0: \)/\1/p'
}

# Bring up rxe0 with pdcm and the ULP, as checks of the running suite.
# A task stuck in D state (a destroy that never returns) is reported after
# 30 s instead of 120, and then fails console_clean.
ulp_setup() {
	echo 30 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	check load_ib_pdcm modprobe ib_pdcm
	check port_claimed wait_for "grep -q '^rxe0 1 claimed' /sys/kernel/debug/pdcm/ports" 5
	check load_pdcm_ulp modprobe pdcm_ulp
}

# pdcm itself keeps no id: its debugfs list has only the header line.
pdcm_no_ids() {
	[ "$(wc -l </sys/kernel/debug/pdcm/connections)" -eq 1 ]
}

# rxe0's restrack counts are $1 (the verbs objects are really gone).
rdma_res_is() {
	_r=$(rdma_res)
	[ "$_r" = "$1" ] && return 0
	echo "now:    $_r"
	echo "before: $1"
	return 1
}

# Close everything and unload both modules cleanly, as checks; $1 is
# rdma_res from before the scenario made anything.
ulp_teardown() {
	check close ulp close
	check nothing_live ulp_wait_idle
	check rdma_resources_back rdma_res_is "$1"
	check rmmod_pdcm_ulp rmmod pdcm_ulp
	check_not nothing_left_at_unload dmesg_has "left at unload"
	check pdcm_holds_no_id wait_for pdcm_no_ids 5
	check rmmod_ib_pdcm rmmod ib_pdcm
}
