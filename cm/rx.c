// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Receive dispatch, pdcm_wq and the conns' event lists.  A received MAD
 * is matched to its owner without allocating -- a REQ or SIDR_REQ to a
 * listen that admits it, any other message to a live local comm ID -- and
 * only then queued, holding references.  A REQ or SIDR_REQ (no conn yet)
 * runs as a work item of its own; everything else goes onto its conn's
 * event list, which the conn's ev_work drains in order.  pdcm_wq is not
 * ordered: the events of one conn run one at a time and in order, those of
 * different conns in parallel, so a handler that sleeps holds up only its
 * own connection.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <kunit/visibility.h>
#include <linux/hashtable.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <rdma/ib_mad.h>

#include "cm.h"
#include "compat.h"
#include "conn.h"
#include "counters.h"
#include "device.h"
#include "fault.h"
#include "listen.h"
#include "remote.h"
#include "trace.h"

struct workqueue_struct *pdcm_wq;
EXPORT_SYMBOL_IF_KUNIT(pdcm_wq);
/* received MADs queued in the CM (read by the KUnit suite pdcm_fsm) */
VISIBLE_IF_KUNIT atomic_t pdcm_pending_work = ATOMIC_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(pdcm_pending_work);
/* of them, new REQs and SIDR_REQs */
VISIBLE_IF_KUNIT atomic_t pdcm_pending_reqs = ATOMIC_INIT(0);
EXPORT_SYMBOL_IF_KUNIT(pdcm_pending_reqs);

unsigned int pdcm_max_pending_reqs = PDCM_MAX_PENDING_REQS_DEFAULT;
EXPORT_SYMBOL_IF_KUNIT(pdcm_max_pending_reqs);

static int pdcm_set_max_pending_reqs(const char *val,
				     const struct kernel_param *kp)
{
	return pdcm_param_set_uint(val, kp, "max_pending_reqs", 64, 1048576);
}

static const struct kernel_param_ops pdcm_max_pending_reqs_ops = {
	.set = pdcm_set_max_pending_reqs,
	.get = param_get_uint,
};

module_param_cb(max_pending_reqs, &pdcm_max_pending_reqs_ops,
		&pdcm_max_pending_reqs, 0644);
__MODULE_PARM_TYPE(max_pending_reqs, "uint");
MODULE_PARM_DESC(max_pending_reqs,
		 "New REQs and SIDR_REQs received and not yet handled, at most (past it they are dropped for their senders to retry), 64..1048576 (default 16384)");

static bool pdcm_work_is_new_req(enum pdcm_work_kind kind)
{
	return kind == PDCM_WORK_REQ || kind == PDCM_WORK_SIDR_REQ;
}

/*
 * New REQs queued on pdcm_wq and not started, by the sender's comm ID and
 * CA GUID.  A REQ that waits there longer than its peer's timeout is sent
 * again; the copy finds no conn yet (the REQ's work makes it), and was
 * queued as a second new REQ: a second slot of the REQ budget and of the
 * listen's backlog, and a second pass through the listen lookup, to be
 * found a duplicate only when it ran.  Now it is one at once
 * (pdcm_req_copy()).  At most pdcm_max_pending_reqs entries.
 */
#define PDCM_QUEUED_BITS	10
static DEFINE_HASHTABLE(pdcm_queued_reqs, PDCM_QUEUED_BITS);
static DEFINE_SPINLOCK(pdcm_queued_lock);
/* both fields are the sender's choice: a keyed hash, or one bucket takes all */
static siphash_key_t pdcm_queued_seed __read_mostly;

static u64 pdcm_queued_key(u64 guid, u32 comm_id)
{
	return siphash_2u64(guid, comm_id, &pdcm_queued_seed);
}

/* The queued REQ sent by comm ID @comm_id of CA @guid, or NULL. */
static struct pdcm_work *pdcm_queued_find(u32 comm_id, u64 guid)
	__must_hold(&pdcm_queued_lock)
{
	struct pdcm_work *w;

	lockdep_assert_held(&pdcm_queued_lock);
	hash_for_each_possible(pdcm_queued_reqs, w, queued,
			       pdcm_queued_key(guid, comm_id))
		if (w->msg.req.local_comm_id == comm_id &&
		    w->msg.req.local_ca_guid == guid)
			return w;
	return NULL;
}

/*
 * Is @req a copy of a REQ still queued?  Then the original is marked (its
 * delayed MRA is due at once, as a copy that came after it had started
 * would make it) and the copy is counted as a duplicate.  If not, @w (the
 * work of @req, or NULL to only ask) is entered in the table and queued.
 * Return: true if @req was a copy (and @w not queued).
 */
static bool pdcm_req_copy(const struct pdcm_rx *rx, const struct pdcm_req *req,
			  struct pdcm_work *w)
{
	struct pdcm_work *orig;
	unsigned long flags;

	spin_lock_irqsave(&pdcm_queued_lock, flags);
	orig = pdcm_queued_find(req->local_comm_id, req->local_ca_guid);
	if (orig)
		orig->req_copied = true;
	else if (w)
		hash_add(pdcm_queued_reqs, &w->queued,
			 pdcm_queued_key(req->local_ca_guid,
					 req->local_comm_id));
	spin_unlock_irqrestore(&pdcm_queued_lock, flags);
	if (orig) {
		pdcm_count(rx->port->cnt.rx_dup, PDCM_ATTR_REQ);
		trace_pdcm_drop(PDCM_ATTR_REQ, req->local_comm_id,
				"copy of a queued REQ");
		return true;
	}
	if (w)
		pdcm_work_queue(w);
	return false;
}

/* Did @a and @b come from one sender: port, LID, and source GID if any? */
static bool pdcm_rx_same_sender(const struct pdcm_rx *a,
				const struct pdcm_rx *b)
{
	union ib_gid sa, sb, dgid;
	bool ga, gb;

	if (a->port != b->port || a->wc.slid != b->wc.slid)
		return false;
	ga = pdcm_rx_gids(a, &sa, &dgid);
	gb = pdcm_rx_gids(b, &sb, &dgid);
	return ga == gb && (!ga || !memcmp(&sa, &sb, sizeof(sa)));
}

/*
 * A REJ TIMEOUT naming no comm ID of ours: its sender gave up on the REQ
 * of (@comm_id, @guid).  If that REQ, from the same sender as @rx, still
 * waits to start or to be entered by its sender's comm ID, it is marked
 * withdrawn and leaves the table (a copy from now on is a new REQ); its
 * work ends without delivering it (pdcm_req_work()).  ib_cm, whose one
 * queue runs the REQ first, delivers it and then the REJ; here the REJ
 * would otherwise find no conn and be dropped, and the listener would
 * answer a connection its peer has abandoned.  Looked for before the
 * conns: a REQ leaves the table only once its conn can be found by the
 * peer's comm ID, so the REJ finds one or the other.
 * Return: true if a queued REQ was withdrawn.
 */
static bool pdcm_req_withdraw(const struct pdcm_rx *rx, u32 comm_id, u64 guid)
{
	struct pdcm_work *w;
	unsigned long flags;

	spin_lock_irqsave(&pdcm_queued_lock, flags);
	w = pdcm_queued_find(comm_id, guid);
	if (w && pdcm_rx_same_sender(rx, &w->rx)) {
		WRITE_ONCE(w->req_withdrawn, true);
		hash_del(&w->queued);
	} else {
		w = NULL;
	}
	spin_unlock_irqrestore(&pdcm_queued_lock, flags);
	if (w) {
		atomic_long_inc(&rx->port->cnt.req_withdrawn);
		trace_pdcm_drop(PDCM_ATTR_REQ, comm_id, "withdrawn by its sender");
	}
	return w;
}

/**
 * pdcm_req_unqueue() - a new REQ leaves the table of queued REQs
 * @w: its work item
 *
 * From then on a copy of it finds its conn, or is a new REQ.  Called once
 * the conn can be found by the peer's comm ID, and again (a no-op then)
 * when the work ends.  @w->req_copied is final afterwards.
 *
 * Context: any.
 * Return: false if its sender withdrew it (pdcm_req_withdraw()).
 */
bool pdcm_req_unqueue(struct pdcm_work *w)
{
	unsigned long flags;
	bool withdrawn;

	spin_lock_irqsave(&pdcm_queued_lock, flags);
	if (!hlist_unhashed(&w->queued))
		hash_del(&w->queued);
	withdrawn = w->req_withdrawn;
	spin_unlock_irqrestore(&pdcm_queued_lock, flags);
	return !withdrawn;
}

/* ---- work items ---------------------------------------------------- */

/*
 * A kmalloc-512 object: the budget's 8.5 MB (Documentation/design.rst);
 * lockdep's map in the work_struct makes it larger in debug kernels.
 */
static_assert(BITS_PER_LONG != 64 || IS_ENABLED(CONFIG_LOCKDEP) ||
	      sizeof(struct pdcm_work) <= 512);

static void pdcm_work_fn(struct work_struct *work);

struct pdcm_work *pdcm_work_alloc(struct pdcm_port *port,
				  enum pdcm_work_kind kind)
{
	unsigned int max_reqs = READ_ONCE(pdcm_max_pending_reqs);
	bool req = pdcm_work_is_new_req(kind);
	struct pdcm_work *w;

	if (req && atomic_inc_return(&pdcm_pending_reqs) > max_reqs)
		goto full;
	if (atomic_inc_return(&pdcm_pending_work) >
	    max_reqs + PDCM_PENDING_ANSWERS) {
		atomic_dec(&pdcm_pending_work);
		goto full;
	}
	w = pdcm_fail() ? NULL : kzalloc(sizeof(*w), GFP_ATOMIC);
	if (!w) {
		atomic_dec(&pdcm_pending_work);
		if (req)
			atomic_dec(&pdcm_pending_reqs);
		return NULL;
	}
	INIT_WORK(&w->work, pdcm_work_fn);
	/*
	 * The work may run after its device's remove(): queued on a conn
	 * whose events were held while remove() flushed pdcm_wq.  Its port
	 * then has no agent (nothing is sent), but must still be there.
	 */
	if (port) {
		pdcm_device_get(port->dev);
		w->dev = port->dev;
	}
	w->rx_jiffies = jiffies;
	w->kind = kind;
	if (kind == PDCM_WORK_REQ) {
		INIT_HLIST_NODE(&w->queued);
	} else {
		INIT_LIST_HEAD(&w->ev.node);
		w->ev.kind = kind == PDCM_WORK_DUP_REQ ?
			     PDCM_EV_KIND_DUP_REQ : PDCM_EV_KIND_RX;
	}
	return w;

full:
	if (req)
		atomic_dec(&pdcm_pending_reqs);
	if (port)
		atomic_long_inc(&port->cnt.rx_dropped);
	trace_pdcm_drop(kind == PDCM_WORK_SIDR_REQ ? PDCM_ATTR_SIDR_REQ :
			req ? PDCM_ATTR_REQ : 0, 0,
			req ? "REQ budget full" : "work budget full");
	return NULL;
}

void pdcm_work_free(struct pdcm_work *w)
{
	if (w->conn)
		pdcm_conn_put(w->conn);
	if (w->listen)
		pdcm_listen_put(w->listen);
	if (pdcm_work_is_new_req(w->kind))
		atomic_dec(&pdcm_pending_reqs);
	if (w->dev)
		pdcm_device_put(w->dev);
	kfree(w);
	atomic_dec(&pdcm_pending_work);
}

void pdcm_work_queue(struct pdcm_work *w)
{
	queue_work(pdcm_wq, &w->work);
}

/* ---- a conn's event list -------------------------------------------- */

/* Start @conn's ev_work for what waits on its list, unless it is held. */
static void pdcm_conn_kick(struct pdcm_conn *conn)
	__must_hold(&conn->lock)
{
	lockdep_assert_held(&conn->lock);
	if (!conn->ev_held && !list_empty(&conn->events) &&
	    queue_work(pdcm_wq, &conn->ev_work))
		pdcm_conn_get(conn);	/* ev_work's, dropped as it ends */
}

/**
 * pdcm_conn_post() - queue an event on its conn
 * @conn: the conn
 * @ev: a preallocated event of @conn (not queued twice: a second post of
 *	a queued one is a no-op), or the &w->ev of a struct pdcm_work
 *
 * A queued (or re-queued) ev_work holds a reference on @conn until it has
 * run, so @conn outlives every event on its list.  At most
 * PDCM_CONN_MAX_PENDING received messages wait on one conn: past that a
 * struct pdcm_work is refused (the caller frees it, the peer retries).
 *
 * Context: any; takes conn->lock.
 * Return: true if queued.
 */
bool pdcm_conn_post(struct pdcm_conn *conn, struct pdcm_ev *ev)
{
	bool rx = ev->kind == PDCM_EV_KIND_RX || ev->kind == PDCM_EV_KIND_DUP_REQ;
	unsigned long flags;

	spin_lock_irqsave(&conn->lock, flags);
	if (!list_empty(&ev->node) ||
	    (rx && conn->npending >= PDCM_CONN_MAX_PENDING)) {
		spin_unlock_irqrestore(&conn->lock, flags);
		return false;
	}
	conn->npending += rx;
	list_add_tail(&ev->node, &conn->events);
	pdcm_conn_kick(conn);
	spin_unlock_irqrestore(&conn->lock, flags);
	return true;
}

/**
 * pdcm_conn_unhold() - let a passive conn's events run
 * @conn: a conn made with @conn->ev_held set
 *
 * A REQ's conn is findable (duplicate REQs, a REJ TIMEOUT by the peer's
 * comm ID, whatever the ULP's REQ handler sends) before its REQ_RECEIVED
 * has been delivered; what arrives meanwhile waits on @conn's event list
 * and runs from here on, after the REQ handler, one at a time as always.
 *
 * Context: any; takes conn->lock.
 * Return: nothing.
 */
void pdcm_conn_unhold(struct pdcm_conn *conn)
{
	unsigned long flags;

	spin_lock_irqsave(&conn->lock, flags);
	conn->ev_held = false;
	pdcm_conn_kick(conn);
	spin_unlock_irqrestore(&conn->lock, flags);
}

static void pdcm_rx_work(struct pdcm_conn *conn, struct pdcm_work *w);

static void pdcm_conn_run(struct pdcm_conn *conn, struct pdcm_ev *ev)
{
	struct pdcm_work *w = container_of(ev, struct pdcm_work, ev);

	switch (ev->kind) {
	case PDCM_EV_KIND_RX:
		pdcm_rx_work(conn, w);
		pdcm_work_free(w);
		break;
	case PDCM_EV_KIND_DUP_REQ:
		pdcm_dup_req(conn, &w->rx, &w->msg);
		pdcm_work_free(w);
		break;
	case PDCM_EV_KIND_SEND_ERROR:
		pdcm_send_error_work(conn, READ_ONCE(conn->err_status));
		break;
	case PDCM_EV_KIND_TIMEWAIT:
		pdcm_timewait_done(conn);
		break;
	case PDCM_EV_KIND_USER_EST:
		pdcm_deliver_simple(conn, PDCM_USER_ESTABLISHED, NULL, 0);
		break;
	}
}

/**
 * pdcm_conn_ev_work() - run a conn's queued events, oldest first
 * @work: the conn's ev_work
 *
 * A workqueue never runs one work item on two CPUs at once, so the events
 * of a conn run one at a time.  The reference taken when ev_work was
 * queued is the last thing dropped here: the conn may be freed as soon as
 * it is, and a work item may be freed once its function runs.
 *
 * Context: pdcm_wq.
 */
void pdcm_conn_ev_work(struct work_struct *work)
{
	struct pdcm_conn *conn = container_of(work, struct pdcm_conn, ev_work);
	struct pdcm_ev *ev;

	for (;;) {
		spin_lock_irq(&conn->lock);
		ev = list_first_entry_or_null(&conn->events, struct pdcm_ev,
					      node);
		if (ev) {
			list_del_init(&ev->node);
			if (ev->kind == PDCM_EV_KIND_RX ||
			    ev->kind == PDCM_EV_KIND_DUP_REQ)
				conn->npending--;
		}
		spin_unlock_irq(&conn->lock);
		if (!ev)
			break;
		pdcm_conn_run(conn, ev);
	}
	pdcm_conn_put(conn);	/* taken by the queue_work() that ran us */
}

/**
 * pdcm_timewait_fire() - the timewait timer expired
 * @work: the conn's timewait_work
 *
 * Hands the end of timewait to the conn's event list, in order with the
 * rest of its events; the timer's reference goes with it.
 *
 * Context: pdcm_wq.
 */
void pdcm_timewait_fire(struct work_struct *work)
{
	struct pdcm_conn *conn = container_of(to_delayed_work(work),
					      struct pdcm_conn, timewait_work);

	pdcm_conn_post(conn, &conn->tw_ev);
	pdcm_conn_put(conn);	/* the timer's */
}

/* ---- receive dispatch --------------------------------------------------- */

/*
 * The sender's comm ID a message must carry to be @conn's, as ib_cm
 * matches them: our remote ID, except that the first REP, an MRA of our
 * REQ and a REJ of our REQ come before we learnt it (then it is still 0).
 */
static bool pdcm_sender_matches(const struct pdcm_conn *conn,
				const struct pdcm_msg *msg)
{
	u32 known = be32_to_cpu(READ_ONCE(conn->id.remote_id));
	u32 sender = pdcm_wire_sender_id(msg);

	switch (msg->hdr.attr_id) {
	case PDCM_ATTR_REP:
		return !known || known == sender;
	case PDCM_ATTR_MRA:
		if (msg->mra.msg_mraed == PDCM_MSG_RESPONSE_REQ)
			return !known;
		return known == sender;
	case PDCM_ATTR_REJ:
		if (msg->rej.msg_rejected == PDCM_MSG_RESPONSE_REQ)
			return !known;
		return known == sender;
	case PDCM_ATTR_RTU:
	case PDCM_ATTR_DREQ:
	case PDCM_ATTR_DREP:
		return known == sender;
	case PDCM_ATTR_SIDR_REP:
		return true;	/* carries only our request ID */
	case PDCM_ATTR_LAP:
		return known && known == sender;
	default:
		return false;
	}
}

static void pdcm_rx_work(struct pdcm_conn *conn, struct pdcm_work *w)
{
	/* A conn that never sent anything (a listen): nobody knows its ID. */
	if (!conn->port) {
		atomic_long_inc(&w->rx.port->cnt.rx_dropped);
		return;
	}
	/*
	 * Checked here, in order with the REP that teaches us the ID (a REJ
	 * found by the peer's ID is checked by pdcm_rej_rx(), under the lock).
	 */
	if (!w->by_remote && !pdcm_sender_matches(conn, &w->msg)) {
		atomic_long_inc(&w->rx.port->cnt.rx_dropped);
		trace_pdcm_drop(w->msg.hdr.attr_id,
				be32_to_cpu(conn->id.local_id),
				"wrong sender comm ID");
		/* not this connection: a DREQ is answered as an unknown one */
		if (w->msg.hdr.attr_id == PDCM_ATTR_DREQ)
			pdcm_send_drep_to(&w->rx, &w->msg);
		return;
	}
	switch (w->msg.hdr.attr_id) {
	case PDCM_ATTR_MRA:
		pdcm_mra_rx(conn, &w->msg);
		break;
	case PDCM_ATTR_REJ:
		pdcm_rej_rx(conn, &w->msg, w->by_remote);
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
	case PDCM_ATTR_LAP:
		pdcm_lap_rx(conn, &w->rx, &w->msg);
		break;
	}
}

/* A REQ or SIDR_REQ that matched a listen: no conn exists yet. */
static void pdcm_work_fn(struct work_struct *work)
{
	struct pdcm_work *w = container_of(work, struct pdcm_work, work);

	switch (w->kind) {
	case PDCM_WORK_REQ:
		pdcm_req_work(w);
		pdcm_req_unqueue(w);	/* on every way out */
		break;
	case PDCM_WORK_SIDR_REQ:
		if (pdcm_sidr_req_work(w->listen, &w->rx, &w->msg))
			w->listen = NULL;	/* the new conn's, until answered */
		else
			pdcm_listen_retire(w->listen);
		break;
	default:
		WARN_ON_ONCE(1);
		break;
	}
	pdcm_work_free(w);
}

/* Queue @w (holding a reference on @conn) on @conn's event list. */
static void pdcm_rx_post(struct pdcm_conn *conn, struct pdcm_work *w)
{
	w->conn = conn;
	if (!pdcm_conn_post(conn, &w->ev)) {
		atomic_long_inc(&w->rx.port->cnt.rx_dropped);
		trace_pdcm_drop(w->msg.hdr.attr_id,
				be32_to_cpu(conn->id.local_id), "conn queue full");
		pdcm_work_free(w);
	}
}

/*
 * A message naming a comm ID we do not know is counted and dropped.  Only
 * a DREQ is answered (with a DREP: the peer's disconnect then completes
 * even if we forgot the connection), as ib_cm does; a REP or RTU gets
 * nothing, so that a stream of made-up messages draws no stream of REJs.
 */
static void pdcm_rx_unknown(const struct pdcm_rx *rx, const struct pdcm_msg *msg)
{
	atomic_long_inc(&rx->port->cnt.rx_dropped);
	trace_pdcm_drop(msg->hdr.attr_id, pdcm_wire_receiver_id(msg), "unknown comm ID");
	if (msg->hdr.attr_id == PDCM_ATTR_DREQ)
		pdcm_send_drep_to(rx, msg);
}

/* A copy of a REQ whose conn exists: to that conn, in order (@dup's ref). */
static void pdcm_rx_dup_req(const struct pdcm_rx *rx,
			    const struct pdcm_msg *msg, struct pdcm_conn *dup)
{
	struct pdcm_work *w = pdcm_work_alloc(rx->port, PDCM_WORK_DUP_REQ);

	if (!w) {
		pdcm_conn_put(dup);
		return;
	}
	w->rx = *rx;
	w->msg = *msg;
	pdcm_rx_post(dup, w);
}

/*
 * A REQ that is answered before the listens are consulted, taking no
 * backlog slot: a retry of a REQ whose conn exists (it must get its
 * delayed MRA or STALE_CONN even while the backlog is full); a new REQ
 * from a QP still connected to us, stale whatever it asks for (as ib_cm;
 * nothing is allocated for it), unless the conn found is this REQ's own,
 * entered in both tables between the two lookups (ib_cm makes both under
 * one lock); and a copy of a REQ still waiting for its work to start.
 * Return: true if @msg was one of them (and is dealt with).
 */
static bool pdcm_rx_req_known(const struct pdcm_rx *rx,
			      const struct pdcm_msg *msg)
{
	const struct pdcm_req *req = &msg->req;
	struct pdcm_conn *dup;

	dup = pdcm_remote_id_find(req->local_comm_id, req->local_ca_guid);
	if (!dup) {
		dup = pdcm_remote_qp_find(req->local_qpn, req->local_ca_guid);
		if (dup && be32_to_cpu(READ_ONCE(dup->id.remote_id)) !=
			   req->local_comm_id) {
			pdcm_req_stale(dup, rx, msg);
			return true;
		}
	}
	if (!dup)
		return pdcm_req_copy(rx, req, NULL);
	pdcm_rx_dup_req(rx, msg, dup);
	return true;
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
	struct pdcm_conn *lconn;

	if (!sidr && pdcm_rx_req_known(rx, msg))
		return;

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
	/* full of REPs nobody answers (a flood): the oldest makes room */
	if (admit != PDCM_ADMIT_DELIVER && pdcm_halfopen_evict(l, rx->port))
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
	if (sidr) {
		pdcm_work_queue(w);
	} else if (pdcm_req_copy(rx, &msg->req, w)) {
		/* a copy that raced with this one was queued first */
		pdcm_listen_retire(l);
		pdcm_work_free(w);
	}
}

/*
 * Test knob, for the interop and fault scenarios only: the next N
 * messages of a kind received are dropped unseen, so that the peer's CM
 * (or ours, for a lost answer to what we sent) has to retransmit.
 * test_drop takes "MSG:N[,MSG:N...]" with MSG a name of cm_rx_msgs/
 * ("rep:1,dreq:1"; "rep:0" or an empty string stops dropping them) and
 * reads back what is left to drop; test_drop_reqs is the REQ count alone.
 */
static unsigned int test_drop[PDCM_NUM_ATTRS];

static int pdcm_test_drop_set(const char *val, const struct kernel_param *kp)
{
	char *buf, *s, *tok;
	int ret = 0;

	buf = kstrdup(val, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	s = strim(buf);
	while (!ret && (tok = strsep(&s, ",")) != NULL) {
		char *count = strchr(tok, ':');
		unsigned int n;
		int i;

		if (!*tok)
			continue;
		ret = -EINVAL;
		if (!count)
			break;
		*count++ = '\0';
		i = __sysfs_match_string(pdcm_msg_names, PDCM_NUM_ATTRS, tok);
		if (i < 0 || kstrtouint(count, 0, &n))
			break;
		WRITE_ONCE(test_drop[i], n);
		ret = 0;
	}
	kfree(buf);
	return ret;
}

static int pdcm_test_drop_get(char *buffer, const struct kernel_param *kp)
{
	int i, len = 0;

	for (i = 0; i < PDCM_NUM_ATTRS; i++)
		if (READ_ONCE(test_drop[i]))
			len += scnprintf(buffer + len, PAGE_SIZE - len, "%s%s:%u",
					 len ? "," : "", pdcm_msg_names[i],
					 READ_ONCE(test_drop[i]));
	return len + scnprintf(buffer + len, PAGE_SIZE - len, "\n");
}

static const struct kernel_param_ops pdcm_test_drop_ops = {
	.set = pdcm_test_drop_set,
	.get = pdcm_test_drop_get,
};

module_param_cb(test_drop, &pdcm_test_drop_ops, NULL, 0644);
MODULE_PARM_DESC(test_drop,
		 "Test only: \"msg:N,...\" drops the next N received messages of each kind named (req, rep, dreq, drep, sidr_req, ...), so they are retransmitted");
module_param_named(test_drop_reqs, test_drop[0], uint, 0644);
MODULE_PARM_DESC(test_drop_reqs,
		 "Test only: drop the next N received REQs, so the peer retransmits (default 0); the same as test_drop=req:N");

/* Whether to drop this received message (test_drop), counting it down. */
static bool pdcm_test_drop(u16 attr_id)
{
	unsigned int *cnt, n, old;

	if (attr_id < PDCM_ATTR_FIRST || attr_id > PDCM_ATTR_LAST)
		return false;
	cnt = &test_drop[attr_id - PDCM_ATTR_FIRST];
	n = READ_ONCE(*cnt);
	while (n) {
		old = cmpxchg(cnt, n, n - 1);
		if (old == n)
			return true;
		n = old;
	}
	return false;
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
 * Return: nothing.
 */
void pdcm_cm_rx(const struct pdcm_rx *rx, const struct pdcm_msg *msg)
{
	struct pdcm_conn *conn;
	struct pdcm_work *w;
	bool by_remote;
	u32 ours;

	pdcm_count(rx->port->cnt.rx, msg->hdr.attr_id);
	trace_pdcm_mad(false, msg->hdr.attr_id, pdcm_wire_receiver_id(msg),
		       pdcm_wire_sender_id(msg), msg->hdr.tid);
	if (unlikely(pdcm_test_drop(msg->hdr.attr_id))) {
		atomic_long_inc(&rx->port->cnt.rx_dropped);
		trace_pdcm_drop(msg->hdr.attr_id, pdcm_wire_receiver_id(msg), "test_drop");
		return;
	}
	switch (msg->hdr.attr_id) {
	case PDCM_ATTR_REQ:
		pdcm_rx_req(rx, msg, false);
		return;
	case PDCM_ATTR_SIDR_REQ:
		pdcm_rx_req(rx, msg, true);
		return;
	case PDCM_ATTR_APR:
		/* we send no LAP: nothing waits for an APR, as in ib_cm */
		atomic_long_inc(&rx->port->cnt.rx_dropped);
		trace_pdcm_drop(msg->hdr.attr_id, pdcm_wire_receiver_id(msg), "no LAP sent");
		return;
	}

	ours = pdcm_wire_receiver_id(msg);
	by_remote = !ours && msg->hdr.attr_id == PDCM_ATTR_REJ &&
		    msg->rej.reason == PDCM_REJ_TIMEOUT && msg->rej.ari_len >= 8;
	if (by_remote) {
		/* the peer gave up on its REQ before it learnt our ID */
		u64 guid = get_unaligned_be64(msg->rej.ari);

		if (pdcm_req_withdraw(rx, msg->rej.local_comm_id, guid))
			return;
		conn = pdcm_remote_id_find(msg->rej.local_comm_id, guid);
	} else {
		conn = ours ? pdcm_conn_get_by_local_id(ours) : NULL;
	}
	if (!conn) {
		pdcm_rx_unknown(rx, msg);
		return;
	}
	w = pdcm_work_alloc(rx->port, PDCM_WORK_RX);
	if (!w) {
		pdcm_conn_put(conn);
		return;
	}
	w->rx = *rx;
	w->msg = *msg;
	w->by_remote = by_remote;
	pdcm_rx_post(conn, w);
}
EXPORT_SYMBOL_IF_KUNIT(pdcm_cm_rx);

static void pdcm_cm_hold(struct pdcm_conn *conn)
{
	pdcm_conn_get(conn);
}

static void pdcm_cm_sent(struct pdcm_conn *conn, struct ib_mad_send_buf *msg,
			 enum ib_wc_status status)
{
	pdcm_cm_send_done(conn, msg, status);
	pdcm_conn_put(conn);
}

const struct pdcm_transport_up pdcm_cm_up = {
	.rx = pdcm_cm_rx,
	.hold = pdcm_cm_hold,
	.send_done = pdcm_cm_sent,
};
EXPORT_SYMBOL_IF_KUNIT(pdcm_cm_up);

/*
 * pdcm_wq's items run at the scheduler's high priority (WQ_HIGHPRI), so
 * received MADs are handled before the CM's users run again.  On a CPU
 * that those users saturate (10,000 rdma_cm connections at once in one
 * guest) a normal-priority pdcm_wq fell behind by more than the peers'
 * timeouts: they retransmitted, the copies filled the work budget, and
 * REPs and RTUs were dropped with them (Documentation/performance.rst).
 * The work itself is small.  Read at load; N gives ib_cm's normal priority.
 */
static bool pdcm_wq_highpri = true;
module_param_named(wq_highpri, pdcm_wq_highpri, bool, 0444);
MODULE_PARM_DESC(wq_highpri,
		 "Handle received MADs on a high-priority workqueue (default Y; N: normal priority, as ib_cm)");

/**
 * pdcm_cm_init() - the workqueue and the listen table
 *
 * Context: module init.
 * Return: 0 or -ENOMEM.
 */
int pdcm_cm_init(void)
{
	int ret;

	ret = pdcm_ids_init();
	if (ret)
		return ret;
	get_random_bytes(&pdcm_queued_seed, sizeof(pdcm_queued_seed));
	pdcm_wq = alloc_workqueue("pdcm", WQ_MEM_RECLAIM | PDCM_WQ_PERCPU |
				  (pdcm_wq_highpri ? WQ_HIGHPRI : 0), 0);
	if (!pdcm_wq) {
		pdcm_ids_exit();
		return -ENOMEM;
	}
	pdcm_listens = pdcm_ltab_create(pdcm_listen_release);
	if (!pdcm_listens) {
		destroy_workqueue(pdcm_wq);
		pdcm_ids_exit();
		return -ENOMEM;
	}
	pdcm_ltab_set_default_backlog(pdcm_listens, pdcm_default_backlog);
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
