# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Helpers for the bench_storm_* scenarios (`make bench-storm`,
# Documentation/performance.rst "Connect storms"): the connection storms
# users meet, on the stock ib_cm and on pdcm's drop-in in one boot of two
# guests, both guests on the same CM at a time (bench_conn_lib.sh's
# bc_up/bc_down/bc_rounds, so both walk the same sequence).  Sourced.
#
#   NVMe: the target exports K subsystems (one 1 MiB namespace each) on
#   one nvmet-rdma port; the host runs K `nvme connect`s at once, each
#   asking for Q I/O queues (read, write and poll queues, as many of each
#   as the host guest has vCPUs), so K x (Q + 1) RC connections through
#   rdma_cm.  Measured: the time until every `nvme connect` has returned
#   (each returns once its admin and I/O queues are all connected), the
#   connects that failed, the controllers with all Q + 1 queues, the time
#   `nvme disconnect-all` takes, and each side's CM counters.
#
#   Many-to-one: P cmtime clients at once on the host, C connections
#   each, against one cmtime server on the target: more REQs than the
#   server's rdma_ucm holds at once (1,024).  Measured: the time until
#   the last client has connected all of its C, the clients that failed,
#   and each side's CM counters.
#
# What pdcm dropped in each phase, by message and reason, is a
# "bench_conn_drops: ... n=PHASE_SIDE ..." line (bench_conn_lib.sh).
# Each result is a console line "bench_storm: side=... cm=... round=...
# phase=nvme|m2o key=value ..." that scripts/bench_storm_table.py reads.
# Kernel command line words: pdcmvm.storm_k, storm_q, storm_p, storm_c,
# and bench_conn_lib.sh's bench_rounds and bench_cms.
. /pdcm/scenarios/bench_conn_lib.sh

BS_K=$(cmdline_word storm_k)
BS_K=${BS_K:-16}
BS_Q=$(cmdline_word storm_q)
BS_Q=${BS_Q:-16}
BS_P=$(cmdline_word storm_p)
BS_P=${BS_P:-8}
BS_C=$(cmdline_word storm_c)
BS_C=${BS_C:-500}
BC_CMS=$(echo "$BC_CMS" | sed 's/native//')
BS_NQN=nqn.2026-12.pdcm:storm
BS_CFS=/sys/kernel/config
# the target says "configured" on BS_READY, the host "done" on BS_DONE
BS_READY=7996
BS_DONE=7997
BS_M2O_READY=7994
BS_M2O_DONE=7995

# bs_ms: milliseconds since boot (/proc/uptime: 10 ms steps)
bs_ms() {
	awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime
}

# bs_target_up: K subsystems, each with one namespace on a 1 MiB tmpfs
# file, on one RDMA port on this guest's address
bs_target_up() {
	grep -q " $BS_CFS configfs" /proc/mounts || mount -t configfs none $BS_CFS || return 1
	modprobe nvmet_rdma || return 1
	_p=$BS_CFS/nvmet/ports/1
	mkdir $_p && echo rdma >$_p/addr_trtype && echo ipv4 >$_p/addr_adrfam &&
		echo "$VM_IP" >$_p/addr_traddr && echo 4420 >$_p/addr_trsvcid || return 1
	_k=1
	while [ $_k -le "$BS_K" ]; do
		_s=$BS_CFS/nvmet/subsystems/$BS_NQN.$_k
		dd if=/dev/zero of=/tmp/storm$_k.img bs=1M count=1 2>/dev/null &&
			mkdir $_s && echo 1 >$_s/attr_allow_any_host &&
			mkdir $_s/namespaces/1 &&
			echo -n /tmp/storm$_k.img >$_s/namespaces/1/device_path &&
			echo 1 >$_s/namespaces/1/buffered_io &&
			echo 1 >$_s/namespaces/1/enable &&
			ln -s $_s $_p/subsystems/$BS_NQN.$_k || return 1
		_k=$((_k + 1))
	done
}

bs_target_down() {
	_p=$BS_CFS/nvmet/ports/1
	_k=1
	while [ $_k -le "$BS_K" ]; do
		_s=$BS_CFS/nvmet/subsystems/$BS_NQN.$_k
		rm -f $_p/subsystems/$BS_NQN.$_k
		[ -d $_s ] && { echo 0 >$_s/namespaces/1/enable; rmdir $_s/namespaces/1 $_s; }
		rm -f /tmp/storm$_k.img
		_k=$((_k + 1))
	done
	rmdir $_p 2>/dev/null
	rmmod nvmet_rdma nvmet 2>/dev/null
	true
}

# bs_queue_args: nvme connect's queue options for Q I/O queues on this
# guest's vCPUs (nvme-rdma caps each kind at the online CPUs)
bs_queue_args() {
	_cpus=$(nproc)
	_i=$((BS_Q < _cpus ? BS_Q : _cpus))
	_r=$((BS_Q - _i))
	_w=$((_r < _cpus ? _r : _cpus))
	_r=$((_r - _w))
	_pq=$((_r < _cpus ? _r : _cpus))
	echo "-i $_i -W $_w -P $_pq"
}

# bs_controllers_full: how many storm controllers are live with Q + 1 queues
bs_controllers_full() {
	_n=0
	for _d in /sys/class/nvme/nvme*; do
		[ -e "$_d/subsysnqn" ] || continue
		case "$(cat "$_d/subsysnqn")" in $BS_NQN.*) ;; *) continue ;; esac
		[ "$(cat "$_d/state")" = live ] &&
			[ "$(cat "$_d/queue_count")" -eq $((BS_Q + 1)) ] && _n=$((_n + 1))
	done
	echo $_n
}

# bs_stats FILE...: "all_ms=MAX p50_ms=MEDIAN failed=N" over files each
# holding "RC END_MS", END_MS taken against $_bs_t0
bs_stats() {
	cat "$@" | awk -v t0="$_bs_t0" '
		{ if ($1 != 0) f++; d[++n] = $2 - t0 }
		END {
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (d[j] < d[i]) { t = d[i]; d[i] = d[j]; d[j] = t }
			printf "all_ms=%d p50_ms=%d failed=%d", d[n], d[int((n + 1) / 2)], f
		}'
}

# bs_nvme_storm R CM (host): K connects at once, then disconnect-all
bs_nvme_storm() {
	_c0=$(bc_counters)
	bc_drops_start
	_qa=$(bs_queue_args)
	rm -f /tmp/storm.*
	_bs_t0=$(bs_ms)
	_k=1
	while [ $_k -le "$BS_K" ]; do
		( timeout 900 nvme connect -t rdma -a "$VM_PEER" -s 4420 \
			-n $BS_NQN.$_k $_qa >/tmp/storm.$_k.out 2>&1
		  echo "$? $(bs_ms)" >/tmp/storm.$_k.rc ) &
		_k=$((_k + 1))
	done
	wait
	_st=$(bs_stats /tmp/storm.*.rc)
	_full=$(bs_controllers_full)
	_t2=$(bs_ms)
	nvme disconnect-all >/dev/null 2>&1
	wait_for "! ls /sys/class/nvme/ | grep -q nvme" 120
	_t3=$(bs_ms)
	bc_drops_end "$2" "$1" nvme_host
	kmsg "bench_storm: side=host cm=$2 round=$1 phase=nvme k=$BS_K q=$BS_Q queue_args=$(echo $_qa | tr ' ' _) connections=$((BS_K * (BS_Q + 1))) $_st full=$_full disconnect_ms=$((_t3 - _t2)) $(kv_delta "$_c0" "$(bc_counters)")"
	echo "$_st" | grep -q " failed=0" && [ "$_full" -eq "$BS_K" ] && return 0
	for _f in /tmp/storm.*.out; do
		grep -q . "$_f" && echo "$_f: $(head -c 300 "$_f")"
	done
	return 1
}

# bs_m2o R CM (host): P cmtime clients at once, C connections each
bs_m2o() {
	_c0=$(bc_counters)
	bc_drops_start
	rm -f /tmp/m2o.*
	_bs_t0=$(bs_ms)
	_p=1
	while [ $_p -le "$BS_P" ]; do
		( timeout $((300 + BS_P * BS_C / 10)) cmtime -s "$VM_PEER" -p $BC_PORT \
			-c "$BS_C" >/tmp/m2o.$_p.out 2>&1
		  _rc=$?
		  grep -q "event: \|failure\|error" /tmp/m2o.$_p.out && _rc=1
		  grep -q "^connect *:" /tmp/m2o.$_p.out || _rc=1
		  echo "$_rc $(bs_ms)" >/tmp/m2o.$_p.rc ) &
		_p=$((_p + 1))
	done
	wait
	_st=$(bs_stats /tmp/m2o.*.rc)
	# the slowest client's connect step (cmtime: all its C connected)
	_cm=$(for _f in /tmp/m2o.*.out; do bc_steps "$_f" | tr ' ' '\n' | sed -n 's/^connect=//p'; done |
		sort -n | tail -n 1)
	bc_drops_end "$2" "$1" m2o_host
	kmsg "bench_storm: side=host cm=$2 round=$1 phase=m2o p=$BS_P c=$BS_C connections=$((BS_P * BS_C)) $_st connect_max_ms=${_cm:-0} $(kv_delta "$_c0" "$(bc_counters)")"
	echo "$_st" | grep -q " failed=0" && return 0
	for _f in /tmp/m2o.*.out; do
		echo "$_f: $(grep -v '^[a-z ]*: *[0-9]' "$_f" | head -c 300)"
	done
	return 1
}
