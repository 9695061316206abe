# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Two guests, the drop-in side of ibcm_coexist_peer: rdma_cm and a native
# pdcm listen on one service ID (Documentation/listen-matching.rst).
# Debian's rping -s listens on tcp:7471 for every address through the
# drop-in (rdma_cm's per-device wildcard listen, no compare); then the
# test ULP listens on tcp:7471 for 10.0.0.12 only, on every device (an
# RDMA CM header compare), next to it.  The peer's rping to 10.0.0.12
# reaches the ULP; its rping to 10.0.0.2 reaches rdma_cm's rping.
. /pdcm/scenarios/ulp_lib.sh
. /pdcm/scenarios/ibcm_lib.sh

L="listener S "

net_up
ip addr add 10.0.0.12/24 dev eth0
rxe_add rxe0 eth0
suite_begin ibcm_coexist_pdcm
ulp_setup
ibcm_stack pdcm
timeout 120 rping -s -v -C 10 -S 64 -a 0.0.0.0 -p 7471 >/tmp/rping.server 2>&1 &
sp=$!
check rdma_cm_listen_in_table wait_for "grep -q '^listens 1 ' /sys/kernel/debug/pdcm/listens" 10
check native_listen_next_to_rdma_cm ulp listen S tcp:7471 10.0.0.12 mode=rping
note listens "$(cat /sys/kernel/debug/pdcm/listens)"
check two_listens grep -q '^listens 2 masks 2' /sys/kernel/debug/pdcm/listens
# both listen: let the peer go
check peer_released timeout 60 nc -l -p 7998
check native_served wait_for "[ \"\$(ulp_get '$L' timewait)\" = 1 ]" 90
check native_one_req ulp_is "$L" reqs 1
check native_10_pings ulp_is "$L" pings 10
check native_10_verified ulp_is "$L" verified 10
check native_bad_0 ulp_is "$L" bad 0
ulp_note "$L"
wait $sp
echo $? >/tmp/rping.server.rc
tool_checks rping server
check close_ulp ulp close
check rmmod_ulp rmmod pdcm_ulp
sleep 2
suite_end
