#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Fetch (or reuse) Debian's stock kernel for the headers that are installed:
# `apt-get download linux-image-<kver>`, unpacked, never installed.  The XZ
# bzImage is turned into the ELF vmlinux once, because the stock kernel has
# CONFIG_PVH=y and qemu boots that directly, ~2.5 s faster under TCG.
# Prints the cache directory: vmlinux, lib/modules/<kver>/, kver.
set -euo pipefail
. "$(dirname "$0")/common.sh"

kver=$(stock_kver)
pkg=linux-image-$kver
pver=$(apt-cache policy "$pkg" | awk '/Candidate:/{print $2}')
out=$PDCM_CACHE/stock-$kver-$pver

if [ ! -f "$out/.pdcm-ready" ]; then
	log "fetching $pkg $pver"
	rm -rf "$out" && mkdir -p "$out/deb" && cd "$out/deb"
	apt-get download -q "$pkg=$pver" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null; apt-get download -q "$pkg=$pver" >/dev/null; }
	dpkg-deb -x ./*.deb "$out/root"
	python3 - "$out/root/boot/vmlinuz-$kver" "$out/vmlinux" <<'PY'
import lzma, sys
data = open(sys.argv[1], 'rb').read()
off = data.find(b'\xfd7zXZ\x00')
if off < 0:
    sys.exit('no XZ payload in ' + sys.argv[1])
elf = lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(data[off:])
if elf[:4] != b'\x7fELF':
    sys.exit('XZ payload is not an ELF image')
open(sys.argv[2], 'wb').write(elf)
PY
	echo "$kver" >"$out/kver"
	rm -rf "$out/deb"
	touch "$out/.pdcm-ready"
fi
echo "$out"
