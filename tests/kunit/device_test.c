// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite pdcm_device: ib_pdcm.ko owns the CM MAD class on the ports
 * of a real ib_device.  Needs an rxe0 device (the VM harness creates one);
 * the cases skip where none exists, e.g. under kunit.py on UML.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/pdcm.h>

#include "../../cm/device.h"
#include "../../cm/wire.h"
#include "ibdev.h"

static struct ib_device *get_rxe0(struct kunit *test)
{
	struct ib_device *ibdev = pdcm_test_device_get("rxe0");

	if (!ibdev)
		kunit_skip(test, "no rxe0 ib_device");
	return ibdev;
}

static struct pdcm_port *find_port(struct ib_device *ibdev, u32 port_num)
{
	struct pdcm_device *dev;

	lockdep_assert_held(&pdcm_devices_mutex);
	list_for_each_entry(dev, &pdcm_devices, list)
		if (dev->ibdev == ibdev && port_num >= rdma_start_port(ibdev) &&
		    port_num - rdma_start_port(ibdev) < dev->nports)
			return &dev->port[port_num - rdma_start_port(ibdev)];
	return NULL;
}

/* pdcm kept rxe0 and holds an agent for CM class 0x07 v2 on port 1. */
static void device_port_claimed(struct kunit *test)
{
	struct ib_device *ibdev = get_rxe0(test);
	struct pdcm_port *port;

	mutex_lock(&pdcm_devices_mutex);
	port = find_port(ibdev, 1);
	KUNIT_EXPECT_NOT_NULL(test, port);
	if (port) {
		KUNIT_EXPECT_NOT_NULL(test, port->agent);
		KUNIT_EXPECT_EQ(test, port->reg_err, 0);
		if (port->agent) {
			KUNIT_EXPECT_EQ(test, port->agent->port_num, 1U);
			KUNIT_EXPECT_PTR_EQ(test, port->agent->context, (void *)port);
		}
	}
	mutex_unlock(&pdcm_devices_mutex);
	ib_device_put(ibdev);
}

/* A second agent for the same class, version and method is refused. */
static void device_class_owned(struct kunit *test)
{
	struct ib_device *ibdev = get_rxe0(test);
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_CM,
		.mgmt_class_version = PDCM_CLASS_VERSION,
	};
	struct ib_mad_agent *agent;

	set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	agent = ib_register_mad_agent(ibdev, 1, IB_QPT_GSI, &req, 0, NULL,
				      NULL, NULL, 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(agent));
	if (IS_ERR(agent))
		KUNIT_EXPECT_EQ(test, PTR_ERR(agent), -EINVAL);
	else
		ib_unregister_mad_agent(agent);
	ib_device_put(ibdev);
}

/* The send-only agent's completion: the MAD left (or failed to). */
static void device_send_done(struct ib_mad_agent *agent,
			     struct ib_mad_send_wc *wc)
{
	struct completion *done = wc->send_buf->context[0];

	ib_free_send_mad(wc->send_buf);
	complete(done);
}

/*
 * A CM MAD that does not decode (attribute 0x00ff, no such message),
 * sent over rxe0 to rxe0 through a send-only agent: pdcm's agent receives
 * it, counts it in rx_malformed, and answers nothing.
 */
static void device_rx_malformed(struct kunit *test)
{
	struct ib_device *ibdev = get_rxe0(test);
	struct rdma_ah_attr ah_attr = {};
	long malformed0, rej0, rx0;
	const struct ib_gid_attr *sgid;
	struct ib_mad_send_buf *buf;
	struct ib_mad_agent *agent;
	struct net_device *ndev;
	struct completion done;
	struct pdcm_port *port;
	struct ib_mad_hdr *hdr;
	union ib_gid dgid;
	struct ib_ah *ah;
	int i, ret;

	mutex_lock(&pdcm_devices_mutex);
	port = find_port(ibdev, 1);
	mutex_unlock(&pdcm_devices_mutex);
	if (!port) {
		KUNIT_FAIL(test, "pdcm has no port 1 on rxe0");
		goto put_dev;
	}
	agent = ib_register_mad_agent(ibdev, 1, IB_QPT_GSI, NULL, 0,
				      device_send_done, NULL, NULL, 0);
	if (IS_ERR(agent)) {
		KUNIT_FAIL(test, "send-only agent: %ld", PTR_ERR(agent));
		goto put_dev;
	}
	/* to our own GID 0 and MAC: rxe loops it back */
	sgid = rdma_get_gid_attr(ibdev, 1, 0);
	if (IS_ERR(sgid)) {
		KUNIT_FAIL(test, "no GID 0 on rxe0: %ld", PTR_ERR(sgid));
		goto unregister;
	}
	ah_attr.type = rdma_ah_find_type(ibdev, 1);
	rdma_ah_set_port_num(&ah_attr, 1);
	dgid = sgid->gid;
	rdma_ah_set_grh(&ah_attr, &dgid, 0, 0, 64, 0);
	rcu_read_lock();
	ndev = rdma_read_gid_attr_ndev_rcu(sgid);
	if (!IS_ERR(ndev))
		memcpy(ah_attr.roce.dmac, ndev->dev_addr, ETH_ALEN);
	rcu_read_unlock();
	rdma_put_gid_attr(sgid);
	if (IS_ERR(ndev)) {
		KUNIT_FAIL(test, "GID 0 has no netdev: %ld", PTR_ERR(ndev));
		goto unregister;
	}
	ah = rdma_create_ah(agent->qp->pd, &ah_attr, RDMA_CREATE_AH_SLEEPABLE);
	if (IS_ERR(ah)) {
		KUNIT_FAIL(test, "rdma_create_ah: %ld", PTR_ERR(ah));
		goto unregister;
	}
	buf = ib_create_send_mad(agent, 1, 0, 0, IB_MGMT_MAD_HDR,
				 IB_MGMT_MAD_DATA, GFP_KERNEL,
				 IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf)) {
		KUNIT_FAIL(test, "ib_create_send_mad: %ld", PTR_ERR(buf));
		goto destroy_ah;
	}
	hdr = buf->mad;
	hdr->base_version = IB_MGMT_BASE_VERSION;
	hdr->mgmt_class = IB_MGMT_CLASS_CM;
	hdr->class_version = PDCM_CLASS_VERSION;
	hdr->method = IB_MGMT_METHOD_SEND;
	hdr->attr_id = cpu_to_be16(0x00ff);
	hdr->tid = cpu_to_be64(0x00ff00ff00ff00ffULL);
	buf->ah = ah;
	init_completion(&done);
	buf->context[0] = &done;

	malformed0 = atomic_long_read(&port->cnt.rx_malformed);
	rej0 = atomic_long_read(&port->cnt.tx[PDCM_ATTR_REJ - PDCM_ATTR_FIRST]);
	rx0 = atomic_long_read(&port->rx_mads);
	ret = ib_post_send_mad(buf, NULL);
	if (ret) {
		KUNIT_FAIL(test, "ib_post_send_mad: %d", ret);
		ib_free_send_mad(buf);
		goto destroy_ah;
	}
	KUNIT_EXPECT_NE(test, wait_for_completion_timeout(&done, 10 * HZ), 0UL);
	for (i = 0; i < 250; i++) {
		if (atomic_long_read(&port->cnt.rx_malformed) != malformed0)
			break;
		msleep(20);
	}
	msleep(100);	/* an answer, if pdcm wrongly sent one, is counted */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->cnt.rx_malformed),
			malformed0 + 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&port->rx_mads), rx0 + 1);
	KUNIT_EXPECT_EQ(test,
			atomic_long_read(&port->cnt.tx[PDCM_ATTR_REJ - PDCM_ATTR_FIRST]),
			rej0);
destroy_ah:
	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
unregister:
	ib_unregister_mad_agent(agent);
put_dev:
	ib_device_put(ibdev);
}

static struct kunit_case pdcm_device_cases[] = {
	KUNIT_CASE(device_port_claimed),
	KUNIT_CASE(device_class_owned),
	KUNIT_CASE(device_rx_malformed),
	{}
};

static struct kunit_suite pdcm_device_suite = {
	.name = "pdcm_device",
	.test_cases = pdcm_device_cases,
};

kunit_test_suite(pdcm_device_suite);
