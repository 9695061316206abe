// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sysfs counters of a port, beside the port's other attributes:
 *
 *   /sys/class/infiniband/<dev>/ports/<N>/cm_tx_msgs/<msg>
 *                                        /cm_tx_retries/<msg>
 *                                        /cm_rx_msgs/<msg>
 *                                        /cm_rx_duplicates/<msg>
 *                                        /pdcm/{rx_malformed,rx_dropped,
 *                                               backlog_dropped,
 *                                               backlog_rejected,
 *                                               req_withdrawn,
 *                                               stale_not_peer,
 *                                               backlog_evicted}
 *
 * with <msg> one of req mra rej rep rtu dreq drep sidr_req sidr_rep lap
 * apr: the same groups and names as the in-tree ib_cm, so existing
 * monitoring reads pdcm unchanged.  (Only one of the two CMs can own a
 * port, so the names never clash.)  The attribute tables are built once
 * at module init from the name lists below.
 */
#include <linux/kernel.h>
#include <rdma/ib_sysfs.h>

#include "counters.h"
#include "device.h"

struct pdcm_counter_attr {
	struct ib_port_attribute attr;
	size_t offset;		/* of the atomic_long_t in pdcm_port_counters */
};

#define PDCM_MAX_GROUP_ATTRS	PDCM_NUM_ATTRS

struct pdcm_counter_group {
	const char *name;
	size_t offset;		/* of the first counter */
	const char *const *names;
	unsigned int n;
	struct pdcm_counter_attr attrs[PDCM_MAX_GROUP_ATTRS];
	struct attribute *ptrs[PDCM_MAX_GROUP_ATTRS + 1];
	struct attribute_group group;
};

const char *const pdcm_msg_names[PDCM_NUM_ATTRS] = {
	"req", "mra", "rej", "rep", "rtu", "dreq", "drep", "sidr_req",
	"sidr_rep", "lap", "apr",
};

static const char *const pdcm_own_names[] = {
	"rx_malformed", "rx_dropped", "backlog_dropped", "backlog_rejected",
	"req_withdrawn", "stale_not_peer", "backlog_evicted",
};

#define PDCM_OFF(f)	offsetof(struct pdcm_port_counters, f)

static struct pdcm_counter_group pdcm_counter_groups[] = {
	{ "cm_tx_msgs", PDCM_OFF(tx), pdcm_msg_names, PDCM_NUM_ATTRS },
	{ "cm_tx_retries", PDCM_OFF(tx_retries), pdcm_msg_names, PDCM_NUM_ATTRS },
	{ "cm_rx_msgs", PDCM_OFF(rx), pdcm_msg_names, PDCM_NUM_ATTRS },
	{ "cm_rx_duplicates", PDCM_OFF(rx_dup), pdcm_msg_names, PDCM_NUM_ATTRS },
	/* consecutive atomic_long_t fields, in pdcm_own_names' order */
	{ "pdcm", PDCM_OFF(rx_malformed), pdcm_own_names,
	  ARRAY_SIZE(pdcm_own_names) },
};

static const struct attribute_group *pdcm_groups[ARRAY_SIZE(pdcm_counter_groups) + 1];

static ssize_t pdcm_counter_show(struct ib_device *ibdev, u32 port_num,
				 struct ib_port_attribute *attr, char *buf)
{
	struct pdcm_counter_attr *ca = container_of(attr, struct pdcm_counter_attr, attr);
	struct pdcm_port *port = pdcm_port_find(ibdev, port_num);
	atomic_long_t *c;

	if (!port)
		return -ENODEV;
	c = (atomic_long_t *)((char *)&port->cnt + ca->offset);
	return sysfs_emit(buf, "%ld\n", atomic_long_read(c));
}

/**
 * pdcm_counters_init() - build the attribute tables
 *
 * Context: module init, before any device is added.
 */
void pdcm_counters_init(void)
{
	unsigned int g, i;

	BUILD_BUG_ON(PDCM_OFF(backlog_evicted) - PDCM_OFF(rx_malformed) !=
		     (ARRAY_SIZE(pdcm_own_names) - 1) * sizeof(atomic_long_t));
	for (g = 0; g < ARRAY_SIZE(pdcm_counter_groups); g++) {
		struct pdcm_counter_group *cg = &pdcm_counter_groups[g];

		for (i = 0; i < cg->n; i++) {
			struct pdcm_counter_attr *ca = &cg->attrs[i];

			sysfs_attr_init(&ca->attr.attr);
			ca->attr.attr.name = cg->names[i];
			ca->attr.attr.mode = 0444;
			ca->attr.show = pdcm_counter_show;
			ca->offset = cg->offset + i * sizeof(atomic_long_t);
			cg->ptrs[i] = &ca->attr.attr;
		}
		cg->ptrs[cg->n] = NULL;
		cg->group.name = cg->name;
		cg->group.attrs = cg->ptrs;
		pdcm_groups[g] = &cg->group;
	}
}

/**
 * pdcm_counters_add() - show a port's counters in sysfs
 * @port: a claimed port
 *
 * Context: process context; may sleep.  Not under pdcm_devices_mutex:
 * the show function takes it.
 * Return: 0 or the sysfs error.
 */
int pdcm_counters_add(struct pdcm_port *port)
{
	return ib_port_register_client_groups(port->dev->ibdev, port->port_num,
					      pdcm_groups);
}

/**
 * pdcm_counters_remove() - undo pdcm_counters_add()
 * @port: the port
 *
 * Context: process context; may sleep (waits for readers, who take
 * pdcm_devices_mutex: the caller must not hold it).
 */
void pdcm_counters_remove(struct pdcm_port *port)
{
	ib_port_unregister_client_groups(port->dev->ibdev, port->port_num,
					 pdcm_groups);
}
