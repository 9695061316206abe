# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Run every pdcm KUnit suite in the debug (KASAN + lockdep) kernel.  The
# suites run while pdcm_kunit.ko loads; ib_pdcm.ko, a dependency, is fully
# initialised first.  rxe0 exists so that suites needing a real ib_device
# have one.  The host parses the KTAP that kunit prints.
net_up
rxe_add rxe0 eth0 || kmsg "pdcm-vm: no rxe0: device suites will skip"
# the ib_cm drop-in first, by path: the kernel's own ib_cm has its name
ibcm_load || kmsg "pdcm-vm: loading the ib_cm drop-in failed"
modprobe pdcm_kunit || kmsg "pdcm-vm: modprobe pdcm_kunit failed: $?"
kmsg "pdcm-vm: suites: $(ls /sys/kernel/debug/kunit 2>/dev/null | tr '\n' ' ')"
rmmod pdcm_kunit ib_cm pdcm_kdapl pdcm_sdp ib_pdcm || kmsg "pdcm-vm: rmmod failed"
