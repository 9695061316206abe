#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Build (or reuse) the KUnit test kernel of one kernel line:
#   kunit-kernel.sh [LINE]     LINE 6.1 (default) or 6.12
# Debian's linux-source-LINE, allnoconfig + tests/vm/kunit.config, in an O=
# directory under the cache.  The cache key is the source package version
# plus the fragment's hash, so editing the fragment or upgrading the source
# rebuilds; a fresh machine builds from scratch.  Prints the build
# directory on stdout.
set -euo pipefail
. "$(dirname "$0")/common.sh"

line=${1:-6.1}
frag=$PDCM_TOP/tests/vm/kunit.config
ver=$(source_version "$line") || die "linux-source-$line is not installed"
key=$(cat "$frag" | sha256sum | cut -c1-12)
out=$PDCM_CACHE/kunit-$ver-$key
src=$(pristine_source "$line") || die "cannot unpack linux-source-$line"

# one build per cache directory at a time: a second caller (another
# checkout's make check) waits for it and then reuses it
mkdir -p "$PDCM_CACHE"
exec 9>"$out.lock"
flock 9
if [ ! -f "$out/.pdcm-built" ]; then
	log "building the $line KUnit kernel in $out (about 10 minutes on 2 cores)"
	mkdir -p "$out"
	merge_log=$out/merge_config.log
	(cd "$src" && ARCH=x86_64 scripts/kconfig/merge_config.sh -n -O "$out" "$frag") >"$merge_log" 2>&1 ||
		{ cat "$merge_log" >&2; die "merge_config failed"; }
	if grep -q 'not in final .config' "$merge_log"; then
		grep -B1 -A2 'not in final' "$merge_log" >&2
		die "the config fragment asks for options that did not survive merge_config"
	fi
	# KASAN instruments the modules, not the built-in kernel: first
	# bzImage with KASAN_SANITIZE=n (on the command line it overrides
	# every directory's own setting), then `make modules`, which builds
	# no built-in object (Kbuild leaves KBUILD_BUILTIN empty for that
	# goal alone), instrumented.  The modules are the whole RDMA stack
	# under pdcm (ib_core, ib_cm, rdma_cm, rxe, uverbs, umad) and NVMe
	# over RDMA, and pdcm itself builds instrumented against this tree;
	# the allocator's checks (redzones, quarantine, double and invalid
	# frees) work whoever calls it.  Built-in code no longer reports its
	# own bad accesses, which DEBUG_OBJECTS and DEBUG_LIST still cover
	# where pdcm hands it memory (timers, work, lists).  About a sixth
	# less compile time, and faster guests (testing.rst, "The KUnit
	# kernel").
	{ make -C "$src" O="$out" ARCH=x86_64 -j"$JOBS" -s KASAN_SANITIZE=n bzImage &&
	  make -C "$src" O="$out" ARCH=x86_64 -j"$JOBS" -s modules; } >"$out/build.log" 2>&1 ||
		{ tail -n 40 "$out/build.log" >&2; die "kernel build failed ($out/build.log)"; }
	touch "$out/.pdcm-built"
fi
echo "$out"
