# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the bench_conn* scenarios (`make bench-conn`,
# Documentation/performance.rst): rdma-core's cmtime on the stock ib_cm
# and on pdcm's ib_cm drop-in, and the test ULP's "connect" on pdcm
# natively.  Sourced, not a scenario.  Every measurement is one console
# line "bench_conn: key=value ..." that scripts/bench-conn.sh reads.
#
#   bc_up CM / bc_down CM   load / unload a stack: stock (the kernel's
#                           ib_cm + rdma_ucm), pdcm (ib_pdcm, the drop-in,
#                           rdma_ucm) or native (ib_pdcm, pdcm_ulp)
#   bc_server_start/_stop   a cmtime server on $VM_IP (warmed up)
#   bc_cmtime CM R N PEER   one cmtime client run of N connections to PEER
#   bc_native R N           one test-ULP run of N connections (loopback)
#   bc_mem CM R N           N live cmtime connections, frozen, measured
#   bc_rounds BODY          every round and CM: bc_up, "BODY R CM", bc_down
#
# Words of the kernel command line: pdcmvm.bench_n=100,1000 (the Ns),
# pdcmvm.bench_rounds=R, pdcmvm.bench_mem=N (0: no memory pass),
# pdcmvm.bench_cms=stock,pdcm,native (and pdcm1024: the drop-in with
# listen_backlog=0; pdcm0: with ib_pdcm's early_mra_pct=0; pdcm3k: with
# its max_pending_reqs=3072, the budget it had before; pdcmlo: with its
# wq_highpri=0).
. /pdcm/scenarios/ibcm_lib.sh
. /pdcm/scenarios/ulp_lib.sh

BC_NS=$(cmdline_word bench_n | tr , ' ')
BC_NS=${BC_NS:-100 1000}
BC_ROUNDS=$(cmdline_word bench_rounds)
BC_ROUNDS=${BC_ROUNDS:-1}
BC_MEM=$(cmdline_word bench_mem)
BC_MEM=${BC_MEM:-0}
BC_CMS=$(cmdline_word bench_cms | tr , ' ')
BC_CMS=${BC_CMS:-stock pdcm native}
BC_PORT=7471
P1=/sys/class/infiniband/rxe0/ports/1

# the CMs of round R, in alternating order
bc_order() {
	if [ $(($1 % 2)) -eq 1 ]; then
		echo "$BC_CMS"
	else
		echo "$BC_CMS" | tr ' ' '\n' | sed '1!G;h;$!d' | tr '\n' ' '
	fi
}

bc_up() {
	case $1 in
	stock) modprobe ib_cm && modprobe rdma_ucm ;;
	pdcm) ibcm_load && modprobe rdma_ucm ;;
	# the drop-in with ib_pdcm's default backlog (1024) on its listens,
	# as before it had a backlog parameter of its own
	pdcm1024) modprobe ib_pdcm && insmod /pdcm/ibcm/ib_cm.ko listen_backlog=0 &&
		modprobe rdma_ucm ;;
	# the drop-in sending a delayed MRA of a REQ only when a copy of the REQ
	# arrives, as ib_cm (ib_pdcm's default, 75, sends it on its own at 75 %
	# of the peer's wait)
	pdcm0) ibcm_load && echo 0 >/sys/module/ib_pdcm/parameters/early_mra_pct &&
		modprobe rdma_ucm ;;
	pdcm3k) ibcm_load && echo 3072 >/sys/module/ib_pdcm/parameters/max_pending_reqs &&
		modprobe rdma_ucm ;;
	# ib_pdcm's work on a normal-priority workqueue (wq_highpri=0), as
	# ib_cm's and as pdcm's was before
	pdcmlo) modprobe ib_pdcm wq_highpri=0 && ibcm_load && modprobe rdma_ucm ;;
	native) modprobe ib_pdcm && modprobe pdcm_ulp ;;
	*) echo "bench_conn: unknown stack $1" >&2; false ;;
	esac || return 1
	[ "$1" = stock ] && [ -e /sys/module/ib_pdcm ] && return 1
	# the port is claimed (its counters are there) before anything starts
	wait_for "test -e $P1/cm_tx_msgs/req" 10
}

# bc_rounds BODY: for each round R and each CM of bc_order R, load the
# stack (check rR_CM_up), run "BODY R CM", give connections in timewait
# a second to end, unload (rR_CM_down).  The one-guest and the two-guest
# scenarios walk the same sequence, so client and server stay in step.
# pdcm1024 (the old-backlog comparison) runs in round 1 only.
bc_rounds() {
	_bc_r=1
	while [ $_bc_r -le "$BC_ROUNDS" ]; do
		for _bc_cm in $(bc_order $_bc_r); do
			[ $_bc_cm = pdcm1024 ] && [ $_bc_r -gt 1 ] && continue
			check "r${_bc_r}_${_bc_cm}_up" bc_up $_bc_cm
			"$1" $_bc_r $_bc_cm
			sleep 1
			check "r${_bc_r}_${_bc_cm}_down" retry 30 bc_down $_bc_cm
		done
		_bc_r=$((_bc_r + 1))
	done
}

bc_down() {
	case $1 in
	stock) _ms="rdma_ucm rdma_cm ib_cm" ;;
	pdcm | pdcm1024 | pdcm0 | pdcm3k | pdcmlo) _ms="rdma_ucm rdma_cm ib_cm ib_pdcm" ;;
	native) _ms="pdcm_ulp ib_pdcm" ;;
	esac
	for _m in $_ms; do
		[ -e /sys/module/$_m ] || continue
		rmmod $_m || return 1
	done
}

# bc_counters: this port's retransmission, duplicate and MRA counters;
# the REQs sent (first sends and retries) and received, whose difference
# in one guest is what was lost below the CM (rxe, the GSI QP's receive
# queue); and what pdcm itself dropped (its work budget, a full backlog;
# the stock ib_cm has neither file, so 0)
bc_counters() {
	echo "req_sent=$(cm_count cm_tx_msgs/req)" \
	     "req_rcvd=$(cm_count cm_rx_msgs/req)" \
	     "cm_drops=$(($(cm_count pdcm/rx_dropped) + $(cm_count pdcm/backlog_dropped)))" \
	     "req_retries=$(cm_count cm_tx_retries/req)" \
	     "rep_retries=$(cm_count cm_tx_retries/rep)" \
	     "dreq_retries=$(cm_count cm_tx_retries/dreq)" \
	     "req_dups=$(cm_count cm_rx_duplicates/req)" \
	     "rep_dups=$(cm_count cm_rx_duplicates/rep)" \
	     "mra=$(cm_count cm_tx_msgs/mra)" \
	     "rej=$(cm_count cm_tx_msgs/rej)"
}

# cmtime's step table as key=total_ms: create_id=... connect=... (not
# its "event: ..." error lines: thousands of them would make the line
# longer than /dev/kmsg takes, and the run would go unreported)
bc_steps() {
	awk -F: '/^[a-z][a-z ]* *: *[0-9]/ {
		n = $1; sub(/ +$/, "", n); gsub(/ /, "_", n)
		split($2, v, " ")
		printf "%s=%s ", n, v[1]
	}' "$1"
}

bc_server_start() {
	cmtime -b "$VM_IP" -p $BC_PORT >/tmp/cmtime.server 2>&1 &
	BC_SERVER=$!
	sleep 1
}

# A fresh cmtime server's first client must not be a small one (vm-harness.md
# pitfall 17): an untimed -c 10 first, from whichever guest is the client.
bc_warmup() {
	retry 30 cmtime_ok -s "$1" -p $BC_PORT -c 10 >/dev/null
}

# bc_server_alive: restart a server that died (rdma-core 44's cmtime
# server dereferences a NULL node on an error event of a passive
# connection, e.g. a REP that timed out: seen on the stock ib_cm at N=5000)
bc_server_alive() {
	kill -0 "$BC_SERVER" 2>/dev/null && return 0
	kmsg "bench_conn: cmtime server died; restarting it"
	bc_server_start
	bc_warmup "$VM_IP"
}

bc_server_stop() {
	kill "$BC_SERVER" 2>/dev/null
	wait "$BC_SERVER" 2>/dev/null
}

# What pdcm dropped during a run, by message and reason (its pdcm_drop
# tracepoint), as one "bench_conn_drops:" console line; nothing on ib_cm.
bc_drops_start() {
	[ -e $T/events/pdcm/pdcm_drop ] || return 0
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 32768 >$T/buffer_size_kb
	echo 1 >$T/events/pdcm/pdcm_drop/enable
	echo 1 >$T/tracing_on
}

bc_drops_end() {	# bc_drops_end CM ROUND N
	[ -e $T/events/pdcm/pdcm_drop ] || return 0
	echo 0 >$T/tracing_on
	echo 0 >$T/events/pdcm/pdcm_drop/enable
	kmsg "bench_conn_drops: cm=$1 round=$2 n=$3 $(awk '
		/ pdcm_drop: / {
			m = $0; sub(/.* pdcm_drop: /, "", m)
			a = m; sub(/ .*/, "", a)
			r = m; sub(/.* dropped: /, "", r); gsub(/ /, "_", r)
			c[a ":" r]++
		}
		/LOST/ { lost++ }
		END { for (k in c) printf "%s=%d ", k, c[k]; printf "lost_events=%d", lost + 0 }
	' $T/trace)"
	echo >$T/trace
}

# bc_cmtime CM ROUND N PEER: one cmtime client run, its line on the console
bc_cmtime() {
	bc_drops_start
	_c0=$(bc_counters)
	# a client whose server died waits for ever: bounded by N
	timeout $((60 + $3 / 20)) cmtime -s "$4" -p $BC_PORT -c "$3" >/tmp/cmtime.out 2>&1
	_rc=$?
	_c1=$(bc_counters)
	bc_drops_end "$1" "$2" "$3"
	_err=$(grep -c "event: \|failure\|error" /tmp/cmtime.out)
	grep -q "^connect *:" /tmp/cmtime.out || _rc=1
	kmsg "bench_conn: cm=$1 round=$2 n=$3 rc=$_rc errors=$_err $(bc_steps /tmp/cmtime.out)$(kv_delta "$_c0" "$_c1")"
	[ "$_rc" -eq 0 ] && [ "$_err" -eq 0 ] || { cat /tmp/cmtime.out; return 1; }
}

# bc_native ROUND N: the test ULP's connect of N, pdcm on both ends
bc_native() {
	_c0=$(bc_counters)
	# rdma_cm's REQ timeout and retries (CMA_CM_RESPONSE_TIMEOUT 20,
	# CMA_MAX_CM_RETRIES 15)
	ulp connect "$2" tcp:$BC_PORT "$VM_IP" 0 timeout=300 cm_timeout=20 retries=15
	_rc=$?
	_c1=$(bc_counters)
	_r=$(ulp_last run)
	_p="run $_r "
	_cu=$(ulp_get "$_p" connect_us)
	_f=$(ulp_get "$_p" failed)
	kmsg "bench_conn: cm=native round=$1 n=$2 rc=$_rc errors=$_f" \
	     "connect=$(awk -v u="$_cu" 'BEGIN { printf "%.2f", u / 1000 }')" \
	     "$(kv_delta "$_c0" "$_c1")"
	wait_for "ulp_is 'live ' conns 0" 120 >/dev/null
	[ "$_rc" -eq 0 ] && [ "$_f" = 0 ]
}

_bc_slab_kb() {
	awk '/^Slab:/ { print $2 }' /proc/meminfo
}

# bc_mem CM ROUND N: N cmtime connections (both ends in this guest), the
# client and server frozen once all are established; then the slab bytes
# the CM's own modules hold (kmem tracepoints filtered by call site,
# frees matched by pointer: the guest boots with no_hash_pointers, or
# every %p would print the same "(____ptrval____)" before the CRNG is
# ready) and the whole kernel's slab growth, per
# connection side.
bc_mem() {
	_mods="ib_cm"
	[ "$1" = stock ] || _mods="ib_cm ib_pdcm"
	_flt=""
	for _m in $_mods; do
		# /proc/modules prints addresses only to a reader allowed to see them
		# (module addresses are 0xffffffff........: the shell's
		# arithmetic is signed, so only the low 32 bits are added to)
		_lo=$(awk -v m="$_m" '$1 == m { print $6 }' /proc/modules)
		_sz=$(awk -v m="$_m" '$1 == m { print $2 }' /proc/modules)
		case $_lo in 0xffffffff????????) ;; *) echo "no address for $_m: $_lo"; return 1 ;; esac
		_hi=$(printf '0xffffffff%08x' $((0x${_lo#0xffffffff} + _sz)))
		_flt="$_flt${_flt:+ || }(call_site >= $_lo && call_site < $_hi)"
	done
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 65536 >$T/buffer_size_kb
	# frees too by call site: the CMs free their objects themselves (an
	# object the CM allocates and another module frees would stay counted)
	for _e in kmalloc kmem_cache_alloc kfree kmem_cache_free; do
		echo "$_flt" >$T/events/kmem/$_e/filter
		echo 1 >$T/events/kmem/$_e/enable
	done
	_rtu0=$(cm_count cm_tx_msgs/rtu)
	_dreq0=$(cm_count cm_tx_msgs/dreq)
	_s0=$(_bc_slab_kb)
	echo 1 >$T/tracing_on
	cmtime -s "$VM_IP" -p $BC_PORT -c "$3" >/tmp/cmtime.mem 2>&1 &
	_cp=$!
	# a tight loop of shell builtins (no fork per poll): cmtime starts
	# disconnecting as soon as the last connection is up, and the freeze
	# should come first
	_t=$((_rtu0 + $3))
	_v=0
	while [ "$_v" -lt $_t ] && kill -0 $_cp 2>/dev/null; do
		read -r _v <$P1/cm_tx_msgs/rtu
	done
	kill -STOP $_cp "$BC_SERVER"
	sleep 2
	echo 0 >$T/tracing_on
	_s1=$(_bc_slab_kb)
	_live=$(($(cm_count cm_tx_msgs/rtu) - _rtu0 - ($(cm_count cm_tx_msgs/dreq) - _dreq0)))
	_lost=$(grep -c "Lost\|LOST" $T/trace)
	# live bytes by allocating function: the total first
	grep -v '^#' $T/trace | awk '
		/ kmalloc: | kmem_cache_alloc: / {
			p = ""; b = 0; c = ""
			for (i = 1; i <= NF; i++) {
				if (index($i, "call_site=") == 1) c = substr($i, 11)
				if (index($i, "ptr=") == 1) p = substr($i, 5)
				if (index($i, "bytes_alloc=") == 1) b = substr($i, 13) + 0
			}
			sub(/\+.*/, "", c)
			if (!(p in live)) { live[p] = b; site[p] = c; sum += b }
			next
		}
		/ kfree: | kmem_cache_free: / {
			for (i = 1; i <= NF; i++)
				if (index($i, "ptr=") == 1) p = substr($i, 5)
			if (p in live) { sum -= live[p]; delete live[p] }
		}
		END {
			print sum + 0
			for (p in live) { by[site[p]] += live[p]; nb[site[p]]++ }
			for (c in by) printf "%s %d objects %d bytes\n", c, nb[c], by[c]
		}' >/tmp/mem.sites
	_cmb=$(head -n 1 /tmp/mem.sites)
	tail -n +2 /tmp/mem.sites | while IFS= read -r l; do
		kmsg "bench_conn_site: cm=$1 $l"
	done
	for _e in kmalloc kmem_cache_alloc kfree kmem_cache_free; do
		echo 0 >$T/events/kmem/$_e/enable
		echo 0 >$T/events/kmem/$_e/filter
	done
	echo >$T/trace
	echo 1408 >$T/buffer_size_kb
	kill -CONT "$BC_SERVER" $_cp
	wait $_cp
	kmsg "bench_conn: cm=$1 round=$2 n=$3 mem=1 live=$_live lost=$_lost" \
	     "cm_bytes=$_cmb slab_kb=$((_s1 - _s0))" \
	     "cm_per_side=$([ "$_live" -gt 0 ] && echo $((_cmb / (2 * _live))) || echo 0)" \
	     "slab_per_side=$([ "$_live" -gt 0 ] && echo $(((_s1 - _s0) * 1024 / (2 * _live))) || echo 0)"
	[ "$_live" -gt 0 ]
}
