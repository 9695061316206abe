# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# pdcm-dkms as an admin installs it (`make deb`, scripts/deb.sh,
# Documentation/install.rst): the guest runs Debian's stock kernel, and its
# disk (/dev/vda, writes discarded by qemu) is a trixie system with that
# kernel's modules, its headers, gcc-14 and dkms (deb.sh image).  In a
# chroot there, `apt-get install ./pdcm-dkms_*.deb` runs the package's
# postinst, whose dkms builds and installs pdcm for the running kernel;
# `modprobe rdma_ucm` (kmod, the system's own) then loads pdcm's ib_cm
# (its build-id is in updates/dkms/ib_cm.ko) on ib_pdcm, and rping runs on
# it.  `apt-get remove` takes the modules away, and the same modprobe loads
# the kernel's ib_cm again.  trixie's dkms (3.2) archives the kernel's own
# ib_cm.ko.xz while the drop-in is installed and puts it back on removal
# (bookworm's 3.0 left it in place, dkms.sh): both are checked, byte for
# byte.
M=/mnt
KVER=$(uname -r)
UPD=$M/usr/lib/modules/$KVER/updates/dkms
STOCK_IBCM=$M/usr/lib/modules/$KVER/kernel/drivers/infiniband/core/ib_cm.ko.xz

# in_root CMD...: CMD in the disk's system, with a clean environment
in_root() {
	chroot $M /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 "$@"
}

# mount_disk: virtio_blk and ext4 (deb.sh initramfs: /pdcm/deb/mods, in
# load order), the disk, and the file systems a system needs
mount_disk() {
	for _m in /pdcm/deb/mods/*.ko; do insmod "$_m" 2>/dev/null; done
	wait_for "test -b /dev/vda" 20 || { echo "no /dev/vda"; ls /dev; return 1; }
	mkdir -p $M
	mount -t ext4 /dev/vda $M &&
		mount -t proc proc $M/proc && mount -t sysfs sysfs $M/sys &&
		mount -o bind /dev $M/dev && mkdir -p $M/dev/pts &&
		mount -t devpts devpts $M/dev/pts && mount -t tmpfs tmpfs $M/tmp &&
		mount -t tmpfs tmpfs $M/run
}

loaded() { grep -q "^$1 " /proc/modules; }
note() {	# note TAG TEXT: TEXT's lines on the console as "# TAG: ..."
	_t=$1
	shift
	printf '%s\n' "$*" | while IFS= read -r l; do kmsg "    # $_t: $l"; done
}

# unpack FILE: the module file's contents (.ko or .ko.xz)
unpack() {
	case $1 in
	*.xz) xzcat "$1" ;;
	*) cat "$1" ;;
	esac
}

# running_is MODULE FILE: the loaded MODULE is FILE (its GNU build-id note
# is in FILE)
running_is() {
	_id=$(hexdump -ve '1/1 "%02x"' "/sys/module/$1/notes/.note.gnu.build-id") &&
		[ -n "$_id" ] || { echo "$1: no build-id"; return 1; }
	unpack "$2" | hexdump -ve '1/1 "%02x"' | grep -q "$_id" ||
		{ echo "$1: build-id $_id not in $2"; return 1; }
}

# resolves_to MODULE PATH: the system's modinfo -n MODULE is PATH (in the
# disk's terms, /lib/modules/...)
resolves_to() {
	_p=$(in_root modinfo -n "$1") || return 1
	[ "$_p" = "$2" ] || { echo "modinfo -n $1: $_p"; return 1; }
}

# dropin_file MODULE: the file dkms installed for MODULE (.ko or .ko.xz)
dropin_file() { ls "$UPD/$1".ko* 2>/dev/null | head -n 1; }

# the system's answers, as functions for check
pkg_installed() { in_root dpkg -s pdcm-dkms | grep -q '^Status: install ok installed'; }
dkms_installed_for() {
	in_root dkms status -m pdcm | grep -q "^pdcm/[^,]*, $1, x86_64: installed" ||
		{ in_root dkms status; return 1; }
}
dkms_knows_pdcm() { in_root dkms status -m pdcm | grep -q .; }
dropin_needs_ib_pdcm() { in_root modinfo -F depends ib_cm | tr ',' '\n' | grep -qx ib_pdcm; }
signed() { [ "$(in_root modinfo -F signer ib_pdcm)" = "DKMS module signing key" ]; }
dropin_files_left() { ls "$UPD"/*.ko* 2>/dev/null | grep -q .; }
md5() { md5sum "$1" | cut -d' ' -f1; }
# the kernel's ib_cm.ko.xz is in dkms's archive of originals (beside it
# dkms keeps ib_cm.ko.xz.origin, where it came from), not in kernel/,
# unchanged
stock_ib_cm_archived() {
	[ ! -e "$STOCK_IBCM" ] || { echo "still in kernel/"; return 1; }
	_a=$(find $M/var/lib/dkms/pdcm -path '*original_module*' -name 'ib_cm.ko*')
	for _f in $_a; do
		[ "$(md5 "$_f")" = "$STOCK_MD5" ] && return 0
	done
	echo "archived: $_a"
	return 1
}
stock_ib_cm_restored() { [ "$(md5 "$STOCK_IBCM")" = "$STOCK_MD5" ]; }

four_modules() {
	for _m in ib_pdcm ib_cm pdcm_sdp pdcm_kdapl; do
		[ -n "$(dropin_file $_m)" ] || { echo "no $_m in $UPD"; ls -l "$UPD"; return 1; }
	done
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
# up to three runs (rping's own disconnect race, as in dkms.sh)
rping_loop() {
	for _try in 1 2 3; do
		rping_once && return 0
		sleep 1
	done
	return 1
}

unload_stack() {
	in_root modprobe -r rdma_ucm || return 1
	for _m in rdma_cm iw_cm ib_cm ib_pdcm; do
		! loaded $_m || rmmod $_m || return 1
	done
}

apt_log() {	# apt_log NAME CMD...: CMD in the root, its output noted
	_l=/tmp/$1.log
	shift
	in_root "$@" >"$_l" 2>&1
	_rc=$?
	note "$(basename "$_l" .log)" "$(tail -n 40 "$_l")"
	return $_rc
}

net_up
suite_begin deb
check disk_mounted mount_disk
check headers_for_running_kernel test -f "$M/usr/lib/modules/$KVER/build/Makefile"
check dkms_there in_root dkms --version
check_not not_installed_before in_root dpkg -s pdcm-dkms
STOCK_MD5=$(md5 "$STOCK_IBCM")
check deb_copied sh -c "cp /pdcm/deb/*.deb $M/root/"
_t0=$(cut -d. -f1 /proc/uptime)
check apt_install apt_log apt_install sh -c 'cd /root && apt-get install -y -q ./pdcm-dkms_*.deb'
kmsg "    # apt-get install took $(($(cut -d. -f1 /proc/uptime) - _t0)) s (dkms's build included)"
check package_installed pkg_installed
check dkms_built_for_running_kernel dkms_installed_for "$KVER"
check four_modules_in_updates_dkms four_modules
check stock_ib_cm_archived_by_dkms stock_ib_cm_archived
check ib_cm_resolves_to_dropin resolves_to ib_cm "$(dropin_file ib_cm | sed "s|^$M/usr||")"
check dropin_depends_on_ib_pdcm dropin_needs_ib_pdcm
note signer "$(in_root modinfo -F signer ib_pdcm)"
check signed_by_dkms signed
check_not ib_cm_not_loaded_yet loaded ib_cm
check modprobe_rdma_ucm in_root modprobe rdma_ucm
check ib_pdcm_loaded_by_it loaded ib_pdcm
check ib_cm_on_ib_pdcm test -e /sys/module/ib_pdcm/holders/ib_cm
check running_ib_cm_is_dropin running_is ib_cm "$(dropin_file ib_cm)"
check running_ib_pdcm_is_dkms_copy running_is ib_pdcm "$(dropin_file ib_pdcm)"
check rdma_cm_on_dropin test -e /sys/module/ib_cm/holders/rdma_cm
check_not no_unknown_symbols dmesg_has "Unknown symbol"
check rxe_added rxe_add rxe0 eth0
check rping_on_dropin rping_loop
check unload_stack unload_stack
check apt_remove apt_log apt_remove apt-get remove -y -q pdcm-dkms
check_not dropin_gone dropin_files_left
check_not dkms_forgot_it dkms_knows_pdcm
check stock_ib_cm_restored stock_ib_cm_restored
check ib_cm_resolves_to_stock resolves_to ib_cm "${STOCK_IBCM#"$M"/usr}"
check stock_modprobe_rdma_ucm in_root modprobe rdma_ucm
check running_ib_cm_is_stock running_is ib_cm "$STOCK_IBCM"
check_not stock_without_ib_pdcm loaded ib_pdcm
check stock_rping rping_loop
check stock_unload unload_stack
suite_end
for _f in run tmp dev/pts dev sys proc; do umount $M/$_f; done
umount $M
