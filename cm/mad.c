// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The CM's transport over the kernel MAD layer: one GSI agent per port
 * owning (class 0x07, version 2, method SEND), address handles, sends with
 * the MAD layer's own retry timer, and the receive path into conn.c.
 *
 * Only one GSI agent per port may own that class: ib_core refuses a second
 * one with -EINVAL ("Method 3 already in use").  A refused registration is
 * recorded in the port and reported by device.c.
 *
 * Retried sends (REQ, REP, DREQ, SIDR_REQ) carry timeout_ms and retries:
 * CM messages are never MAD "responses", so the MAD layer simply resends
 * each one until conn.c cancels it on the answer, or completes it with
 * IB_WC_RESP_TIMEOUT_ERR after the last retry.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/printk.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include <rdma/pdcm.h>

#include "cm.h"
#include "compat.h"
#include "device.h"
#include "fault.h"
#include "listen.h"
#include "mad.h"
#include "trace.h"

static bool dump_mads;
module_param(dump_mads, bool, 0644);
MODULE_PARM_DESC(dump_mads,
		 "Hex-dump every received CM MAD to the kernel log (debug; default off)");

/* send_buf->context[1] of a reply: its address handle is ours to free. */
/*
 * context[1] of every send pdcm posts: its address handle is its own, made
 * for it and destroyed when it completes.
 */
#define PDCM_OWN_AH	((void *)1UL)

static void pdcm_mad_send_handler(struct ib_mad_agent *agent,
				  struct ib_mad_send_wc *send_wc)
{
	struct ib_mad_send_buf *buf = send_wc->send_buf;
	struct pdcm_conn *conn = buf->context[0];
	struct pdcm_port *port = agent->context;
	const struct ib_mad_hdr *hdr = buf->mad;
	u16 attr = be16_to_cpu(hdr->attr_id);

	/*
	 * As ib_cm counts: cm_tx_msgs is every transmission (the first was
	 * counted when it was posted), cm_tx_retries the repeats.
	 */
	if (buf->retries && attr >= 0x10 && attr < 0x10 + PDCM_NUM_ATTRS) {
		atomic_long_add(buf->retries, &port->cnt.tx[attr - 0x10]);
		atomic_long_add(buf->retries, &port->cnt.tx_retries[attr - 0x10]);
	}
	if (conn)
		port->up->send_done(conn, buf, send_wc->status);
	if (buf->context[1] == PDCM_OWN_AH)
		rdma_destroy_ah(buf->ah, 0);
	ib_free_send_mad(buf);
}

static void pdcm_mad_recv_handler(struct ib_mad_agent *agent,
				  struct ib_mad_send_buf *send_buf,
				  struct ib_mad_recv_wc *recv_wc)
{
	struct pdcm_port *port = agent->context;
	const struct ib_mad_hdr *hdr = &recv_wc->recv_buf.mad->mad_hdr;
	struct pdcm_msg msg;
	struct pdcm_rx rx;
	int ret;

	atomic_long_inc(&port->rx_mads);
	if (dump_mads) {
		pr_info("%s port %u: rx class 0x%02x method 0x%02x attr 0x%04x len %d\n",
			dev_name(&port->dev->ibdev->dev), port->port_num,
			hdr->mgmt_class, hdr->method, be16_to_cpu(hdr->attr_id),
			recv_wc->mad_len);
		print_hex_dump(KERN_INFO, "pdcm: mad ", DUMP_PREFIX_OFFSET, 16,
			       1, recv_wc->recv_buf.mad, recv_wc->mad_len, false);
	}
	ret = pdcm_wire_decode(recv_wc->recv_buf.mad, recv_wc->mad_len, &msg);
	if (ret) {
		atomic_long_inc(&port->cnt.rx_malformed);
		trace_pdcm_drop(be16_to_cpu(hdr->attr_id), 0, "malformed");
		goto out;
	}
	rx.port = port;
	rx.wc = *recv_wc->wc;
	/*
	 * Zero without a GRH (a LID-routed MAD on an IB port): @rx.grh is
	 * passed to ib_init_ah_attr_from_wc() either way, which reads its
	 * GIDs before it looks at IB_WC_GRH.
	 */
	if (rx.wc.wc_flags & IB_WC_GRH)
		rx.grh = *recv_wc->recv_buf.grh;
	else
		memset(&rx.grh, 0, sizeof(rx.grh));
	port->up->rx(&rx, &msg);
out:
	ib_free_recv_mad(recv_wc);
}

static struct ib_mad_send_buf *pdcm_mad_alloc(struct pdcm_port *port,
					      struct ib_mad_agent *agent,
					      u32 remote_qpn, u16 pkey_index,
					      const struct pdcm_msg *msg)
{
	struct ib_mad_send_buf *buf;
	int ret;

	lockdep_assert_held_read(&port->agent_lock);
	if (pdcm_fail())
		return ERR_PTR(-ENOMEM);
	buf = ib_create_send_mad(agent, remote_qpn, pkey_index, 0,
				 IB_MGMT_MAD_HDR, IB_MGMT_MAD_DATA, GFP_ATOMIC,
				 IB_MGMT_BASE_VERSION);
	if (IS_ERR(buf))
		return buf;
	ret = pdcm_wire_encode(msg, buf->mad);
	if (ret) {
		ib_free_send_mad(buf);
		return ERR_PTR(ret);
	}
	return buf;
}

/*
 * An address handle for one send of @conn, from its address vector.  Each
 * send has its own, destroyed when it completes (as ib_cm does): a conn
 * holds none while nothing of it is in flight, so the HCA's limit on AHs
 * (rxe: 32,767) bounds the MADs in flight, not the connections.
 */
static struct ib_ah *pdcm_conn_ah(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	lockdep_assert_held(&conn->lock);
	lockdep_assert_held_read(&conn->port->agent_lock);
	if (!conn->ah_valid)
		return ERR_PTR(-EINVAL);
	return pdcm_fail() ? ERR_PTR(-ENOMEM) :
	       rdma_create_ah(conn->port->pd, &conn->ah_attr, 0);
}

static int pdcm_mad_send(struct pdcm_conn *conn, const struct pdcm_msg *msg,
			 unsigned int timeout_ms, unsigned int retries)
	__must_hold(&conn->lock)
{
	struct pdcm_port *port = conn->port;
	struct ib_mad_send_buf *buf;
	struct ib_ah *ah;
	int ret;

	lockdep_assert_held(&conn->lock);
	read_lock(&port->agent_lock);
	if (!port->agent) {
		ret = -ENODEV;
		goto out;
	}
	ah = pdcm_conn_ah(conn);
	if (IS_ERR(ah)) {
		ret = PTR_ERR(ah);
		goto out;
	}
	/* REPs through the send-only agent: never held back (@rep_agent) */
	buf = pdcm_mad_alloc(port, msg->hdr.attr_id == PDCM_ATTR_REP &&
			     port->rep_agent ? port->rep_agent : port->agent,
			     pdcm_cm_qpn(conn), conn->pkey_index, msg);
	if (IS_ERR(buf)) {
		rdma_destroy_ah(ah, 0);
		ret = PTR_ERR(buf);
		goto out;
	}
	buf->ah = ah;
	buf->timeout_ms = timeout_ms;
	buf->retries = timeout_ms ? retries : 0;
	buf->context[0] = conn;
	buf->context[1] = PDCM_OWN_AH;
	ret = pdcm_fail() ? -ENOMEM : ib_post_send_mad(buf, NULL);
	if (ret) {
		ib_free_send_mad(buf);
		rdma_destroy_ah(ah, 0);
		goto out;
	}
	/*
	 * The completion now comes, and with it send_done, which drops this
	 * reference only after it took conn->lock -- held here until we
	 * are done, so the hold is always first.
	 */
	port->up->hold(conn);
	if (timeout_ms) {
		/* the one it replaces completes as cancelled: nobody waits */
		if (conn->msg)
			ib_cancel_mad(conn->msg);
		conn->msg = buf;
	}
out:
	read_unlock(&port->agent_lock);
	return ret;
}

static void pdcm_mad_cancel(struct pdcm_conn *conn)
{
	lockdep_assert_held(&conn->lock);
	if (conn->msg)
		ib_cancel_mad(conn->msg);
}

static void pdcm_mad_extend(struct pdcm_conn *conn, unsigned int timeout_ms)
{
	lockdep_assert_held(&conn->lock);
	if (conn->msg)
		ib_modify_mad(conn->msg, timeout_ms);
}

static int pdcm_mad_reply(const struct pdcm_rx *rx, const struct pdcm_msg *msg)
{
	struct pdcm_port *port = rx->port;
	struct ib_mad_send_buf *buf;
	unsigned long flags;
	struct ib_ah *ah;
	int ret;

	/*
	 * Not after our remove() (work may run then, see pdcm_work_alloc()):
	 * the PD is the MAD layer's, which frees it after we are removed.
	 * While a remove() is under way its flush of pdcm_wq waits for us.
	 */
	read_lock_irqsave(&port->agent_lock, flags);
	ret = port->agent ? 0 : -ENODEV;
	read_unlock_irqrestore(&port->agent_lock, flags);
	if (ret)
		return ret;
	/* may sleep: before the lock */
	ah = pdcm_fail() ? ERR_PTR(-ENOMEM) :
	     ib_create_ah_from_wc(port->pd, &rx->wc, &rx->grh, port->port_num);
	if (IS_ERR(ah))
		return PTR_ERR(ah);
	read_lock_irqsave(&port->agent_lock, flags);
	/* to QP1, as ib_cm answers: a redirect is the active side's to follow */
	buf = port->agent ? pdcm_mad_alloc(port, port->agent, 1,
					   rx->wc.pkey_index, msg) :
	      ERR_PTR(-ENODEV);
	if (IS_ERR(buf)) {
		ret = PTR_ERR(buf);
		goto out;
	}
	buf->ah = ah;
	buf->context[1] = PDCM_OWN_AH;
	ret = pdcm_fail() ? -ENOMEM : ib_post_send_mad(buf, NULL);
	if (ret)
		ib_free_send_mad(buf);
out:
	read_unlock_irqrestore(&port->agent_lock, flags);
	if (ret)
		rdma_destroy_ah(ah, 0);
	return ret;
}

/**
 * pdcm_mad_set_av() - make @av @conn's address
 * @conn: the conn
 * @av: an address whose references (its sgid_attr) become @conn's, or
 *	are dropped if @conn cannot take it
 * @pkey_index: the P_Key index that goes with it
 *
 * Under @conn->lock, as pdcm_conns_release_avs() drops conns' addresses
 * when their device goes; and only while the port still has its agent:
 * that release runs once the agent is gone, so an address made by a
 * connect racing it is dropped here instead of left behind with its GID
 * table reference.  The address it replaces is dropped outside the lock.
 *
 * Context: any context that may take a spinlock; @conn->lock not held.
 * Return: 0, or -ENODEV if the port has lost its agent.
 */
int pdcm_mad_set_av(struct pdcm_conn *conn, struct rdma_ah_attr *av,
		    u16 pkey_index)
{
	struct pdcm_port *port = conn->port;
	struct rdma_ah_attr old;
	bool drop_old = false;
	unsigned long flags;
	bool live;

	spin_lock_irqsave(&conn->lock, flags);
	read_lock(&port->agent_lock);
	live = port->agent;
	read_unlock(&port->agent_lock);
	if (live) {
		if (conn->ah_valid) {
			old = conn->ah_attr;
			drop_old = true;
		}
		conn->ah_attr = *av;
		conn->ah_valid = true;
		conn->pkey_index = pkey_index;
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	if (drop_old)
		rdma_destroy_ah_attr(&old);
	if (!live)
		rdma_destroy_ah_attr(av);
	return live ? 0 : -ENODEV;
}
EXPORT_SYMBOL_PDCM_TESTS(pdcm_mad_set_av);

static int pdcm_mad_peer_av(struct pdcm_conn *conn, const struct pdcm_rx *rx,
			    struct sa_path_rec *path)
{
	struct pdcm_port *port = rx->port;
	const struct ib_global_route *grh;
	struct rdma_ah_attr reply, av;
	int ret;

	/* never a NULL GRH: read without IB_WC_GRH too (recv_handler) */
	ret = ib_init_ah_attr_from_wc(port->dev->ibdev, port->port_num, &rx->wc,
				      &rx->grh, &reply);
	if (ret)
		return ret;
	if (!path)
		return pdcm_mad_set_av(conn, &reply, rx->wc.pkey_index);
	grh = rdma_ah_read_grh(&reply);
	if (reply.type == RDMA_AH_ATTR_TYPE_ROCE) {
		path->rec_type = sa_conv_gid_to_pathrec_type(grh->sgid_attr->gid_type);
		sa_path_set_dmac(path, reply.roce.dmac);
	}
	path->hop_limit = grh->hop_limit;
	ret = ib_init_ah_attr_from_path(port->dev->ibdev, port->port_num, path,
					&av, grh->sgid_attr);
	rdma_destroy_ah_attr(&reply);
	if (ret)
		return ret;
	return pdcm_mad_set_av(conn, &av, rx->wc.pkey_index);
}

static int pdcm_mad_path_av(struct pdcm_conn *conn, struct sa_path_rec *path,
			    const struct ib_gid_attr *sgid_attr)
{
	struct pdcm_port *port = conn->port;
	struct rdma_ah_attr av;
	u16 index;
	int ret;

	/* a P_Key the port does not have: no connection, as in ib_cm */
	if (ib_find_cached_pkey(port->dev->ibdev, port->port_num,
				be16_to_cpu(path->pkey), &index))
		return -EINVAL;
	ret = ib_init_ah_attr_from_path(port->dev->ibdev, port->port_num, path,
					&av, sgid_attr);
	if (ret)
		return ret;
	return pdcm_mad_set_av(conn, &av, index);
}

/*
 * An alternate path's address: on the port of @port's device that has
 * its source GID (ib_cm looks on every device; an alternate path on
 * another device could not be the QP's), with the path's P_Key there.
 */
static int pdcm_mad_alt_av(struct pdcm_port *port, struct sa_path_rec *path,
			   struct pdcm_alt *alt)
{
	struct pdcm_device *dev = port->dev;
	const struct ib_gid_attr *attr;
	struct pdcm_port *p = NULL;
	u32 i, port_num;
	int ret;

	attr = rdma_find_gid(dev->ibdev, &path->sgid,
			     sa_conv_pathrec_to_gid_type(path), NULL);
	if (IS_ERR(attr))
		return -EINVAL;
	port_num = attr->port_num;
	rdma_put_gid_attr(attr);
	for (i = 0; i < dev->nports; i++)
		if (dev->port[i].port_num == port_num)
			p = &dev->port[i];
	if (!p || ib_find_cached_pkey(dev->ibdev, port_num,
				      be16_to_cpu(path->pkey), &alt->pkey_index))
		return -EINVAL;
	ret = ib_init_ah_attr_from_path(dev->ibdev, port_num, path,
					&alt->ah_attr, NULL);
	if (ret)
		return ret;
	alt->port = p;
	return 0;
}

const struct pdcm_transport_ops pdcm_mad_ops = {
	.send = pdcm_mad_send,
	.cancel = pdcm_mad_cancel,
	.extend = pdcm_mad_extend,
	.reply = pdcm_mad_reply,
	.peer_av = pdcm_mad_peer_av,
	.path_av = pdcm_mad_path_av,
	.alt_av = pdcm_mad_alt_av,
};

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
	struct ib_mad_agent *agent, *rep_agent;
	int ret;

	lockdep_assert_held(&pdcm_devices_mutex);
	set_bit(IB_MGMT_METHOD_SEND, req.method_mask);
	port->ops = &pdcm_mad_ops;
	agent = ib_register_mad_agent(ibdev, port->port_num, IB_QPT_GSI, &req,
				      0, pdcm_mad_send_handler,
				      pdcm_mad_recv_handler, port, 0);
	if (IS_ERR(agent)) {
		port->reg_err = PTR_ERR(agent);
		return port->reg_err;
	}
	port->pd = agent->qp->pd;
	/*
	 * Only where the MAD layer has flow control, which also lets a
	 * send-only agent retry (compat.h); without it REPs share the
	 * agent's limit (@rep_agent)
	 */
	rep_agent = NULL;
	if (PDCM_MAD_REP_AGENT)
		rep_agent = ib_register_mad_agent(ibdev, port->port_num,
						  IB_QPT_GSI, NULL, 0,
						  pdcm_mad_send_handler, NULL,
						  port, 0);
	if (IS_ERR(rep_agent)) {
		dev_warn(&ibdev->dev, "pdcm: port %u: no send-only agent for REPs: %ld\n",
			 port->port_num, PTR_ERR(rep_agent));
		rep_agent = NULL;
	}
	write_lock_irq(&port->agent_lock);
	port->agent = agent;
	port->rep_agent = rep_agent;
	write_unlock_irq(&port->agent_lock);
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
	struct ib_mad_agent *agent, *rep_agent;

	lockdep_assert_held(&pdcm_devices_mutex);
	/* first out of reach of senders, then freed */
	write_lock_irq(&port->agent_lock);
	agent = port->agent;
	rep_agent = port->rep_agent;
	port->agent = NULL;
	port->rep_agent = NULL;
	write_unlock_irq(&port->agent_lock);
	if (!agent)
		return;
	ib_modify_port(port->dev->ibdev, port->port_num, 0, &modify);
	/* each waits for its handlers and completes its MADs in flight */
	if (rep_agent)
		ib_unregister_mad_agent(rep_agent);
	ib_unregister_mad_agent(agent);
}
