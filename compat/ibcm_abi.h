/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Types the in-tree ib_cm's translation unit sees in full, for genksyms.
 *
 * Module versioning hashes every exported prototype together with each
 * type it reaches, expanded as the translation unit sees it.  The in-tree
 * cm.c reaches struct rdma_restrack_root through struct ib_device and sees
 * its definition in the private drivers/infiniband/core/restrack.h, which
 * no headers package ships; a unit that sees it only as a declaration
 * hashes to different CRCs, and the distribution's rdma_cm then refuses
 * this module ("disagrees about version of symbol").  genksyms records
 * struct definitions made in headers only, so the copy lives here.
 *
 * Nothing in the module uses the type.  scripts/ibcm-crc.sh checks that
 * the CRCs of the built module are the kernel's.
 */
#ifndef _PDCM_IBCM_ABI_H
#define _PDCM_IBCM_ABI_H

#include <linux/tracepoint.h>
#include <linux/xarray.h>
#include <net/netns/generic.h>

/* As in drivers/infiniband/core/restrack.h of Linux 6.1 to 6.12. */
struct rdma_restrack_root {
	struct xarray xa;
	u32 next_id;
};

#endif /* _PDCM_IBCM_ABI_H */
