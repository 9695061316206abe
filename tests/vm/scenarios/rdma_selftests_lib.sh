# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The kernel's own RDMA selftests (tools/testing/selftests/rdma, 7.1 and
# later; initramfs.sh copies 7.3's with PDCM_SELFTESTS), run as kselftest
# runs them: each script of its Makefile's TEST_PROGS by bash, as root, 0
# passed, 4 (KSFT_SKIP) skipped, anything else failed.  rxe in two network
# namespaces joined by veth with rping between them, rping on a tun
# device, rxe's UDP socket per namespace, link removal by
# NETDEV_UNREGISTER, RDMA device names across namespaces, IPv6: the two
# rping scripts connect through rdma_cm and so through whichever ib_cm is
# loaded.  Sourced, not a scenario:
#   selftests_run   one case per script, then the CM's trace (pdcm's
#                   pdcm_mad or ib_cm's ib_cma events, enabled by the
#                   scenario) on the console as notes
ST=/pdcm/selftests
T=/sys/kernel/tracing

# the scripts, in TEST_PROGS order
selftests_list() {
	sed -n '/^TEST_PROGS/,/^$/p' $ST/rdma/Makefile | tr -d '\\' | tr ' \t' '\n\n' |
		grep '\.sh$'
}

# selftest SCRIPT: run it; its output (the scripts send stdout to
# /dev/null, so mostly stderr) in /tmp/SCRIPT.out, noted on failure
selftest() {
	_o=/tmp/$1.out
	PATH=$ST/bin:$PATH timeout 180 bash "$ST/rdma/$1" >"$_o" 2>&1
	_rc=$?
	case $_rc in
	0) return 0 ;;
	4) return 4 ;;
	esac
	echo "exit $_rc"
	cat "$_o"
	return 1
}

# static_nodes: the device nodes of modules.devname, as kmod static-nodes
# makes them at a system's boot (systemd-tmpfiles), so that opening one
# loads its module: rxe_test_NETDEV_UNREGISTER.sh opens /dev/net/tun
# without loading tun first
static_nodes() {
	while read -r _m _n _d; do
		case $_m in '#'* | '') continue ;; esac
		_t=${_d%%[0-9]*} _mm=${_d#?}
		mkdir -p "/dev/$(dirname "$_n")"
		[ -e "/dev/$_n" ] || mknod "/dev/$_n" "$_t" "${_mm%%:*}" "${_mm#*:}" || return 1
	done <"/lib/modules/$(uname -r)/modules.devname"
	test -c /dev/net/tun
}

selftests_run() {
	check selftests_copied test -f $ST/rdma/rxe_rping_between_netns.sh
	check static_dev_nodes static_nodes
	for _s in $(selftests_list); do
		_n=${_s%.sh}
		_out=$(selftest "$_s" 2>&1)
		case $? in
		0) _result ok "$_n" ;;
		4) skip "$_n" "$(tail -n 1 "/tmp/$_s.out")" ;;
		*) _result fail "$_n" ;;
		esac
	done
	echo 0 >$T/tracing_on
	grep -v '^#' $T/trace >/tmp/trace
	_c=$(wc -l </tmp/trace)
	kmsg "    # trace: $_c lines; the first 40:"
	head -n 40 /tmp/trace | while IFS= read -r l; do kmsg "    # trace: $l"; done
}

# traced PATTERN N: at least N lines of the CM's trace match PATTERN
traced() {
	_c=$(grep -c -- "$1" /tmp/trace)
	[ "$_c" -ge "$2" ] || { echo "'$1': $_c lines, expected $2 or more"; return 1; }
}
