# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Run every pdcm KUnit suite in the debug (KASAN + lockdep) kernel.  The
# suites run while pdcm_kunit.ko loads; ib_pdcm.ko, a dependency, is fully
# initialised first.  rxe0 exists so that suites needing a real ib_device
# have one.  The host parses the KTAP that kunit prints, and checks it
# against the suites tests/vm/expected declares.  The steps around the
# suites are the cases of the suite kunit_load (after the KUnit output, so
# that the two never nest): a module that fails to load fails here even
# if its suites printed results first.
net_up
rxe_add rxe0 eth0
rxe_rc=$?
# the ib_cm drop-in first, by path: the kernel's own ib_cm has its name
ibcm_load
ibcm_rc=$?
modprobe pdcm_kunit
load_rc=$?
registered=$(ls /sys/kernel/debug/kunit 2>/dev/null | tr '\n' ' ')
kmsg "pdcm-vm: suites: $registered"

suite_begin kunit_load
check rxe0_added test "$rxe_rc" -eq 0
check ibcm_dropin_loaded test "$ibcm_rc" -eq 0
check modprobe_pdcm_kunit sh -c "echo 'exit status $load_rc'; [ $load_rc -eq 0 ]"
check pdcm_kunit_live grep -q '^pdcm_kunit .* Live ' /proc/modules
check suites_registered test -n "$registered"
check rmmod_all rmmod pdcm_kunit ib_cm pdcm_kdapl pdcm_sdp ib_pdcm
suite_end
