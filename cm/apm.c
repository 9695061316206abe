// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Alternate paths (automatic path migration, IBA Vol. 1 12.8 and 17.2.8),
 * as the in-tree ib_cm of Linux 6.1 to 7.3 supports them:
 *
 *  - a REQ carries the alternate path a ULP gives (pdcm_send_req()) and
 *    a received REQ's is delivered and kept (pdcm_req_alt()) -- on
 *    InfiniBand; on RoCE, where ib_cm cannot build an address for it, a
 *    REQ with one is rejected (INVALID_ALT_GID);
 *  - pdcm_init_qp_attr() loads it into the QP (IB_QP_ALT_PATH in RTR,
 *    IB_MIG_REARM in RTS) when its address has a LID;
 *  - pdcm_notify(IB_EVENT_PATH_MIG): the alternate becomes the primary
 *    (the connection's MADs follow it) and, as in ib_cm, stays the
 *    alternate;
 *  - a LAP from the peer of an established connection loads a new
 *    alternate (PDCM_LAP_RECEIVED); pdcm_send_mra() may answer it.  No
 *    LAP or APR is ever sent: ib_cm has had no call for either since
 *    Linux 5.x, so an APR never matches a LAP of ours and is dropped.
 *
 * A connection's alternate is a struct pdcm_alt of its own, allocated only
 * for connections that have one (conn->alt, under conn->lock).
 */
#include <linux/slab.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>

#include "cm.h"
#include "conn.h"
#include "counters.h"
#include "device.h"
#include "fault.h"
#include "trace.h"

/**
 * pdcm_alt_free() - free an alternate path and its address's references
 * @alt: the alternate, or NULL
 *
 * Context: any.
 */
void pdcm_alt_free(struct pdcm_alt *alt)
{
	if (!alt)
		return;
	rdma_destroy_ah_attr(&alt->ah_attr);
	kfree(alt);
}

/**
 * pdcm_alt_build() - an alternate path's address, from a path record
 * @port: the connection's (primary) port: the device to look on
 * @path: the alternate path, in the sender's terms (source GID ours)
 *
 * Context: process context.
 * Return: the alternate (port, P_Key index and address set); ERR_PTR of
 * -ENOMEM, or of the transport's error (-EINVAL: the device has no such
 * GID or P_Key, as ib_cm's cm_init_av_by_path() fails).
 */
struct pdcm_alt *pdcm_alt_build(struct pdcm_port *port,
				struct sa_path_rec *path)
{
	struct pdcm_alt *alt;
	int ret;

	alt = pdcm_fail() ? NULL : kzalloc(sizeof(*alt), GFP_KERNEL);
	if (!alt)
		return ERR_PTR(-ENOMEM);
	ret = port->ops->alt_av(port, path, alt);
	if (ret) {
		kfree(alt);	/* the op left no reference on failure */
		return ERR_PTR(ret);
	}
	return alt;
}

/* Whether @conn may take @alt: its ports still have their MAD agents. */
static bool pdcm_alt_live(const struct pdcm_conn *conn,
			  const struct pdcm_alt *alt)
	__must_hold(&conn->lock)
{
	bool live;

	lockdep_assert_held(&conn->lock);
	read_lock(&conn->port->agent_lock);
	live = conn->port->agent;
	read_unlock(&conn->port->agent_lock);
	read_lock(&alt->port->agent_lock);
	live = live && alt->port->agent;
	read_unlock(&alt->port->agent_lock);
	return live;
}

/**
 * pdcm_conn_set_alt() - give a connection its alternate path
 * @conn: the connection, @conn->lock not held
 * @alt: in: the new alternate, or NULL for none; out: what the caller
 *	frees (pdcm_alt_free()): the one it replaced, or the new one if
 *	@conn could not take it
 *
 * Only while the ports still have their MAD agents, as pdcm_mad_set_av()
 * installs a primary address: a device's removal frees its connections'
 * addresses once the agents are gone (pdcm_conns_release_avs()).  A new
 * connection (pdcm_send_req()) also starts a new LAP history.
 *
 * Context: any context that may take a spinlock.
 * Return: 0, or -ENODEV if the device is going away.
 */
int pdcm_conn_set_alt(struct pdcm_conn *conn, struct pdcm_alt **alt)
{
	unsigned long flags;
	bool live;

	spin_lock_irqsave(&conn->lock, flags);
	live = !*alt || pdcm_alt_live(conn, *alt);
	if (live) {
		swap(conn->alt, *alt);
		WRITE_ONCE(conn->id.lap_state, PDCM_LAP_UNINIT);
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	return live ? 0 : -ENODEV;
}

/**
 * pdcm_alt_qp_attr() - the alternate path the QP is given, as ib_cm's
 *	alt_av
 * @conn: the connection, @conn->lock held
 * @attr: its alt_ah_attr, alt_port_num, alt_pkey_index and alt_timeout
 *	are filled in
 *
 * After a path migration the alternate is the primary (@conn's own
 * address), as ib_cm has it.  The address's sgid_attr reference stays
 * @conn's (see pdcm_init_qp_attr()).
 *
 * Context: holds @conn->lock.
 * Return: true if @conn has an alternate path (@attr filled in).
 */
bool pdcm_alt_qp_attr(const struct pdcm_conn *conn, struct ib_qp_attr *attr)
	__must_hold(&conn->lock)
{
	const struct pdcm_alt *alt = conn->alt;

	lockdep_assert_held(&conn->lock);
	if (!alt)
		return false;
	if (alt->mirror) {
		if (!conn->ah_valid)
			return false;
		attr->alt_ah_attr = conn->ah_attr;
		attr->alt_port_num = conn->port->port_num;
		attr->alt_pkey_index = conn->pkey_index;
		attr->alt_timeout = conn->local_ack_timeout;
		return true;
	}
	attr->alt_ah_attr = alt->ah_attr;
	attr->alt_port_num = alt->port->port_num;
	attr->alt_pkey_index = alt->pkey_index;
	attr->alt_timeout = alt->timeout;
	return true;
}

/**
 * pdcm_alt_ack_timeout() - the alternate's QP ACK timeout, from the REP
 * @conn: an active connection, @conn->lock held
 * @target_ack_delay: the REP's target ACK delay (capped by the caller)
 *
 * As for the primary: the path's round trip plus the peer CA's delay.
 *
 * Context: holds @conn->lock.
 */
void pdcm_alt_ack_timeout(struct pdcm_conn *conn, u8 target_ack_delay)
	__must_hold(&conn->lock)
{
	lockdep_assert_held(&conn->lock);
	if (conn->alt && !conn->alt->mirror)
		conn->alt->timeout = pdcm_ack_timeout(target_ack_delay,
						      conn->alt->packet_life_time);
}

/**
 * pdcm_migrate() - the QP migrated to its alternate path
 * @conn: the connection
 *
 * As ib_cm's IB_EVENT_PATH_MIG: only on an established connection that has
 * no LAP under way (PDCM_LAP_UNINIT or PDCM_LAP_IDLE), which moves to
 * PDCM_LAP_IDLE.  With an alternate path, that path becomes the
 * connection's address -- its MADs go there from now on -- and, as in
 * ib_cm, the alternate the QP is given stays the same path; the two are
 * swapped, not copied, so that nothing is freed or taken here (the old
 * primary's references go with the alternate's, later).  Without one
 * nothing else changes (ib_cm would copy an empty address over its own).
 *
 * Context: any context that may take a spinlock (QP event handlers).
 * Return: 0, or -EINVAL in another state.
 */
int pdcm_migrate(struct pdcm_conn *conn)
{
	struct pdcm_alt *alt;
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&conn->lock, flags);
	if (conn->id.state != PDCM_ESTABLISHED ||
	    (conn->id.lap_state != PDCM_LAP_UNINIT &&
	     conn->id.lap_state != PDCM_LAP_IDLE)) {
		ret = -EINVAL;
		goto out;
	}
	WRITE_ONCE(conn->id.lap_state, PDCM_LAP_IDLE);
	alt = conn->alt;
	if (!alt || alt->mirror || !conn->ah_valid)
		goto out;
	swap(conn->ah_attr, alt->ah_attr);
	swap(conn->port, alt->port);	/* the same device: its reference */
	swap(conn->pkey_index, alt->pkey_index);
	swap(conn->local_ack_timeout, alt->timeout);
	conn->datapath_dlid = 0;	/* the alternate's own LID */
	alt->mirror = true;
out:
	spin_unlock_irqrestore(&conn->lock, flags);
	return ret;
}

/**
 * pdcm_req_alt() - the alternate path of a received REQ, if any
 * @req: the REQ, its primary path already checked
 * @rx: how it arrived
 * @path: filled in with the alternate path in the receiver's terms
 *
 * A REQ has one when its alternate local port LID is not 0, as ib_cm
 * reads it.  On InfiniBand its permissive LIDs are resolved from the
 * packet as the primary's are (not subnet local: routed), and an address
 * is built for it on the port of the device that has its remote port GID;
 * on RoCE ib_cm can build none (it would have to resolve the route), so
 * the REQ is rejected whatever the path says.
 *
 * Context: process context.
 * Return: NULL (no alternate path), the alternate, ERR_PTR(-ENOMEM) (drop
 * the REQ: the peer retries) or another ERR_PTR (REJ INVALID_ALT_GID).
 */
struct pdcm_alt *pdcm_req_alt(const struct pdcm_req *req,
			      const struct pdcm_rx *rx, struct sa_path_rec *path)
{
	struct pdcm_path w = req->alternate_path;
	struct pdcm_alt *alt;

	if (!w.local_lid)
		return NULL;
	if (rdma_protocol_roce(rx->port->dev->ibdev, rx->port->port_num))
		return ERR_PTR(-EINVAL);
	pdcm_path_routed_lids(&w, &rx->wc);
	pdcm_wire_to_path(&w, req, false, path);
	alt = pdcm_alt_build(rx->port, path);
	if (IS_ERR(alt))
		return alt;
	/* as the primary's: never 0 (infinite), capped */
	alt->timeout = clamp_t(u8, w.local_ack_timeout, 1,
			       PDCM_PEER_ACK_TIMEOUT_MAX);
	return alt;
}

/**
 * pdcm_mra_lap() - answer a delivered LAP with an MRA
 * @conn: an established connection, @conn->lock held
 * @m: room for the MRA
 * @service_timeout: the time asked for, maybe with PDCM_MRA_FLAG_DELAY:
 *	then only a copy of the LAP makes it go out
 * @pdata: private data
 * @len: its length (checked by the caller)
 *
 * Context: holds @conn->lock.
 * Return: 0 (PDCM_MRA_LAP_SENT), -EINVAL if no LAP waits for an answer,
 * or the transport's error.
 */
int pdcm_mra_lap(struct pdcm_conn *conn, struct pdcm_msg *m, u8 service_timeout,
		 const void *pdata, u8 len)
	__must_hold(&conn->lock)
{
	int ret = 0;

	lockdep_assert_held(&conn->lock);
	if (conn->id.state != PDCM_ESTABLISHED ||
	    conn->id.lap_state != PDCM_LAP_RCVD || !conn->alt)
		return -EINVAL;
	if (!(service_timeout & PDCM_MRA_FLAG_DELAY)) {
		pdcm_mra_msg(conn, m, PDCM_MSG_RESPONSE_OTHER, service_timeout,
			     pdata, len);
		m->hdr.tid = conn->alt->lap_tid;
		ret = pdcm_xmit(conn, m, 0, 0);
	}
	if (!ret) {
		WRITE_ONCE(conn->id.lap_state, PDCM_MRA_LAP_SENT);
		conn->mra_timeout = service_timeout;
	}
	return ret;
}

static void pdcm_lap_drop(const struct pdcm_rx *rx, const struct pdcm_msg *msg,
			  const char *why)
{
	atomic_long_inc(&rx->port->cnt.rx_dropped);
	trace_pdcm_drop(PDCM_ATTR_LAP, msg->lap.remote_comm_id, why);
}

/*
 * A LAP for a connection whose LAP is delivered already: a copy.  After
 * the ULP's MRA it gets the MRA again (a delayed one its first), to
 * whoever sent it, as ib_cm answers; before, nothing.
 */
static void pdcm_lap_dup(struct pdcm_conn *conn, const struct pdcm_rx *rx)
{
	struct pdcm_msg m;
	bool mra;

	pdcm_count(rx->port->cnt.rx_dup, PDCM_ATTR_LAP);
	spin_lock_irq(&conn->lock);
	mra = conn->id.lap_state == PDCM_MRA_LAP_SENT && conn->alt;
	if (mra) {
		pdcm_mra_msg(conn, &m, PDCM_MSG_RESPONSE_OTHER,
			     conn->mra_timeout, NULL, 0);
		m.hdr.tid = conn->alt->lap_tid;
	}
	spin_unlock_irq(&conn->lock);
	if (mra)
		pdcm_reply(rx, &m);
}

/**
 * pdcm_lap_rx() - the peer proposes a new alternate path
 * @conn: the connection its comm IDs name (both checked by the caller)
 * @rx: where it came from
 * @msg: the LAP
 *
 * As ib_cm: on InfiniBand only, for an established connection with no LAP
 * delivered (PDCM_LAP_UNINIT or PDCM_LAP_IDLE), whose alternate path
 * becomes the LAP's (P_Key and MTU the connection's) once an address is
 * built for it; PDCM_LAP_RECEIVED follows (PDCM_LAP_RCVD).  Besides, the
 * LAP must name our QP and an alternate LID.  Anything else is counted
 * and dropped before anything is allocated or changed -- unlike ib_cm,
 * which takes the LAP's path, and the LAP's sender as its MAD address,
 * before it looks at the state.
 *
 * Context: the connection's event work.
 */
void pdcm_lap_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
		 const struct pdcm_msg *msg)
{
	const struct pdcm_lap *lap = &msg->lap;
	struct pdcm_event ev = { .event = PDCM_LAP_RECEIVED };
	struct pdcm_path w = lap->alternate_path;
	struct pdcm_port *port;
	struct sa_path_rec path;
	struct pdcm_alt *alt;
	struct pdcm_req req;
	u16 pkey_index;
	bool ok;

	if (rdma_protocol_roce(rx->port->dev->ibdev, rx->port->port_num)) {
		pdcm_lap_drop(rx, msg, "LAP on RoCE");
		return;
	}
	spin_lock_irq(&conn->lock);
	ok = conn->id.state == PDCM_ESTABLISHED;
	if (ok && conn->id.lap_state != PDCM_LAP_UNINIT &&
	    conn->id.lap_state != PDCM_LAP_IDLE) {
		spin_unlock_irq(&conn->lock);
		pdcm_lap_dup(conn, rx);
		return;
	}
	ok = ok && lap->remote_qpn_eecn == conn->local_qpn && w.local_lid &&
	     conn->port;
	port = conn->port;
	pkey_index = conn->pkey_index;
	/* the connection's P_Key and MTU, as ib_cm gives the path */
	memset(&req, 0, sizeof(req));
	req.service_id = be64_to_cpu(conn->id.service_id);
	req.path_mtu = conn->path_mtu;
	spin_unlock_irq(&conn->lock);
	if (!ok) {
		pdcm_lap_drop(rx, msg, "not for an established connection's QP");
		return;
	}
	if (ib_get_cached_pkey(port->dev->ibdev, port->port_num, pkey_index,
			       &req.pkey))
		req.pkey = 0xffff;
	pdcm_path_routed_lids(&w, &rx->wc);
	pdcm_wire_to_path(&w, &req, false, &path);
	alt = pdcm_alt_build(port, &path);
	if (IS_ERR(alt)) {
		pdcm_lap_drop(rx, msg, "no address for its path");
		return;
	}
	alt->timeout = clamp_t(u8, w.local_ack_timeout, 1,
			       PDCM_PEER_ACK_TIMEOUT_MAX);
	alt->lap_tid = msg->hdr.tid;

	spin_lock_irq(&conn->lock);
	/* a ULP call may have moved it on meanwhile (DREQ, PATH_MIG) */
	ok = conn->id.state == PDCM_ESTABLISHED &&
	     (conn->id.lap_state == PDCM_LAP_UNINIT ||
	      conn->id.lap_state == PDCM_LAP_IDLE) &&
	     pdcm_alt_live(conn, alt);
	if (ok) {
		swap(conn->alt, alt);
		WRITE_ONCE(conn->id.lap_state, PDCM_LAP_RCVD);
	}
	spin_unlock_irq(&conn->lock);
	pdcm_alt_free(alt);	/* the one replaced, or the LAP's */
	if (!ok) {
		pdcm_lap_drop(rx, msg, "state changed");
		return;
	}
	ev.param.lap_rcvd.alternate_path = &path;
	ev.private_data = lap->private_data;
	ev.private_data_len = PDCM_LAP_PDATA_SIZE;
	pdcm_deliver(conn, &ev);
}
