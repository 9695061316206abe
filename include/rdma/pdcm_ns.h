/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Symbol namespaces on every kernel pdcm builds for.  Up to 6.12
 * EXPORT_SYMBOL_NS*() and MODULE_IMPORT_NS() take a bare name and
 * stringify it; from 6.13 on they take a string literal.  PDCM_NS(name)
 * is the form the kernel being built against takes, so that
 *
 *	EXPORT_SYMBOL_NS_GPL(pdcm_create_id, PDCM_NS(PDCM));
 *	MODULE_IMPORT_NS(PDCM_NS(PDCM));
 *
 * name the namespace "PDCM" on 6.1, 6.12 and 7.x alike.  A ULP of its own
 * may equally write MODULE_IMPORT_NS(PDCM) before 6.13 and
 * MODULE_IMPORT_NS("PDCM") after.
 */
#ifndef _RDMA_PDCM_NS_H
#define _RDMA_PDCM_NS_H

#include <linux/version.h>

/**
 * PDCM_NS() - a symbol namespace, spelt as the kernel built against takes it
 * @name: the namespace as a bare name: PDCM, PDCM_SDP, PDCM_DAT or
 *	EXPORTED_FOR_KUNIT_TESTING
 *
 * For the namespace argument of EXPORT_SYMBOL_NS_GPL() and
 * MODULE_IMPORT_NS(): before 6.13 the bare name, which they stringify;
 * from 6.13 on the string literal they take.
 */
#if KERNEL_VERSION(6, 13, 0) <= LINUX_VERSION_CODE
#define PDCM_NS(name)	#name
#else
#define PDCM_NS(name)	name
#endif

#endif /* _RDMA_PDCM_NS_H */
