# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the shim_* scenarios, which drive pdcm_shim_test.ko through
# /sys/kernel/debug/pdcm_shim/ (Documentation/shims.rst, "Tested in a
# VM").  Sourced by them, not a scenario itself.
#
#   st CMD...               one ctl command; fails if the write fails
#   st_get PREFIX FIELD     FIELD=value of the first results line that
#                           starts with PREFIX ("sdp_conn 1 ")
#   st_is PREFIX FIELD V    that value is V (prints the line if not)
#   st_idle                 every "live" counter is 0
#   st_last PREFIX          the number of the last results line starting
#                           with PREFIX ("sdp_conn" -> 7)
. /pdcm/scenarios/ulp_lib.sh

ST=/sys/kernel/debug/pdcm_shim

st() {
	echo "$*" >"$ST/ctl"
}

st_get() { dbg_get "$ST" "$@"; }

st_is() { dbg_is "$ST" "$@"; }

st_idle() { dbg_idle "$ST"; }

st_note() { dbg_note "$ST" "$@"; }

st_last() { dbg_last "$ST" "$@"; }

# st_setup SUITE [ADDR...]: rxe0 with the ADDRs (default 10.0.0.11 and
# .12; $VM_IP alone: none) beside $VM_IP, each with its GID; pdcm, the
# shims, the driver.
st_setup() {
	_st_suite=$1
	shift
	[ $# -gt 0 ] || set -- 10.0.0.11 10.0.0.12
	echo 30 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
	net_up
	rxe_add rxe0 eth0
	suite_begin "$_st_suite"
	check load_ib_pdcm modprobe ib_pdcm
	check port_claimed wait_for "grep -q '^rxe0 1 claimed' /sys/kernel/debug/pdcm/ports" 5
	check load_shim_test modprobe pdcm_shim_test
	for a in "$@"; do
		[ "$a" = "$VM_IP" ] || ip addr add "$a/24" dev eth0
	done
	check gids_for_all_addresses wait_for "rxe_has_gids $VM_IP $*" 10
	res0=$(rdma_res)
}

# The shims that are loaded (their catch-all listens are pdcm ids).
st_rmmod_shims() {
	for m in pdcm_sdp pdcm_kdapl; do
		if grep -q "^$m " /proc/modules; then
			rmmod $m || return 1
		fi
	done
}

# Free everything, counters 0, every module out.
st_teardown() {
	check close st close
	check nothing_live wait_for st_idle 10
	check rdma_resources_back rdma_res_is "$res0"
	check rmmod_shim_test rmmod pdcm_shim_test
	check_not nothing_left_at_unload dmesg_has "left at unload"
	check rmmod_shims st_rmmod_shims
	check pdcm_holds_no_id wait_for pdcm_no_ids 5
	check rmmod_ib_pdcm rmmod ib_pdcm
	suite_end
}
