# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Allocation-failure sweeps (Documentation/robustness.rst, "Allocation
# failures"), on the KUnit kernel (KASAN, lockdep, panic_on_warn) booted
# with kmemleak=on.  pdcm and the test ULP on both ends of rxe loopback.
#
# (a) caller context: each command of the ULP's ctl is written through
#     failnth (tests/faults/failnth.c) with the n-th fault injection point
#     of the writing thread failing -- failslab and fail_page_alloc with
#     ignore-gfp-wait=N, and pdcm's own attribute, which also honours
#     fail-nth -- for n = 1, 1 + STRIDE, ... until a write injects
#     nothing.  Each write returns 0 (its record says what happened) or
#     an errno; then "close", and the ULP and pdcm must hold nothing.
#     Commands: listen, connect (one RC connection, REQ to RTU, data,
#     DREQ/DREP, its teardown), sidr_listen, sidr (SIDR_REQ, datagram),
#     destroy_listener of a listener holding a REQ (REJ sent).
# (b) every context: pdcm's fault attribute (/sys/kernel/debug/pdcm/fail)
#     with space=k times=1 probability=100 fails the k-th allocation of
#     pdcm's (either role, work items, event delivery, MADs, address
#     handles, timeouts, DREQ handling) during one round of listen,
#     sidr_listen, connect (both roles), sidr (both roles) and close,
#     for k = 1.. until a round injects nothing.  Same assertions.
# Then nothing may be reported: no WARN (panic_on_warn), no KASAN or
# lockdep report in the kernel log, and kmemleak finds no leak once both
# modules are unloaded.
#
# During the sweeps the console shows only messages more severe than
# warnings (KASAN reports and panics still): failed page allocations
# print warn_alloc's backtraces, expected here; the log itself is checked
# afterwards.  pdcmvm.faults=full: stride 1 for every command and no
# bound on n; the default strides keep the guest within ~4 minutes.
. /pdcm/scenarios/ulp_lib.sh

D=/sys/kernel/debug
PF=$D/pdcm/fail
KL=$D/kmemleak
BIG=1000000
# At most this many injections per sweep: a sweep first counts its
# points (one uninjected pass with n = BIG), then fails every
# ceil(points / budget)-th.  pdcmvm.faults=full: every point.
A_BUDGET=12 B_BUDGET=60
# The (a) sweeps of commands that create a QP (connect, sidr_listen,
# sidr) stop the guest on 6.1: a failure inside rxe_create_qp() before
# rxe_qp_init_req() set up the QP's timers ends in rxe_qp_do_cleanup()
# deleting them uninitialised (ODEBUG "assert_init not available ...
# timer_list", a WARN: panic_on_warn).  That is rxe's bug, not pdcm's;
# they run only with pdcmvm.faults=full (or =qp).
QP_SWEEPS=
case $(cmdline_word faults) in
full) A_BUDGET=$BIG B_BUDGET=$BIG QP_SWEEPS=1 ;;
qp) QP_SWEEPS=1 ;;
esac
SPLAT='BUG:\|WARNING:\|KASAN:\|UBSAN:\|ODEBUG:\|possible circular\|possible recursive\|inconsistent lock state\|suspicious RCU usage\|sleeping function called\|refcount_t:\|list_add corruption\|list_del corruption\|unreferenced object'
CONN="connect 1 tcp:7302 $VM_IP 1 64 timeout=15 cm_timeout=14 retries=3"

# ULP and pdcm hold nothing (after a "close")
clean() { ulp_idle && pdcm_no_ids; }

# one connection to listener L, uninjected, that ends well
works() {
	ulp listen L tcp:7302 any && ulp $CONN &&
		ulp_is "run $(ulp_last run) " failed 0 && ulp close
}

# after_each WHAT: close everything; the ULP and pdcm must hold nothing
after_each() {
	ulp close
	wait
	wait_for clean 30 && return 0
	echo "$1: left behind: $(grep '^live' $ULP/results); pdcm: $(tail -n +2 $D/pdcm/connections | head -n 3)"
	ulp close
	wait_for clean 30
	return 1
}

stride_for() {	# stride_for POINTS BUDGET
	_st=$((($1 + $2 - 1) / $2))
	[ "$_st" -ge 1 ] || _st=1
	echo "$_st"
}

# sweep_a NAME SETUP OP: the caller-context sweep of ctl command OP,
# SETUP (shell, uninjected) before each write.  Prints its figures; fails
# on anything left behind, on no point found, or on a point past the
# counted ones still injecting.
sweep_a() {
	_name=$1 _setup=$2 _op=$3 _bad=0 _errs=0 _hits=0
	eval "$_setup" >/dev/null 2>&1
	_r=$(failnth $BIG "$ULP/ctl" "$_op") || { echo "count: $_r"; return 1; }
	after_each "count" || return 1
	_pts=$((BIG - ${_r##*left=}))
	_stride=$(stride_for "$_pts" "$A_BUDGET")
	_n=1
	while :; do
		eval "$_setup" >/dev/null 2>&1 || { echo "n=$_n: setup failed"; _bad=$((_bad + 1)); }
		_r=$(failnth "$_n" "$ULP/ctl" "$_op") || { echo "n=$_n: $_r"; return 1; }
		after_each "n=$_n ($_r)" || _bad=$((_bad + 1))
		case $_r in
		*injected=0*) break ;;
		"ret=0 "*) ;;
		*) _errs=$((_errs + 1)) ;;
		esac
		_hits=$((_hits + 1))
		[ "$_n" -gt $((_pts + 50)) ] && { echo "n=$_n: still injecting past $_pts points"; return 1; }
		[ "$_n" -ge "$_pts" ] && _n=$((_n + 1)) || _n=$((_n + _stride))
	done
	echo "$_name: $_pts points, injected at $_hits (stride $_stride), $_errs writes failed with an errno, $_bad left something behind"
	[ "$_bad" -eq 0 ] && [ "$_hits" -gt 0 ]
}

pf_set() { echo "$2" >"$PF/$1"; }

# pdcmvm.faults_trace=K1-K2: for k in K1..K2, print the stack of (b)'s
# injected failure (the fault attribute's verbose report) to the console
TRACE_K=$(cmdline_word faults_trace)
: "${TRACE_K:=0-0}"
trace_k() {	# trace_k LINES: the report among the kernel log past LINES
	dmesg | tail -n +$(($1 + 1)) |
		sed -n '/FAULT_INJECTION/,/<\/TASK>/p' | grep 'Comm:\|Workqueue:\|pdcm\|ulp_' | grep -v ' ? ' | head -n 12 |
		while IFS= read -r _t; do echo "k=$_k: $_t"; done
}

# What an injected allocation failure may do to the connection, as the
# active side's record says it ("result:rej_reason:err"): nothing (pdcm
# retried, or the peer did), the connect call failing with -ENOMEM, a
# REJ with reason 3 (No resources: IBA 12.6.7.2, what pdcm and the ULP
# send when they cannot take a REQ on) or the handshake timing out.  Any
# other REJ reason, errno or result is a wrong answer to a failed
# allocation.  "enomem" is a ctl write (the ULP's call into pdcm) that
# failed with ENOMEM.
conn_outcome_ok() {
	case $1 in
	ok:0:0 | rej:3:0 | timeout:0:0 | timeout:0:-110 | req_error:0:-12 | enomem) return 0 ;;
	esac
	return 1
}

# ... and to the SIDR query, as its status: success, a reply of status 2
# (rejected by the service provider), a timeout, or -ENOMEM from the call
sidr_outcome_ok() {
	case $1 in
	0 | 2 | -110 | -12 | enomem) return 0 ;;
	esac
	return 1
}

# outcome_ok ROUND: ROUND's outcomes are right.  A listen that failed
# (l=enomem) leaves nobody on the service ID: the REQ must get REJ 8
# (Invalid Service ID); a SIDR listen that failed, status 1 (Service ID
# not supported).
outcome_ok() {
	set -- $1
	for _w; do eval "_${_w%%=*}=\${_w#*=}"; done
	case $_l in
	ok) conn_outcome_ok "$_o" || return 1 ;;
	enomem) [ "$_o" = rej:8:0 ] || return 1 ;;
	*) return 1 ;;
	esac
	case $_sl in
	ok) sidr_outcome_ok "$_s" ;;
	enomem) [ "$_s" = 1 ] ;;
	*) return 1 ;;
	esac
}

# errno_word MESSAGE: the shell's message of a failed write, as a word
errno_word() {
	case $1 in
	*"Cannot allocate memory"* | *"Out of memory"*) echo enomem ;;
	*) echo "errno($(echo "$1" | tr -c 'a-zA-Z0-9\n' _))" ;;
	esac
}

# one round of (b): what it did, as "c=<failed conns> s=<sidr status>
# o=<outcome of the connection>"
round_b() {
	_c=x _s=x _o=err _l=ok _sl=ok
	_e=$(ulp listen L tcp:7302 any 2>&1) || _l=$(errno_word "$_e")
	_e=$(ulp sidr_listen udp:7304 2>&1) || _sl=$(errno_word "$_e")
	if _e=$(ulp $CONN timewait=0 2>&1); then
		_n=$(ulp_last run)
		_c=$(ulp_get "run $_n " failed)
		_o=$(sed -n "s/^conn $_n 0 .* result=\([a-z_]*\) rej_reason=\([0-9]*\) .* err=\(-*[0-9]*\)\$/\1:\2:\3/p" "$ULP/conns")
	else
		_c=err _o=$(errno_word "$_e")
	fi
	if _e=$(ulp sidr udp:7304 "$VM_IP" timeout=5 2>&1); then
		_s=$(ulp_get "sidr $(ulp_last sidr) " status)
	else
		_s=$(errno_word "$_e")
	fi
	ulp close
	echo "c=$_c l=$_l sl=$_sl s=$_s o=$_o"
}

arm_b() {	# arm_b SPACE
	pf_set probability 0
	pf_set space "$1"
	pf_set times 1
	pf_set probability 100
}

# sweep_b: pdcm's attribute, the k-th allocation failing, k = 1.. until a
# round injects nothing
sweep_b() {
	_bad=0 _cfail=0 _sfail=0 _hits=0 _wrong=0 _seen=
	pf_set verbose 0
	pf_set interval 1
	arm_b $BIG
	round_b >/dev/null
	pf_set probability 0
	after_each count || return 1
	_pts=$((BIG - $(cat $PF/space)))
	_stride=$(stride_for "$_pts" "$B_BUDGET")
	_k=1
	while :; do
		_tr=
		[ "$_k" -ge "${TRACE_K%-*}" ] && [ "$_k" -le "${TRACE_K#*-}" ] && _tr=1
		[ -n "$_tr" ] && { pf_set verbose 2; _l0=$(dmesg | wc -l); }
		arm_b "$_k"
		_r=$(round_b)
		pf_set probability 0
		[ -n "$_tr" ] && { pf_set verbose 0; trace_k "$_l0"; }
		_t=$(cat $PF/times)
		after_each "k=$_k ($_r)" || _bad=$((_bad + 1))
		[ "$_t" = 1 ] && break
		case $_r in c=0*) ;; *) _cfail=$((_cfail + 1)) ;; esac
		case $_r in *" s=0 "*) ;; *) _sfail=$((_sfail + 1)) ;; esac
		_oc=${_r#* l=}
		case " $_seen " in *" [$_oc] "*) ;; *) _seen="$_seen [$_oc]" ;; esac
		if ! outcome_ok "$_r"; then
			echo "k=$_k: wrong outcome of an allocation failure: $_r"
			_wrong=$((_wrong + 1))
		fi
		_hits=$((_hits + 1))
		[ "$_k" -gt $((_pts + 50)) ] && { echo "k=$_k: still injecting past $_pts points"; return 1; }
		[ "$_k" -ge "$_pts" ] && _k=$((_k + 1)) || _k=$((_k + _stride))
	done
	echo "pdcm_fail: $_pts allocations of pdcm's per round, injected at $_hits (stride $_stride); the connection failed after $_cfail, the SIDR query after $_sfail; outcomes:$_seen; $_wrong wrong, $_bad left something behind"
	[ "$_bad" -eq 0 ] && [ "$_wrong" -eq 0 ] && [ "$_pts" -ge 20 ] && [ "$_hits" -gt 0 ]
}

net_up
rxe_add rxe0 eth0
suite_begin faults
ulp_setup
check kmemleak_on test -w $KL
# suspects from boot are not ours: scan once, then forget them
check kmemleak_clear sh -c "echo scan > $KL && echo clear > $KL"
check pdcm_fail_attr test -w $PF/space
for f in failslab fail_page_alloc; do
	check "${f}_for_fail_nth" sh -c "echo N > $D/$f/ignore-gfp-wait && echo 0 > $D/$f/verbose"
done
check fail_page_alloc_order_0 sh -c "echo 0 > $D/fail_page_alloc/min-order && echo N > $D/fail_page_alloc/ignore-gfp-highmem"
check works_uninjected works

lvl=$(cut -f1 /proc/sys/kernel/printk)
dmesg -n 4
t0=$(date +%s)
out_listen=$(sweep_a listen : "listen A tcp:7301 any" 2>&1); r_listen=$?
r_connect=skip r_slisten=skip r_sidr=skip
if [ -n "$QP_SWEEPS" ]; then
	out_connect=$(sweep_a connect "ulp listen L tcp:7302 any" "$CONN" 2>&1); r_connect=$?
	out_slisten=$(sweep_a sidr_listen : "sidr_listen udp:7303" 2>&1); r_slisten=$?
	out_sidr=$(sweep_a sidr "ulp sidr_listen udp:7304" "sidr udp:7304 $VM_IP timeout=5" 2>&1); r_sidr=$?
fi
out_destroy=$(sweep_a destroy_listener "ulp listen H tcp:7305 any mode=hold && { ulp connect 1 tcp:7305 $VM_IP timeout=20 & } && wait_for \"ulp_is 'listener H ' live 1\" 10" "destroy_listener H" 2>&1); r_destroy=$?
t1=$(date +%s)
out_b=$(sweep_b 2>&1); r_b=$?
t2=$(date +%s)
dmesg -n "$lvl"
for s in listen connect slisten sidr destroy b; do
	eval "r=\$r_$s o=\$out_$s"
	if [ "$r" = skip ]; then
		skip "sweep_$s" "rxe_create_qp() failure path (pdcmvm.faults=qp)"
		continue
	fi
	_out=$o
	printf '%s\n' "$o" | tail -n 1 | while IFS= read -r l; do kmsg "    # $l"; done
	[ "$r" -eq 0 ] && _result ok "sweep_$s" || _result fail "sweep_$s"
done
kmsg "    # fail-nth sweeps $((t1 - t0)) s, pdcm_fail sweep $((t2 - t1)) s"
check works_after_sweeps works
check nothing_live ulp_wait_idle
check rmmod_pdcm_ulp rmmod pdcm_ulp
check pdcm_holds_no_id wait_for pdcm_no_ids 5
check rmmod_ib_pdcm rmmod ib_pdcm
check_not nothing_left_at_unload dmesg_has "left at unload"
check_not no_splat_in_log sh -c "dmesg | grep -- '$SPLAT'"
# an object is a suspect once 5 s old and unreferenced in two scans
sleep 6
check kmemleak_scan sh -c "echo scan > $KL && sleep 1 && echo scan > $KL"
check kmemleak_no_leak sh -c "! grep . $KL"
suite_end
