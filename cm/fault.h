/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fault injection at pdcm's own allocation sites: with
 * CONFIG_FAULT_INJECTION, /sys/kernel/debug/pdcm/fail/ is a fault
 * attribute of the kernel's framework (Documentation/fault-injection/),
 * checked by pdcm_fail() before each allocation pdcm makes; without it
 * pdcm_fail() is a constant false and costs nothing.  The attribute also
 * honours /proc/<pid>/fail-nth, like failslab.
 */
#ifndef _PDCM_FAULT_H
#define _PDCM_FAULT_H

#include <linux/fault-inject.h>
#include <linux/types.h>

struct dentry;

#ifdef CONFIG_FAULT_INJECTION
extern struct fault_attr pdcm_fail_attr;

/* Whether the allocation about to be made is to fail. */
static inline bool pdcm_fail(void)
{
	return should_fail(&pdcm_fail_attr, 1);
}

void pdcm_fault_debugfs(struct dentry *parent);
#else
static inline bool pdcm_fail(void)
{
	return false;
}

static inline void pdcm_fault_debugfs(struct dentry *parent)
{
}
#endif

#endif /* _PDCM_FAULT_H */
