# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# ib_pdcm as DKMS installs it (scripts/install.sh, Documentation/install.rst).
# The image has no extra/ib_pdcm.ko: the only copy is the one dkms installed
# under updates/dkms/ on the host, and this guest indexes it with kmod's
# depmod, then loads it with kmod's modprobe, as a Debian host would.
# Then etc/modprobe.d/pdcm.conf: with it ib_cm and what needs it (rdma_ucm)
# do not load; without it ("going back") they load again.
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
unload_rdma_stack() {	# what modprobe -r rdma_ucm leaves of the rdma_cm stack
	$K/modprobe -r rdma_ucm || return 1
	for _m in rdma_cm iw_cm ib_cm; do
		! loaded $_m || $K/rmmod $_m || return 1
	done
}
param_described() {	# param_described NAME: modinfo has a description for it
	$K/modinfo -F parm ib_pdcm | grep -q "^$1:[^(]"
}
modprobe_conf_refuses() {	# modprobe_conf_refuses MODULE
	_out=$($K/modprobe "$1" 2>&1) && { echo "modprobe $1 succeeded"; return 1; }
	echo "$_out" | grep -q "ib_cm: not loaded: ib_pdcm is the CM here" ||
		{ echo "$_out"; return 1; }
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

suite_begin modprobe_conf
check conf_installed sh -c "mkdir -p /etc/modprobe.d && cp /pdcm/etc/modprobe.d/pdcm.conf $CONF"
check conf_read_by_kmod sh -c "$K/modprobe -c | grep -q '^install ib_cm '"
check ib_cm_refused modprobe_conf_refuses ib_cm
check rdma_ucm_refused modprobe_conf_refuses rdma_ucm
check_not ib_cm_not_loaded loaded ib_cm
check_not rdma_cm_not_loaded loaded rdma_cm
check pdcm_loads_with_conf $K/modprobe ib_pdcm
check pdcm_claims_rxe0 wait_for "claimed rxe0" 5
# Going back, as README.md says: remove the file, rmmod ib_pdcm, load rdma_ucm.
check back_remove_conf rm "$CONF"
check back_rmmod_ib_pdcm $K/rmmod ib_pdcm
check back_modprobe_rdma_ucm $K/modprobe rdma_ucm
check back_ib_cm_loaded loaded ib_cm
check back_rdma_cm_loaded loaded rdma_cm
# ib_cm's own counters on the port: it got the port this time.
check back_ib_cm_serves_rxe0 test -d /sys/class/infiniband/rxe0/ports/1/cm_rx_msgs
check_not back_pdcm_refused_beside_ib_cm $K/modprobe ib_pdcm
check back_unload_rdma_stack unload_rdma_stack
check_not back_ib_cm_unloaded loaded ib_cm
suite_end
