# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Out-of-tree entry point for pdcm.  The kernel build itself is driven by
# ./Kbuild; this file only picks the kernel tree and names the jobs.
#
#   make [KDIR=...]     build cm/ib_pdcm.ko (and the test module where the
#                       kernel has KUnit) against KDIR
#   make check          the whole test suite: KUnit kernel + stock-kernel VMs
#   make demo           boot a stock Debian guest and show pdcm working on rxe

ifneq ($(KERNELRELEASE),)
include $(src)/Kbuild
else

KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(lastword $(sort $(wildcard /usr/src/linux-headers-*-amd64))))

kdir-has = $(shell grep -qs '^$(1)=[ym]' $(KDIR)/.config && echo m)

PDCM_CONFIG := CONFIG_IB_PDCM=m
PDCM_CONFIG += CONFIG_IB_PDCM_KUNIT_TEST=$(call kdir-has,CONFIG_KUNIT)
PDCM_CONFIG += CONFIG_IB_PDCM_BENCHMARK=$(BENCH)

.PHONY: all modules clean check check-kunit check-vm check-uml demo bench deps style sparse

all: modules

modules:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || \
		{ echo "pdcm: no kernel tree: install linux-headers-amd64 or pass KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(PDCM_CONFIG) modules

clean:
	@if [ -n "$(KDIR)" -a -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf build

deps:
	scripts/deps.sh

check:
	scripts/check.sh all

check-kunit:
	scripts/check.sh kunit

check-vm:
	scripts/check.sh vm

check-uml:
	scripts/check.sh uml

style:
	scripts/style.sh checkpatch && scripts/style.sh spdx

sparse:
	scripts/style.sh sparse

demo:
	scripts/demo.sh

bench:
	scripts/bench.sh

endif
