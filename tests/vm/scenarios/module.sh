# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ib_pdcm.ko as an ib_client: which ports it claims, on devices present at
# load time and added later; rmmod releases them; ib_cm holding the CM class
# makes the load fail with a clear message.  Runs on both guest kernels.

ports() { cat /sys/kernel/debug/pdcm/ports; }
loaded() { grep -q "^$1 " /proc/modules; }
# The CM class on port 1 of $1 is free: no agent refuses it.
claimed() { ports | grep -q "^$1 1 claimed"; }

net_up
suite_begin vm_module
check load_without_rdma_device modprobe ib_pdcm
check no_ports_without_device test -z "$(ports)"
check hotplug_rxe_added rxe_add rxe0 eth0
check hotplug_port_listed wait_for "claimed rxe0" 5
check second_device_added rxe_add rxe_lo lo
check second_device_listed wait_for "claimed rxe_lo" 5
check rmmod_releases rmmod ib_pdcm
check rmmod_logged dmesg_has "rxe0: pdcm: released"
check reload_claims_present_ports modprobe ib_pdcm
check reload_port_listed claimed rxe0
check reload_logged dmesg_count "rxe0: pdcm: port 1: claimed CM MAD class" 2
check rmmod_again rmmod ib_pdcm
check ib_cm_loads modprobe ib_cm
check_not load_fails_when_ib_cm_owns_class modprobe ib_pdcm
check refusal_per_port dmesg_has "rxe0: pdcm: port 1: CM MAD class 0x07 v2 refused (-22)"
check refusal_message dmesg_has "refused the CM MAD class (the in-tree ib_cm owns it?); not loading"
check_not not_left_loaded loaded ib_pdcm
check ib_cm_unloads rmmod ib_cm
check load_after_ib_cm_gone modprobe ib_pdcm
check ports_reclaimed claimed rxe0
check final_rmmod rmmod ib_pdcm
suite_end
