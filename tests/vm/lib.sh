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

# vm_boot_state: what vm_reset returns to (init, before any scenario):
# the modules loaded and the filesystems mounted at boot, and the
# console's log level.
vm_boot_state() {
	VM_BOOT_MODULES=$(cut -d' ' -f1 /proc/modules)
	VM_BOOT_MOUNTS=$(cut -d' ' -f2 /proc/mounts)
	VM_BOOT_PRINTK=$(cut -f1 /proc/sys/kernel/printk)
}

# vm_reset: between two scenarios of one guest, the state it booted in,
# as far as a scenario can change it: no process but init, no RDMA
# device, nothing mounted since boot (configfs for nvmet), no module
# loaded since boot -- the NIC's too, so eth0 comes back from net_up as
# new, with no address, its link-local one and its sysctls as at boot
# (where the NIC is built in, its addresses are flushed and the link
# taken down) -- no trace event enabled, the boot's console level, and
# an empty kernel log buffer (so that a scenario's dmesg checks see its
# own messages only; the console the host reads has all of them).
# A module that stays loaded fails the guest (its "completed" case).
vm_reset() {
	kill -9 -1 2>/dev/null
	wait
	for _d in /sys/class/infiniband/*; do
		[ -e "$_d" ] && rdma link delete "${_d##*/}" 2>/dev/null
	done
	for _m in $(cut -d' ' -f2 /proc/mounts | grep -vxF "$VM_BOOT_MOUNTS" | sed -n '1!G;h;$p'); do
		umount "$_m" 2>/dev/null
	done
	if [ -e /sys/class/net/eth0 ]; then
		ip addr flush dev eth0 2>/dev/null
		ip link set eth0 down 2>/dev/null
	fi
	_tr=/sys/kernel/tracing
	[ -w $_tr/set_event ] && echo >$_tr/set_event && echo >$_tr/trace
	_pass=0
	while :; do
		_left=$(cut -d' ' -f1 /proc/modules | grep -vxF "$VM_BOOT_MODULES")
		[ -z "$_left" ] && break
		_pass=$((_pass + 1))
		if [ $_pass -gt 8 ]; then
			kmsg "pdcm-vm: between scenarios: still loaded: $(echo $_left)"
			break
		fi
		for _m in $_left; do rmmod "$_m" 2>/dev/null; done
	done
	dmesg -n "$VM_BOOT_PRINTK"
	dmesg -c >/dev/null
}

# vm_barrier N: between scenarios N and N+1 of a pair's guests, return
# once the peer (pdcmvm.peer) has reached its barrier N too, so that
# neither resets its end of the link and starts the next scenario while
# the other still runs this one.  Nothing polls: each guest listens on
# TCP port 5900+N (and waits until its listener is up), then connects
# once to the peer's.  A connect that succeeds means the peer is there;
# one that fails means the peer has not listened yet, so it will connect
# to this guest's listener when it comes, and this guest waits for that.
# 600 s at most, then the guest fails (its "completed" case).  The old
# way, the later guest connecting every 0.25 s through three new
# processes, took 35 % of a KASAN guest's CPU while it waited.
vm_barrier() {
	_port=$((5900 + $1))
	timeout 600 nc -l -p $_port </dev/null >/dev/null 2>&1 &
	_l=$!
	# its listener in LISTEN (0A) state, or already gone (the peer's connect
	# came first: it accepts one and exits); busybox's nc listens on the
	# IPv6 wildcard, so in tcp6 (a wait that looked in tcp only ran out at
	# every barrier: the line below now fails the guest for that)
	wait_for "grep -qE '^ *[0-9]+: [0-9A-F]+:$(printf '%04X' $_port) [0-9A-F]+:[0-9A-F]+ 0A ' \
		/proc/net/tcp6 /proc/net/tcp || ! kill -0 $_l" 10 ||
		kmsg "pdcm-vm: between scenarios: barrier $1: own listener on port $_port not up after 10 s"
	if nc -w 5 "$VM_PEER" $_port </dev/null >/dev/null 2>&1; then
		kill $_l 2>/dev/null
		wait $_l 2>/dev/null
		return 0
	fi
	wait $_l && return 0
	kmsg "pdcm-vm: between scenarios: the peer $VM_PEER never reached barrier $1"
	return 1
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

# Wait up to $2 seconds (default 10) for command $1 to succeed: it runs
# every 0.1 s for the first 2 s, every 0.5 s up to 10 s, then every second
# (a command of a few processes every 0.1 s took a fifth of a KASAN
# guest's CPU, taken from the work it waited for).
wait_for() {
	_i=0	# tenths of a second
	while ! eval "$1" >/dev/null 2>&1; do
		[ $_i -ge $((${2:-10} * 10)) ] && return 1
		if [ $_i -lt 20 ]; then
			sleep 0.1; _i=$((_i + 1))
		elif [ $_i -lt 100 ]; then
			sleep 0.5; _i=$((_i + 5))
		else
			sleep 1; _i=$((_i + 10))
		fi
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

# kv_delta "BEFORE" "AFTER": key=after-before for each key of two
# "key=value ..." snapshots of counters, in BEFORE's order
kv_delta() {
	echo "$1 $2" | awk '{
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			if (!(kv[1] in b)) { b[kv[1]] = kv[2]; o[++n] = kv[1] }
			else a[kv[1]] = kv[2]
		}
		for (i = 1; i <= n; i++)
			printf "%s%s=%d", (i > 1 ? " " : ""), o[i], a[o[i]] - b[o[i]]
	}'
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
