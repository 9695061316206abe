# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hostile peer, REQ flood (issue 12 defect 7): pdcmvm.flood REQs (default
# 3,000; `make fuzz` sends 100,000) to B's listener F, each a new comm ID
# and QPN, none ever answered (no RTU, no REJ).  Every flood/5 REQs, and
# once after the last, a legitimate handshake to listener L must get its
# REP within 1 s; and one to F itself, the flooded listener, after the
# flood, its REQ retried every 250 ms as a CM would: F's backlog is full
# of the flood's half-open connections, and pdcm evicts the oldest to let
# it in (issue 34 #10; before, F took no REQ for about 70 s).  Then a
# handshake to S tells B the flood is over.
. /pdcm/scenarios/hostile_lib.sh

N=$(cmdline_word flood)
: "${N:=3000}"
hostile_up
suite_begin hostile_flood_peer
check run hostile "wait tcp:7471 90
flood $N tcp:7480 probe_sid=tcp:7471 probe_every=$((N / 5)) after_sid=tcp:7480
wait tcp:7478 60
drain 1000"
check flood_sent hval_is "flood n=$N" n "$N"
check probes_answered hval_is flood_probes failed 0
check probe_during_flood_1s hval_le flood_probes worst_ms 1000
check probe_after_flood_connected sh -c "! grep -q '^flood_probes .* after_ms=-1' /tmp/hostile.out"
check probe_after_flood_1s hval_le flood_probes after_ms 1000
check flooded_listen_connected sh -c "grep -q '^flood_after .* ms=[0-9]' /tmp/hostile.out"
check flooded_listen_within_1s hval_le flood_after ms 1000
check barrier_s sh -c "[ \$(grep -c '^wait ok=1 ' /tmp/hostile.out) = 2 ]"
suite_end
