# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# `make bench`: the listen-lookup benchmark in a stock (production config)
# guest.  pdcm_bench.ko prints its table while loading; scripts/bench.sh
# shows the "pdcm_bench:" lines.  A measurement, not a test: the only
# checks are that the modules load and the run completes.
suite_begin bench
check load_ib_pdcm modprobe ib_pdcm
check run_benchmark modprobe pdcm_bench
check finished dmesg_has "pdcm_bench: done"
rmmod pdcm_bench ib_pdcm
suite_end
