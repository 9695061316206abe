# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared settings for the pdcm build and test scripts. Sourced, not run.

PDCM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PDCM_CACHE=${PDCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdcm}
JOBS=${JOBS:-$(nproc)}

# The stock Debian kernel the VM scenarios boot, and its headers.
stock_kver() {
	local h
	h=$(ls -d /usr/src/linux-headers-6.1.0-*-amd64 2>/dev/null | sort -V | tail -n 1)
	[ -n "$h" ] || { echo "pdcm: no linux-headers-6.1.0-*-amd64 installed" >&2; return 1; }
	basename "$h" | sed 's/^linux-headers-//'
}

# Debian's linux-source-6.1 version: part of every cache key.
source_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1
}

# pristine_source: unpack Debian's linux-source-6.1 once per version into
# the cache (never built in, never edited: every build uses O= or a linked
# copy) and print its path.
pristine_source() {
	local ver
	ver=$(source_version) || return
	local top=$PDCM_CACHE/src-$ver
	if [ ! -f "$top/linux-source-6.1/Makefile" ]; then
		log "unpacking linux-source-6.1 $ver (pristine copy, shared by every build)"
		rm -rf "$top.tmp"
		mkdir -p "$top.tmp"
		tar -C "$top.tmp" -xf /usr/src/linux-source-6.1.tar.xz || return
		rm -rf "$top"
		mv "$top.tmp" "$top"
	fi
	echo "$top/linux-source-6.1"
}

# pdcm_build NAME KDIR LOG [make args...]: copy the tree to build/NAME (the
# kernel build writes objects beside the sources, and one copy per kernel
# keeps them apart) and build it against KDIR with W=1, output into LOG.
pdcm_build() {
	local dir=$PDCM_TOP/build/$1 kdir=$2 out=$3
	shift 3
	mkdir -p "$dir" "$(dirname "$out")"
	# the sources only: objects of an earlier build in the tree are not
	# copied, and the copy's own are deleted, so every build is complete
	rsync -a --delete --delete-excluded --exclude /build --exclude /.git \
		--exclude '*.o' --exclude '*.ko' --exclude '*.mod' --exclude '*.mod.c' \
		--exclude '.*.cmd' --exclude modules.order --exclude Module.symvers \
		"$PDCM_TOP/" "$dir/"
	make -C "$kdir" M="$dir" -j "$JOBS" W=1 "$@" modules >"$out" 2>&1
}

log() { printf 'pdcm: %s\n' "$*" >&2; }
die() { printf 'pdcm: error: %s\n' "$*" >&2; exit 1; }
