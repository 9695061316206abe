#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# The CRC gate of the ib_cm drop-in (Documentation/ibcm.rst):
#   ibcm-crc.sh BUILT_MODULE_SYMVERS KDIR
# passes when the built ib_cm.ko (compat/ib_cm in BUILT_MODULE_SYMVERS)
# exports exactly the symbols that KDIR/Module.symvers lists for
# drivers/infiniband/core/ib_cm, each with the same CRC, the same export
# type and the same (empty) namespace; on a kernel without MODVERSIONS
# (every CRC 0: Debian's 7.3) the same without CRCs, and it says so.
# (That each export has the prototype of KDIR's <rdma/ib_cm.h> the
# compiler checks: compat/ib_cm.c includes it and makes a definition it
# does not declare an error.)  Otherwise the distribution's
# rdma_cm, ib_ipoib, ib_srp and ib_srpt would refuse to load on it
# ("disagrees about version of symbol").  Prints one line per symbol and a
# summary; exits 1 on any difference, 2 if an input is missing.
set -uo pipefail

built=${1:?usage: ibcm-crc.sh BUILT_MODULE_SYMVERS KDIR}
kdir=${2:?usage: ibcm-crc.sh BUILT_MODULE_SYMVERS KDIR}
ref=$kdir/Module.symvers
for f in "$built" "$ref"; do
	[ -r "$f" ] || { echo "ibcm-crc: cannot read $f" >&2; exit 2; }
done

# Module.symvers: CRC <tab> symbol <tab> module <tab> export type <tab> namespace
want=$(awk -F'\t' '$3 == "drivers/infiniband/core/ib_cm" { print $2 "\t" $1 "\t" $4 "\t" $5 }' "$ref" | sort)
have=$(awk -F'\t' '$3 ~ /(^|\/)compat\/ib_cm$/ { print $2 "\t" $1 "\t" $4 "\t" $5 }' "$built" | sort)
[ -n "$want" ] || { echo "ibcm-crc: $ref lists no drivers/infiniband/core/ib_cm exports" >&2; exit 2; }
[ -n "$have" ] || { echo "ibcm-crc: $built lists no compat/ib_cm exports (built without CONFIG_IB_PDCM_IBCM?)" >&2; exit 2; }

# A kernel without CONFIG_MODVERSIONS (Debian's 7.3) records no CRCs: its
# Module.symvers says 0x00000000 for every symbol and so does the build's.
# Then names, export types and namespaces are compared, and the summary
# says there were no CRCs, instead of counting zeros as matches.
crcs=1
if grep -qs '^# CONFIG_MODVERSIONS is not set' "$kdir/.config" ||
   ! awk -F'\t' '$2 != "0x00000000" { f = 1 } END { exit !f }' <<<"$want"; then
	crcs=0
fi

n=0 ok=0 bad=0
while IFS=$'\t' read -r sym crc type ns; do
	n=$((n + 1))
	got=$(awk -F'\t' -v s="$sym" '$1 == s' <<<"$have")
	if [ -z "$got" ]; then
		echo "ibcm-crc: MISSING  $sym (kernel $crc)"
		bad=$((bad + 1))
		continue
	fi
	IFS=$'\t' read -r _ gcrc gtype gns <<<"$got"
	[ "$crcs" = 1 ] || { gcrc= crc=; }
	if [ "$gcrc" = "$crc" ] && [ "$gtype" = "$type" ] && [ "$gns" = "$ns" ]; then
		echo "ibcm-crc: ok       $sym ${crc:+$crc }$type${ns:+ ns=$ns}"
		ok=$((ok + 1))
	else
		echo "ibcm-crc: DIFFERS  $sym kernel ${crc:+$crc }$type${ns:+ ns=$ns}, built ${gcrc:+$gcrc }$gtype${gns:+ ns=$gns}"
		bad=$((bad + 1))
	fi
done <<<"$want"
# and nothing the kernel's ib_cm does not export
while IFS=$'\t' read -r sym crc _; do
	awk -F'\t' -v s="$sym" '$1 == s { f = 1 } END { exit !f }' <<<"$want" && continue
	echo "ibcm-crc: EXTRA    $sym $crc (not exported by the kernel's ib_cm)"
	bad=$((bad + 1))
done <<<"$have"
what="CRCs match"
[ "$crcs" = 1 ] || what="names match, no CRCs (kernel without MODVERSIONS):"
if [ "$bad" -eq 0 ]; then
	echo "ibcm-crc: $ok/$n $what $ref (drivers/infiniband/core/ib_cm)"
else
	echo "ibcm-crc: FAILED: $ok/$n $what $ref, $bad differences"
	exit 1
fi
