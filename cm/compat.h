/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one place where pdcm's sources differ by kernel version.  pdcm
 * builds against Debian 12's 6.1, the 6.12 LTS and trixie-backports' 7.3
 * (Documentation/install.rst); what is spelt differently between them is
 * here, and no other file tests LINUX_VERSION_CODE but <rdma/pdcm_ns.h>
 * (symbol namespaces, needed by every module; scripts/style.sh lets
 * checkpatch pass it in these two only).
 *
 *  - The unaligned access helpers moved from <asm/unaligned.h> to
 *    <linux/unaligned.h> in 6.12.  Include this header instead of either.
 *  - __assign_str() lost its source argument in 6.10: the source is the
 *    one the event's __string() names.  PDCM_ASSIGN_STR(dst, src) expands
 *    to the form the kernel takes.
 *  - Remote FLUSH came in 6.2 (IB_DEVICE_FLUSH_* and IB_ACCESS_FLUSH_*):
 *    PDCM_DEVICE_FLUSH is the device capability, PDCM_ACCESS_FLUSH the
 *    QP access it grants; both 0 before 6.2.
 *  - ib_cm's ib_send_cm_mra(id, service_timeout, private_data, len) gave
 *    way to ib_prepare_cm_mra(id) in 6.16 (always delayed, service timeout
 *    fixed, IB_CM_MRA_FLAG_DELAY gone).  PDCM_IBCM_PREPARE_MRA is defined
 *    where <rdma/ib_cm.h> declares ib_prepare_cm_mra(), and the ib_cm
 *    drop-in then exports it instead of ib_send_cm_mra().
 *  - A per-CPU workqueue says so with WQ_PERCPU from 6.17 (defined, not
 *    yet needed, in 6.12's later stable releases too); 7.x warns at
 *    alloc_workqueue() about one that is neither WQ_PERCPU nor
 *    WQ_UNBOUND.  PDCM_WQ_PERCPU is WQ_PERCPU from 6.17, else 0 (per-CPU
 *    is what a workqueue without WQ_UNBOUND is there).
 *  - The MAD layer has flow control for solicited MADs from 6.17: it holds
 *    back a CM-class agent's timed sends past recv_queue_size/4
 *    outstanding until earlier ones end, and it accepts timed sends from
 *    an agent without a receive handler, which it refused before (-EINVAL
 *    from ib_post_send_mad()).  PDCM_MAD_REP_AGENT is 1 from 6.17: REPs
 *    then leave through a send-only agent of their own (struct pdcm_port's
 *    @rep_agent), as the in-tree CM's do; 0 before.
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

#if KERNEL_VERSION(6, 16, 0) <= LINUX_VERSION_CODE
#define PDCM_IBCM_PREPARE_MRA	1
#endif

#if KERNEL_VERSION(6, 17, 0) <= LINUX_VERSION_CODE
#define PDCM_WQ_PERCPU	WQ_PERCPU
#define PDCM_MAD_REP_AGENT	1
#else
#define PDCM_WQ_PERCPU	0
#define PDCM_MAD_REP_AGENT	0
#endif

#endif /* _PDCM_COMPAT_H */
