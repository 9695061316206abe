# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Hostile peer, structure-aware fuzzing: 8 live connections to B's L, then
# pdcmvm.fuzz MADs (default 20,000; `make fuzz` sends 10^6), each a valid
# REQ/REP/RTU/DREQ/DREP/REJ/MRA/SIDR_REQ/SIDR_REP -- three in four naming
# one of our connections' comm IDs -- mutated in one to three fields:
# header fields (class version, method, attribute ID, status), message
# fields field by field (boundary and random values: lengths, timeouts,
# QPNs, comm IDs), reserved bits and private data, another message's
# attribute ID on the body, short writes.  B runs pdcm on the KUnit
# kernel (KASAN, lockdep, panic_on_warn).  Afterwards a normal handshake
# and disconnect must work.
. /pdcm/scenarios/hostile_lib.sh

N=$(cmdline_word fuzz)
: "${N:=20000}"
hostile_up
suite_begin hostile_fuzz_peer
HOSTILE_TIMEOUT=$((600 + N / 50)) check run hostile "wait tcp:7471 120
fuzz $N 1 tcp:7471
wait tcp:7478 120
connect 1 tcp:7471
dreq
drain 1000"
check fuzz_sent hval_is "fuzz n=$N" n "$N"
check fuzz_live_8 hval_is "fuzz n=$N" live 8
# MADs ib_umad would not send (fuzzed base version, method ...): few
check fuzz_mostly_sent hval_le "fuzz n=$N" refused $((N / 4))
check barrier_s sh -c "[ \$(grep -c '^wait ok=1 ' /tmp/hostile.out) = 2 ]"
check connect_after_fuzz hval_is "connect n=1" ok 1
check connect_after_fuzz_1s hval_le "connect n=1" worst_ms 1000
check disconnect_after_fuzz hval_is dreq answered "$(hval dreq sent)"
suite_end
