#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The test command (`make check`, and its halves):
#   check.sh all     everything below
#   check.sh kunit   KUnit suites in the debug KUnit kernel (KASAN, lockdep)
#   check.sh vm      VM scenarios on Debian's stock kernel with rxe
#   check.sh uml     the KUnit suites the upstream way (kunit.py, UML)
#   check.sh dkms    packaging: make install staged, DKMS, the dkms guest
#   check.sh style   checkpatch --strict, sparse, SPDX lines, kernel-doc
# Ends with one line "N passed, N failed, N skipped" counting every KUnit
# case, every VM scenario case, every host-side step (module builds) and
# two health cases per guest; exits non-zero if anything failed.
set -uo pipefail
. "$(dirname "$0")/common.sh"
. "$PDCM_TOP/scripts/vm.sh"

what=${1:-all}
LOGS=$PDCM_TOP/build/logs
mkdir -p "$LOGS"
PASSED=0 FAILED=0 SKIPPED=0

record() {	# record STATUS NAME [detail file]
	case $1 in
	PASS) PASSED=$((PASSED + 1)) ;;
	SKIP) SKIPPED=$((SKIPPED + 1)) ;;
	*) FAILED=$((FAILED + 1)) ;;
	esac
	echo "$1 $2"
	if [ "$1" = FAIL ] && [ -n "${3:-}" ]; then tail -n 30 "$3" | sed 's/^/    /'; fi
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

# guest_boot NAME KERNEL INITRD TIMEOUT "WORDS" [qemu args]: boot one guest
# and read its console into $LOGS/NAME.result (ktap.py output).
guest_boot() {
	local name=$1 log=$LOGS/$1.log t0=$SECONDS
	shift
	vm_run "$log" "$@"
	[ $? -eq 124 ] && echo "pdcm: guest $name timed out" >>"$log"
	python3 "$PDCM_TOP/tests/vm/ktap.py" "$log" "$name" >"$LOGS/$name.result"
	echo "guest $name: $((SECONDS - t0)) s" >>"$LOGS/$name.result"
}

# guest_count NAME: show a guest's results and add them to the totals.
guest_count() {
	local r=$LOGS/$1.result
	grep -v '^counts:' "$r"
	set -- $(sed -n 's/^counts: //p' "$r")
	PASSED=$((PASSED + $1)) FAILED=$((FAILED + $2)) SKIPPED=$((SKIPPED + $3))
}

# VM_ONLY=REGEX boots only the guests whose names match it (a quick loop
# while working on one scenario); unset, every guest runs.
vm_only() {
	[ -z "${VM_ONLY:-}" ] || [[ $1 =~ $VM_ONLY ]]
}

guest() {
	vm_only "$1" || return 0
	guest_boot "$@"
	guest_count "$1"
}

# guests KERNEL INITRD TIMEOUT "NAME|WORDS"...: independent single guests,
# VM_PARALLEL at a time (one vCPU each: default, one per host core), then
# counted in the order given.
VM_PARALLEL=${VM_PARALLEL:-$JOBS}
guests() {
	local k=$1 i=$2 t=$3 spec n
	shift 3
	local pids=() names=()
	for spec in "$@"; do
		n=${spec%%|*}
		vm_only "$n" || continue
		guest_boot "$n" "$k" "$i" "$t" "${spec#*|}" &
		pids+=($!)
		names+=("$n")
		if [ ${#pids[@]} -ge "$VM_PARALLEL" ]; then
			wait "${pids[0]}"
			pids=("${pids[@]:1}")
		fi
	done
	wait
	for n in "${names[@]}"; do
		guest_count "$n"
	done
}

# The harness checks itself first: its KTAP reader must fail broken guests.
check_host() {
	local l
	while read -r l; do
		case $l in
		*" ... ok") record PASS "host.${l%% *}" ;;
		*" ... skipped"*) record SKIP "host.${l%% *}" ;;
		*" ... "*) record FAIL "host.${l%% *}" ;;
		esac
	done < <(python3 tests/vm/test_ktap.py -v 2>&1)
}

# pair_boot A_NAME A_WORDS B_NAME B_WORDS TIMEOUT PORT KERNEL INITRD: two
# guests joined by a 127.0.0.1 dgram link on PORT (A is 10.0.0.1, B is
# 10.0.0.2), booted at once.
pair_boot() {
	local an=$1 aw=$2 bn=$3 bw=$4 t=$5 port=$6 k=$7 i=$8 pb
	guest_boot "$bn" "$k" "$i" "$t" "$bw pdcmvm.ip=10.0.0.2 pdcmvm.peer=10.0.0.1" \
		$(vm_dgram_nic B "$port") &
	pb=$!
	guest_boot "$an" "$k" "$i" "$t" "$aw pdcmvm.ip=10.0.0.1 pdcmvm.peer=10.0.0.2" \
		$(vm_dgram_nic A "$port")
	wait "$pb"
}

# pairs KERNEL INITRD "A_NAME|B_NAME|TIMEOUT"...: two-guest scenarios (each
# guest's scenario is its name), PAIR_PARALLEL pairs at a time (default 2:
# the guests of a pair mostly wait on each other's protocol timers), each
# on its own link, then counted in the order given.
PAIR_PARALLEL=${PAIR_PARALLEL:-2}
PAIR_PORT=$((40000 + RANDOM % 5000 * 4))
pairs() {
	local k=$1 i=$2 spec an bn t
	shift 2
	local pids=() names=()
	for spec in "$@"; do
		IFS='|' read -r an bn t <<<"$spec"
		vm_only "$an" || vm_only "$bn" || continue
		PAIR_PORT=$((PAIR_PORT + 2))
		pair_boot "$an" "pdcmvm.scenario=$an" "$bn" "pdcmvm.scenario=$bn" \
			"$t" "$PAIR_PORT" "$k" "$i" &
		pids+=($!)
		names+=("$an" "$bn")
		if [ ${#pids[@]} -ge "$PAIR_PARALLEL" ]; then
			wait "${pids[0]}"
			pids=("${pids[@]:1}")
		fi
	done
	wait
	for an in "${names[@]}"; do
		guest_count "$an"
	done
}

# Style gates: checkpatch --strict per file, sparse, SPDX lines.
# check_style [GATE]: all of them but GATE (check_vm's build runs sparse).
check_style() {
	local g l
	for g in checkpatch sparse spdx kerneldoc; do
		[ "$g" = "${1:-}" ] && continue
		while read -r l; do
			case $l in
			"PASS "*) record PASS "style.${l#PASS }" ;;
			"FAIL "*) record FAIL "style.${l#FAIL }" ;;
			*) echo "$l" ;;
			esac
		done < <(scripts/style.sh $g 2>&1)
	done
	# make docs: kernel-doc rendered, every page through docutils
	if scripts/docs.sh >"$LOGS/docs.log" 2>&1; then
		record PASS style.docs
	else
		record FAIL style.docs "$LOGS/docs.log"
	fi
}

check_kunit() {
	local kdir initrd=$PDCM_TOP/build/kunit.cpio.gz
	kdir=$(scripts/kunit-kernel.sh) || { record FAIL kernel.kunit; return; }
	build_pdcm kunit "$kdir" CONFIG_IB_PDCM=m CONFIG_IB_PDCM_TEST_ULP=m \
		CONFIG_IB_PDCM_SDP=m CONFIG_IB_PDCM_KDAPL=m CONFIG_IB_PDCM_KUNIT_TEST=m \
		CONFIG_IB_PDCM_SHIM_TEST=m || return
	scripts/initramfs.sh kunit "$kdir" "$BUILT" "$initrd" || { record FAIL initramfs.kunit; return; }
	local bz=$kdir/arch/x86/boot/bzImage dbg="panic_on_warn=1 kasan_multi_shot"
	# the suites, then the module and connection scenarios under KASAN,
	# lockdep and panic_on_warn
	local s specs=("kunit|$dbg pdcmvm.scenario=kunit" "kunit_module|$dbg pdcmvm.scenario=module")
	for s in ulp_rc ulp_sidr ulp_rej ulp_leak ulp_rping shim_sdp shim_kdapl; do
		specs+=("kunit_$s|$dbg pdcmvm.scenario=$s")
	done
	guests "$bz" "$initrd" 600 "${specs[@]}"
}

check_vm() {
	local stock kver initrd=$PDCM_TOP/build/stock.cpio.gz
	stock=$(scripts/stock-kernel.sh) || { record FAIL kernel.stock; return; }
	kver=$(cat "$stock/kver")
	# sparse (with endian checks) runs in this build: a report is a
	# warning, which fails it
	build_pdcm stock "/usr/src/linux-headers-$kver" C=1 CF=-D__CHECK_ENDIAN__ \
		CONFIG_IB_PDCM=m CONFIG_IB_PDCM_TEST_ULP=m \
		CONFIG_IB_PDCM_SDP=m CONFIG_IB_PDCM_KDAPL=m CONFIG_IB_PDCM_SHIM_TEST=m || return
	grep -q ' CHECK ' "$LOGS/build-stock.log" && record PASS style.sparse ||
		record FAIL style.sparse "$LOGS/build-stock.log"
	scripts/initramfs.sh stock "$stock" "$BUILT" "$initrd" || { record FAIL initramfs.stock; return; }
	# two guests each (A the stock CM, B pdcm): what the stock CM sees of
	# pdcm, and interoperability with rdma-core's tools
	# (Documentation/interop.rst): pdcm passive, pdcm active, listen demux
	# with backlog and duplicate REQs, rping both ways (RDMA READ/WRITE
	# with rping's buffer advertisements); the shims between guests
	# (Documentation/shims.rst): SDP between two pdcm guests, kDAPL
	# against rdma_client and rdma_server
	VM_MEM=512 pairs "$stock/vmlinux" "$initrd" \
		"mad_rx_peer|mad_rx_pdcm|120" \
		"interop_rx_peer|interop_rx_pdcm|150" \
		"interop_tx_peer|interop_tx_pdcm|150" \
		"interop_demux_peer|interop_demux_pdcm|180" \
		"shim_sdp_pair_a|shim_sdp_pair_b|150" \
		"shim_kdapl_peer|shim_kdapl_pdcm|150" \
		"interop_rping_peer|interop_rping_pdcm|150"
	# one guest each: the module, its parameters, and pdcm on both ends of
	# rxe loopback through the test ULP's real QPs
	local s specs=("stock_module|pdcmvm.scenario=module" "stock_params|pdcmvm.scenario=params")
	for s in ulp_rc ulp_demux ulp_sidr ulp_rej ulp_leak ulp_rping ulp_demo trace shim_sdp shim_kdapl; do
		specs+=("stock_$s|pdcmvm.scenario=$s")
	done
	VM_MEM=512 guests "$stock/vmlinux" "$initrd" 180 "${specs[@]}"
}

# Packaging (scripts/install.sh): `make install` into a staging root, DKMS
# in a throwaway root, then a guest whose only ib_pdcm is the DKMS one.
check_dkms() {
	local stock l
	stock=$(scripts/stock-kernel.sh) || { record FAIL kernel.stock; return; }
	while read -r l; do
		case $l in
		"PASS "*) record PASS "${l#PASS }" ;;
		"FAIL "*) record FAIL "${l#FAIL }" ;;
		*) echo "$l" ;;
		esac
	done < <(scripts/install.sh check "$stock" 2>&1)
	[ -f build/dkms.cpio.gz ] || return
	VM_MEM=512 guest stock_dkms "$stock/vmlinux" build/dkms.cpio.gz 120 "pdcmvm.scenario=dkms"
}

check_uml() {
	if [ -x "$PDCM_TOP/scripts/kunit-uml.sh" ]; then
		local out
		out=$("$PDCM_TOP/scripts/kunit-uml.sh" 2>"$LOGS/uml.stderr")
		echo "$out" | grep -v '^counts:'
		set -- $(echo "$out" | sed -n 's/^counts: //p')
		if [ $# -eq 3 ]; then
			PASSED=$((PASSED + $1)) FAILED=$((FAILED + $2)) SKIPPED=$((SKIPPED + $3))
		else
			record FAIL uml.run "$LOGS/uml.stderr"
		fi
	fi
}

cd "$PDCM_TOP"
scripts/deps.sh || die "dependency install failed"
t0=$SECONDS
case $what in
all) check_host; check_style sparse; check_kunit; check_vm; check_dkms; check_uml ;;
kunit) check_host; check_kunit ;;
vm) check_host; check_vm; [ -n "${VM_ONLY:-}" ] || check_dkms ;;
dkms) check_dkms ;;
uml) check_uml ;;
style) check_style ;;
*) die "usage: check.sh all|kunit|vm|dkms|uml|style" ;;
esac
log "total $((SECONDS - t0)) s; logs in $LOGS"
echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
[ "$FAILED" -eq 0 ]
