/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Per-port counters in sysfs, in the groups the in-tree CM uses. */
#ifndef _PDCM_COUNTERS_H
#define _PDCM_COUNTERS_H

#include <linux/types.h>

struct attribute_group;
struct ib_device;
struct pdcm_port;

/* "req", "mra", ... "apr": by attribute ID - 0x10 (PDCM_NUM_ATTRS) */
extern const char *const pdcm_msg_names[];

void pdcm_counters_init(void);
int pdcm_counters_add(struct pdcm_port *port);
void pdcm_counters_remove(struct pdcm_port *port);

/*
 * Exported by ib_core (drivers/infiniband/core/sysfs.c) for ib_cm but
 * declared only in its private core_priv.h; the same prototypes since 5.14.
 */
int ib_port_register_client_groups(struct ib_device *ibdev, u32 port_num,
				   const struct attribute_group **groups);
void ib_port_unregister_client_groups(struct ib_device *ibdev, u32 port_num,
				      const struct attribute_group **groups);

#endif /* _PDCM_COUNTERS_H */
