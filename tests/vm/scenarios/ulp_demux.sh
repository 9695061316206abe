# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# One service ID, three listeners told apart by the RDMA CM header's
# destination address: 10.0.0.11, 10.0.0.12 and a wildcard.  Connections
# to each address (three runs at once) land on the right listener, as
# named in each REP; the wildcard takes 10.0.0.13 and the primary
# address.  A family-only compare sits between the two kinds.
. /pdcm/scenarios/ulp_lib.sh

N=10

net_up
rxe_add rxe0 eth0
suite_begin ulp_demux
ulp_setup
for a in 11 12 13; do
	ip addr add 10.0.0.$a/24 dev eth0
done
check gids_for_all_addresses wait_for "rxe_has_gids 10.0.0.11 10.0.0.12 10.0.0.13" 10
res0=$(rdma_res)
check listen_a ulp listen A tcp:7000 10.0.0.11
check listen_b ulp listen B tcp:7000 10.0.0.12
check listen_wildcard ulp listen W tcp:7000 any
check_err same_address_twice_refused "Address already in use" ulp listen A2 tcp:7000 10.0.0.11
ulp connect $N tcp:7000 10.0.0.11 5 2048 & p1=$!
ulp connect $N tcp:7000 10.0.0.12 5 2048 & p2=$!
ulp connect $N tcp:7000 10.0.0.13 5 2048 & p3=$!
wait $p1; r1=$? ; wait $p2; r2=$? ; wait $p3; r3=$?
check three_runs_at_once test $r1$r2$r3 = 000
ulp_note "run "
for r in 1 2 3; do
	d=$(ulp_get "run $r " dst)
	case $d in
	10.0.0.11) want=A ;;
	10.0.0.12) want=B ;;
	*) want=W ;;
	esac
	check "to_${d}_lands_on_$want" ulp_is "run $r " listeners $want:$N
	check "to_${d}_data_verified" ulp_is "run $r " verified $((N * 5 * 2048))
done
check connect_primary_address ulp connect $N tcp:7000 "$VM_IP" 2 timewait=0
check primary_to_wildcard ulp_is "run 4 " listeners W:$N
check a_got_its_reqs ulp_is "listener A " reqs $N
check b_got_its_reqs ulp_is "listener B " reqs $N
check wildcard_got_the_rest ulp_is "listener W " reqs $((2 * N))
check a_bytes ulp_is "listener A " bytes $((N * 5 * 2048))
check b_bytes ulp_is "listener B " bytes $((N * 5 * 2048))
check listen_family ulp listen F tcp:7000 ipv4
check connect_after_family ulp connect $N tcp:7000 10.0.0.13 1 timewait=0
check family_beats_wildcard ulp_is "run 5 " listeners F:$N
# from another of our addresses: the header carries it, not the destination
check address_beats_family ulp connect 2 tcp:7000 10.0.0.11 10.0.0.13 1 timewait=0
check address_still_wins ulp_is "run 6 " listeners A:2
check destroy_b ulp destroy_listener B
check connect_b_after_destroy ulp connect 2 tcp:7000 10.0.0.12 1 timewait=0
check b_falls_to_family ulp_is "run 7 " listeners F:2
check a_addrs_as_sent ulp_req_addrs A 10.0.0.13 10.0.0.11:7000
check family_addrs_as_sent ulp_req_addrs F "$(ulp_get 'run 7 ' src)" 10.0.0.12:7000
check wildcard_addrs_as_sent ulp_req_addrs W "$(ulp_get 'run 4 ' src)" "$VM_IP:7000"
check pdcm_parsed_addresses sh -c "! grep '^listener ' $ULP/results | grep -v ' addr_errors=0 '"
check no_failures sh -c "! grep '^run ' $ULP/results | grep -v ' failed=0 '"
ulp_note "listener "
ulp_teardown "$res0"
suite_end
