# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench`, second part (Documentation/performance.rst): REQ dispatch
# among per-IP listeners on one port, in the real stacks.  Measured from
# the REQ's receive in the MAD layer (ib_mad:ib_mad_recv_done_handler, the
# same tracepoint under both CMs) to the listener's handler:
#
#   stock  Debian's ib_cm + rdma_cm, one rdma_listen() per IP
#          (cmdemux listen: rdma_cm's own demux picks the listener), up to
#          rdma_cma:cm_event_handler CONNECT_REQUEST
#   pdcm   one native pdcm listen per IP (the test ULP, mode=reject: the
#          RDMA CM header's destination address as the compare), up to
#          pdcm:pdcm_event REQ_RECEIVED
#
# The same REQs in both: `cmdemux connect` over rdma_cm (on pdcm's ib_cm
# drop-in in the pdcm slot), one at a time, round robin over the IPs, each
# answered with a REJ.  Both stacks are loaded and unloaded in turn, in
# alternating order each round.  Words: pdcmvm.demux_n=1,100,500 (listener
# counts; rxe's GID table has 1,024 entries and each IPv4 address takes
# two, RoCE v1 and v2), pdcmvm.demux_reqs=REQS, pdcmvm.bench_rounds=R.
# A measurement: the checks are only that each step runs and every REQ
# reaches its listener.
. /pdcm/scenarios/bench_conn_lib.sh

DX_NS=$(cmdline_word demux_n | tr , ' ')
DX_NS=${DX_NS:-1 100 500}
DX_REQS=$(cmdline_word demux_reqs)
DX_REQS=${DX_REQS:-200}
BC_CMS="stock pdcm"
DX_MAX=1
for n in $DX_NS; do [ "$n" -gt $DX_MAX ] && DX_MAX=$n; done

# the listener addresses: the first N of 10.0.1.1 ... 10.0.1.250, 10.0.2.1 ...
dx_ips() {
	_i=0
	while [ $_i -lt "$1" ]; do
		printf '10.0.%d.%d ' $((1 + _i / 250)) $((1 + _i % 250))
		_i=$((_i + 1))
	done
}

dx_addrs_up() {
	for _a in $(dx_ips $DX_MAX); do
		ip addr add "$_a/32" dev eth0 || return 1
	done
}

# dx_trace_on SYSTEM/EVENT FILTER: the MAD receive and the handler event
dx_trace_on() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 4096 >$T/buffer_size_kb
	echo 'mgmt_class == 7' >$T/events/ib_mad/ib_mad_recv_done_handler/filter
	echo 1 >$T/events/ib_mad/ib_mad_recv_done_handler/enable
	echo "$2" >"$T/events/$1/filter"
	echo 1 >"$T/events/$1/enable"
	echo 1 >$T/tracing_on
}

dx_trace_off() {
	echo 0 >$T/tracing_on
	for _e in ib_mad/ib_mad_recv_done_handler "$1"; do
		echo 0 >"$T/events/$_e/enable"
		echo 0 >"$T/events/$_e/filter"
	done
}

# dx_latency: from the trace, each REQ's receive paired with the handler
# event that follows it, in microseconds, sorted; "paired=P unpaired=U"
# and the percentiles on stdout
dx_latency() {
	grep -v '^#' $T/trace | awk '
		{
			e = ""
			for (i = 1; i < NF; i++)
				if ($i ~ /^[0-9]+\.[0-9]+:$/) {
					t = substr($i, 1, length($i) - 1)
					e = $(i + 1)
					break
				}
			if (e == "ib_mad_recv_done_handler:") {
				# a REQ (the raw big-endian attribute ID 0x0010)
				if ($0 ~ /attr_id 0x(1000|0010) /) {
					if (t0 != "") un++
					t0 = t
				}
			} else if (e != "") {
				if (t0 != "") { printf "%.1f\n", (t - t0) * 1000000; t0 = "" }
				else un++
			}
		}
		END { print "unpaired " un + 0 > "/tmp/dx.unpaired" }' | sort -n >/tmp/dx.lat
	awk -v u="$(cut -d' ' -f2 /tmp/dx.unpaired)" '
		{ v[NR] = $1; s += $1 }
		END {
			if (!NR) { print "paired=0 unpaired=" u; exit }
			printf "paired=%d unpaired=%d p10_us=%s median_us=%s p90_us=%s mean_us=%.1f\n",
				NR, u, v[int(NR * 0.1) + 1], v[int(NR / 2) + 1],
				v[int(NR * 0.9) + 1], s / NR
		}' /tmp/dx.lat
}

# dx_run CM ROUND N: N listeners on CM's stack, DX_REQS REQs, one line
dx_run() {
	_ips=$(dx_ips "$3")
	if [ "$1" = stock ]; then
		cmdemux listen $BC_PORT $_ips >/tmp/dx.listen 2>&1 &
		_lp=$!
		wait_for "grep -q '^cmdemux: listening' /tmp/dx.listen" 60 ||
			{ cat /tmp/dx.listen; kill $_lp; return 1; }
		_ev=rdma_cma/cm_event_handler _flt='event == 4'
	else
		_i=0
		for _a in $_ips; do
			ulp listen "D$_i" tcp:$BC_PORT "$_a" mode=reject || return 1
			_i=$((_i + 1))
		done
		_ev=pdcm/pdcm_event _flt='event == 1'
	fi
	dx_trace_on $_ev "$_flt"
	cmdemux connect "$DX_REQS" $BC_PORT $_ips >/tmp/dx.out 2>&1
	_rc=$?
	dx_trace_off $_ev
	if [ "$1" = stock ]; then
		kill $_lp
		wait $_lp 2>/dev/null
	else
		ulp reset
	fi
	_res=$(dx_latency)
	kmsg "bench_demux: cm=$1 round=$2 n=$3 reqs=$DX_REQS rc=$_rc" \
	     "$(sed -n 's/^cmdemux: n=[0-9]* //p' /tmp/dx.out) $_res"
	[ $_rc -eq 0 ] || { cat /tmp/dx.out; return 1; }
	# every REQ reached its listener and was paired with its receive
	case $_res in "paired=$DX_REQS unpaired=0 "*) ;; *) echo "$_res"; return 1 ;; esac
}

dx_slot() {
	[ "$2" = pdcm ] && { check "r$1_pdcm_ulp" modprobe pdcm_ulp || return; }
	# (rdma_cm is up in every slot: each address has its GIDs, or binds fail)
	[ "$1" = 1 ] && check "r1_$2_gids" wait_for "cmdemux bind $(dx_ips $DX_MAX)" 120
	for n in $DX_NS; do
		check "r$1_$2_$n" dx_run "$2" "$1" "$n"
	done
	[ "$2" = pdcm ] && check "r$1_pdcm_ulp_down" rmmod pdcm_ulp
}

net_up
rxe_add rxe0 eth0
suite_begin bench_demux
check listener_addresses dx_addrs_up
bc_rounds dx_slot
suite_end
