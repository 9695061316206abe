# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench-cm` (Documentation/performance.rst) and its smoke run in
# make check: softib_ibcm's bench mode (tests/softib/bench.c), N
# handshakes (REQ/REP/RTU, DREQ/DREP) between the two ports of one softib
# device, through the kernel's ib_cm and through pdcm's drop-in, one CM
# loaded at a time, each in turn for each N (the order alternating), at
# each concurrency; first, N connections held established at once and
# the slab memory they hold.  Every run is one console line
# "bench_cm: ..." that scripts/bench_cm_table.py reads.  The cases check
# that every handshake completed, on the wire of the CM under test, with
# no failure; never the time.
#
# Words (the defaults are the smoke run's):
#   pdcmvm.bcm_n=1000           the Ns, comma-separated
#   pdcmvm.bcm_conc=1,64,N      the concurrencies (N: all at once)
#   pdcmvm.bcm_rounds=1         rounds (each N on each CM once a round)
#   pdcmvm.bcm_mem=1000         N of the held pass (0: none)
#   pdcmvm.bcm_perf=0           1: every run under perf (cpu-clock every
#                               0.5 ms of CPU, the whole guest), its
#                               samples by module on the run's line
#   pdcmvm.bcm_cms=stock,pdcm   the CMs
D=/sys/class/infiniband/sib0
DBG=/sys/kernel/debug/softib
IBCM=/sys/kernel/debug/softib_ibcm
BCM_PERIOD_NS=500000

BCM_NS=$(cmdline_word bcm_n | tr , ' ')
BCM_NS=${BCM_NS:-1000}
BCM_CONC=$(cmdline_word bcm_conc | tr , ' ')
BCM_CONC=${BCM_CONC:-1 64 N}
BCM_ROUNDS=$(cmdline_word bcm_rounds)
BCM_ROUNDS=${BCM_ROUNDS:-1}
BCM_MEM=$(cmdline_word bcm_mem)
BCM_MEM=${BCM_MEM:-1000}
BCM_PERF=$(cmdline_word bcm_perf)
BCM_PERF=${BCM_PERF:-0}
BCM_CMS=$(cmdline_word bcm_cms | tr , ' ')
BCM_CMS=${BCM_CMS:-stock pdcm}

# the CMs of slot K, in alternating order
bcm_order() {
	if [ $(($1 % 2)) -eq 1 ]; then
		echo "$BCM_CMS"
	else
		echo "$BCM_CMS" | tr ' ' '\n' | sed '1!G;h;$!d' | tr '\n' ' '
	fi
}

bcm_up() {
	case $1 in
	stock) modprobe ib_cm && [ ! -e /sys/module/ib_pdcm ] ;;
	pdcm) ibcm_load ;;
	*) echo "unknown CM $1"; false ;;
	esac || return 1
	modprobe softib_ibcm &&
	# the port is claimed (its CM counters are there)
	wait_for "test -e $D/ports/1/cm_tx_msgs/req" 10
}

bcm_down() {
	for _m in softib_ibcm ib_cm ib_pdcm; do
		[ -e /sys/module/$_m ] || continue
		rmmod $_m || return 1
	done
}

# bcm_counters: both ports' CM retransmissions (re_MSG; retries: all)
# and duplicates received (the CM's own sysfs counters, which pdcm keeps
# as ib_cm does), the REQs, RTUs and MRAs sent, softib's CM MADs on the
# wire and what it dropped, and what pdcm dropped (cm_drops)
bcm_counters() {
	for _m in req rep rtu dreq drep mra rej; do
		_v=0
		for _p in 1 2; do
			_v=$((_v + $(cat $D/ports/$_p/cm_tx_retries/$_m)))
		done
		printf 're_%s=%d ' $_m $_v
	done
	_tr=0 _dup=0 _drop=0
	for _p in 1 2; do
		# what pdcm itself dropped (its work budget, a full backlog; the
		# stock ib_cm has neither file)
		for _f in $D/ports/$_p/pdcm/rx_dropped $D/ports/$_p/pdcm/backlog_dropped; do
			[ -e "$_f" ] && _drop=$((_drop + $(cat "$_f")))
		done
		for _f in "$D/ports/$_p/cm_tx_retries"/*; do
			_tr=$((_tr + $(cat "$_f")))
		done
		for _f in "$D/ports/$_p/cm_rx_duplicates"/*; do
			_dup=$((_dup + $(cat "$_f")))
		done
	done
	echo "retries=$_tr dups=$_dup cm_drops=$_drop" \
	     "req_sent=$(cat $D/ports/1/cm_tx_msgs/req)" \
	     "rtu_sent=$(cat $D/ports/1/cm_tx_msgs/rtu)" \
	     "mra_sent=$(($(cat $D/ports/1/cm_tx_msgs/mra) + $(cat $D/ports/2/cm_tx_msgs/mra)))" \
	     "$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); s[kv[1]] += kv[2] } }
		END { printf "wire_cm=%d drop_wire=%d drop_norecv=%d cq_overflow=%d",
			s["tx_cm_lid"], s["drop_wire"], s["drop_norecv"], s["cq_overflow"] }' \
		$DBG/sib0/counters)"
}

# bcm_perf_mods CM N CONC: /tmp/perf.data's samples by module, as
# samples_MODULE=N (kernel: the kernel image; idle: the idle task in the
# kernel; user: user space; all: the total), and the run's hottest
# functions as "bench_cm_sym:" console lines (MODULE:FUNCTION, and
# MODULE:FUNCTION<-LEAF where the sample landed in LEAF, a kernel
# function that FUNCTION called).  A sample is charged to the innermost
# frame of its call chain that is in one of the RDMA modules (the CM's,
# ib_core, softib, the client), so that the kernel's own functions count
# for the module that called them: without a PMU, perf samples on a
# timer, and a sample taken while interrupts were off lands on the
# function that turned them on again (_raw_spin_unlock_irqrestore), not
# on the code that ran with them off.  Modules are told by their address
# ranges in /proc/modules (perf maps every module sample to the kernel
# here); awk's numbers are doubles, so the low 32 bits of addresses of
# 0xffffffff........ are compared.
bcm_perf_mods() {
	perf script -i /tmp/perf.data -F comm,ip,sym 2>/dev/null | awk -v cm="$1" -v n="$2" -v c="$3" '
		function hex(s,  i, v) {
			v = 0
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		function mod(ip,  v, i) {
			ip = tolower(ip)
			if (length(ip) != 16 || substr(ip, 1, 8) != "ffffffff")
				return "user"
			v = hex(substr(ip, 9))
			for (i = 1; i <= nm; i++)
				if (v >= lo[i] && v < hi[i]) return m[i]
			return "kernel"
		}
		function done(  d, f) {
			if (!nf) return
			d = mod(ip[1]); f = sym[1]
			if (comm ~ /^swapper/ && d == "kernel") d = "idle"
			for (i = 1; i <= nf; i++) {
				x = mod(ip[i])
				if (x in rdma) { d = x; f = sym[i]; break }
			}
			s[d]++; all++; fn[d ":" f]++
			# and the function the sample landed in, if another
			if (f != sym[1]) leaf[d ":" f "<-" sym[1]]++
			nf = 0
		}
		NR == FNR {
			if ($6 ~ /^0xffffffff/) {
				m[++nm] = $1; lo[nm] = hex(substr($6, 11)); hi[nm] = lo[nm] + $2
			}
			next
		}
		FNR == 1 {
			split("ib_cm ib_pdcm ib_core softib softib_ibcm", r, " ")
			for (i in r) rdma[r[i]] = 1
		}
		NF == 0 { done(); next }
		# (a frame: an address, then its symbol; else the comm of a sample)
		$1 !~ /^[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]+$/ { done(); comm = $1; next }
		{ ip[++nf] = $1; sym[nf] = (NF > 1 ? $2 : "?") }
		END {
			done()
			for (d in s) printf "samples_%s=%d ", d, s[d]
			printf "samples_all=%d\n", all + 0
			for (k in fn) if (fn[k] * 100 >= all) printf "%d %s\n", fn[k], k
			for (k in leaf) if (leaf[k] * 200 >= all) printf "%d %s\n", leaf[k], k
		}
	' /proc/modules - >/tmp/perf.mods
	head -n 1 /tmp/perf.mods
	tail -n +2 /tmp/perf.mods | sort -rn | head -n 30 | while read -r _cnt _f; do
		kmsg "bench_cm_sym: cm=$1 n=$2 conc=$3 samples=$_cnt $_f"
	done
}

# bcm_run CM ROUND N CONC [hold]: one bench command; its line on the
# console, and the checks that all N completed on this CM's wire
bcm_run() {
	_c=$4
	[ "$_c" = N ] && _c=$3
	_h=0
	[ "${5:-}" = hold ] && _h=1
	_c0=$(bcm_counters)
	_cmd="bench sib0 1 2 n=$3 conc=$_c hold=$_h"
	if [ "$BCM_PERF" = 1 ]; then
		perf record -q -a -g -B -N -e cpu-clock -c $BCM_PERIOD_NS -o /tmp/perf.data -- \
			sh -c "echo $_cmd >$IBCM/ctl" 2>/tmp/perf.err
	else
		echo "$_cmd" >$IBCM/ctl
	fi
	_rc=$?
	_c1=$(bcm_counters)
	_l=$(grep '^bench ' $IBCM/results | tail -n 1)
	_p=
	if [ "$BCM_PERF" = 1 ]; then
		_p=" period_ns=$BCM_PERIOD_NS $(bcm_perf_mods "$1" "$3" "$_c")"
	fi
	_d=$(kv_delta "$_c0" "$_c1")
	kmsg "bench_cm: cm=$1 round=$2 conc_word=$4 rc=$_rc ${_l#bench * * * } $_d$_p"
	[ "$_rc" -eq 0 ] || { cat /tmp/perf.err 2>/dev/null; return 1; }
	echo "$_l" | grep -q " result=ok n=$3 conc=$_c hold=$_h started=$3 ok=$3 failed=0 rej=0 timeouts=0 errors=0 " ||
		{ echo "$_l"; return 1; }
	# every handshake went through this CM's port: N REQs and RTUs at
	# least, and five CM MADs each on softib's wire
	echo "$_d" | awk -v n="$3" '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		if (v["req_sent"] < n || v["rtu_sent"] < n || v["wire_cm"] < 5 * n) {
			print "not all on the wire: " $0; exit 1
		}
	}'
}

suite_begin bench_cm
check load_softib modprobe softib
# bcm_slot K NAME BODY...: each CM in bcm_order K's order: loaded, 100
# handshakes untimed (the first ones' warm-up), "BODY... CM", unloaded
bcm_slot() {
	_k=$1 _s=$2
	shift 2
	for bcm_cm in $(bcm_order "$_k"); do
		check "${_s}_${bcm_cm}_up" bcm_up $bcm_cm
		check "${_s}_${bcm_cm}_warmup" sh -c "echo bench sib0 1 2 n=100 conc=8 >$IBCM/ctl &&
			grep '^bench ' $IBCM/results | tail -n 1 | grep -q ' result=ok '"
		"$@" $bcm_cm
		check "${_s}_${bcm_cm}_down" wait_for bcm_down 30
	done
}

# the timed runs of one N on one CM
bcm_ns() {	# bcm_ns ROUND N CM
	for bcm_c in $BCM_CONC; do
		check "r$1_$3_n$2_c$bcm_c" bcm_run "$3" "$1" "$2" $bcm_c
	done
}

bcm_held() {	# bcm_held CM
	# the warm-up's connections out of timewait first
	sleep 2
	check "$1_held_$BCM_MEM" bcm_run "$1" 1 "$BCM_MEM" 64 hold
}

# Each N of each round is a slot of its own (and the held pass one
# before them), so that the two CMs' runs of one N are minutes apart at
# most, and a run cut short still has both CMs' numbers for its first
# Ns; the order alternates from slot to slot.  (The loops' variables are
# bcm_*: check itself sets _n.)
bcm_k=1
if [ "$BCM_MEM" -gt 0 ]; then
	bcm_slot $bcm_k held bcm_held
	bcm_k=$((bcm_k + 1))
fi
bcm_r=1
while [ $bcm_r -le "$BCM_ROUNDS" ]; do
	for bcm_n in $BCM_NS; do
		bcm_slot $bcm_k "r${bcm_r}_n$bcm_n" bcm_ns $bcm_r $bcm_n
		bcm_k=$((bcm_k + 1))
	done
	bcm_r=$((bcm_r + 1))
done
check unload_softib rmmod softib
check no_warn_or_bug sh -c "! dmesg | grep -E 'WARNING:|BUG:|Oops|already in use'"
suite_end
