# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the interop_* scenarios: two guests, A (10.0.0.1) with the
# in-tree ib_cm/rdma_cm and rdma-core's tools, B (10.0.0.2) with pdcm and
# the test ULP.  Sourced by them, not a scenario itself.
#
#   retry N CMD...     run CMD until it exits 0, at most N times, 1 s
#                      apart; prints its last output.  Until the other
#                      guest listens its CM answers REJ 8 at once, so a
#                      retry is a cheap barrier (vm-harness.md section 4).
#                      The first failed attempt's exit status and output
#                      go to the console as "# retry_first: ..." notes.
#   note TAG TEXT      TEXT's lines on the console as "# TAG: ..."
#   trace_to_console   the tracefs buffer on the console, as "# trace: "

T=/sys/kernel/tracing

retry() {
	_n=$1 _first=1
	shift
	while :; do
		out=$("$@" 2>&1) && { echo "$out"; return 0; }
		_rc=$?
		# the first failure on the console (a "# retry_first:" note
		# before the case's result, so a FAIL shows it): a client
		# that fails after its server served it meets no server on
		# the next attempts, and only the first says why
		[ -z "$_first" ] ||
			note retry_first "$(printf '%s: exit %s\n' "$*" "$_rc"; printf '%s\n' "$out" | tail -n 30)"
		_first=
		_n=$((_n - 1))
		[ "$_n" -gt 0 ] || { echo "$out"; return 1; }
		sleep 1
	done
}

note() {
	_t=$1
	shift
	printf '%s\n' "$*" | while IFS= read -r l; do kmsg "    # $_t: $l"; done
}

trace_to_console() {
	grep -v '^#' $T/trace >/tmp/trace
	while IFS= read -r l; do kmsg "    # trace: $l"; done </tmp/trace
}

# cnt NAME: the port's CM counter NAME (cm_tx_msgs/req, pdcm/rx_dropped)
cnt() { cat "/sys/class/infiniband/rxe0/ports/1/$1"; }

# cnt_is NAME OP V: counter NAME compares (-eq, -ge, -gt) with V
cnt_is() {
	_v=$(cnt "$1")
	[ "$_v" "$2" "$3" ] && return 0
	echo "$1=$_v, expected $2 $3"
	return 1
}
