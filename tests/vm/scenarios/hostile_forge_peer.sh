# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hostile peer, forged messages (issue 12 defect 4): 8 connections of our
# own to B's listener L (tcp:7471, ESTABLISHED) and 4 to P (tcp:7472, REP
# received, no RTU); then against each of them REJ, DREQ, RTU, MRA and
# DREP that name pdcm's comm ID right (a perfect guess) but carry a wrong
# sender comm ID, as any other node of the fabric could send them.  A
# handshake to S (tcp:7478) tells B we are done; B checks that nothing
# moved, then listens on G (tcp:7479), our barrier; then we leave for
# real (DREQ on L's, REJ on P's) and B checks that each was seen once.
. /pdcm/scenarios/hostile_lib.sh

hostile_up
suite_begin hostile_forge_peer
check run hostile "wait tcp:7471 90
connect 7 tcp:7471
connect 4 tcp:7472 rtu=0
forge dreq
forge rtu
forge mra msg_mraed=1
forge drep
forge rep
forge rej
drain 500
wait tcp:7478 30
wait tcp:7479 90
dreq
rej
drain 1000"
check barriers sh -c "[ \$(grep -c '^wait ok=1 ' /tmp/hostile.out) = 3 ]"
check established_7 hval_is "connect n=7" ok 7
check rep_4 hval_is "connect n=4" ok 4
check forged_rej_12 hval_is "forge rej" sent 12
# a forgery that took effect would have torn a connection down already
check all_10_still_up hval_is "dreq" sent 10
check every_dreq_answered hval_is "dreq" answered 10
check forged_rep_no_rtu hval_is "rcvd" rtu 0
suite_end
