// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_kunit.ko: every pdcm KUnit suite, one file per unit under test.
 * Internal functions of ib_pdcm.ko are reached through
 * EXPORT_SYMBOL_IF_KUNIT(), the public API through the PDCM namespace.
 */
#include <linux/module.h>
#include <rdma/pdcm_ns.h>

MODULE_IMPORT_NS(PDCM_NS(EXPORTED_FOR_KUNIT_TESTING));
MODULE_IMPORT_NS(PDCM_NS(PDCM));
MODULE_DESCRIPTION("KUnit tests for pdcm");
MODULE_LICENSE("Dual BSD/GPL");
