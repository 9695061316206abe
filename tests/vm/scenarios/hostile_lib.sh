# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the hostile_* scenarios: two guests, A (10.0.0.1) running
# the hostile CM peer tests/hostile/cmhostile over ib_umad (no ib_cm: it
# owns the CM class itself), B (10.0.0.2) with pdcm and the test ULP
# (Documentation/robustness.rst).  Sourced by them, not a scenario itself.
#
#   hostile_up              A: eth0, rxe0, ib_umad; the peer answers ping
#   hostile SCRIPT          A: run cmhostile on the script text; its output
#                           goes to /tmp/hostile.out and the console
#   hval LINE FIELD         FIELD=value of cmhostile's first output line
#                           starting with LINE
#   hval_is LINE FIELD V    ... is V;  hval_ge LINE FIELD N  ... >= N
#   (port counters: interop_lib.sh's cnt and cnt_is)
#   pdcm_ignored            B: rx_dropped plus every cm_rx_duplicates
#                           counter: what pdcm received and did nothing with
#   slab_kb                 B: Slab: of /proc/meminfo, in kB
#   pdcm_conns              B: the ids pdcm holds (debugfs connections)

. /pdcm/scenarios/interop_lib.sh

hostile_up() {
	net_up
	rxe_add rxe0 eth0
	check ib_umad modprobe ib_umad
	check no_ib_cm sh -c '! grep -q "^ib_cm " /proc/modules'
	check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 60
}

hostile() {
	printf '%s\n' "$1" | timeout "${HOSTILE_TIMEOUT:-600}" cmhostile -d rxe0 -p 1 \
		-s "$VM_IP" -g "$VM_PEER" >/tmp/hostile.out 2>/tmp/hostile.err
	_rc=$?
	note hostile "$(cat /tmp/hostile.out)"
	[ -s /tmp/hostile.err ] && note hostile_err "$(tail -n 20 /tmp/hostile.err)"
	return $_rc
}

hval() {
	kv_get /tmp/hostile.out "$1 " "$2"
}

hval_is() {
	_v=$(hval "$1" "$2")
	[ "$_v" = "$3" ] && return 0
	echo "$1: $2=$_v, expected $3"
	return 1
}

hval_ge() {
	_v=$(hval "$1" "$2")
	[ -n "$_v" ] && [ "$_v" -ge "$3" ] && return 0
	echo "$1: $2=$_v, expected at least $3"
	return 1
}

hval_le() {
	_v=$(hval "$1" "$2")
	[ -n "$_v" ] && [ "${_v%.*}" -le "$3" ] && return 0
	echo "$1: $2=$_v, expected at most $3"
	return 1
}

PORTDIR=/sys/class/infiniband/rxe0/ports/1

pdcm_ignored() {
	cat "$PORTDIR/pdcm/rx_dropped" "$PORTDIR"/cm_rx_duplicates/* |
		awk '{ s += $1 } END { print s + 0 }'
}

slab_kb() {
	awk '/^Slab:/ { print $2 }' /proc/meminfo
}

pdcm_conns() {
	echo $(($(wc -l </sys/kernel/debug/pdcm/connections) - 1))
}
