# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ib_pdcm as DKMS installs it (scripts/install.sh, Documentation/install.rst).
# The image has no extra/ib_pdcm.ko: the only copy is the one dkms installed
# under updates/dkms/ on the host, and this guest indexes it with kmod's
# depmod, then loads it with kmod's modprobe, as a Debian host would.
# The DKMS tree also has the ib_cm drop-in (updates/dkms/ib_cm.ko) next to
# the kernel's own kernel/.../ib_cm.ko: kmod's depmod resolves ib_cm, and
# rdma_cm's dependency on it, to the drop-in, and `modprobe rdma_ucm` loads
# ib_pdcm, the drop-in and Debian's rdma_cm; rping runs on it; rmmod ib_cm
# is refused while rdma_cm uses it.  Uninstalling the drop-in (what
# `make uninstall` and `dkms remove` do to the tree) brings the kernel's
# ib_cm back.  etc/modprobe.d/pdcm.conf no longer keeps ib_cm off.
K=/opt/kmod
KVER=$(uname -r)
DKMS_KO=/lib/modules/$KVER/updates/dkms/ib_pdcm.ko
CONF=/etc/modprobe.d/pdcm.conf

loaded() { grep -q "^$1 " /proc/modules; }
claimed() { grep -q "^$1 1 claimed" /sys/kernel/debug/pdcm/ports; }
# The one ib_pdcm.ko in the module tree is the DKMS one.
only_dkms_copy() {
	_f=$(find /lib/modules -name 'ib_pdcm.ko*')
	[ "$_f" = "$DKMS_KO" ] || { echo "found: $_f"; return 1; }
}
modinfo_path() {
	_p=$($K/modinfo -n ib_pdcm) || return 1
	[ "$_p" = "$DKMS_KO" ] || { echo "modinfo -n: $_p"; return 1; }
}
depends_on_ib_core() {
	$K/modinfo -F depends ib_pdcm | tr ',' '\n' | grep -qx ib_core
}
hex() { hexdump -ve '1/1 "%02x"' "$1"; }
# The module that runs is the file dkms installed: its GNU build-id note
# is in that file.
running_is_dkms_copy() {
	_n=/sys/module/ib_pdcm/notes/.note.gnu.build-id
	_id=$(hex "$_n") && [ -n "$_id" ] || { echo "no $_n"; return 1; }
	hex "$DKMS_KO" | grep -q "$_id" || { echo "build-id $_id not in $DKMS_KO"; return 1; }
}
shims_from_dkms() {	# the ULP shims come from the same DKMS package
	for _m in pdcm_sdp pdcm_kdapl; do
		_p=$($K/modinfo -n $_m) && [ "$_p" = "${DKMS_KO%/*}/$_m.ko" ] ||
			{ echo "$_m: $_p"; return 1; }
	done
}
signed_by_dkms() {
	_s=$($K/modinfo -F signer ib_pdcm)
	[ "$_s" = "DKMS module signing key" ] || { echo "signer: '$_s'"; return 1; }
}
DROPIN=/lib/modules/$KVER/updates/dkms/ib_cm.ko
STOCK_IBCM=/lib/modules/$KVER/kernel/drivers/infiniband/core/ib_cm.ko
ib_cm_resolves_to() {	# ib_cm_resolves_to PATH: kmod's modinfo -n ib_cm
	_p=$($K/modinfo -n ib_cm) || return 1
	# 6.12's tree has the kernel's own module compressed (ib_cm.ko.xz)
	# next to the decompressed copy: either name is that module
	_q=${_p%.xz}
	_q=${_q%.zst}
	[ "$_p" = "$1" ] || [ "$_q" = "$1" ] || { echo "modinfo -n ib_cm: $_p"; return 1; }
}
# The running ib_cm is the file $1 (its build-id note is in it).
running_ib_cm_is() {
	_id=$(hex /sys/module/ib_cm/notes/.note.gnu.build-id) && [ -n "$_id" ] ||
		{ echo "no build-id"; return 1; }
	hex "$1" | grep -q "$_id" || { echo "build-id $_id not in $1"; return 1; }
}
rping_once() {	# rping_once: 3 verified pings over rxe loopback
	rping -s -a "$VM_IP" -v -V -C 3 -p 7471 >/tmp/rping.s 2>&1 &
	_sp=$!
	sleep 1
	_out=$(timeout 30 rping -c -a "$VM_IP" -v -V -C 3 -p 7471 2>&1)
	_rc=$?
	kill $_sp 2>/dev/null
	wait $_sp
	echo "$_out"
	[ $_rc -eq 0 ] && [ "$(echo "$_out" | grep -c '^ping data: rdma-ping-')" -eq 3 ]
}
# up to three runs: rping's client can exit non-zero after its pings
# ("rdma_get_cm_event: Bad file descriptor" at its disconnect, a race of
# rping's own), seen once on the stock ib_cm of a loaded host
rping_loop() {
	for _try in 1 2 3; do
		rping_once && return 0
		sleep 1
	done
	return 1
}
unload_rdma_stack() {	# what modprobe -r rdma_ucm leaves of the rdma_cm stack
	$K/modprobe -r rdma_ucm || return 1
	for _m in rdma_cm iw_cm ib_cm ib_pdcm; do
		! loaded $_m || $K/rmmod $_m || return 1
	done
}
param_described() {	# param_described NAME: modinfo has a description for it
	$K/modinfo -F parm ib_pdcm | grep -q "^$1:[^(]"
}

net_up
suite_begin dkms
check only_dkms_copy only_dkms_copy
check_not not_indexed_before_depmod $K/modinfo -n ib_pdcm
check depmod $K/depmod -a
check modules_dep_lists_it grep -q "^updates/dkms/ib_pdcm.ko: .*ib_core.ko" "/lib/modules/$KVER/modules.dep"
check modinfo_path_is_updates_dkms modinfo_path
check depends_on_ib_core depends_on_ib_core
check signed_by_dkms signed_by_dkms
check described_max_cm_retries param_described max_cm_retries
check described_dump_mads param_described dump_mads
check_not ib_core_not_loaded_yet loaded ib_core
check modprobe_ib_pdcm $K/modprobe ib_pdcm
check ib_core_loaded_as_dependency loaded ib_core
check running_is_dkms_copy running_is_dkms_copy
check rxe_added rxe_add rxe0 eth0
check claims_rxe0_port1 wait_for "claimed rxe0" 5
check rmmod_ib_pdcm $K/rmmod ib_pdcm
check_not unloaded loaded ib_pdcm
check shims_from_dkms shims_from_dkms
check modprobe_pdcm_sdp $K/modprobe pdcm_sdp
check sdp_pulled_in_ib_pdcm loaded ib_pdcm
check modprobe_pdcm_kdapl $K/modprobe pdcm_kdapl
check rmmod_shims $K/rmmod pdcm_kdapl pdcm_sdp ib_pdcm
suite_end

suite_begin dkms_ib_cm
check both_ib_cm_files sh -c "test -f $DROPIN && test -f $STOCK_IBCM"
check modules_dep_ib_cm_is_dropin grep -q "^updates/dkms/ib_cm.ko: updates/dkms/ib_pdcm.ko" "/lib/modules/$KVER/modules.dep"
check modules_dep_rdma_cm_uses_dropin grep -q "^kernel/drivers/infiniband/core/rdma_cm.ko: .*updates/dkms/ib_cm.ko" "/lib/modules/$KVER/modules.dep"
check ib_cm_resolves_to_dropin ib_cm_resolves_to "$DROPIN"
check dropin_depends_on_ib_pdcm sh -c "$K/modinfo -F depends ib_cm | tr ',' '\n' | grep -qx ib_pdcm"
check modprobe_rdma_ucm $K/modprobe rdma_ucm
check ib_pdcm_loaded_by_it loaded ib_pdcm
check running_ib_cm_is_dropin running_ib_cm_is "$DROPIN"
check rdma_cm_on_dropin test -e /sys/module/ib_cm/holders/rdma_cm
check_not no_symbol_version_errors dmesg_has "disagrees about version"
check rping_on_dropin rping_loop
check_not rmmod_ib_cm_refused_while_used $K/rmmod ib_cm
check unload_stack unload_rdma_stack
# uninstall: the drop-in leaves the tree (as make uninstall / dkms remove)
check uninstall_dropin rm "$DROPIN"
check depmod_after_uninstall $K/depmod -a
check ib_cm_resolves_to_stock ib_cm_resolves_to "$STOCK_IBCM"
check stock_modprobe_rdma_ucm $K/modprobe rdma_ucm
check running_ib_cm_is_stock running_ib_cm_is "$STOCK_IBCM"
check_not stock_without_ib_pdcm loaded ib_pdcm
check stock_rping rping_loop
check stock_unload unload_rdma_stack
suite_end

suite_begin modprobe_conf
# The snippet keeps nothing off any more: with it installed, rdma_ucm
# loads (here on the kernel's ib_cm, the drop-in having been removed above).
check conf_installed sh -c "mkdir -p /etc/modprobe.d && cp /pdcm/etc/modprobe.d/pdcm.conf $CONF"
check_not conf_blocks_nothing sh -c "$K/modprobe -c | grep -q '^install ib_cm '"
check rdma_ucm_loads_with_conf $K/modprobe rdma_ucm
check ib_cm_loaded loaded ib_cm
check unload_with_conf unload_rdma_stack
suite_end
