// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * debugfs: /sys/kernel/debug/pdcm/
 *
 *   ports	one line per CM-capable port pdcm has seen on a kept device:
 *		"<device> <port> claimed|refused(<errno>) rx=<MADs received>"
 *   listens	the listen table: each mask's subtable in probe order and
 *		its listens (service ID/mask, scope, compare bytes,
 *		matched/delivered/dropped, backlog)
 *   connections	one line per pdcm_id: comm IDs, state, service ID,
 *		QPNs, the peer's GID and the id's age
 *   fail/	with CONFIG_FAULT_INJECTION: the fault attribute of pdcm's
 *		allocation sites (fault.h)
 *
 * debugfs is best effort: a failure to create it never fails the module.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "cm.h"
#include "conn.h"
#include "debugfs.h"
#include "device.h"
#include "fault.h"
#include "listen.h"

static struct dentry *pdcm_debugfs_root;

static int pdcm_ports_show(struct seq_file *m, void *unused)
{
	struct pdcm_device *dev;
	u32 i;

	mutex_lock(&pdcm_devices_mutex);
	list_for_each_entry(dev, &pdcm_devices, list) {
		for (i = 0; i < dev->nports; i++) {
			struct pdcm_port *port = &dev->port[i];

			if (!port->agent && !port->reg_err)
				continue;	/* not CM capable */
			seq_printf(m, "%s %u ", dev_name(&dev->ibdev->dev),
				   port->port_num);
			if (port->agent)
				seq_puts(m, "claimed");
			else
				seq_printf(m, "refused(%d)", port->reg_err);
			seq_printf(m, " rx=%ld\n", atomic_long_read(&port->rx_mads));
		}
	}
	mutex_unlock(&pdcm_devices_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pdcm_ports);

static int pdcm_listens_show(struct seq_file *m, void *unused)
{
	pdcm_ltab_show(m, pdcm_listens);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pdcm_listens);

static int pdcm_connections_show(struct seq_file *m, void *unused)
{
	pdcm_conns_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pdcm_connections);

static int pdcm_conn_states_show(struct seq_file *m, void *unused)
{
	pdcm_conns_states_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pdcm_conn_states);

void pdcm_debugfs_init(void)
{
	pdcm_debugfs_root = debugfs_create_dir("pdcm", NULL);
	debugfs_create_file("ports", 0444, pdcm_debugfs_root, NULL,
			    &pdcm_ports_fops);
	debugfs_create_file("listens", 0444, pdcm_debugfs_root, NULL,
			    &pdcm_listens_fops);
	debugfs_create_file("connections", 0444, pdcm_debugfs_root, NULL,
			    &pdcm_connections_fops);
	debugfs_create_file("conn_states", 0444, pdcm_debugfs_root, NULL,
			    &pdcm_conn_states_fops);
	pdcm_fault_debugfs(pdcm_debugfs_root);
}

void pdcm_debugfs_exit(void)
{
	debugfs_remove_recursive(pdcm_debugfs_root);
	pdcm_debugfs_root = NULL;
}
