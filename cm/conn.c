// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Connections, the common part: ids (create, destroy), listening, sending
 * helpers, event delivery and timewait.  The exchanges themselves are in
 * handshake.c (REQ, MRA, REP, RTU) and disconnect.c (REJ, DREQ, DREP,
 * send errors); rx.c queues received messages on their conn.
 *
 * Each exchange has one function per direction.  ULP calls (pdcm_send_*)
 * run in the caller's context: they build the message, check the
 * transition and post the message under conn->lock, and step the FSM only
 * once the post succeeded -- a message that never left changes nothing.
 * Received messages reach the *_rx() functions from the conn's event list
 * (rx.c), where they step the FSM and tell the ULP.  Every message a conn
 * sends is built by one pdcm_*_msg() builder.  Fields that swap meaning
 * between the two sides (initiator depth and responder resources, the two
 * CM response timeouts) are
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
#include "conn.h"
#include "device.h"
#include "listen.h"
#include "remote.h"
#include "trace.h"

struct pdcm_ltab *pdcm_listens;
static atomic_t pdcm_tid_seq = ATOMIC_INIT(0);

/*
 * Set the uint module parameter @kp, called @name, from @val if it is an
 * integer in @min..@max; otherwise refuse it and say why.
 */
int pdcm_param_set_uint(const char *val, const struct kernel_param *kp,
			const char *name, unsigned int min, unsigned int max)
{
	unsigned int v;

	if (kstrtouint(val, 0, &v) || v < min || v > max) {
		pr_err("%s=%s refused: must be an integer %u..%u\n", name, val,
		       min, max);
		return -EINVAL;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static unsigned int max_cm_retries = 15;

/* The REQ field is 4 bits: refuse a cap the wire cannot carry. */
static int pdcm_set_max_cm_retries(const char *val, const struct kernel_param *kp)
{
	return pdcm_param_set_uint(val, kp, "max_cm_retries", 0, 15);
}

static const struct kernel_param_ops pdcm_max_cm_retries_ops = {
	.set = pdcm_set_max_cm_retries,
	.get = param_get_uint,
};

module_param_cb(max_cm_retries, &pdcm_max_cm_retries_ops, &max_cm_retries, 0444);
__MODULE_PARM_TYPE(max_cm_retries, "uint");
MODULE_PARM_DESC(max_cm_retries,
		 "Cap on the CM retries of any message, 0..15 (default 15); other values are refused");

unsigned int pdcm_default_backlog = PDCM_BACKLOG_DEFAULT;

static int pdcm_set_default_backlog(const char *val, const struct kernel_param *kp)
{
	return pdcm_param_set_uint(val, kp, "default_backlog", 1, 1048576);
}

static const struct kernel_param_ops pdcm_default_backlog_ops = {
	.set = pdcm_set_default_backlog,
	.get = param_get_uint,
};

module_param_cb(default_backlog, &pdcm_default_backlog_ops, &pdcm_default_backlog, 0444);
__MODULE_PARM_TYPE(default_backlog, "uint");
MODULE_PARM_DESC(default_backlog,
		 "Backlog of a listen that asks for 0 and has no group, 1..1048576 (default 1024); other values are refused");
u64 pdcm_new_tid(struct pdcm_conn *conn)
{
	return (u64)atomic_inc_return(&pdcm_tid_seq) << 32 |
	       be32_to_cpu(conn->id.local_id);
}

u64 pdcm_node_guid(struct pdcm_port *port)
{
	return be64_to_cpu(port->dev->ibdev->node_guid);
}

/* ---- sending ------------------------------------------------------- */

int pdcm_xmit(struct pdcm_conn *conn, struct pdcm_msg *msg,
	      unsigned int timeout_ms, unsigned int retries)
	__must_hold(&conn->lock)
{
	int ret;

	lockdep_assert_held(&conn->lock);
	ret = conn->port->ops->send(conn, msg, timeout_ms, retries);
	if (!ret && timeout_ms)
		conn->msg_gen++;	/* a new @msg: older timeouts are stale */
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
void pdcm_cancel(struct pdcm_conn *conn)
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

void pdcm_rej_msg(struct pdcm_msg *m, u64 tid, u32 local_id,
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

/*
 * REJ Timeout from @conn (to @remote_id, 0 if unknown): the handshake's
 * time ran out on our side.  Its ARI is the rejecting CA's GUID (IBA
 * 12.6.7.2), as ib_cm sends it.
 */
void pdcm_rej_timeout_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
			  u32 remote_id)
{
	__be64 guid = cpu_to_be64(pdcm_node_guid(conn->port));

	pdcm_rej_msg(m, conn->tid, be32_to_cpu(conn->id.local_id), remote_id,
		     PDCM_MSG_RESPONSE_OTHER, PDCM_REJ_TIMEOUT, &guid,
		     sizeof(guid), NULL, 0);
}

/* A message of @conn to its peer: the header and both comm IDs. */
static void pdcm_conn_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
			  u16 attr, u64 tid, u32 *local, u32 *remote)
{
	memset(m, 0, sizeof(*m));
	pdcm_wire_init_hdr(&m->hdr, attr, tid);
	*local = be32_to_cpu(conn->id.local_id);
	*remote = be32_to_cpu(conn->id.remote_id);
}

void pdcm_mra_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
		  u8 msg_mraed, u8 service_timeout, const void *pdata, u8 len)
{
	pdcm_conn_msg(conn, m, PDCM_ATTR_MRA, conn->tid, &m->mra.local_comm_id,
		      &m->mra.remote_comm_id);
	m->mra.msg_mraed = msg_mraed;
	m->mra.service_timeout = service_timeout & 0x1f;
	if (len)
		memcpy(m->mra.private_data, pdata, len);
	m->mra.private_data_len = len;
}

void pdcm_rtu_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
		  const void *pdata, u8 len)
{
	pdcm_conn_msg(conn, m, PDCM_ATTR_RTU, conn->tid, &m->rtu.local_comm_id,
		      &m->rtu.remote_comm_id);
	if (len)
		memcpy(m->rtu.private_data, pdata, len);
	m->rtu.private_data_len = len;
}

void pdcm_dreq_msg(const struct pdcm_conn *conn, struct pdcm_msg *m, u64 tid,
		   const void *pdata, u8 len)
{
	pdcm_conn_msg(conn, m, PDCM_ATTR_DREQ, tid, &m->dreq.local_comm_id,
		      &m->dreq.remote_comm_id);
	m->dreq.remote_qpn_eecn = conn->remote_qpn;
	if (len)
		memcpy(m->dreq.private_data, pdata, len);
	m->dreq.private_data_len = len;
}

void pdcm_drep_msg(const struct pdcm_conn *conn, struct pdcm_msg *m,
		   const void *pdata, u8 len)
{
	pdcm_conn_msg(conn, m, PDCM_ATTR_DREP, conn->tid, &m->drep.local_comm_id,
		      &m->drep.remote_comm_id);
	if (len)
		memcpy(m->drep.private_data, pdata, len);
	m->drep.private_data_len = len;
}

/* Answer a REQ nobody will own: REJ with local comm ID 0. */
void pdcm_reject_req(const struct pdcm_rx *rx, const struct pdcm_req *req,
		     u64 tid, u16 reason)
{
	struct pdcm_msg m;

	pdcm_rej_msg(&m, tid, 0, req->local_comm_id, PDCM_MSG_RESPONSE_REQ,
		     reason, NULL, 0, NULL, 0);
	pdcm_reply(rx, &m);
}

/* The message we are answering or rejecting, as MRA and REJ name it. */
u8 pdcm_msg_of_state(enum pdcm_state state)
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

/*
 * Call the ULP's handler.  Only from the conn's own event work (or the
 * REQ / SIDR_REQ work that created it), so the events of one conn are
 * serialised.  A non-zero return destroys the conn, without waiting.
 */
void pdcm_deliver(struct pdcm_conn *conn, struct pdcm_event *ev)
{
	int ret;

	if (READ_ONCE(conn->destroyed))
		return;
	trace_pdcm_event(conn, ev->event);
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

void pdcm_deliver_simple(struct pdcm_conn *conn,
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

/**
 * pdcm_enter_timewait() - start (or restart) the conn's TIMEWAIT timer
 * @conn: the conn, just moved to TIMEWAIT
 *
 * The timer runs max(ms(local ACK timeout), 100 ms) from now and holds one
 * reference to @conn while pending; entering again while it is pending
 * re-arms it from now and keeps that one reference.
 *
 * Context: holds @conn->lock.
 * Return: nothing.
 */
void pdcm_enter_timewait(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	/* as ib_cm: one local ACK timeout (packet lifetime + 1) */
	unsigned int ms = pdcm_timeout_ms(conn->local_ack_timeout);

	lockdep_assert_held(&conn->lock);
	pdcm_conn_get(conn);
	if (!mod_delayed_work(pdcm_wq, &conn->timewait_work,
			      msecs_to_jiffies(max(ms, 100U))))
		return;
	pdcm_conn_put(conn);	/* was already pending: keep one reference */
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_enter_timewait);

/**
 * pdcm_timewait_done() - TIMEWAIT is over
 * @conn: the conn
 *
 * Context: the conn's event work.
 */
void pdcm_timewait_done(struct pdcm_conn *conn)
{
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_TIMEWAIT_DONE);
	spin_unlock_irq(&conn->lock);
	if (ret >= 0) {
		pdcm_remote_unlink(conn);
		pdcm_deliver_simple(conn, PDCM_TIMEWAIT_EXIT, NULL, 0);
	}
}

/**
 * pdcm_take_matched() - detach the listen whose backlog slot @conn holds
 * @conn: a passive conn
 *
 * Context: conn->lock held.
 * Return: the listen (give it to pdcm_slot_free() after unlocking), or
 * NULL if @conn holds no slot.
 */
struct pdcm_listen *pdcm_take_matched(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	struct pdcm_listen *l = conn->matched;

	lockdep_assert_held(&conn->lock);
	conn->matched = NULL;
	if (l)
		pdcm_halfopen_del(l, &conn->halfopen);
	return l;
}

/**
 * pdcm_slot_free() - give back a backlog slot and its listen reference
 * @l: what pdcm_take_matched() returned, or NULL
 *
 * Context: any.
 */
void pdcm_slot_free(struct pdcm_listen *l)
{
	if (!l)
		return;
	pdcm_listen_retire(l);
	pdcm_listen_put(l);
}

/**
 * pdcm_active_begin() - what pdcm_send_req() and pdcm_send_sidr_req() share
 * @conn: the id, which must have a device
 * @ev: PDCM_EV_SEND_REQ or PDCM_EV_SEND_SIDR_REQ: must be allowed now
 * @port_num: the local port
 * @path: the path to the peer
 * @sgid_attr: the GID entry to send from, or NULL (by @path's sgid)
 *
 * Finds pdcm's port and builds the peer's address from @path.  The state
 * is not changed: the caller steps the FSM once its message is built.
 *
 * Context: process context; may sleep.
 * Return: 0, -EINVAL in the wrong state, -ENODEV if pdcm does not own
 * the port, or the address error.
 */
int pdcm_active_begin(struct pdcm_conn *conn, enum pdcm_fsm_event ev,
		      u32 port_num, struct sa_path_rec *path,
		      const struct ib_gid_attr *sgid_attr)
{
	struct pdcm_port *port;
	int ret;

	if (sgid_attr && (sgid_attr->device != conn->id.device ||
			  sgid_attr->port_num != port_num))
		return -EINVAL;
	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_next(conn->id.state, ev);
	/*
	 * An id used again after TIMEWAIT_EXIT: the new peer's REP, MRA
	 * and REJ of this REQ must not be held to the old peer's comm ID.
	 */
	if (ret >= 0)
		conn->id.remote_id = 0;
	spin_unlock_irq(&conn->lock);
	if (ret < 0)
		return ret;
	port = pdcm_port_get(conn->id.device, port_num);
	if (!port)
		return -ENODEV;
	pdcm_conn_set_port(conn, port);
	pdcm_device_put(port->dev);	/* the conn holds its own now */
	return port->ops->path_av(conn, path, sgid_attr);
}

/**
 * pdcm_active_send() - step to the sent state and send the retried message
 * @conn: the id, prepared by pdcm_active_begin()
 * @ev: PDCM_EV_SEND_REQ or PDCM_EV_SEND_SIDR_REQ
 * @m: the REQ or SIDR_REQ
 * @timeout_ms: wait per try
 * @retries: tries after the first
 *
 * If the transport refuses the message, nothing went on the wire and the
 * id stays in IDLE.
 *
 * Context: process context.
 * Return: 0, -EINVAL if @ev is no longer allowed, or the transport's error.
 */
int pdcm_active_send(struct pdcm_conn *conn, enum pdcm_fsm_event ev,
		     struct pdcm_msg *m, unsigned int timeout_ms,
		     unsigned int retries)
{
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_next(conn->id.state, ev);
	if (ret >= 0)
		ret = pdcm_xmit(conn, m, timeout_ms, retries);
	if (!ret)
		pdcm_fsm_step(conn, ev);
	spin_unlock_irq(&conn->lock);
	return ret < 0 ? ret : 0;
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
EXPORT_SYMBOL_NS_GPL(pdcm_create_id, PDCM_NS(PDCM));

/*
 * What the protocol requires of a conn that goes away in @state: REJ
 * TIMEOUT while our REQ is unanswered, REJ CONSUMER_DEFINED in the middle
 * of a handshake, DREQ when connected, DREP when asked to leave, a
 * SIDR_REP REJECT to an unanswered SIDR_REQ.  Return: false if nothing.
 */
static bool pdcm_leave_msg(struct pdcm_conn *conn, enum pdcm_state state,
			   struct pdcm_msg *m)
	__must_hold(&conn->lock)
{
	lockdep_assert_held(&conn->lock);
	switch (state) {
	case PDCM_REQ_SENT:
	case PDCM_MRA_REQ_RCVD:
		pdcm_rej_timeout_msg(conn, m, 0);
		return true;
	case PDCM_REQ_RCVD:
	case PDCM_MRA_REQ_SENT:
	case PDCM_REP_SENT:
	case PDCM_MRA_REP_RCVD:
	case PDCM_REP_RCVD:
	case PDCM_MRA_REP_SENT:
		pdcm_rej_msg(m, conn->tid,
			     state == PDCM_REQ_RCVD ? 0 : be32_to_cpu(conn->id.local_id),
			     be32_to_cpu(conn->id.remote_id),
			     pdcm_msg_of_state(state), PDCM_REJ_CONSUMER_DEFINED,
			     NULL, 0, NULL, 0);
		return true;
	case PDCM_ESTABLISHED:
		/* an XRC target leaves silently, as ib_cm's: no DREQ */
		if (conn->qp_type == IB_QPT_XRC_TGT)
			return false;
		pdcm_dreq_msg(conn, m, pdcm_new_tid(conn), NULL, 0);
		return true;
	case PDCM_DREQ_RCVD:
		pdcm_drep_msg(conn, m, NULL, 0);
		return true;
	case PDCM_SIDR_REQ_RCVD:
		memset(m, 0, sizeof(*m));
		pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_SIDR_REP, conn->tid);
		m->sidr_rep.request_id = be32_to_cpu(conn->id.remote_id);
		m->sidr_rep.status = PDCM_SIDR_REJECT;
		m->sidr_rep.service_id = be64_to_cpu(conn->id.service_id);
		return true;
	default:
		return false;
	}
}

/*
 * The protocol side of destroying a conn (pdcm_leave_msg()), then IDLE.
 * -ENOMEM from the handler of a REQ not yet answered (REQ_RCVD) sends
 * nothing, so that the peer retries; in any other state the REJ, DREQ,
 * DREP or SIDR_REP of that state goes out, as in ib_cm.
 */
void pdcm_destroy_protocol(struct pdcm_conn *conn, bool enomem)
{
	struct pdcm_listen *matched, *listen = NULL;
	struct pdcm_msg m;

	spin_lock_irq(&conn->lock);
	pdcm_cancel(conn);
	if (!(enomem && conn->id.state == PDCM_REQ_RCVD) && conn->port &&
	    pdcm_leave_msg(conn, conn->id.state, &m))
		pdcm_xmit(conn, &m, 0, 0);	/* best effort: we are going */
	if (conn->id.state == PDCM_LISTEN) {
		listen = conn->listen;
		conn->listen = NULL;
	}
	conn->id.state = PDCM_IDLE;
	matched = pdcm_take_matched(conn);
	spin_unlock_irq(&conn->lock);
	pdcm_slot_free(matched);

	if (listen) {
		/*
		 * Unlinked, then a grace period: a lookup that found the
		 * listen before has taken its reference on this conn by now
		 * (pdcm_rx_req()), so the destroyer's wait covers it.  The
		 * listen itself may live on in unanswered children, which
		 * hold it for their backlog slot only and never touch us.
		 */
		pdcm_ltab_remove(pdcm_listens, listen);
		synchronize_rcu();
		pdcm_listen_put(listen);
	}
}

/**
 * pdcm_destroy_id() - destroy an id in any state
 * @id: the id; not to be used afterwards
 *
 * Sends what the protocol requires in the id's state (see
 * pdcm_destroy_protocol()), waits for a handler of the id that is running
 * and for every MAD in flight, and frees the id.  For a listen this
 * includes a REQ or SIDR_REQ event being delivered for it; no event of
 * the id starts after destroy began and none runs once it returns.  The
 * listen's unanswered children are not waited for: they stay the ULP's.
 * May be called from the handler of another id, never from @id's own
 * (return non-zero from it instead; see pdcm_handler).
 *
 * Context: process context; sleeps.
 * Return: nothing.
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
EXPORT_SYMBOL_NS_GPL(pdcm_destroy_id, PDCM_NS(PDCM));

/* ---- listen --------------------------------------------------------- */

/**
 * pdcm_listen() - listen for REQs and SIDR_REQs on an id
 * @id: an id in IDLE
 * @attr: what to match (service ID, mask, private-data compare, port,
 *	backlog); see struct pdcm_listen_attr
 *
 * REQ and SIDR_REQ events for the listen arrive at @id's handler on a new
 * id each, whose handler and context start as @id's.  @attr and its
 * compare are copied: the caller may free them on return.
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
EXPORT_SYMBOL_NS_GPL(pdcm_listen, PDCM_NS(PDCM));

void pdcm_listen_release(void *context)
{
	/* the listening conn was not held by its entry: nothing to drop */
}
