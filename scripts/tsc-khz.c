// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * tsc-khz: print this host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW over 200 ms (scripts/vm.sh).
 *
 * Under TCG a guest's RDTSC reads the host's TSC, so this is the guest's
 * TSC frequency too.  The guests get it as tsc_early_khz= and do not
 * calibrate: a guest that calibrates while the host is starved can time
 * its PIT wrong and run its clock several times too fast (seen: 540 MHz
 * detected for 2,440, and a 1,024 ms timer measured as 5.3 s).
 *
 * Exits 1, printing nothing, on a host without an invariant TSC.
 */
#include <cpuid.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static unsigned long long ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

int main(void)
{
	const struct timespec wait = { 0, 200 * 1000 * 1000 };
	unsigned int a, b, c, d;
	unsigned long long t0, c0, t1, c1;

	/* CPUID 0x80000007 EDX bit 8: the TSC runs at a constant rate */
	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8)))
		return 1;
	t0 = ns();
	c0 = __rdtsc();
	nanosleep(&wait, NULL);
	t1 = ns();
	c1 = __rdtsc();
	if (t1 <= t0 || c1 <= c0)
		return 1;
	printf("%llu\n", (c1 - c0) * 1000000 / (t1 - t0));
	return 0;
}
