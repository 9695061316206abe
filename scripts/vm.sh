# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#
# qemu runner for pdcm guests.  Sourced by check.sh, demo.sh and bench.sh.
#
#   vm_run LOG KERNEL INITRD TIMEOUT "WORDS" [qemu args...]
#
# One guest under TCG (KVM does not work on the build machines), one vCPU
# (VM_SMP=N: N), console on a file, no reboot, and a hard `timeout` so a
# hung guest ends.
# WORDS are appended to the kernel command line (pdcmvm.scenario=..., ...).
# no_timer_check: on a starved host the kernel's IO-APIC timer check can
# fail and panic the guest at boot ("IO-APIC + timer doesn't work!", seen
# with 6.12 guests at load 20 on 2 cores).
# Without extra qemu args the NIC has no backend: fine for one guest, since
# rxe on eth0 loops back to its own address.  Two guests pass
# "$(vm_dgram_nic A|B PORT)" to join over 127.0.0.1.

VM_MEM=${VM_MEM:-1024}

# tsc_early_khz=: the host's TSC frequency (scripts/tsc-khz.c), which under
# TCG is the guests' too, so that no guest calibrates its TSC.  A guest
# that calibrates on a starved host can time its PIT wrong and keep a
# clock several times too fast: "PIT calibration deviates from HPET:
# 539921 2439655", and pdcm_fsm's 1,024 ms TIMEWAIT measured as 5.3 s.
# Measured once per run; empty (the guests calibrate) where it cannot be.
if [ -z "${VM_TSC_KHZ+set}" ]; then
	VM_TSC_KHZ=
	if mkdir -p "$PDCM_TOP/build" &&
		gcc -O2 -o "$PDCM_TOP/build/tsc-khz.$$" "$PDCM_TOP/scripts/tsc-khz.c" 2>/dev/null; then
		VM_TSC_KHZ=$("$PDCM_TOP/build/tsc-khz.$$") || VM_TSC_KHZ=
		rm -f "$PDCM_TOP/build/tsc-khz.$$"
	fi
fi

vm_run() {
	local log=$1 kernel=$2 initrd=$3 tmo=$4 words=$5
	shift 5
	local nic=(-device "virtio-net-pci,mac=52:54:00:00:00:01,speed=10000,duplex=full")
	[ $# -gt 0 ] && nic=("$@")
	timeout --kill-after=5 "$tmo" qemu-system-x86_64 -accel tcg -m "$VM_MEM" -smp "${VM_SMP:-1}" \
		-nodefaults -no-user-config -display none -no-reboot \
		-serial "file:$log" -kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic printk.devkmsg=on no_timer_check${VM_TSC_KHZ:+ tsc_early_khz=$VM_TSC_KHZ} $words" \
		"${nic[@]}" </dev/null >"$log.qemu" 2>&1
}

# vm_dgram_nic A|B PORT: the qemu args for one end of a 127.0.0.1 dgram link.
vm_dgram_nic() {
	local me=$1 p=$2 lp rp mac
	if [ "$me" = A ]; then lp=$p rp=$((p + 1)) mac=0a; else lp=$((p + 1)) rp=$p mac=0b; fi
	echo "-netdev dgram,id=n0,local.type=inet,local.host=127.0.0.1,local.port=$lp,remote.type=inet,remote.host=127.0.0.1,remote.port=$rp" \
	     "-device virtio-net-pci,netdev=n0,mac=52:54:00:00:00:$mac,speed=10000,duplex=full"
}
