# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm_kdapl with real RC QPs over rxe loopback, both demux models
# (Documentation/shims.rst): (a) one wildcard PSP whose CRs carry the
# address the REQ went to; (b) PSPs on one conn_qual for two IA addresses
# sharing a backlog group of 2: a burst of 4 delivers 2, drops the rest
# until the CM's retries get in, or answers REJ 3 with the overflow flag.
# Then an RSP's single use (REJ 8 the second time), a rejecting PSP
# (REJ 28 with its private data), and an address PSP beside the wildcard.
# Every connection moves verified data both ways and is disconnected.
. /pdcm/scenarios/shim_lib.sh

CNT=/sys/class/infiniband/rxe0/ports/1/pdcm

cnt() {
	cat "$CNT/$1"
}

# lines_are PATTERN N: exactly N results lines match
lines_are() {
	_c=$(grep -c -- "$1" "$ST/results")
	[ "$_c" -eq "$2" ] && return 0
	echo "'$1': $_c lines, expected $2"
	grep '^dat_conn\|^cr\|^sp' "$ST/results"
	return 1
}

has_line() {
	grep -q -- "$1" "$ST/results" && return 0
	echo "no line '$1'"
	grep '^cr\|^sp' "$ST/results"
	return 1
}

crs() {	# crs SP...: CRs the service points got, summed
	_s=0
	for _p in "$@"; do
		_s=$((_s + $(st_get "sp $_p " crs)))
	done
	echo $_s
}

conn_ok() {	# conn_ok RUN SP: ok on SP, 4 messages each way verified
	st_is "dat_conn $1 " result ok && st_is "dat_conn $1 " sp "$2" &&
		st_is "dat_conn $1 " rx 4/4/4 && st_is "dat_conn $1 " bad 0
}

st_setup shim_kdapl
check ia_source st ia S "$VM_IP"
check ia_wildcard st ia W 0.0.0.0
check ia_a st ia A 10.0.0.11
check ia_b st ia B 10.0.0.12

# (a) one wildcard PSP; the CR tells the consumer where the REQ went
check a_psp_wildcard st psp PW W 7100
check a_connect_11 st dat_connect S 10.0.0.11 7100
check a_connect_12 st dat_connect S 10.0.0.12 7100
check a_11_ok_with_data conn_ok 1.0 PW
check a_12_ok_with_data conn_ok 2.0 PW
check a_rep_private_data st_is "dat_conn 1.0 " pdata acc:PW
check a_cr_11_addresses has_line "^cr PW local=10.0.0.11:7100 arrival=10.0.0.11:7100 remote=$VM_IP rport=[1-9][0-9]* pdata=st:1.0 len=56"
check a_cr_12_addresses has_line "^cr PW local=10.0.0.12:7100 arrival=10.0.0.12:7100 remote=$VM_IP rport=[1-9][0-9]* pdata=st:2.0 len=56"

# (b) PSPs per address, one shared backlog of 2, dropped REQs retried
check b_group_of_2 st group G 2
check b_psp_a st psp PA A 7200 group=G mode=hold
check b_psp_b st psp PB B 7200 group=G mode=hold
check_err b_same_ia_conn_qual_refused "Address already in use" st psp PA2 A 7200
check b_refusal_is_conn_qual_in_use has_line "^sp PA2 refused err=-98 dat_status=1"
d0=$(cnt backlog_dropped)
st dat_connect S 10.0.0.11 7200 count=2 & p1=$!
st dat_connect S 10.0.0.12 7200 count=2 & p2=$!
check b_burst_2_delivered wait_for '[ "$(crs PA PB)" -eq 2 ]' 10
check b_burst_rest_dropped wait_for '[ "$(cnt backlog_dropped)" -ge $((d0 + 2)) ]' 10
sleep 1
check b_still_2_delivered test "$(crs PA PB)" -eq 2
kmsg "    # backlog_dropped $(cnt backlog_dropped) (was $d0), crs PA+PB $(crs PA PB)"
check b_accept_held_a st sp_mode PA accept
check b_accept_held_b st sp_mode PB accept
wait $p1; r1=$?; wait $p2; r2=$?
check b_burst_commands test $r1$r2 = 00
check b_all_4_delivered test "$(crs PA PB)" -eq 4
check b_all_4_ok_with_data lines_are '^dat_conn [34]\.[01] result=ok .* rx=4/4/4 bad=0 ' 4
check b_11_went_to_pa lines_are "^cr PA local=10.0.0.11:7200 .*remote=$VM_IP " 2
check b_12_went_to_pb lines_are "^cr PB local=10.0.0.12:7200 .*remote=$VM_IP " 2
kmsg "    # backlog_dropped $(cnt backlog_dropped) (was $d0) after the retries"

# (b) with the overflow flag: REJ 3 at once
check b_group_of_2_rej st group G2 2
check b_psp_rej_overflow st psp PR A 7300 group=G2 rej_overflow=1 mode=hold
j0=$(cnt backlog_rejected)
st dat_connect S 10.0.0.11 7300 count=4 & p3=$!
check b_rej_2_delivered wait_for '[ "$(crs PR)" -eq 2 ]' 10
check b_rej_2_rejected wait_for '[ "$(cnt backlog_rejected)" -ge $((j0 + 2)) ]' 10
kmsg "    # backlog_rejected $(cnt backlog_rejected) (was $j0)"
check b_rej_accept_held st sp_mode PR accept
wait $p3
check b_rej_2_ok_with_data lines_are '^dat_conn 5\.[0-3] result=ok .* rx=4/4/4 bad=0 ' 2
check b_rej_2_got_rej_3 lines_are '^dat_conn 5\.[0-3] result=non_peer_rej reason=3 ' 2
check b_rej_counted_exactly test "$(cnt backlog_rejected)" -eq $((j0 + 2))

# RSP: one CR, then REJ 8
check rsp_create st rsp R1 A 7400
check rsp_connect st dat_connect S 10.0.0.11 7400
check rsp_ok_with_data conn_ok 6.0 R1
check rsp_connect_again st dat_connect S 10.0.0.11 7400
check rsp_single_use st_is "dat_conn 7.0 " result non_peer_rej
check rsp_second_rej_8 st_is "dat_conn 7.0 " reason 8

# a rejecting PSP: REJ 28 with its private data; nobody: REJ 8
check reject_psp st psp PJ A 7500 mode=reject
check reject_connect st dat_connect S 10.0.0.11 7500
check reject_peer_rejected st_is "dat_conn 8.0 " result peer_rej
check reject_reason_28 st_is "dat_conn 8.0 " reason 28
check reject_private_data st_is "dat_conn 8.0 " pdata rej:PJ
check nobody_connect st dat_connect S 10.0.0.11 7600
check nobody_rej_8 st_is "dat_conn 9.0 " reason 8

# both models on one conn_qual: an address PSP beside the wildcard
check both_psp_a st psp PA3 A 7100
check both_connect_11 st dat_connect S 10.0.0.11 7100
check both_connect_12 st dat_connect S 10.0.0.12 7100
check both_11_to_address_psp conn_ok 10.0 PA3
check both_12_still_wildcard conn_ok 11.0 PW
st_note "dat_conn "
st_note "sp "
check sp_free st sp_free PW
st_teardown
