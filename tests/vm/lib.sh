# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Shell helpers for guest scenarios.  Results are KTAP, written to /dev/kmsg
# so that they interleave line-atomically with kernel messages on the
# console (the kernel is booted with printk.devkmsg=on: no rate limit).
#
#   suite_begin NAME        start a KTAP subtest (a "suite")
#   check NAME CMD...       one case: ok if CMD exits 0
#   check_not NAME CMD...   one case: ok if CMD exits non-zero (a condition
#                           that must not hold; for a refusal use check_err)
#   check_err NAME MSG CMD...  one case: ok if CMD exits non-zero and its
#                           output has MSG (an errno's text, "File exists")
#   skip NAME REASON        one case, skipped
#   suite_end               plan + suite result line
#   rxe_has_gids ADDR...    rxe0's GID table has these addresses

kmsg() {
	printf '%s\n' "$*" >/dev/kmsg
}

cmdline_word() {
	tr ' ' '\n' </proc/cmdline | sed -n "s/^pdcmvm\.$1=//p" | tail -n 1
}

_suite_no=0
suite_begin() {
	_suite=$1 _case_no=0 _suite_failed=0
	_suite_no=$((_suite_no + 1))
	kmsg "    # Subtest: $_suite"
}

# Report one result; diagnostics from $_out go out as "# " lines on failure.
_result() {
	_case_no=$((_case_no + 1))
	if [ "$1" = ok ]; then
		kmsg "    ok $_case_no $2"
	else
		_suite_failed=1
		printf '%s\n' "$_out" | tail -n 20 | while IFS= read -r l; do
			kmsg "    # $2: $l"
		done
		kmsg "    not ok $_case_no $2"
	fi
}

check() {
	_n=$1
	shift
	if _out=$("$@" 2>&1); then _result ok "$_n"; else _result fail "$_n"; fi
}

check_not() {
	_n=$1
	shift
	if _out=$("$@" 2>&1); then _out="unexpectedly succeeded: $_out"; _result fail "$_n"; else _result ok "$_n"; fi
}

check_err() {
	_n=$1 _m=$2
	shift 2
	if _out=$("$@" 2>&1); then
		_out="unexpectedly succeeded: $_out"
		_result fail "$_n"
	elif printf '%s\n' "$_out" | grep -qF -- "$_m"; then
		_result ok "$_n"
	else
		_out="failed, but not with '$_m': $_out"
		_result fail "$_n"
	fi
}

skip() {
	_case_no=$((_case_no + 1))
	kmsg "    ok $_case_no $1 # SKIP $2"
}

suite_end() {
	kmsg "    1..$_case_no"
	if [ "$_suite_failed" = 0 ]; then
		kmsg "ok $_suite_no $_suite"
	else
		kmsg "not ok $_suite_no $_suite"
	fi
}

# Bring up eth0 with $VM_IP and (optionally) soft-RoCE on it.
net_up() {
	for m in virtio_pci virtio_net crc32_generic; do
		modprobe -q $m 2>/dev/null
	done
	ip link set lo up
	ip addr add "$VM_IP/24" dev eth0
	ip link set eth0 up
}

# ibcm_load: ib_pdcm and the ib_cm drop-in (compat/ib_cm.ko) in place of
# the kernel's ib_cm.  The drop-in is outside the module tree
# (initramfs.sh), so it is loaded by path; a later modprobe of rdma_cm or
# rdma_ucm finds ib_cm loaded and uses it.
ibcm_load() {
	modprobe ib_pdcm && insmod /pdcm/ibcm/ib_cm.ko
}

rxe_add() {	# rxe_add NAME NETDEV
	modprobe rdma_rxe && rdma link add "$1" type rxe netdev "$2"
}

# rxe_gids: rxe0 port 1's GID entries in use, one per line.  Only the
# first 64 are read: entries are filled from the lowest index, and reading
# all of rxe's 1024 files takes about a second in an emulated guest.
rxe_gids() {
	for _i in $(seq 0 63); do
		cat /sys/class/infiniband/rxe0/ports/1/gids/$_i
	done 2>/dev/null | grep -v '^0000:0000:0000:0000:0000:0000:0000:0000$'
}

# rxe_has_gids ADDR...: rxe0 has a GID for each IPv4 ADDR (its IPv4-mapped
# form) or each full IPv6 GID (fd00:0000:...:0002).
rxe_has_gids() {
	_g=$(rxe_gids)
	for _a in "$@"; do
		case $_a in
		*:*) _p=$_a ;;
		*) _p=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
			$(echo "$_a" | tr . ' ')) ;;
		esac
		echo "$_g" | grep -qx "$_p" || return 1
	done
}

# Wait up to $2 seconds (default 10) for command $1 to succeed.
wait_for() {
	_i=0
	while ! eval "$1" >/dev/null 2>&1; do
		_i=$((_i + 1))
		[ $_i -ge $((${2:-10} * 10)) ] && return 1
		sleep 0.1
	done
}

dmesg_has() {
	dmesg | grep -q -- "$1"
}

dmesg_count() {	# dmesg_count PATTERN N: exactly N lines match
	_c=$(dmesg | grep -c -- "$1")
	[ "$_c" -eq "$2" ] || { echo "'$1': $_c lines, expected $2"; return 1; }
}

# A test module's debugfs pair DIR/ctl and DIR/results (tests/ulp,
# tests/shim): results has "key=value" fields, one object per line.
#   dbg_get DIR PREFIX FIELD   FIELD's value in the first line starting with PREFIX
#   dbg_is DIR PREFIX FIELD V  it is V (prints the line if not)
#   dbg_idle DIR               every field of the "live" line is 0
#   dbg_note DIR PREFIX        copy the lines starting with PREFIX to the console
#   dbg_last DIR KIND          the number of the last "KIND N ..." line
#                              (records of all kinds share one sequence)
# kv_get FILE PREFIX FIELD: FIELD's value (FIELD=value) in FILE's first line
# starting with PREFIX (also the hostile peer's output, hostile_lib.sh)
kv_get() {
	awk -v p="$2" -v f="$3" 'index($0, p) == 1 {
		for (i = 1; i <= NF; i++)
			if (index($i, f "=") == 1) {
				print substr($i, length(f) + 2)
				exit
			}
	}' "$1"
}

dbg_get() {
	kv_get "$1/results" "$2" "$3"
}

dbg_is() {
	_v=$(dbg_get "$1" "$2" "$3")
	[ "$_v" = "$4" ] && return 0
	echo "$2: $3=$_v, expected $4"
	grep "^$2" "$1/results"
	return 1
}

dbg_idle() {
	grep '^live ' "$1/results" | grep -q '=[1-9]' || return 0
	grep '^live ' "$1/results"
	return 1
}

dbg_last() {
	grep "^$2 " "$1/results" | tail -n 1 | cut -d' ' -f2
}

dbg_note() {
	grep "^$2" "$1/results" | while IFS= read -r l; do
		kmsg "    # $l"
	done
}
