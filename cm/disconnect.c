// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Leaving a connection: REJ (IBA Vol. 1 12.6.7), DREQ and DREP (12.9.7),
 * and what a retried MAD that was never answered turns into.
 */
#include <rdma/ib_mad.h>

#include "cm.h"
#include "conn.h"
#include "device.h"
#include "listen.h"
#include "remote.h"
#include "trace.h"

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
	struct pdcm_msg m;	/* teardown allocates nothing of its own */
	int ret;

	if (pdcm_check_pdata(ari, ari_len, PDCM_REJ_ARI_SIZE) ||
	    pdcm_check_pdata(private_data, len, PDCM_REJ_PDATA_SIZE) || !reason)
		return -EINVAL;
	spin_lock_irqsave(&conn->lock, flags);
	state = conn->id.state;
	ret = pdcm_fsm_next(state, PDCM_EV_SEND_REJ);
	if (ret >= 0) {
		pdcm_rej_msg(&m, conn->tid,
			     state == PDCM_REQ_RCVD ? 0 : be32_to_cpu(conn->id.local_id),
			     be32_to_cpu(conn->id.remote_id),
			     pdcm_msg_of_state(state), reason, ari, ari_len,
			     private_data, len);
		ret = pdcm_xmit(conn, &m, 0, 0);
	}
	matched = NULL;
	if (!ret) {
		pdcm_cancel(conn);
		ret = pdcm_fsm_step(conn, PDCM_EV_SEND_REJ);
		if (ret == PDCM_TIMEWAIT)  /* after our REP: the QP may be in use */
			pdcm_enter_timewait(conn);
		matched = pdcm_take_matched(conn);
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	pdcm_slot_free(matched);
	/* back in IDLE: the peer's QP and comm ID are no longer ours */
	if (ret == PDCM_IDLE)
		pdcm_remote_unlink(conn);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_rej, PDCM_NS(PDCM));

/*
 * A REJ TIMEOUT found by the peer's comm ID (it names none of ours) is
 * the peer giving up on its REQ before our REP reached it.  It can only
 * be true while our side has not heard from the peer since the REQ; once
 * an RTU came (or a DREQ, or anything else naming our ID) the peer knew
 * our comm ID, and such a REJ is stale or forged by someone who knows
 * only the peer's comm ID and GUID.  ib_cm takes it in any state
 * (Documentation/interop.rst).  Checked under the lock, since a COMM_EST
 * from the ULP may establish the connection at any moment.
 */
static bool pdcm_by_remote_ok(const struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	lockdep_assert_held(&conn->lock);
	switch (conn->id.state) {
	case PDCM_REQ_RCVD:
	case PDCM_MRA_REQ_SENT:
	case PDCM_REP_SENT:
	case PDCM_MRA_REP_RCVD:
		return true;
	default:
		return false;
	}
}

/**
 * pdcm_rej_rx() - a REJ for @conn
 * @conn: the conn it names
 * @msg: the REJ
 * @by_remote: @conn was found by the peer's comm ID (a REJ TIMEOUT naming
 *	       none of ours)
 *
 * Context: @conn's event work.
 */
void pdcm_rej_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg,
		 bool by_remote)
{
	const struct pdcm_rej *rej = &msg->rej;
	struct pdcm_event ev = { .event = PDCM_REJ_RECEIVED };
	struct pdcm_listen *matched = NULL;
	int ret;

	spin_lock_irq(&conn->lock);
	if (by_remote && !pdcm_by_remote_ok(conn)) {
		spin_unlock_irq(&conn->lock);
		atomic_long_inc(&conn->port->cnt.rx_dropped);
		trace_pdcm_drop(PDCM_ATTR_REJ, rej->remote_comm_id,
				"REJ by peer's ID after it knew ours");
		return;
	}
	/*
	 * A stale connection's REJ leaves the QP in TIMEWAIT from every
	 * state, as ib_cm: the peer may still send on its old connection.
	 */
	ret = pdcm_fsm_step(conn, rej->reason == PDCM_REJ_STALE_CONN ?
			    PDCM_EV_RX_REJ_STALE : PDCM_EV_RX_REJ);
	if (ret >= 0) {
		pdcm_cancel(conn);
		matched = pdcm_take_matched(conn);
		if (ret == PDCM_TIMEWAIT)
			pdcm_enter_timewait(conn);
	}
	spin_unlock_irq(&conn->lock);
	pdcm_slot_free(matched);
	if (ret < 0) {
		pdcm_count(conn->port->cnt.rx_dup, PDCM_ATTR_REJ);
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
 * As ib_cm, a DREQ that cannot be posted still ends the connection: the id
 * goes to TIMEWAIT (and TIMEWAIT_EXIT follows) and the error is returned.
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in DREQ_SENT); -EINVAL in the wrong state or for
 * too much private data; the transport's error (the id is in TIMEWAIT).
 */
int pdcm_send_dreq(struct pdcm_id *id, const void *private_data, u8 len)
{
	struct pdcm_conn *conn = to_conn(id);
	unsigned long flags;
	struct pdcm_msg m;	/* teardown allocates nothing of its own */
	u64 tid;
	int ret;

	if (pdcm_check_pdata(private_data, len, PDCM_DREQ_PDATA_SIZE))
		return -EINVAL;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_DREQ);
	if (ret >= 0) {
		tid = pdcm_new_tid(conn);
		pdcm_dreq_msg(conn, &m, tid, private_data, len);
		ret = pdcm_xmit(conn, &m, conn->cm_timeout_ms,
				pdcm_retries(conn->max_cm_retries));
		pdcm_fsm_step(conn, PDCM_EV_SEND_DREQ);
		if (!ret) {
			conn->tid = tid;
		} else {
			/* not posted: leave as if it had timed out */
			pdcm_fsm_step(conn, PDCM_EV_TIMEOUT);
			pdcm_enter_timewait(conn);
		}
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_dreq, PDCM_NS(PDCM));

void pdcm_send_drep_to(const struct pdcm_rx *rx, const struct pdcm_msg *dreq)
{
	struct pdcm_msg m;

	memset(&m, 0, sizeof(m));
	pdcm_wire_init_hdr(&m.hdr, PDCM_ATTR_DREP, dreq->hdr.tid);
	m.drep.local_comm_id = dreq->dreq.remote_comm_id;
	m.drep.remote_comm_id = dreq->dreq.local_comm_id;
	pdcm_reply(rx, &m);
}

void pdcm_dreq_rx(struct pdcm_conn *conn, const struct pdcm_rx *rx,
		  const struct pdcm_msg *msg)
{
	struct pdcm_listen *matched = NULL;
	enum pdcm_state state;
	int ret;

	/*
	 * Both comm IDs match but not our QPN: not this connection's DREQ,
	 * in any state (as ib_cm, which checks it first); no DREP.
	 */
	if (msg->dreq.remote_qpn_eecn != READ_ONCE(conn->local_qpn)) {
		atomic_long_inc(&rx->port->cnt.rx_dropped);
		trace_pdcm_drop(PDCM_ATTR_DREQ, msg->dreq.remote_comm_id,
				"wrong QPN");
		return;
	}
	spin_lock_irq(&conn->lock);
	state = conn->id.state;
	ret = pdcm_fsm_step(conn, PDCM_EV_RX_DREQ);
	if (ret >= 0) {
		pdcm_cancel(conn);
		conn->tid = msg->hdr.tid;
		matched = pdcm_take_matched(conn);	/* from REP_SENT */
	}
	spin_unlock_irq(&conn->lock);
	pdcm_slot_free(matched);
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
 * As ib_cm, a DREP that cannot be sent still ends the connection: the id
 * goes to TIMEWAIT and the error is returned.  The peer re-sends its
 * DREQ, and pdcm answers that one from TIMEWAIT (without private data).
 *
 * Context: any context that may take a spinlock.
 * Return: 0 (the id is in TIMEWAIT); -EINVAL in the wrong state or for
 * too much private data; the transport's error (the id is in TIMEWAIT).
 */
int pdcm_send_drep(struct pdcm_id *id, const void *private_data, u8 len)
{
	struct pdcm_conn *conn = to_conn(id);
	unsigned long flags;
	struct pdcm_msg m;	/* teardown allocates nothing of its own */
	int ret;

	if (pdcm_check_pdata(private_data, len, PDCM_DREP_PDATA_SIZE))
		return -EINVAL;
	spin_lock_irqsave(&conn->lock, flags);
	ret = pdcm_fsm_next(conn->id.state, PDCM_EV_SEND_DREP);
	if (ret >= 0) {
		pdcm_drep_msg(conn, &m, private_data, len);
		ret = pdcm_xmit(conn, &m, 0, 0);
		/* an answer, not a request: TIMEWAIT whether it went or not */
		pdcm_fsm_step(conn, PDCM_EV_SEND_DREP);
		pdcm_enter_timewait(conn);
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	return ret < 0 ? ret : 0;
}
EXPORT_SYMBOL_NS_GPL(pdcm_send_drep, PDCM_NS(PDCM));

void pdcm_drep_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg)
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
 * Return: nothing.
 */
void pdcm_cm_send_done(struct pdcm_conn *conn, struct ib_mad_send_buf *msg,
		       enum ib_wc_status status)
{
	bool failed = false;
	unsigned long flags;

	spin_lock_irqsave(&conn->lock, flags);
	if (msg && conn->msg == msg) {
		conn->msg = NULL;
		failed = status != IB_WC_SUCCESS && status != IB_WC_WR_FLUSH_ERR;
		if (failed) {
			conn->err_status = status;
			conn->err_gen = conn->msg_gen;
		}
	}
	spin_unlock_irqrestore(&conn->lock, flags);
	/* preallocated in the conn: the timeout always reaches the ULP */
	if (failed)
		pdcm_conn_post(conn, &conn->err_ev);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_cm_send_done);

void pdcm_send_error_work(struct pdcm_conn *conn, enum ib_wc_status status)
{
	struct pdcm_event ev = { .param.send_status = status };
	struct pdcm_listen *matched = NULL;
	enum pdcm_state state;
	int ret;

	spin_lock_irq(&conn->lock);
	if (conn->err_gen != conn->msg_gen) {
		/*
		 * Another retried MAD went out after the one that timed out
		 * (COMM_EST, then a DREQ; a REJ, then a new REQ): the timeout
		 * is not this state's.
		 */
		spin_unlock_irq(&conn->lock);
		return;
	}
	state = conn->id.state;
	if (conn->evicted && state == PDCM_REP_SENT) {
		struct pdcm_msg m;

		/* the peer learns why (best effort: it times out otherwise) */
		pdcm_rej_timeout_msg(conn, &m, be32_to_cpu(conn->id.remote_id));
		pdcm_xmit(conn, &m, 0, 0);
	}
	conn->evicted = false;
	ret = pdcm_fsm_step(conn, PDCM_EV_TIMEOUT);
	if (ret == PDCM_TIMEWAIT)
		pdcm_enter_timewait(conn);
	if (ret >= 0)
		matched = pdcm_take_matched(conn);
	spin_unlock_irq(&conn->lock);
	pdcm_slot_free(matched);
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
