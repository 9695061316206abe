# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `BENCH_SCALE=N make bench-conn` (Documentation/performance.rst): how many
# connections one guest holds pdcm-to-pdcm.  The test ULP opens N RC
# connections, in batches of pdcmvm.scale_batch (5,000) at once, over rxe
# loopback (both ends in this guest: 2N pdcm
# ids and 2N QPs) and keeps them (peer_disc=1: each waits for a DREQ the
# passive side never sends).  Once every RTU is out the memory is read;
# then "close" tears them all down (a DREQ each), and the scenario times
# the teardown and samples the ids in TIMEWAIT until none is left.  One
# line "bench_scale: key=value ..." carries the figures.  A measurement:
# the checks are only that each step completes.
. /pdcm/scenarios/bench_conn_lib.sh

N=$(cmdline_word scale_n)
: "${N:=50000}"
BATCH=$(cmdline_word scale_batch)
: "${BATCH:=5000}"
ST=/sys/kernel/debug/pdcm/conn_states

now_ms() { awk '{ printf "%d", $1 * 1000 }' /proc/uptime; }
meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# ids in state $1 (conn_states: "STATE count" lines, "total count")
ids_in() { awk -v s="$1" '$1 == s { n = $2 } END { print n + 0 }' $ST; }

# one console line: the port's counters and the ids by state
scale_progress() {
	_c=""
	for _f in cm_tx_msgs/req cm_rx_msgs/req cm_rx_duplicates/req cm_tx_msgs/rep \
		  cm_tx_msgs/rtu cm_tx_msgs/rej cm_tx_retries/req cm_tx_retries/rep \
		  pdcm/rx_dropped pdcm/backlog_dropped pdcm/backlog_rejected; do
		_c="$_c $(echo "$_f" | sed 's/^cm_//; s/_msgs//; s|/|_|')=$(cm_count $_f)"
	done
	kmsg "    # $1:$_c; ids: $(tr '\n' ' ' <$ST); $(grep '^listener S ' $ULP/results)"
}

# scale_wait COND SECONDS: poll COND once a second (a 0.1 s poll would
# take CPU from the connections it waits for)
scale_wait() {
	_w=0
	until eval "$1"; do
		_w=$((_w + 1))
		[ $_w -ge "$2" ] && return 1
		[ $((_w % 15)) -eq 0 ] && scale_progress "${_w} s"
		sleep 1
	done
}

# established K: K RTUs sent, or a run is over (its exit status is in a
# file: kill -0 would also find the zombie of a run that failed at once)
established() {
	[ $(($(cm_count cm_tx_msgs/rtu) - R0)) -ge "$1" ] || [ -e /tmp/scale.rc ]
}

net_up
rxe_add rxe0 eth0
echo 120 >/proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
suite_begin bench_scale
check up bc_up native
check listen ulp listen S tcp:$BC_PORT "$VM_IP" backlog="$N"
S0=$(meminfo_kb Slab) A0=$(meminfo_kb MemAvailable)
R0=$(cm_count cm_tx_msgs/rtu) Q0=$(cm_count cm_tx_retries/req)
# each run holds its connections until the close below: the longest a
# run may last (the test ULP's bound)
LIMIT=3600
T0=$(now_ms)
rm -f /tmp/scale.rc
# batches of B, each started when the one before is established (all at
# once, N = 50,000 on one vCPU collapses: Documentation/performance.rst)
DONE=0
while [ $DONE -lt "$N" ]; do
	B=$((N - DONE < BATCH ? N - DONE : BATCH))
	{
		ulp connect "$B" tcp:$BC_PORT "$VM_IP" 0 timeout=$LIMIT cm_timeout=20 \
			retries=15 peer_disc=1 >>/tmp/scale.out 2>&1
		echo $? >>/tmp/scale.rc
	} &
	DONE=$((DONE + B))
	scale_wait "established $DONE" $((120 + B / 10)) || break
	[ -e /tmp/scale.rc ] && break
done
check all_established established "$N"
T1=$(now_ms)
EST=$(($(cm_count cm_tx_msgs/rtu) - R0))
LIVE=$(ids_in ESTABLISHED)
S1=$(meminfo_kb Slab) A1=$(meminfo_kb MemAvailable)
kmsg "    # conn_states: $(tr '\n' ' ' <$ST)"
# the teardown: close aborts the runs (each active id sends a DREQ), then
# destroys the listener and its passive ids; the ids in TIMEWAIT are
# sampled while it runs and until every id is gone
T2=$(now_ms)
rm -f /tmp/scale.closed
{ ulp close; echo $? >/tmp/scale.closed; } &
TW=0
until [ -e /tmp/scale.closed ] && [ "$(ids_in total)" -eq 0 ]; do
	_t=$(ids_in TIMEWAIT)
	[ "$_t" -gt $TW ] && TW=$_t
	[ -e /tmp/scale.closed ] && [ -z "${T3:-}" ] && T3=$(now_ms)
	[ $(($(now_ms) - T2)) -gt 900000 ] && break
	sleep 0.5
done
wait
: "${T3:=$(now_ms)}"
check close test "$(cat /tmp/scale.closed)" = 0
T4=$(now_ms)
check all_ids_gone test "$(ids_in total)" -eq 0
kmsg "bench_scale: n=$N established=$EST live_ids=$LIVE connect_ms=$((T1 - T0))" \
     "cps=$([ $T1 -gt $T0 ] && echo $((EST * 1000 / (T1 - T0))) || echo 0)" \
     "req_retries=$(($(cm_count cm_tx_retries/req) - Q0))" \
     "slab_per_side=$([ $EST -gt 0 ] && echo $(((S1 - S0) * 1024 / (2 * EST))) || echo 0)" \
     "mem_per_side=$([ $EST -gt 0 ] && echo $(((A0 - A1) * 1024 / (2 * EST))) || echo 0)" \
     "close_ms=$((T3 - T2)) drain_ms=$((T4 - T3)) max_timewait_seen=$TW" \
     "slab_after_kb=$(($(meminfo_kb Slab) - S0))"
check every_connection_established test "$EST" -ge "$N"
check down retry 30 bc_down native
suite_end
