# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared settings for the pdcm build and test scripts. Sourced, not run.

PDCM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PDCM_CACHE=${PDCM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pdcm}
JOBS=${JOBS:-$(nproc)}

# The kernel lines pdcm is built and tested for: Debian 12's own 6.1,
# the 6.12 LTS that bookworm-security ships (Debian 13's kernel), and
# trixie-backports' 7.3, whose headers install only in the trixie build
# root (scripts/trixie-root.sh).  Every helper below takes a LINE, default
# 6.1.  PDCM_KERNELS (default all three) narrows what check.sh runs, e.g.
# PDCM_KERNELS=7.3 while working on it.
PDCM_LINES="6.1 6.12 7.3"
PDCM_KERNELS=${PDCM_KERNELS:-$PDCM_LINES}

# line_prefix LINE: what names of LINE's builds and guests start with:
# nothing for 6.1 (as always), "k612_" for 6.12, "k73_" for 7.3.
line_prefix() {
	case ${1:-6.1} in
	6.1) echo "" ;;
	*) echo "k$(echo "$1" | tr -d .)_" ;;
	esac
}

# stock_kver [LINE]: the stock Debian kernel of LINE that the VM scenarios
# boot, as the release of the newest installed linux-headers-LINE.N-amd64
# (6.1.0-57-amd64, 6.12.117+deb12-amd64; never -cloud or -rt); for 7.3,
# TRIXIE_KVER (7.3.4+deb13-amd64), whose headers are in the trixie root.
stock_kver() {
	local line=${1:-6.1} h
	line_in_root "$line" && { echo "$TRIXIE_KVER"; return; }
	h=$(ls -d /usr/src/linux-headers-"$line".[0-9]*-amd64 2>/dev/null |
		grep -Ev -- '-(cloud|rt)-amd64$' | sort -V | tail -n 1)
	[ -n "$h" ] || { echo "pdcm: no linux-headers-$line.*-amd64 installed" >&2; return 1; }
	basename "$h" | sed 's/^linux-headers-//'
}

# line_in_root LINE: whether LINE's headers live in the trixie build root
# (they need trixie's libc) rather than on the host.
line_in_root() { [ "${1:-6.1}" = 7.3 ]; }

# stock_kdir [LINE]: the stock headers of LINE that pdcm builds against,
# on the host (/usr/src/linux-headers-KVER) or, for 7.3, in the trixie
# build root (made on first use).
stock_kdir() {
	local line=${1:-6.1} kver root
	kver=$(stock_kver "$line") || return
	if line_in_root "$line"; then
		root=$("$PDCM_TOP/scripts/trixie-root.sh" "$kver") || return
		echo "$root/usr/src/linux-headers-$kver"
	else
		echo "/usr/src/linux-headers-$kver"
	fi
}

# source_version [LINE]: Debian's linux-source-LINE version, part of every
# cache key: the installed package's, or for 7.3 the candidate of the
# trixie build root's apt (trixie-backports; never installed on the host).
source_version() {
	local line=${1:-6.1} root
	if line_in_root "$line"; then
		root=$("$PDCM_TOP/scripts/trixie-root.sh" "$(stock_kver "$line")") || return
		chroot "$root" apt-cache policy "linux-source-$line" |
			awk '/Candidate:/ && $2 != "(none)" { print $2; f = 1 } END { exit !f }'
		return
	fi
	dpkg-query -W -f='${Version}' "linux-source-$line"
}

# source_tarball [LINE]: the path of linux-source-LINE's tarball: where the
# installed package puts it, or for 7.3 in the cache, taken once from the
# package the trixie build root's apt downloads.
source_tarball() {
	local line=${1:-6.1} ver dir
	if ! line_in_root "$line"; then
		echo "/usr/src/linux-source-$line.tar.xz"
		return
	fi
	ver=$(source_version "$line") || return
	dir=$PDCM_CACHE/deb-linux-source-$ver
	if [ ! -f "$dir/linux-source-$line.tar.xz" ]; then
		mkdir -p "$dir"
		(
			flock 8
			[ -f "$dir/linux-source-$line.tar.xz" ] && exit 0
			log "fetching linux-source-$line $ver"
			rm -f "$dir"/*.deb
			"$PDCM_TOP/scripts/trixie-root.sh" run "$(stock_kver "$line")" "$dir" \
				"apt-get download -q linux-source-$line=$ver" >/dev/null 2>&1 || exit 1
			dpkg-deb --fsys-tarfile "$dir"/linux-source-*.deb |
				tar -xO "./usr/src/linux-source-$line.tar.xz" >"$dir/tmp.tar.xz" &&
				mv "$dir/tmp.tar.xz" "$dir/linux-source-$line.tar.xz" && rm -f "$dir"/*.deb
		) 8>"$dir.lock" || return
	fi
	echo "$dir/linux-source-$line.tar.xz"
}

# pristine_source [LINE]: unpack Debian's linux-source-LINE once per
# version into the cache (never built in, never edited: every build uses
# O= or a linked copy) and print its path.
pristine_source() {
	local line=${1:-6.1} ver
	ver=$(source_version "$line") || return
	local top=$PDCM_CACHE/src-$ver
	if [ ! -f "$top/linux-source-$line/Makefile" ]; then
		# one unpacker at a time (make check's style gates and its
		# KUnit kernel build start together); a waiter finds it done
		mkdir -p "$PDCM_CACHE"
		(
			flock 8
			[ -f "$top/linux-source-$line/Makefile" ] && exit 0
			log "unpacking linux-source-$line $ver (pristine copy, shared by every build)"
			rm -rf "$top.tmp"
			mkdir -p "$top.tmp"
			tar -C "$top.tmp" -xf "$(source_tarball "$line")" || exit 1
			rm -rf "$top"
			mv "$top.tmp" "$top"
		) 8>"$top.lock" || return
	fi
	echo "$top/linux-source-$line"
}

# pdcm_sync DIR [rsync args...]: make DIR a copy of the tree's sources
# (no build output of the tree's own, no build/, no .git).  Build output
# already in DIR stays, unless the args say --delete-excluded.
pdcm_sync() {
	local dir=$1
	shift
	rsync -a --delete "$@" --exclude /build --exclude /.git \
		--exclude '*.o' --exclude '*.ko' --exclude '*.mod' --exclude '*.mod.c' \
		--exclude '.*.cmd' --exclude modules.order --exclude Module.symvers \
		"$PDCM_TOP/" "$dir/"
}

# pdcm_ccache CMD...: run CMD with its compilers through ccache, the cache
# in $PDCM_CACHE/ccache (PDCM_CCACHE=0: without).  Only pdcm's own builds
# use it, never the kernels': a pdcm build compiles 69 objects against
# kernel headers in about 65 CPU seconds, a hit of all of them takes about
# 15, and make check compiles pdcm three times per kernel line (stock
# headers, KUnit kernel, DKMS).  A hit replays the compiler's warnings,
# so W=1 still fails a build.
pdcm_ccache() {
	if [ "${PDCM_CCACHE:-1}" = 0 ] || [ ! -x /usr/lib/ccache/gcc ]; then
		"$@"
		return
	fi
	PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$PDCM_CACHE/ccache \
		CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G} "$@"
}

# pdcm_at NAME DIR CMD...: run CMD where DIR is also at the fixed path
# $PDCM_CACHE/at/NAME, given to CMD as $PDCM_AT: a bind mount in a private
# mount namespace, so two clones' runs at once each see their own DIR
# there.  kbuild puts the absolute path of M= on every compiler command
# line and into __FILE__, so ccache can only hit a build from another
# clone of the tree (make check runs in a fresh one) at a path that does
# not change.  Not root (no unshare): CMD runs with PDCM_AT=DIR.
pdcm_at() {
	local at=$PDCM_CACHE/at/$1 dir=$2
	shift 2
	if [ "$(id -u)" != 0 ]; then
		PDCM_AT=$dir "$@"
		return
	fi
	mkdir -p "$at"
	PDCM_AT=$at unshare -m --propagation private \
		sh -c 'mount --bind "$1" "$PDCM_AT" && shift && exec "$@"' sh "$dir" "$@"
}

# pdcm_build NAME KDIR LOG [make args...]: copy the tree to build/NAME (the
# kernel build writes objects beside the sources, and one copy per kernel
# keeps them apart) and build it against KDIR with W=1, output into LOG.
# It builds at pdcm_at's path for NAME (for PDCM_AT_NAME if set), through
# ccache; for a KDIR in the trixie build root (stock_kdir 7.3), in the root.
pdcm_build() {
	local name=$1 dir=$PDCM_TOP/build/$1 kdir=$2 out=$3 root
	shift 3
	mkdir -p "$dir" "$(dirname "$out")"
	# the sources only: objects of an earlier build in the tree are not
	# copied, and the copy's own are deleted, so every build is complete
	pdcm_sync "$dir" --delete-excluded
	case $kdir in
	"$PDCM_CACHE"/trixie-root-*/usr/src/linux-headers-*)
		# headers in the trixie build root: make runs there, the copy
		# bind-mounted at the same path (trixie-root.sh run)
		root=${kdir%%/usr/src/*}
		pdcm_ccache pdcm_at "${PDCM_AT_NAME:-$name}" "$dir" sh -c \
			't=$1 kv=$2 k=$3 j=$4; shift 4
			 exec "$t" run "$kv" "$PDCM_AT" "make -C $k M=$PDCM_AT -j $j W=1 $* modules"' \
			sh "$PDCM_TOP/scripts/trixie-root.sh" "${kdir##*/linux-headers-}" \
			"${kdir#"$root"}" "$JOBS" "$@" >"$out" 2>&1
		;;
	*)
		pdcm_ccache pdcm_at "${PDCM_AT_NAME:-$name}" "$dir" sh -c \
			'k=$1 j=$2; shift 2; make -C "$k" M="$PDCM_AT" -j "$j" W=1 "$@" modules' \
			sh "$kdir" "$JOBS" "$@" >"$out" 2>&1
		;;
	esac
}

# dkms_version: PACKAGE_VERSION of dkms.conf
dkms_version() { sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$PDCM_TOP/dkms.conf"; }

# stock_at TAG: pdcm_at's name for the stock build of a kernel line (TAG
# "" or k612_): the path at which install.sh's DKMS check builds, its dkms
# tree's pdcm/<version>/build.  kbuild puts that path on every command
# line, so DKMS's compiles (with W=1's KBUILD_EXTRA_WARN, install.sh) are
# ccache hits of check.sh's stock build even on a cold cache.
stock_at() { echo "${1}dkms/pdcm/$(dkms_version)/build"; }

log() { printf 'pdcm: %s\n' "$*" >&2; }
die() { printf 'pdcm: error: %s\n' "$*" >&2; exit 1; }

# The kernel of Debian's trixie-backports that pdcm builds in the trixie
# build root (scripts/trixie-root.sh): its headers need trixie's libc.
TRIXIE_KVER=${TRIXIE_KVER:-7.3.4+deb13-amd64}

# debian_mirror: the Debian archive URI the host's apt sources use for its
# own release (deb822 .sources or one-line .list), e.g.
# http://deb.debian.org/debian; never a -security or third-party one.
debian_mirror() {
	local code
	code=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$code" ] || return 1
	{ cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null || true; } | awk -v code="$code" '
		/^[ \t]*#/ { next }
		/^deb[ \t]/ {
			i = 2; if ($i ~ /^\[/) while ($i !~ /\]$/) i++
			if ($i ~ /^\[/ || $i ~ /\]$/) i++
			if ($(i + 1) == code) { print $i; exit }
			next
		}
		/^URIs:/ { uri = $2 }
		/^Suites:/ { for (j = 2; j <= NF; j++) if ($j == code && uri != "") { print uri; exit } }
		/^[ \t]*$/ { uri = "" }' | grep . || return 1
}
