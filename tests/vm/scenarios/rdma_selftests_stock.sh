# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The kernel's RDMA selftests (rdma_selftests_lib.sh) on the kernel's own
# ib_cm, the reference for rdma_selftests_pdcm: the same scripts, with
# ib_cm's ib_cma tracepoints showing its connections.
. /pdcm/scenarios/rdma_selftests_lib.sh

suite_begin rdma_selftests_stock
check rdma_ucm_loads modprobe rdma_ucm
check rdma_cm_on_stock_ib_cm test -e /sys/module/ib_cm/holders/rdma_cm
check_not no_ib_pdcm test -e /sys/module/ib_pdcm
check trace_ib_cma sh -c "echo > $T/trace && echo 1 > $T/events/ib_cma/enable && echo 1 > $T/tracing_on"
selftests_run
for _e in icm_send_req icm_send_rep icm_send_rtu icm_send_dreq; do
	check "${_e}_x2" traced "$_e:" 2
done
suite_end
