#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Fetch (or reuse) the user-space tools of the ULP scenarios that the host
# must not install: nfs-kernel-server's postinst starts the NFS server,
# which loads nfsd into the host's kernel, and no kernel code of the tests
# may run there.  `apt-get download` of the bookworm packages, unpacked,
# never installed (as stock-kernel.sh does for the kernel):
#   nfs-common          mount.nfs, umount.nfs
#   nfs-kernel-server   rpc.nfsd, rpc.mountd, exportfs
#   libwrap0            rpc.mountd's only library the host lacks
#   open-iscsi          iscsid, iscsiadm (iSER); its postinst starts
#                       iscsid, which loads iscsi_tcp into the host's kernel
#   libisns0 libopeniscsiusr   their libraries the host lacks
# Prints the cache directory; its root/ has the packages' files, which
# initramfs.sh copies into the guest with their libraries.
set -euo pipefail
. "$(dirname "$0")/common.sh"

pkgs=(nfs-common nfs-kernel-server libwrap0 open-iscsi libisns0 libopeniscsiusr)
key=
for p in "${pkgs[@]}"; do
	v=$(apt-cache policy "$p" | awk '/Candidate:/{print $2}')
	[ -n "$v" ] && [ "$v" != "(none)" ] || die "no package $p in the apt lists"
	key=$key$p=$v,
done
out=$PDCM_CACHE/ulp-tools-$(echo "$key" | md5sum | cut -c1-12)

mkdir -p "$PDCM_CACHE"
exec 9>"$out.lock"
flock 9
if [ ! -f "$out/.pdcm-ready" ]; then
	log "fetching ${pkgs[*]}"
	rm -rf "$out" && mkdir -p "$out/deb" && cd "$out/deb"
	# shellcheck disable=SC2046
	apt-get download -q $(echo "${key%,}" | tr , ' ') >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null; apt-get download -q $(echo "${key%,}" | tr , ' ') >/dev/null; }
	for d in ./*.deb; do dpkg-deb -x "$d" "$out/root"; done
	rm -rf "$out/deb"
	echo "$key" >"$out/packages"
	touch "$out/.pdcm-ready"
fi
echo "$out"
