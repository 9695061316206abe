// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Connections: the REQ/MRA/REP/RTU/REJ/DREQ/DREP exchanges of IBA Vol. 1
 * 12.6-12.9 on top of fsm.c's table.
 *
 * Each exchange has one function per direction.  ULP calls (pdcm_send_*)
 * run in the caller's context: they build the message, step the FSM under
 * conn->lock and hand the message to the transport.  Received messages
 * reach the *_rx() functions on pdcm_wq, where they step the FSM and tell
 * the ULP.  Fields that swap meaning between the two sides (initiator
 * depth and responder resources, the two CM response timeouts) are
 * swapped in exactly one place: pdcm_req_to_conn() and pdcm_rep_to_conn().
 *
 * Lock order: conn->lock > the remote tables > the id xarray.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "cm.h"
#include "device.h"
#include "listen.h"
#include "remote.h"
#include "trace.h"

struct workqueue_struct *pdcm_wq;
EXPORT_SYMBOL_IF_KUNIT(pdcm_wq);
static struct pdcm_ltab *pdcm_listens;
static atomic_t pdcm_pending_work = ATOMIC_INIT(0);
static atomic_t pdcm_tid_seq = ATOMIC_INIT(0);

static unsigned int max_cm_retries = 15;
module_param(max_cm_retries, uint, 0444);
MODULE_PARM_DESC(max_cm_retries,
		 "Cap on the CM retries of any message, 0..15 (default 15)");

/**
 * enum pdcm_work_kind - what a work item carries
 * @PDCM_WORK_RX: a received message for an existing conn
 * @PDCM_WORK_REQ: a REQ that matched a listen (no conn yet)
 * @PDCM_WORK_SIDR_REQ: a SIDR_REQ that matched a listen (no conn yet)
 * @PDCM_WORK_SEND_ERROR: the outstanding MAD of a conn failed
 * @PDCM_WORK_USER_EST: pdcm_notify() established the connection
 * @PDCM_WORK_DUP_REQ: a REQ for an existing passive conn (a retry)
 */
enum pdcm_work_kind {
	PDCM_WORK_RX,
	PDCM_WORK_REQ,
	PDCM_WORK_SIDR_REQ,
	PDCM_WORK_SEND_ERROR,
	PDCM_WORK_USER_EST,
	PDCM_WORK_DUP_REQ,
};

struct pdcm_work {
	struct work_struct work;
	enum pdcm_work_kind kind;
	struct pdcm_conn *conn;
	struct pdcm_listen *listen;
	enum ib_wc_status status;
	struct pdcm_rx rx;
	struct pdcm_msg msg;
};

u64 pdcm_new_tid(struct pdcm_conn *conn)
{
	return (u64)atomic_inc_return(&pdcm_tid_seq) << 32 |
	       be32_to_cpu(conn->id.local_id);
}

u64 pdcm_node_guid(struct pdcm_port *port)
{
	return be64_to_cpu(port->dev->ibdev->node_guid);
}

/* ---- work items ---------------------------------------------------- */

static void pdcm_work_fn(struct work_struct *work);

static struct pdcm_work *pdcm_work_alloc(struct pdcm_port *port,
					 enum pdcm_work_kind kind)
{
	struct pdcm_work *w;

	if (atomic_inc_return(&pdcm_pending_work) > PDCM_MAX_PENDING_WORK) {
		atomic_dec(&pdcm_pending_work);
		if (port)
			atomic_long_inc(&port->cnt.rx_dropped);
		return NULL;
	}
	w = kzalloc(sizeof(*w), GFP_ATOMIC);
	if (!w) {
		atomic_dec(&pdcm_pending_work);
		return NULL;
	}
	INIT_WORK(&w->work, pdcm_work_fn);
	w->kind = kind;
	return w;
}

static void pdcm_work_free(struct pdcm_work *w)
{
	if (w->conn)
		pdcm_conn_put(w->conn);
	if (w->listen)
		pdcm_listen_put(w->listen);
	kfree(w);
	atomic_dec(&pdcm_pending_work);
}

static void pdcm_work_queue(struct pdcm_work *w)
{
	queue_work(pdcm_wq, &w->work);
}

/* ---- sending ------------------------------------------------------- */

int pdcm_xmit(struct pdcm_conn *conn, struct pdcm_msg *msg,
	      unsigned int timeout_ms, unsigned int retries)
{
	int ret;

	ret = conn->port->ops->send(conn, msg, timeout_ms, retries);
	if (!ret) {
		pdcm_count(conn->port->cnt.tx, msg->hdr.attr_id);
		trace_pdcm_mad(true, msg->hdr.attr_id,
			       be32_to_cpu(conn->id.local_id),
			       be32_to_cpu(conn->id.remote_id), msg->hdr.tid);
	}
	return ret;
}

void pdcm_reply(const struct pdcm_rx *rx, struct pdcm_msg *msg)
{
	if (!rx->port->ops->reply(rx, msg))
		pdcm_count(rx->port->cnt.tx, msg->hdr.attr_id);
}

/* Stop the outstanding retried MAD, if any. */
static void pdcm_cancel(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	lockdep_assert_held(&conn->lock);
	if (conn->msg)
		conn->port->ops->cancel(conn);
}

unsigned int pdcm_retries(u8 wanted)
{
	return min_t(unsigned int, wanted, min(max_cm_retries, 15U));
}

static void pdcm_rej_msg(struct pdcm_msg *m, u64 tid, u32 local_id,
			 u32 remote_id, u8 msg_rejected, u16 reason,
			 const void *ari, u8 ari_len, const void *pdata, u8 len)
{
	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REJ, tid);
	m->rej.local_comm_id = local_id;
	m->rej.remote_comm_id = remote_id;
	m->rej.msg_rejected = msg_rejected;
	m->rej.reason = reason;
	if (ari_len)
		memcpy(m->rej.ari, ari, ari_len);
	m->rej.ari_len = ari_len;
	if (len)
		memcpy(m->rej.private_data, pdata, len);
	m->rej.private_data_len = len;
	trace_pdcm_send_rej(local_id, remote_id, reason);
}

/* Answer a REQ nobody will own: REJ with local comm ID 0. */
static void pdcm_reject_req(const struct pdcm_rx *rx, const struct pdcm_req *req,
			    u64 tid, u16 reason)
{
	struct pdcm_msg m;

	pdcm_rej_msg(&m, tid, 0, req->local_comm_id, PDCM_MSG_RESPONSE_REQ,
		     reason, NULL, 0, NULL, 0);
	pdcm_reply(rx, &m);
}

/* The message we are answering or rejecting, as MRA and REJ name it. */
static u8 pdcm_msg_of_state(enum pdcm_state state)
{
	switch (state) {
	case PDCM_REQ_RCVD:
	case PDCM_MRA_REQ_SENT:
		return PDCM_MSG_RESPONSE_REQ;
	case PDCM_REP_RCVD:
	case PDCM_MRA_REP_SENT:
		return PDCM_MSG_RESPONSE_REP;
	default:
		return PDCM_MSG_RESPONSE_OTHER;
	}
}

/* ---- delivering events --------------------------------------------- */

static void pdcm_destroy_protocol(struct pdcm_conn *conn, bool enomem);

/*
 * Call the ULP's handler.  Only on pdcm_wq, which serialises every event
 * of every id.  A non-zero return destroys the conn, without waiting.
 */
void pdcm_deliver(struct pdcm_conn *conn, struct pdcm_event *ev)
{
	int ret;

	if (READ_ONCE(conn->destroyed))
		return;
	ret = conn->id.handler(&conn->id, ev);
	if (!ret)
		return;
	spin_lock_irq(&conn->lock);
	if (conn->destroyed) {
		spin_unlock_irq(&conn->lock);
		return;
	}
	conn->destroyed = true;
	spin_unlock_irq(&conn->lock);
	pdcm_destroy_protocol(conn, ret == -ENOMEM);
	pdcm_conn_destroy(conn, false);
}

static void pdcm_deliver_simple(struct pdcm_conn *conn,
				enum pdcm_event_type type, const void *pdata,
				u8 len)
{
	struct pdcm_event ev = {
		.event = type,
		.private_data = pdata,
		.private_data_len = len,
	};

	pdcm_deliver(conn, &ev);
}

/* ---- timewait ------------------------------------------------------ */

static void pdcm_enter_timewait(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	unsigned int ms = pdcm_timeout_ms(conn->local_ack_timeout) * 2;

	lockdep_assert_held(&conn->lock);
	pdcm_conn_get(conn);
	if (!mod_delayed_work(pdcm_wq, &conn->timewait_work,
			      msecs_to_jiffies(max(ms, 100U))))
		return;
	pdcm_conn_put(conn);	/* was already pending: keep one reference */
}

/**
 * pdcm_timewait_work() - TIMEWAIT is over
 * @work: the conn's timewait_work
 *
 * Context: pdcm_wq.
 */
void pdcm_timewait_work(struct work_struct *work)
{
	struct pdcm_conn *conn = container_of(to_delayed_work(work),
					      struct pdcm_conn, timewait_work);
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_TIMEWAIT_DONE);
	spin_unlock_irq(&conn->lock);
	if (ret >= 0) {
		pdcm_remote_unlink(conn);
		pdcm_deliver_simple(conn, PDCM_TIMEWAIT_EXIT, NULL, 0);
	}
	pdcm_conn_put(conn);
}

/* ---- ids ------------------------------------------------------------ */

/**
 * pdcm_create_id() - allocate a connection endpoint
 * @device: the RDMA device, or NULL for a listen on every device
 * @handler: called for every event of the id
 * @context: the ULP's pointer, in @id->context
 *
 * Context: process context; may sleep.
 * Return: the id (state IDLE) or ERR_PTR(-ENOMEM / -EINVAL).
 */
struct pdcm_id *pdcm_create_id(struct ib_device *device, pdcm_handler handler,
			       void *context)
{
	struct pdcm_conn *conn;
	int ret;

	if (!handler)
		return ERR_PTR(-EINVAL);
	conn = pdcm_conn_alloc(device, handler, context, GFP_KERNEL);
	if (!conn)
		return ERR_PTR(-ENOMEM);
	ret = pdcm_conn_hash(conn);
	if (ret) {
		pdcm_conn_destroy(conn, true);
		return ERR_PTR(ret);
	}
	return &conn->id;
}
EXPORT_SYMBOL_NS_GPL(pdcm_create_id, PDCM);

/*
 * What the protocol requires of a conn that goes away in its state:
 * REJ TIMEOUT while our REQ is unanswered, REJ CONSUMER_DEFINED in the
 * middle of a handshake, DREQ when connected, DREP when asked to leave,
 * a SIDR_REP REJECT to an unanswered SIDR_REQ.  -ENOMEM from a handler
 * sends nothing, so that the peer retries.
 */
static void pdcm_destroy_protocol(struct pdcm_conn *conn, bool enomem)
{
	enum pdcm_state state;
	struct pdcm_msg m;
	bool send = false;
	__be64 guid;

	spin_lock_irq(&conn->lock);
	state = conn->id.state;
	pdcm_cancel(conn);
	conn->id.state = PDCM_IDLE;
	spin_unlock_irq(&conn->lock);

	if (state == PDCM_LISTEN && conn->listen) {
		/*
		 * Unlinked, then a grace period: a lookup that found the
		 * listen before has taken its reference on this conn by now
		 * (pdcm_rx_req()), so the destroyer's wait covers it.  The
		 * listen itself may live on in unanswered children, which
		 * hold it for their backlog slot only and never touch us.
		 */
		pdcm_ltab_remove(pdcm_listens, conn->listen);
		synchronize_rcu();
		pdcm_listen_put(conn->listen);
		conn->listen = NULL;
		return;
	}
	if (conn->matched) {
		pdcm_listen_retire(conn->matched);
		pdcm_listen_put(conn->matched);
		conn->matched = NULL;
	}
	if (enomem || !conn->port)
		return;

	switch (state) {
	case PDCM_REQ_SENT:
	case PDCM_MRA_REQ_RCVD:
		guid = cpu_to_be64(pdcm_node_guid(conn->port));
		pdcm_rej_msg(&m, conn->tid, be32_to_cpu(conn->id.local_id), 0,
			     PDCM_MSG_RESPONSE_OTHER, PDCM_REJ_TIMEOUT,
			     &guid, sizeof(guid), NULL, 0);
		send = true;
		break;
	case PDCM_REQ_RCVD:
	case PDCM_MRA_REQ_SENT:
	case PDCM_REP_SENT:
	case PDCM_MRA_REP_RCVD:
	case PDCM_REP_RCVD:
	case PDCM_MRA_REP_SENT:
		pdcm_rej_msg(&m, conn->tid,
			     state == PDCM_REQ_RCVD ? 0 : be32_to_cpu(conn->id.local_id),
			     be32_to_cpu(conn->id.remote_id),
			     pdcm_msg_of_state(state), PDCM_REJ_CONSUMER_DEFINED,
			     NULL, 0, NULL, 0);
		send = true;
		break;
	case PDCM_ESTABLISHED:
		memset(&m, 0, sizeof(m));
		pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_DREQ, pdcm_new_tid(conn));
		m.dreq.local_comm_id = be32_to_cpu(conn->id.local_id);
		m.dreq.remote_comm_id = be32_to_cpu(conn->id.remote_id);
		m.dreq.remote_qpn_eecn = conn->remote_qpn;
		send = true;
		break;
	case PDCM_DREQ_RCVD:
		memset(&m, 0, sizeof(m));
		pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_DREP, conn->tid);
		m.drep.local_comm_id = be32_to_cpu(conn->id.local_id);
		m.drep.remote_comm_id = be32_to_cpu(conn->id.remote_id);
		send = true;
		break;
	case PDCM_SIDR_REQ_RCVD:
		memset(&m, 0, sizeof(m));
		pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_SIDR_REP, conn->tid);
		m.sidr_rep.request_id = be32_to_cpu(conn->id.remote_id);
		m.sidr_rep.status = PDCM_SIDR_REJECT;
		m.sidr_rep.service_id = be64_to_cpu(conn->id.service_id);
		send = true;
		break;
	default:
		break;
	}
	if (send)
		pdcm_xmit(conn, &m, 0, 0);
}

/**
 * pdcm_destroy_id() - destroy an id in any state
 * @id: the id; not to be used afterwards
 *
 * Sends what the protocol requires in the id's state (see
 * pdcm_destroy_protocol()), waits for a handler of the id that is running
 * and for every MAD in flight, and frees the id.  Must not be called from
 * the id's own handler: return non-zero from the handler instead.
 *
 * Context: process context; sleeps.
 */
void pdcm_destroy_id(struct pdcm_id *id)
{
	struct pdcm_conn *conn = to_conn(id);

	spin_lock_irq(&conn->lock);
	WARN_ON(conn->destroyed);
	conn->destroyed = true;
	spin_unlock_irq(&conn->lock);
	pdcm_destroy_protocol(conn, false);
	pdcm_conn_destroy(conn, true);
}
EXPORT_SYMBOL_NS_GPL(pdcm_destroy_id, PDCM);

/* ---- listen --------------------------------------------------------- */

/**
 * pdcm_listen() - listen for REQs and SIDR_REQs on an id
 * @id: an id in IDLE
 * @attr: what to match (service ID, mask, private-data compare, port,
 *	backlog); see struct pdcm_listen_attr
 *
 * REQ and SIDR_REQ events for the listen arrive at @id's handler on a new
 * id each, whose handler and context start as @id's.
 *
 * Context: process context; may sleep.
 * Return: 0; -EINVAL in the wrong state or for bad attributes;
 * -EADDRINUSE if the listen is identical to, or ambiguous with, one that
 * exists (Documentation/listen-matching.rst); -ENOMEM.
 */
int pdcm_listen(struct pdcm_id *id, const struct pdcm_listen_attr *attr)
{
	struct pdcm_conn *conn = to_conn(id);
	struct pdcm_listen *l;
	int ret;

	if (!attr)
		return -EINVAL;
	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_LISTEN);
	spin_unlock_irq(&conn->lock);
	if (ret < 0)
		return ret;

	/* The table's entry holds no reference on conn: see destroy. */
	l = pdcm_ltab_insert(pdcm_listens, id->device, attr, conn);
	if (IS_ERR(l))
		return PTR_ERR(l);
	spin_lock_irq(&conn->lock);
	conn->listen = l;
	conn->id.service_id = pdcm_listen_service_id(l);
	pdcm_fsm_step(conn, PDCM_EV_LISTEN);
	spin_unlock_irq(&conn->lock);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_listen, PDCM);

static void pdcm_listen_release(void *context)
{
	/* the listening conn was not held by its entry: nothing to drop */
}

/* ---- REQ ------------------------------------------------------------ */

static int pdcm_check_pdata(const void *pdata, u8 len, unsigned int max)
{
	return (len > max || (len && !pdata)) ? -EINVAL : 0;
}

static enum ib_qp_type pdcm_qp_type_of(const struct pdcm_req *req)
{
	switch (req->transport_type) {
	case PDCM_TRANSPORT_UC:
		return IB_QPT_UC;
	case PDCM_TRANSPORT_EXT:
		return IB_QPT_XRC_TGT;
	default:
		return IB_QPT_RC;
	}
}

/**
 * pdcm_send_req() - start a connection (active side)
 * @id: an id in IDLE, created on the device of @param->primary_path
 * @param: what to ask for
 *
 * Context: process context; may sleep (address resolution).
 * Return: 0 (the id is in REQ_SENT); -EINVAL in the wrong state or for
 * bad parameters (QPN or PSN over 24 bits, private data over 92 bytes,
 * timeouts over 31, retries over 15); -ENODEV if pdcm does not run on the
 * port; the transport's error.
 */
int pdcm_send_req(struct pdcm_id *id, const struct pdcm_req_param *param)
{
	struct pdcm_conn *conn = to_conn(id);
	struct sa_path_rec *path = param ? param->primary_path : NULL;
	struct pdcm_port *port;
	struct pdcm_msg *m;
	unsigned int timeout;
	int ret;

	if (!param || !path || !id->device || param->qp_num >> 24 ||
	    param->starting_psn >> 24 || param->remote_cm_response_timeout > 31 ||
	    param->local_cm_response_timeout > 31 || param->retry_count > 7 ||
	    param->rnr_retry_count > 7 || param->max_cm_retries > 15 ||
	    pdcm_check_pdata(param->private_data, param->private_data_len,
			     PDCM_REQ_PDATA_SIZE))
		return -EINVAL;
	if (param->qp_type != IB_QPT_RC && param->qp_type != IB_QPT_UC &&
	    param->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_REQ);
	spin_unlock_irq(&conn->lock);
	if (ret < 0)
		return ret;

	port = pdcm_port_find(id->device, param->port);
	if (!port)
		return -ENODEV;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	conn->port = port;
	ret = port->ops->path_av(conn, path);
	if (ret)
		goto out;

	conn->id.service_id = param->service_id;
	conn->local_qpn = param->qp_num;
	conn->sq_psn = param->starting_psn;
	conn->qp_type = param->qp_type;
	conn->path_mtu = path->mtu;
	conn->responder_resources = param->responder_resources;
	conn->initiator_depth = param->initiator_depth;
	conn->retry_count = param->retry_count;
	conn->rnr_retry_count = param->rnr_retry_count;
	conn->local_ack_timeout = min_t(u8, path->packet_life_time + 1, 31);
	conn->max_cm_retries = param->max_cm_retries;
	conn->tid = pdcm_new_tid(conn);
	/* We wait 2 * packet lifetime + the peer's response time per try. */
	timeout = 2 * pdcm_timeout_ms(path->packet_life_time) +
		  pdcm_timeout_ms(param->remote_cm_response_timeout);
	conn->cm_timeout_ms = timeout;

	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REQ, conn->tid);
	m->req.local_comm_id = be32_to_cpu(conn->id.local_id);
	m->req.service_id = be64_to_cpu(param->service_id);
	m->req.local_ca_guid = pdcm_node_guid(port);
	m->req.local_qpn = param->qp_num;
	m->req.responder_resources = param->responder_resources;
	m->req.initiator_depth = param->initiator_depth;
	m->req.remote_cm_response_timeout = param->remote_cm_response_timeout;
	m->req.transport_type = param->qp_type == IB_QPT_UC ? PDCM_TRANSPORT_UC :
				param->qp_type == IB_QPT_XRC_INI ? PDCM_TRANSPORT_EXT :
				PDCM_TRANSPORT_RC;
	m->req.ext_transport_type = param->qp_type == IB_QPT_XRC_INI ?
				    PDCM_EXT_TRANSPORT_XRC : 0;
	m->req.end_to_end_flow_control = !!param->flow_control;
	m->req.starting_psn = param->starting_psn;
	m->req.local_cm_response_timeout = param->local_cm_response_timeout;
	m->req.retry_count = param->retry_count;
	m->req.pkey = be16_to_cpu(path->pkey);
	m->req.path_mtu = path->mtu;
	m->req.rnr_retry_count = param->rnr_retry_count;
	m->req.max_cm_retries = param->max_cm_retries;
	m->req.srq = !!param->srq;
	pdcm_path_to_wire(path, &m->req.primary_path, conn->local_ack_timeout);
	if (param->private_data_len)
		memcpy(m->req.private_data, param->private_data,
		       param->private_data_len);
	m->req.private_data_len = param->private_data_len;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_SEND_REQ);
	spin_unlock_irq(&conn->lock);
	if (ret < 0)
		goto out;
	ret = pdcm_xmit(conn, m, timeout, pdcm_retries(param->max_cm_retries));
	if (ret) {
		spin_lock_irq(&conn->lock);
		conn->id.state = PDCM_IDLE;
		spin_unlock_irq(&conn->lock);
	}
out:
	kfree(m);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_req, PDCM);

/*
 * The REQ's fields into a new passive conn, swapped into the receiver's
 * terms once, here.
 */
static void pdcm_req_to_conn(struct pdcm_conn *conn, const struct pdcm_req *req)
{
	conn->id.remote_id = cpu_to_be32(req->local_comm_id);
	conn->id.service_id = cpu_to_be64(req->service_id);
	conn->remote_ca_guid = req->local_ca_guid;
	conn->remote_qpn = req->local_qpn;
	conn->rq_psn = req->starting_psn;
	conn->qp_type = pdcm_qp_type_of(req);
	conn->path_mtu = req->path_mtu;
	conn->responder_resources = req->initiator_depth;
	conn->initiator_depth = req->responder_resources;
	conn->retry_count = req->retry_count;
	conn->rnr_retry_count = req->rnr_retry_count;
	conn->local_ack_timeout = req->primary_path.local_ack_timeout;
	conn->max_cm_retries = req->max_cm_retries;
	/* The active side answers within its local CM response timeout. */
	conn->cm_timeout_ms = pdcm_timeout_ms(req->local_cm_response_timeout);
}

static void pdcm_req_event(struct pdcm_conn *conn, const struct pdcm_req *req,
			   struct pdcm_listen *l, struct pdcm_event *ev,
			   struct sa_path_rec *path)
{
	struct pdcm_req_event_param *p = &ev->param.req_rcvd;
	struct pdcm_conn *lconn = pdcm_listen_context(l);

	ev->event = PDCM_REQ_RECEIVED;
	ev->private_data = req->private_data;
	ev->private_data_len = PDCM_REQ_PDATA_SIZE;
	p->listen_id = &lconn->id;
	p->listen_context = lconn->id.context;
	p->port = conn->port->port_num;
	pdcm_wire_to_path(&req->primary_path, req,
			  rdma_protocol_roce(conn->port->dev->ibdev,
					     conn->port->port_num), path);
	p->primary_path = path;
	p->remote_ca_guid = cpu_to_be64(req->local_ca_guid);
	p->remote_qkey = req->local_qkey;
	p->remote_qpn = req->local_qpn;
	p->qp_type = conn->qp_type;
	p->starting_psn = req->starting_psn;
	p->responder_resources = conn->responder_resources;
	p->initiator_depth = conn->initiator_depth;
	p->local_cm_response_timeout = req->remote_cm_response_timeout;
	p->remote_cm_response_timeout = req->local_cm_response_timeout;
	p->flow_control = req->end_to_end_flow_control;
	p->retry_count = req->retry_count;
	p->rnr_retry_count = req->rnr_retry_count;
	p->srq = req->srq;
	pdcm_parse_addr(req->private_data, PDCM_REQ_PDATA_SIZE,
			conn->id.service_id, &p->addr);
}

/* A second copy of a REQ we already own: answer as its state says. */
static void pdcm_dup_req(struct pdcm_conn *dup, const struct pdcm_rx *rx,
			 const struct pdcm_msg *msg)
{
	struct pdcm_msg m;
	enum pdcm_state state;
	u8 mra;

	pdcm_count(rx->port->cnt.rx_dup, PDCM_ATTR_REQ);
	spin_lock_irq(&dup->lock);
	state = dup->id.state;
	mra = dup->mra_timeout;
	dup->mra_timeout &= ~PDCM_MRA_FLAG_DELAY;
	spin_unlock_irq(&dup->lock);

	switch (state) {
	case PDCM_MRA_REQ_SENT:
		/* the first MRA of a delayed one goes out now */
		memset(&m, 0, sizeof(m));
		pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_MRA, dup->tid);
		m.mra.local_comm_id = be32_to_cpu(dup->id.local_id);
		m.mra.remote_comm_id = be32_to_cpu(dup->id.remote_id);
		m.mra.msg_mraed = PDCM_MSG_RESPONSE_REQ;
		m.mra.service_timeout = mra & 0x1f;
		pdcm_xmit(dup, &m, 0, 0);
		break;
	case PDCM_TIMEWAIT:
		pdcm_reject_req(rx, &msg->req, msg->hdr.tid, PDCM_REJ_STALE_CONN);
		break;
	default:
		trace_pdcm_drop(PDCM_ATTR_REQ, msg->req.local_comm_id,
				"duplicate");
		break;
	}
}

static void pdcm_req_work(struct pdcm_work *w)
{
	const struct pdcm_req *req = &w->msg.req;
	struct pdcm_conn *conn, *old;
	struct sa_path_rec path;
	struct pdcm_event ev = {};
	struct pdcm_conn *lconn = w->conn;

	if (READ_ONCE(lconn->destroyed)) {	/* the listen went away */
		pdcm_reject_req(&w->rx, req, w->msg.hdr.tid,
				PDCM_REJ_INVALID_SERVICE_ID);
		pdcm_listen_retire(w->listen);
		return;
	}
	old = pdcm_remote_id_find(req->local_comm_id, req->local_ca_guid);
	if (old) {
		pdcm_dup_req(old, &w->rx, &w->msg);
		pdcm_conn_put(old);
		pdcm_listen_retire(w->listen);
		return;
	}

	conn = pdcm_conn_alloc(w->rx.port->dev->ibdev, lconn->id.handler,
			       lconn->id.context, GFP_KERNEL);
	if (!conn)
		goto no_conn;
	conn->port = w->rx.port;
	conn->tid = w->msg.hdr.tid;
	pdcm_req_to_conn(conn, req);
	if (pdcm_conn_hash(conn) || w->rx.port->ops->peer_av(conn, &w->rx)) {
		pdcm_conn_destroy(conn, true);
		goto no_conn;
	}
	spin_lock_irq(&conn->lock);
	pdcm_fsm_step(conn, PDCM_EV_RX_REQ);
	spin_unlock_irq(&conn->lock);

	old = pdcm_remote_id_insert(conn);
	if (old) {		/* cannot happen on the ordered queue */
		pdcm_conn_put(old);
		goto reject;
	}
	old = pdcm_remote_qp_insert(conn);
	if (old) {
		/* A new REQ from a QP we think is connected: both are stale. */
		pdcm_send_dreq(&old->id, NULL, 0);
		pdcm_conn_put(old);
		pdcm_reject_req(&w->rx, req, w->msg.hdr.tid, PDCM_REJ_STALE_CONN);
		goto drop_conn;
	}

	conn->matched = w->listen;	/* holds the backlog slot */
	w->listen = NULL;
	pdcm_req_event(conn, req, conn->matched, &ev, &path);
	pdcm_deliver(conn, &ev);	/* the ULP owns the conn now */
	return;

reject:
	pdcm_reject_req(&w->rx, req, w->msg.hdr.tid, PDCM_REJ_NO_RESOURCES);
drop_conn:
	spin_lock_irq(&conn->lock);
	conn->destroyed = true;
	conn->id.state = PDCM_IDLE;
	spin_unlock_irq(&conn->lock);
	pdcm_conn_destroy(conn, true);
	pdcm_listen_retire(w->listen);
	return;
no_conn:
	/* No answer: the peer retries, as after -ENOMEM in a handler. */
	pdcm_listen_retire(w->listen);
}

/* ---- MRA ------------------------------------------------------------ */

/**
 * pdcm_send_mra() - ask the peer for more time
 * @id: an id in REQ_RCVD, REP_RCVD (or already MRAed)
 * @service_timeout: the time asked for (5 bits), optionally ORed with
 *	PDCM_MRA_FLAG_DELAY: then the MRA goes on the wire only when a
 *	duplicate of the peer's message arrives (rdma_cm's behaviour)
 * @private_data: up to 222 bytes, or NULL
 * @len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0, -EINVAL in the wrong state or for bad parameters, or the
 * transport's error.
 */
int pdcm_send_mra(struct pdcm_id *id, u8 service_timeout,
		  const void *private_data, u8 len)
{
	struct pdcm_conn *conn = to_conn(id);
	bool delay = service_timeout & PDCM_MRA_FLAG_DELAY;
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if ((service_timeout & ~PDCM_MRA_FLAG_DELAY) > 31 ||
	    pdcm_check_pdata(private_data, len, PDCM_MRA_PDATA_SIZE))
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_MRA, conn->tid);
	m->mra.local_comm_id = be32_to_cpu(conn->id.local_id);
	m->mra.remote_comm_id = be32_to_cpu(conn->id.remote_id);
	m->mra.msg_mraed = pdcm_msg_of_state(conn->id.state);
	m->mra.service_timeout = service_timeout & 0x1f;
	if (len)
		memcpy(m->mra.private_data, private_data, len);
	m->mra.private_data_len = len;
	ret = pdcm_fsm_step(conn, PDCM_EV_SEND_MRA);
	if (ret >= 0)
		conn->mra_timeout = service_timeout;
	spin_unlock_irqrestore(&conn->lock, flags);
	if (ret >= 0)
		ret = delay ? 0 : pdcm_xmit(conn, m, 0, 0);
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_mra, PDCM);

static void pdcm_mra_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
{
	const struct pdcm_mra *mra = &msg->mra;
	struct pdcm_event ev = { .event = PDCM_MRA_RECEIVED };
	unsigned int extra;
	bool ok;
	int ret;

	spin_lock_irq(&conn->lock);
	ok = (mra->msg_mraed == PDCM_MSG_RESPONSE_REQ &&
	      (conn->id.state == PDCM_REQ_SENT ||
	       conn->id.state == PDCM_MRA_REQ_RCVD)) ||
	     (mra->msg_mraed == PDCM_MSG_RESPONSE_REP &&
	      (conn->id.state == PDCM_REP_SENT ||
	       conn->id.state == PDCM_MRA_REP_RCVD));
	ret = ok ? pdcm_fsm_step(conn, PDCM_EV_RX_MRA) : -EINVAL;
	if (ret >= 0 && conn->msg) {
		/* the peer's extra time, plus the packet's round trip */
		extra = pdcm_timeout_ms(mra->service_timeout) +
			pdcm_timeout_ms(conn->local_ack_timeout);
		conn->port->ops->extend(conn, extra);
	}
	spin_unlock_irq(&conn->lock);
	if (ret < 0) {
		pdcm_count(conn->port->cnt.rx_dup, PDCM_ATTR_MRA);
		return;
	}
	ev.param.mra_rcvd.service_timeout = mra->service_timeout;
	ev.private_data = mra->private_data;
	ev.private_data_len = PDCM_MRA_PDATA_SIZE;
	pdcm_deliver(conn, &ev);
}

/* ---- REP ------------------------------------------------------------ */

/**
 * pdcm_send_rep() - accept a connection (passive side)
 * @id: an id in REQ_RCVD or MRA_REQ_SENT
 * @param: what to answer
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in REP_SENT); -EINVAL in the wrong state or for
 * bad parameters; the transport's error.
 */
int pdcm_send_rep(struct pdcm_id *id, const struct pdcm_rep_param *param)
{
	struct pdcm_conn *conn = to_conn(id);
	struct pdcm_listen *matched;
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if (!param || param->qp_num >> 24 || param->starting_psn >> 24 ||
	    param->failover_accepted > 2 || param->rnr_retry_count > 7 ||
	    pdcm_check_pdata(param->private_data, param->private_data_len,
			     PDCM_REP_PDATA_SIZE))
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_REP);
	if (ret < 0) {
		spin_unlock_irqrestore(&conn->lock, flags);
		kfree(m);
		return ret;
	}
	conn->local_qpn = param->qp_num;
	conn->sq_psn = param->starting_psn;
	conn->responder_resources = param->responder_resources;
	conn->initiator_depth = param->initiator_depth;
	conn->rnr_retry_count = param->rnr_retry_count;
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REP, conn->tid);
	m->rep.local_comm_id = be32_to_cpu(conn->id.local_id);
	m->rep.remote_comm_id = be32_to_cpu(conn->id.remote_id);
	m->rep.local_qpn = param->qp_num;
	m->rep.starting_psn = param->starting_psn;
	m->rep.responder_resources = param->responder_resources;
	m->rep.initiator_depth = param->initiator_depth;
	m->rep.target_ack_delay = conn->local_ack_timeout;
	m->rep.failover_accepted = param->failover_accepted;
	m->rep.end_to_end_flow_control = !!param->flow_control;
	m->rep.rnr_retry_count = param->rnr_retry_count;
	m->rep.srq = !!param->srq;
	m->rep.local_ca_guid = pdcm_node_guid(conn->port);
	if (param->private_data_len)
		memcpy(m->rep.private_data, param->private_data,
		       param->private_data_len);
	m->rep.private_data_len = param->private_data_len;
	pdcm_fsm_step(conn, PDCM_EV_SEND_REP);
	matched = conn->matched;
	conn->matched = NULL;
	spin_unlock_irqrestore(&conn->lock, flags);

	if (matched) {		/* answered: the backlog slot is free */
		pdcm_listen_retire(matched);
		pdcm_listen_put(matched);
	}
	ret = pdcm_xmit(conn, m, conn->cm_timeout_ms,
			pdcm_retries(conn->max_cm_retries));
	kfree(m);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_rep, PDCM);

static void pdcm_rep_to_conn(struct pdcm_conn *conn, const struct pdcm_rep *rep)
{
	conn->id.remote_id = cpu_to_be32(rep->local_comm_id);
	conn->remote_ca_guid = rep->local_ca_guid;
	conn->remote_qpn = rep->local_qpn;
	conn->rq_psn = rep->starting_psn;
	/* the REP grants us what it calls its initiator depth, and v.v. */
	conn->responder_resources = min(conn->responder_resources,
					rep->initiator_depth);
	conn->initiator_depth = min(conn->initiator_depth,
				    rep->responder_resources);
	conn->rnr_retry_count = rep->rnr_retry_count;
}

/* A REP we already have: the RTU (or MRA) was lost, send it again. */
static void pdcm_dup_rep(struct pdcm_conn *conn)
{
	struct pdcm_msg m;
	enum pdcm_state state;

	pdcm_count(conn->port->cnt.rx_dup, PDCM_ATTR_REP);
	spin_lock_irq(&conn->lock);
	state = conn->id.state;
	spin_unlock_irq(&conn->lock);
	memset(&m, 0, sizeof(m));
	if (state == PDCM_ESTABLISHED) {
		pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_RTU, conn->tid);
		m.rtu.local_comm_id = be32_to_cpu(conn->id.local_id);
		m.rtu.remote_comm_id = be32_to_cpu(conn->id.remote_id);
	} else if (state == PDCM_MRA_REP_SENT) {
		pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_MRA, conn->tid);
		m.mra.local_comm_id = be32_to_cpu(conn->id.local_id);
		m.mra.remote_comm_id = be32_to_cpu(conn->id.remote_id);
		m.mra.msg_mraed = PDCM_MSG_RESPONSE_REP;
		m.mra.service_timeout = conn->mra_timeout & 0x1f;
	} else {
		return;
	}
	pdcm_xmit(conn, &m, 0, 0);
}

static void pdcm_rep_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
			const struct pdcm_msg *msg)
{
	const struct pdcm_rep *rep = &msg->rep;
	struct pdcm_event ev = { .event = PDCM_REP_RECEIVED };
	struct pdcm_rep_event_param *p = &ev.param.rep_rcvd;
	struct pdcm_conn *old;
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_RX_REP);
	if (ret >= 0) {
		pdcm_cancel(conn);
		pdcm_rep_to_conn(conn, rep);
		pdcm_fsm_step(conn, PDCM_EV_RX_REP);
	}
	spin_unlock_irq(&conn->lock);
	if (ret < 0) {
		pdcm_dup_rep(conn);
		return;
	}
	old = pdcm_remote_qp_insert(conn);
	if (old) {
		/* The passive QP is still connected to someone: stale. */
		pdcm_conn_put(old);
		pdcm_send_rej(&conn->id, PDCM_REJ_STALE_CONN, NULL, 0, NULL, 0);
		ev.event = PDCM_REJ_RECEIVED;
		ev.param.rej_rcvd.reason = PDCM_REJ_STALE_CONN;
		pdcm_deliver(conn, &ev);
		return;
	}
	old = pdcm_remote_id_insert(conn);
	if (old)
		pdcm_conn_put(old);

	p->remote_ca_guid = cpu_to_be64(rep->local_ca_guid);
	p->remote_qkey = rep->local_qkey;
	p->remote_qpn = rep->local_qpn;
	p->starting_psn = rep->starting_psn;
	p->responder_resources = conn->responder_resources;
	p->initiator_depth = conn->initiator_depth;
	p->target_ack_delay = rep->target_ack_delay;
	p->failover_accepted = rep->failover_accepted;
	p->flow_control = rep->end_to_end_flow_control;
	p->rnr_retry_count = rep->rnr_retry_count;
	p->srq = rep->srq;
	ev.private_data = rep->private_data;
	ev.private_data_len = PDCM_REP_PDATA_SIZE;
	pdcm_deliver(conn, &ev);
}

/* ---- RTU ------------------------------------------------------------ */

/**
 * pdcm_send_rtu() - complete the handshake (active side)
 * @id: an id in REP_RCVD or MRA_REP_SENT
 * @private_data: up to 224 bytes, or NULL
 * @len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is ESTABLISHED); -EINVAL in the wrong state or for
 * too much private data; the transport's error.
 */
int pdcm_send_rtu(struct pdcm_id *id, const void *private_data, u8 len)
{
	struct pdcm_conn *conn = to_conn(id);
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if (pdcm_check_pdata(private_data, len, PDCM_RTU_PDATA_SIZE))
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_RTU, conn->tid);
	m->rtu.local_comm_id = be32_to_cpu(conn->id.local_id);
	m->rtu.remote_comm_id = be32_to_cpu(conn->id.remote_id);
	if (len)
		memcpy(m->rtu.private_data, private_data, len);
	m->rtu.private_data_len = len;
	ret = pdcm_fsm_step(conn, PDCM_EV_SEND_RTU);
	spin_unlock_irqrestore(&conn->lock, flags);
	if (ret >= 0)
		ret = pdcm_xmit(conn, m, 0, 0);
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_rtu, PDCM);

static void pdcm_rtu_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
{
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_RX_RTU);
	if (ret >= 0)
		pdcm_cancel(conn);
	spin_unlock_irq(&conn->lock);
	if (ret < 0) {
		pdcm_count(conn->port->cnt.rx_dup, PDCM_ATTR_RTU);
		return;
	}
	pdcm_deliver_simple(conn, PDCM_RTU_RECEIVED, msg->rtu.private_data,
			    PDCM_RTU_PDATA_SIZE);
}

/**
 * pdcm_notify() - tell the CM what the QP saw
 * @id: the id
 * @event: IB_EVENT_COMM_EST: data arrived before the RTU, the connection
 *	is established (passive side, REP_SENT or MRA_REP_RCVD)
 *
 * The USER_ESTABLISHED event follows on pdcm_wq.
 *
 * Context: any context that may take a spinlock (QP event handlers).
 * Return: 0, or -EINVAL in the wrong state or for another event.
 */
int pdcm_notify(struct pdcm_id *id, enum ib_event_type event)
{
	struct pdcm_conn *conn = to_conn(id);
	struct pdcm_work *w;
	unsigned long flags;
	int ret;

	if (event != IB_EVENT_COMM_EST)
		return -EINVAL;
	w = pdcm_work_alloc(conn->port, PDCM_WORK_USER_EST);
	if (!w)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_step(conn, PDCM_EV_COMM_EST);
	if (ret >= 0)
		pdcm_cancel(conn);
	spin_unlock_irqrestore(&conn->lock, flags);
	if (ret < 0) {
		pdcm_work_free(w);
		return ret;
	}
	/* USER_ESTABLISHED goes through pdcm_wq, in order with the rest */
	pdcm_conn_get(conn);
	w->conn = conn;
	pdcm_work_queue(w);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_notify, PDCM);

/* ---- REJ ------------------------------------------------------------ */

/**
 * pdcm_send_rej() - reject a connection
 * @id: an id in a state where the handshake is under way
 * @reason: enum pdcm_rej_reason
 * @ari: additional rejection information, or NULL
 * @ari_len: up to 72 bytes
 * @private_data: up to 148 bytes, or NULL
 * @len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is IDLE); -EINVAL in the wrong state or for bad
 * parameters; the transport's error.
 */
int pdcm_send_rej(struct pdcm_id *id, u16 reason, const void *ari, u8 ari_len,
		  const void *private_data, u8 len)
{
	struct pdcm_conn *conn = to_conn(id);
	struct pdcm_listen *matched;
	enum pdcm_state state;
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if (pdcm_check_pdata(ari, ari_len, PDCM_REJ_ARI_SIZE) ||
	    pdcm_check_pdata(private_data, len, PDCM_REJ_PDATA_SIZE) || !reason)
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	state = conn->id.state;
	ret = pdcm_fsm_step(conn, PDCM_EV_SEND_REJ);
	if (ret == PDCM_TIMEWAIT)	/* after our REP: the QP may be in use */
		pdcm_enter_timewait(conn);
	if (ret >= 0) {
		pdcm_cancel(conn);
		pdcm_rej_msg(m, conn->tid,
			     state == PDCM_REQ_RCVD ? 0 : be32_to_cpu(conn->id.local_id),
			     be32_to_cpu(conn->id.remote_id),
			     pdcm_msg_of_state(state), reason, ari, ari_len,
			     private_data, len);
	}
	matched = ret >= 0 ? conn->matched : NULL;
	if (matched)
		conn->matched = NULL;
	spin_unlock_irqrestore(&conn->lock, flags);
	if (matched) {
		pdcm_listen_retire(matched);
		pdcm_listen_put(matched);
	}
	if (ret >= 0)
		ret = pdcm_xmit(conn, m, 0, 0);
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_rej, PDCM);

static void pdcm_rej_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
{
	const struct pdcm_rej *rej = &msg->rej;
	struct pdcm_event ev = { .event = PDCM_REJ_RECEIVED };
	struct pdcm_listen *matched = NULL;
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_RX_REJ);
	if (ret >= 0) {
		pdcm_cancel(conn);
		matched = conn->matched;
		conn->matched = NULL;
		if (ret == PDCM_TIMEWAIT)
			pdcm_enter_timewait(conn);
	}
	spin_unlock_irq(&conn->lock);
	if (matched) {
		pdcm_listen_retire(matched);
		pdcm_listen_put(matched);
	}
	if (ret < 0) {
		trace_pdcm_drop(PDCM_ATTR_REJ, rej->remote_comm_id, "wrong state");
		return;
	}
	if (ret == PDCM_IDLE)
		pdcm_remote_unlink(conn);
	ev.param.rej_rcvd.reason = rej->reason;
	ev.param.rej_rcvd.ari = rej->ari;
	ev.param.rej_rcvd.ari_length = rej->ari_len;
	ev.private_data = rej->private_data;
	ev.private_data_len = PDCM_REJ_PDATA_SIZE;
	pdcm_deliver(conn, &ev);
}

/* ---- DREQ / DREP ------------------------------------------------------ */

/**
 * pdcm_send_dreq() - start disconnecting
 * @id: an ESTABLISHED id
 * @private_data: up to 220 bytes, or NULL
 * @len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in DREQ_SENT); -EINVAL in the wrong state or for
 * too much private data; the transport's error.
 */
int pdcm_send_dreq(struct pdcm_id *id, const void *private_data, u8 len)
{
	struct pdcm_conn *conn = to_conn(id);
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if (pdcm_check_pdata(private_data, len, PDCM_DREQ_PDATA_SIZE))
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_step(conn, PDCM_EV_SEND_DREQ);
	if (ret >= 0) {
		conn->tid = pdcm_new_tid(conn);
		pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_DREQ, conn->tid);
		m->dreq.local_comm_id = be32_to_cpu(conn->id.local_id);
		m->dreq.remote_comm_id = be32_to_cpu(conn->id.remote_id);
		m->dreq.remote_qpn_eecn = conn->remote_qpn;
		if (len)
			memcpy(m->dreq.private_data, private_data, len);
		m->dreq.private_data_len = len;
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	if (ret >= 0)
		ret = pdcm_xmit(conn, m, conn->cm_timeout_ms,
				pdcm_retries(conn->max_cm_retries));
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_dreq, PDCM);

static void pdcm_send_drep_to(const struct pdcm_rx *rx, const struct pdcm_msg *dreq)
{
	struct pdcm_msg m;

	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_DREP, dreq->hdr.tid);
	m.drep.local_comm_id = dreq->dreq.remote_comm_id;
	m.drep.remote_comm_id = dreq->dreq.local_comm_id;
	pdcm_reply(rx, &m);
}

static void pdcm_dreq_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
			 const struct pdcm_msg *msg)
{
	enum pdcm_state state;
	int ret;

	spin_lock_irq(&conn->lock);
	state = conn->id.state;
	ret = msg->dreq.remote_qpn_eecn == conn->local_qpn ?
	      pdcm_fsm_step(conn, PDCM_EV_RX_DREQ) : -EINVAL;
	if (ret >= 0) {
		pdcm_cancel(conn);
		conn->tid = msg->hdr.tid;
	}
	spin_unlock_irq(&conn->lock);
	if (ret < 0) {
		pdcm_count(rx->port->cnt.rx_dup, PDCM_ATTR_DREQ);
		if (state == PDCM_TIMEWAIT)	/* our DREP was lost */
			pdcm_send_drep_to(rx, msg);
		return;
	}
	pdcm_deliver_simple(conn, PDCM_DREQ_RECEIVED, msg->dreq.private_data,
			    PDCM_DREQ_PDATA_SIZE);
}

/**
 * pdcm_send_drep() - answer a DREQ
 * @id: an id in DREQ_RCVD
 * @private_data: up to 224 bytes, or NULL
 * @len: its length
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in TIMEWAIT); -EINVAL in the wrong state or for
 * too much private data; the transport's error.
 */
int pdcm_send_drep(struct pdcm_id *id, const void *private_data, u8 len)
{
	struct pdcm_conn *conn = to_conn(id);
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if (pdcm_check_pdata(private_data, len, PDCM_DREP_PDATA_SIZE))
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_DREP, conn->tid);
	m->drep.local_comm_id = be32_to_cpu(conn->id.local_id);
	m->drep.remote_comm_id = be32_to_cpu(conn->id.remote_id);
	if (len)
		memcpy(m->drep.private_data, private_data, len);
	m->drep.private_data_len = len;
	ret = pdcm_fsm_step(conn, PDCM_EV_SEND_DREP);
	if (ret >= 0)
		pdcm_enter_timewait(conn);
	spin_unlock_irqrestore(&conn->lock, flags);
	if (ret >= 0)
		ret = pdcm_xmit(conn, m, 0, 0);
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_drep, PDCM);

static void pdcm_drep_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
{
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_RX_DREP);
	if (ret >= 0) {
		pdcm_cancel(conn);
		pdcm_enter_timewait(conn);
	}
	spin_unlock_irq(&conn->lock);
	if (ret < 0) {
		pdcm_count(conn->port->cnt.rx_dup, PDCM_ATTR_DREP);
		return;
	}
	pdcm_deliver_simple(conn, PDCM_DREP_RECEIVED, msg->drep.private_data,
			    PDCM_DREP_PDATA_SIZE);
}

/* ---- send errors ------------------------------------------------------ */

/**
 * pdcm_cm_send_done() - the transport finished with a MAD of @conn
 * @conn: the conn (the MAD's reference is the caller's to drop)
 * @msg: the transport's handle of the MAD
 * @status: IB_WC_SUCCESS, IB_WC_WR_FLUSH_ERR (cancelled) or the error
 *	that ended its retries (IB_WC_RESP_TIMEOUT_ERR: no answer)
 *
 * Context: any (MAD send completion).
 */
void pdcm_cm_send_done(struct pdcm_conn *conn, struct ib_mad_send_buf *msg,
		       enum ib_wc_status status)
{
	struct pdcm_work *w = NULL;
	unsigned long flags;

	spin_lock_irqsave(&conn->lock, flags);
	if (msg && conn->msg == msg) {
		conn->msg = NULL;
		if (status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR)
			w = pdcm_work_alloc(conn->port, PDCM_WORK_SEND_ERROR);
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	if (!w)
		return;
	pdcm_conn_get(conn);
	w->conn = conn;
	w->status = status;
	pdcm_work_queue(w);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_cm_send_done);

static void pdcm_send_error_work(struct pdcm_conn *conn, enum ib_wc_status status)
{
	struct pdcm_event ev = { .param.send_status = status };
	struct pdcm_listen *matched = NULL;
	enum pdcm_state state;
	int ret;

	spin_lock_irq(&conn->lock);
	state = conn->id.state;
	ret = pdcm_fsm_step(conn, PDCM_EV_TIMEOUT);
	if (ret == PDCM_TIMEWAIT)
		pdcm_enter_timewait(conn);
	if (ret >= 0) {
		matched = conn->matched;
		conn->matched = NULL;
	}
	spin_unlock_irq(&conn->lock);
	if (matched) {
		pdcm_listen_retire(matched);
		pdcm_listen_put(matched);
	}
	if (ret < 0)
		return;		/* answered meanwhile */
	switch (state) {
	case PDCM_REQ_SENT:
	case PDCM_MRA_REQ_RCVD:
		ev.event = PDCM_REQ_ERROR;
		break;
	case PDCM_REP_SENT:
	case PDCM_MRA_REP_RCVD:
		ev.event = PDCM_REP_ERROR;
		break;
	case PDCM_DREQ_SENT:
		ev.event = PDCM_DREQ_ERROR;
		break;
	default:
		ev.event = PDCM_SIDR_REQ_ERROR;
		break;
	}
	if (ret == PDCM_IDLE)
		pdcm_remote_unlink(conn);
	pdcm_deliver(conn, &ev);
}

/* ---- receive dispatch --------------------------------------------------- */

static void pdcm_rx_work(struct pdcm_work *w)
{
	struct pdcm_conn *conn = w->conn;

	/* A conn that never sent anything (a listen): nobody knows its ID. */
	if (!conn->port) {
		atomic_long_inc(&w->rx.port->cnt.rx_dropped);
		return;
	}
	switch (w->msg.hdr.attr_id) {
	case PDCM_ATTR_MRA:
		pdcm_mra_rx(conn, &w->msg);
		break;
	case PDCM_ATTR_REJ:
		pdcm_rej_rx(conn, &w->msg);
		break;
	case PDCM_ATTR_REP:
		pdcm_rep_rx(conn, &w->rx, &w->msg);
		break;
	case PDCM_ATTR_RTU:
		pdcm_rtu_rx(conn, &w->msg);
		break;
	case PDCM_ATTR_DREQ:
		pdcm_dreq_rx(conn, &w->rx, &w->msg);
		break;
	case PDCM_ATTR_DREP:
		pdcm_drep_rx(conn, &w->msg);
		break;
	case PDCM_ATTR_SIDR_REP:
		pdcm_sidr_rep_rx(conn, &w->msg);
		break;
	}
}

static void pdcm_work_fn(struct work_struct *work)
{
	struct pdcm_work *w = container_of(work, struct pdcm_work, work);

	switch (w->kind) {
	case PDCM_WORK_REQ:
		pdcm_req_work(w);
		break;
	case PDCM_WORK_SIDR_REQ:
		pdcm_sidr_req_work(w->listen, &w->rx, &w->msg);
		pdcm_listen_retire(w->listen);	/* SIDR holds no slot past here */
		break;
	case PDCM_WORK_RX:
		pdcm_rx_work(w);
		break;
	case PDCM_WORK_SEND_ERROR:
		pdcm_send_error_work(w->conn, w->status);
		break;
	case PDCM_WORK_USER_EST:
		pdcm_deliver_simple(w->conn, PDCM_USER_ESTABLISHED, NULL, 0);
		break;
	case PDCM_WORK_DUP_REQ:
		pdcm_dup_req(w->conn, &w->rx, &w->msg);
		break;
	}
	pdcm_work_free(w);
}

/* The comm ID a message names as ours. */
static u32 pdcm_our_id(const struct pdcm_msg *msg)
{
	switch (msg->hdr.attr_id) {
	case PDCM_ATTR_MRA:
		return msg->mra.remote_comm_id;
	case PDCM_ATTR_REJ:
		return msg->rej.remote_comm_id;
	case PDCM_ATTR_REP:
		return msg->rep.remote_comm_id;
	case PDCM_ATTR_RTU:
		return msg->rtu.remote_comm_id;
	case PDCM_ATTR_DREQ:
		return msg->dreq.remote_comm_id;
	case PDCM_ATTR_DREP:
		return msg->drep.remote_comm_id;
	case PDCM_ATTR_SIDR_REP:
		return msg->sidr_rep.request_id;
	default:
		return 0;
	}
}

/* Messages naming a comm ID we do not know get the answer ib_cm gives. */
static void pdcm_rx_unknown(const struct pdcm_rx *rx, const struct pdcm_msg *msg)
{
	struct pdcm_msg m;

	atomic_long_inc(&rx->port->cnt.rx_dropped);
	trace_pdcm_drop(msg->hdr.attr_id, pdcm_our_id(msg), "unknown comm ID");
	switch (msg->hdr.attr_id) {
	case PDCM_ATTR_REP:
	case PDCM_ATTR_RTU:
		pdcm_rej_msg(&m, msg->hdr.tid, 0, msg->rep.local_comm_id,
			     msg->hdr.attr_id == PDCM_ATTR_REP ?
			     PDCM_MSG_RESPONSE_REP : PDCM_MSG_RESPONSE_OTHER,
			     PDCM_REJ_INVALID_COMM_ID, NULL, 0, NULL, 0);
		pdcm_reply(rx, &m);
		break;
	case PDCM_ATTR_DREQ:
		pdcm_send_drep_to(rx, msg);
		break;
	}
}

static void pdcm_rx_req(const struct pdcm_rx *rx, const struct pdcm_msg *msg,
			bool sidr)
{
	const void *pdata = sidr ? msg->sidr_req.private_data : msg->req.private_data;
	u64 sid = sidr ? msg->sidr_req.service_id : msg->req.service_id;
	u32 req_id = sidr ? msg->sidr_req.request_id : msg->req.local_comm_id;
	struct pdcm_listen *l;
	struct pdcm_work *w;
	enum pdcm_admit admit;
	struct pdcm_conn *dup, *lconn;

	/*
	 * A retried REQ goes to its conn before the listen and the backlog
	 * are consulted: it takes no slot, and it must get its (delayed) MRA
	 * or STALE_CONN answer even while the backlog is full.
	 */
	dup = sidr ? NULL : pdcm_remote_id_find(msg->req.local_comm_id,
						 msg->req.local_ca_guid);
	if (dup) {
		w = pdcm_work_alloc(rx->port, PDCM_WORK_DUP_REQ);
		if (!w) {
			pdcm_conn_put(dup);
			return;
		}
		w->conn = dup;
		w->rx = *rx;
		w->msg = *msg;
		pdcm_work_queue(w);
		return;
	}

	/*
	 * The listening conn is referenced inside the same RCU section as
	 * the lookup: its destroyer unlinks the listen and waits a grace
	 * period before it waits for references (pdcm_destroy_protocol()).
	 */
	rcu_read_lock();
	l = pdcm_ltab_lookup(pdcm_listens, rx->port->dev->ibdev,
			     rx->port->port_num, cpu_to_be64(sid), pdata,
			     PDCM_COMPARE_SIZE);
	lconn = l ? pdcm_listen_context(l) : NULL;
	if (lconn && !refcount_inc_not_zero(&lconn->refs)) {
		pdcm_listen_put(l);
		l = NULL;
		lconn = NULL;
	}
	rcu_read_unlock();
	if (!l) {
		trace_pdcm_drop(msg->hdr.attr_id, req_id, "no listen");
		if (sidr)
			pdcm_sidr_reply(rx, msg, PDCM_SIDR_UNSUPPORTED);
		else
			pdcm_reject_req(rx, &msg->req, msg->hdr.tid,
					PDCM_REJ_INVALID_SERVICE_ID);
		return;
	}
	admit = pdcm_listen_admit(l);
	if (admit != PDCM_ADMIT_DELIVER) {
		trace_pdcm_drop(msg->hdr.attr_id, req_id, "backlog full");
		if (admit == PDCM_ADMIT_REJECT && !sidr) {
			atomic_long_inc(&rx->port->cnt.backlog_rejected);
			pdcm_reject_req(rx, &msg->req, msg->hdr.tid,
					PDCM_REJ_NO_RESOURCES);
		} else {
			atomic_long_inc(&rx->port->cnt.backlog_dropped);
		}
		pdcm_conn_put(lconn);
		pdcm_listen_put(l);
		return;
	}
	w = pdcm_work_alloc(rx->port, sidr ? PDCM_WORK_SIDR_REQ : PDCM_WORK_REQ);
	if (!w) {
		pdcm_listen_retire(l);
		pdcm_conn_put(lconn);
		pdcm_listen_put(l);
		return;
	}
	w->conn = lconn;	/* the listening conn, alive until the work ends */
	w->listen = l;
	w->rx = *rx;
	w->msg = *msg;
	pdcm_work_queue(w);
}

/**
 * pdcm_cm_rx() - a decoded CM MAD arrived
 * @rx: where it came from
 * @msg: the message, validated by the codec
 *
 * A REQ or SIDR_REQ must match a listen and pass its backlog before any
 * state is allocated for it; any other message must name a live local
 * comm ID.  Only then is a work item queued.
 *
 * Context: process context (MAD receive handler); does not sleep.
 */
void pdcm_cm_rx(const struct pdcm_rx *rx, const struct pdcm_msg *msg)
{
	struct pdcm_conn *conn;
	struct pdcm_work *w;
	u32 ours;

	pdcm_count(rx->port->cnt.rx, msg->hdr.attr_id);
	trace_pdcm_mad(false, msg->hdr.attr_id, 0, 0, msg->hdr.tid);
	switch (msg->hdr.attr_id) {
	case PDCM_ATTR_REQ:
		pdcm_rx_req(rx, msg, false);
		return;
	case PDCM_ATTR_SIDR_REQ:
		pdcm_rx_req(rx, msg, true);
		return;
	case PDCM_ATTR_LAP:
	case PDCM_ATTR_APR:
		atomic_long_inc(&rx->port->cnt.rx_dropped);
		trace_pdcm_drop(msg->hdr.attr_id, 0, "path migration unsupported");
		return;
	}

	ours = pdcm_our_id(msg);
	if (!ours && msg->hdr.attr_id == PDCM_ATTR_REJ &&
	    msg->rej.reason == PDCM_REJ_TIMEOUT && msg->rej.ari_len >= 8)
		/* the peer gave up on its REQ before it learnt our ID */
		conn = pdcm_remote_id_find(msg->rej.local_comm_id,
					   be64_to_cpu(*(__be64 *)msg->rej.ari));
	else
		conn = ours ? pdcm_conn_get_by_local_id(ours) : NULL;
	if (!conn) {
		pdcm_rx_unknown(rx, msg);
		return;
	}
	w = pdcm_work_alloc(rx->port, PDCM_WORK_RX);
	if (!w) {
		pdcm_conn_put(conn);
		return;
	}
	w->conn = conn;
	w->rx = *rx;
	w->msg = *msg;
	pdcm_work_queue(w);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_cm_rx);

/**
 * pdcm_cm_init() - the workqueue and the listen table
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int pdcm_cm_init(void)
{
	pdcm_ids_init();
	pdcm_wq = alloc_ordered_workqueue("pdcm", WQ_MEM_RECLAIM);
	if (!pdcm_wq)
		return -ENOMEM;
	pdcm_listens = pdcm_ltab_create(pdcm_listen_release);
	if (!pdcm_listens) {
		destroy_workqueue(pdcm_wq);
		return -ENOMEM;
	}
	return 0;
}

/**
 * pdcm_cm_exit() - undo pdcm_cm_init()
 *
 * Context: module exit, after the ib_client is gone.
 */
void pdcm_cm_exit(void)
{
	destroy_workqueue(pdcm_wq);
	pdcm_ltab_destroy(pdcm_listens);
	pdcm_ids_exit();
}
