# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hostile peer, stale-QPN REQ storm (issue 12 defect 1): 4 live connections
# to B's L, then per connection 25 REQs from its QPN with new comm IDs,
# each sent 4 times 50 us apart.  pdcm answers REJ STALE_CONN and sends the old
# connection a DREQ; it must keep processing: afterwards a legitimate
# handshake gets its REP within 1 s.
. /pdcm/scenarios/hostile_lib.sh

hostile_up
suite_begin hostile_storm_peer
check run hostile "wait tcp:7471 90
connect 3 tcp:7471
storm 25 tcp:7471
drain 2000
connect 1 tcp:7471
wait tcp:7478 30
drain 500"
check live_4 hval_is "connect n=3" ok 3
check stale_rejected hval_ge "storm sent=400" rej_stale 4
check old_conns_dreqd hval_ge "storm sent=400" dreq_rcvd 4
check connect_after_storm hval_is "connect n=1" ok 1
check connect_after_storm_1s hval_le "connect n=1" worst_ms 1000
check barrier_s sh -c "[ \$(grep -c '^wait ok=1 ' /tmp/hostile.out) = 2 ]"
suite_end
