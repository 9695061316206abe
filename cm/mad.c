// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * CM MAD agent per port.
 *
 * Only one GSI agent per port may own (class 0x07, version 2, method SEND):
 * ib_core refuses a second one with -EINVAL and logs "Method 3 already in
 * use".  A refused registration is recorded in the port and reported by
 * device.c; it is not an error of this file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/printk.h>
#include <rdma/ib_mad.h>
#include <rdma/pdcm.h>

#include "device.h"
#include "mad.h"

static bool dump_mads;
module_param(dump_mads, bool, 0644);
MODULE_PARM_DESC(dump_mads,
		 "Hex-dump every received CM MAD to the kernel log (debug; default off)");

static void pdcm_mad_send_handler(struct ib_mad_agent *agent,
				  struct ib_mad_send_wc *send_wc)
{
	ib_free_send_mad(send_wc->send_buf);
}

static void pdcm_mad_recv_handler(struct ib_mad_agent *agent,
				  struct ib_mad_send_buf *send_buf,
				  struct ib_mad_recv_wc *recv_wc)
{
	struct pdcm_port *port = agent->context;
	const struct ib_mad_hdr *hdr = &recv_wc->recv_buf.mad->mad_hdr;

	atomic_long_inc(&port->rx_mads);
	if (dump_mads) {
		pr_info("%s port %u: rx class 0x%02x method 0x%02x attr 0x%04x len %d\n",
			dev_name(&port->dev->ibdev->dev), port->port_num,
			hdr->mgmt_class, hdr->method, be16_to_cpu(hdr->attr_id),
			recv_wc->mad_len);
		print_hex_dump(KERN_INFO, "pdcm: mad ", DUMP_PREFIX_OFFSET, 16,
			       1, recv_wc->recv_buf.mad, recv_wc->mad_len, false);
	}
	ib_free_recv_mad(recv_wc);
}

/**
 * pdcm_mad_register() - claim the CM MAD class on one port
 * @port: the port; @port->dev and @port->port_num must be set
 *
 * Registers a GSI agent for CM class 0x07 version 2, method SEND, and
 * advertises IB_PORT_CM_SUP in the port's capability mask.
 *
 * Context: Process context; may sleep.  Called with pdcm_devices_mutex held.
 * Return: 0 on success, or the negative errno of ib_register_mad_agent(),
 * also stored in @port->reg_err.
 */
int pdcm_mad_register(struct pdcm_port *port)
{
	struct ib_port_modify modify = { .set_port_cap_mask = IB_PORT_CM_SUP };
	struct ib_mad_reg_req req = {
		.mgmt_class = IB_MGMT_CLASS_CM,
		.mgmt_class_version = PDCM_CLASS_VERSION,
	};
	struct ib_device *ibdev = port->dev->ibdev;
	struct ib_mad_agent *agent;
	int ret;

	lockdep_assert_held(&pdcm_devices_mutex);
	set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	agent = ib_register_mad_agent(ibdev, port->port_num, IB_QPT_GSI, &req,
				      0, pdcm_mad_send_handler,
				      pdcm_mad_recv_handler, port, 0);
	if (IS_ERR(agent)) {
		port->reg_err = PTR_ERR(agent);
		return port->reg_err;
	}
	port->agent = agent;
	port->reg_err = 0;

	ret = ib_modify_port(ibdev, port->port_num, 0, &modify);
	if (ret && ret != -EOPNOTSUPP)
		dev_warn(&ibdev->dev, "pdcm: port %u: cannot set IB_PORT_CM_SUP: %d\n",
			 port->port_num, ret);
	return 0;
}

/**
 * pdcm_mad_unregister() - release the CM MAD class on one port
 * @port: a port for which pdcm_mad_register() succeeded, or one whose
 *	registration failed (then nothing is done)
 *
 * Context: Process context; may sleep (waits for running MAD handlers).
 * Called with pdcm_devices_mutex held.
 */
void pdcm_mad_unregister(struct pdcm_port *port)
{
	struct ib_port_modify modify = { .clr_port_cap_mask = IB_PORT_CM_SUP };

	lockdep_assert_held(&pdcm_devices_mutex);
	if (!port->agent)
		return;
	ib_modify_port(port->dev->ibdev, port->port_num, 0, &modify);
	ib_unregister_mad_agent(port->agent);
	port->agent = NULL;
}
