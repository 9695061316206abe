#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The Debian package pdcm-dkms (`make deb`; Documentation/install.rst), and
# what its guest scenario (deb, on 7.3) boots:
#   deb.sh build        build/deb/pdcm-dkms_<version>_all.deb by
#                       dpkg-buildpackage (debhelper, dh-dkms) from a copy of
#                       the tree, then lintian (build/deb/lintian.txt) where
#                       there is one; prints the .deb's path.  On a host with
#                       dh-dkms it builds there; as root on one without (Debian
#                       12 as this project's machines are set up), in the deb
#                       root below.
#   deb.sh root         the deb root: the trixie build root plus DEB_PKGS (made
#                       once, in the cache); prints its path
#   deb.sh image STOCK  the deb guest's disk: an ext4 image of the deb root
#                       with STOCK's module tree in /usr/lib/modules (as the
#                       kernel's image package installs it), so that the guest
#                       is a trixie system running that kernel with its
#                       headers, gcc-14 and dkms; made once per root and
#                       kernel, in the cache; prints its path
#   deb.sh initramfs STOCK DEB OUT
#                       the stock guest image without pdcm's modules, plus
#                       DEB and the modules that mount the disk (virtio_blk,
#                       ext4, decompressed, in load order: /pdcm/deb/mods)
set -euo pipefail
. "$(dirname "$0")/common.sh"

# What the deb root adds: dh-dkms and debhelper build the package, lintian
# checks it; dkms (with kmod; gcc-14 comes with the headers, gcc and
# openssl, with which dkms signs, with debhelper and lintian) is what an
# admin's apt pulls in for it.
DEB_PKGS="dkms dh-dkms debhelper lintian fakeroot rsync"

deb_root() { TRIXIE_EXTRA=$DEB_PKGS "$PDCM_TOP/scripts/trixie-root.sh" "$TRIXIE_KVER"; }
in_deb_root() {	# in_deb_root DIR CMD: CMD (sh -c) in the deb root, in DIR
	TRIXIE_EXTRA=$DEB_PKGS "$PDCM_TOP/scripts/trixie-root.sh" run "$TRIXIE_KVER" "$1" "$2"
}

build() {
	local out=$PDCM_TOP/build/deb ver src cmd
	ver=$(dkms_version)
	src=$out/pdcm-$ver
	rm -rf "$out"
	mkdir -p "$src"
	pdcm_sync "$src"
	# lintian's exit status: 0 with no error or warning (each override in
	# debian/pdcm-dkms.lintian-overrides says why)
	# (in OUT: dpkg-buildpackage writes the .deb beside the tree, and in
	# the root only OUT is the host's)
	cmd='cd pdcm-'$ver' && dpkg-buildpackage -us -uc -b $DEB_D >../build.log 2>&1 ||
		{ tail -n 30 ../build.log >&2; exit 1; }
	     if command -v lintian >/dev/null; then
		lintian --fail-on error,warning --info --display-info ../*.changes >../lintian.txt 2>&1 ||
			{ cat ../lintian.txt >&2; exit 2; }
	     else echo "no lintian here" >../lintian.txt; fi'
	if command -v dh_dkms >/dev/null && command -v dpkg-buildpackage >/dev/null; then
		(cd "$out" && DEB_D='' sh -c "$cmd")
	elif [ "$(id -u)" = 0 ]; then
		# (-d: the root has what the build uses, not build-essential,
		# since nothing is compiled)
		in_deb_root "$out" "DEB_D=-d; $cmd"
	else
		die "make deb: needs debhelper and dh-dkms (apt install debhelper dh-dkms), or root for the deb root"
	fi
	ls "$out"/pdcm-dkms_"$ver"_all.deb
}

image() {
	local stock=$1 root kver key img t size
	root=$(deb_root)
	kver=$(cat "$stock/kver")
	key=$(printf '%s\n' "$root" "$stock" | sha1sum | cut -c1-12)
	img=$PDCM_CACHE/deb-disk-$key.img
	if [ ! -f "$img" ]; then
		(
			flock 8
			[ -f "$img" ] && exit 0
			log "making the deb guest's disk for $kver (once)"
			t=$img.tmp.d
			rm -rf "$t" "$img.tmp"
			mkdir -p "$t"
			cp -al "$root" "$t/r"
			mkdir -p "$t/r/usr/lib/modules/$kver"
			cp -al "$stock/root/lib/modules/$kver/." "$t/r/usr/lib/modules/$kver/"
			rm -f "$t/r/.pdcm-ready"
			# room for dkms's build tree and logs
			size=$(($(du -sm "$t/r" | cut -f1) + 512))
			mke2fs -q -t ext4 -L pdcmdeb -d "$t/r" "$img.tmp" "${size}M" >&2 &&
				mv "$img.tmp" "$img"
			rm -rf "$t"
		) 8>"$img.lock" || return
	fi
	echo "$img"
}

initramfs() {
	local stock=$1 deb=$2 out=$3 kver o n=0 m ko
	kver=$(cat "$stock/kver")
	o=$PDCM_TOP/build/deb-initramfs
	rm -rf "$o"
	mkdir -p "$o/empty" "$o/overlay/pdcm/deb/mods"
	"$PDCM_TOP/scripts/initramfs.sh" stock "$stock" "$o/empty" "$o/base.cpio"
	cp "$deb" "$o/overlay/pdcm/deb/"
	for m in virtio_blk ext4; do
		modprobe -d "$stock/root" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" {print $2}'
	done | awk '!seen[$0]++' | while read -r ko; do
		n=$((n + 1))
		m=$(basename "$ko")
		case $ko in
		*.ko.xz) xz -dc "$ko" >"$o/overlay/pdcm/deb/mods/$(printf %02d $n)-${m%.xz}" ;;
		*.ko.zst) zstd -dcq "$ko" >"$o/overlay/pdcm/deb/mods/$(printf %02d $n)-${m%.zst}" ;;
		*) cp "$ko" "$o/overlay/pdcm/deb/mods/$(printf %02d $n)-$m" ;;
		esac
	done
	{ cat "$o/base.cpio"; (cd "$o/overlay" && find . | cpio -o -H newc --quiet); } >"$out"
	rm -rf "$o"
}

case ${1:-} in
build) build ;;
root) deb_root ;;
image) image "${2:?usage: deb.sh image STOCK}" ;;
initramfs) initramfs "${2:?}" "${3:?}" "${4:?}" ;;
*) die "usage: deb.sh build | root | image STOCK | initramfs STOCK DEB OUT" ;;
esac
