#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The trixie build root: Debian 13 with a kernel's headers from
# trixie-backports, for kernels whose headers cannot be installed on a
# Debian 12 host (linux-kbuild-7.3 needs trixie's libc, 2.38 or later):
#   trixie-root.sh [KVER]            make the root once, print its path
#   trixie-root.sh run KVER DIR CMD  run CMD (as sh -c) in the root, in DIR,
#                                    with DIR bind-mounted at its own path
# KVER defaults to 7.3.4+deb13-amd64.  The root lives in the cache
# ($PDCM_CACHE/trixie-root-KEY), never in the clone; KEY hashes KVER and
# the package list below, so a new kernel or list makes a new root and an
# unchanged one is reused.  debootstrap --variant=minbase from the archive
# the host's own apt sources name, then trixie-backports from a sources
# file inside the root only: the host's apt configuration is not touched.
# Root only (debootstrap, chroot, mount namespaces).
set -euo pipefail
. "$(dirname "$0")/common.sh"

# What a module build needs besides the headers: binutils because
# gcc-14-for-host brings only x86_64-linux-gnu-as and gcc runs `as` (kbuild's
# probes then fail silently and the build stops at "Compiler does not
# support fentry?"); ccache for pdcm_ccache's cache, shared with the host's
# builds; rsync and gawk for the scripts that run in it.  TRIXIE_EXTRA:
# more packages, which make another root (its key hashes the whole list):
# scripts/deb.sh's, with dkms and what builds and checks the .deb.
root_pkgs() { echo "linux-headers-$1 make binutils ccache${TRIXIE_EXTRA:+ $TRIXIE_EXTRA}"; }

[ "$(id -u)" = 0 ] || die "trixie-root.sh: needs root (debootstrap, chroot)"

# trixie_root KVER: make (or find) the root for KVER, print its path
trixie_root() {
	local kver=$1 key top mirror
	key=$(printf '%s\n' "$kver" "$(root_pkgs "$kver")" | sha1sum | cut -c1-12)
	top=$PDCM_CACHE/trixie-root-$key
	if [ -f "$top/.pdcm-ready" ]; then
		echo "$top"
		return
	fi
	command -v debootstrap >/dev/null || die "no debootstrap (scripts/deps.sh installs it)"
	mirror=$(debian_mirror) || die "no Debian archive URI in the host's apt sources"
	mkdir -p "$PDCM_CACHE"
	(
		flock 8
		[ -f "$top/.pdcm-ready" ] && exit 0
		local t0=$SECONDS tmp=$top.tmp
		log "making the trixie build root for $kver from $mirror (once)"
		rm -rf "$tmp"
		debootstrap --variant=minbase trixie "$tmp" "$mirror" >"$top.log" 2>&1 ||
			{ tail -n 20 "$top.log" >&2; exit 1; }
		cat >"$tmp/etc/apt/sources.list.d/pdcm-backports.sources" <<-EOF
			Types: deb
			URIs: $mirror
			Suites: trixie-backports
			Components: main
			Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOF
		# shellcheck disable=SC2046
		in_root "$tmp" / sh -c 'apt-get update -q &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
				--no-install-recommends "$@" && apt-get clean' \
			sh $(root_pkgs "$kver") >>"$top.log" 2>&1 ||
			{ tail -n 20 "$top.log" >&2; exit 1; }
		[ -f "$tmp/usr/src/linux-headers-$kver/Makefile" ] ||
			{ log "linux-headers-$kver did not install"; exit 1; }
		echo "$kver" >"$tmp/kver"
		rm -rf "$top"
		mv "$tmp" "$top"
		touch "$top/.pdcm-ready"
		log "trixie build root for $kver: $((SECONDS - t0)) s, $(du -sm "$top" | cut -f1) MB ($top)"
	) 8>"$top.lock" || return
	echo "$top"
}

# in_root ROOT DIR CMD...: CMD in ROOT, in DIR, in a private mount
# namespace with /proc, /dev, DIR (at the same path) and the ccache
# directory mounted in ROOT.
in_root() {
	local root=$1 dir=$2
	shift 2
	unshare -m --propagation private sh -c '
		root=$1 dir=$2 cache=$3; shift 3
		mount -t proc proc "$root/proc" &&
		mount --rbind /dev "$root/dev" || exit 1
		cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
		if [ "$dir" != / ]; then
			mkdir -p "$root$dir" && mount --bind "$dir" "$root$dir" || exit 1
		fi
		if [ -d "$cache/ccache" ]; then
			mkdir -p "$root$cache/ccache" &&
			mount --bind "$cache/ccache" "$root$cache/ccache" || exit 1
		fi
		cd "$root" && exec chroot . sh -c "cd \"\$0\" && exec \"\$@\"" "$dir" "$@"' \
		sh "$root" "$dir" "$PDCM_CACHE" "$@"
}

case ${1:-} in
run)
	kver=${2:?usage: trixie-root.sh run KVER DIR CMD} dir=${3:?} cmd=${4:?}
	root=$(trixie_root "$kver")
	in_root "$root" "$(cd "$dir" && pwd)" sh -c "$cmd"
	;;
*)
	trixie_root "${1:-$TRIXIE_KVER}"
	;;
esac
