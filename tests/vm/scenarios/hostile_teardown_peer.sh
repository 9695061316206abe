# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hostile peer, leaving (issue 12 defects 5 and 6).
#   REJ-then-reuse: a REQ that B's listener R rejects, then a new REQ from
#     the same QP: it must get R's REJ again (28), not STALE_CONN.
#   Crossed DREQs, pdcm destroying: 4 connections to L and one to S; B
#     closes them (a DREQ each, which we never answer), then our DREQs
#     cross them: each gets its DREP, and no DREQ of pdcm's follows.
#   Crossed DREQs, pdcm disconnecting: B's ULP connects 4 times to us and
#     sends DREQ at once; we answer each with our own DREQ, never a DREP:
#     pdcm must answer ours with a DREP and stop re-sending its own.
. /pdcm/scenarios/hostile_lib.sh

hostile_up
suite_begin hostile_teardown_peer
check run hostile "wait tcp:7471 90
reuse tcp:7472
connect 3 tcp:7471
answer_dreq 0
wait tcp:7478 30
crossed 12
serve 45 cross=1
drain 500"
check reuse_two_rejs hval_is "reuse" rejs 2
check reuse_no_stale hval_is "reuse" stale 0
check destroy_5_established hval_is "crossed established=5" established 5
check destroy_pdcm_dreqs hval_is "crossed established=5" dreqs_first 5
check destroy_all_drep hval_is crossed_end dreps 5
check destroy_no_dreq_after hval_is crossed_end dreqs_after 0
check serve_connected_4 hval_is "serve" connected 4
check serve_crossed_4 hval_is "serve" dreqs_first 4
check serve_all_drep hval_is "serve" dreps 4
check serve_no_dreq_after hval_is "serve" dreqs_after 0
suite_end
