/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one place where pdcm's sources differ by kernel version.  pdcm
 * builds against Debian 12's 6.1 and the 6.12 LTS (Documentation/install.rst);
 * what is spelt differently between them is here, and no other file tests
 * LINUX_VERSION_CODE (scripts/style.sh lets checkpatch pass it here only).
 *
 *  - The unaligned access helpers moved from <asm/unaligned.h> to
 *    <linux/unaligned.h> in 6.12.  Include this header instead of either.
 *  - __assign_str() lost its source argument in 6.10: the source is the
 *    one the event's __string() names.  PDCM_ASSIGN_STR(dst, src) expands
 *    to the form the kernel takes.
 *  - Remote FLUSH came in 6.2 (IB_DEVICE_FLUSH_* and IB_ACCESS_FLUSH_*):
 *    PDCM_DEVICE_FLUSH is the device capability, PDCM_ACCESS_FLUSH the
 *    QP access it grants; both 0 before 6.2.
 */
#ifndef _PDCM_COMPAT_H
#define _PDCM_COMPAT_H

#include <linux/version.h>

#if KERNEL_VERSION(6, 12, 0) <= LINUX_VERSION_CODE
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#if KERNEL_VERSION(6, 10, 0) <= LINUX_VERSION_CODE
#define PDCM_ASSIGN_STR(dst, src)	__assign_str(dst)
#else
#define PDCM_ASSIGN_STR(dst, src)	__assign_str(dst, src)
#endif

#if KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE
#define PDCM_DEVICE_FLUSH	(IB_DEVICE_FLUSH_GLOBAL | IB_DEVICE_FLUSH_PERSISTENT)
#define PDCM_ACCESS_FLUSH	(IB_ACCESS_FLUSH_GLOBAL | IB_ACCESS_FLUSH_PERSISTENT)
#else
#define PDCM_DEVICE_FLUSH	0ULL
#define PDCM_ACCESS_FLUSH	0
#endif

#endif /* _PDCM_COMPAT_H */
