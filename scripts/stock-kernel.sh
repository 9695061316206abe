#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Fetch (or reuse) Debian's stock kernel of one kernel line, for the
# headers that are installed:
#   stock-kernel.sh [LINE]     LINE 6.1 (default), 6.12 or 7.3
# `apt-get download linux-image-<kver>` (7.3: its three parts, with the
# trixie build root's apt), unpacked, never installed.  With
# CONFIG_PVH=y (both lines have it) the compressed kernel inside the
# bzImage (XZ on 6.1, zstd on 6.12, as the kernel's own CONFIG_KERNEL_*
# says) is turned into the ELF vmlinux once, and qemu boots that directly,
# ~2.5 s faster under TCG; without PVH, vmlinux is a copy of the bzImage.
# Prints the cache directory: vmlinux (what qemu's -kernel boots),
# lib/modules/<kver>/ (as packaged: .ko on 6.1, .ko.xz on 6.12 and 7.3),
# kver.
set -euo pipefail
. "$(dirname "$0")/common.sh"

line=${1:-6.1}
kver=$(stock_kver "$line")
pkg=linux-image-$kver
if line_in_root "$line"; then
	# 7.x: linux-image-KVER is a metapackage; the kernel is in
	# linux-binary-KVER, the modules (.ko.xz) in linux-modules-KVER, the
	# config, System.map and modules.order in linux-base-KVER, all under
	# /usr/lib/modules/KVER.  The trixie build root's apt (trixie and
	# trixie-backports, from the host's own archive URI) fetches them.
	root=$("$PDCM_TOP/scripts/trixie-root.sh" "$kver")
	pkgs=("linux-binary-$kver" "linux-modules-$kver" "linux-base-$kver")
	pver=$(chroot "$root" apt-cache policy "${pkgs[0]}" | awk '/Candidate:/{print $2}')
else
	pkgs=("$pkg")
	pver=$(apt-cache policy "$pkg" | awk '/Candidate:/{print $2}')
fi
[ -n "$pver" ] && [ "$pver" != "(none)" ] || die "no package ${pkgs[0]} in the apt lists"
out=$PDCM_CACHE/stock-$kver-$pver

# one fetch per cache directory at a time (make check starts it in the
# background and asks again when it needs it); a waiter reuses the result
mkdir -p "$PDCM_CACHE"
exec 9>"$out.lock"
flock 9
if [ ! -f "$out/.pdcm-ready" ]; then
	log "fetching ${pkgs[*]} $pver"
	rm -rf "$out" && mkdir -p "$out/deb" && cd "$out/deb"
	if line_in_root "$line"; then
		spec="${pkgs[*]/%/=$pver}"
		"$PDCM_TOP/scripts/trixie-root.sh" run "$kver" "$out/deb" \
			"apt-get download -q $spec" >/dev/null 2>&1 ||
			"$PDCM_TOP/scripts/trixie-root.sh" run "$kver" "$out/deb" \
				"apt-get update -q && apt-get download -q $spec" >/dev/null
	else
		apt-get download -q "$pkg=$pver" >/dev/null 2>&1 ||
			{ apt-get update -q >/dev/null; apt-get download -q "$pkg=$pver" >/dev/null; }
	fi
	for d in ./*.deb; do dpkg-deb -x "$d" "$out/root"; done
	if [ ! -e "$out/root/boot/vmlinuz-$kver" ]; then
		# 7.x's layout: /usr/lib/modules/KVER/{vmlinuz,config}, and no
		# /lib: give it 6.x's paths, which the rest reads
		mkdir -p "$out/root/boot"
		ln -s ../usr/lib/modules/$kver/vmlinuz "$out/root/boot/vmlinuz-$kver"
		ln -s ../usr/lib/modules/$kver/config "$out/root/boot/config-$kver"
		[ -e "$out/root/lib" ] || ln -s usr/lib "$out/root/lib"
	fi
	img=$out/root/boot/vmlinuz-$kver
	if grep -q '^CONFIG_PVH=y' "$out/root/boot/config-$kver"; then
		python3 - "$img" "$out/vmlinux" <<'PY'
import lzma, struct, subprocess, sys
# The payload is where the x86 boot protocol (2.08+) says: payload_offset
# and payload_length (setup header 0x248/0x24c) count from the start of
# the protected-mode code, which follows the setup sectors.
data = open(sys.argv[1], 'rb').read()
if data[0x202:0x206] != b'HdrS':
    sys.exit(sys.argv[1] + ': not a bzImage')
setup_sects = data[0x1f1] or 4
off, length = struct.unpack_from('<II', data, 0x248)
start = (setup_sects + 1) * 512 + off
payload = data[start:start + length]
if payload.startswith(b'\xfd7zXZ\x00'):
    elf = lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(payload)
elif payload.startswith(b'\x28\xb5\x2f\xfd'):
    # the build appends the decompressed size (4 bytes) to either format;
    # lzma stops at the end of its stream, zstd must not see it
    elf = subprocess.run(['zstd', '-dcq'], input=payload[:-4], stdout=subprocess.PIPE,
                         check=True).stdout
else:
    sys.exit('%s: payload is neither XZ nor zstd (%s)' % (sys.argv[1], payload[:6].hex()))
if elf[:4] != b'\x7fELF':
    sys.exit('the payload of %s is not an ELF image' % sys.argv[1])
open(sys.argv[2], 'wb').write(elf)
PY
	else
		log "$kver: no CONFIG_PVH, guests boot the bzImage"
		cp "$img" "$out/vmlinux"
	fi
	echo "$kver" >"$out/kver"
	rm -rf "$out/deb"
	touch "$out/.pdcm-ready"
fi
echo "$out"
