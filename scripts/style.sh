#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# Style gates.
#   style.sh checkpatch   checkpatch.pl --strict on every C source and header
#   style.sh sparse       a C=1 build (sparse, endian checks) against the
#                         stock headers; any sparse report fails
#   style.sh spdx         every tracked source file starts with an SPDX line
#   style.sh copts        Kbuild's pdcm-c-opts are the CONFIG_IB_PDCM_*
#                         options that the C sources test
#   style.sh kerneldoc    the kernel's scripts/kernel-doc -none -v (every
#                         warning, Return: included) per shipped C file
# Prints "PASS name" / "FAIL name" lines (check.sh counts them); exits 1 on
# any failure.
set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$PDCM_TOP"

src=$(pristine_source) || die "no kernel source for checkpatch"
rc=0
files() {
	git ls-files -co --exclude-standard -- 'cm/*.[ch]' 'compat/*.[ch]' 'include/*.h' \
		'tests/kunit/*.[ch]' 'tests/bench/*.[ch]' 'tests/ulp/*.[ch]' 'tests/shim/*.[ch]' \
		'tests/softib/*.[ch]' 'ulp/*.[ch]' 2>/dev/null
}

case ${1:-} in
checkpatch)
	# one checkpatch per file, $JOBS at a time; reported in file order
	out_dir=$(mktemp -d)
	trap 'rm -rf "$out_dir"' EXIT
	# cm/compat.h, include/rdma/pdcm_ns.h (symbol namespaces, which every
	# module needs) and softib's tests/softib/compat.h are the files that
	# may test LINUX_VERSION_CODE (the version differences live there);
	# anywhere else checkpatch flags it
	files | xargs -P "$JOBS" -I{} sh -c \
		'ign=FILE_PATH_CHANGES
		 case $1 in cm/compat.h|include/rdma/pdcm_ns.h|tests/softib/compat.h) ign=$ign,LINUX_VERSION_CODE ;; esac
		 "$0" --strict --no-tree --terse --ignore $ign -f "$1" \
		 >"$2/$(echo "$1" | tr / _)" 2>&1' "$src/scripts/checkpatch.pl" {} "$out_dir"
	for f in $(files); do
		out=$(cat "$out_dir/$(echo "$f" | tr / _)" 2>/dev/null || echo "$f: ERROR: not checked")
		if ! echo "$out" | grep -qE ': (ERROR|WARNING|CHECK):'; then
			echo "PASS checkpatch.$f"
		else
			echo "FAIL checkpatch.$f"
			echo "$out" | head -n 20 | sed 's/^/    /'
			rc=1
		fi
	done
	;;
sparse)
	kver=$(stock_kver) || exit 1
	dir=$PDCM_TOP/build/sparse
	mkdir -p "$dir"
	rsync -a --delete --exclude /build --exclude /.git "$PDCM_TOP/" "$dir/"
	log=$PDCM_TOP/build/logs/sparse.log
	mkdir -p "$(dirname "$log")"
	if make -C "/usr/src/linux-headers-$kver" M="$dir" C=2 CF=-D__CHECK_ENDIAN__ \
		CONFIG_IB_PDCM=m CONFIG_IB_PDCM_TEST_ULP=m CONFIG_IB_PDCM_SDP=m \
		CONFIG_IB_PDCM_KDAPL=m CONFIG_IB_PDCM_SHIM_TEST=m CONFIG_IB_PDCM_IBCM=m \
		CONFIG_IB_PDCM_SOFTIB=m modules >"$log" 2>&1 &&
	   ! grep -E '(warning|error):' "$log" | grep -v '^make' >/dev/null; then
		echo "PASS sparse"
	else
		echo "FAIL sparse"
		grep -E '(warning|error):' "$log" | head -n 20 | sed 's/^/    /'
		rc=1
	fi
	;;
spdx)
	for f in $(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.sh' '*.py' \
		   'Kbuild' '*/Kbuild' 'Makefile' 'Kconfig' '*.rst' '*.config' 'tests/vm/init'); do
		if head -n 3 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause'; then
			continue
		fi
		echo "FAIL spdx.$f"
		rc=1
	done
	[ $rc -eq 0 ] && echo "PASS spdx"
	;;
copts)
	# every CONFIG_IB_PDCM_* option C code reads is in Kbuild's
	# pdcm-c-opts (out of tree, the only ones it gets), and no other
	used=$(git ls-files -co --exclude-standard -- '*.[ch]' |
		xargs grep -ohE 'CONFIG_IB_PDCM[A-Z0-9_]*' | sed 's/^CONFIG_//; s/_MODULE$//' | sort -u)
	listed=$(sed -n 's/^pdcm-c-opts := //p' Kbuild | tr ' ' '\n' | sed '/^$/d' | sort -u)
	if [ "$used" = "$listed" ]; then
		echo "PASS copts"
	else
		echo "FAIL copts"
		diff <(echo "$listed") <(echo "$used") | sed 's/^/    Kbuild pdcm-c-opts vs sources: /'
		rc=1
	fi
	;;
kerneldoc)
	for f in $(git ls-files -co --exclude-standard -- 'cm/*.[ch]' 'compat/*.[ch]' 'include/*.h' \
		   'ulp/*.[ch]' 'tests/shim/*.[ch]' 'tests/softib/*.[ch]' 2>/dev/null); do
		out=$("$src/scripts/kernel-doc" -none -v "$f" 2>&1 | grep -E ': (warning|error):')
		if [ -z "$out" ]; then
			echo "PASS kerneldoc.$f"
		else
			echo "FAIL kerneldoc.$f"
			echo "$out" | head -n 20 | sed 's/^/    /'
			rc=1
		fi
	done
	;;
*)
	die "usage: style.sh checkpatch|sparse|spdx|copts|kerneldoc"
	;;
esac
exit $rc
