#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Build a guest initramfs.
#   initramfs.sh kunit <kunit-build-dir> <pdcm-build-dir> <out.cpio[.gz]>
#   initramfs.sh stock <stock-cache-dir> <pdcm-build-dir> <out.cpio[.gz]>
# (a stock cache dir of either kernel line, scripts/stock-kernel.sh).
# The pdcm build dir is a tree built with `make -C <kdir> M=...`; every .ko
# in it goes to /lib/modules/<kver>/extra.  The guest runs tests/vm/init,
# which sources tests/vm/lib.sh and runs the scenario named on the command
# line.  busybox is the userland; rdma-core tools come with their libraries.
set -euo pipefail
. "$(dirname "$0")/common.sh"

kind=$1 kdir=$2 pdcm=$3 out=$4
R=$(mktemp -d)
trap 'rm -rf "$R"' EXIT

mkdir -p "$R"/usr/{bin,sbin,lib/x86_64-linux-gnu,lib64} "$R"/{etc,proc,sys,dev,tmp,run,pdcm}
for d in bin sbin lib lib64; do ln -s usr/$d "$R/$d"; done

cp /bin/busybox "$R/usr/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$R/usr/bin/$a" ] || ln -s busybox "$R/usr/bin/$a"
done
for a in modprobe insmod rmmod lsmod depmod poweroff; do
	ln -sf ../bin/busybox "$R/usr/sbin/$a"
done

# Userspace RDMA tools and their shared libraries.
tools=(/usr/bin/rdma /usr/bin/ibv_devices /usr/bin/ibv_devinfo
       /usr/bin/ibv_rc_pingpong /usr/bin/ibv_ud_pingpong /usr/bin/rping
       /usr/bin/ucmatose /usr/bin/udaddy /usr/bin/rdma_server
       /usr/bin/rdma_client /usr/bin/cmtime /usr/bin/rstream /usr/sbin/nvme)
prov=/usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so
mkdir -p "$R/usr/lib/x86_64-linux-gnu/libibverbs" "$R/etc/libibverbs.d"
cp "$prov" "$R$prov"
cp /etc/libibverbs.d/rxe.driver "$R/etc/libibverbs.d/"
# PDCM_INITRAMFS_TOOLS: more host programs, with their libraries (perf for
# `BENCH_PROFILE=1 make bench-conn`)
for t in ${PDCM_INITRAMFS_TOOLS:-}; do
	tools+=("$(readlink -f "$(command -v "$t")")")
done
for t in "${tools[@]}"; do
	[ -x "$t" ] && cp "$t" "$R/usr/bin/"
done
# PDCM_SELFTESTS=DIR (a kernel source's tools/testing/selftests, 7.1 and
# later: check.sh gives 7.3's): its rdma/ scripts and the KTAP helpers they
# source in /pdcm/selftests, and in /pdcm/selftests/bin what they run that
# busybox lacks (bash, iproute2's ip with netns and tuntap, ss), with their
# libraries; the modules they load (tun, veth, dummy) below.
# (rdma_selftests_lib.sh)
if [ -n "${PDCM_SELFTESTS:-}" ]; then
	mkdir -p "$R/pdcm/selftests/rdma" "$R/pdcm/selftests/kselftest" "$R/pdcm/selftests/bin"
	cp "$PDCM_SELFTESTS"/rdma/*.sh "$PDCM_SELFTESTS/rdma/Makefile" "$R/pdcm/selftests/rdma/"
	cp "$PDCM_SELFTESTS/kselftest/ktap_helpers.sh" "$R/pdcm/selftests/kselftest/"
	for t in /usr/bin/bash /usr/bin/ip /usr/bin/ss; do
		cp "$t" "$R/pdcm/selftests/bin/"
		tools+=("$t")
	done
fi
# The hostile CM peer (tests/hostile), built here for the guests' libc.
gcc -O2 -Wall -Wextra -Werror -o "$R/usr/bin/cmhostile" \
	"$PDCM_TOP/tests/hostile/cmhostile.c" -libumad
tools+=("$R/usr/bin/cmhostile")
# The rdma_cm ends of the REQ dispatch benchmark (tests/bench, `make bench`).
gcc -O2 -Wall -Wextra -Werror -o "$R/usr/bin/cmdemux" \
	"$PDCM_TOP/tests/bench/cmdemux.c" -lrdmacm
tools+=("$R/usr/bin/cmdemux")
# The fail-nth driver of the faults scenario (tests/faults).
gcc -O2 -Wall -Wextra -Werror -o "$R/usr/bin/failnth" \
	"$PDCM_TOP/tests/faults/failnth.c"
# The ibcm scenarios' probes of the wire (tests/wire): RoCE traffic
# classes, ECE through rdma_cm, and RDS over rds_rdma.
gcc -O2 -Wall -Wextra -Werror -o "$R/usr/bin/rocetos" \
	"$PDCM_TOP/tests/wire/rocetos.c"
gcc -O2 -Wall -Wextra -Werror -o "$R/usr/bin/ecetest" \
	"$PDCM_TOP/tests/wire/ecetest.c" -lrdmacm
tools+=("$R/usr/bin/ecetest")
gcc -O2 -Wall -Wextra -Werror -o "$R/usr/bin/rdsecho" \
	"$PDCM_TOP/tests/wire/rdsecho.c"
# NFS over RDMA and iSER (ibcm_nfs_*, ibcm_iser_*): nfs-utils' server and
# mount tools, open-iscsi's iscsid and iscsiadm, fetched and unpacked, not
# installed on the host (scripts/ulp-tools.sh); ldd finds the libraries
# the host lacks in the same tree.
ulp=$("$PDCM_TOP/scripts/ulp-tools.sh")/root
for t in sbin/mount.nfs usr/sbin/rpc.nfsd usr/sbin/rpc.mountd usr/sbin/exportfs \
	 sbin/iscsid sbin/iscsiadm; do
	cp "$ulp/$t" "$R/usr/sbin/"
	tools+=("$ulp/$t")
done
for a in mount.nfs4 umount.nfs umount.nfs4; do ln -s mount.nfs "$R/usr/sbin/$a"; done
cp /etc/netconfig /etc/protocols /etc/services "$R/etc/"
mkdir -p "$R/var/lib/nfs"
export LD_LIBRARY_PATH=$ulp/usr/lib/x86_64-linux-gnu
for l in $(ldd "${tools[@]}" "$prov" 2>/dev/null |
	   awk '/=>/ && $3 ~ /^\// {print $3} /^\t\/lib64/ {print $1}' | sort -u); do
	case $l in
	*ld-linux*) cp -L "$l" "$R/usr/lib64/" ;;
	*) cp -L "$l" "$R/usr/lib/x86_64-linux-gnu/" ;;
	esac
done
unset LD_LIBRARY_PATH
# glibc dlopen()s libgcc_s for pthread_exit; ldd does not list it.
cp -L /usr/lib/x86_64-linux-gnu/libgcc_s.so.1 "$R/usr/lib/x86_64-linux-gnu/"

case $kind in
kunit)
	kver=$(cat "$kdir/include/config/kernel.release")
	src=$(readlink -f "$kdir/source")
	make -C "$src" O="$kdir" -s modules_install INSTALL_MOD_PATH="$R/usr" \
		INSTALL_MOD_STRIP=1 DEPMOD=/bin/true >/dev/null
	rm -f "$R/usr/lib/modules/$kver"/{build,source}
	;;
stock)
	kver=$(cat "$kdir/kver")
	mroot=$kdir/root/lib/modules/$kver
	dst=$R/usr/lib/modules/$kver
	mkdir -p "$dst"
	cp "$mroot"/modules.{order,builtin,builtin.modinfo} "$dst/"
	[ -f "$mroot/modules.dep" ] || depmod -b "$kdir/root" "$kver"
	for m in crc32_generic virtio_pci virtio_net rdma_rxe ib_core ib_uverbs \
		 ib_umad ib_cm iw_cm rdma_cm rdma_ucm nvme_rdma nvmet_rdma \
		 ib_ipoib ib_srp ib_srpt 8021q sd_mod nfsd nfsv4 rpcrdma ib_isert \
		 ib_iser crc32c_generic rds_rdma ${PDCM_SELFTESTS:+tun veth dummy}; do
		# (7.x has no crc32_generic: rxe calls the crc32 library)
		{ modprobe -d "$kdir/root" -S "$kver" --show-depends "$m" 2>/dev/null || true; } |
			awk '$1 == "insmod" {print $2}'
	done | sort -u | while read -r ko; do
		rel=${ko#"$mroot"/}
		mkdir -p "$dst/$(dirname "$rel")"
		# 6.12 and 7.3 ship .ko.xz: the guest gets them decompressed, so that
		# busybox modprobe/insmod (no xz support) load them, and depmod
		# below indexes the .ko names
		case $ko in
		*.ko.xz) xz -dc "$ko" >"$dst/${rel%.xz}" ;;
		*.ko.zst) zstd -dcq "$ko" >"$dst/${rel%.zst}" ;;
		*.ko.gz) gzip -dc "$ko" >"$dst/${rel%.gz}" ;;
		*) cp "$ko" "$dst/$rel" ;;
		esac
	done
	;;
*) die "initramfs.sh: unknown kernel kind '$kind'" ;;
esac

mkdir -p "$R/usr/lib/modules/$kver/extra"
find "$pdcm" -name '*.ko' ! -path '*/compat/ib_cm.ko' -exec cp {} "$R/usr/lib/modules/$kver/extra/" \;
# The ib_cm drop-in stays outside the module tree: depmod would otherwise
# pick one of the two ib_cm.ko for every guest.  Stock-CM guests modprobe
# the kernel's; pdcm guests insmod this one (lib.sh ibcm_load).
if [ -f "$pdcm/compat/ib_cm.ko" ]; then
	mkdir -p "$R/pdcm/ibcm"
	cp "$pdcm/compat/ib_cm.ko" "$R/pdcm/ibcm/"
fi
depmod -b "$R/usr" "$kver"

cp "$PDCM_TOP/tests/vm/init" "$R/init"
chmod +x "$R/init"
cp -r "$PDCM_TOP/tests/vm/lib.sh" "$PDCM_TOP/tests/vm/scenarios" "$R/pdcm/"
echo "$kind" >"$R/pdcm/kernel-kind"

# OUT.cpio is not compressed: make check's guests boot from it, because
# inflating the image under TCG cost a stock guest about 1 of its 7 CPU
# seconds (module scenario, 14.7 MB gzip, 38 MB plain) and a KASAN guest 2
# of its 16 (Documentation/testing.rst).  OUT.cpio.gz (bench, demo: one
# boot each) is gzip -1.
compress=cat
[[ $out != *.gz ]] || compress="gzip -1"
(cd "$R" && find . | cpio -o -H newc --quiet) | $compress >"$out"
