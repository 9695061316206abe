#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The test command (`make check`, and its halves):
#   check.sh all     everything below
#   check.sh kunit   the KUnit suites of each line: on 6.1 in the debug KUnit
#                    kernel (KASAN, lockdep) with its guests, on 6.12 the
#                    upstream way, as on 7.3 (PDCM_KUNIT_VM="6.1 6.12": both
#                    in guests)
#   check.sh vm      VM scenarios on Debian's stock kernels with rxe
#                    (7.3's: the k73_ guests, vm_scenarios_7_3)
#   check.sh uml     the KUnit suites the upstream way (kunit.py, UML) on
#                    each line of PDCM_KERNELS
#   check.sh dkms    packaging: make install staged, DKMS, the dkms guest
#   check.sh style   checkpatch --strict, sparse, SPDX lines, kernel-doc
#   check.sh fuzz    `make fuzz`: the hostile peer's big runs only, 10^6
#                    fuzzed MADs against the KUnit kernel and a flood of
#                    100,000 REQs (FUZZ_MADS, FLOOD_REQS change them)
# Ends with one line "N passed, N failed, N skipped" counting every KUnit
# case, every VM scenario case, every host-side step (module builds) and
# two health cases per guest; exits non-zero if anything failed.
# Three kernel lines (scripts/common.sh): Debian 12's 6.1, whose builds
# and guests have the names they always had, the 6.12 LTS, whose names
# start with k612_, and trixie-backports' 7.3 (built in the trixie build
# root), k73_; a line per kernel before the last one counts each.
# PDCM_KERNELS="6.1 6.12 7.3" (the default) narrows that while working.
set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"

what=${1:-all}
LOGS=$PDCM_TOP/build/logs
mkdir -p "$LOGS"
PASSED=0 FAILED=0 SKIPPED=0

# Per kernel line: which line a result belongs to, by its name (the
# k612_ prefix: 6.12; k73_: 7.3; cross_: the pair with a guest on 6.1 and
# one on 6.12; cross73_: the pairs with a guest on 6.1 and one on 7.3; the
# harness and style gates: host; everything else: 6.1).
declare -A LINE_COUNTS=()
line_of() {
	case $1 in
	k612_*|*.k612_*) echo 6.12 ;;
	k73_*|*.k73_*) echo 7.3 ;;
	cross_*) echo 6.1+6.12 ;;
	cross73_*) echo 6.1+7.3 ;;
	host.*|style.*|harness.*) echo host ;;
	*) echo 6.1 ;;
	esac
}

tally() {	# tally NAME P F S: add to NAME's line
	local l c
	l=$(line_of "$1")
	c=(${LINE_COUNTS[$l]:-0 0 0})
	LINE_COUNTS[$l]="$((c[0] + $2)) $((c[1] + $3)) $((c[2] + $4))"
}

record() {	# record STATUS NAME [detail file]
	case $1 in
	PASS) PASSED=$((PASSED + 1)); tally "$2" 1 0 0 ;;
	SKIP) SKIPPED=$((SKIPPED + 1)); tally "$2" 0 0 1 ;;
	*) FAILED=$((FAILED + 1)); tally "$2" 0 1 0 ;;
	esac
	echo "$1 $2"
	if [ "$1" = FAIL ] && [ -n "${3:-}" ]; then tail -n 30 "$3" | sed 's/^/    /'; fi
}

# record_lines [PREFIX]: record the "PASS name" / "FAIL name" lines of a
# tool's output on stdin (names prefixed with PREFIX); other lines pass.
record_lines() {
	local l
	while read -r l; do
		case $l in
		"PASS "*) record PASS "${1:-}${l#PASS }" ;;
		"FAIL "*) record FAIL "${1:-}${l#FAIL }" ;;
		*) echo "$l" ;;
		esac
	done
}

# build_pdcm NAME KDIR [make args]: a private copy of the tree built against
# KDIR with W=1; a compiler warning fails the step.  Sets $BUILT.
build_pdcm() {
	local name=$1 kdir=$2
	shift 2
	BUILT=$PDCM_TOP/build/$name
	if pdcm_build "$name" "$kdir" "$LOGS/build-$name.log" "$@" &&
	   ! grep -q 'warning:' "$LOGS/build-$name.log"; then
		record PASS "build.$name"
	else
		record FAIL "build.$name" "$LOGS/build-$name.log"
		return 1
	fi
}

# --- ib_cm drop-in (compat/, Documentation/ibcm.rst) ---------------------
# ibcm_gate NAME KDIR: the CRC gate on build/NAME: the built ib_cm.ko must
# export what KDIR's ib_cm exports, CRC for CRC (scripts/ibcm-crc.sh).
ibcm_gate() {
	local log=$LOGS/ibcm-crc-$1.log
	if scripts/ibcm-crc.sh "$PDCM_TOP/build/$1/Module.symvers" "$2" >"$log" 2>&1; then
		record PASS "build.$1.ibcm_crc"
	else
		record FAIL "build.$1.ibcm_crc" "$log"
	fi
	tail -n 1 "$log"
}
# --- end ib_cm drop-in ----------------------------------------------------

# guest_boot NAME KERNEL INITRD TIMEOUT "WORDS" [qemu args]: boot one guest
# and read its console into $LOGS/NAME.result (ktap.py output), checked
# against what tests/vm/expected declares for its pdcmvm.scenario word.
# A guest whose kernel crashed before its /init ran is booted once more
# (boot_crashed).
guest_boot() {
	local name=$1 t0=$SECONDS
	shift
	guest_run "$name" "$@"
	! boot_crashed "$name" || guest_run "$name" "$@"
	guest_read "$name" "$4" "$t0"
}

# guest_run NAME KERNEL INITRD TIMEOUT "WORDS" [qemu args]: the boot alone
guest_run() {
	local name=$1 log=$LOGS/$1.log
	shift
	vm_run "$log" "$@"
	[ $? -eq 124 ] && echo "pdcm: guest $name timed out" >>"$log"
}

# guest_read NAME "WORDS" T0: its console into $LOGS/NAME.result
guest_read() {
	local scen
	scen=$(sed -n 's/.*pdcmvm\.scenario=\([^ ]*\).*/\1/p' <<<"$2")
	python3 "$PDCM_TOP/tests/vm/ktap.py" "$LOGS/$1.log" "$1" "$scen" >"$LOGS/$1.result"
	echo "guest $1: $((SECONDS - $3)) s" >>"$LOGS/$1.result"
}

# boot_crashed NAME...: whether the kernel of one of these guests crashed
# before its /init ran (a splat and no begin marker: ktap.py --boot-crash).
# Nothing of pdcm's runs before /init, so this is the guest kernel's own
# (seen once, on CI: Debian's 6.12 under TCG, a general protection fault 2 s
# into the boot); the caller boots the guest (or pair) again, once.  The
# crashed console is kept as NAME.log.boot1, and the run's summary names
# the guest ($LOGS/boot-crashes).
boot_crashed() {
	local n crash hit=1
	for n in "$@"; do
		crash=$(python3 "$PDCM_TOP/tests/vm/ktap.py" --boot-crash "$LOGS/$n.log") || continue
		hit=0
		echo "$n: $crash" >>"$LOGS/boot-crashes"
	done
	[ "$hit" = 0 ] || return 1
	for n in "$@"; do mv -f "$LOGS/$n.log" "$LOGS/$n.log.boot1"; done
}

# count_file FILE NAME [DETAIL [GUEST]]: show FILE's result lines (case
# names prefixed with "GUEST." where they lack it) and add its
# "counts: P F S" line to the totals; no such line is the failure NAME.
count_file() {
	local f=$1 name=$2 detail=${3:-} g=${4:-}
	if [ -n "$g" ]; then
		grep -v '^counts:' "$f" 2>/dev/null |
			sed -E "/^(PASS|FAIL|SKIP) $g\./!s/^(PASS|FAIL|SKIP) /\1 $g./"
	else
		grep -v '^counts:' "$f" 2>/dev/null
	fi
	set -- $(sed -n 's/^counts: //p' "$f" 2>/dev/null)
	if [ $# -ne 3 ]; then
		record FAIL "$name" "$detail"
		return
	fi
	PASSED=$((PASSED + $1)) FAILED=$((FAILED + $2)) SKIPPED=$((SKIPPED + $3))
	tally "$name" "$@"
}

# line_summary: one line per kernel line that ran, before the total.
line_summary() {
	local l c
	for l in 6.1 6.12 7.3 6.1+6.12 6.1+7.3 host; do
		[ -n "${LINE_COUNTS[$l]:-}" ] || continue
		c=(${LINE_COUNTS[$l]})
		echo "$l: ${c[0]} passed, ${c[1]} failed, ${c[2]} skipped"
	done
}

# guest_count NAME: a guest's results (ktap.py's output).  Outside 6.1,
# case lines name the guest too (k612_stock_ulp_rc.ulp_rc.close), so that
# the same scenario on two kernels reads differently.
guest_count() {
	local g=
	[ "$(line_of "$1")" = 6.1 ] || g=$1
	count_file "$LOGS/$1.result" "$1.no_result" "" "$g"
}

# VM_ONLY=REGEX boots only the guests whose names match it (a quick loop
# while working on one scenario); unset, every guest runs.
vm_only() {
	[ -z "${VM_ONLY:-}" ] || [[ $1 =~ $VM_ONLY ]]
}

# The guest pool.  Every guest of a run is queued while the builds run,
# and once they are done all of them are started as POOL_SLOTS allow
# (default: twice the host's cores and one; a two-guest pair takes two):
# guests spend much of their time waiting on protocol timers, so one core
# each would leave the host idle.  On 2 cores 5 slots took a warm check
# from 1,019 s (3 slots) to 609 s, every case passing.  Results are
# counted in the order queued.
POOL_SLOTS=${POOL_SLOTS:-$((2 * JOBS + 1))}
POOL_USED=0
declare -A POOL_COST=()
JOBQ=()
COUNT_ORDER=()

# queue_job COST CMD...: run CMD (with this VM_MEM) in the pool later.
# The scenarios its words boot go to BOOTED (check_booted).
queue_job() {
	local w s
	for w in "${@:2}"; do
		[[ $w =~ pdcmvm\.scenario=([^[:space:]]+) ]] || continue
		for s in ${BASH_REMATCH[1]//+/ }; do BOOTED[$s]=1; done
	done
	JOBQ+=("$1 VM_MEM=$VM_MEM $(printf '%q ' "${@:2}")")
}

# Scenarios of tests/vm/expected that make check does not boot, with the
# target that does.  Any other scenario there must be booted by a whole
# run (check_booted), so that a line dropped from the lists below cannot
# lose a scenario unnoticed.
declare -A OUTSIDE_CHECK=(
	[bench]="make bench" [bench_conn_prof]="make bench-conn"
	[bench_conn_client]="make bench-conn" [bench_conn_server]="make bench-conn"
	[bench_storm_host]="make bench-storm" [bench_storm_target]="make bench-storm"
)
# the pdcm-dkms package in a 7.3 guest runs with PDCM_DEB=1 only (check_deb)
[ "${PDCM_DEB:-0}" = 1 ] || OUTSIDE_CHECK[deb]="PDCM_DEB=1 make check"
declare -A BOOTED=()

# check_booted: in a whole run (every kernel line, no VM_ONLY), the case
# host.every_declared_scenario_booted
check_booted() {
	local s missing=() extra=()
	[ -z "${VM_ONLY:-}" ] && [ "$PDCM_KERNELS" = "$PDCM_LINES" ] || return 0
	for s in $(python3 -c 'import sys; sys.path.insert(0, "tests/vm"); import ktap; print(*ktap.read_expected())'); do
		[ -n "${BOOTED[$s]:-}${OUTSIDE_CHECK[$s]:-}" ] || missing+=("$s")
	done
	for s in "${!OUTSIDE_CHECK[@]}"; do
		[ -n "${BOOTED[$s]:-}" ] && extra+=("$s")
	done
	[ ${#missing[@]} -eq 0 ] || echo "pdcm: declared but not booted: ${missing[*]}" >&2
	[ ${#extra[@]} -eq 0 ] || echo "pdcm: booted but listed as outside make check: ${extra[*]}" >&2
	if [ ${#missing[@]} -eq 0 ] && [ ${#extra[@]} -eq 0 ]; then
		record PASS host.every_declared_scenario_booted
	else
		record FAIL host.every_declared_scenario_booted
	fi
}

# cpu_secs <FILE: the CPU seconds (user and system) of a shell's finished
# children, from what its `times` wrote to FILE (the second line).  `times`
# must run in that shell itself: in a pipe or a command substitution it
# reports a new subshell's.
cpu_secs() {
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
		printf "%d\n", t + 0.5 }'
}

# pool_start COST CMD...: run CMD in the background once COST slots are free;
# its wall and CPU seconds go to $LOGS/job-times under its key (job_key).
pool_start() {
	local cost=$1 pid key
	shift
	while [ "$POOL_USED" -gt 0 ] && [ $((POOL_USED + cost)) -gt "$POOL_SLOTS" ]; do
		wait -n -p pid "${!POOL_COST[@]}"
		POOL_USED=$((POOL_USED - POOL_COST[$pid]))
		unset "POOL_COST[$pid]"
	done
	key=$(job_key "$*")
	{
		local t0=$SECONDS tf=$LOGS/times.$BASHPID
		eval "$*"
		times >"$tf"
		echo "$key $((SECONDS - t0)) $(cpu_secs <"$tf")" >>"$LOGS/job-times"
		rm -f "$tf"
	} &
	POOL_COST[$!]=$cost
	POOL_USED=$((POOL_USED + cost))
}

# Jobs start longest first, by the times of the last run on this machine
# ($PDCM_CACHE/job-times, or tests/vm/job-times.default before the first
# run; a job not in it counts as long), so that no long guest starts last
# and runs on alone.  Results are still counted in the
# order queued.
JOB_TIMES=$PDCM_CACHE/job-times

# job_key "VM_MEM=... CMD NAME ...": the job's name (a guest's or pair's
# first guest), or its command for the others
job_key() {
	local w
	read -r -a w <<<"$1"
	case ${w[1]} in
	guest_boot | pair_boot) echo "${w[2]}" ;;
	*) echo "${w[1]}-${#1}" ;;
	esac
}

# pool_order: JOBQ's indexes, longest last time first (stable)
pool_order() {
	local i key
	declare -A last=()
	local f=$JOB_TIMES
	[ -r "$f" ] || f=$PDCM_TOP/tests/vm/job-times.default
	if [ -r "$f" ]; then
		while read -r key i _; do last[$key]=$i; done <"$f"
	fi
	for i in "${!JOBQ[@]}"; do
		key=$(job_key "${JOBQ[$i]#* }")
		echo "${last[$key]:-100000} $i"
	done | sort -s -k1,1nr | cut -d' ' -f2
}

# count_all: run the queue, wait for it, then count what it ran, in order.
# POOL_DRY=1: only list the queued jobs (what check_booted saw is real).
count_all() {
	local j n i
	if [ -n "${POOL_DRY:-}" ]; then
		for j in "${JOBQ[@]}"; do log "would run: $j"; done
		JOBQ=() COUNT_ORDER=()
		return
	fi
	rm -f "$LOGS/job-times" "$LOGS/boot-crashes" "$LOGS"/*.log.boot1
	for i in $(pool_order); do
		j=${JOBQ[$i]}
		pool_start "${j%% *}" "${j#* }"
	done
	wait
	# this run's times replace those of the same jobs
	if [ -s "$LOGS/job-times" ]; then
		awk '{ n++; w += $2; c += $3 }
			END { printf "pdcm: pool: %d jobs, %d job-seconds, %d CPU seconds\n", n, w, c }' \
			"$LOGS/job-times" >&2
		mkdir -p "$PDCM_CACHE"
		{ cat "$LOGS/job-times"; cat "$JOB_TIMES" 2>/dev/null || true; } |
			awk '!seen[$1]++' >"$JOB_TIMES.new" && mv "$JOB_TIMES.new" "$JOB_TIMES"
	fi
	JOBQ=() POOL_COST=() POOL_USED=0
	for n in "${COUNT_ORDER[@]}"; do
		case $n in
		@uml*) uml_count "${n#@uml}" ;;
		@dkms*) dkms_count "${n#@dkms}" ;;
		*) guest_count "$n" ;;
		esac
	done
	COUNT_ORDER=()
}

# guests KERNEL INITRD TIMEOUT "NAME|WORDS"...: queue single guests.
guests() {
	local k=$1 i=$2 t=$3 spec n
	shift 3
	for spec in "$@"; do
		n=${spec%%|*}
		vm_only "$n" || continue
		queue_job 1 guest_boot "$n" "$k" "$i" "$t" "${spec#*|}"
		COUNT_ORDER+=("$n")
	done
}

# group_guest NAME KERNEL INITRD TIMEOUT "WORDS" PREFIX SCENARIO...: queue
# one guest NAME that runs the scenarios in turn (pdcmvm.scenario=A+B+...;
# tests/vm/init resets the guest between two), with TIMEOUT for each.
# One boot instead of one per scenario: a stock boot costs about 6 CPU
# seconds under TCG, a KASAN one 14 (Documentation/testing.rst).  WORDS
# carry the scenarios' own options (each reads its own pdcmvm.* words).
# VM_ONLY matching PREFIX+SCENARIO (stock_ulp_rc) and not NAME boots that
# scenario alone, under that name, for a quick loop on it.
group_guest() {
	local name=$1 k=$2 i=$3 t=$4 w=$5 p=$6 s scen=
	shift 6
	if ! vm_only "$name"; then
		for s; do
			vm_only "$p$s" || continue
			queue_job 1 guest_boot "$p$s" "$k" "$i" "$t" "${w:+$w }pdcmvm.scenario=$s"
			COUNT_ORDER+=("$p$s")
		done
		return
	fi
	for s; do scen=${scen:+$scen+}$s; done
	queue_job 1 guest_boot "$name" "$k" "$i" $((t * $#)) "${w:+$w }pdcmvm.scenario=$scen"
	COUNT_ORDER+=("$name")
}

# pair_boot A_NAME A_WORDS B_NAME B_WORDS TIMEOUT PORT KERNEL INITRD
# [B_KERNEL B_INITRD B_MEM]: two guests joined by a 127.0.0.1 dgram link on
# PORT (A is 10.0.0.1, B is 10.0.0.2), booted at once; B may boot another
# kernel.
pair_boot() {
	local an=$1 aw=$2 bn=$3 bw=$4 t0=$SECONDS
	pair_run "$@"
	! boot_crashed "$an" "$bn" || pair_run "$@"
	guest_read "$bn" "$bw" "$t0"
	guest_read "$an" "$aw" "$t0"
}

pair_run() {	# pair_run: pair_boot's arguments; both boots, together
	local an=$1 aw=$2 bn=$3 bw=$4 t=$5 port=$6 k=$7 i=$8 pb
	VM_MEM=${11:-$VM_MEM} guest_run "$bn" "${9:-$k}" "${10:-$i}" "$t" \
		"$bw pdcmvm.ip=10.0.0.2 pdcmvm.peer=10.0.0.1" $(vm_dgram_nic B "$port") &
	pb=$!
	guest_run "$an" "$k" "$i" "$t" "$aw pdcmvm.ip=10.0.0.1 pdcmvm.peer=10.0.0.2" \
		$(vm_dgram_nic A "$port")
	wait "$pb"
}

# pairs KERNEL INITRD "A|B|TIMEOUT"...: queue two-guest scenarios A and B,
# each pair on its own link.  Guest names are the scenarios' names, with
# PAIR_PREFIX in front if set; PAIR_B="KERNEL|INITRD|WORDS|MEM" boots B
# on another kernel (the KUnit one) with WORDS added to its command line;
# PAIR_A_WORDS are added to A's.
PAIR_PORT=$((40000 + RANDOM % 5000 * 4))
pairs() {
	local k=$1 i=$2 spec a b t an bn bk= bi= bw= bm=
	shift 2
	[ -n "${PAIR_B:-}" ] && IFS='|' read -r bk bi bw bm <<<"$PAIR_B"
	for spec in "$@"; do
		IFS='|' read -r a b t na nb <<<"$spec"
		an=${PAIR_PREFIX:-}${na:-$a} bn=${PAIR_PREFIX:-}${nb:-$b}
		vm_only "$an" || vm_only "$bn" || continue
		PAIR_PORT=$((PAIR_PORT + 2))
		queue_job 2 pair_boot "$an" "${PAIR_A_WORDS:+$PAIR_A_WORDS }pdcmvm.scenario=$a" "$bn" \
			"${bw:+$bw }pdcmvm.scenario=$b" "$t" "$PAIR_PORT" "$k" "$i" $bk $bi $bm
		COUNT_ORDER+=("$an" "$bn")
	done
}

# pair_group KERNEL INITRD A_NAME B_NAME "A|B|TIMEOUT"...: one pair of
# guests, A_NAME and B_NAME (PAIR_PREFIX in front), that runs the pairs'
# scenarios in turn, A's side of each on A and B's on B (tests/vm/init:
# a barrier, then a reset, between two), within the sum of their
# TIMEOUTs.  Two boots instead of two per pair.  PAIR_B and PAIR_A_WORDS
# as for pairs (each scenario reads its own pdcmvm.* words).  VM_ONLY
# matching one pair's own names (interop_tx_pdcm) and not the group's
# boots that pair alone, as before.
pair_group() {
	local k=$1 i=$2 an=$3 bn=$4 spec a b t sa= sb= st=0
	shift 4
	if ! vm_only "${PAIR_PREFIX:-}$an" && ! vm_only "${PAIR_PREFIX:-}$bn"; then
		pairs "$k" "$i" "$@"
		return
	fi
	for spec; do
		IFS='|' read -r a b t <<<"$spec"
		sa=${sa:+$sa+}$a sb=${sb:+$sb+}$b st=$((st + t))
	done
	pairs "$k" "$i" "$sa|$sb|$st|$an|$bn"
}

# The harness checks itself first: its KTAP reader must fail broken guests
# (tests/vm/test_ktap.py), the ib_cm drop-in's gate broken builds
# (tests/vm/test_ibcm_crc.py).  Each file's own case
# host.FILE_ran_all (host.test_ktap_ran_all, ...): the script exited 0 and
# reported one result for each test it defines (an import error reports
# none).
check_host() {
	local t
	mkdir -p "$LOGS"
	for t in tests/vm/test_*.py; do
		host_tests "$t"
	done
}

host_tests() {	# host_tests FILE: one of check_host's files
	local l n=0 rc want b out
	b=$(basename "$1" .py)
	out=$LOGS/$b.out
	python3 "$1" -v >"$out" 2>&1 && rc=0 || rc=$?
	while read -r l; do
		case $l in
		*" ... ok") record PASS "host.${l%% *}" ;;
		*" ... skipped"*) record SKIP "host.${l%% *}" ;;
		*" ... "*) record FAIL "host.${l%% *}" ;;
		*) continue ;;
		esac
		n=$((n + 1))
	done <"$out"
	want=$(grep -c '^    def test_' "$1")
	if [ "$rc" -eq 0 ] && [ "$n" -eq "$want" ]; then
		record PASS "host.${b}_ran_all"
	else
		echo "pdcm: $1 exited $rc with $n of $want results" >&2
		record FAIL "host.${b}_ran_all" "$out"
	fi
}

# Style gates: checkpatch --strict per file, sparse, SPDX lines.
# check_style [GATE]: all of them but GATE (check_vm's build runs sparse).
check_style() {
	local g
	for g in checkpatch sparse spdx copts kerneldoc; do
		[ "$g" = "${1:-}" ] && continue
		record_lines style. < <(scripts/style.sh $g 2>&1)
	done
	# make docs: kernel-doc rendered, every page through docutils
	if scripts/docs.sh >"$LOGS/docs.log" 2>&1; then
		record PASS style.docs
	else
		record FAIL style.docs "$LOGS/docs.log"
	fi
}

# Which lines run their KUnit suites in a KUnit kernel's guests; the others
# run them on UML (check_uml).  6.1's KUnit kernel also boots the scenarios
# under KASAN and lockdep and one side of several pairs (KUNIT_B); 6.12's
# would only run the suites, and its build was a third of a cold run's
# kernel builds, so 6.12's suites run the upstream way (kunit.py on UML,
# with lockdep: tests/vm/uml.kunitconfig) instead.
PDCM_KUNIT_VM=${PDCM_KUNIT_VM:-6.1}

# check_kunit [LINE]: the KUnit kernel of LINE (6.1 default), pdcm built
# for it, and its guests (kunit_scenarios_LINE); or, for a line not in
# PDCM_KUNIT_VM, the suites on UML.
check_kunit() {
	local line=${1:-6.1} p kdir
	[[ " $PDCM_KUNIT_VM " == *" $line "* ]] || { check_uml "$line"; return; }
	p=$(line_prefix "$line")
	local initrd=$PDCM_TOP/build/${p}kunit.cpio
	kdir=$(scripts/kunit-kernel.sh "$line") || { record FAIL "kernel.${p}kunit"; return; }
	build_pdcm "${p}kunit" "$kdir" CONFIG_IB_PDCM=m CONFIG_IB_PDCM_TEST_ULP=m \
		CONFIG_IB_PDCM_SDP=m CONFIG_IB_PDCM_KDAPL=m CONFIG_IB_PDCM_KUNIT_TEST=m \
		CONFIG_IB_PDCM_SHIM_TEST=m CONFIG_IB_PDCM_IBCM=m CONFIG_IB_PDCM_SOFTIB=m || return
	ibcm_gate "${p}kunit" "$kdir"
	scripts/initramfs.sh kunit "$kdir" "$BUILT" "$initrd" ||
		{ record FAIL "initramfs.${p}kunit"; return; }
	# (RCU stall warnings while the kernel boots are the starved TCG
	# host's, not the guest's: seen with kmemleak=on at load 3)
	# KUNIT_WORDS: more words for these guests' command lines (a demo of a
	# failing load: KUNIT_WORDS=module_blacklist=pdcm_kunit)
	# The kernel has no ACPI (tests/vm/kunit.config), so no HPET or ACPI PM
	# timer either: tsc=reliable keeps the clocksource watchdog from
	# judging the TSC (under TCG the host's own) by jiffies, which a
	# starved guest's ticks make late.
	local bz=$kdir/arch/x86/boot/bzImage dbg="panic_on_warn=1 kasan_multi_shot rcupdate.rcu_cpu_stall_suppress_at_boot=1 tsc=reliable${KUNIT_WORDS:+ $KUNIT_WORDS}"
	"kunit_scenarios_${line//./_}"
}

# The 6.1 KUnit kernel's guests (check_kunit's locals in scope).
kunit_scenarios_6_1() {
	KUNIT_B="$bz|$initrd|$dbg|1024"	# check_vm's pairs with pdcm on this kernel
	# the suites, then the module and connection scenarios under KASAN,
	# lockdep and panic_on_warn
	# (the short ones two guests of several scenarios each)
	group_guest kunit_ulp "$bz" "$initrd" 600 "$dbg" kunit_ module ulp_rc ulp_sidr ulp_rej ulp_leak
	group_guest kunit_shims "$bz" "$initrd" 600 "$dbg" kunit_ ulp_rping shim_sdp shim_kdapl ibcm_loop softib
	# allocation-failure sweeps, with kmemleak (Documentation/robustness.rst)
	guests "$bz" "$initrd" 600 "kunit|$dbg pdcmvm.scenario=kunit" \
		"kunit_fault_remove|$dbg pdcmvm.scenario=fault_remove" \
		"kunit_faults|$dbg kmemleak=on pdcmvm.scenario=faults"
}

# The 6.12 KUnit kernel's guests: the suites (the same pdcm_kunit.ko,
# under 6.12's KASAN and lockdep).
kunit_scenarios_6_12() {
	guests "$bz" "$initrd" 600 "k612_kunit|$dbg pdcmvm.scenario=kunit"
}

# check_vm [LINE]: pdcm built against LINE's stock headers (6.1 default)
# with W=1 and sparse, LINE's stock initramfs, and its guests
# (vm_scenarios_LINE).
check_vm() {
	local line=${1:-6.1} p stock kver
	p=$(line_prefix "$line")
	local initrd=$PDCM_TOP/build/${p}stock.cpio kdir sparse=(C=1 CF=-D__CHECK_ENDIAN__)
	stock=$(scripts/stock-kernel.sh "$line") || { record FAIL "kernel.${p}stock"; return; }
	kdir=$(stock_kdir "$line") || { record FAIL "kernel.${p}headers"; return; }
	# sparse (with endian checks) runs in this build: a report is a
	# warning, which fails it.  It builds where check_dkms's DKMS will
	# (stock_at), so that DKMS's compiles are this build's ccache hits.
	# 7.3 builds in the trixie root, without sparse (6.1 and 6.12 run it
	# over the same sources).
	line_in_root "$line" && sparse=()
	PDCM_AT_NAME=$(stock_at "$p") build_pdcm "${p}stock" "$kdir" "${sparse[@]}" \
		CONFIG_IB_PDCM=m CONFIG_IB_PDCM_TEST_ULP=m \
		CONFIG_IB_PDCM_SDP=m CONFIG_IB_PDCM_KDAPL=m CONFIG_IB_PDCM_SHIM_TEST=m \
		CONFIG_IB_PDCM_IBCM=m CONFIG_IB_PDCM_SOFTIB=m || return
	ibcm_gate "${p}stock" "$kdir"
	if [ ${#sparse[@]} -gt 0 ]; then
		grep -q ' CHECK ' "$LOGS/build-${p}stock.log" && record PASS "style.${p}sparse" ||
			record FAIL "style.${p}sparse" "$LOGS/build-${p}stock.log"
	fi
	# 7.3's image carries its source's RDMA selftests (rdma_selftests_*)
	local st=
	if [ "$line" = 7.3 ]; then
		st=$(pristine_source "$line")/tools/testing/selftests
		[ -d "$st/rdma" ] || st=
	fi
	PDCM_SELFTESTS=$st scripts/initramfs.sh stock "$stock" "$BUILT" "$initrd" ||
		{ record FAIL "initramfs.${p}stock"; return; }
	STOCK_BOOT[$line]="$stock/vmlinux|$initrd"
	"vm_scenarios_${line//./_}"
}

# What check_vm boots per line: "VMLINUX|INITRD" (the cross pair's B).
declare -A STOCK_BOOT=()

# The 6.1 stock kernel's guests (check_vm's locals in scope).
vm_scenarios_6_1() {
	# two guests each (A the stock CM, B pdcm): what the stock CM sees of
	# pdcm, and interoperability with rdma-core's tools
	# (Documentation/interop.rst): pdcm passive, pdcm active, listen demux
	# with backlog and duplicate REQs, rping both ways (RDMA READ/WRITE
	# with rping's buffer advertisements), lost REP/DREQ/SIDR_REQ/DREP
	# (test_drop, each retransmitted by one CM or the other); the shims
	# between guests (Documentation/shims.rst): SDP between two pdcm
	# guests, kDAPL against rdma_client and rdma_server
	# (each group of pairs one pair of guests, pair_group)
	VM_MEM=512 pair_group "$stock/vmlinux" "$initrd" interop_peer interop_pdcm \
		"mad_rx_peer|mad_rx_pdcm|120" \
		"interop_rx_peer|interop_rx_pdcm|150" \
		"interop_tx_peer|interop_tx_pdcm|150" \
		"interop_demux_peer|interop_demux_pdcm|180"
	VM_MEM=512 pair_group "$stock/vmlinux" "$initrd" interop2_peer interop2_pdcm \
		"shim_sdp_pair_a|shim_sdp_pair_b|150" \
		"shim_kdapl_peer|shim_kdapl_pdcm|150" \
		"interop_rping_peer|interop_rping_pdcm|150" \
		"interop_drop_peer|interop_drop_pdcm|180"
	# the hostile CM peer (tests/hostile) against pdcm: forged messages,
	# a REQ flood, stale-QPN storms, crossed DREQs, REJ-then-reuse
	# (Documentation/robustness.rst)
	VM_MEM=512 PAIR_A_WORDS="pdcmvm.flood=${FLOOD_REQS:-3000}" \
		pair_group "$stock/vmlinux" "$initrd" hostile_peer hostile_pdcm \
		"hostile_forge_peer|hostile_forge_pdcm|240" \
		"hostile_storm_peer|hostile_storm_pdcm|240" \
		"hostile_teardown_peer|hostile_teardown_pdcm|240" \
		"hostile_flood_peer|hostile_flood_pdcm|${FLOOD_TIMEOUT:-300}"
	# with B on the KUnit kernel (pdcm under KASAN, lockdep and
	# panic_on_warn): the richest interop pairs against the stock CM's
	# traffic, the fuzzer (20,000 MADs here, 10^6 in `make fuzz`), and the
	# drop-in on the host side of NVMe over RDMA (ibcm_vm)
	local fuzz="hostile_fuzz_peer|hostile_fuzz_pdcm|${FUZZ_TIMEOUT:-300}"
	if [ -n "${KUNIT_B:-}" ]; then
		PAIR_B=$KUNIT_B PAIR_PREFIX=kunit_ VM_MEM=768 \
			PAIR_A_WORDS="pdcmvm.fuzz=${FUZZ_MADS:-20000}" \
			pair_group "$stock/vmlinux" "$initrd" pairs_peer pairs_pdcm \
			"interop_rx_peer|interop_rx_pdcm|240" \
			"interop_demux_peer|interop_demux_pdcm|240" "$fuzz" \
			"ibcm_nvme_tgt_peer|ibcm_nvme_host_pdcm|420"
	else
		# (`check.sh vm` alone has no KUnit kernel: the fuzzer's B runs
		# the stock one, and the other three already ran on it)
		VM_MEM=512 PAIR_A_WORDS="pdcmvm.fuzz=${FUZZ_MADS:-20000}" \
			pairs "$stock/vmlinux" "$initrd" "$fuzz"
	fi
	# single-guest scenarios, three guests that run several each: the
	# module, its parameters, and pdcm on both ends of rxe loopback through
	# the test ULP's real QPs; a smoke of `make bench-conn`
	# (Documentation/performance.rst: 100 cmtime connections on each CM)
	# and of `make bench`'s REQ dispatch (10 per-IP listeners on each
	# stack); the shims and the ib_cm drop-in on one guest
	local w="pdcmvm.bench_n=100 pdcmvm.bench_cms=stock,pdcm pdcmvm.demux_n=1,10 pdcmvm.demux_reqs=10"
	VM_MEM=512 group_guest stock_base "$stock/vmlinux" "$initrd" 300 "$w" stock_ \
		module params trace ulp_demo bench_conn bench_demux
	VM_MEM=512 group_guest stock_ulp "$stock/vmlinux" "$initrd" 300 "" stock_ \
		ulp_rc ulp_demux ulp_sidr ulp_rej ulp_leak ulp_rping
	# (bench_cm: the smoke run of `make bench-cm`, 1,000 handshakes at
	# concurrencies 1, 64 and 1,000 on the kernel's ib_cm and on pdcm's
	# drop-in over softib, and 1,000 held at once: every one completes)
	VM_MEM=512 group_guest stock_shims "$stock/vmlinux" "$initrd" 300 "" stock_ \
		shim_sdp shim_kdapl fault_remove ibcm_loop softib bench_cm
	# FAULT_N=N: fault_remove with N connections moving data (default 48)
	[ -n "${FAULT_N:-}" ] && VM_MEM=2048 guests "$stock/vmlinux" "$initrd" $((600 + 2 * FAULT_N)) \
		"stock_fault_remove_$FAULT_N|pdcmvm.scenario=fault_remove pdcmvm.fault_n=$FAULT_N"
	# more connections than the HCA has address handles (rxe: 32,767):
	# 17,000 held at once pdcm-to-pdcm, 34,000 ids (Documentation/design.rst,
	# "Address handles"), in about a minute (505 s on a slow host with four
	# other guests beside it: a cap of 900 s)
	VM_MEM=2048 guests "$stock/vmlinux" "$initrd" 900 \
		"stock_scale|pdcmvm.scenario=bench_scale pdcmvm.scale_n=17000"
	ibcm_vm "$stock/vmlinux" "$initrd"
}

# The 6.12 stock kernel's guests (check_vm's locals in scope), named k612_*.
# K612_PAIRS, K612_PAIRS2 and K612_SCENARIOS are the lists to extend: pairs
# "A|B|TIMEOUT" of scenario files (A the stock CM, B pdcm), run in turn on
# the pair of guests k612_interop_* and k612_interop2_* respectively, and
# single-guest scenarios, run in turn on k612_stock_group.
# The ib_cm drop-in's rdma-core and NVMe scenarios: ibcm_vm.
K612_PAIRS=(
	"mad_rx_peer|mad_rx_pdcm|120"
	"interop_rx_peer|interop_rx_pdcm|150"
	"interop_tx_peer|interop_tx_pdcm|150"
	"interop_demux_peer|interop_demux_pdcm|180"
)
K612_PAIRS2=(
	"shim_sdp_pair_a|shim_sdp_pair_b|150"
	"shim_kdapl_peer|shim_kdapl_pdcm|150"
	"interop_rping_peer|interop_rping_pdcm|150"
)
K612_SCENARIOS=(module ulp_rc ulp_demux shim_sdp shim_kdapl ibcm_loop softib bench_cm)

vm_scenarios_6_12() {
	# the in-tree CM of 6.12 against pdcm on 6.12 (two pairs of guests)
	PAIR_PREFIX=k612_ VM_MEM=512 pair_group "$stock/vmlinux" "$initrd" interop_peer interop_pdcm \
		"${K612_PAIRS[@]}"
	PAIR_PREFIX=k612_ VM_MEM=512 pair_group "$stock/vmlinux" "$initrd" interop2_peer interop2_pdcm \
		"${K612_PAIRS2[@]}"
	# across versions: the 6.12 stock CM (A) against pdcm on 6.1 (B)
	[ -n "${STOCK_BOOT[6.1]:-}" ] && PAIR_B="${STOCK_BOOT[6.1]}||512" PAIR_PREFIX=cross_ \
		VM_MEM=512 pairs "$stock/vmlinux" "$initrd" "interop_rx_peer|interop_rx_pdcm|180"
	VM_MEM=512 group_guest k612_stock_group "$stock/vmlinux" "$initrd" 300 "" k612_stock_ \
		"${K612_SCENARIOS[@]}"
	ibcm_vm "$stock/vmlinux" "$initrd" k612_
}

# The 7.3 stock kernel's guests (check_vm's locals in scope), named k73_*:
# what differs by kernel under pdcm -- the MAD layer (6.17's flow control
# of solicited MADs), 7.3's own rdma_cm and ib_cm, and the drop-in's
# ib_prepare_cm_mra() -- with the cases that reach it once each
# (Documentation/testing.rst, "Which scenarios run on which kernel"):
# the in-tree CM of 7.3 against pdcm both ways (one pair of guests), the
# module and pdcm on both ends of rxe loopback, the shims and the drop-in
# (one guest), and the drop-in against 7.3's ib_cm with rdma-core's tools
# and NVMe over RDMA (ibcm_vm); with 6.1 in the run, the ibcm pair across
# 6.1 and 7.3 each way (cross73_*).
K73_PAIRS=(
	"mad_rx_peer|mad_rx_pdcm|120"
	"interop_rx_peer|interop_rx_pdcm|150"
	"interop_tx_peer|interop_tx_pdcm|150"
)
# (softib builds for 7.3 but does not run there yet: three of its
# connections end with -EINVAL from a QP transition on 7.3 while pdcm's
# own first one connects; Documentation/testing.rst, "softib")
K73_SCENARIOS=(module ulp_rc ulp_demux shim_sdp shim_kdapl ibcm_loop)

vm_scenarios_7_3() {
	PAIR_PREFIX=k73_ VM_MEM=512 pair_group "$stock/vmlinux" "$initrd" interop_peer interop_pdcm \
		"${K73_PAIRS[@]}"
	VM_MEM=512 group_guest k73_stock_group "$stock/vmlinux" "$initrd" 300 "" k73_stock_ \
		"${K73_SCENARIOS[@]}"
	ibcm_vm "$stock/vmlinux" "$initrd" k73_
	# the kernel's own RDMA selftests (tools/testing/selftests/rdma of
	# linux-source-7.3, in the image: check_vm) through the drop-in, then
	# on 7.3's ib_cm as their reference, on one guest
	[ -z "$st" ] || VM_MEM=512 group_guest k73_selftests "$stock/vmlinux" "$initrd" 300 "" k73_ \
		rdma_selftests_pdcm rdma_selftests_stock
	# the hostile peer's REQ flood (3,000 never-completed REQs, probes to
	# a second listen and to the flooded one) against pdcm on 7.3's MAD
	# layer, which from 6.17 holds a CM agent's sends past recvq_size/4
	# outstanding (hostile_flood_pdcm's REPs to the flood)
	VM_MEM=512 PAIR_PREFIX=k73_ PAIR_A_WORDS="pdcmvm.flood=${FLOOD_REQS:-3000}" \
		pairs "$stock/vmlinux" "$initrd" "hostile_flood_peer|hostile_flood_pdcm|${FLOOD_TIMEOUT:-300}"
	# across versions, one pair each way, rdma-core's tools both ways
	# (ibcm_peer's stock CM against ibcm_pdcm's drop-in): 7.3's ib_cm (A)
	# against the drop-in on 6.1 (B), and 6.1's ib_cm (A) against the
	# drop-in on 7.3 (B)
	if [ -n "${STOCK_BOOT[6.1]:-}" ]; then
		local b61=${STOCK_BOOT[6.1]}
		PAIR_B="$b61||768" PAIR_PREFIX=cross73_ VM_MEM=768 pairs "$stock/vmlinux" "$initrd" \
			"ibcm_peer|ibcm_pdcm|300|stock73_ibcm_peer|dropin61_ibcm_pdcm"
		PAIR_B="$stock/vmlinux|$initrd||768" PAIR_PREFIX=cross73_ VM_MEM=768 \
			pairs "${b61%%|*}" "${b61#*|}" \
			"ibcm_peer|ibcm_pdcm|300|stock61_ibcm_peer|dropin73_ibcm_pdcm"
	fi
}

# --- ib_cm drop-in guests (Documentation/ibcm.rst) -------------------------
# Debian's own rdma_cm, rdma_ucm and rdma-core tools on compat/ib_cm.ko:
# a pair against the stock CM (A stock, B the drop-in) and a pair of
# drop-in guests, each running every tool both ways.  (The one on rxe
# loopback, ibcm_loop, runs in stock_shims and k612_stock_group.)
ibcm_vm() {
	local k=$1 i=$2 p=${3:-}
	# the tools pair; NVMe over Fabrics (RDMA) through the kernel's
	# nvmet-rdma / nvme-rdma on rdma_cm: the drop-in on the target side,
	# then on the host side (6.12 runs these, issue 14)
	local specs=("ibcm_peer|ibcm_pdcm|300" "ibcm_nvme_host_peer|ibcm_nvme_tgt_pdcm|300"
		"ibcm_nvme_tgt_peer|ibcm_nvme_host_pdcm|300")
	# on 6.1 also coexistence with native listens, and a VLAN on the rxe
	# netdev (issue 34 #3)
	[ -n "$p" ] || specs+=("ibcm_coexist_peer|ibcm_coexist_pdcm|200"
		"ibcm_vlan_peer|ibcm_vlan_pdcm|240")
	PAIR_PREFIX=$p VM_MEM=768 pair_group "$k" "$i" ibcm_group_peer ibcm_group_pdcm "${specs[@]}"
	[ -z "$p" ] || return 0
	# more of Debian's ULPs over rdma_cm (issue 33), the drop-in on the
	# server side, then on the client side: SRP over RoCE (ib_srpt, LIO
	# through configfs; ib_srp add_target dest=IP:PORT), NFS over RDMA
	# (nfsd's RDMA port 20049, NFSv4.1 mount -o rdma), iSER (LIO's
	# ib_isert through configfs, open-iscsi's iscsiadm -I iser)
	VM_MEM=768 pair_group "$k" "$i" ibcm_ulp_peer ibcm_ulp_pdcm \
		"ibcm_srp_ini_peer|ibcm_srp_tgt_pdcm|300" \
		"ibcm_srp_tgt_peer|ibcm_srp_ini_pdcm|300" \
		"ibcm_nfs_cli_peer|ibcm_nfs_srv_pdcm|300" \
		"ibcm_nfs_srv_peer|ibcm_nfs_cli_pdcm|300" \
		"ibcm_iser_ini_peer|ibcm_iser_tgt_pdcm|300" \
		"ibcm_iser_tgt_peer|ibcm_iser_ini_pdcm|300"
	# two drop-in guests (its A side is pdcm too)
	PAIR_PREFIX=pp_ VM_MEM=512 pairs "$k" "$i" "ibcm_pdcm_a|ibcm_pdcm|300"
	# (the KUnit kernel's drop-in guest, B of kunit_pairs_*, is not on the
	# target side: there lockdep reports nvmet's own circular
	# dependency, nvmet_config_sem against rdma_cm's handler_mutex, and
	# not in the tools pair: KASAN reports rxe under rstream; ibcm.rst)
}
# --- end ib_cm drop-in guests ----------------------------------------------

# Packaging (scripts/install.sh): `make install` into a staging root, DKMS
# in a throwaway root, then a guest whose only ib_pdcm is the DKMS one.
# One pool job (the guest needs what the DKMS step builds); dkms_count
# reads its output.
# check_dkms [LINE]: the same against LINE's stock kernel (6.1 default);
# on 6.12 the steps and the guest are named k612_*.
check_dkms() {
	local line=${1:-6.1} p stock
	p=$(line_prefix "$line")
	line_in_root "$line" && return 0	# (DKMS needs the headers on the host)
	stock=$(scripts/stock-kernel.sh "$line") || { record FAIL "kernel.${p}stock"; return; }
	vm_only "${p}stock_dkms" || return 0
	queue_job 1 dkms_job "$stock" "$p"
	BOOTED[dkms]=1
	COUNT_ORDER+=("@dkms$p" "${p}stock_dkms")
}

dkms_job() {	# dkms_job STOCK PREFIX
	rm -f "$LOGS/${2}stock_dkms.result" "build/${2}dkms.cpio"
	PDCM_TAG=$2 scripts/install.sh check "$1" >"$LOGS/${2}dkms.out" 2>&1
	[ -f "build/${2}dkms.cpio" ] &&
		VM_MEM=512 guest_boot "${2}stock_dkms" "$1/vmlinux" "build/${2}dkms.cpio" 300 \
			"pdcmvm.scenario=dkms"
}

dkms_count() {	# dkms_count PREFIX
	record_lines "$1" <"$LOGS/${1}dkms.out"
}

# check_deb [LINE]: `make deb`'s pdcm-dkms (scripts/deb.sh), built and
# checked by lintian on the host (k73_deb.build, k73_deb.lintian), then installed
# with apt in the guest k73_stock_deb: Debian's 7.3 kernel with a disk that
# is a trixie system (the deb root: that kernel's modules and headers,
# gcc-14, dkms), where the package's dkms builds pdcm for the running
# kernel (the deb scenario).  7.3 only (the deb root is trixie's), and only
# with PDCM_DEB=1: dkms compiles pdcm inside the guest, under TCG, which
# is longer than make check can give one guest (Documentation/testing.rst).
check_deb() {
	local line=${1:-6.1} p stock deb img log=$LOGS/deb-build.log
	[ "$line" = 7.3 ] && [ "${PDCM_DEB:-0}" = 1 ] || return 0
	p=$(line_prefix "$line")
	vm_only "${p}stock_deb" || return 0
	stock=$(scripts/stock-kernel.sh "$line") || { record FAIL "kernel.${p}stock"; return; }
	scripts/deb.sh build >"$log" 2>&1
	case $? in
	0) record PASS "${p}deb.build"; record PASS "${p}deb.lintian" ;;
	2) record PASS "${p}deb.build"; record FAIL "${p}deb.lintian" "$log" ;;	# (lintian's error or warning)
	*) record FAIL "${p}deb.build" "$log"; return ;;
	esac
	deb=$(ls build/deb/pdcm-dkms_*_all.deb)
	img=$(scripts/deb.sh image "$stock" 2>>"$log") || { record FAIL "${p}deb.image" "$log"; return; }
	scripts/deb.sh initramfs "$stock" "$deb" "$PDCM_TOP/build/${p}deb.cpio" >>"$log" 2>&1 ||
		{ record FAIL "initramfs.${p}deb" "$log"; return; }
	# the disk's writes go to a temporary file qemu deletes (snapshot=on);
	# the guest took 1,022 to 1,450 s on the shared machine at load 4-12
	VM_MEM=1536 queue_job 1 guest_boot "${p}stock_deb" "$stock/vmlinux" \
		"$PDCM_TOP/build/${p}deb.cpio" "${DEB_TIMEOUT:-2700}" "pdcmvm.scenario=deb" \
		-device virtio-net-pci,mac=52:54:00:00:00:01,speed=10000,duplex=full \
		-drive "file=$img,format=raw,if=virtio,snapshot=on"
	COUNT_ORDER+=("${p}stock_deb")
}

# check_uml [LINE]: the upstream way (kunit.py on UML, LINE's source; 6.1
# default) in the pool, named uml.* on 6.1 and k612_uml.* on 6.12;
# uml_count reads it.
check_uml() {
	local line=${1:-6.1} p
	p=$(line_prefix "$line")
	[ -x "$PDCM_TOP/scripts/kunit-uml.sh" ] || return 0
	vm_only "${p}uml" || return 0
	queue_job 1 sh -c '"$1" "$2" >"$3/$4uml.out" 2>"$3/$4uml.stderr"' sh \
		"$PDCM_TOP/scripts/kunit-uml.sh" "$line" "$LOGS" "$p"
	COUNT_ORDER+=("@uml$p")
}

uml_count() {	# uml_count PREFIX
	local g=
	[ -z "$1" ] || g=${1}uml
	count_file "$LOGS/${1}uml.out" "${1}uml.run" "$LOGS/${1}uml.stderr" "$g"
}

# timed FUNCTION ARGS...: run it and say how long it took (stderr)
timed() {
	local t=$SECONDS
	"$@"
	[ $? -eq 127 ] && record FAIL "harness.$1"
	log "$*: $((SECONDS - t)) s"
}

# per_kernel FUNCTION: run it for each line in PDCM_KERNELS, in the order
# of PDCM_LINES (6.12's cross pair boots what 6.1's check_vm built).
per_kernel() {
	local l
	for l in $PDCM_LINES; do
		[[ " $PDCM_KERNELS " == *" $l "* ]] || continue
		timed "$1" "$l"
	done
}

# prefetch: start each KUnit kernel that check_kunit will need, the UML
# kernel of each line whose suites run on UML, and each stock kernel
# check_vm will fetch, in the background, so that a cold run's
# kernel build fills what the style gates, the downloads and the
# single-threaded unpacking leave of the two cores (on a warm run each
# finds its kernel ready and ends at once).  check_kunit's and check_vm's
# own calls wait for them on the build's or fetch's lock; count_all's
# `wait` reaps them.
prefetch() {
	local l
	for l in $PDCM_KERNELS; do
		if [[ " $PDCM_KUNIT_VM " == *" $l "* ]]; then
			scripts/kunit-kernel.sh "$l" >/dev/null 2>"$LOGS/kunit-kernel-$l.log" &
		elif vm_only "$(line_prefix "$l")uml"; then
			# UML's kernel builds at nice 19 from the start: on what
			# the KUnit kernel's build, the style gates and pdcm's
			# builds leave idle, then on what the guests leave idle
			# while they wait on their timers; check_uml's run (in
			# the pool) waits for it on its lock.  (Started at the
			# same priority beside the KUnit kernel it made a cold
			# run slower: testing.rst, "How long it takes".)
			nice -n 19 scripts/kunit-uml.sh "$l" build 2>"$LOGS/uml-build-$l.log" &
		fi
	done
	# one apt-get at a time
	for l in $PDCM_KERNELS; do
		scripts/stock-kernel.sh "$l" >/dev/null 2>"$LOGS/stock-kernel-$l.log"
	done &
}

cd "$PDCM_TOP"
scripts/deps.sh || die "dependency install failed"
t0=$SECONDS
case $what in
all) prefetch; timed check_host; timed check_style sparse; per_kernel check_kunit; per_kernel check_vm
     per_kernel check_dkms; per_kernel check_deb; check_booted ;;
kunit) check_host; per_kernel check_kunit ;;
vm) check_host; per_kernel check_vm; [ -n "${VM_ONLY:-}" ] || per_kernel check_dkms
    per_kernel check_deb ;;
dkms) per_kernel check_dkms; per_kernel check_deb ;;
uml) per_kernel check_uml ;;
style) check_style ;;
fuzz) export VM_ONLY=${VM_ONLY:-'^(kunit_)?hostile_(fuzz|flood)_'} FUZZ_MADS=${FUZZ_MADS:-1000000}
      export FLOOD_REQS=${FLOOD_REQS:-100000}
      export FUZZ_TIMEOUT=$((600 + FUZZ_MADS / 40)) FLOOD_TIMEOUT=$((300 + FLOOD_REQS / 40))
      check_host; check_kunit; check_vm ;;
*) die "usage: check.sh all|kunit|vm|dkms|uml|style|fuzz" ;;
esac
timed count_all
times >"$LOGS/times.total"
log "total $((SECONDS - t0)) s, $(cpu_secs <"$LOGS/times.total") CPU seconds; logs in $LOGS"
rm -f "$LOGS/times.total"
# guests booted again (boot_crashed): said last, where CI's tail shows it
[ ! -s "$LOGS/boot-crashes" ] ||
	sed 's/^/pdcm: booted again after a crash before \/init: /' "$LOGS/boot-crashes" >&2
line_summary
echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
