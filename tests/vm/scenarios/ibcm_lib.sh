# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the ibcm_* scenarios: Debian's own rdma_cm, rdma_ucm and
# rdma-core tools on top of the ib_cm drop-in (compat/ib_cm.ko on pdcm),
# or on the stock ib_cm for the other end.  Sourced, not a scenario.
#
#   ibcm_stack pdcm|stock   load rdma_ucm on the drop-in or on the stock
#                           ib_cm (one case each step)
#   tool_server TOOL        run TOOL's server role for one client (or, for
#                           cmtime, until tool_done), for SERVER_TMO
#                           seconds at most (120); output in
#                           /tmp/TOOL.server, exit status in /tmp/TOOL.server.rc
#   tool_client TOOL PEER [HOST]  run TOOL's client role against PEER,
#                           retrying while PEER's CM rejects (nothing
#                           listens yet), at most CLIENT_TRIES (60) times;
#                           HOST (default PEER) says when its server is up
#   tool_checks TOOL ROLE   the cases on what ROLE of TOOL printed
#   TOOLS                   the tools, in the order both sides run them
#   ucmatose_tos            (a tool of ibcm_pair only) ucmatose whose client
#                           asks for traffic class 0x68 (DSCP 26): rocetos
#                           counts the RoCE packets each side sends and
#                           receives, by IP TOS, while it runs
#   ecetest                 (likewise) one connection carrying ECE options
#                           both ways (tests/wire/ecetest.c)
. /pdcm/scenarios/interop_lib.sh

TOOLS="rping ucmatose udaddy rdma_server rstream cmtime"

# rstream's rsockets traffic finds memory bugs in the kernel's rxe, not in
# pdcm: KASAN reports a slab-out-of-bounds read in rxe_mr_copy() on the
# 6.1 KUnit kernel, and a 6.12 guest took a double fault in rxe's receive
# path (Documentation/ibcm.rst).  It runs on the 6.1 stock kernel only; both
# guests of a pair run the same kernel, so they agree.
rstream_skipped() {
	[ "$(cat /pdcm/kernel-kind)" = kunit ] && return 0
	case $(uname -r) in 6.12*) return 0 ;; esac
	return 1
}
RSTREAM_WHY="rxe memory bugs under rsockets on this kernel (rxe, not pdcm)"
SYNC_PORT=7999		# busybox nc: cmtime's client tells the server it is done
READY_PORT=7996		# busybox nc: a server tells the client it listens

ibcm_stack() {
	if [ "$1" = pdcm ]; then
		check ibcm_dropin_loads ibcm_load
		check ibcm_on_pdcm test -e /sys/module/ib_pdcm/holders/ib_cm
	else
		check stock_ib_cm_loads modprobe ib_cm
		check_not stock_ib_cm_not_on_pdcm test -e /sys/module/ib_pdcm
	fi
	check rdma_ucm_loads modprobe rdma_ucm
	check rdma_cm_on_ib_cm test -e /sys/module/ib_cm/holders/rdma_cm
	check_not no_symbol_version_errors dmesg_has "disagrees about version"
	check_not no_unknown_symbols dmesg_has "Unknown symbol"
}

_server_cmd() {
	case $1 in
	rping) echo "rping -s -v -V -C 10 -S 64 -a $VM_IP -p 7471" ;;
	ucmatose) echo "ucmatose -b $VM_IP -c 4 -C 20 -S 1000" ;;
	udaddy) echo "udaddy -b $VM_IP -c 2 -C 10 -S 100" ;;
	rdma_server) echo "rdma_server -s $VM_IP" ;;
	rstream) echo "rstream -b $VM_IP -S 65536 -C 100 -T v" ;;
	cmtime) echo "cmtime -b $VM_IP -c 10" ;;
	ucmatose_tos) echo "ucmatose -b $VM_IP -c 1 -C 10 -S 1000" ;;
	ecetest) echo "ecetest -s $VM_IP" ;;
	rdsecho) echo "rds_run -s $VM_IP -n 100" ;;
	esac
}

# The traffic class the ucmatose_tos client asks for (rdma_set_option's
# TOS: DSCP 26, AF31), which both ends' connection traffic must carry: the
# client's QP from its route, the server's from the REQ's path (ib_cm's
# rule; issue 34 #1: pdcm's passive QP used the received packet's, 0).
TOS=0x68

# One client run's bound: a few seconds normally; under TCG on a machine
# busy with other guests a run of 40 s was seen cut off after it had
# talked to the server, whose next runs then all met REJ 8 (it had gone).
CLIENT_TMO=90

_client_cmd() {
	case $1 in
	rping) echo "timeout $CLIENT_TMO rping -c -v -V -C 10 -S 64 -a $2 -p 7471" ;;
	ucmatose) echo "timeout $CLIENT_TMO ucmatose -s $2 -c 4 -C 20 -S 1000" ;;
	udaddy) echo "timeout $CLIENT_TMO udaddy -s $2 -c 2 -C 10 -S 100" ;;
	rdma_server) echo "timeout $CLIENT_TMO rdma_client -s $2" ;;
	rstream) echo "timeout $CLIENT_TMO rstream -s $2 -S 65536 -C 100 -T v" ;;
	cmtime) echo "cmtime_ok -s $2 -c 10" ;;
	ucmatose_tos) echo "timeout $CLIENT_TMO ucmatose -s $2 -t $TOS -c 1 -C 10 -S 1000" ;;
	ecetest) echo "timeout $CLIENT_TMO ecetest -c $2" ;;
	rdsecho) echo "rds_run -c $VM_IP $2 -n 100" ;;
	esac
}

# tos_start ROLE / tos_stop ROLE: rocetos on eth0 around ucmatose_tos's
# run, its counts in /tmp/ucmatose_tos.ROLE.tos
tos_start() {
	rocetos eth0 300 >"/tmp/ucmatose_tos.$1.tos" 2>&1 &
	_tos_pid=$!
	wait_for "grep -q listening /tmp/ucmatose_tos.$1.tos" 10
}

tos_stop() {
	kill -TERM $_tos_pid 2>/dev/null
	wait $_tos_pid 2>/dev/null
}

# tos_only FILE DIR: DIR's (out or in) connection traffic in FILE all
# carries TOS, and there is some
tos_only() {
	grep -q "^$2 data tos $TOS packets" "$1" &&
		! grep "^$2 data tos" "$1" | grep -qv " tos $TOS " && return 0
	cat "$1"
	return 1
}

# cmtime exits 0 even when its connections are rejected (nothing listens
# yet): a run is good only without a REJECTED or error event.
cmtime_ok() {
	_o=$(timeout $CLIENT_TMO cmtime "$@" 2>&1)
	_r=$?
	echo "$_o"
	[ $_r -eq 0 ] && ! echo "$_o" | grep -q "event: RDMA_CM_EVENT_\|error"
}

# rds_run ARGS: rdsecho (tests/wire/rdsecho.c) with rds_rdma loaded: RDS
# over the RDMA transport, whose connections rdma_cm makes (port 18634);
# a function, so the bound is inside
rds_run() {
	modprobe rds_rdma || return 1
	timeout $CLIENT_TMO rdsecho "$@"
}

have_rds() {
	find "/lib/modules/$(uname -r)" -name 'rds_rdma.ko*' | grep -q .
}

tool_server() {
	_f=/tmp/$1.server
	if [ "$1" = cmtime ]; then
		# never exits by itself: until the client says it is done
		$(_server_cmd cmtime) >"$_f" 2>&1 &
		_p=$!
		timeout 120 nc -l -p $SYNC_PORT >/dev/null 2>&1
		kill $_p 2>/dev/null
		wait $_p 2>/dev/null
		echo 0 >"$_f.rc"
		return 0
	fi
	[ "$1" = ucmatose_tos ] && tos_start server
	$(_server_cmd "$1") >"$_f" 2>&1 &
	_p=$!
	# let the client start only once this server listens: a client of
	# several connections that meets REJ 8 for some of them and reaches
	# the server with others fails both sides (ucmatose -c 4)
	sleep 1
	echo ready | timeout 120 nc -l -p $READY_PORT >/dev/null 2>&1
	_i=0
	while kill -0 $_p 2>/dev/null && [ $_i -lt $((${SERVER_TMO:-120} * 10)) ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill $_p 2>/dev/null
	wait $_p
	echo $? >"$_f.rc"
	[ "$1" = ucmatose_tos ] && tos_stop
	return 0
}

tool_client() {
	_f=/tmp/$1.client
	[ "$1" = cmtime ] || wait_for "nc ${3:-$2} $READY_PORT </dev/null" 120
	[ "$1" = ucmatose_tos ] && tos_start client
	# again while the server says REJ 8 (not listening yet: the tools
	# print RDMA_CM_EVENT_REJECTED or "Connection refused"), but not after
	# a run that got through and failed later, nor one that timed out:
	# that one may have used the server up, and the next tool's server may
	# listen on the same port by then (an rping client whose last
	# completion lost the race with the server's DREQ on a loaded machine
	# then ran 60 more times against ucmatose's server)
	_i=${CLIENT_TRIES:-60}
	while :; do
		_o=$($(_client_cmd "$1" "$2") 2>&1)
		_rc=$?
		[ $_rc -eq 0 ] && break
		[ $_rc -eq 124 ] && { _o="$_o
(timed out after $CLIENT_TMO s)"; break; }
		echo "$_o" | grep -qE 'REJECTED|Connection refused' || break
		_i=$((_i - 1))
		[ $_i -gt 0 ] || break
		sleep 1
	done
	echo "$_o" >"$_f"
	echo $_rc >"$_f.rc"
	[ "$1" = ucmatose_tos ] && tos_stop
	if [ "$1" = cmtime ]; then
		# tell the server side, until it listens
		_i=0
		while ! echo done | nc "$2" $SYNC_PORT >/dev/null 2>&1; do
			_i=$((_i + 1))
			[ $_i -ge 30 ] && break
			sleep 1
		done
	fi
	return $_rc
}

# count FILE PATTERN N: exactly N lines of FILE match PATTERN
count() {
	_c=$(grep -c -- "$2" "$1")
	[ "$_c" -eq "$3" ] && return 0
	echo "$_c lines match '$2', expected $3"
	cat "$1"
	return 1
}

_rc_is_0() { [ "$(cat "$1.rc")" = 0 ] || { cat "$1"; return 1; }; }

tool_checks() {
	tk_tool=$1 tk_role=$2 tk_f=/tmp/$1.$2
	note "$tk_tool.$tk_role" "$(cat "$tk_f")"
	[ "$tk_tool.$tk_role" = cmtime.server ] ||
		check "${tk_tool}_${tk_role}_exit_0" _rc_is_0 "$tk_f"
	case $tk_tool.$tk_role in
	rping.client)
		check rping_client_10_pings_verified count "$tk_f" "^ping data: rdma-ping-" 10
		check rping_client_last_ping count "$tk_f" "^ping data: rdma-ping-9: JKLMNOPQ" 1 ;;
	rping.server)
		check rping_server_10_pings count "$tk_f" "^server ping data: rdma-ping-" 10 ;;
	ucmatose.*|udaddy.*)
		check "${tk_tool}_${tk_role}_test_complete" grep -q "test complete" "$tk_f"
		check "${tk_tool}_${tk_role}_data_complete" grep -q "data transfers complete" "$tk_f" ;;
	ucmatose_tos.*)
		note "$tk_tool.$tk_role.tos" "$(cat "$tk_f.tos")"
		check "${tk_tool}_${tk_role}_test_complete" grep -q "test complete" "$tk_f"
		check "${tk_tool}_${tk_role}_sends_tos" tos_only "$tk_f.tos" out
		check "${tk_tool}_${tk_role}_receives_tos" tos_only "$tk_f.tos" in ;;
	ecetest.server)
		# the client's options arrived with its REQ (issue 34 #12)
		check ece_server_got_clients grep -q "^remote_ece vendor_id=0x0002c9 options=0x1234567$" "$tk_f" ;;
	ecetest.client)
		# the server's options with the REP; librdmacm's accept answers
		# with the requester's vendor ID (ECE's rule), so it is ours
		check ece_client_got_servers grep -q "^remote_ece vendor_id=0x0002c9 options=0x7654321$" "$tk_f" ;;
	rdsecho.*)
		# 100 numbered 4 KiB datagrams, each echoed and compared
		check "rds_${tk_role}_100_messages" grep -q "^rdsecho: 100 messages ok$" "$tk_f" ;;
	rdma_server.client)
		check rdma_client_end_0 grep -q "rdma_client: end 0" "$tk_f" ;;
	rdma_server.server)
		check rdma_server_end_0 grep -q "rdma_server: end 0" "$tk_f" ;;
	rstream.*)
		# 100 transfers of 64 KiB, verified (-T v)
		check "rstream_${tk_role}_64k_x100" grep -q "^custom  *64k  *100 " "$tk_f" ;;
	cmtime.client)
		check cmtime_client_connect_step grep -q "^connect *:" "$tk_f"
		check_not cmtime_client_no_rejects grep -q "RDMA_CM_EVENT_REJECTED" "$tk_f" ;;
	esac
}

# cm_count DIR/COUNTER: the port's counter (pdcm and ib_cm both have them)
cm_count() {
	cat "/sys/class/infiniband/rxe0/ports/1/$1" 2>/dev/null || echo 0
}

cm_counters_note() {
	for _m in req rep rtu rej mra dreq drep sidr_req sidr_rep; do
		kmsg "    # cm $_m: tx $(cm_count cm_tx_msgs/$_m) rx $(cm_count cm_rx_msgs/$_m) retries $(cm_count cm_tx_retries/$_m)"
	done
}

# ibcm_pair FIRST: two guests, every tool with this guest in role FIRST
# (server or client), then every tool the other way round.  A server
# serves one client and exits, and a client retries while nothing
# listens, so the two sides need no other synchronisation.
ibcm_pair() {
	check peer_reachable wait_for "ping -c1 -W1 $VM_PEER" 30
	for pr_role in $1 $( [ "$1" = server ] && echo client || echo server); do
		for pr_t in $TOOLS ucmatose_tos ecetest rdsecho; do
			if [ $pr_t = rdsecho ] && ! have_rds; then
				skip "rdsecho_${pr_role}_exit_0" "no rds_rdma in this kernel"
				skip "rds_${pr_role}_100_messages" "no rds_rdma in this kernel"
				continue
			fi
			if [ $pr_t = rstream ] && rstream_skipped; then
				skip "rstream_${pr_role}_exit_0" "$RSTREAM_WHY"
				skip "rstream_${pr_role}_64k_x100" "$RSTREAM_WHY"
				continue
			fi
			if [ "$pr_role" = server ]; then
				tool_server $pr_t
			else
				tool_client $pr_t "$VM_PEER"
			fi
			tool_checks $pr_t $pr_role
		done
	done
	cm_counters_note
	# 17 connections each way (rping 1, ucmatose 4, rdma_server 1,
	# rstream 1, cmtime 10), two SIDR exchanges each way
	pr_n=17
	rstream_skipped && pr_n=16
	check cm_rep_17_each_way sh -c "[ $(cm_count cm_tx_msgs/rep) -ge $pr_n ] && [ $(cm_count cm_rx_msgs/rep) -ge $pr_n ]"
	check cm_sidr_both_ways sh -c "[ $(cm_count cm_tx_msgs/sidr_rep) -ge 2 ] && [ $(cm_count cm_rx_msgs/sidr_rep) -ge 2 ]"
	# let the last MADs (DREPs) leave before the guest stops
	sleep 2
}
