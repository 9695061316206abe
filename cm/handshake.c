// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The connection handshake: REQ, MRA, REP and RTU (IBA Vol. 1 12.6-12.7),
 * both directions, and pdcm_notify() for a passive side whose QP saw data
 * before the RTU.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <rdma/ib_mad.h>

#include "cm.h"
#include "conn.h"
#include "device.h"
#include "fault.h"
#include "listen.h"
#include "remote.h"
#include "trace.h"

/* ---- REQ ------------------------------------------------------------ */

/*
 * What a peer may make us wait, at most (issue 12 defect 7): its CM
 * response timeout and an MRA's service timeout are capped at 24 (about
 * 67 s a try, rdma_cm's MRA value), its local ACK timeout -- our QP's ACK
 * timeout and the length of TIMEWAIT -- at 20 (about 4 s; rdma_cm on
 * RoCE sends 19; PDCM_PEER_ACK_TIMEOUT_MAX, conn.h).  The number of
 * tries is capped by max_cm_retries.
 */
#define PDCM_PEER_CM_TIMEOUT_MAX	24

/*
 * A delayed MRA of a REQ (PDCM_MRA_FLAG_DELAY, as rdma_cm asks for every
 * REQ its user has not yet accepted) goes out on its own once this share
 * of the peer's wait for an answer has passed, if no copy of the REQ made
 * it go out before: the peer then waits for the MRA's service timeout
 * instead of sending its REQ again.  ib_cm sends it only when a copy
 * arrives (0 here).  Measured (Documentation/performance.rst): with a
 * high-priority pdcm_wq it ends REQ retransmissions at 5,000 and 10,000
 * connections at once, and connects faster than without it.
 */
unsigned int pdcm_mra_early_pct = 75;
EXPORT_SYMBOL_IF_KUNIT(pdcm_mra_early_pct);

static int pdcm_set_mra_early_pct(const char *val, const struct kernel_param *kp)
{
	return pdcm_param_set_uint(val, kp, "early_mra_pct", 0, 99);
}

static const struct kernel_param_ops pdcm_mra_early_pct_ops = {
	.set = pdcm_set_mra_early_pct,
	.get = param_get_uint,
};

module_param_cb(early_mra_pct, &pdcm_mra_early_pct_ops, &pdcm_mra_early_pct, 0644);
__MODULE_PARM_TYPE(early_mra_pct, "uint");
MODULE_PARM_DESC(early_mra_pct,
		 "A delayed MRA of a REQ goes out when this percentage of the peer's wait for an answer has passed, 0..99 (default 75; 0: only on a duplicate REQ, as ib_cm)");

/*
 * A listen whose backlog is full of half-open connections -- REP sent,
 * never answered, as a flood of REQs leaves them -- would refuse every new
 * REQ until their REPs ran out of retries (minutes).  As TCP does with a
 * full SYN queue, a new REQ then evicts the oldest of them whose REP has
 * gone unanswered this long (pdcm_halfopen_evict(); 0: never).  500 ms:
 * an RTU answers a REP within a round trip, and a client that retries its
 * REQ after a flood is let in within about that plus its retry interval.
 */
unsigned int pdcm_halfopen_evict_ms = 500;
EXPORT_SYMBOL_IF_KUNIT(pdcm_halfopen_evict_ms);

static int pdcm_set_halfopen_evict_ms(const char *val,
				      const struct kernel_param *kp)
{
	return pdcm_param_set_uint(val, kp, "halfopen_evict_ms", 0, 600000);
}

static const struct kernel_param_ops pdcm_halfopen_evict_ms_ops = {
	.set = pdcm_set_halfopen_evict_ms,
	.get = param_get_uint,
};

module_param_cb(halfopen_evict_ms, &pdcm_halfopen_evict_ms_ops,
		&pdcm_halfopen_evict_ms, 0644);
__MODULE_PARM_TYPE(halfopen_evict_ms, "uint");
MODULE_PARM_DESC(halfopen_evict_ms,
		 "A REQ to a listen whose backlog is full evicts the oldest half-open connection whose REP has gone unanswered this long, 0..600000 ms (default 500; 0: never, the REQ is dropped)");

/* A REP of a listen under pressure (3/4 of its backlog taken) is tried this often at most. */
#define PDCM_REP_RETRIES_PRESSED	2

int pdcm_check_pdata(const void *pdata, u8 len, unsigned int max)
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

/*
 * The alternate path of our REQ: its address (on any port of the device),
 * kept for the QP; its packet lifetime for the REP's ACK delay; @timeout
 * its local ACK timeout, for the REQ.
 */
static int pdcm_req_alt_av(struct pdcm_conn *conn, struct sa_path_rec *path,
			   u8 *timeout)
{
	struct pdcm_alt *alt = NULL;
	int ret;

	if (path) {
		alt = pdcm_alt_build(conn->port, path);
		if (IS_ERR(alt))
			return PTR_ERR(alt);
		alt->packet_life_time = min_t(u8, path->packet_life_time, 30);
		alt->timeout =
			pdcm_ack_timeout(conn->port->dev->ibdev->attrs.local_ca_ack_delay,
					 alt->packet_life_time);
		*timeout = alt->timeout;
	}
	/* and none left from an earlier connection of the id */
	ret = pdcm_conn_set_alt(conn, &alt);
	pdcm_alt_free(alt);
	return ret;
}

/**
 * pdcm_send_req() - start a connection (active side)
 * @id: an id in IDLE, created on the device of @param->primary_path
 * @param: what to ask for
 *
 * Context: process context; may sleep (address resolution).
 * Return: 0 (the id is in REQ_SENT); -EINVAL in the wrong state or for
 * bad parameters (QPN or PSN over 24 bits, private data over 92 bytes,
 * timeouts over 31, retries over 15, an alternate path whose P_Key or MTU
 * is not the primary's or whose address cannot be built); -ENODEV if pdcm
 * does not run on the port; the transport's error.
 */
int pdcm_send_req(struct pdcm_id *id, const struct pdcm_req_param *param)
{
	struct pdcm_conn *conn = to_conn(id);
	struct sa_path_rec *path = param ? param->primary_path : NULL;
	struct sa_path_rec *alt = param ? param->alternate_path : NULL;
	struct pdcm_port *port;
	struct pdcm_msg *m;
	unsigned int timeout;
	u8 alt_timeout = 0;
	int ret;

	if (!param || !path || !id->device || param->qp_num >> 24 ||
	    param->starting_psn >> 24 || param->remote_cm_response_timeout > 31 ||
	    param->local_cm_response_timeout > 31 || param->retry_count > 7 ||
	    param->rnr_retry_count > 7 || param->max_cm_retries > 15 ||
	    param->ece.vendor_id >> 24 ||
	    pdcm_check_pdata(param->private_data, param->private_data_len,
			     PDCM_REQ_PDATA_SIZE))
		return -EINVAL;
	if (param->qp_type != IB_QPT_RC && param->qp_type != IB_QPT_UC &&
	    param->qp_type != IB_QPT_XRC_INI)
		return -EINVAL;
	/* one P_Key and MTU for both paths, as ib_cm requires */
	if (alt && (alt->pkey != path->pkey || alt->mtu != path->mtu))
		return -EINVAL;
	ret = pdcm_active_begin(conn, PDCM_EV_SEND_REQ, param->port, path,
				param->sgid_attr);
	if (ret)
		return ret;
	ret = pdcm_req_alt_av(conn, alt, &alt_timeout);
	if (ret)
		return ret;
	port = conn->port;
	m = pdcm_fail() ? NULL : kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;

	conn->id.service_id = param->service_id;
	conn->local_qpn = param->qp_num;
	conn->rq_psn = param->starting_psn;	/* we receive from it */
	conn->qp_type = param->qp_type;
	conn->path_mtu = path->mtu;
	conn->responder_resources = param->responder_resources;
	conn->initiator_depth = param->initiator_depth;
	conn->retry_count = param->retry_count;
	conn->rnr_retry_count = param->rnr_retry_count;
	conn->packet_life_time = min_t(u8, path->packet_life_time, 30);
	conn->local_ack_timeout =
		pdcm_ack_timeout(port->dev->ibdev->attrs.local_ca_ack_delay,
				 conn->packet_life_time);
	conn->max_cm_retries = param->max_cm_retries;
	conn->tid = pdcm_new_tid(conn);
	/* We wait 2 * packet lifetime + the peer's response time per try. */
	timeout = 2 * pdcm_timeout_ms(path->packet_life_time) +
		  pdcm_timeout_ms(param->remote_cm_response_timeout);
	conn->cm_timeout_ms = timeout;

	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REQ, conn->tid);
	m->hdr.attr_mod = param->ece.attr_mod;	/* ECE, as ib_cm */
	m->req.vendor_id = param->ece.vendor_id;
	m->req.local_comm_id = be32_to_cpu(conn->id.local_id);
	m->req.service_id = be64_to_cpu(param->service_id);
	m->req.local_ca_guid = pdcm_node_guid(port);
	m->req.local_qpn = param->qp_num;
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
	m->req.pkey = be16_to_cpu(path->pkey);
	m->req.path_mtu = path->mtu;
	m->req.max_cm_retries = param->max_cm_retries;
	if (param->qp_type != IB_QPT_XRC_INI) {
		/* an XRC initiator only sends: reserved for it (A14) */
		m->req.responder_resources = param->responder_resources;
		m->req.retry_count = param->retry_count;
		m->req.rnr_retry_count = param->rnr_retry_count;
		m->req.srq = !!param->srq;
	}
	pdcm_path_to_wire(path, &m->req.primary_path, conn->local_ack_timeout);
	if (alt)
		pdcm_path_to_wire(alt, &m->req.alternate_path, alt_timeout);
	if (param->private_data_len)
		memcpy(m->req.private_data, param->private_data,
		       param->private_data_len);
	m->req.private_data_len = param->private_data_len;

	ret = pdcm_active_send(conn, PDCM_EV_SEND_REQ, m, timeout,
			       pdcm_retries(param->max_cm_retries));
	kfree(m);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_req, PDCM_NS(PDCM));

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
	conn->sq_psn = req->starting_psn;	/* the peer receives from it */
	conn->qp_type = pdcm_qp_type_of(req);
	conn->path_mtu = req->path_mtu;
	conn->responder_resources = req->initiator_depth;
	conn->initiator_depth = req->responder_resources;
	conn->retry_count = req->retry_count;
	conn->rnr_retry_count = req->rnr_retry_count;
	/*
	 * 0 would be an infinite ACK timeout for our QP: at least 1, as
	 * the path's packet lifetime + 1 is in ib_cm
	 */
	conn->local_ack_timeout = clamp_t(u8, req->primary_path.local_ack_timeout,
					  1, PDCM_PEER_ACK_TIMEOUT_MAX);
	conn->max_cm_retries = req->max_cm_retries;
	/*
	 * ... and waits for our answer for its remote CM response timeout
	 * plus twice the packet lifetime (ib_cm: the path's), which the
	 * REQ's local ACK timeout (about packet lifetime + 1) stands for
	 */
	conn->peer_wait_ms =
		pdcm_timeout_ms(min_t(u8, req->remote_cm_response_timeout,
				      PDCM_PEER_CM_TIMEOUT_MAX)) +
		pdcm_timeout_ms(conn->local_ack_timeout);
	/* The active side answers within its local CM response timeout. */
	conn->cm_timeout_ms =
		pdcm_timeout_ms(min_t(u8, req->local_cm_response_timeout,
				      PDCM_PEER_CM_TIMEOUT_MAX));
}

static void pdcm_req_event(struct pdcm_conn *conn, const struct pdcm_msg *msg,
			   struct pdcm_listen *l, struct pdcm_event *ev,
			   struct sa_path_rec *path, struct sa_path_rec *alt)
{
	const struct pdcm_req *req = &msg->req;
	struct pdcm_req_event_param *p = &ev->param.req_rcvd;
	struct pdcm_conn *lconn = pdcm_listen_context(l);

	ev->event = PDCM_REQ_RECEIVED;
	ev->private_data = req->private_data;
	ev->private_data_len = PDCM_REQ_PDATA_SIZE;
	p->listen_id = &lconn->id;
	p->listen_context = lconn->id.context;
	p->port = conn->port->port_num;
	p->primary_path = path;
	p->alternate_path = alt;
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
	pdcm_conn_origin(conn, req->pkey, &p->sgid_attr, &p->bth_pkey);
	p->ece.vendor_id = req->vendor_id;
	p->ece.attr_mod = msg->hdr.attr_mod;
}

/* The addresses a received MAD's packet carried, or false without a GRH. */
bool pdcm_rx_gids(const struct pdcm_rx *rx, union ib_gid *sgid,
		  union ib_gid *dgid)
{
	const union rdma_network_hdr *hdr = (const void *)&rx->grh;
	enum rdma_network_type net = RDMA_NETWORK_IB;

	if (!(rx->wc.wc_flags & IB_WC_GRH))
		return false;
	if (rx->wc.wc_flags & IB_WC_WITH_NETWORK_HDR_TYPE)
		net = rx->wc.network_hdr_type;
	else if (rdma_protocol_roce(rx->port->dev->ibdev, rx->port->port_num))
		net = ib_get_rdma_header_version(hdr) == 4 ?
		      RDMA_NETWORK_IPV4 : RDMA_NETWORK_IPV6;
	return !ib_get_gids_from_rdma_hdr(hdr, net, sgid, dgid);
}

/*
 * A REQ's paths against how it arrived (IBA Vol. 1 12.6.5, 12.6.7;
 * Documentation/robustness.rst, "REQ validation"): 0, or the REJ reason,
 * with @ari the GID the REQ was sent to.
 */
static u16 pdcm_req_check_paths(const struct pdcm_rx *rx,
				const struct pdcm_req *req, union ib_gid *ari)
{
	union ib_gid sgid, dgid;

	memset(ari, 0, sizeof(*ari));
	if (pdcm_rx_gids(rx, &sgid, &dgid)) {
		*ari = dgid;
		/* the sender's port is where the packet came from ... */
		if (memcmp(&req->primary_path.local_gid, &sgid, sizeof(sgid)))
			return PDCM_REJ_INVALID_GID;
		/* ... and ours is where it went */
		if (memcmp(&req->primary_path.remote_gid, &dgid, sizeof(dgid)))
			return PDCM_REJ_INVALID_GID;
	}
	return 0;
}

/*
 * Send the MRA of the peer's REQ (MRA_REQ_SENT); once it is on the wire, a
 * delayed one is delayed no more.
 */
static void pdcm_mra_req_xmit(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	struct pdcm_msg m;

	lockdep_assert_held(&conn->lock);
	pdcm_mra_msg(conn, &m, PDCM_MSG_RESPONSE_REQ, conn->mra_timeout,
		     NULL, 0);
	if (!pdcm_xmit(conn, &m, 0, 0))
		conn->mra_timeout &= ~PDCM_MRA_FLAG_DELAY;
}

/* A second copy of a REQ we already own: answer as its state says. */
void pdcm_dup_req(struct pdcm_conn *dup, const struct pdcm_rx *rx,
		  const struct pdcm_msg *msg)
{
	enum pdcm_state state;

	pdcm_count(rx->port->cnt.rx_dup, PDCM_ATTR_REQ);
	spin_lock_irq(&dup->lock);
	state = dup->id.state;
	if (state == PDCM_MRA_REQ_SENT)
		pdcm_mra_req_xmit(dup);	/* again, or a delayed one's first */
	spin_unlock_irq(&dup->lock);

	switch (state) {
	case PDCM_MRA_REQ_SENT:
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

/*
 * Whether @rx came from where @old's peer is: the source GID on RoCE and
 * for any MAD with a GRH, the source LID on InfiniBand without one, and
 * the P_Key index.  A REQ that says its QP is @old's peer is believed only
 * then (pdcm_req_stale()).
 */
static bool pdcm_rx_from_peer(struct pdcm_conn *old, const struct pdcm_rx *rx)
{
	union ib_gid sgid, dgid;
	bool ok;

	spin_lock_irq(&old->lock);
	ok = old->ah_valid && old->port == rx->port &&
	     old->pkey_index == rx->wc.pkey_index;
	if (ok && pdcm_rx_gids(rx, &sgid, &dgid))
		ok = (old->ah_attr.ah_flags & IB_AH_GRH) &&
		     !memcmp(&old->ah_attr.grh.dgid, &sgid, sizeof(sgid));
	else if (ok)
		ok = old->ah_attr.type == RDMA_AH_ATTR_TYPE_IB &&
		     rdma_ah_get_dlid(&old->ah_attr) == rx->wc.slid;
	spin_unlock_irq(&old->lock);
	return ok;
}

/**
 * pdcm_req_stale() - answer a REQ from a QP still connected to us
 * @old: the conn connected to the REQ's QP, referenced; the reference is
 *	 dropped
 * @rx: where the REQ came from
 * @msg: the REQ
 *
 * Both connections are stale (IBA Vol. 1 12.9.8.3.1): the REQ gets REJ
 * STALE_CONN and @old a DREQ if it is established, as ib_cm answers --
 * but @old only if the REQ came from its peer's address and P_Key
 * (pdcm_rx_from_peer()): QPNs are sequential and CA GUIDs public, so any
 * node could otherwise end any connection by naming its peer's QP.  A
 * peer that restarted sends from where it was, and is believed.
 *
 * Context: process context.
 */
void pdcm_req_stale(struct pdcm_conn *old, const struct pdcm_rx *rx,
		    const struct pdcm_msg *msg)
{
	bool peer = pdcm_rx_from_peer(old, rx);

	trace_pdcm_drop(PDCM_ATTR_REQ, msg->req.local_comm_id,
			peer ? "stale QP" : "stale QP, not from its peer");
	pdcm_reject_req(rx, &msg->req, msg->hdr.tid, PDCM_REJ_STALE_CONN);
	if (peer)
		pdcm_send_dreq(&old->id, NULL, 0);
	else
		atomic_long_inc(&rx->port->cnt.stale_not_peer);
	pdcm_conn_put(old);
}

/*
 * A conn made for a REQ that is not delivered after all: nobody knows it
 * but the tables, so nothing waits for it -- its last reference frees it
 * (an event some message queued on it meanwhile runs and finds it gone).
 */
static void pdcm_req_drop_conn(struct pdcm_conn *conn)
{
	spin_lock_irq(&conn->lock);
	conn->destroyed = true;
	conn->id.state = PDCM_IDLE;
	spin_unlock_irq(&conn->lock);
	pdcm_conn_unhold(conn);
	pdcm_conn_destroy(conn, false);
}

void pdcm_req_work(struct pdcm_work *w)
{
	const struct pdcm_req *req = &w->msg.req;
	struct pdcm_conn *lconn = w->conn;
	struct pdcm_event ev = {};
	struct sa_path_rec path, alt_path;
	struct pdcm_conn *conn, *old;
	struct pdcm_alt *alt;
	union ib_gid ari;
	bool has_alt;
	u16 reason;

	if (READ_ONCE(lconn->destroyed)) {	/* the listen went away */
		pdcm_reject_req(&w->rx, req, w->msg.hdr.tid,
				PDCM_REJ_INVALID_SERVICE_ID);
		goto retire;
	}
	if (!READ_ONCE(w->rx.port->agent))
		goto retire;	/* the device is going away */
	if (READ_ONCE(w->req_withdrawn))
		goto retire;	/* its sender gave up on it (REJ TIMEOUT) */
	old = pdcm_remote_id_find(req->local_comm_id, req->local_ca_guid);
	if (old)
		goto dup;
	reason = pdcm_req_check_paths(&w->rx, req, &ari);
	if (reason) {
		struct pdcm_msg m;

		trace_pdcm_drop(PDCM_ATTR_REQ, req->local_comm_id, "bad path");
		pdcm_rej_msg(&m, w->msg.hdr.tid, 0, req->local_comm_id,
			     PDCM_MSG_RESPONSE_REQ, reason, &ari, sizeof(ari),
			     NULL, 0);
		pdcm_reply(&w->rx, &m);
		goto retire;
	}
	alt = pdcm_req_alt(req, &w->rx, &alt_path);
	if (IS_ERR(alt)) {
		struct pdcm_msg m;

		if (PTR_ERR(alt) == -ENOMEM)
			goto retire;	/* no answer: the peer retries */
		/* as ib_cm: the GID the REQ was sent to */
		trace_pdcm_drop(PDCM_ATTR_REQ, req->local_comm_id,
				"bad alternate path");
		pdcm_rej_msg(&m, w->msg.hdr.tid, 0, req->local_comm_id,
			     PDCM_MSG_RESPONSE_REQ, PDCM_REJ_INVALID_ALT_GID,
			     &req->primary_path.remote_gid,
			     sizeof(req->primary_path.remote_gid), NULL, 0);
		pdcm_reply(&w->rx, &m);
		goto retire;
	}

	has_alt = alt;
	conn = pdcm_conn_alloc(w->rx.port->dev->ibdev, lconn->id.handler,
			       lconn->id.context, GFP_KERNEL);
	if (!conn) {
		pdcm_alt_free(alt);
		goto retire;	/* no answer: the peer retries */
	}
	conn->ev_held = true;	/* until REQ_RECEIVED has been delivered */
	pdcm_conn_set_port(conn, w->rx.port);
	conn->tid = w->msg.hdr.tid;
	pdcm_req_to_conn(conn, req);
	conn->req_jiffies = w->rx_jiffies;
	conn->datapath_dlid =
		pdcm_req_path(req, &w->rx.wc,
			      rdma_protocol_roce(w->rx.port->dev->ibdev,
						 w->rx.port->port_num), &path);
	if (pdcm_conn_hash(conn) ||
	    w->rx.port->ops->peer_av(conn, &w->rx, &path) ||
	    (alt && pdcm_conn_set_alt(conn, &alt))) {
		pdcm_alt_free(alt);
		pdcm_req_drop_conn(conn);
		goto retire;
	}
	spin_lock_irq(&conn->lock);
	pdcm_fsm_step(conn, PDCM_EV_RX_REQ);
	spin_unlock_irq(&conn->lock);

	old = pdcm_remote_id_insert(conn);
	if (old) {
		/* a copy of this REQ, handled in parallel, got there first */
		pdcm_req_drop_conn(conn);
		goto dup;
	}
	old = pdcm_remote_qp_insert(conn);
	if (old) {
		/* connected since pdcm_rx_req() looked: both are stale */
		pdcm_req_stale(old, &w->rx, &w->msg);
		pdcm_req_drop_conn(conn);
		goto retire;
	}
	/*
	 * Out of the queued REQs only now that the peer's comm ID finds the
	 * conn: a REJ TIMEOUT looks in that table first, so it finds the REQ
	 * in one or the other.
	 */
	if (!pdcm_req_unqueue(w)) {
		pdcm_req_drop_conn(conn);
		goto retire;
	}
	spin_lock_irq(&conn->lock);
	conn->req_copied = w->req_copied;
	spin_unlock_irq(&conn->lock);

	conn->matched = w->listen;	/* holds the backlog slot */
	w->listen = NULL;
	pdcm_req_event(conn, &w->msg, conn->matched, &ev, &path,
		       has_alt ? &alt_path : NULL);
	/*
	 * The ULP owns the conn from here.  Our reference keeps it while the
	 * handler runs, so that a pdcm_destroy_id() from another thread waits
	 * for the handler, as it waits for any other event's.
	 */
	pdcm_conn_get(conn);
	pdcm_deliver(conn, &ev);
	pdcm_conn_unhold(conn);
	pdcm_conn_put(conn);
	return;

dup:
	pdcm_dup_req(old, &w->rx, &w->msg);
	pdcm_conn_put(old);
retire:
	pdcm_listen_retire(w->listen);
}

/* ---- MRA ------------------------------------------------------------ */

/*
 * Arm the early MRA of a delayed one: at pdcm_mra_early_pct of the peer's
 * wait, counted from the REQ's arrival (at once if that has passed).
 */
static void pdcm_mra_arm(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	unsigned int pct = READ_ONCE(pdcm_mra_early_pct);
	unsigned long due, now = jiffies;

	lockdep_assert_held(&conn->lock);
	if (!pct)
		return;
	due = conn->req_jiffies +
	      msecs_to_jiffies(conn->peer_wait_ms * pct / 100);
	pdcm_conn_get(conn);
	if (!mod_delayed_work(pdcm_wq, &conn->mra_work,
			      time_after(due, now) ? due - now : 0))
		return;
	pdcm_conn_put(conn);	/* was already pending: keep one reference */
}

/**
 * pdcm_send_mra() - ask the peer for more time
 * @id: an id in REQ_RCVD, REP_RCVD (or already MRAed), or an established
 *	one with a LAP delivered (PDCM_LAP_RCVD: the MRA is of the LAP, and
 *	the id moves to PDCM_MRA_LAP_SENT)
 * @service_timeout: the time asked for (5 bits), optionally ORed with
 *	PDCM_MRA_FLAG_DELAY: then the MRA goes on the wire only when a
 *	duplicate of the peer's message arrives (rdma_cm's use; at once if
 *	one came while the REQ waited to be handled) or, for a REQ, once
 *	early_mra_pct of the peer's wait for an answer has passed
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
	m = pdcm_fail() ? NULL : kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	if (conn->id.state == PDCM_ESTABLISHED) {
		ret = pdcm_mra_lap(conn, m, service_timeout, private_data, len);
		spin_unlock_irqrestore(&conn->lock, flags);
		kfree(m);
		return ret;
	}
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_MRA);
	if (ret >= 0 && !delay) {
		pdcm_mra_msg(conn, m, pdcm_msg_of_state(conn->id.state),
			     service_timeout, private_data, len);
		ret = pdcm_xmit(conn, m, 0, 0);
	}
	if (ret >= 0) {
		pdcm_fsm_step(conn, PDCM_EV_SEND_MRA);
		conn->mra_timeout = service_timeout;
		/*
		 * A copy that came while the REQ was queued asked already;
		 * if that MRA cannot go out, the early one is still armed.
		 */
		if (delay && conn->id.state == PDCM_MRA_REQ_SENT) {
			if (conn->req_copied)
				pdcm_mra_req_xmit(conn);
			if (conn->mra_timeout & PDCM_MRA_FLAG_DELAY)
				pdcm_mra_arm(conn);
		}
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_mra, PDCM_NS(PDCM));

/**
 * pdcm_mra_fire() - the peer's wait for an answer to its REQ runs out
 * @work: the conn's mra_work
 *
 * Sends the delayed MRA unless a copy of the REQ made it go out already or
 * the conn has left MRA_REQ_SENT (answered, rejected, destroyed); the
 * timer's reference goes.
 *
 * Context: pdcm_wq.
 */
void pdcm_mra_fire(struct work_struct *work)
{
	struct pdcm_conn *conn = container_of(to_delayed_work(work),
					      struct pdcm_conn, mra_work);

	spin_lock_irq(&conn->lock);
	if (conn->id.state == PDCM_MRA_REQ_SENT && !conn->destroyed &&
	    (conn->mra_timeout & PDCM_MRA_FLAG_DELAY))
		pdcm_mra_req_xmit(conn);
	spin_unlock_irq(&conn->lock);
	pdcm_conn_put(conn);	/* the timer's */
}

void pdcm_mra_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
{
	const struct pdcm_mra *mra = &msg->mra;
	struct pdcm_event ev = { .event = PDCM_MRA_RECEIVED };
	unsigned int extra;
	bool ok;
	int ret;

	/*
	 * Only the first MRA extends the wait: later ones (copies, or a
	 * peer stretching it without end) are duplicates, as in ib_cm.
	 */
	spin_lock_irq(&conn->lock);
	ok = (mra->msg_mraed == PDCM_MSG_RESPONSE_REQ &&
	      conn->id.state == PDCM_REQ_SENT) ||
	     (mra->msg_mraed == PDCM_MSG_RESPONSE_REP &&
	      conn->id.state == PDCM_REP_SENT);
	ret = ok ? pdcm_fsm_step(conn, PDCM_EV_RX_MRA) : -EINVAL;
	if (ret >= 0 && conn->msg) {
		/* the peer's extra time, plus the packet's round trip */
		extra = pdcm_timeout_ms(min_t(u8, mra->service_timeout,
					      PDCM_PEER_CM_TIMEOUT_MAX)) +
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
	unsigned int retries;
	unsigned long flags;
	struct pdcm_msg *m;
	int ret;

	if (!param || param->qp_num >> 24 || param->starting_psn >> 24 ||
	    param->failover_accepted > 2 || param->rnr_retry_count > 7 ||
	    param->ece.vendor_id >> 24 ||
	    pdcm_check_pdata(param->private_data, param->private_data_len,
			     PDCM_REP_PDATA_SIZE))
		return -EINVAL;
	m = pdcm_fail() ? NULL : kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_REP);
	if (ret < 0) {
		spin_unlock_irqrestore(&conn->lock, flags);
		kfree(m);
		return ret;
	}
	pdcm_wire_init_hdr(&m->hdr, PDCM_ATTR_REP, conn->tid);
	m->hdr.attr_mod = param->ece.attr_mod;
	m->rep.vendor_id = param->ece.vendor_id;
	m->rep.local_comm_id = be32_to_cpu(conn->id.local_id);
	m->rep.remote_comm_id = be32_to_cpu(conn->id.remote_id);
	m->rep.starting_psn = param->starting_psn;
	m->rep.responder_resources = param->responder_resources;
	/* how long our CA may take to ACK: its own figure, as ib_cm says */
	m->rep.target_ack_delay =
		min_t(u8, conn->port->dev->ibdev->attrs.local_ca_ack_delay, 31);
	m->rep.failover_accepted = param->failover_accepted;
	m->rep.rnr_retry_count = param->rnr_retry_count;
	if (conn->qp_type == IB_QPT_XRC_TGT) {
		/* an XRC target's QPN goes in Local EECN, with SRQ set (A14) */
		m->rep.local_eecn = param->qp_num;
		m->rep.srq = 1;
	} else {
		m->rep.local_qpn = param->qp_num;
		m->rep.initiator_depth = param->initiator_depth;
		m->rep.end_to_end_flow_control = !!param->flow_control;
		m->rep.srq = !!param->srq;
	}
	m->rep.local_ca_guid = pdcm_node_guid(conn->port);
	if (param->private_data_len)
		memcpy(m->rep.private_data, param->private_data,
		       param->private_data_len);
	m->rep.private_data_len = param->private_data_len;
	retries = pdcm_retries(conn->max_cm_retries);
	if (conn->matched && pdcm_listen_pressed(conn->matched))
		retries = min(retries, PDCM_REP_RETRIES_PRESSED);
	ret = pdcm_xmit(conn, m, conn->cm_timeout_ms, retries);
	if (!ret) {
		if (conn->matched)
			pdcm_halfopen_add(conn->matched, &conn->halfopen);
		conn->local_qpn = param->qp_num;
		conn->rq_psn = param->starting_psn;
		conn->responder_resources = param->responder_resources;
		conn->initiator_depth = param->initiator_depth;
		/*
		 * Not the RNR retry count: the REP's is for the peer's QP,
		 * ours keeps the REQ's, as IBA and ib_cm have it.
		 *
		 * The backlog slot stays taken until the RTU (or whatever
		 * ends REP_SENT): half-open connections are bounded by the
		 * backlog, not by how many REQs a peer sends and never
		 * completes.
		 */
		pdcm_fsm_step(conn, PDCM_EV_SEND_REP);
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	kfree(m);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_rep, PDCM_NS(PDCM));

static void pdcm_halfopen_get(struct pdcm_halfopen *h)
{
	pdcm_conn_get(container_of(h, struct pdcm_conn, halfopen));
}

/**
 * pdcm_halfopen_evict() - make room in a full backlog for a new request
 * @l: the listen the request matched, its backlog full
 * @port: the port it arrived on (its counters)
 *
 * Takes the oldest half-open connection of @l's backlog whose REP has
 * gone unanswered for pdcm_halfopen_evict_ms and frees its slot now; the
 * connection then ends as if its REP had run out of retries, on its own
 * event list: its peer gets REJ TIMEOUT and its ULP PDCM_REP_ERROR
 * (pdcm_send_error_work()) -- unless an RTU overtakes that, and the
 * connection is established after all, without a slot, as it would be
 * once established anyway.
 *
 * Context: any context that may take a spinlock (the receive handler).
 * Return: true if a slot was freed (the caller may admit again).
 */
bool pdcm_halfopen_evict(struct pdcm_listen *l, struct pdcm_port *port)
{
	unsigned int ms = READ_ONCE(pdcm_halfopen_evict_ms);
	struct pdcm_listen *matched = NULL;
	struct pdcm_halfopen *h;
	struct pdcm_conn *conn;
	unsigned long flags;
	int tries;

	/* a few: the oldest may just have been answered (RTU, MRA) */
	for (tries = 0; ms && !matched && tries < 4; tries++) {
		h = pdcm_halfopen_oldest(l, msecs_to_jiffies(ms),
					 pdcm_halfopen_get);
		if (!h)
			break;
		conn = container_of(h, struct pdcm_conn, halfopen);
		spin_lock_irqsave(&conn->lock, flags);
		/* REP_SENT only: a peer that sent MRA has answered */
		if (conn->id.state == PDCM_REP_SENT && conn->msg &&
		    conn->matched) {
			pdcm_cancel(conn);
			conn->msg = NULL;	/* its completion is no timeout now */
			conn->err_status = IB_WC_RESP_TIMEOUT_ERR;
			conn->err_gen = conn->msg_gen;
			conn->evicted = true;
			matched = pdcm_take_matched(conn);
		}
		spin_unlock_irqrestore(&conn->lock, flags);
		if (matched) {
			pdcm_slot_free(matched);
			atomic_long_inc(&port->cnt.backlog_evicted);
			trace_pdcm_drop(PDCM_ATTR_REP,
					be32_to_cpu(conn->id.local_id),
					"evicted from a full backlog");
			pdcm_conn_post(conn, &conn->err_ev);
		}
		pdcm_conn_put(conn);
	}
	return matched;
}

/* The QPN a REP connects us to: an XRC target's is in Local EECN (A14). */
static u32 pdcm_rep_qpn(const struct pdcm_conn *conn, const struct pdcm_rep *rep)
{
	return conn->qp_type == IB_QPT_XRC_INI ? rep->local_eecn :
						 rep->local_qpn;
}

static void pdcm_rep_to_conn(struct pdcm_conn *conn, const struct pdcm_rep *rep)
{
	conn->id.remote_id = cpu_to_be32(rep->local_comm_id);
	conn->remote_ca_guid = rep->local_ca_guid;
	conn->remote_qpn = pdcm_rep_qpn(conn, rep);
	conn->sq_psn = rep->starting_psn;
	/* the peer's CA ACKs within its target ACK delay (capped) */
	conn->local_ack_timeout =
		pdcm_ack_timeout(min_t(u8, rep->target_ack_delay,
				       PDCM_PEER_ACK_TIMEOUT_MAX),
				 conn->packet_life_time);
	pdcm_alt_ack_timeout(conn, min_t(u8, rep->target_ack_delay,
					 PDCM_PEER_ACK_TIMEOUT_MAX));
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

	pdcm_count(conn->port->cnt.rx_dup, PDCM_ATTR_REP);
	spin_lock_irq(&conn->lock);
	if (conn->id.state == PDCM_ESTABLISHED) {
		pdcm_rtu_msg(conn, &m, NULL, 0);
		pdcm_xmit(conn, &m, 0, 0);
	} else if (conn->id.state == PDCM_MRA_REP_SENT) {
		pdcm_mra_msg(conn, &m, PDCM_MSG_RESPONSE_REP, conn->mra_timeout,
			     NULL, 0);
		pdcm_xmit(conn, &m, 0, 0);
	}
	spin_unlock_irq(&conn->lock);
}

/*
 * The conn already connected to the QP a REP names (with a reference), or
 * NULL once @conn is in the remote QP table under it.  Nothing else of
 * @conn changes: a stale REP is answered, not taken.
 */
static struct pdcm_conn *pdcm_rep_stale(struct pdcm_conn *conn,
					const struct pdcm_rep *rep)
	__must_hold(&conn->lock)
{
	u64 guid = conn->remote_ca_guid;
	u32 qpn = conn->remote_qpn;
	struct pdcm_conn *stale;

	lockdep_assert_held(&conn->lock);
	conn->remote_ca_guid = rep->local_ca_guid;
	conn->remote_qpn = pdcm_rep_qpn(conn, rep);
	stale = pdcm_remote_qp_insert(conn);
	if (stale) {
		conn->remote_ca_guid = guid;
		conn->remote_qpn = qpn;
	}
	return stale;
}

void pdcm_rep_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
		 const struct pdcm_msg *msg)
{
	const struct pdcm_rep *rep = &msg->rep;
	struct pdcm_event ev = { .event = PDCM_REP_RECEIVED };
	struct pdcm_rep_event_param *p = &ev.param.rep_rcvd;
	struct pdcm_conn *old, *stale = NULL, *dup = NULL;
	int ret;

	/*
	 * Another conn of ours already has this peer comm ID (and CA GUID):
	 * as ib_cm, drop the REP; our REQ is retried, or times out.
	 */
	old = pdcm_remote_id_find(rep->local_comm_id, rep->local_ca_guid);
	if (old) {
		bool other = old != conn;

		pdcm_conn_put(old);
		if (other) {
			atomic_long_inc(&rx->port->cnt.rx_dropped);
			trace_pdcm_drop(PDCM_ATTR_REP, rep->remote_comm_id,
					"remote comm ID in use");
			return;
		}
	}
	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_RX_REP);
	if (ret >= 0)
		stale = pdcm_rep_stale(conn, rep);
	if (ret >= 0 && !stale) {
		pdcm_cancel(conn);
		pdcm_rep_to_conn(conn, rep);
		pdcm_fsm_step(conn, PDCM_EV_RX_REP);
		/*
		 * Into the remote ID table before the lock is dropped (the
		 * remote QP table has it already): a pdcm_send_rej() from
		 * another thread unlinks after its own step, so it can no
		 * longer come between the step and the inserts and leave an
		 * IDLE id linked (with its keys rewritten, and the node linked
		 * twice, when it is reused).
		 */
		dup = pdcm_remote_id_insert(conn);
	}
	spin_unlock_irq(&conn->lock);
	if (dup)
		pdcm_conn_put(dup);
	if (ret < 0) {
		pdcm_dup_rep(conn);
		return;
	}
	if (stale) {
		struct pdcm_msg m;

		/*
		 * The peer's QP is still connected to us on @stale: both are
		 * stale, as for a REQ (pdcm_req_work()).  As ib_cm: the REP
		 * gets REJ STALE_CONN and @stale a DREQ, and our id stays in
		 * REQ_SENT, its REQ retried, until the REQ times out
		 * (PDCM_REQ_ERROR: for rdma_cm, unreachable, not rejected).
		 */
		atomic_long_inc(&rx->port->cnt.rx_dropped);
		trace_pdcm_drop(PDCM_ATTR_REP, rep->remote_comm_id, "stale QP");
		pdcm_rej_msg(&m, msg->hdr.tid, rep->remote_comm_id,
			     rep->local_comm_id, PDCM_MSG_RESPONSE_REP,
			     PDCM_REJ_STALE_CONN, NULL, 0, NULL, 0);
		pdcm_reply(rx, &m);
		pdcm_send_dreq(&stale->id, NULL, 0);
		pdcm_conn_put(stale);
		return;
	}

	p->remote_ca_guid = cpu_to_be64(rep->local_ca_guid);
	p->remote_qkey = rep->local_qkey;
	p->remote_qpn = conn->remote_qpn;
	p->starting_psn = rep->starting_psn;
	p->responder_resources = conn->responder_resources;
	p->initiator_depth = conn->initiator_depth;
	p->target_ack_delay = rep->target_ack_delay;
	p->failover_accepted = rep->failover_accepted;
	p->flow_control = rep->end_to_end_flow_control;
	p->ece.vendor_id = rep->vendor_id;
	p->ece.attr_mod = msg->hdr.attr_mod;
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
	m = pdcm_fail() ? NULL : kzalloc(sizeof(*m), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_RTU);
	if (ret >= 0) {
		pdcm_rtu_msg(conn, m, private_data, len);
		ret = pdcm_xmit(conn, m, 0, 0);
	}
	if (!ret)
		pdcm_fsm_step(conn, PDCM_EV_SEND_RTU);
	spin_unlock_irqrestore(&conn->lock, flags);
	kfree(m);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_rtu, PDCM_NS(PDCM));

void pdcm_rtu_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
{
	struct pdcm_listen *matched = NULL;
	int ret;

	spin_lock_irq(&conn->lock);
	ret = pdcm_fsm_step(conn, PDCM_EV_RX_RTU);
	if (ret >= 0) {
		pdcm_cancel(conn);
		matched = pdcm_take_matched(conn);	/* established */
	}
	spin_unlock_irq(&conn->lock);
	pdcm_slot_free(matched);
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
 *	is established (passive side, REP_SENT or MRA_REP_RCVD).
 *	IB_EVENT_PATH_MIG: the QP migrated to its alternate path, which
 *	becomes the connection's (established, with no LAP delivered; the
 *	id moves to PDCM_LAP_IDLE), as in ib_cm
 *
 * The USER_ESTABLISHED event follows from the conn's event list; it is
 * preallocated, so this cannot fail for want of memory.
 *
 * Context: any context that may take a spinlock (QP event handlers).
 * Return: 0, or -EINVAL in the wrong state or for another event.
 */
int pdcm_notify(struct pdcm_id *id, enum ib_event_type event)
{
	struct pdcm_conn *conn = to_conn(id);
	struct pdcm_listen *matched = NULL;
	unsigned long flags;
	int ret;

	if (event == IB_EVENT_PATH_MIG)
		return pdcm_migrate(conn);
	if (event != IB_EVENT_COMM_EST)
		return -EINVAL;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_step(conn, PDCM_EV_COMM_EST);
	if (ret >= 0) {
		pdcm_cancel(conn);
		matched = pdcm_take_matched(conn);	/* established */
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	pdcm_slot_free(matched);
	if (ret < 0)
		return ret;
	/* USER_ESTABLISHED comes in order with the conn's other events */
	pdcm_conn_post(conn, &conn->est_ev);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_notify, PDCM_NS(PDCM));
