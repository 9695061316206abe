# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Out-of-tree entry point for pdcm.  The kernel build itself is driven by
# ./Kbuild; this file only picks the kernel tree and names the jobs.
#
#   make [KDIR=...|KVER=...]  build cm/ib_pdcm.ko, compat/ib_cm.ko (the
#                       ib_cm drop-in, CRC-checked by scripts/ibcm-crc.sh),
#                       the test ULP and (where the kernel has KUnit) the
#                       test module against KDIR
#   make check          the whole test suite: KUnit kernel + stock-kernel VMs
#   make fuzz           the hostile peer's long runs: 10^6 fuzzed MADs, a
#                       100,000-REQ flood (Documentation/robustness.rst)
#   make bench-conn     connection setup: stock ib_cm against pdcm's drop-in
#                       under rdma-core's cmtime (Documentation/performance.rst)
#   make bench-storm    connect storms, the same two CMs: K nvme connects of
#                       Q queues at once, P cmtime clients against one server
#   make bench-cm       the CMs alone: stock ib_cm against pdcm's drop-in,
#                       N handshakes over softib's IB ports (same document)
#   make demo           boot a stock Debian guest and show pdcm working on rxe
#   make install        build the production modules (no test modules) and
#                       install them into /lib/modules/<rel>/updates, depmod;
#                       INSTALL_MOD_PATH=DIR stages into DIR instead
#   make install-modprobe-conf   etc/modprobe.d/pdcm.conf (module options)
#   make dkms-src       copy the sources to $(DKMS_SRC)/pdcm-<version>
#   make dkms           dkms-src, then dkms add/build/install on this machine
#   make deb            build/deb/pdcm-dkms_<version>_all.deb (debian/, dh-dkms),
#                       lintian-checked (scripts/deb.sh)
#   make docs           kernel-doc + reStructuredText into build/docs/
# Documentation/install.rst explains each of them and how to go back.

ifneq ($(KERNELRELEASE),)
include $(src)/Kbuild
else

# The kernel tree, chosen one way only: KDIR=DIR, or else KVER=RELEASE's
# /lib/modules/RELEASE/build, KVER defaulting to the running kernel.  No
# guessing among installed headers: without the running kernel's, make
# stops and lists the trees there are (Documentation/install.rst).  pdcm
# builds for 6.1, 6.12 and 7.3 (cm/compat.h, <rdma/pdcm_ns.h>).
KVER ?= $(shell uname -r)
KDIR ?= $(wildcard /lib/modules/$(KVER)/build)

# Kernels whose headers need a newer libc than the host's (Debian's 7.3
# from trixie-backports on Debian 12): without KVER's headers here, make
# runs in the trixie build root instead (scripts/trixie-root.sh makes it
# once, in the cache), with this tree bind-mounted at its own path.
# Where the headers are installed (a trixie host), nothing changes.
PDCM_ROOT_KVERS := 7.3.4+deb13-amd64
PDCM_IN_ROOT := $(if $(KDIR),,$(filter $(KVER),$(PDCM_ROOT_KVERS)))

kdir-has = $(shell grep -qs '^$(1)=[ym]' $(KDIR)/.config && echo m)

PDCM_CONFIG := CONFIG_IB_PDCM=m CONFIG_IB_PDCM_IBCM=m
PDCM_CONFIG += CONFIG_IB_PDCM_KUNIT_TEST=$(call kdir-has,CONFIG_KUNIT)
PDCM_CONFIG += CONFIG_IB_PDCM_BENCHMARK=$(BENCH)
PDCM_CONFIG += CONFIG_IB_PDCM_TEST_ULP=m CONFIG_IB_PDCM_SOFTIB=m
PDCM_CONFIG += CONFIG_IB_PDCM_SDP=m CONFIG_IB_PDCM_KDAPL=m CONFIG_IB_PDCM_SHIM_TEST=m

# What `make install` (and dkms.conf, by the same list) builds: ib_pdcm, the
# ib_cm drop-in (compat/) and the ULP shims; never tests/kunit, tests/ulp, tests/shim, tests/bench, tests/softib.
PDCM_INSTALL_CONFIG := CONFIG_IB_PDCM=m CONFIG_IB_PDCM_IBCM=m CONFIG_IB_PDCM_SDP=m CONFIG_IB_PDCM_KDAPL=m \
	CONFIG_IB_PDCM_KUNIT_TEST= CONFIG_IB_PDCM_BENCHMARK= CONFIG_IB_PDCM_TEST_ULP= \
	CONFIG_IB_PDCM_SHIM_TEST= CONFIG_IB_PDCM_SOFTIB=
INSTALL_MOD_DIR ?= updates
# The release modules are installed under (Debian's headers have a different
# include/config/kernel.release, e.g. 6.1.192 for 6.1.0-57-amd64).
KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
		$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
PDCM_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC ?= /usr/src
MODPROBE_CONF := $(INSTALL_MOD_PATH)/etc/modprobe.d/pdcm.conf

.PHONY: all modules clean check check-kunit check-vm check-uml demo bench bench-conn bench-storm bench-cm deps style sparse fuzz
.PHONY: kdir install uninstall install-modprobe-conf uninstall-modprobe-conf
.PHONY: dkms-src dkms deb docs

all: modules

kdir:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || \
		{ echo "pdcm: no kernel tree for $(KVER) (/lib/modules/$(KVER)/build):" \
			"install linux-headers-$(KVER), or pick one: KVER=<release> or KDIR=<dir>" >&2; \
		  for d in $(wildcard /lib/modules/*/build); do \
			echo "pdcm:   KVER=$$(basename $$(dirname $$d))" >&2; done; \
		  for k in $(PDCM_ROOT_KVERS); do \
			echo "pdcm:   KVER=$$k (in the trixie build root, as root)" >&2; done; exit 1; }

# The CRC gate: the ib_cm drop-in must export what the kernel's ib_cm
# exports, CRC for CRC, or the kernel's rdma_cm refuses it.
IBCM_GATE = scripts/ibcm-crc.sh $(CURDIR)/Module.symvers $(KDIR)

ifneq ($(PDCM_IN_ROOT),)
modules:
	scripts/trixie-root.sh run $(KVER) $(CURDIR) '$(MAKE) KVER=$(KVER) $(if $(BENCH),BENCH=$(BENCH)) modules'

install uninstall:
	@echo "pdcm: $(KVER)'s headers are in the trixie build root only: make builds for it, $@ needs them installed" >&2; exit 1
else
modules: kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(PDCM_CONFIG) modules
	$(IBCM_GATE)

# modules_install copies what modules.order lists, so the tree is rebuilt
# with the production set first.  Its own depmod is skipped without
# System.map, which headers packages lack ("Warning: ... Skipping depmod"):
# depmod runs here instead, on the staged root if any.
# It signs only where the kernel's signing key is there (a kernel you built;
# a distribution's headers have none: dkms signs with its own MOK key).
install: kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(PDCM_INSTALL_CONFIG) modules
	$(IBCM_GATE)
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(PDCM_INSTALL_CONFIG) \
		$(if $(wildcard $(KDIR)/certs/signing_key.x509),,CONFIG_MODULE_SIG_ALL=) \
		INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KRELEASE)

# .ko* : modules_install compresses as the kernel's own modules are
# (.ko.xz on Debian's 6.12).
uninstall: kdir
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/cm/ib_pdcm.ko* \
	      $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/compat/ib_cm.ko* \
	      $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/ulp/sdp/*.ko* \
	      $(INSTALL_MOD_PATH)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)/ulp/kdapl/*.ko*
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KRELEASE)
endif

install-modprobe-conf:
	install -D -m 0644 etc/modprobe.d/pdcm.conf $(MODPROBE_CONF)

uninstall-modprobe-conf:
	rm -f $(MODPROBE_CONF)

# The DKMS source tree: the sources without build output (Kbuild's clean
# walks tests/ too, so they come along; dkms.conf does not build them).
dkms-src:
	rm -rf $(DKMS_SRC)/pdcm-$(PDCM_VERSION)
	mkdir -p $(DKMS_SRC)/pdcm-$(PDCM_VERSION)
	rsync -a --exclude /build --exclude /.git --exclude /debian --exclude '*.o' --exclude '*.ko' \
		--exclude '.*.cmd' --exclude '*.mod*' --exclude modules.order \
		--exclude Module.symvers ./ $(DKMS_SRC)/pdcm-$(PDCM_VERSION)/

dkms: dkms-src
	dkms add -m pdcm -v $(PDCM_VERSION) --sourcetree $(DKMS_SRC)
	dkms build -m pdcm -v $(PDCM_VERSION) -k $(KRELEASE) --kernelsourcedir $(KDIR)
	dkms install -m pdcm -v $(PDCM_VERSION) -k $(KRELEASE) --kernelsourcedir $(KDIR)

# (as root without debhelper and dh-dkms, in the deb root: scripts/deb.sh)
deb:
	scripts/deb.sh build

docs:
	scripts/docs.sh

clean:
	@if [ -n "$(KDIR)" -a -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	@if [ -n "$(PDCM_IN_ROOT)" ]; then scripts/trixie-root.sh run $(KVER) $(CURDIR) '$(MAKE) KVER=$(KVER) clean'; fi
	rm -rf build

deps:
	scripts/deps.sh

check:
	scripts/check.sh all

fuzz:
	scripts/check.sh fuzz

check-kunit:
	scripts/check.sh kunit

check-vm:
	scripts/check.sh vm

check-uml:
	scripts/check.sh uml

style:
	scripts/style.sh checkpatch && scripts/style.sh spdx && scripts/style.sh kerneldoc

sparse:
	scripts/style.sh sparse

demo:
	scripts/demo.sh

bench:
	scripts/bench.sh

bench-conn:
	scripts/bench-conn.sh

bench-storm:
	scripts/bench-storm.sh

bench-cm:
	scripts/bench-cm.sh

endif
