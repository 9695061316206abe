/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm: an InfiniBand Connection Manager (IBA Vol. 1 ch. 12) whose listen
 * table demultiplexes REQs on (service ID, private-data mask/compare).
 *
 * This header is the whole public API.  It is modeled on <rdma/ib_cm.h>:
 * a ULP written against ib_cm ports by renaming ib_cm_* to pdcm_*.
 * Every symbol is exported in the PDCM namespace; users must say
 * MODULE_IMPORT_NS(PDCM).
 */
#ifndef _RDMA_PDCM_H
#define _RDMA_PDCM_H

#include <linux/types.h>

/* CM MAD class version implemented (IBA 1.2; private to ib_cm in-tree). */
#define PDCM_CLASS_VERSION	2

#endif /* _RDMA_PDCM_H */
