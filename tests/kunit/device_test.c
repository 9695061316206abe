// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * KUnit suite pdcm_device: ib_pdcm.ko owns the CM MAD class on the ports
 * of a real ib_device.  Needs an rxe0 device (the VM harness creates one);
 * the cases skip where none exists, e.g. under kunit.py on UML.
 */
#include <kunit/test.h>
#include <rdma/ib_mad.h>
#include <rdma/pdcm.h>

#include "../../cm/device.h"

static struct ib_device *get_rxe0(struct kunit *test)
{
	struct ib_device *ibdev = ib_device_get_by_name("rxe0", RDMA_DRIVER_UNKNOWN);

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

static struct kunit_case pdcm_device_cases[] = {
	KUNIT_CASE(device_port_claimed),
	KUNIT_CASE(device_class_owned),
	{}
};

static struct kunit_suite pdcm_device_suite = {
	.name = "pdcm_device",
	.test_cases = pdcm_device_cases,
};

kunit_test_suite(pdcm_device_suite);
