# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The kernel's RDMA selftests (rdma_selftests_lib.sh) through the ib_cm
# drop-in: ib_pdcm and compat/ib_cm.ko loaded before rdma_ucm, so that
# the scripts' rping (rdma_cm) connects through pdcm.  pdcm's pdcm_mad
# tracepoint shows the connections on the wire: each rping script makes one
# (REQ, REP, RTU, DREQ, DREP, each sent by one side of the rxe pair and
# received by the other).
. /pdcm/scenarios/rdma_selftests_lib.sh

suite_begin rdma_selftests_pdcm
check dropin_loads ibcm_load
check rdma_ucm_loads modprobe rdma_ucm
check rdma_cm_on_dropin test -e /sys/module/ib_cm/holders/rdma_cm
check dropin_on_ib_pdcm test -e /sys/module/ib_pdcm/holders/ib_cm
check trace_pdcm_mad sh -c "echo > $T/trace && echo 1 > $T/events/pdcm/pdcm_mad/enable && echo 1 > $T/tracing_on"
selftests_run
# two rping scripts: a connection each, both ends on pdcm
for _m in "tx REQ" "rx REQ" "tx REP" "rx REP" "tx RTU" "rx RTU" "tx DREQ" "rx DREQ"; do
	check "pdcm_${_m% *}_${_m#* }_x2" traced "pdcm_mad: $_m " 2
done
check_not no_unknown_symbols dmesg_has "Unknown symbol"
check dropin_still_loaded test -e /sys/module/ib_pdcm/holders/ib_cm
suite_end
