// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fault attribute of pdcm's allocation sites (fault.h).  Off until
 * configured: probability 0.  A sweep fails the k-th allocation from now
 * with space=k, times=1, probability=100 (Documentation/robustness.rst).
 */
#include <kunit/visibility.h>
#include <linux/debugfs.h>

#include "fault.h"

#ifdef CONFIG_FAULT_INJECTION
struct fault_attr pdcm_fail_attr = FAULT_ATTR_INITIALIZER;
EXPORT_SYMBOL_IF_KUNIT(pdcm_fail_attr);

/* /sys/kernel/debug/pdcm/fail/; best effort, as all of pdcm's debugfs */
void pdcm_fault_debugfs(struct dentry *parent)
{
	fault_create_debugfs_attr("fail", parent, &pdcm_fail_attr);
}
#endif
