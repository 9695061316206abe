/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* debugfs view of pdcm: /sys/kernel/debug/pdcm/ */
#ifndef _PDCM_DEBUGFS_H
#define _PDCM_DEBUGFS_H

void pdcm_debugfs_init(void);
void pdcm_debugfs_exit(void);

#endif /* _PDCM_DEBUGFS_H */
