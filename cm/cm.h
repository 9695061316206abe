/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The connection manager core: the private side of a struct pdcm_id.
 *
 * Data flow, one direction at a time:
 *
 *   receive: mad.c decodes a MAD (wire.c) and calls pdcm_cm_rx(), which
 *   finds the owner without allocating anything -- a REQ or SIDR_REQ must
 *   first match a listen and pass its backlog, anything else must name a
 *   live local comm ID -- and only then queues a work item holding a
 *   reference.  A REQ or SIDR_REQ runs as a work item of its own on
 *   pdcm_wq; everything for an existing conn goes onto that conn's event
 *   list, which one work item of the conn drains in order.  Events of one
 *   conn are ordered and never run concurrently; events of different
 *   conns run concurrently.  A REQ's new conn holds its list (ev_held)
 *   until its REQ_RECEIVED handler, run from the REQ's work item, has
 *   returned.
 *
 *   send: a ULP call checks the transition under conn->lock, posts the
 *   message to the port's transport under the same lock, and changes the
 *   state only if the post succeeded.  The transport reports the end of a
 *   retried MAD back through pdcm_cm_send_done().
 *
 * Lock order: pdcm_devices_mutex > pdcm_conns_lock (the list of every
 * conn: pdcm_conns_release_avs() takes each conn->lock under it) >
 * conn->lock > pdcm_remote_lock (the remote tables) > the xarray lock.
 * No lock is held across a handler call.
 *
 * Lifetime: a conn is reference counted.  The creator holds one reference,
 * its queued ev_work (while events wait on its list), each received MAD
 * on its way to it and each MAD in flight one more.  Destroying unhashes
 * the conn (no new references can be taken), does what the protocol
 * requires in its state, drops the creator's reference, and waits for the
 * rest -- except when a handler's non-zero return destroys the conn from
 * its own event work, where waiting would deadlock: then the last
 * reference frees the conn.  The memory itself goes back an RCU grace
 * period later, for lookups by local comm ID that loaded the pointer
 * before destroy unhashed it.  What a timeout, timewait or COMM_EST needs to
 * reach the ULP is preallocated in the conn (struct pdcm_ev), so no such
 * event is ever lost to a failed allocation.
 */
#ifndef _PDCM_CM_H
#define _PDCM_CM_H

#include <linux/completion.h>
#include <linux/rbtree.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <rdma/ib_verbs.h>
#include <rdma/pdcm.h>

#include "listen.h"
#include "wire.h"

struct pdcm_port;
struct pdcm_listen;
struct pdcm_work;
struct ib_mad_send_buf;
struct seq_file;

/* Key of a remote table entry (remote.c). */
struct pdcm_remote_key {
	u64 k[3];
};

/*
 * Received MADs queued in the whole CM, at most, past which they are
 * dropped: pdcm_max_pending_reqs (module parameter max_pending_reqs) new
 * REQs and SIDR_REQs, and PDCM_PENDING_ANSWERS more for everything else.
 * New REQs have a budget of their own because each makes a conn and runs a
 * ULP handler (slow: QP setup), so a REQ storm must not take the items the
 * answers to existing conns need (REP, RTU, DREQ ...).  Dropped REQs are
 * retried by their senders.  An item is a 512-byte object.
 */
#define PDCM_PENDING_ANSWERS		1024
#define PDCM_MAX_PENDING_REQS_DEFAULT	16384
extern unsigned int pdcm_max_pending_reqs;
/* Received MADs queued on one conn, at most; past this they are dropped. */
#define PDCM_CONN_MAX_PENDING	16

/**
 * enum pdcm_ev_kind - what an entry of a conn's event list carries
 * @PDCM_EV_KIND_RX: a received message (in a struct pdcm_work)
 * @PDCM_EV_KIND_DUP_REQ: a REQ for an existing passive conn (a retry)
 * @PDCM_EV_KIND_SEND_ERROR: the outstanding retried MAD ran out of retries
 * @PDCM_EV_KIND_TIMEWAIT: timewait is over
 * @PDCM_EV_KIND_USER_EST: pdcm_notify() established the connection
 */
enum pdcm_ev_kind {
	PDCM_EV_KIND_RX,
	PDCM_EV_KIND_DUP_REQ,
	PDCM_EV_KIND_SEND_ERROR,
	PDCM_EV_KIND_TIMEWAIT,
	PDCM_EV_KIND_USER_EST,
};

/**
 * struct pdcm_ev - an entry of a conn's event list
 * @node: in pdcm_conn.events, or empty (list_empty()) when not queued
 * @kind: enum pdcm_ev_kind
 */
struct pdcm_ev {
	struct list_head node;
	u8 kind;
};

/**
 * struct pdcm_rx - where a received MAD came from, enough to answer it
 * @port: receiving port
 * @wc: its work completion (slid, sl, src_qp, pkey_index, flags)
 * @grh: its GRH if IB_WC_GRH is set in @wc.wc_flags
 */
struct pdcm_rx {
	struct pdcm_port *port;
	struct ib_wc wc;
	struct ib_grh grh;
};

/**
 * struct pdcm_alt - a connection's alternate path (APM), when it has one
 * @ah_attr: the peer's address on it (holds its sgid_attr reference, if
 *	it has a GRH)
 * @port: the port it leaves from, on the connection's device
 * @pkey_index: the connection's P_Key's index on @port
 * @timeout: the QP's local ACK timeout on it
 * @packet_life_time: active side: its packet lifetime, to which the REP's
 *	target ACK delay is added
 * @mirror: after a path migration: the connection's address was swapped
 *	with this one, and the alternate is its (new) primary, as ib_cm
 *	copies its alternate into its primary; the fields hold the old
 *	primary until a LAP or the end of the connection frees them
 * @lap_tid: the TID of the LAP that loaded it, for its MRAs
 *
 * Kept apart from struct pdcm_conn (conn->alt): few connections have one.
 */
struct pdcm_alt {
	struct rdma_ah_attr ah_attr;
	struct pdcm_port *port;
	u16 pkey_index;
	u8 timeout;
	u8 packet_life_time;
	bool mirror;
	u64 lap_tid;
};

/**
 * struct pdcm_conn - a pdcm_id and everything the CM keeps for it
 * @id: the public part
 * @lock: protects the state and every field below that changes after
 *	creation
 * @refs: see "Lifetime" above
 * @released: completed when @refs reaches zero and a destroyer waits
 * @free_work: frees the conn when nobody waits for it
 * @ev_work: drains @events, one at a time, on pdcm_wq
 * @events: queued struct pdcm_ev, oldest first
 * @npending: received messages among @events (bounded by
 *	PDCM_CONN_MAX_PENDING)
 * @err_ev: preallocated: the retried MAD timed out (@err_status)
 * @err_status: the completion status of the MAD that timed out
 * @msg_gen: counts the retried MADs posted (pdcm_xmit() with a timeout)
 * @err_gen: @msg_gen of the MAD that timed out: @err_ev is stale if
 *	another retried MAD has been posted since (the state moved on)
 * @evicted: @err_ev stands for an eviction from a full backlog
 *	(pdcm_halfopen_evict()), not a timeout: the peer is told REJ TIMEOUT
 * @halfopen: passive side: our place among the half-open connections of
 *	the backlog whose slot we hold, from our REP until it is answered
 * @tw_ev: preallocated: timewait is over
 * @est_ev: preallocated: pdcm_notify(IB_EVENT_COMM_EST)
 * @destroyed: set once by destroy; queued work then skips the handler
 * @ev_held: a passive conn whose REQ is still being delivered: events
 *	queue on @events but @ev_work is not started until the REQ handler
 *	has returned (pdcm_conn_unhold())
 * @no_waiter: the destroyer does not wait: the last put frees
 * @port: the port of the connection, once known
 * @ah_attr: address of the peer (RoCE: holds a reference to its sgid_attr)
 * @ah_valid: @ah_attr is set
 * @pkey_index: P_Key index for MADs and the QP
 * @alt: the alternate path, or NULL (apm.c)
 * @datapath_dlid: passive side on InfiniBand: the LID the QP sends to,
 *	the REQ's local port LID, where @ah_attr's (the MADs') is the
 *	packet's source LID, a router's for a routed REQ; 0: @ah_attr's
 * @listen: LISTEN state: our entry in the listen table
 * @matched: passive side: the listen whose backlog slot we hold, or NULL
 * @msg: the outstanding retried MAD (REQ, REP, DREQ, SIDR_REQ) or NULL
 * @tid: TID of the current exchange
 * @remote_ca_guid: the peer's CA GUID (host order)
 * @remote_qpn: the peer's QPN
 * @local_qpn: our QPN
 * @sq_psn: PSN our QP sends from: the starting PSN of the peer's REQ or
 *	REP (a message's starting PSN is what its sender receives from, as
 *	ib_cm and rdma_cm have it)
 * @rq_psn: PSN our QP receives from: the one we sent in our REQ or REP
 * @qp_type: connection's QP type
 * @path_mtu: negotiated path MTU (enum ib_mtu)
 * @responder_resources: what we grant as responder (after the swap)
 * @initiator_depth: what we issue as initiator (after the swap)
 * @retry_count: transport retry count
 * @rnr_retry_count: RNR retry count
 * @local_ack_timeout: the QP's local ACK timeout (pdcm_ack_timeout())
 * @packet_life_time: active side: the path's packet lifetime, which the
 *	REP's target ACK delay is added to
 * @cm_timeout_ms: how long we wait for the peer's CM per try
 * @max_cm_retries: tries after the first
 * @mra_timeout: what our MRA asks for; its PDCM_MRA_FLAG_DELAY bit says
 *	"not sent yet"
 * @mra_msg: which message we MRAed (PDCM_MSG_RESPONSE_*)
 * @mra_work: sends a delayed MRA of the peer's REQ before the peer's wait
 *	for an answer runs out (pdcm_mra_early_pct), if no copy of the REQ
 *	made it go out first
 * @req_jiffies: passive side: when the peer's REQ arrived
 * @peer_wait_ms: passive side: how long the peer waits for an answer to
 *	its REQ (its remote CM response timeout plus its local ACK timeout,
 *	both capped)
 * @req_copied: passive side: a copy of the REQ came while the REQ waited
 *	in pdcm_wq, so the peer is waiting for the (delayed) MRA already
 * @remote_id_node: in the remote-ID table, keyed (remote comm ID, GUID), or
 *	for SIDR in the SIDR table, keyed (request ID, sender's GID)
 * @remote_id_key: its key (remote.c)
 * @remote_qp_node: in the remote-QPN table, keyed (remote QPN, GUID)
 * @remote_qp_key: its key
 * @sidr: this is a SIDR exchange (selects the table of @remote_id_node)
 * @timewait_work: ends TIMEWAIT
 * @list: in pdcm_cm.conns, for debugfs
 * @created: jiffies at creation
 * @rcu: frees the memory a grace period after the last reference
 */
struct pdcm_conn {
	struct pdcm_id id;
	spinlock_t lock;	/* see @lock above */
	refcount_t refs;
	struct completion released;
	struct work_struct free_work;
	struct work_struct ev_work;
	struct list_head events;
	unsigned int npending;
	struct pdcm_ev err_ev;
	enum ib_wc_status err_status;
	u32 msg_gen;
	u32 err_gen;
	struct pdcm_ev tw_ev;
	struct pdcm_ev est_ev;
	bool destroyed;
	bool no_waiter;
	bool ev_held;

	struct pdcm_port *port;
	struct rdma_ah_attr ah_attr;	/* each send makes its AH from it */
	bool ah_valid;
	u16 pkey_index;
	u16 datapath_dlid;
	struct pdcm_alt *alt;

	struct pdcm_listen *listen;
	struct pdcm_listen *matched;

	struct ib_mad_send_buf *msg;
	u64 tid;
	u64 remote_ca_guid;
	u32 remote_qpn;
	u32 local_qpn;
	u32 sq_psn;
	u32 rq_psn;
	enum ib_qp_type qp_type;
	u8 path_mtu;
	u8 responder_resources;
	u8 initiator_depth;
	u8 retry_count;
	u8 rnr_retry_count;
	u8 local_ack_timeout;
	u8 packet_life_time;
	unsigned int cm_timeout_ms;
	u8 max_cm_retries;
	u8 mra_timeout;
	u8 mra_msg;
	struct delayed_work mra_work;
	unsigned long req_jiffies;
	unsigned int peer_wait_ms;
	bool req_copied;
	bool evicted;
	struct pdcm_halfopen halfopen;

	struct rb_node remote_id_node;
	struct pdcm_remote_key remote_id_key;
	struct rb_node remote_qp_node;
	struct pdcm_remote_key remote_qp_key;
	bool sidr;
	struct delayed_work timewait_work;
	struct list_head list;
	unsigned long created;
	struct rcu_head rcu;
};

/**
 * pdcm_ack_timeout() - a QP's local ACK timeout for a path and a CA
 * @ca_ack_delay: the receiving CA's ACK delay (log2 of 4.096 us units)
 * @packet_life_time: the path's packet lifetime (the same units)
 *
 * The wait for an ACK is a round trip, 2^(@packet_life_time + 1), plus
 * the CA's delay, 2^@ca_ack_delay: the larger of the two exponents, one
 * more when the smaller is within a factor of two of it (the sum then
 * passes the larger power of two).  A smaller term is left out, as ib_cm
 * leaves it, so both CMs put the same figure on the wire.
 *
 * Context: any.
 * Return: the timeout exponent, at most 31.
 */
static inline u8 pdcm_ack_timeout(u8 ca_ack_delay, u8 packet_life_time)
{
	unsigned int rtt = packet_life_time + 1;
	unsigned int hi = max_t(unsigned int, rtt, ca_ack_delay);
	unsigned int lo = min_t(unsigned int, rtt, ca_ack_delay);

	return min(hi + (lo + 1 >= hi), 31U);
}

static inline struct pdcm_conn *to_conn(struct pdcm_id *id)
{
	return container_of(id, struct pdcm_conn, id);
}

/**
 * struct pdcm_transport_ops - how the CM reaches the wire
 * @send: encode @msg and send it to @conn's peer; with @timeout_ms > 0 it
 *	is retried @retries times and becomes @conn->msg until answered,
 *	cancelled or timed out (reported through pdcm_cm_send_done())
 * @cancel: stop retrying @conn->msg (its completion still comes)
 * @extend: give @conn->msg @timeout_ms more before the next retry (MRA)
 * @reply: send @msg to whoever sent @rx, outside any connection
 * @peer_av: build @conn's address on the passive side: with @path NULL,
 *	the address @rx came from (SIDR: only replies use it); else from
 *	the REQ's primary path @path, which it completes from @rx as the
 *	reply address shows it (RoCE: the path type of the GID entry @rx
 *	arrived at, that entry, the peer's MAC; the hop limit): the QP's
 *	address follows what the peer asked for (traffic class, flow
 *	label, SL, rate), not the packet, as in ib_cm
 * @path_av: build @conn's address from a path (active side), from the GID
 *	entry @sgid_attr if not NULL
 * @alt_av: build an alternate address from @path: the port of @port's
 *	device that has @path's source GID, the index of @path's P_Key
 *	there, the address (-EINVAL for a GID or P_Key the device lacks)
 *
 * mad.c implements these over the MAD layer; the KUnit suite pdcm_fsm
 * implements them with a recorder.  @send, @cancel and @extend are called
 * with conn->lock held and must not sleep; @send sets conn->msg for a
 * retried message (cancelling the one it replaces).  @reply, @peer_av and
 * @path_av are called without it.
 */
struct pdcm_transport_ops {
	int (*send)(struct pdcm_conn *conn, const struct pdcm_msg *msg,
		    unsigned int timeout_ms, unsigned int retries);
	void (*cancel)(struct pdcm_conn *conn);
	void (*extend)(struct pdcm_conn *conn, unsigned int timeout_ms);
	int (*reply)(const struct pdcm_rx *rx, const struct pdcm_msg *msg);
	int (*peer_av)(struct pdcm_conn *conn, const struct pdcm_rx *rx,
		       struct sa_path_rec *path);
	int (*path_av)(struct pdcm_conn *conn, struct sa_path_rec *path,
		       const struct ib_gid_attr *sgid_attr);
	int (*alt_av)(struct pdcm_port *port, struct sa_path_rec *path,
		      struct pdcm_alt *alt);
};

/**
 * struct pdcm_transport_up - the one way from a transport up into the CM
 * @rx: a CM MAD arrived and decoded (process context, may not sleep)
 * @hold: a MAD of @conn is about to be posted: keep @conn until its
 *	@send_done
 * @send_done: a MAD posted for @conn completed (IB_WC_SUCCESS, cancelled
 *	or out of retries); drops @hold's reference
 *
 * A port's transport (port->ops) calls nothing of the connection code by
 * name: it reaches it only through port->up, which device.c sets to
 * pdcm_cm_up and the KUnit fake to the same.  So the layers read MAD ->
 * rx -> connections -> fsm, with no way back.
 */
struct pdcm_transport_up {
	void (*rx)(const struct pdcm_rx *rx, const struct pdcm_msg *msg);
	void (*hold)(struct pdcm_conn *conn);
	void (*send_done)(struct pdcm_conn *conn, struct ib_mad_send_buf *msg,
			  enum ib_wc_status status);
};

/* fsm.c */
enum pdcm_fsm_event {
	PDCM_EV_LISTEN,
	PDCM_EV_SEND_REQ,
	PDCM_EV_RX_REQ,
	PDCM_EV_SEND_MRA,
	PDCM_EV_RX_MRA,
	PDCM_EV_SEND_REP,
	PDCM_EV_RX_REP,
	PDCM_EV_SEND_RTU,
	PDCM_EV_RX_RTU,
	PDCM_EV_COMM_EST,
	PDCM_EV_SEND_REJ,
	PDCM_EV_RX_REJ,
	PDCM_EV_RX_REJ_STALE,	/* a REJ 10 (stale connection) */
	PDCM_EV_TIMEOUT,
	PDCM_EV_SEND_DREQ,
	PDCM_EV_RX_DREQ,
	PDCM_EV_SEND_DREP,
	PDCM_EV_RX_DREP,
	PDCM_EV_TIMEWAIT_DONE,
	PDCM_EV_SEND_SIDR_REQ,
	PDCM_EV_RX_SIDR_REQ,
	PDCM_EV_SEND_SIDR_REP,
	PDCM_EV_RX_SIDR_REP,
	PDCM_NUM_FSM_EVENTS
};

int pdcm_fsm_next(enum pdcm_state state, enum pdcm_fsm_event ev);
int pdcm_fsm_step(struct pdcm_conn *conn, enum pdcm_fsm_event ev);
const char *pdcm_fsm_event_name(enum pdcm_fsm_event ev);

/* id.c */
struct pdcm_conn *pdcm_conn_alloc(struct ib_device *device,
				  pdcm_handler handler, void *context,
				  gfp_t gfp);
int pdcm_conn_hash(struct pdcm_conn *conn);
void pdcm_conn_set_port(struct pdcm_conn *conn, struct pdcm_port *port);
struct pdcm_device;
void pdcm_conns_release_avs(struct pdcm_device *dev);
struct pdcm_conn *pdcm_conn_get_by_local_id(u32 local_id);
void pdcm_conn_get(struct pdcm_conn *conn);
void pdcm_conn_put(struct pdcm_conn *conn);
void pdcm_conn_destroy(struct pdcm_conn *conn, bool wait);
int pdcm_conns_live(void);
void pdcm_conns_show(struct seq_file *m);
void pdcm_conns_states_show(struct seq_file *m);
int pdcm_ids_init(void);
void pdcm_ids_exit(void);

/* rx.c */
extern struct workqueue_struct *pdcm_wq;
extern const struct pdcm_transport_up pdcm_cm_up;
#if IS_ENABLED(CONFIG_KUNIT)
extern atomic_t pdcm_pending_work;
extern atomic_t pdcm_pending_reqs;
#endif
bool pdcm_conn_post(struct pdcm_conn *conn, struct pdcm_ev *ev);
void pdcm_conn_ev_work(struct work_struct *work);
void pdcm_timewait_fire(struct work_struct *work);

/* handshake.c */
extern unsigned int pdcm_mra_early_pct;
void pdcm_mra_fire(struct work_struct *work);
/* the GIDs a received MAD came from and went to, by network type */
bool pdcm_rx_gids(const struct pdcm_rx *rx, union ib_gid *sgid,
		  union ib_gid *dgid);

/* conn.c */
int pdcm_xmit(struct pdcm_conn *conn, struct pdcm_msg *msg,
	      unsigned int timeout_ms, unsigned int retries);
void pdcm_reply(const struct pdcm_rx *rx, struct pdcm_msg *msg);
void pdcm_deliver(struct pdcm_conn *conn, struct pdcm_event *ev);
unsigned int pdcm_retries(u8 wanted);
u64 pdcm_new_tid(struct pdcm_conn *conn);
u64 pdcm_node_guid(struct pdcm_port *port);

/* The peer CM's QP for @conn's MADs (pdcm_id.remote_cm_qpn): 1 unless redirected. */
static inline u32 pdcm_cm_qpn(const struct pdcm_conn *conn)
{
	u32 qpn = READ_ONCE(conn->id.remote_cm_qpn) & 0xffffff;

	return qpn ?: 1;
}

/* handshake.c */
extern unsigned int pdcm_halfopen_evict_ms;
bool pdcm_halfopen_evict(struct pdcm_listen *l, struct pdcm_port *port);

/* mad.c */
extern const struct pdcm_transport_ops pdcm_mad_ops;
int pdcm_mad_set_av(struct pdcm_conn *conn, struct rdma_ah_attr *av,
		    u16 pkey_index);

/* sidr.c */
bool pdcm_sidr_req_work(struct pdcm_listen *l, const struct pdcm_rx *rx,
			const struct pdcm_msg *msg);
void pdcm_sidr_rep_rx(struct pdcm_conn *conn, const struct pdcm_msg *msg);
void pdcm_sidr_reply(const struct pdcm_rx *rx, const struct pdcm_msg *req,
		     u8 status);

/* path.c */
void pdcm_path_to_wire(struct sa_path_rec *path, struct pdcm_path *w,
		       u8 local_ack_timeout);
void pdcm_wire_to_path(const struct pdcm_path *w, const struct pdcm_req *req,
		       bool roce, struct sa_path_rec *path);
void pdcm_path_routed_lids(struct pdcm_path *w, const struct ib_wc *wc);
u16 pdcm_req_path(const struct pdcm_req *req, const struct ib_wc *wc,
		  bool roce, struct sa_path_rec *path);
void pdcm_conn_origin(const struct pdcm_conn *conn, u16 req_pkey,
		      const struct ib_gid_attr **sgid_attr, u16 *bth_pkey);
void pdcm_parse_addr(const void *pdata, size_t len, __be64 service_id,
		     struct pdcm_addr_info *addr);

/* rx.c */
void pdcm_cm_rx(const struct pdcm_rx *rx, const struct pdcm_msg *msg);
int pdcm_cm_init(void);
void pdcm_cm_exit(void);

/* apm.c */
void pdcm_alt_free(struct pdcm_alt *alt);
struct pdcm_alt *pdcm_alt_build(struct pdcm_port *port,
				struct sa_path_rec *path);
int pdcm_conn_set_alt(struct pdcm_conn *conn, struct pdcm_alt **alt);
bool pdcm_alt_qp_attr(const struct pdcm_conn *conn, struct ib_qp_attr *attr);
int pdcm_migrate(struct pdcm_conn *conn);
void pdcm_alt_ack_timeout(struct pdcm_conn *conn, u8 target_ack_delay);

/* disconnect.c */
void pdcm_cm_send_done(struct pdcm_conn *conn, struct ib_mad_send_buf *msg,
		       enum ib_wc_status status);

#endif /* _PDCM_CM_H */
