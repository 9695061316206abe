/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the verbs spell differently between the kernels softib builds for
 * (6.1, 6.12; 7.3 untested, by /work/shared/reference/soft-ib.md §1): the
 * only file of tests/softib that tests LINUX_VERSION_CODE.
 *
 *  - create_cq's last argument is a struct uverbs_attr_bundle * from
 *    6.11 on, a struct ib_udata * before: SIB_CQ_UDATA.
 *  - reg_user_mr takes a struct ib_dmah * before its udata from 6.17 on
 *    (the DMA handle object): SIB_REG_MR_DMAH is 1 there.
 */
#ifndef _SOFTIB_COMPAT_H
#define _SOFTIB_COMPAT_H

#include <linux/version.h>

#if KERNEL_VERSION(6, 11, 0) <= LINUX_VERSION_CODE
#define SIB_CQ_UDATA	struct uverbs_attr_bundle
#else
#define SIB_CQ_UDATA	struct ib_udata
#endif

#if KERNEL_VERSION(6, 17, 0) <= LINUX_VERSION_CODE
#define SIB_REG_MR_DMAH	1
#else
#define SIB_REG_MR_DMAH	0
#endif

#endif /* _SOFTIB_COMPAT_H */
