#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Host side of the packaging checks (check.sh dkms; Documentation/install.rst).
#   install.sh check STOCK_DIR    everything below, as "PASS x"/"FAIL x" lines,
#                                 leaving build/dkms.cpio for the dkms guest
#   install.sh dkms KDIR ROOT     DKMS add/build/install of this tree against
#                                 KDIR, into ROOT/lib/modules/<kver>/ only
#
# Nothing here may touch the build machine's own module tree or DKMS state.
# `make install` runs with INSTALL_MOD_PATH on a private copy of the tree.
# dkms runs in a private mount namespace (unshare -m) in which /lib/modules,
# /var/lib/dkms and /etc/dkms are bind mounts of directories under build/,
# on top of its own --dkmstree/--sourcetree/--installtree/--no-depmod: even
# a path dkms hard-codes (the /var/lib/dkms signing key, the
# /lib/modules/<kver>/modules.dep it reads, a host framework.conf asking
# for modprobe_on_install) lands in, or comes from, the throwaway copy.
# The check compares a listing of the real directories before and after.
# PDCM_TAG=k612_ (check.sh, for the 6.12 stock kernel) prefixes every path
# and log under build/, so that both kernels' checks can run at once.
set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$PDCM_TOP"

TAG=${PDCM_TAG:-}
LOGS=$PDCM_TOP/build/logs
OUT=$PDCM_TOP/build/${TAG}dkms
mkdir -p "$LOGS"
rc=0
pass() { echo "PASS $1"; }
fail() {	# fail NAME [log]
	echo "FAIL $1"
	[ -n "${2:-}" ] && tail -n 20 "$2" | sed 's/^/    /'
	rc=1
}
result() {	# result NAME LOG CMD...: PASS if CMD succeeds
	local n=$1 l=$2
	shift 2
	if "$@" >>"$l" 2>&1; then pass "$n"; else fail "$n" "$l"; fi
}

# The release KDIR builds for (Debian's kernel.release file says 6.1.192).
krelease() { sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$1/include/generated/utsrelease.h"; }
# What modules_install appends to a module's name for KDIR: nothing on
# Debian's 6.1, .xz on its 6.12 (CONFIG_MODULE_COMPRESS_XZ).
kosuffix() {
	local c=$1/.config
	if grep -q '^CONFIG_MODULE_COMPRESS_XZ=y' "$c"; then echo .xz
	elif grep -q '^CONFIG_MODULE_COMPRESS_ZSTD=y' "$c"; then echo .zst
	elif grep -q '^CONFIG_MODULE_COMPRESS_GZIP=y' "$c"; then echo .gz
	fi
}

# A listing of what the real host directories hold, to prove they did not
# change: names, sizes and modification times.
host_state() {
	local kver=$1
	find "/lib/modules/$kver" /var/lib/dkms /etc/dkms /usr/src -maxdepth 6 \
		-printf '%p %s %T@\n' 2>/dev/null | sort
}

# The kernel's own ib_cm.ko (.ko.xz on 6.12), relative to the module
# tree; set by check() for its kernel.
IBCM_STOCK=kernel/drivers/infiniband/core/ib_cm.ko

# dkms KDIR ROOT [STOCK_MODULES]: see the header.  Prints the dkms command
# lines it runs.  With STOCK_MODULES (a kernel's lib/modules/<kver>) the
# staged tree first gets that kernel's ib_cm.ko, next to which DKMS
# installs the drop-in.
dkms_stage() {
	local kdir=$1 root=$2 stockmods=${3:-} kver ver
	kver=$(krelease "$kdir")
	[ -n "$kver" ] || return
	ver=$(dkms_version)
	local w=$OUT/work
	rm -rf "$w" "$root"
	mkdir -p "$w"/{src,tree,var-lib-dkms,etc-dkms} "$root/lib/modules/$kver"
	if [ -n "$stockmods" ]; then
		mkdir -p "$root/lib/modules/$kver/${IBCM_STOCK%/*}"
		cp "$stockmods/$IBCM_STOCK" "$root/lib/modules/$kver/$IBCM_STOCK" || return
	fi
	make -s dkms-src DKMS_SRC="$w/src" || return
	# dkms builds in its tree, at the fixed path where check.sh's stock
	# build ran (stock_at), and with that build's W=1 (KBUILD_EXTRA_WARN,
	# which adds warnings and changes no code), so that every compile is a
	# ccache hit of that build: the production objects are not compiled a
	# second time, not even on a cold cache
	local at=$PDCM_CACHE/at/${TAG}dkms
	local opts="--dkmstree $at --sourcetree $w/src --installtree $root/lib/modules"
	local k="-k $kver --kernelsourcedir $kdir"
	mkdir -p "$at"
	# the headers package's link, as on a host: Debian's dkms finds
	# sign-file through it when /usr/lib/linux-kbuild-<major.minor> does
	# not exist (6.12's kbuild directory carries the full version)
	ln -s "$kdir" "$root/lib/modules/$kver/build"
	KBUILD_EXTRA_WARN=1 pdcm_ccache unshare -m --propagation private bash -euxc "
		mount --bind '$root/lib/modules' /lib/modules
		mount --bind '$w/tree' '$at'
		[ ! -d /var/lib/dkms ] || mount --bind '$w/var-lib-dkms' /var/lib/dkms
		[ ! -d /etc/dkms ] || mount --bind '$w/etc-dkms' /etc/dkms
		dkms add -m pdcm -v $ver $opts
		dkms build -m pdcm -v $ver $opts $k
		dkms install -m pdcm -v $ver $opts $k --no-depmod
		dkms status -m pdcm $opts | tee '$w/status'
	"
	local rc=$?
	rm -f "$root/lib/modules/$kver/build"
	return $rc
}

# dkms_remove KDIR ROOT: dkms remove of what dkms_stage installed, in the
# same private mounts; the kernel's ib_cm.ko is then the only one.
dkms_remove() {
	local kdir=$1 root=$2 kver ver
	kver=$(krelease "$kdir")
	ver=$(dkms_version)
	local w=$OUT/work at=$PDCM_CACHE/at/${TAG}dkms
	local opts="--dkmstree $at --sourcetree $w/src --installtree $root/lib/modules"
	mkdir -p "$at"
	unshare -m --propagation private bash -euxc "
		mount --bind '$root/lib/modules' /lib/modules
		mount --bind '$w/tree' '$at'
		[ ! -d /var/lib/dkms ] || mount --bind '$w/var-lib-dkms' /var/lib/dkms
		[ ! -d /etc/dkms ] || mount --bind '$w/etc-dkms' /etc/dkms
		dkms remove -m pdcm -v $ver $opts -k $kver --no-depmod
	"
}

# BUILD_EXCLUSIVE_*: a kernel without InfiniBand, and kernels that are
# neither 6.1 nor 6.12 (6.6, 6.13), are skipped with dkms' exit code 77
# (autoinstall treats it as "not for this kernel", not as a failure).
dkms_exclusive() {
	local kdir=$1 kver=$2 ver w=$OUT/excl
	ver=$(dkms_version)
	rm -rf "$w"
	mkdir -p "$w"/{src,tree,lib,var-lib-dkms,etc-dkms,noib}
	grep -v '^CONFIG_INFINIBAND=' "$kdir/.config" >"$w/noib/.config"
	make -s dkms-src DKMS_SRC="$w/src" || return
	local opts="--dkmstree $w/tree --sourcetree $w/src --installtree $w/lib"
	unshare -m --propagation private bash -uxc "
		mount --bind '$w/lib' /lib/modules || exit 1
		[ ! -d /var/lib/dkms ] || mount --bind '$w/var-lib-dkms' /var/lib/dkms
		[ ! -d /etc/dkms ] || mount --bind '$w/etc-dkms' /etc/dkms
		dkms add -m pdcm -v $ver $opts || exit 1
		dkms build -m pdcm -v $ver $opts -k $kver --kernelsourcedir '$w/noib'
		[ \$? -eq 77 ] || { echo 'no CONFIG_INFINIBAND: not skipped'; exit 1; }
		for k in 6.6.0-1-amd64 6.13.0-1-amd64; do
			dkms build -m pdcm -v $ver $opts -k \$k --kernelsourcedir '$kdir'
			[ \$? -eq 77 ] || { echo \"\$k: not skipped\"; exit 1; }
		done
	"
}

# make install into a staging root, from a copy of the tree that first had
# a development build (test ULP included): only production modules land.
# The copy is build/<tag>stock, the one check.sh's stock build (W=1, the
# same CONFIG_IB_PDCM* set as the Makefile's, sparse) has just built:
# sources synced again, objects kept, so the development build below
# recompiles only what changed since (nothing, in a make check) instead
# of all of it.  make install's production set then compiles nothing
# either: the objects' command lines do not depend on which modules are
# chosen (Kbuild's pdcm-c-opts), so long as W=1 is on both, and it only
# links and installs.  Its modules.order must still name no test module.
make_install() {
	local kdir=$1 kver=$2 log=$LOGS/${TAG}install-make.log x
	local t=$PDCM_TOP/build/${TAG}stock s=$PDCM_TOP/build/${TAG}install-root
	x=$(kosuffix "$kdir")
	rm -rf "$s"
	mkdir -p "$t"
	pdcm_sync "$t"
	: >"$log"
	# at the path check.sh's build used (pdcm_at, stock_at), or every
	# object's command line would differ from its last build's
	result install.dev_build_has_test_ulp "$log" \
		pdcm_ccache pdcm_at "$(stock_at "$TAG")" "$t" sh -c \
		'make -C "$PDCM_AT" KDIR="$1" W=1 modules && test -f "$PDCM_AT/tests/ulp/pdcm_ulp.ko" &&
		 test -f "$PDCM_AT/tests/shim/pdcm_shim_test.ko"' sh "$kdir"
	result install.make_install "$log" \
		pdcm_ccache pdcm_at "$(stock_at "$TAG")" "$t" sh -c \
		'make -C "$PDCM_AT" KDIR="$1" W=1 INSTALL_MOD_PATH="$2" install' sh "$kdir" "$s"
	local got
	# ib_pdcm and the ULP shims, compressed as the kernel's own modules
	# are; no test module (tests/ulp, tests/shim, tests/kunit,
	# tests/bench) and nothing elsewhere.
	got=$(cd "$s" && find . -name '*.ko*' | sort | tr '\n' ' ')
	local u=./lib/modules/$kver/updates
	if [ "$got" = "$u/cm/ib_pdcm.ko$x $u/compat/ib_cm.ko$x $u/ulp/kdapl/pdcm_kdapl.ko$x $u/ulp/sdp/pdcm_sdp.ko$x " ]; then
		pass install.production_modules_only
	else
		echo "installed: $got" >>"$log"
		fail install.production_modules_only "$log"
	fi
	result install.depmod_indexed "$log" \
		grep -q "^updates/cm/ib_pdcm.ko$x:" "$s/lib/modules/$kver/modules.dep"
	# the ib_cm drop-in needs ib_pdcm (Documentation/ibcm.rst)
	result install.ib_cm_needs_ib_pdcm "$log" \
		grep -q "^updates/compat/ib_cm.ko$x: updates/cm/ib_pdcm.ko$x" "$s/lib/modules/$kver/modules.dep"
	result install.ibcm_crc_gate_ran "$log" grep -q "ibcm-crc: 16/16 CRCs match" "$log"
	result install.modprobe_conf "$log" sh -c \
		"make -C '$t' INSTALL_MOD_PATH='$s' install-modprobe-conf &&
		 cmp '$s/etc/modprobe.d/pdcm.conf' '$PDCM_TOP/etc/modprobe.d/pdcm.conf'"
	result install.uninstall "$log" sh -c \
		"make -C '$t' KDIR='$kdir' INSTALL_MOD_PATH='$s' uninstall uninstall-modprobe-conf &&
		 ! find '$s' -name '*.ko*' | grep -q . && ! test -e '$s/etc/modprobe.d/pdcm.conf' &&
		 ! grep -q 'ib_pdcm\|ib_cm' '$s/lib/modules/$kver/modules.dep'"
}

# initramfs STOCK ROOT OUT: the stock guest image without the usual
# extra/*.ko, plus a second cpio member (the kernel unpacks concatenated
# archives in order) holding the DKMS-installed tree, kmod's own
# depmod/modprobe/modinfo (as on a Debian host), and the modprobe.d snippet.
dkms_initramfs() {
	local stock=$1 root=$2 out=$3 kver
	kver=$(cat "$stock/kver")
	local e=$OUT/empty o=$OUT/overlay
	rm -rf "$e" "$o"
	mkdir -p "$e" "$o/usr/lib/modules" "$o/opt/kmod" "$o/usr/lib/x86_64-linux-gnu" \
		"$o/pdcm/etc/modprobe.d"
	scripts/initramfs.sh stock "$stock" "$e" "$OUT/base.cpio" || return
	cp -a "$root/lib/modules/$kver" "$o/usr/lib/modules/"
	cp /bin/kmod "$o/opt/kmod/kmod"
	for a in depmod modprobe modinfo lsmod rmmod insmod; do ln -s kmod "$o/opt/kmod/$a"; done
	local have
	have=$(cpio -t --quiet <"$OUT/base.cpio")
	for l in $(ldd /bin/kmod | awk '$3 ~ /^\// {print $3}'); do
		echo "$have" | grep -qx "usr/lib/x86_64-linux-gnu/${l##*/}" ||
			cp -L "$l" "$o/usr/lib/x86_64-linux-gnu/"
	done
	cp etc/modprobe.d/pdcm.conf "$o/pdcm/etc/modprobe.d/"
	{ cat "$OUT/base.cpio"; (cd "$o" && find . | cpio -o -H newc --quiet); } >"$out"
}

check() {
	local stock=$1 kver kdir
	kver=$(cat "$stock/kver")
	kdir=/usr/src/linux-headers-$kver
	IBCM_STOCK=kernel/drivers/infiniband/core/ib_cm.ko$(kosuffix "$kdir")
	rm -f "$PDCM_TOP/build/${TAG}dkms.cpio"
	make_install "$kdir" "$kver"

	local before log=$LOGS/${TAG}dkms.log root=$OUT/root
	before=$(host_state "$kver")
	if dkms_stage "$kdir" "$root" "$stock/root/lib/modules/$kver" >"$log" 2>&1; then
		pass dkms.add_build_install
	else
		fail dkms.add_build_install "$log"
	fi
	result dkms.status_installed "$log" grep -q "pdcm/$(dkms_version), $kver, x86_64: installed" "$OUT/work/status"
	result dkms.module_in_updates_dkms "$log" \
		test -f "$root/lib/modules/$kver/updates/dkms/ib_pdcm.ko"
	result dkms.production_modules_only "$log" sh -c \
		"cd '$root/lib/modules/$kver' && test \"\$(find . -name '*.ko*' | sort | tr '\n' ' ')\" = \
		 './$IBCM_STOCK ./updates/dkms/ib_cm.ko ./updates/dkms/ib_pdcm.ko ./updates/dkms/pdcm_kdapl.ko ./updates/dkms/pdcm_sdp.ko '"
	# Debian's dkms leaves the kernel's ib_cm.ko where it is (it moves
	# originals aside only on other distributions): depmod's "updates
	# first" makes the drop-in win, and removing it gives the kernel's back
	result dkms.stock_ib_cm_left_in_place "$log" \
		cmp "$root/lib/modules/$kver/$IBCM_STOCK" "$stock/root/lib/modules/$kver/$IBCM_STOCK"
	local inst=$OUT/root-installed
	rm -rf "$inst" && cp -a "$root" "$inst"
	result dkms.remove "$log" dkms_remove "$kdir" "$root"
	result dkms.remove_restores_stock_ib_cm "$log" sh -c \
		"cmp '$root/lib/modules/$kver/$IBCM_STOCK' \
		 '$stock/root/lib/modules/$kver/$IBCM_STOCK' &&
		 ! find '$root/lib/modules/$kver/updates' -name '*.ko*' | grep -q ."
	root=$inst
	result dkms.build_exclusive_skips "$LOGS/${TAG}dkms-exclusive.log" dkms_exclusive "$kdir" "$kver"
	if [ "$(host_state "$kver")" = "$before" ]; then
		pass dkms.host_module_tree_untouched
	else
		diff <(echo "$before") <(host_state "$kver") >>"$log"
		fail dkms.host_module_tree_untouched "$log"
	fi
	result initramfs.dkms "$LOGS/${TAG}dkms-initramfs.log" \
		dkms_initramfs "$stock" "$root" "$PDCM_TOP/build/${TAG}dkms.cpio"
}

case ${1:-} in
check) check "$2" ;;
dkms) dkms_stage "$2" "$(realpath -m "$3")" || rc=1 ;;
*) die "usage: install.sh check STOCK_DIR | dkms KDIR ROOT" ;;
esac
exit $rc
