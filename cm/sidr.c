// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SIDR: service ID resolution for UD QPs (IBA Vol. 1 12.11).
 *
 * The active side sends a SIDR_REQ (request ID = its local comm ID) and
 * waits, with retries, for the SIDR_REP that names the service's QPN and
 * Q_Key.  The passive side's SIDR_REQ goes through the same listen table
 * as a REQ; duplicates are recognised by (request ID, sender's GID).  A
 * SIDR_REQ for which nothing listens gets SIDR_REP status UNSUPPORTED.
 */
#include <linux/slab.h>

#include "cm.h"
#include "conn.h"
#include "device.h"
#include "fault.h"
#include "listen.h"
#include "remote.h"
#include "trace.h"

/**
 * pdcm_send_sidr_req() - resolve a service ID (active side)
 * @id: an id in IDLE, with a device
 * @param: the request
 *
 * Context: process context; may sleep (address resolution).
 * Return: 0 (the id is in SIDR_REQ_SENT); -EINVAL in the wrong state or
 * for bad parameters; -ENODEV if pdcm does not run on the port; the
 * transport's error.
 */
int pdcm_send_sidr_req(struct pdcm_id *id, const struct pdcm_sidr_req_param *param)
{
	struct pdcm_conn *conn = to_conn(id);
	struct pdcm_msg *m;
	int ret;

	if (!param || !param->path || !id->device || param->max_cm_retries > 15 ||
	    param->private_data_len > PDCM_SIDR_REQ_PDATA_SIZE ||
	    (param->private_data_len && !param->private_data))
		return -EINVAL;
	ret = pdcm_active_begin(conn, PDCM_EV_SEND_SIDR_REQ, param->port,
				param->path, param->sgid_attr);
	if (ret)
		return ret;
	m = pdcm_fail() ? NULL : kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	conn->id.service_id = param->service_id;
	conn->tid = pdcm_new_tid(conn);
	conn->cm_timeout_ms = param->timeout_ms ?: 1000;

	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_SIDR_REQ, conn->tid);
	m->sidr_req.request_id = be32_to_cpu(conn->id.local_id);
	m->sidr_req.pkey = be16_to_cpu(param->path->pkey);
	m->sidr_req.service_id = be64_to_cpu(param->service_id);
	if (param->private_data_len)
		memcpy(m->sidr_req.private_data, param->private_data,
		       param->private_data_len);
	m->sidr_req.private_data_len = param->private_data_len;

	ret = pdcm_active_send(conn, PDCM_EV_SEND_SIDR_REQ, m, conn->cm_timeout_ms,
			       pdcm_retries(param->max_cm_retries));
	kfree(m);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_sidr_req, PDCM_NS(PDCM));

/**
 * pdcm_sidr_reply() - answer a SIDR_REQ outside any id
 * @rx: where the SIDR_REQ came from
 * @req: the SIDR_REQ
 * @status: enum pdcm_sidr_status
 *
 * Context: any that may send a MAD.
 */
void pdcm_sidr_reply(const struct pdcm_rx *rx, const struct pdcm_msg *req,
		     u8 status)
{
	struct pdcm_msg m;

	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REP, req->hdr.tid);
	m.sidr_rep.request_id = req->sidr_req.request_id;
	m.sidr_rep.status = status;
	m.sidr_rep.service_id = req->sidr_req.service_id;
	pdcm_reply(rx, &m);
}

/*
 * Who sent it: the GRH's source GID, decoded by network type (on RoCE v2
 * over IPv4 the buffer holds an IPv4 header, not a GRH), else the LID.
 */
static const union ib_gid *pdcm_sender_gid(const struct pdcm_rx *rx,
					   union ib_gid *buf)
{
	union ib_gid dgid;

	if (pdcm_rx_gids(rx, buf, &dgid))
		return buf;
	memset(buf, 0, sizeof(*buf));
	buf->raw[14] = rx->wc.slid >> 8;
	buf->raw[15] = rx->wc.slid & 0xff;
	return buf;
}

/**
 * pdcm_sidr_req_work() - a SIDR_REQ matched listen @l
 * @l: the listen (the caller holds a reference and the backlog slot,
 *	and a reference on the listening conn, its context)
 * @rx: where it came from
 * @msg: the SIDR_REQ
 *
 * A SIDR_REQ delivered to the ULP keeps its backlog slot until it is
 * answered or its id destroyed, as a REQ's does until it is established:
 * the requests a ULP holds unanswered are bounded by the listen's backlog.
 *
 * Context: pdcm_wq (the SIDR_REQ's own work item).
 * Return: true if the new conn took the slot and @l's reference (the
 * caller forgets both), false if the caller is to give them back.
 */
bool pdcm_sidr_req_work(struct pdcm_listen *l, const struct pdcm_rx *rx,
			const struct pdcm_msg *msg)
{
	const struct pdcm_sidr_req *req = &msg->sidr_req;
	struct pdcm_conn *lconn = pdcm_listen_context(l);
	struct pdcm_event ev = { .event = PDCM_SIDR_REQ_RECEIVED };
	struct pdcm_sidr_req_event_param *p = &ev.param.sidr_req_rcvd;
	struct pdcm_conn *conn, *dup;
	union ib_gid gid;

	if (READ_ONCE(lconn->destroyed)) {	/* the listen went away */
		pdcm_sidr_reply(rx, msg, PDCM_SIDR_UNSUPPORTED);
		return false;
	}
	if (!READ_ONCE(rx->port->agent))
		return false;	/* the device is going away */
	conn = pdcm_conn_alloc(rx->port->dev->ibdev, lconn->id.handler,
			       lconn->id.context, GFP_KERNEL);
	if (!conn)
		return false;	/* the peer retries */
	pdcm_conn_set_port(conn, rx->port);
	conn->tid = msg->hdr.tid;
	conn->id.remote_id = cpu_to_be32(req->request_id);
	conn->id.service_id = cpu_to_be64(req->service_id);
	dup = pdcm_remote_sidr_insert(conn, req->request_id,
				      pdcm_sender_gid(rx, &gid));
	if (dup) {
		pdcm_count(rx->port->cnt.rx_dup, PDCM_ATTR_SIDR_REQ);
		trace_pdcm_drop(PDCM_ATTR_SIDR_REQ, req->request_id, "duplicate");
		pdcm_conn_put(dup);
		pdcm_conn_destroy(conn, false);
		return false;
	}
	if (rx->port->ops->peer_av(conn, rx, NULL)) {
		pdcm_conn_destroy(conn, false);
		return false;
	}
	spin_lock_irq(&conn->lock);
	pdcm_fsm_step(conn, PDCM_EV_RX_SIDR_REQ);
	conn->matched = l;	/* the slot, until the SIDR_REP or destroy */
	spin_unlock_irq(&conn->lock);

	p->listen_id = &lconn->id;
	p->listen_context = lconn->id.context;
	p->service_id = conn->id.service_id;
	p->port = rx->port->port_num;
	p->pkey = req->pkey;
	pdcm_parse_addr(req->private_data, PDCM_SIDR_REQ_PDATA_SIZE,
			conn->id.service_id, &p->addr);
	pdcm_conn_origin(conn, req->pkey, &p->sgid_attr, &p->bth_pkey);
	ev.private_data = req->private_data;
	ev.private_data_len = PDCM_SIDR_REQ_PDATA_SIZE;
	pdcm_conn_get(conn);	/* a destroy from elsewhere waits for the handler */
	pdcm_deliver(conn, &ev);
	pdcm_conn_put(conn);
	return true;
}

/**
 * pdcm_send_sidr_rep() - answer a SIDR_REQ (passive side)
 * @id: an id in SIDR_REQ_RCVD
 * @param: the answer
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is IDLE); -EINVAL in the wrong state or for bad
 * parameters; the transport's error.
 */
int pdcm_send_sidr_rep(struct pdcm_id *id, const struct pdcm_sidr_rep_param *param)
{
	struct pdcm_conn *conn = to_conn(id);
	struct pdcm_listen *matched = NULL;
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if (!param || param->qp_num >> 24 || param->status > PDCM_SIDR_STATUS_MAX ||
	    param->info_length > PDCM_SIDR_REP_INFO_SIZE ||
	    (param->info_length && !param->info) ||
	    param->private_data_len > PDCM_SIDR_REP_PDATA_SIZE ||
	    (param->private_data_len && !param->private_data) ||
	    param->ece.vendor_id >> 16)
		return -EINVAL;
	m = pdcm_fail() ? NULL : kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_SIDR_REP, conn->tid);
	m->hdr.attr_mod = param->ece.attr_mod;	/* ECE, as ib_cm */
	m->sidr_rep.vendor_id = param->ece.vendor_id;
	m->sidr_rep.request_id = be32_to_cpu(conn->id.remote_id);
	m->sidr_rep.status = param->status;
	m->sidr_rep.qpn = param->qp_num;
	m->sidr_rep.qkey = param->qkey;
	m->sidr_rep.service_id = be64_to_cpu(conn->id.service_id);
	if (param->info_length)
		memcpy(m->sidr_rep.info, param->info, param->info_length);
	m->sidr_rep.info_len = param->info_length;
	if (param->private_data_len)
		memcpy(m->sidr_rep.private_data, param->private_data,
		       param->private_data_len);
	m->sidr_rep.private_data_len = param->private_data_len;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_SIDR_REP);
	if (ret >= 0)
		ret = pdcm_xmit(conn, m, 0, 0);
	if (!ret) {
		pdcm_fsm_step(conn, PDCM_EV_SEND_SIDR_REP);
		matched = pdcm_take_matched(conn);
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	pdcm_slot_free(matched);
	if (!ret)	/* answered: a retry (our SIDR_REP lost) is a new request */
		pdcm_remote_unlink(conn);
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_sidr_rep, PDCM_NS(PDCM));

/**
 * pdcm_sidr_rep_rx() - the answer to our SIDR_REQ
 * @conn: the id that sent it
 * @msg: the SIDR_REP
 *
 * Context: the conn's event work.
 */
void pdcm_sidr_rep_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
{
	const struct pdcm_sidr_rep *rep = &msg->sidr_rep;
	struct pdcm_event ev = { .event = PDCM_SIDR_REP_RECEIVED };
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_RX_SIDR_REP);
	if (ret >= 0 && conn->msg)
		conn->port->ops->cancel(conn);
	/* the address the SIDR_REQ left from, as ib_cm's event has it */
	if (conn->ah_valid && (conn->ah_attr.ah_flags & IB_AH_GRH))
		ev.param.sidr_rep_rcvd.sgid_attr = conn->ah_attr.grh.sgid_attr;
	spin_unlock_irq(&conn->lock);
	if (ret < 0) {
		pdcm_count(conn->port->cnt.rx_dup, PDCM_ATTR_SIDR_REP);
		return;
	}
	ev.param.sidr_rep_rcvd.status = rep->status;
	ev.param.sidr_rep_rcvd.qkey = rep->qkey;
	ev.param.sidr_rep_rcvd.qpn = rep->qpn;
	ev.param.sidr_rep_rcvd.info = rep->info;
	ev.param.sidr_rep_rcvd.info_len = rep->info_len;
	ev.private_data = rep->private_data;
	ev.private_data_len = PDCM_SIDR_REP_PDATA_SIZE;
	pdcm_deliver(conn, &ev);
}
