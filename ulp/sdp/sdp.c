// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * pdcm_sdp: SDP connection setup on pdcm's public API.
 *
 * Listeners.  pdcm_sdp_listen() is one pdcm listen on service ID
 * 0x10000 | port with the compare of its address: pdcm_compare_sdp_addr()
 * for a specific address, pdcm_compare_sdp_family() for 0.0.0.0 or a
 * V6ONLY ::, and the SDP major version alone for a dual-stack ::.  The
 * masks nest (version < family < address), so listeners for several
 * addresses and the wildcards share a port and each Hello reaches the
 * most specific one; the same (address, port) twice is -EADDRINUSE.
 *
 * The catch-all.  At load the module listens on the whole SDP range
 * (0x10000 under mask 0xffffffffffff0000, no compare), the least specific
 * listen possible.  It gets the Hellos no listener matched: malformed
 * ones (their version bytes match no compare) are answered REJ 28 and
 * counted, well-formed ones REJ 8, what pdcm says when nobody listens.  A
 * listener checks the rest of its Hellos the same way (pdcm_sdp_hh_parse).
 *
 * Connections.  struct pdcm_sdp_conn is the pdcm_id's context from the
 * REQ (passive) or the connect (active) on.  Handlers may close their own
 * connection: the close is noted and done when the handler returns, by
 * returning non-zero to pdcm, which destroys the id from its workqueue.
 */
#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/in.h>
#include <linux/in6.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <net/ipv6.h>

#include <rdma/pdcm_sdp.h>

MODULE_DESCRIPTION("pdcm_sdp: SDP connection setup on the pdcm CM");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(PDCM_NS(PDCM));

/* What both sides ask of the transport (OFED SDP's values). */
#define SDP_RDMA_DEPTH		4
#define SDP_CM_TIMEOUT		20	/* 4.096 us * 2^20: about 4 s */
#define SDP_CM_RETRIES		15
#define SDP_RETRY_COUNT		7
#define SDP_RNR_RETRY		7

struct pdcm_sdp_listener {
	struct pdcm_id *id;
	pdcm_sdp_handler handler;
	void *context;
};

struct pdcm_sdp_conn {
	struct pdcm_id *id;
	pdcm_sdp_handler handler;
	void *context;
	spinlock_t lock;		/* the three flags */
	bool in_handler;		/* one of our handlers runs for it */
	bool close_on_return;		/* closed from inside that handler */
	bool closed;			/* no more upcalls */
	bool active;
	u8 responder_resources;
	u8 initiator_depth;
	u8 flow_control;
	u8 rnr_retry_count;
	struct sa_path_rec path;
	struct pdcm_sdp_conn_info info;
};

static struct {
	atomic64_t requests;
	atomic64_t accepted;
	atomic64_t rejected;
	atomic64_t malformed;
	atomic64_t no_listener;
	atomic64_t bad_hello_ack;
} sdp_stats;

static struct pdcm_id *sdp_catch_id;

static u16 sdp_port_of(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)sa)->sin_port);
	return ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
}

static bool sdp_family_ok(const struct sockaddr *sa)
{
	return sa && (sa->sa_family == AF_INET || sa->sa_family == AF_INET6);
}

static bool sdp_any_addr(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)sa)->sin_addr.s_addr ==
		       htonl(INADDR_ANY);
	return ipv6_addr_any(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

/* ---- upcalls ---------------------------------------------------------- */

/*
 * Tell the consumer; returns what our pdcm handler must return: non-zero
 * when the consumer closed @c (now freed) during or by the upcall.
 */
static int sdp_upcall(struct pdcm_sdp_conn *c, enum pdcm_sdp_event_type type,
		      int status)
{
	struct pdcm_sdp_event ev = {
		.type = type,
		.status = status,
		.info = &c->info,
	};
	bool close;
	int ret;

	spin_lock_irq(&c->lock);
	if (c->closed) {
		spin_unlock_irq(&c->lock);
		return 0;
	}
	c->in_handler = true;
	spin_unlock_irq(&c->lock);

	ret = c->handler(c, &ev);

	spin_lock_irq(&c->lock);
	c->in_handler = false;
	close = ret || c->close_on_return;
	if (close)
		c->closed = true;
	spin_unlock_irq(&c->lock);
	if (!close)
		return 0;
	kfree(c);
	return 1;
}

/* A REQ that no listener of ours may have: REJ 28 if malformed. */
static int sdp_check_hello(struct pdcm_id *id, const struct pdcm_event *ev,
			   struct pdcm_sdp_hello *h)
{
	int ret;

	atomic64_inc(&sdp_stats.requests);
	ret = pdcm_sdp_hh_parse(ev->private_data, ev->private_data_len,
				id->service_id, h);
	if (ret) {
		atomic64_inc(&sdp_stats.malformed);
		pdcm_send_rej(id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
	}
	return ret;
}

/* Children of the catch-all listen: nobody wanted them. */
static int sdp_catch_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct pdcm_sdp_hello h;

	if (ev->event != PDCM_REQ_RECEIVED)
		return 0;
	if (!sdp_check_hello(id, ev, &h)) {
		atomic64_inc(&sdp_stats.no_listener);
		pdcm_send_rej(id, PDCM_REJ_INVALID_SERVICE_ID, NULL, 0, NULL, 0);
	}
	return 1;
}

static int sdp_req(struct pdcm_id *id, const struct pdcm_event *ev)
{
	const struct pdcm_req_event_param *p = &ev->param.req_rcvd;
	struct pdcm_sdp_listener *l = id->context;
	struct pdcm_sdp_conn *c;
	struct pdcm_sdp_hello h;

	if (sdp_check_hello(id, ev, &h))
		return 1;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;		/* nothing sent: the peer retries */
	spin_lock_init(&c->lock);
	c->id = id;
	c->handler = l->handler;
	c->context = l->context;
	c->responder_resources = min_t(u8, p->responder_resources,
				       SDP_RDMA_DEPTH);
	c->initiator_depth = min_t(u8, p->initiator_depth, SDP_RDMA_DEPTH);
	c->flow_control = p->flow_control;
	c->rnr_retry_count = p->rnr_retry_count;
	c->info.device = id->device;
	c->info.port = p->port;
	c->info.local = h.dst;
	c->info.peer = h.src;
	c->info.peer_bufs = h.bufs;
	c->info.peer_max_adverts = h.max_adverts;
	c->info.peer_desremrcvsz = h.desremrcvsz;
	c->info.peer_rcvsz = h.localrcvsz;
	c->info.remote_qpn = p->remote_qpn;
	c->info.remote_psn = p->starting_psn;
	id->context = c;
	return sdp_upcall(c, PDCM_SDP_CONNECT_REQUEST, 0);
}

static int sdp_rep(struct pdcm_sdp_conn *c, const struct pdcm_event *ev)
{
	struct pdcm_sdp_hello_ack a;
	int ret;

	if (pdcm_sdp_hah_parse(ev->private_data, ev->private_data_len, &a)) {
		atomic64_inc(&sdp_stats.bad_hello_ack);
		pdcm_send_rej(c->id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0, NULL, 0);
		return sdp_upcall(c, PDCM_SDP_ERROR, -EPROTO);
	}
	c->info.peer_bufs = a.bufs;
	c->info.peer_max_adverts = a.ext_max_adverts;
	c->info.peer_rcvsz = a.actrcvsz;
	c->info.remote_qpn = ev->param.rep_rcvd.remote_qpn;
	c->info.remote_psn = ev->param.rep_rcvd.starting_psn;
	ret = sdp_upcall(c, PDCM_SDP_CONNECTED, 0);
	if (!ret)
		pdcm_send_rtu(c->id, NULL, 0);
	return ret;
}

/* The handler of every id of ours but the catch-all's children. */
static int sdp_cm_handler(struct pdcm_id *id, const struct pdcm_event *ev)
{
	struct pdcm_sdp_conn *c = id->context;

	switch (ev->event) {
	case PDCM_REQ_RECEIVED:
		return sdp_req(id, ev);
	case PDCM_REP_RECEIVED:
		return sdp_rep(c, ev);
	case PDCM_RTU_RECEIVED:
	case PDCM_USER_ESTABLISHED:
		return sdp_upcall(c, PDCM_SDP_CONNECTED, 0);
	case PDCM_REJ_RECEIVED:
		return sdp_upcall(c, PDCM_SDP_REJECTED,
				  ev->param.rej_rcvd.reason);
	case PDCM_REQ_ERROR:
	case PDCM_REP_ERROR:
		return sdp_upcall(c, PDCM_SDP_ERROR, -ETIMEDOUT);
	case PDCM_SEND_ERROR:
		return sdp_upcall(c, PDCM_SDP_ERROR, -EIO);
	case PDCM_DREQ_RECEIVED:
		pdcm_send_drep(id, NULL, 0);
		return sdp_upcall(c, PDCM_SDP_DISCONNECTED, 0);
	case PDCM_DREP_RECEIVED:
		return sdp_upcall(c, PDCM_SDP_DISCONNECTED, 0);
	case PDCM_DREQ_ERROR:
		return sdp_upcall(c, PDCM_SDP_DISCONNECTED, -ETIMEDOUT);
	case PDCM_TIMEWAIT_EXIT:
		return sdp_upcall(c, PDCM_SDP_CLOSED, 0);
	default:
		return 0;
	}
}

/* ---- listeners -------------------------------------------------------- */

static int sdp_compare(struct pdcm_compare *cmp, const struct sockaddr *sa,
		       u32 flags)
{
	static const u8 v2 = PDCM_SDP_MAJV_MINV & 0xf0, v2_mask = 0xf0;

	if (sa->sa_family == AF_INET6 && sdp_any_addr(sa) &&
	    !(flags & PDCM_SDP_LISTEN_V6ONLY))
		return pdcm_compare_add(cmp, 16, &v2, &v2_mask, 1);
	return pdcm_compare_sdp_addr(cmp, sa);
}

/**
 * pdcm_sdp_listen() - listen for SDP connections on an address and port
 * @param: where, and the handler
 *
 * Any number of listeners may share a port as long as their addresses
 * differ; a Hello goes to the listener of its destination address, else
 * to the wildcard of its family, else to a dual-stack :: listener.
 *
 * Context: process context; may sleep.
 * Return: the listener; ERR_PTR(-EADDRINUSE) if the same address and port
 * (and device/port scope) is taken; -EINVAL for a bad parameter or port
 * 0; -EAFNOSUPPORT for a family other than AF_INET/AF_INET6; -ENOMEM.
 */
struct pdcm_sdp_listener *
pdcm_sdp_listen(const struct pdcm_sdp_listen_param *param)
{
	struct pdcm_listen_attr attr = {};
	struct pdcm_sdp_listener *l;
	struct pdcm_compare cmp = {};
	u16 port;
	int ret;

	if (!param || !param->handler || !param->addr ||
	    param->flags & ~(PDCM_SDP_LISTEN_V6ONLY |
			     PDCM_SDP_LISTEN_REJ_ON_OVERFLOW))
		return ERR_PTR(-EINVAL);
	if (!sdp_family_ok(param->addr))
		return ERR_PTR(-EAFNOSUPPORT);
	port = sdp_port_of(param->addr);
	if (!port)
		return ERR_PTR(-EINVAL);
	ret = sdp_compare(&cmp, param->addr, param->flags);
	if (ret)
		return ERR_PTR(ret);

	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		return ERR_PTR(-ENOMEM);
	l->handler = param->handler;
	l->context = param->context;
	l->id = pdcm_create_id(param->device, sdp_cm_handler, l);
	if (IS_ERR(l->id)) {
		ret = PTR_ERR(l->id);
		goto free;
	}
	attr.service_id = pdcm_sdp_service_id(port);
	attr.compare = &cmp;
	attr.port = param->port;
	attr.backlog = param->backlog;
	if (param->flags & PDCM_SDP_LISTEN_REJ_ON_OVERFLOW)
		attr.flags |= PDCM_LISTEN_REJ_ON_OVERFLOW;
	ret = pdcm_listen(l->id, &attr);
	if (ret)
		goto destroy;
	return l;

destroy:
	pdcm_destroy_id(l->id);
free:
	kfree(l);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_listen, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_listener_destroy() - stop listening
 * @l: the listener, or NULL
 *
 * Connections it delivered stay; the handler gets no new ones once this
 * returns.
 *
 * Context: process context; sleeps.  Not from an SDP handler.
 * Return: nothing.
 */
void pdcm_sdp_listener_destroy(struct pdcm_sdp_listener *l)
{
	if (!l)
		return;
	pdcm_destroy_id(l->id);
	kfree(l);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_listener_destroy, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_listener_context() - the context a listener was created with
 * @l: the listener
 *
 * Context: Any context.
 * Return: pdcm_sdp_listen_param.context.
 */
void *pdcm_sdp_listener_context(const struct pdcm_sdp_listener *l)
{
	return l->context;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_listener_context, PDCM_NS(PDCM_SDP));

/* ---- connections ------------------------------------------------------ */

/**
 * pdcm_sdp_connect() - open an SDP connection
 * @param: addresses, QP and Hello
 *
 * Sends the REQ with the Hello.  The handler then gets PDCM_SDP_CONNECTED
 * (Hello Ack valid: move the QP to RTR and RTS in the handler, the RTU is
 * sent when it returns 0), PDCM_SDP_REJECTED or PDCM_SDP_ERROR.
 *
 * Context: process context; may sleep (path resolution).
 * Return: the connection, or ERR_PTR(): -EINVAL, -EAFNOSUPPORT, -ENOMEM,
 * or what pdcm_resolve_path() and pdcm_send_req() return.
 */
struct pdcm_sdp_conn *
pdcm_sdp_connect(const struct pdcm_sdp_connect_param *param)
{
	struct pdcm_req_param req = {};
	struct pdcm_sdp_hello h;
	struct pdcm_sdp_conn *c;
	u8 hello[PDCM_SDP_HELLO_SIZE];
	int ret;

	if (!param || !param->handler || !param->device || !param->port)
		return ERR_PTR(-EINVAL);
	if (!sdp_family_ok(param->src) || !sdp_family_ok(param->dst))
		return ERR_PTR(-EAFNOSUPPORT);
	if (param->src->sa_family != param->dst->sa_family ||
	    !sdp_port_of(param->dst))
		return ERR_PTR(-EINVAL);

	h = param->hello;
	memset(&h.src, 0, sizeof(h.src));
	memset(&h.dst, 0, sizeof(h.dst));
	memcpy(&h.src, param->src, param->src->sa_family == AF_INET ?
	       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	memcpy(&h.dst, param->dst, param->dst->sa_family == AF_INET ?
	       sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6));
	ret = pdcm_sdp_hh_build(hello, sizeof(hello), &h);
	if (ret)
		return ERR_PTR(ret);

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return ERR_PTR(-ENOMEM);
	spin_lock_init(&c->lock);
	c->active = true;
	c->handler = param->handler;
	c->context = param->context;
	c->info.device = param->device;
	c->info.port = param->port;
	c->info.local = h.src;
	c->info.peer = h.dst;
	if (param->path)
		c->path = *param->path;
	else
		ret = pdcm_resolve_path(param->device, param->port, param->src,
					param->dst, &c->path);
	if (ret)
		goto free;

	c->id = pdcm_create_id(param->device, sdp_cm_handler, c);
	if (IS_ERR(c->id)) {
		ret = PTR_ERR(c->id);
		goto free;
	}
	req.primary_path = &c->path;
	req.port = param->port;
	req.service_id = pdcm_sdp_service_id(sdp_port_of(param->dst));
	req.qp_num = param->qp_num;
	req.qp_type = IB_QPT_RC;
	req.starting_psn = param->starting_psn;
	req.private_data = hello;
	req.private_data_len = sizeof(hello);
	req.responder_resources = SDP_RDMA_DEPTH;
	req.initiator_depth = SDP_RDMA_DEPTH;
	req.remote_cm_response_timeout = SDP_CM_TIMEOUT;
	req.local_cm_response_timeout = SDP_CM_TIMEOUT;
	req.flow_control = 1;
	req.retry_count = SDP_RETRY_COUNT;
	req.rnr_retry_count = SDP_RNR_RETRY;
	req.max_cm_retries = SDP_CM_RETRIES;
	ret = pdcm_send_req(c->id, &req);
	if (ret)
		goto destroy;
	return c;

destroy:
	pdcm_destroy_id(c->id);
free:
	kfree(c);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_connect, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_accept() - accept a connection request
 * @conn: a connection from PDCM_SDP_CONNECT_REQUEST
 * @param: our QP and the Hello Ack
 *
 * Sends the REP with the Hello Ack.  Move the QP to RTR before (the REQ's
 * values are in pdcm_sdp_init_qp_attr() from the request on) and to RTS
 * after; PDCM_SDP_CONNECTED follows with the RTU.
 *
 * Context: process context, or the connection's handler.
 * Return: 0, or what pdcm_send_rep() returns (-EINVAL once answered).
 */
int pdcm_sdp_accept(struct pdcm_sdp_conn *conn,
		    const struct pdcm_sdp_accept_param *param)
{
	struct pdcm_rep_param rep = {};
	u8 hah[PDCM_SDP_HELLO_ACK_SIZE];
	int ret;

	if (conn->active || !param)
		return -EINVAL;
	ret = pdcm_sdp_hah_build(hah, sizeof(hah), &param->hah);
	if (ret)
		return ret;
	rep.qp_num = param->qp_num;
	rep.starting_psn = param->starting_psn;
	rep.private_data = hah;
	rep.private_data_len = sizeof(hah);
	rep.responder_resources = conn->responder_resources;
	rep.initiator_depth = conn->initiator_depth;
	rep.failover_accepted = 1;	/* not supported */
	rep.flow_control = conn->flow_control;
	rep.rnr_retry_count = conn->rnr_retry_count;
	ret = pdcm_send_rep(conn->id, &rep);
	if (!ret)
		atomic64_inc(&sdp_stats.accepted);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_accept, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_close() - free a connection
 * @conn: the connection, or NULL; not to be used afterwards
 *
 * pdcm sends what the state requires: REJ 28 to an unanswered request or
 * in the middle of the handshake, DREQ when connected.  From the
 * connection's own handler the close happens when the handler returns.
 *
 * Context: process context; sleeps (not in a handler).  Or the
 * connection's own handler.
 * Return: nothing.
 */
void pdcm_sdp_close(struct pdcm_sdp_conn *conn)
{
	if (!conn)
		return;
	spin_lock_irq(&conn->lock);
	if (conn->in_handler) {
		conn->close_on_return = true;
		spin_unlock_irq(&conn->lock);
		return;
	}
	conn->closed = true;
	spin_unlock_irq(&conn->lock);
	pdcm_destroy_id(conn->id);
	kfree(conn);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_close, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_reject() - refuse a connection request and free it
 * @conn: a connection from PDCM_SDP_CONNECT_REQUEST, not yet accepted;
 *	not to be used afterwards
 *
 * Sends REJ 28 (consumer defined), as an SDP layer refusing a connection
 * does, and frees @conn as pdcm_sdp_close().
 *
 * Context: as pdcm_sdp_close().
 * Return: 0; -EINVAL if @conn is not an unanswered request (it is still
 * freed).
 */
int pdcm_sdp_reject(struct pdcm_sdp_conn *conn)
{
	int ret = -EINVAL;

	if (!conn->active)
		ret = pdcm_send_rej(conn->id, PDCM_REJ_CONSUMER_DEFINED, NULL, 0,
				    NULL, 0);
	if (!ret)
		atomic64_inc(&sdp_stats.rejected);
	pdcm_sdp_close(conn);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_reject, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_disconnect() - start an orderly disconnect
 * @conn: an established connection
 *
 * Sends DREQ; PDCM_SDP_DISCONNECTED follows with the DREP (or its
 * timeout), PDCM_SDP_CLOSED when timewait is over.
 *
 * Context: process context, or the connection's handler.
 * Return: 0, or what pdcm_send_dreq() returns.
 */
int pdcm_sdp_disconnect(struct pdcm_sdp_conn *conn)
{
	return pdcm_send_dreq(conn->id, NULL, 0);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_disconnect, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_notify() - pass a QP event on (IB_EVENT_COMM_EST)
 * @conn: the connection
 * @event: the QP's event
 *
 * Context: Any context.
 * Return: what pdcm_notify() returns.
 */
int pdcm_sdp_notify(struct pdcm_sdp_conn *conn, enum ib_event_type event)
{
	return pdcm_notify(conn->id, event);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_notify, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_init_qp_attr() - QP attributes for the next transition
 * @conn: the connection
 * @attr: @attr->qp_state says which (INIT, RTR, RTS); the rest is filled in
 * @mask: gets the ib_modify_qp() mask
 *
 * Context: Any context.
 * Return: what pdcm_init_qp_attr() returns.
 */
int pdcm_sdp_init_qp_attr(struct pdcm_sdp_conn *conn, struct ib_qp_attr *attr,
			  int *mask)
{
	return pdcm_init_qp_attr(conn->id, attr, mask);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_init_qp_attr, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_conn_info() - addresses, ports and the peer's buffers
 * @conn: the connection
 *
 * Context: Any context.
 * Return: the connection's info, valid until it is closed.
 */
const struct pdcm_sdp_conn_info *
pdcm_sdp_conn_info(const struct pdcm_sdp_conn *conn)
{
	return &conn->info;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_conn_info, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_context() - the consumer's pointer of a connection
 * @conn: the connection
 *
 * Context: Any context.
 * Return: the listener's or connect's context, or what
 * pdcm_sdp_set_context() set.
 */
void *pdcm_sdp_context(const struct pdcm_sdp_conn *conn)
{
	return conn->context;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_context, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_set_context() - set the consumer's pointer of a connection
 * @conn: the connection
 * @context: the new pointer
 *
 * Context: Any context; the caller serializes with its own handler.
 * Return: nothing.
 */
void pdcm_sdp_set_context(struct pdcm_sdp_conn *conn, void *context)
{
	conn->context = context;
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_set_context, PDCM_NS(PDCM_SDP));

/**
 * pdcm_sdp_get_stats() - the shim's counters
 * @stats: filled in
 *
 * Context: Any context.
 * Return: nothing.
 */
void pdcm_sdp_get_stats(struct pdcm_sdp_stats *stats)
{
	stats->requests = atomic64_read(&sdp_stats.requests);
	stats->accepted = atomic64_read(&sdp_stats.accepted);
	stats->rejected = atomic64_read(&sdp_stats.rejected);
	stats->malformed = atomic64_read(&sdp_stats.malformed);
	stats->no_listener = atomic64_read(&sdp_stats.no_listener);
	stats->bad_hello_ack = atomic64_read(&sdp_stats.bad_hello_ack);
}
EXPORT_SYMBOL_NS_GPL(pdcm_sdp_get_stats, PDCM_NS(PDCM_SDP));

static int __init pdcm_sdp_init(void)
{
	struct pdcm_listen_attr attr = {
		.service_id = cpu_to_be64(PDCM_SDP_SERVICE_ID),
		.service_mask = cpu_to_be64(PDCM_SDP_SERVICE_MASK),
	};
	int ret;

	sdp_catch_id = pdcm_create_id(NULL, sdp_catch_handler, NULL);
	if (IS_ERR(sdp_catch_id))
		return PTR_ERR(sdp_catch_id);
	ret = pdcm_listen(sdp_catch_id, &attr);
	if (ret) {
		pr_err("pdcm_sdp: cannot listen on the SDP range: %d\n", ret);
		pdcm_destroy_id(sdp_catch_id);
	}
	return ret;
}

static void __exit pdcm_sdp_exit(void)
{
	pdcm_destroy_id(sdp_catch_id);
}

module_init(pdcm_sdp_init);
module_exit(pdcm_sdp_exit);
