# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make demo`: pdcm on soft-RoCE in a stock Debian guest.  Lines prefixed
# "pdcm-demo:" are what scripts/demo.sh shows the user.
demo() { kmsg "pdcm-demo: $*"; }

net_up
rxe_add rxe0 eth0
demo "rdma devices: $(rdma link show | tr '\n' ';')"
suite_begin demo
check modprobe_ib_pdcm modprobe ib_pdcm
check port_claimed wait_for "grep -q '^rxe0 1 claimed' /sys/kernel/debug/pdcm/ports" 5
demo "ports pdcm holds (device port state MADs-received):"
while read -r l; do demo "    $l"; done </sys/kernel/debug/pdcm/ports
demo "$(grep '^ib_pdcm ' /proc/modules | cut -d' ' -f1-3)"
check rmmod_ib_pdcm rmmod ib_pdcm
suite_end
