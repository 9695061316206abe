/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pdcm_test_device_get(): an RDMA device by name, with a reference that
 * ib_device_put() drops, for the test modules (pdcm_kunit, pdcm_shim_test).
 * ib_core's ib_device_get_by_name() is not exported from 7.x on, so the
 * device is found the way any ULP finds devices: a client registered for a
 * moment sees every registered device in its add() callback.  Include it
 * in one file per module.
 */
#ifndef _PDCM_TESTS_IBDEV_H
#define _PDCM_TESTS_IBDEV_H

#include <linux/device.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <rdma/ib_verbs.h>

static DEFINE_MUTEX(pdcm_test_dev_lock);
static const char *pdcm_test_dev_name;		/* pdcm_test_dev_lock */
static struct ib_device *pdcm_test_dev_found;	/* pdcm_test_dev_lock */

/* Called for each registered device while the client registers. */
static int pdcm_test_dev_add(struct ib_device *ibdev)
{
	if (!pdcm_test_dev_found &&
	    !strcmp(dev_name(&ibdev->dev), pdcm_test_dev_name) &&
	    ib_device_try_get(ibdev))
		pdcm_test_dev_found = ibdev;
	return 0;
}

static struct ib_client pdcm_test_dev_client = {
	.name = "pdcm_test_dev",
	.add = pdcm_test_dev_add,
};

/**
 * pdcm_test_device_get() - the registered RDMA device named @name
 * @name: e.g. "rxe0"
 *
 * Context: process context; may sleep.
 * Return: the device with a reference held (ib_device_put() drops it), or
 * NULL if no registered device has that name.
 */
static inline struct ib_device *pdcm_test_device_get(const char *name)
{
	struct ib_device *ibdev;

	mutex_lock(&pdcm_test_dev_lock);
	pdcm_test_dev_name = name;
	pdcm_test_dev_found = NULL;
	if (!ib_register_client(&pdcm_test_dev_client))
		ib_unregister_client(&pdcm_test_dev_client);
	ibdev = pdcm_test_dev_found;
	mutex_unlock(&pdcm_test_dev_lock);
	return ibdev;
}

#endif /* _PDCM_TESTS_IBDEV_H */
