// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * ib_client glue and module init/exit.
 *
 * pdcm runs on every port where rdma_cap_ib_cm() holds, on devices present
 * at load time and on devices added later.  Loading with no RDMA device is
 * fine (devices may come later).  Loading when CM-capable ports exist but
 * every one of them refused the CM MAD class is an error: the module would
 * sit there doing nothing, most likely because the in-tree ib_cm holds the
 * class.
 *
 * Lock order: pdcm_devices_mutex, then whatever ib_core takes inside
 * ib_register_mad_agent().
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_verbs.h>

#include "cm.h"
#include "counters.h"
#include "debugfs.h"
#include "device.h"
#include "mad.h"

/* Serialises ib_client add/remove with readers of the device list. */
struct mutex pdcm_devices_mutex = __MUTEX_INITIALIZER(pdcm_devices_mutex);
EXPORT_SYMBOL_IF_KUNIT(pdcm_devices_mutex);
struct list_head pdcm_devices = LIST_HEAD_INIT(pdcm_devices);
EXPORT_SYMBOL_IF_KUNIT(pdcm_devices);

/* Totals over the add() calls made during module init, for its verdict. */
static unsigned int pdcm_init_ports_seen;
static unsigned int pdcm_init_ports_claimed;

static struct ib_client pdcm_client;

/**
 * pdcm_device_init() - set up a zeroed struct pdcm_device
 * @dev: allocated with room for @nports ports, zeroed
 * @ibdev: its RDMA device
 * @nports: ports from rdma_start_port(@ibdev) on
 *
 * Context: any.
 * Return: nothing.
 */
void pdcm_device_init(struct pdcm_device *dev, struct ib_device *ibdev,
		      u32 nports)
{
	u32 i;

	dev->ibdev = ibdev;
	dev->nports = nports;
	kref_init(&dev->ref);
	for (i = 0; i < nports; i++) {
		dev->port[i].dev = dev;
		dev->port[i].port_num = rdma_start_port(ibdev) + i;
		dev->port[i].up = &pdcm_cm_up;
		rwlock_init(&dev->port[i].agent_lock);
	}
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_device_init);

static struct pdcm_device *pdcm_device_alloc(struct ib_device *ibdev)
{
	u32 nports = rdma_end_port(ibdev) - rdma_start_port(ibdev) + 1;
	struct pdcm_device *dev;

	dev = kzalloc(struct_size(dev, port, nports), GFP_KERNEL);
	if (dev)
		pdcm_device_init(dev, ibdev, nports);
	return dev;
}

/**
 * pdcm_device_get() - a conn starts pointing at a port of @dev
 * @dev: the device
 *
 * Context: any.
 */
void pdcm_device_get(struct pdcm_device *dev)
{
	kref_get(&dev->ref);
}

static void pdcm_device_free(struct kref *ref)
{
	kfree(container_of(ref, struct pdcm_device, ref));
}

/**
 * pdcm_device_put() - drop a reference; the last one frees @dev
 * @dev: the device
 *
 * Context: any.
 * Return: nothing.
 */
void pdcm_device_put(struct pdcm_device *dev)
{
	kref_put(&dev->ref, pdcm_device_free);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_device_put);

static void pdcm_device_release_ports(struct pdcm_device *dev)
{
	u32 i;

	for (i = 0; i < dev->nports; i++)
		pdcm_mad_unregister(&dev->port[i]);
}

static int pdcm_add_one(struct ib_device *ibdev)
{
	unsigned int seen = 0, claimed = 0;
	struct pdcm_device *dev;
	u32 i;
	int ret;

	dev = pdcm_device_alloc(ibdev);
	if (!dev)
		return -ENOMEM;

	mutex_lock(&pdcm_devices_mutex);
	for (i = 0; i < dev->nports; i++) {
		struct pdcm_port *port = &dev->port[i];

		if (!rdma_cap_ib_cm(ibdev, port->port_num))
			continue;
		seen++;
		ret = pdcm_mad_register(port);
		if (ret) {
			dev_warn(&ibdev->dev,
				 "pdcm: port %u: CM MAD class 0x07 v2 refused (%d); is ib_cm loaded?\n",
				 port->port_num, ret);
			continue;
		}
		claimed++;
		dev_info(&ibdev->dev, "pdcm: port %u: claimed CM MAD class\n",
			 port->port_num);
	}
	pdcm_init_ports_seen += seen;
	pdcm_init_ports_claimed += claimed;
	if (!claimed) {
		mutex_unlock(&pdcm_devices_mutex);
		pdcm_device_put(dev);
		/* ib_core ignores the value but will not call remove(). */
		return seen ? -EBUSY : -EOPNOTSUPP;
	}
	list_add_tail(&dev->list, &pdcm_devices);
	mutex_unlock(&pdcm_devices_mutex);

	for (i = 0; i < dev->nports; i++)
		if (dev->port[i].agent && pdcm_counters_add(&dev->port[i]))
			dev_warn(&ibdev->dev, "pdcm: port %u: no sysfs counters\n",
				 dev->port[i].port_num);

	ib_set_client_data(ibdev, &pdcm_client, dev);
	return 0;
}

static void pdcm_remove_one(struct ib_device *ibdev, void *client_data)
{
	struct pdcm_device *dev = client_data;
	u32 i;

	for (i = 0; i < dev->nports; i++)
		if (dev->port[i].agent)
			pdcm_counters_remove(&dev->port[i]);
	/*
	 * Off the list: no new active conn finds a port of ours.  Without
	 * agents: nothing more arrives, every send fails, and the MAD layer
	 * has completed every MAD in flight (their references are gone).
	 */
	mutex_lock(&pdcm_devices_mutex);
	list_del(&dev->list);
	pdcm_device_release_ports(dev);
	mutex_unlock(&pdcm_devices_mutex);
	/* REQ work already queued sees no agent and makes no conn */
	flush_workqueue(pdcm_wq);
	/* the conns' address attributes hold GID table references: drop them */
	pdcm_conns_release_avs(dev);
	dev_info(&ibdev->dev, "pdcm: released\n");
	pdcm_device_put(dev);	/* conns still on it keep it until they go */
}

static struct pdcm_port *pdcm_port_lookup(struct ib_device *ibdev, u32 port_num)
{
	struct pdcm_device *dev;

	lockdep_assert_held(&pdcm_devices_mutex);
	list_for_each_entry(dev, &pdcm_devices, list) {
		if (dev->ibdev != ibdev)
			continue;
		if (port_num >= rdma_start_port(ibdev) &&
		    port_num - rdma_start_port(ibdev) < dev->nports &&
		    dev->port[port_num - rdma_start_port(ibdev)].agent)
			return &dev->port[port_num - rdma_start_port(ibdev)];
		break;
	}
	return NULL;
}

/**
 * pdcm_port_find() - pdcm's port of an RDMA device
 * @ibdev: the device
 * @port_num: the port number
 *
 * The port stays valid until the device's removal, which ULPs see first
 * (their ib_client was registered after pdcm's) and must use to destroy
 * their ids on it.
 *
 * Context: process context; takes pdcm_devices_mutex.
 * Return: the port if pdcm owns the CM class on it, else NULL.
 */
struct pdcm_port *pdcm_port_find(struct ib_device *ibdev, u32 port_num)
{
	struct pdcm_port *found;

	mutex_lock(&pdcm_devices_mutex);
	found = pdcm_port_lookup(ibdev, port_num);
	mutex_unlock(&pdcm_devices_mutex);
	return found;
}

/**
 * pdcm_port_get() - pdcm_port_find(), holding the port's device
 * @ibdev: the device
 * @port_num: the port number
 *
 * For a conn about to keep the port: the reference is taken under the
 * mutex that pdcm_remove_one() takes before it drops the device's own,
 * so the device cannot be freed between the lookup and the caller's
 * pdcm_conn_set_port().
 *
 * Context: process context; takes pdcm_devices_mutex.
 * Return: the port, whose device the caller puts with pdcm_device_put(),
 * or NULL.
 */
struct pdcm_port *pdcm_port_get(struct ib_device *ibdev, u32 port_num)
{
	struct pdcm_port *found;

	mutex_lock(&pdcm_devices_mutex);
	found = pdcm_port_lookup(ibdev, port_num);
	if (found)
		pdcm_device_get(found->dev);
	mutex_unlock(&pdcm_devices_mutex);
	return found;
}

static struct ib_client pdcm_client = {
	.name = "pdcm",
	.add = pdcm_add_one,
	.remove = pdcm_remove_one,
};

static int __init pdcm_init(void)
{
	int ret;

	ret = pdcm_cm_init();
	if (ret)
		return ret;
	pdcm_counters_init();
	pdcm_debugfs_init();
	ret = ib_register_client(&pdcm_client);
	if (ret)
		goto err_debugfs;

	mutex_lock(&pdcm_devices_mutex);
	if (pdcm_init_ports_seen && !pdcm_init_ports_claimed) {
		mutex_unlock(&pdcm_devices_mutex);
		pr_err("all %u CM-capable ports refused the CM MAD class (the in-tree ib_cm owns it?); not loading\n",
		       pdcm_init_ports_seen);
		ret = -EBUSY;
		goto err_client;
	}
	pr_info("loaded, %u of %u CM-capable ports claimed\n",
		pdcm_init_ports_claimed, pdcm_init_ports_seen);
	mutex_unlock(&pdcm_devices_mutex);
	return 0;

err_client:
	ib_unregister_client(&pdcm_client);
err_debugfs:
	pdcm_debugfs_exit();
	pdcm_cm_exit();
	return ret;
}

static void __exit pdcm_exit(void)
{
	ib_unregister_client(&pdcm_client);
	pdcm_debugfs_exit();
	pdcm_cm_exit();
	pr_info("unloaded\n");
}

module_init(pdcm_init);
module_exit(pdcm_exit);

MODULE_AUTHOR("The pdcm authors");
MODULE_DESCRIPTION("InfiniBand Connection Manager with private-data listen demux");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_SOFTDEP("pre: ib_core");
